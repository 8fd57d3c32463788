// Writes the small synthetic captures of tests/data/: one file for every layout the readers
// know, so that every reader and writer is tested in any clone, without the real captures.
//
//     generate_test_data OUTPUT_DIR
//
// The sessions are made up here (a deterministic random walk, no real capture is copied): a
// loading stretch at the start, a steady 60 fps cadence with jitter, a few stutters, one hitch,
// frames that miss their vsync and are dropped, other processes and swap chains presenting in
// between, and in two files generated frames. The real files' quirks are mirrored where the
// readers have code for them: a UTF-8 byte-order mark, CRLF line ends, `NA` cells, quoted
// cells, OCAT's system columns on the first row only, CapFrameX's `//Key=Value` preamble,
// MangoHud's preamble in both forms.
//
// Everything is integer arithmetic (times in 100 ns QPC ticks, a 10 MHz counter) so that the
// output is byte-identical on every machine and compiler; tests/test_data_test.cpp regenerates
// the files and compares them with the committed ones. expected_streams.json lists, for every
// file, what a reader must find in it, from the values written (never from reading them back).
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

constexpr std::int64_t kTicksPerMs = 10'000;   // a 10 MHz QPC counter: 100 ns a tick
constexpr std::int64_t kVsyncTicks = 166'667;  // 60 Hz
constexpr std::int64_t kNa = INT64_MIN;        // a cell written as NA

// splitmix64: a tiny generator whose output is fixed by its definition (std::uniform_*
// distributions are not the same on every standard library).
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in [lo, hi].
    std::int64_t between(std::int64_t lo, std::int64_t hi) {
        return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
    }

  private:
    std::uint64_t state_;
};

// Ticks as milliseconds with four decimals (exact: a tick is 0.0001 ms), `pad` zeros appended
// the way PresentMon prints fourteen decimals.
std::string ms(std::int64_t ticks, int pad = 0) {
    if (ticks == kNa)
        return "NA";
    const char* sign = ticks < 0 ? "-" : "";
    const std::int64_t a = ticks < 0 ? -ticks : ticks;
    return fmt::format("{}{}.{:04}{}", sign, a / kTicksPerMs, a % kTicksPerMs,
                       std::string(static_cast<std::size_t>(pad), '0'));
}
// Ticks as seconds with seven decimals (exact), `pad` zeros appended.
std::string seconds(std::int64_t ticks, int pad = 0) {
    return fmt::format("{}.{:07}{}", ticks / 10'000'000, ticks % 10'000'000,
                       std::string(static_cast<std::size_t>(pad), '0'));
}

// The frame times of a game session, in ticks: a loading stretch, then 60 fps with jitter,
// stutters (about three frames long) now and then, and one hitch.
std::vector<std::int64_t> game_frames(Rng& rng, std::size_t n, std::size_t hitch_at) {
    std::vector<std::int64_t> f;
    f.push_back(3'500'000);  // the first frame after loading: 350 ms
    for (std::size_t i = 1; i < 18 && i < n; ++i)
        f.push_back(rng.between(400'000, 900'000));  // shader compilation, 40-90 ms
    while (f.size() < n) {
        const std::size_t i = f.size();
        if (i == hitch_at) {
            f.push_back(1'420'000);  // 142 ms: the hitch
        } else if (i % 41 == 23) {
            f.push_back(rng.between(480'000, 560'000));  // a stutter, about 3 frames
        } else {
            f.push_back(166'667 + rng.between(-15'000, 15'000));
        }
    }
    return f;
}

// One present as the writers need it; times in ticks since the capture began.
struct Present {
    std::int64_t present = 0;             // when Present() was called
    std::int64_t between_presents = 0;    // since the stream's previous present (kNa: unknown)
    std::int64_t cpu_start = 0;           // when the app began this frame
    std::int64_t app_interval = 0;        // this app frame's start to the next one's (0: generated)
    std::int64_t display_interval = kNa;  // since the previous frame on screen (kNa: none)
    std::int64_t until_displayed = kNa;   // present to screen (kNa: never displayed)
    bool dropped = false;
    bool generated = false;
    std::int64_t animation_error = kNa;
};

struct Stream {
    std::string app;
    std::int64_t pid = 0;
    std::uint64_t swap = 0;
    std::string runtime = "DXGI";
    int sync_interval = 0;
    std::string present_mode = "Hardware: Independent Flip";
    std::vector<Present> rows;
};

// Puts each frame on the next vsync after it is presented plus `latency` ticks; a frame whose
// vsync the next frame also reaches is replaced before it is shown, and so dropped.
void display_on_vsync(std::vector<Present>& rows, std::int64_t latency) {
    std::int64_t previous_screen = kNa;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto screen_of = [&](std::size_t k) {
            return (rows[k].present + latency + kVsyncTicks - 1) / kVsyncTicks * kVsyncTicks;
        };
        const std::int64_t screen = screen_of(i);
        if (i + 1 < rows.size() && screen_of(i + 1) == screen) {
            rows[i].dropped = true;
            continue;
        }
        rows[i].until_displayed = screen - rows[i].present;
        rows[i].display_interval = previous_screen == kNa ? kNa : screen - previous_screen;
        previous_screen = screen;
    }
}

// A stream of presents from frame times: frame i starts on the CPU at the sum of the ones
// before, is presented `render` ticks later.
std::vector<Present> presents_of(const std::vector<std::int64_t>& frames, std::int64_t origin,
                                 Rng& rng) {
    std::vector<Present> rows;
    std::int64_t start = origin;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        Present p;
        p.cpu_start = start;
        p.app_interval = frames[i];
        p.present = start + frames[i] - rng.between(2'000, 6'000);
        p.between_presents = i == 0 ? frames[i] : p.present - rows.back().present;
        p.animation_error = i == 0 ? kNa : rng.between(-9'000, 9'000);
        rows.push_back(p);
        start += frames[i];
    }
    display_on_vsync(rows, 20'000);
    return rows;
}

// Frame generation: between two application frames a generated one is presented, halfway. The
// generated row carries the CPU start of the application frame that follows it (as PresentMon
// writes it), no CPU time of its own and no animation error.
std::vector<Present> with_generated_frames(const std::vector<std::int64_t>& app_frames,
                                           std::int64_t origin, Rng& rng) {
    std::vector<Present> rows;
    std::int64_t start = origin;
    for (std::size_t i = 0; i < app_frames.size(); ++i) {
        const std::int64_t app_present = start + app_frames[i] - rng.between(2'000, 6'000);
        if (i > 0) {
            Present g;
            g.generated = true;
            g.cpu_start = start;
            g.app_interval = 0;
            g.present = (rows.back().present + app_present) / 2;
            g.between_presents = g.present - rows.back().present;
            rows.push_back(g);
        }
        Present p;
        p.cpu_start = start;
        p.app_interval = app_frames[i];
        p.present = app_present;
        p.between_presents = rows.empty() ? app_frames[i] : p.present - rows.back().present;
        p.animation_error = i == 0 ? kNa : rng.between(-20'000, 20'000);
        rows.push_back(p);
        start += app_frames[i];
    }
    display_on_vsync(rows, 20'000);
    return rows;
}

// Intel XeSS frame generation as PresentMon 1.x sees it (no FrameType): presents in cycles of
// three, 0.6 / 11.4 / 0.4 ms apart, one application frame of about 12.4 ms a cycle.
std::vector<Present> xess_fg_presents(std::size_t cycles, std::int64_t origin, Rng& rng) {
    std::vector<Present> rows;
    std::int64_t t = origin;
    for (std::size_t c = 0; c < cycles; ++c) {
        const std::int64_t app = 124'000 + rng.between(-4'000, 4'000);
        const std::int64_t first = 6'000 + rng.between(-1'000, 1'000);
        const std::int64_t last = 4'000 + rng.between(-1'000, 1'000);
        for (const std::int64_t gap : {first, app - first - last, last}) {
            Present p;
            p.cpu_start = t;
            p.app_interval = gap;
            t += gap;
            p.present = t;
            p.between_presents = gap;
            rows.push_back(p);
        }
    }
    display_on_vsync(rows, 20'000);
    return rows;
}

// A compositor or a small window: presents about every vsync, `count` of them.
Stream side_stream(const std::string& app, std::int64_t pid, std::uint64_t swap, std::size_t count,
                   std::int64_t origin, std::int64_t period, Rng& rng) {
    Stream s;
    s.app = app;
    s.pid = pid;
    s.swap = swap;
    s.sync_interval = 1;
    s.present_mode = "Hardware: Legacy Flip";
    std::vector<std::int64_t> frames;
    for (std::size_t i = 0; i < count; ++i)
        frames.push_back(period + rng.between(-3'000, 3'000));
    s.rows = presents_of(frames, origin, rng);
    return s;
}

// What a reader must find in one stream; written to expected_streams.json.
struct Expected {
    std::string process;
    std::int64_t pid = -1;
    std::string swap_chain;
    std::size_t frames = 0;
    std::int64_t sum_ns = 0;
    std::int64_t max_ns = 0;
    std::size_t dropped = 0;
    std::size_t generated = 0;
    std::int64_t first_start_ns = 0;
    std::size_t first_row = 0;  // order of first appearance, to break ties as the readers do
};

struct FileExpectation {
    std::string format;
    bool per_frame = true;
    std::vector<Expected> streams;
};

// A text file assembled line by line, with the chosen line end.
class TextFile {
  public:
    explicit TextFile(bool crlf = false, bool bom = false) : eol_(crlf ? "\r\n" : "\n") {
        if (bom)
            text_ = "\xEF\xBB\xBF";
    }
    void line(const std::string& s) { text_ += s + eol_; }
    const std::string& text() const { return text_; }

  private:
    std::string eol_;
    std::string text_;
};

void save(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out)
        throw std::runtime_error("cannot write " + path.string());
}

std::string join(const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i)
        out += (i ? "," : "") + cells[i];
    return out;
}

// Rows of several streams in present order (the order PresentMon writes them).
struct RowRef {
    std::size_t stream;
    std::size_t row;
};
std::vector<RowRef> interleave(const std::vector<Stream>& streams) {
    std::vector<RowRef> refs;
    for (std::size_t s = 0; s < streams.size(); ++s) {
        for (std::size_t r = 0; r < streams[s].rows.size(); ++r)
            refs.push_back({s, r});
    }
    std::stable_sort(refs.begin(), refs.end(), [&](const RowRef& a, const RowRef& b) {
        return streams[a.stream].rows[a.row].present < streams[b.stream].rows[b.row].present;
    });
    return refs;
}

// Streams most frames first, ties in the order they first appear: what list_capture_streams
// returns.
std::vector<Expected> ordered(std::vector<Expected> e) {
    std::stable_sort(e.begin(), e.end(), [](const Expected& a, const Expected& b) {
        return a.first_row < b.first_row;
    });
    std::stable_sort(e.begin(), e.end(),
                     [](const Expected& a, const Expected& b) { return a.frames > b.frames; });
    return e;
}

// Tallies what a reader sees of one stream, given the frame time, start and flags it reads.
struct Tally {
    Expected e;
    void add(std::int64_t frame_ns, std::int64_t start_ns, bool dropped, bool generated) {
        if (e.frames == 0)
            e.first_start_ns = start_ns;
        ++e.frames;
        e.sum_ns += frame_ns;
        e.max_ns = std::max(e.max_ns, frame_ns);
        e.dropped += dropped ? 1 : 0;
        e.generated += generated ? 1 : 0;
    }
};

// The tallies of a file of several streams, each named where its stream first appears.
class Tallies {
  public:
    explicit Tallies(std::size_t streams) : tallies_(streams), named_(streams, false) {}
    // The tally of the next row, which belongs to `stream`.
    Tally& of_row(const Stream& s, std::size_t stream, const std::string& swap_chain) {
        Tally& t = tallies_[stream];
        if (!named_[stream]) {
            t.e.process = s.app;
            t.e.pid = s.pid;
            t.e.swap_chain = swap_chain;
            t.e.first_row = rows_;
            named_[stream] = true;
        }
        ++rows_;
        return t;
    }
    FileExpectation result(const std::string& format) const {
        FileExpectation out{format, true, {}};
        for (const Tally& t : tallies_)
            out.streams.push_back(t.e);
        out.streams = ordered(out.streams);
        return out;
    }

  private:
    std::vector<Tally> tallies_;
    std::vector<bool> named_;
    std::size_t rows_ = 0;
};

std::string hex_swap(std::uint64_t swap, bool padded) {
    return padded ? fmt::format("0x{:016X}", swap) : fmt::format("0x{:X}", swap);
}

// The first eight cells of a PresentMon 2.x and 2.4+ row: who presented, and how.
std::vector<std::string> pm2_leading_cells(const Stream& s) {
    return {s.app,
            std::to_string(s.pid),
            hex_swap(s.swap, false),
            s.runtime,
            std::to_string(s.sync_interval),
            "0",
            s.sync_interval == 0 ? "1" : "0",
            s.present_mode};
}

// The smallest CPU start of a file: where the readers count QPC starts from.
std::int64_t earliest_cpu_start(const std::vector<Stream>& ss) {
    std::int64_t min_start = INT64_MAX;
    for (const Stream& s : ss) {
        for (const Present& p : s.rows)
            min_start = std::min(min_start, p.cpu_start);
    }
    return min_start;
}

// ---- The PresentMon family ----------------------------------------------------------------

// PresentMon 1.x: msBetweenPresents, Dropped, TimeInSeconds (and QPCTime), byte-order mark.
// ASCII text as UTF-16LE with its byte-order mark, as Windows PowerShell's `>` saves it.
std::string utf16le(const std::string& ascii) {
    std::string out = "\xFF\xFE";
    for (const char c : ascii) {
        out += c;
        out += '\0';
    }
    return out;
}

// `utf16`: saved as UTF-16LE (with its mark) instead of UTF-8 with a byte-order mark.
FileExpectation write_presentmon1(const std::filesystem::path& dir, const std::vector<Stream>& ss,
                                  std::int64_t qpc_origin,
                                  const std::string& name = "presentmon1.csv", bool utf16 = false) {
    TextFile f(false, !utf16);
    f.line(
        "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,"
        "TimeInSeconds,msInPresentAPI,msBetweenPresents,AllowsTearing,PresentMode,"
        "msUntilRenderComplete,msUntilDisplayed,msBetweenDisplayChange,msFlipDelay,"
        "msUntilRenderStart,msGPUActive,msGPUVideoActive,msSinceInput,QPCTime");
    Tallies t(ss.size());
    for (const RowRef& ref : interleave(ss)) {
        const Stream& s = ss[ref.stream];
        const Present& p = s.rows[ref.row];
        f.line(join({s.app,
                     std::to_string(s.pid),
                     hex_swap(s.swap, true),
                     s.runtime,
                     std::to_string(s.sync_interval),
                     "0",
                     p.dropped ? "1" : "0",
                     seconds(p.present, 7),
                     ms(2'500 + (p.present % 5'000), 10),
                     ms(p.between_presents, 10),
                     s.sync_interval == 0 ? "1" : "0",
                     s.present_mode,
                     ms(9'000 + p.present % 40'000, 10),
                     ms(p.dropped ? 0 : p.until_displayed, 10),
                     ms(p.dropped || p.display_interval == kNa ? 0 : p.display_interval, 10),
                     ms(0, 10),
                     ms(-(p.present % 30'000), 10),
                     ms(80'000 + p.present % 20'000, 10),
                     ms(0, 10),
                     ms(0, 10),
                     std::to_string(qpc_origin + p.present)}));
        t.of_row(s, ref.stream, hex_swap(s.swap, true))
            .add(p.between_presents * 100, p.present * 100, p.dropped, false);
    }
    save(dir / name, utf16 ? utf16le(f.text()) : f.text());
    return t.result("presentmon-1");
}

// PresentMon 2.x ("v2 metrics"): FrameTime (the app's frame, 0 on generated frames),
// CPUStartQPC, DisplayedTime (NA: not displayed), FrameType, byte-order mark.
FileExpectation write_presentmon2(const std::filesystem::path& dir, const std::vector<Stream>& ss,
                                  std::int64_t qpc_origin) {
    TextFile f(false, true);
    f.line(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
        "AllowsTearing,PresentMode,FrameType,CPUStartQPC,FrameTime,CPUBusy,CPUWait,GPULatency,"
        "GPUTime,GPUBusy,GPUWait,VideoBusy,DisplayLatency,DisplayedTime,AnimationError,"
        "AnimationTime,MsFlipDelay,AllInputToPhotonLatency,ClickToPhotonLatency,"
        "InstrumentedLatency");
    const std::int64_t min_start = earliest_cpu_start(ss);
    Tallies t(ss.size());
    // Each stream's previous application present: the reader rebuilds the present timeline from
    // CPU start + CPUBusy, and the first frame has no earlier present.
    std::vector<std::int64_t> previous_present(ss.size(), kNa);
    for (const RowRef& ref : interleave(ss)) {
        const Stream& s = ss[ref.stream];
        const Present& p = s.rows[ref.row];
        // PresentMon 2.x writes no display time for generated frames.
        const bool shown = !p.dropped && !p.generated;
        // The app calls Present CPUBusy after its frame's CPU start.
        const std::int64_t busy = p.generated ? 0 : p.present - p.cpu_start;
        const std::int64_t wait =
            p.generated ? 0 : std::max<std::int64_t>(p.app_interval - busy, 0);
        const std::int64_t displayed =
            !shown ? kNa : (p.display_interval == kNa ? kVsyncTicks : p.display_interval);
        std::vector<std::string> cells = pm2_leading_cells(s);
        for (std::string& c : std::vector<std::string>{
                 p.generated ? "Intel XeSS-FG" : "Application",
                 std::to_string(qpc_origin + p.cpu_start), ms(p.app_interval), ms(busy), ms(wait),
                 ms(p.generated ? 0 : 31'000), ms(p.generated ? 0 : 92'000),
                 ms(p.generated ? 0 : 88'000), ms(p.generated ? 0 : 4'000), ms(0),
                 shown ? ms(p.present - p.cpu_start + p.until_displayed) : "NA", ms(displayed),
                 shown ? ms(p.animation_error) : "NA", shown ? ms(p.cpu_start - min_start) : "NA",
                 "NA", "NA", "NA",
                 shown ? ms(p.present - p.cpu_start + p.until_displayed + 12'000) : "NA"}) {
            cells.push_back(std::move(c));
        }
        f.line(join(cells));
        std::int64_t frame = 0;
        std::int64_t start = p.cpu_start - min_start;
        if (!p.generated) {
            std::int64_t& previous = previous_present[ref.stream];
            frame = previous == kNa ? 0 : p.present - previous;
            previous = p.present;
            start = p.present - min_start;
        }
        t.of_row(s, ref.stream, hex_swap(s.swap, false))
            .add(frame * 100, start * 100, !shown, p.generated);
    }
    save(dir / "presentmon2.csv", f.text());
    return t.result("presentmon-2");
}

// PresentMon 2.4+: MsBetweenPresents, MsBetweenAppStart, MsBetweenDisplayChange (NA on the
// first frame shown), MsUntilDisplayed (NA: never displayed). `qpc` picks the frame-start
// column: CPUStartQPC with TimeInQPC, with a byte-order mark (as test_case_8), or CPUStartTime
// in ms without one (as the 3DMark capture). A stream's first row may have no frame time.
FileExpectation write_presentmon24(const std::filesystem::path& file, const std::vector<Stream>& ss,
                                   bool qpc, std::int64_t qpc_origin,
                                   const std::vector<std::string>& na_first_frame) {
    TextFile f(false, qpc);
    f.line(fmt::format(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
        "AllowsTearing,PresentMode,FrameType,{},MsBetweenSimulationStart,MsBetweenPresents,"
        "MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,"
        "MsPCLatency,{}MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,"
        "MsGPUWait,MsVideoBusy,MsAnimationError,AnimationTime,MsFlipDelay,"
        "MsAllInputToPhotonLatency,MsClickToPhotonLatency,MsInstrumentedLatency",
        qpc ? "TimeInQPC" : "CPUStartTime", qpc ? "CPUStartQPC," : ""));
    const std::int64_t min_start = earliest_cpu_start(ss);
    Tallies t(ss.size());
    for (const RowRef& ref : interleave(ss)) {
        const Stream& s = ss[ref.stream];
        const Present& p = s.rows[ref.row];
        const bool na_frame =
            ref.row == 0 &&
            std::find(na_first_frame.begin(), na_first_frame.end(), s.app) != na_first_frame.end();
        const std::int64_t busy = p.generated ? 0 : p.app_interval * 9 / 10;
        std::vector<std::string> cells = pm2_leading_cells(s);
        for (std::string& c : std::vector<std::string>{
                 p.generated ? "DLSS-FG" : "Application",
                 qpc ? std::to_string(qpc_origin + p.present) : ms(p.cpu_start, 10), "NA",
                 na_frame ? "NA" : ms(p.between_presents, 10),
                 p.dropped ? "NA" : ms(p.display_interval, 10), ms(3'000 + p.present % 4'000, 10),
                 ms(7'000 + p.present % 9'000, 10), p.dropped ? "NA" : ms(p.until_displayed),
                 "NA"}) {
            cells.push_back(std::move(c));
        }
        if (qpc)
            cells.push_back(std::to_string(qpc_origin + p.cpu_start));
        for (const std::string& c : std::vector<std::string>{
                 ms(p.app_interval), ms(busy), ms(p.app_interval - busy),
                 ms(p.generated ? 0 : 1'200), ms(p.generated ? 0 : 95'000),
                 ms(p.generated ? 0 : 90'000), ms(p.generated ? 0 : 5'000), ms(0),
                 p.dropped || p.generated ? "NA" : ms(p.animation_error),
                 p.generated ? "NA" : ms(p.cpu_start - min_start), "NA", "NA", "NA",
                 p.dropped ? "NA" : ms(p.until_displayed + 30'000)}) {
            cells.push_back(c);
        }
        f.line(join(cells));
        Tally& tally = t.of_row(s, ref.stream, hex_swap(s.swap, false));
        if (!na_frame) {  // a row without a frame time is skipped by the reader
            tally.add(p.between_presents * 100, (qpc ? p.cpu_start - min_start : p.cpu_start) * 100,
                      p.dropped, p.generated);
        }
    }
    save(file, f.text());
    return t.result("presentmon-2.4");
}

// The tally of a file's only stream (swap chain written with 16 digits, as PresentMon 1.x does).
Tally tally_of(const Stream& s) {
    Tally t;
    t.e.process = s.app;
    t.e.pid = s.pid;
    t.e.swap_chain = hex_swap(s.swap, true);
    return t;
}

// Columns shared by OCAT, CapFrameX's legacy CSV and FrameView for one 1.x-style present.
struct Pm1Cells {
    std::string dropped, time_s, between, display, in_api, until_complete, until_displayed;
};
Pm1Cells pm1_cells(const Present& p, std::int64_t time_origin) {
    return {p.dropped ? "1" : "0",
            seconds(p.present - time_origin),
            ms(p.between_presents),
            ms(p.dropped || p.display_interval == kNa ? 0 : p.display_interval),
            ms(1'800 + p.present % 3'000),
            ms(50'000 + p.present % 30'000),
            ms(p.dropped ? 0 : p.until_displayed)};
}

// OCAT: PresentMon 1.x columns plus system columns, filled on the first row only (and one
// quoted cell holding a comma).
FileExpectation write_ocat(const std::filesystem::path& dir, const Stream& s) {
    TextFile f;
    f.line(
        "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,"
        "PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,"
        "MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed,"
        "Motherboard,OS,Processor,System RAM,Base Driver Version,Driver Package,GPU #,GPU,"
        "GPU Core Clock (MHz),GPU Memory Clock (MHz),GPU Memory (MB),Comment");
    Tally t = tally_of(s);
    const std::int64_t origin = s.rows.front().present;
    for (std::size_t i = 0; i < s.rows.size(); ++i) {
        const Present& p = s.rows[i];
        const Pm1Cells c = pm1_cells(p, origin);
        std::string line =
            join({s.app, std::to_string(s.pid), hex_swap(s.swap, true), s.runtime, "0", "0", "1",
                  "Hardware Composed: Independent Flip", "0", "0", c.dropped, c.time_s, c.between,
                  c.display, c.in_api, c.until_complete, c.until_displayed});
        if (i == 0) {
            line +=
                ",\"Example Boards, Inc. B650 TEST\",\"Windows 11 Pro 23H2\","
                "Example CPU 8-Core Processor,32 GB DDR5 6000 MT/s,551.23,r550_00,1,"
                "Example GPU 4070,2610,10501,12282,synthetic test capture";
        }
        f.line(line);
        t.add(p.between_presents * 100, (p.present - origin) * 100, p.dropped, false);
    }
    save(dir / "ocat.csv", f.text());
    return {"ocat", true, {t.e}};
}

// CapFrameX's legacy CSV: `//Key=Value` lines, then PresentMon 1.x columns; CRLF line ends.
FileExpectation write_capframex_csv(const std::filesystem::path& dir, const Stream& s) {
    TextFile f(true);
    for (const char* kv :
         {"//GameName=game.exe", "//ProcessName=Synthetic Test Game", "//CreationDate=2026-01-01",
          "//CreationTime=12:00:00", "//RecordTime=8", "//Motherboard=Example Boards B650",
          "//OS=Windows 11", "//Processor=Example CPU 8-Core Processor",
          "//System RAM=32 GB DDR5 6000 MT/s", "//GPU=Example GPU 4070", "//Comment=synthetic"}) {
        f.line(kv);
    }
    f.line(
        "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,"
        "PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,"
        "MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed");
    Tally t = tally_of(s);
    const std::int64_t origin = s.rows.front().present;
    for (const Present& p : s.rows) {
        const Pm1Cells c = pm1_cells(p, origin);
        f.line(join({s.app, std::to_string(s.pid), hex_swap(s.swap, true), s.runtime, "0", "0", "0",
                     "Composed: Flip", "0", "1", c.dropped, c.time_s, c.between, c.display,
                     c.in_api, c.until_complete, c.until_displayed}));
        t.add(p.between_presents * 100, (p.present - origin) * 100, p.dropped, false);
    }
    save(dir / "capframex_legacy.csv", f.text());
    return {"capframex-csv", true, {t.e}};
}

// FrameView `_Log.csv`: PresentMon-like timing among GPU and CPU telemetry columns, NA cells,
// a CPU name with trailing spaces, CRLF line ends. `damaged`: with the cells FrameView writes
// that are not numbers, `Error` in Dropped (every 50th row from the 18th: the reader counts such
// a frame as not dropped) and a negative display-change difference written as an unsigned
// 64-bit count of 100 ns ticks in MsBetweenDisplayChange (every 70th row from the 34th, where
// the frame was displayed).
FileExpectation write_frameview(const std::filesystem::path& dir, const Stream& s,
                                bool damaged = false, const char* name = "frameview_Log.csv") {
    TextFile f(true);
    f.line(
        "Application,GPU,CPU,Resolution,Runtime,AllowsTearing,ProcessID,SwapChainAddress,"
        "SyncInterval,PresentFlags,PresentMode,Dropped,FlipToken,TimeInSeconds,"
        "MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,"
        "MsRenderPresentLatency,MsUntilDisplayed,Render Queue Depth,MsPCLatency,GPU0Clk(MHz),"
        "GPU0MemClk(MHz),GPU0Util(%),GPU0Temp(C),GPU1Clk(MHz),GPU1Util(%),CPUClk(MHz),"
        "CPUUtil(%),CPU Package Temp(C),CPUCoreUtil%[ 0],CPUCoreUtil%[ 1]");
    Tally t = tally_of(s);
    const std::int64_t origin = s.rows.front().present - 38'000'000;  // 3.8 s into the log
    for (std::size_t i = 0; i < s.rows.size(); ++i) {
        const Present& p = s.rows[i];
        Pm1Cells c = pm1_cells(p, origin);
        bool dropped = p.dropped;
        if (damaged && i % 50 == 17) {
            c.dropped = "Error";
            dropped = false;
        }
        if (damaged && i % 70 == 33 && !dropped)
            c.display = "1844674407370954.500";
        f.line(join({s.app,
                     "Example GPU 4070",
                     "Example CPU 8-Core Processor           ",
                     "2560x1440",
                     "D3D11",
                     "0",
                     std::to_string(s.pid),
                     hex_swap(s.swap, true),
                     "1",
                     "0",
                     "Composed: Copy with GPU GDI",
                     c.dropped,
                     std::to_string(i),
                     c.time_s,
                     "NA",
                     c.between,
                     c.display,
                     c.in_api,
                     c.until_complete,
                     c.until_displayed,
                     std::to_string(1 + static_cast<int>(i % 2)),
                     "NA",
                     "2610",
                     "10501",
                     std::to_string(60 + p.present % 30),
                     "55",
                     "NA",
                     "NA",
                     "4650",
                     std::to_string(20 + p.present % 15),
                     "61",
                     "43",
                     " 38"}));
        t.add(p.between_presents * 100, (p.present - origin) * 100, dropped, false);
    }
    save(dir / name, f.text());
    return {"frameview", true, {t.e}};
}

// ---- The other formats ----------------------------------------------------------------------

// CapFrameX JSON: {Hash, Info, Runs: [{Hash, CaptureData: {...}, SensorData: {...}}]}; each run
// is a stream named "run N".
FileExpectation write_capframex_json(const std::filesystem::path& dir,
                                     const std::vector<std::vector<Present>>& runs) {
    std::string j = "{\n  \"Hash\": \"synthetic-session\",\n";
    j += "  \"Info\": {\"ProcessName\": \"game.exe\", \"GameName\": \"Synthetic Test Game\", "
         "\"Processor\": \"Example CPU 8-Core Processor\", \"GPU\": \"Example GPU 4070\", "
         "\"Comment\": \"synthetic\"},\n  \"Runs\": [\n";
    FileExpectation out{"capframex-json", true, {}};
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const std::vector<Present>& rows = runs[r];
        std::vector<std::string> time, between, display, dropped;
        Tally t;
        t.e.process = "game.exe";
        t.e.swap_chain = fmt::format("run {}", r + 1);
        t.e.first_row = r;
        const std::int64_t origin = rows.front().present;
        for (const Present& p : rows) {
            const Pm1Cells c = pm1_cells(p, origin);
            time.push_back(c.time_s);
            between.push_back(c.between);
            display.push_back(c.display);
            dropped.push_back(p.dropped ? "true" : "false");
            t.add(p.between_presents * 100, (p.present - origin) * 100, p.dropped, false);
        }
        const auto array = [](const std::vector<std::string>& v) { return "[" + join(v) + "]"; };
        j += fmt::format(
            "    {{\"Hash\": \"run-{}\", \"CaptureData\": {{\n      \"TimeInSeconds\": {},\n"
            "      \"MsBetweenPresents\": {},\n      \"MsBetweenDisplayChange\": {},\n"
            "      \"Dropped\": {}}},\n      \"SensorData\": {{\"MeasureTime\": [0.5, 1.0]}}}}{}\n",
            r + 1, array(time), array(between), array(display), array(dropped),
            r + 1 < runs.size() ? "," : "");
        out.streams.push_back(t.e);
    }
    j += "  ]\n}\n";
    save(dir / "capframex.json", j);
    out.streams = ordered(out.streams);
    return out;
}

// MangoHud: every 100 ms, a row with the time of the latest frame then (one frame, not an
// average: MangoHud's Logger::try_log) and fps = 1000 / that time; `versioned` writes the `v1`,
// version and `---...---` lines of MangoHud 0.8, the other file one row whose frametime is NA.
FileExpectation write_mangohud(const std::filesystem::path& file,
                               const std::vector<std::int64_t>& frames, bool versioned) {
    TextFile f;
    if (versioned) {
        f.line("v1");
        f.line("0.8.1-1+");
        f.line("---------------------SYSTEM INFO---------------------");
    }
    f.line("os,cpu,gpu,ram,kernel,driver,cpuscheduler");
    f.line(
        "Example Linux,Example CPU 8-Core Processor,Example GPU 4070 (RADV),32000000,"
        "6.12.0-example,,performance");
    if (versioned)
        f.line("--------------------FRAME METRICS--------------------");
    f.line(
        "fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,"
        "gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,elapsed");
    Tally t;
    constexpr std::int64_t kInterval = 1'000'000;  // 100 ms of ticks
    const std::int64_t origin_ns = 412'345'678;
    std::int64_t clock = 0, next_log = kInterval;
    std::size_t rows = 0;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        // Each logging instant after the previous frame ended and before this one ends sees
        // the previous frame as the latest (MangoHud logs nothing before a first frame).
        while (next_log < clock)
            next_log += kInterval;
        while (i > 0 && next_log < clock + frames[i]) {
            const std::int64_t ft = frames[i - 1];
            const std::int64_t elapsed_ns = origin_ns + next_log * 100;
            const std::string cells = !versioned && rows == 4
                                          ? std::string("NA,NA")
                                          : fmt::format("{}.{:03},{}", 10'000'000'000 / ft / 1000,
                                                        10'000'000'000 / ft % 1000, ms(ft));
            f.line(fmt::format("{},{},0,{},{},{},2610,10501,6.1,180,11.2,0,0,{}", cells,
                               20 + next_log % 17, 90 + next_log % 9, 60 + next_log % 5,
                               50 + next_log % 3, elapsed_ns));
            if (versioned || rows != 4)
                t.add(ft * 100, elapsed_ns, false, false);
            ++rows;
            next_log += kInterval;
        }
        clock += frames[i];
    }
    save(file, f.text());
    return {"mangohud", false, {t.e}};
}

// MSI Afterburner's hardware monitoring log: CRLF, 00 to 03 lines, sensor names padded to 20
// characters and Framerate / Frametime logged twice, a row every second with the frames of that
// second as Framerate (one decimal) and its longest frame as Frametime, N/A while no game runs,
// and a second logging session appended with its own header lines.
FileExpectation write_afterburner(const std::filesystem::path& file,
                                  const std::vector<std::vector<std::int64_t>>& sessions) {
    TextFile f(true);
    FileExpectation out{"afterburner", false, {}};
    const auto pad = [](std::string s) {
        s.resize(std::max<std::size_t>(s.size(), 20), ' ');
        return s;
    };
    std::int64_t clock_s = 15 * 3600 + 41 * 60 + 23;  // 15:41:23
    for (std::size_t k = 0; k < sessions.size(); ++k) {
        const auto stamp = [&](std::int64_t at_s) {
            return fmt::format("24-10-2025 {:02}:{:02}:{:02}", at_s / 3600, at_s / 60 % 60,
                               at_s % 60);
        };
        const std::int64_t origin_s = clock_s;
        const std::string begun = stamp(origin_s);
        f.line(fmt::format("00, {}, Hardware monitoring log v1.6 ,,,,,,,,,,", begun));
        f.line(fmt::format("01, {}, Example GPU 4070,,,,,,,,,,", begun));
        f.line(fmt::format("02, {}, {},{},{},,,,,,,{},{}", begun, pad("Power"), pad("Framerate"),
                           pad("Frametime"), pad("Framerate"), pad("Frametime")));
        const std::string blank = pad("");
        f.line(fmt::format("03, {},0,{},0,300,10,{},{},{},,{},0", begun, pad("W"), blank, blank,
                           pad("%.1f"), pad("W")));
        f.line(fmt::format("03, {},1,{},0,200,10,{},{},,,{},0", begun, pad("FPS"), blank, blank,
                           pad("FPS")));
        f.line(fmt::format("03, {},2,{},0,50,10,{},{},{},,{},0", begun, pad("ms"), blank, blank,
                           pad("%.1f"), pad("ms")));
        Tally t;
        t.e.swap_chain = sessions.size() > 1 ? fmt::format("session {}", k + 1) : "";
        t.e.first_row = k;
        // Two seconds with no game, then the frames, second by second.
        const std::string na = pad("N/A");
        for (int i = 1; i <= 2; ++i) {
            f.line(fmt::format("80, {},{}.{:03},{},{},,,,,,,{},{}", stamp(clock_s + i), 6,
                               i * 117 % 1000, na, na, na, na));
        }
        clock_s += 2;
        constexpr std::int64_t kSecond = 10'000'000;  // ticks
        std::int64_t in_second = 0, count = 0, longest = 0;
        for (const std::int64_t ft : sessions[k]) {
            in_second += ft;
            ++count;
            longest = std::max(longest, ft);
            if (in_second < kSecond)
                continue;
            // Frames per second to one decimal, from the frames that ended within the second.
            ++clock_s;
            const std::int64_t tenths = (count * kSecond * 10 * 2 + in_second) / (2 * in_second);
            const std::string rate = fmt::format("{}.{}", tenths / 10, tenths % 10);
            const std::int64_t longest_us = (longest + 5) / 10;
            const std::string longest_ms =
                fmt::format("{}.{:03}", longest_us / 1000, longest_us % 1000);
            f.line(fmt::format("80, {},{}.{:03},{},{},,,,,,,{},{}", stamp(clock_s),
                               140 + clock_s % 6, clock_s * 37 % 1000, rate, longest_ms, rate,
                               longest_ms));
            // The reader's frame time: 1000 / Framerate ms, to the nanosecond.
            const std::int64_t frame_ns = (2 * 10'000'000'000 + tenths) / (2 * tenths);
            t.add(frame_ns, (clock_s - origin_s) * 1'000'000'000, false, false);
            in_second -= kSecond;
            count = 0;
            longest = 0;
        }
        clock_s += 300;  // five minutes before the next session
        out.streams.push_back(t.e);
    }
    save(file, f.text());
    out.streams = ordered(out.streams);
    return out;
}

// A plain list: one frame time in ms a line (a blank line and surrounding spaces allowed).
FileExpectation write_plain(const std::filesystem::path& dir,
                            const std::vector<std::int64_t>& frames) {
    TextFile f;
    Tally t;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (i == 100)
            f.line("");
        f.line(i == 50 ? " " + ms(frames[i]) + " " : ms(frames[i]));
        t.add(frames[i] * 100, 0, false, false);
    }
    save(dir / "plain.txt", f.text());
    t.e.first_start_ns = 0;
    return {"plain", true, {t.e}};
}

// A loopscope trace of a fixed-timestep loop with interpolation (dt 1/60 s, clamp 250 ms,
// at most 5 steps a frame) fed the game's frame times, laid out as the recorder writes one: a
// row's raw_ns is the time since the previous row began (the first row's, since the recorder
// started: the loading), its start_ns the sum of the raw_ns up to it, and its phases (steps,
// render, wait) the time from its begin to the next row's, so they add up to the next row's
// raw_ns (the last row's to a 60 Hz frame, as if closed then). The loading frame is clamped, the
// hitch runs into the step cap; a long frame's time is spent rendering.
FileExpectation write_trace(const std::filesystem::path& dir,
                            const std::vector<std::int64_t>& frames) {
    constexpr std::int64_t kDt = 16'666'667, kClamp = 250'000'000, kMaxSteps = 5;
    TextFile f;
    f.line("# loopscope-trace v1");
    f.line("# clock: virtual");
    f.line("# policy: fixed-interp");
    f.line(fmt::format("# dt_ns: {}", kDt));
    f.line(fmt::format("# clamp_ns: {}", kClamp));
    f.line(fmt::format("# max_steps: {}", kMaxSteps));
    f.line("# timescale: 1");
    f.line("# machine: synthetic test data");
    f.line(
        "frame,start_ns,raw_ns,clamped_ns,clamp_lost_ns,consumed_ns,acc_before_ns,steps,"
        "cap_dropped_ns,acc_after_ns,alpha,step_cost_ns,render_ns,wait_ns");
    Tally t;
    std::int64_t start = 0, acc = 0;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const std::int64_t raw = frames[i] * 100;
        start += raw;
        const std::int64_t clamped = std::min(raw, kClamp);
        acc += clamped;
        const std::int64_t before = acc;
        const std::int64_t steps = std::min(acc / kDt, kMaxSteps);
        acc -= steps * kDt;
        std::int64_t dropped = 0;
        if (acc >= kDt) {
            dropped = acc - acc % kDt;
            acc %= kDt;
        }
        const std::int64_t next = i + 1 < frames.size() ? frames[i + 1] * 100 : kDt;
        const std::int64_t step_cost = steps * 1'200'000;
        std::int64_t render = 4'000'000 + static_cast<std::int64_t>(i % 7) * 100'000;
        // A limiter waits out what is left of a 60 Hz frame (with its jitter); a longer frame
        // renders all of its time and does not wait.
        std::int64_t wait = next - step_cost - render;
        if (next > kDt + 2'000'000) {
            render = next - step_cost;
            wait = 0;
        }
        f.line(fmt::format("{},{},{},{},{},{},{},{},{},{},0.{:06},{},{},{}", i, start, raw, clamped,
                           raw - clamped, clamped, before, steps, dropped, acc,
                           acc * 1'000'000 / kDt, step_cost, render, wait));
        t.add(raw, start, false, false);
    }
    save(dir / "loopscope.trace", f.text());
    return {"loopscope-trace", true, {t.e}};
}

std::string json_text(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

void write_expectations(const std::filesystem::path& dir,
                        const std::map<std::string, FileExpectation>& files) {
    std::string j = "{\n";
    std::size_t k = 0;
    for (const auto& [name, file] : files) {
        j += fmt::format("  {}: {{\"format\": {}, \"per_frame\": {}, \"streams\": [\n",
                         json_text(name), json_text(file.format), file.per_frame);
        for (std::size_t i = 0; i < file.streams.size(); ++i) {
            const Expected& e = file.streams[i];
            j += fmt::format(
                "    {{\"process\": {}, \"process_id\": {}, \"swap_chain\": {}, \"frames\": {}, "
                "\"sum_ns\": {}, \"max_ns\": {}, \"dropped\": {}, \"generated\": {}, "
                "\"first_start_ns\": {}}}{}\n",
                json_text(e.process), e.pid, json_text(e.swap_chain), e.frames, e.sum_ns, e.max_ns,
                e.dropped, e.generated, e.first_start_ns, i + 1 < file.streams.size() ? "," : "");
        }
        j += fmt::format("  ]}}{}\n", ++k < files.size() ? "," : "");
    }
    j += "}\n";
    save(dir / "expected_streams.json", j);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: generate_test_data OUTPUT_DIR\n");
        return 2;
    }
    try {
        const std::filesystem::path dir = argv[1];
        std::filesystem::create_directories(dir);
        std::map<std::string, FileExpectation> files;

        // The game: 420 frames from 2.5 s into the capture; dwm.exe beside it, the game's
        // second swap chain for a few frames, a terminal.
        Rng rng(20260101);
        const std::vector<std::int64_t> game = game_frames(rng, 420, 261);
        const std::int64_t origin = 25'000'000;  // 2.5 s
        Stream g;
        g.app = "game.exe";
        g.pid = 4242;
        g.swap = 0x1F3A5C20B00;
        g.rows = presents_of(game, origin, rng);
        std::vector<Stream> pm = {
            g,
            side_stream("dwm.exe", 1288, 0x2B10C7F0A40, 150, origin - 40'000, kVsyncTicks * 3, rng),
            side_stream("game.exe", 4242, 0, 6, origin + 20'000, 400'000, rng),
            side_stream("WindowsTerminal.exe", 9876, 0x2C044D51E80, 12, origin + 90'000, 3'000'000,
                        rng)};
        pm[2].runtime = "Other";
        const std::int64_t qpc_origin = 38'268'612'637;
        files["presentmon1.csv"] = write_presentmon1(dir, pm, qpc_origin);
        files["presentmon24.csv"] =
            write_presentmon24(dir / "presentmon24.csv", pm, false, 0, {"WindowsTerminal.exe"});
        {
            // XeSS frame generation in the 1.x layout, from its own generator so the other
            // files stay as they were.
            Rng xess_rng(20261126);
            Stream x = g;
            x.present_mode = "Hardware Composed: Independent Flip";
            x.rows = xess_fg_presents(200, origin, xess_rng);
            const std::vector<Stream> pm_xess = {
                x, side_stream("dwm.exe", 1288, 0x2B10C7F0A40, 100, origin - 40'000,
                               kVsyncTicks * 4, xess_rng)};
            files["presentmon1_xess_fg.csv"] =
                write_presentmon1(dir, pm_xess, qpc_origin, "presentmon1_xess_fg.csv");
        }

        // Frame generation: the game renders about 30 fps and a generated frame is shown
        // between every two of its frames.
        std::vector<std::int64_t> slow = game_frames(rng, 220, 140);
        for (std::int64_t& ft : slow)
            ft *= 2;
        Stream fg = g;
        fg.rows = with_generated_frames(slow, origin, rng);
        const std::vector<Stream> pm_fg = {fg, side_stream("dwm.exe", 1288, 0x2B10C7F0A40, 80,
                                                           origin - 40'000, kVsyncTicks * 4, rng)};
        files["presentmon2.csv"] = write_presentmon2(dir, pm_fg, qpc_origin);
        files["presentmon24_framegen.csv"] =
            write_presentmon24(dir / "presentmon24_framegen.csv", pm_fg, true, qpc_origin, {});

        // One stream each, from fresh sessions so the files differ.
        files["ocat.csv"] = write_ocat(dir, {"game.exe", 4242, 0x215D7910, "DXGI", 0, "",
                                             presents_of(game_frames(rng, 300, 200), 0, rng)});
        files["capframex_legacy.csv"] =
            write_capframex_csv(dir, {"game.exe", 4242, 0x76F3DB00, "DXGI", 0, "",
                                      presents_of(game_frames(rng, 320, 150), 0, rng)});
        files["frameview_Log.csv"] =
            write_frameview(dir, {"game.exe", 4242, 0x19ACFCC8, "D3D11", 1, "",
                                  presents_of(game_frames(rng, 310, 222), 0, rng)});
        files["capframex.json"] =
            write_capframex_json(dir, {presents_of(game_frames(rng, 240, 120), 0, rng),
                                       presents_of(game_frames(rng, 300, 190), 0, rng)});

        std::vector<std::int64_t> long_session = game_frames(rng, 1900, 1200);
        files["mangohud.csv"] = write_mangohud(dir / "mangohud.csv", long_session, false);
        files["mangohud_v1.csv"] =
            write_mangohud(dir / "mangohud_v1.csv", game_frames(rng, 1500, 700), true);
        files["plain.txt"] = write_plain(dir, game_frames(rng, 260, 180));
        {
            // A generator of its own, so the files above stay as they were.
            Rng ab(20251024);
            files["afterburner.csv"] = write_afterburner(
                dir / "afterburner.csv", {game_frames(ab, 900, 500), game_frames(ab, 1300, 700)});
        }
        files["loopscope.trace"] = write_trace(dir, game_frames(rng, 360, 240));

        // What real captures hold beyond clean text: FrameView's cells that are not numbers,
        // and a capture saved as UTF-16 by a PowerShell redirection.
        files["frameview_damaged_Log.csv"] =
            write_frameview(dir,
                            {"game.exe", 4242, 0x19ACFCC8, "D3D12", 1, "",
                             presents_of(game_frames(rng, 240, 150), 0, rng)},
                            true, "frameview_damaged_Log.csv");
        Stream u = g;
        u.rows = presents_of(game_frames(rng, 150, 90), origin, rng);
        files["presentmon1_utf16.csv"] =
            write_presentmon1(dir, {u}, qpc_origin, "presentmon1_utf16.csv", true);
        write_expectations(dir, files);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "generate_test_data: %s\n", e.what());
        return 1;
    }
    return 0;
}
