// The PresentMon family: PresentMon 1.x, 2.x and 2.4+ CSV, OCAT, FrameView `_Log.csv` and
// CapFrameX's legacy CSV (`//Key=Value` lines, then PresentMon 1.x columns). They share one row
// model (one present per line, named columns) and differ in which columns carry the frame time,
// the display side, dropped / generated frames and the frame start. The file is streamed once;
// only the cells needed are parsed and kept, for every stream (application, process, swap
// chain) in the file, so the caller can pick one or list them all. A large file is parsed in
// pieces on several threads, with the result and the errors of one thread (stage 3 in pieces). The
// stages, in the order read_presentmon_streams runs them: the header row, the column layout, the
// rows into streams, QPC ticks to nanoseconds, the streams as captures.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "common/errors.hpp"
#include "common/parallel_for.hpp"
#include "common/platform.hpp"
#include "core/units.hpp"
#include "readers/csv_scanner.hpp"
#include "readers/read_formats.hpp"

namespace loopscope::detail {

namespace {

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto ca = static_cast<unsigned char>(a[i]);
        const auto cb = static_cast<unsigned char>(b[i]);
        if (std::tolower(ca) != std::tolower(cb))
            return false;
    }
    return true;
}

int find_column(const std::vector<std::string>& columns, std::string_view name) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (iequals(columns[i], name))
            return static_cast<int>(i);
    }
    return -1;
}

bool has_column_starting(const std::vector<std::string>& columns, std::string_view prefix) {
    return std::any_of(columns.begin(), columns.end(), [&](const std::string& c) {
        return c.size() >= prefix.size() &&
               iequals(std::string_view(c).substr(0, prefix.size()), prefix);
    });
}

// How the frame-start column counts time.
enum class StartUnit {
    none,
    seconds,        // TimeInSeconds
    ms,             // CPUStartTime, TimeInMs
    qpc_following,  // CPUStartQPC: the interval column is the time to the *next* CPU start
    qpc_preceding,  // TimeInQPC, QPCTime: the interval column is the time since the previous one
};

struct Layout {
    std::string format;
    std::vector<std::string> columns;
    int app = -1, pid = -1, swap = -1;
    int frame = -1;            // the frame-time column (ms)
    int display = -1;          // time between display changes (ms)
    int dropped = -1;          // Dropped (0/1)
    int until_displayed = -1;  // PresentMon 2.4+: NA when the frame was never displayed
    bool display_na_is_dropped = false;
    int frame_type = -1;
    int animation_error = -1;
    int start = -1;
    StartUnit start_unit = StartUnit::none;
    int qpc_interval = -1;  // the ms column whose sum spans the QPC start column
    // Time since the application's previous frame start (ms): 2.x FrameTime (CPUBusy + CPUWait),
    // 2.4+ MsBetweenAppStart; 0 on generated frames.
    int app_interval = -1;
    int cpu_busy = -1;  // the application's frame start to its Present call (ms): 2.x CPUBusy
    // 2.4+ TimeInQPC, the present's start in ticks, read where the frame start is CPUStartQPC:
    // the two give the time from the frame's CPU start to its present (Capture).
    int present_qpc = -1;
    int sync_interval = -1, allows_tearing = -1;  // SyncInterval, AllowsTearing
    // Evidence columns (Capture's pc_latency_ns …) and PresentMode, wherever a layout has them.
    int pc_latency = -1, in_present_api = -1, until_displayed_time = -1,
        render_present_latency = -1, until_render_complete = -1, gpu_active = -1, present_mode = -1;
    // Latency and where-the-time-goes columns (Capture's time_columns): figures of their
    // own, so a cell that is not a time is counted as a bad cell.
    int click_to_photon = -1, all_input_to_photon = -1, display_latency = -1, cpu_wait = -1,
        gpu_busy = -1, gpu_wait = -1, gpu_latency = -1, pso_compile = -1;
    // Sampled sensors (Capture::telemetry), in the order of kTelemetryColumns, those present.
    std::vector<int> telemetry;
    // PresentMon 2.x DisplayedTime: how long this frame stayed on screen, i.e. the time between
    // display changes of the next displayed frame; moved there when the streams are finished.
    bool display_is_time_on_screen = false;
    std::size_t min_fields = 0;     // rows may be this short (OCAT fills its info columns once)
    int info_first = -1;            // OCAT: first of the system-information columns
    std::size_t needed_fields = 0;  // cells a row is split into; the rest are only counted
};

std::string join_columns(const std::vector<std::string>& columns) {
    std::string out;
    for (const auto& c : columns) {
        if (!out.empty())
            out += ", ";
        out += c;
    }
    return out;
}

const char* const kExpectedLayouts =
    "expected Application, ProcessID, SwapChainAddress and a frame-time column: "
    "msBetweenPresents (PresentMon 1.x, OCAT, FrameView, CapFrameX), FrameTime with "
    "CPUStartQPC or CPUStartTime (PresentMon 2.x), or MsBetweenPresents with MsBetweenAppStart "
    "(PresentMon 2.4+)";

[[noreturn]] void layout_error(const std::string& path, std::int64_t line,
                               const std::vector<std::string>& columns, const std::string& what) {
    throw InputError(path, line, 1,
                     fmt::format("{}: found {} columns ({}); {}", what, columns.size(),
                                 join_columns(columns), kExpectedLayouts));
}

void pick_start(Layout& layout, std::initializer_list<std::pair<const char*, StartUnit>> options) {
    for (const auto& [name, unit] : options) {
        const int at = find_column(layout.columns, name);
        if (at >= 0) {
            layout.start = at;
            layout.start_unit = unit;
            return;
        }
    }
}

// FrameView's sampled sensors that can say what the machine was doing at a hitch.
constexpr std::array<std::string_view, 12> kTelemetryColumns = {
    "GPU0Clk(MHz)",        "GPU0MemClk(MHz)", "GPU0Util(%)",         "GPU0Temp(C)",
    "GPUOnlyPwr(W) (API)", "NV Pwr(W) (API)", "AMDPwr(W) (API)",     "PCAT Power Total(W)",
    "CPUClk(MHz)",         "CPUUtil(%)",      "CPU Package Temp(C)", "CPU Package Power(W)"};

// Resolves the columns a layout needs; throws the layout error when a required one is missing.
Layout make_layout(const std::string& format, std::vector<std::string> columns,
                   const std::string& path, std::int64_t line) {
    Layout l;
    l.format = format;
    l.columns = std::move(columns);
    const auto col = [&](std::string_view name) { return find_column(l.columns, name); };
    l.app = col("Application");
    l.pid = col("ProcessID");
    l.swap = col("SwapChainAddress");
    l.min_fields = l.columns.size();
    l.sync_interval = col("SyncInterval");
    l.allows_tearing = col("AllowsTearing");
    l.pc_latency = col("MsPCLatency");
    l.in_present_api = col("msInPresentAPI");
    l.until_displayed_time = col("msUntilDisplayed");
    l.render_present_latency = col("MsRenderPresentLatency");
    l.until_render_complete = col("msUntilRenderComplete");
    l.gpu_active = col("msGPUActive");
    for (const std::string_view name : kTelemetryColumns) {
        if (const int at = col(name); at >= 0)
            l.telemetry.push_back(at);
    }
    l.present_mode = col("PresentMode");
    if (format == "presentmon-2") {
        l.frame = col("FrameTime");
        l.app_interval = l.frame;
        l.cpu_busy = col("CPUBusy");
        l.display = col("DisplayedTime");
        l.display_na_is_dropped = true;
        l.display_is_time_on_screen = true;
        l.frame_type = col("FrameType");
        l.animation_error = col("AnimationError");
        l.click_to_photon = col("ClickToPhotonLatency");
        l.all_input_to_photon = col("AllInputToPhotonLatency");
        l.display_latency = col("DisplayLatency");
        l.cpu_wait = col("CPUWait");
        l.gpu_busy = col("GPUBusy");
        l.gpu_wait = col("GPUWait");
        l.gpu_latency = col("GPULatency");
        pick_start(l, {{"CPUStartQPC", StartUnit::qpc_following},
                       {"CPUStartTime", StartUnit::ms},
                       {"TimeInSeconds", StartUnit::seconds},
                       {"TimeInMs", StartUnit::ms}});
        if (l.start_unit == StartUnit::qpc_following)
            l.qpc_interval = l.frame;
    } else if (format == "presentmon-2.4") {
        l.frame = col("MsBetweenPresents");
        l.app_interval = col("MsBetweenAppStart");
        l.cpu_busy = col("MsCPUBusy");
        l.display = col("MsBetweenDisplayChange");
        l.until_displayed = col("MsUntilDisplayed");
        l.display_na_is_dropped = l.until_displayed < 0;
        l.frame_type = col("FrameType");
        l.animation_error = col("MsAnimationError");
        l.click_to_photon = col("MsClickToPhotonLatency");
        l.all_input_to_photon = col("MsAllInputToPhotonLatency");
        l.cpu_wait = col("MsCPUWait");
        l.gpu_busy = col("MsGPUBusy");
        l.gpu_wait = col("MsGPUWait");
        l.gpu_latency = col("MsGPULatency");
        l.pso_compile = col("MsPsoCompileTime");  // PresentMon 2.6+
        pick_start(l, {{"CPUStartTime", StartUnit::ms},
                       {"CPUStartQPC", StartUnit::qpc_following},
                       {"TimeInSeconds", StartUnit::seconds},
                       {"TimeInMs", StartUnit::ms},
                       {"TimeInQPC", StartUnit::qpc_preceding}});
        if (l.start_unit == StartUnit::qpc_following) {
            l.qpc_interval = col("MsBetweenAppStart");
            l.present_qpc = col("TimeInQPC");
        }
        if (l.start_unit == StartUnit::qpc_preceding)
            l.qpc_interval = l.frame;
    } else {  // presentmon-1, ocat, frameview, capframex-csv
        l.frame = col("msBetweenPresents");
        l.display = col("msBetweenDisplayChange");
        l.dropped = col("Dropped");
        pick_start(l, {{"TimeInSeconds", StartUnit::seconds},
                       {"TimeInMs", StartUnit::ms},
                       {"QPCTime", StartUnit::qpc_preceding}});
        if (l.start_unit == StartUnit::qpc_preceding)
            l.qpc_interval = l.frame;
        if (format == "ocat") {
            l.info_first = col("Motherboard");
            if (l.info_first > 0)
                l.min_fields = static_cast<std::size_t>(l.info_first);
        }
    }
    std::vector<std::string> missing;
    if (l.app < 0)
        missing.push_back("Application");
    if (l.pid < 0)
        missing.push_back("ProcessID");
    if (l.swap < 0)
        missing.push_back("SwapChainAddress");
    if (l.frame < 0)
        missing.push_back("the frame-time column");
    if (l.qpc_interval < 0 && l.start_unit == StartUnit::qpc_following) {
        missing.push_back("MsBetweenAppStart");
    }
    for (const int at : {l.app, l.pid, l.swap, l.frame, l.display, l.dropped, l.until_displayed,
                         l.frame_type, l.animation_error, l.start, l.qpc_interval, l.app_interval,
                         l.cpu_busy, l.sync_interval, l.allows_tearing, l.present_qpc}) {
        l.needed_fields = std::max(l.needed_fields, static_cast<std::size_t>(at + 1));
    }
    for (const int at :
         {l.pc_latency, l.in_present_api, l.until_displayed_time, l.render_present_latency,
          l.until_render_complete, l.gpu_active, l.present_mode, l.click_to_photon,
          l.all_input_to_photon, l.display_latency, l.cpu_wait, l.gpu_busy, l.gpu_wait,
          l.gpu_latency, l.pso_compile}) {
        l.needed_fields = std::max(l.needed_fields, static_cast<std::size_t>(at + 1));
    }
    for (const int at : l.telemetry)
        l.needed_fields = std::max(l.needed_fields, static_cast<std::size_t>(at + 1));
    // A row may leave out OCAT's info columns, never a column the layout reads: a shorter row
    // is an error, not a row whose missing cells are read from the one before.
    l.min_fields = std::max(l.min_fields, l.needed_fields);
    if (!missing.empty()) {
        layout_error(path, line, l.columns,
                     fmt::format("{} layout without {}", format, join_columns(missing)));
    }
    return l;
}

// One stream (application, process, swap chain) while the rows are read.
struct StreamBuild {
    std::string app, pid_text, swap;
    Capture capture;
    std::int64_t first_qpc = 0, last_qpc = 0;
    bool has_qpc = false;  // first_qpc is set
    double interval_sum_ms = 0, first_interval_ms = 0, last_interval_ms = 0;
    // Read in pieces (see read_rows_in_pieces): the stream's first row in the piece (its line
    // counted from the piece's start, and the columns of its Application and ProcessID cells),
    // so that the merge can report a bad process ID or one stream too many where one thread
    // would; and every QPC interval in row order, summed at the merge in the order one thread
    // sums them (floating-point sums depend on the order).
    std::int64_t first_line = 0, app_column = 0, pid_column = 0;
    std::vector<double> qpc_intervals_ms;
};

// What the rows held: the streams in the order they first appear, and notes on the file.
struct ParsedRows {
    std::vector<StreamBuild> streams;
    std::int64_t min_qpc = std::numeric_limits<std::int64_t>::max();
    std::int64_t rows_without_frame_time = 0;
    BadCellTally bad;  // cells that are not the number their column holds
    // Rows that repeat the header (captures joined one after another): the first one's line.
    std::int64_t repeated_headers = 0;
    std::int64_t first_repeated_header_line = 0;
};

// A frame start whose cell was bad: filled in from the previous frame once the streams are
// finished (fill_missing_starts).
constexpr std::int64_t kNoStart = std::numeric_limits<std::int64_t>::min();

// What a row does without a bad cell of each column (BadCells::treated_as).
constexpr std::string_view kFrameTimeAbsent =
    "the row has no frame time and is left out of the frame times, as a row whose cell is NA";
constexpr std::string_view kDisplayAbsent = "that frame has no time between display changes";
constexpr std::string_view kDroppedAbsent =
    "that frame's display is unknown: not counted as dropped, and no time between display "
    "changes";
constexpr std::string_view kStartAbsent =
    "that frame's start is the previous frame's start plus its frame time";
constexpr std::string_view kAppIntervalAbsent = "that frame has no application interval";
constexpr std::string_view kLatencyAbsent = "that frame is left out of the latency figures";
constexpr std::string_view kBusyAbsent =
    "that frame is left out of the CPU / GPU / wait-bound shares";
constexpr std::string_view kCpuBusyAbsent =
    "its present is taken at its CPU start when the present timeline is rebuilt";
constexpr std::string_view kAnimationErrorAbsent = "that frame has no animation error";
constexpr std::string_view kProcessIdAbsent = "the stream has no process ID";
constexpr std::string_view kQpcIntervalAbsent =
    "the interval counts as 0 ms in the sum that finds the QPC frequency";

// The time (in 10^ns_digits ns, ms by default) of column `at`: -1 (unknown: a time is never
// negative) where the cell is NA (no value, as the tools write it) or is not a time, which is
// counted in `bad` with `treated_as`, what the row does without it. Any numeric column a reader
// takes goes through here or read_*_cell, so that no cell the capturing tool wrote refuses the
// file. (A plain integer, not an optional: GCC returns an optional<int64_t> through a store of
// its flag and a wider load, which stalls on every cell.)
std::int64_t time_cell(const Layout& l, const std::vector<Field>& fields, int at,
                       const LinePlace& place, BadCellTally& bad, std::string_view treated_as,
                       int ns_digits = 6) {
    const Field& f = fields[static_cast<std::size_t>(at)];
    std::int64_t ns = 0;
    const CellState state = read_time_cell(f, ns_digits, ns);
    if (state == CellState::value)
        return ns;
    if (state != CellState::not_available)
        bad.add(l.columns[static_cast<std::size_t>(at)], state, treated_as, place, f);
    return -1;
}

// ---- Stage 1: the header row, after CapFrameX's `//Key=Value` preamble ----------------------

struct Header {
    std::vector<std::string> columns;
    std::vector<std::int64_t> column_at;  // where each column's name starts on its line (1-based)
    std::int64_t line = 0;
    bool after_capframex_preamble = false;  // CapFrameX's CSV: decides the format name
};

// Reads up to the header row; the preamble's `Key=Value` pairs go to `metadata`.
Header read_header(LineReader& reader, const std::string& path,
                   std::map<std::string, std::string>& metadata) {
    std::string_view line;
    LinePlace place{&path, 0};
    Header h;
    bool have_header = false;
    std::size_t metadata_bytes = 0;
    while (reader.next(line)) {
        place.line = reader.line_number();
        if (line.empty())
            continue;
        if (line.substr(0, 2) == "//") {
            h.after_capframex_preamble = true;
            const std::string_view kv = line.substr(2);
            const std::size_t eq = kv.find('=');
            if (eq != std::string_view::npos) {
                metadata_bytes += kv.size();
                if (metadata_bytes > kMaxMetadataBytes) {
                    throw_at(place, 1,
                             fmt::format("the //Key=Value lines pass {} KiB: expected a few "
                                         "lines of capture information",
                                         kMaxMetadataBytes / 1024));
                }
                metadata[std::string(kv.substr(0, eq))] = std::string(kv.substr(eq + 1));
            }
            continue;
        }
        have_header = true;
        break;
    }
    if (!have_header)
        throw InputError(path, place.line, 0, "no header row: expected CSV columns");
    h.line = place.line;
    std::vector<Field> fields;
    split_fields(line, place, fields);
    h.columns.reserve(fields.size());
    h.column_at.reserve(fields.size());
    for (const auto& f : fields) {
        h.columns.emplace_back(f.text);
        h.column_at.push_back(f.column);
    }
    return h;
}

// ---- Stage 3: the rows (stage 2, the column mapping, is make_layout above) ------------------

std::int64_t process_id_of(const Field& pid, const LinePlace& place, BadCellTally& bad) {
    std::int64_t id = -1;
    const CellState state = read_integer_cell(pid, id);
    if (state == CellState::value && id >= 0)
        return id;
    if (state != CellState::not_available)
        bad.add("ProcessID", state == CellState::value ? CellState::negative : state,
                kProcessIdAbsent, place, pid);
    return -1;
}

[[noreturn]] void throw_too_many_streams(const LinePlace& place, std::int64_t app_column) {
    throw_at(place, app_column,
             fmt::format("more than {} streams (application, process ID, swap chain): "
                         "expected a capture of a few processes",
                         kMaxStreams));
}

// Whether two cells hold the same text. Each row's stream cells are compared with its stream's,
// so this is compared in place, a word at a time, rather than through a library call.
bool same_text(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    const std::size_t n = a.size();
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t x = 0, y = 0;
        std::memcpy(&x, a.data() + i, 8);
        std::memcpy(&y, b.data() + i, 8);
        if (x != y)
            return false;
    }
    for (; i < n; ++i) {
        if (a[i] != b[i])
            return false;
    }
    return true;
}

// Whether a cell is the one character `c`.
bool is_char(std::string_view cell, char c) {
    return cell.size() == 1 && cell.front() == c;
}

std::string stream_key(std::string_view app, std::string_view pid, std::string_view swap) {
    std::string key;
    key.reserve(app.size() + pid.size() + swap.size() + 2);
    key.append(app).append(1, '\x1f').append(pid).append(1, '\x1f').append(swap);
    return key;
}

// The stream a row belongs to, added when it is the first row of its stream. Consecutive rows
// mostly belong to the same stream, so the last one is checked before the lookup.
class StreamTable {
  public:
    // In a piece, the process ID is parsed at the merge, only for the streams new to the file.
    StreamTable(ParsedRows& rows, const Layout& layout, const std::string& path, bool in_piece)
        : rows_(rows), layout_(layout), path_(path), in_piece_(in_piece) {}

    StreamBuild& of_row(const std::vector<Field>& fields, const LinePlace& place) {
        const Field& app = fields[layout_.app];
        const Field& pid = fields[layout_.pid];
        const Field& swap = fields[layout_.swap];
        std::vector<StreamBuild>& streams = rows_.streams;
        const auto is_row_of = [&](const StreamBuild& s) {
            return same_text(s.app, app.text) && same_text(s.pid_text, pid.text) &&
                   same_text(s.swap, swap.text);
        };
        if (last_ < streams.size() && is_row_of(streams[last_]))
            return streams[last_];
        // A capture holds a few streams whose rows interleave (a game and dwm.exe): among so
        // few, comparing the cells is quicker than forming the key and hashing it.
        if (streams.size() <= kFewStreams) {
            for (std::size_t i = 0; i < streams.size(); ++i) {
                if (is_row_of(streams[i])) {
                    last_ = i;
                    return streams[i];
                }
            }
        }
        last_ = find_or_add(stream_key(app.text, pid.text, swap.text), place, app.column, [&] {
            StreamBuild s;
            s.app = std::string(app.text);
            s.pid_text = std::string(pid.text);
            s.swap = std::string(swap.text);
            CaptureSource& src = s.capture.source;
            describe_as(s.capture, layout_.format);
            src.file = path_;
            src.process = s.app;
            if (in_piece_) {
                s.first_line = place.line;
                s.app_column = app.column;
                s.pid_column = pid.column;
            } else {
                src.process_id = process_id_of(pid, place, rows_.bad);
            }
            src.swap_chain = s.swap;
            return s;
        });
        return streams[last_];
    }

    // The file's stream for a stream read in a piece (the merge), added when new to the file,
    // with the errors one thread raises at its first row, at `place`.
    StreamBuild& of_piece_stream(const StreamBuild& s, const LinePlace& place) {
        const std::size_t at =
            find_or_add(stream_key(s.app, s.pid_text, s.swap), place, s.app_column, [&] {
                StreamBuild fresh;
                fresh.app = s.app;
                fresh.pid_text = s.pid_text;
                fresh.swap = s.swap;
                fresh.capture.source = s.capture.source;
                fresh.capture.description = s.capture.description;
                fresh.capture.source.process_id =
                    process_id_of(Field{s.pid_text, s.pid_column}, place, rows_.bad);
                return fresh;
            });
        return rows_.streams[at];
    }

  private:
    static constexpr std::size_t kFewStreams = 8;

    // The index of the stream `key` names, made by `make` when it is new; one stream too many is
    // refused at the row's Application cell.
    template <typename Make>
    std::size_t find_or_add(std::string key, const LinePlace& place, std::int64_t app_column,
                            Make&& make) {
        std::vector<StreamBuild>& streams = rows_.streams;
        if (streams.size() == kMaxStreams && !index_.contains(key))
            throw_too_many_streams(place, app_column);
        const auto [it, added] = index_.try_emplace(std::move(key), streams.size());
        if (added)
            streams.push_back(make());
        return it->second;
    }

    ParsedRows& rows_;
    const Layout& layout_;
    const std::string& path_;
    bool in_piece_ = false;
    std::unordered_map<std::string, std::size_t> index_;
    std::size_t last_ = std::numeric_limits<std::size_t>::max();
};

// Checks a row's width against the header (OCAT's rows may stop before its system columns).
void check_row_width(std::size_t count, const Layout& l, bool had_break, std::string_view line,
                     const LinePlace& place) {
    if (count == l.columns.size() || (count >= l.min_fields && count <= l.columns.size()))
        return;
    throw_at(place, static_cast<std::int64_t>(line.size()) + 1,
             fmt::format("expected {} comma-separated columns as in the header, found {}{}",
                         l.columns.size(), count, had_break ? "" : " (the file ends mid-line)"));
}

// The frame start in the layout's unit: ns for times, raw ticks for QPC columns (converted
// once the frequency is known, in stage 4), with the tick-span bookkeeping that finds it.
// kNoStart where the cell is not a time (NA included: a frame start is never "no value"), counted.
std::int64_t parse_start(const Layout& l, const std::vector<Field>& fields, const LinePlace& place,
                         StreamBuild& s, ParsedRows& rows, bool in_piece) {
    const Field& f = fields[l.start];
    const std::string& name = l.columns[l.start];
    std::int64_t v = 0;
    CellState state = CellState::value;
    switch (l.start_unit) {
        case StartUnit::seconds:
            state = read_time_cell(f, 9, v);
            break;
        case StartUnit::ms:
            state = read_time_cell(f, 6, v);
            break;
        default:
            state = read_integer_cell(f, v);
            if (state == CellState::value && v < 0)
                state = CellState::negative;
            break;
    }
    if (state != CellState::value) {
        if (state != CellState::not_available)
            rows.bad.add(name, state, kStartAbsent, place, f);
        return kNoStart;
    }
    if (l.start_unit == StartUnit::seconds || l.start_unit == StartUnit::ms)
        return v;
    rows.min_qpc = std::min(rows.min_qpc, v);
    double interval_ms = 0;
    const Field& iv = fields[l.qpc_interval];
    const CellState iv_state = read_number_cell(iv, interval_ms);
    if (iv_state != CellState::value) {
        interval_ms = 0;
        // The same column as the frame time or the application interval: counted there.
        if (iv_state != CellState::not_available && l.qpc_interval != l.frame &&
            l.qpc_interval != l.app_interval) {
            rows.bad.add(l.columns[l.qpc_interval], iv_state, kQpcIntervalAbsent, place, iv);
        }
    }
    if (!s.has_qpc) {
        s.has_qpc = true;
        s.first_qpc = v;
        s.first_interval_ms = interval_ms;
    }
    s.last_qpc = v;
    s.last_interval_ms = interval_ms;
    s.interval_sum_ms += interval_ms;
    if (in_piece)
        s.qpc_intervals_ms.push_back(interval_ms);
    return v;
}

// An evidence column's cell in ns: -1 where it is NA, not a number or not a time >= 0. These
// columns never make a figure of their own, so a cell they cannot use is only unknown.
std::int64_t evidence_ns(std::string_view text) {
    if (is_missing(text))
        return -1;
    std::int64_t ns = 0;
    if (plain_decimal_to_ns(text, 6, ns))
        return ns;
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    double ms = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
    // Beyond about 106 days a latency is a wrapped or broken value, not a time.
    if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(ms) || ms < 0 ||
        ms > 1e10)
        return -1;
    return std::llround(ms * 1e6);
}

// A sensor's cell: NaN where it is NA or not a number (FrameView pads some with a space).
double sensor_value(std::string_view text) {
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc{} && end == text.data() + text.size() && std::isfinite(v) ? v
                                                                                     : std::nan("");
}

// The first eight bytes name the kind of mode: "Composed: ...", "Hardware: ...", "Hardware
// Composed: ...".
std::uint8_t present_mode_of(std::string_view mode) {
    if (mode.size() >= 8 && std::memcmp(mode.data(), "Composed", 8) == 0)
        return kPresentModeComposed;
    if (mode.size() >= 8 && std::memcmp(mode.data(), "Hardware", 8) == 0)
        return kPresentModeDirect;
    return kPresentModeOther;
}

// The evidence side of a row (see Capture): each kept only where the layout has the column.
void parse_evidence(const Layout& l, const std::vector<Field>& fields, Capture& c) {
    const auto take = [&](int at, std::vector<std::int64_t>& to) {
        if (at >= 0)
            to.push_back(evidence_ns(fields[at].text));
    };
    take(l.in_present_api, c.in_present_api_ns);
    take(l.until_displayed_time, c.until_displayed_ns);
    take(l.gpu_active, c.gpu_active_ns);
    if (l.present_mode >= 0)
        c.present_mode.push_back(present_mode_of(fields[l.present_mode].text));
    if (l.sync_interval >= 0) {
        const std::string_view sync = fields[l.sync_interval].text;
        c.waits_for_vblank.push_back(!sync.empty() && !is_char(sync, '0') && !is_missing(sync) ? 1
                                                                                               : 0);
    }
    if (c.telemetry.size() != l.telemetry.size()) {
        c.telemetry.resize(l.telemetry.size());
        for (std::size_t k = 0; k < l.telemetry.size(); ++k)
            c.telemetry[k].name = l.columns[static_cast<std::size_t>(l.telemetry[k])];
    }
    for (std::size_t k = 0; k < l.telemetry.size(); ++k)
        c.telemetry[k].values.push_back(sensor_value(fields[l.telemetry[k]].text));
}

// The latency and busy / wait columns of a row, each kept only where the layout has the column:
// -1 where the cell is NA or not a time, the latter counted (a wrapped unsigned value, `Error`).
void parse_latency(const Layout& l, const std::vector<Field>& fields, const LinePlace& place,
                   Capture& c, BadCellTally& bad) {
    const auto cell = [&](int at, std::string_view treated_as) {
        return time_cell(l, fields, at, place, bad, treated_as);
    };
    const auto take = [&](int at, std::vector<std::int64_t>& to, std::string_view treated_as) {
        if (at >= 0)
            to.push_back(cell(at, treated_as));
    };
    const auto keep = [&](int at, TimeColumn column, std::string_view treated_as) {
        if (at >= 0)
            c.time_column_to_fill(column).push_back(cell(at, treated_as));
    };
    take(l.pc_latency, c.pc_latency_ns, kLatencyAbsent);
    take(l.render_present_latency, c.render_present_latency_ns, kLatencyAbsent);
    keep(l.click_to_photon, TimeColumn::click_to_photon, kLatencyAbsent);
    keep(l.all_input_to_photon, TimeColumn::all_input_to_photon, kLatencyAbsent);
    keep(l.display_latency, TimeColumn::display_latency, kLatencyAbsent);
    take(l.until_render_complete, c.until_render_complete_ns, kBusyAbsent);
    keep(l.cpu_wait, TimeColumn::cpu_wait, kBusyAbsent);
    keep(l.gpu_busy, TimeColumn::gpu_busy, kBusyAbsent);
    keep(l.gpu_wait, TimeColumn::gpu_wait, kBusyAbsent);
    keep(l.gpu_latency, TimeColumn::gpu_latency, kBusyAbsent);
    keep(l.pso_compile, TimeColumn::pso_compile, kBusyAbsent);
}

// The display side of a row: dropped, time between display changes, generated frame,
// animation error, each kept only where the layout has the column.
void parse_display_side(const Layout& l, const std::vector<Field>& fields, const LinePlace& place,
                        Capture& c, BadCellTally& bad) {
    bool dropped = false;
    bool display_unknown = false;  // the Dropped cell was not a flag
    if (l.dropped >= 0) {
        const Field& f = fields[l.dropped];
        std::int64_t flag = 0;
        const CellState state = read_integer_cell(f, flag);
        if (state == CellState::value) {
            dropped = flag != 0;
        } else if (state != CellState::not_available) {
            bad.add(l.columns[l.dropped], state, kDroppedAbsent, place, f);
            display_unknown = true;
        }
    }
    if (l.until_displayed >= 0 && is_missing(fields[l.until_displayed].text))
        dropped = true;
    if (l.display >= 0) {
        const Field& f = fields[l.display];
        std::int64_t display_ns = -1;
        if (is_not_available(f.text)) {
            if (l.display_na_is_dropped)
                dropped = true;
        } else if (!dropped && !display_unknown) {
            display_ns = time_cell(l, fields, l.display, place, bad, kDisplayAbsent);
        }
        c.display_ns.push_back(display_ns);
    }
    if (l.dropped >= 0 || l.until_displayed >= 0 || l.display >= 0) {
        c.dropped.push_back(dropped ? 1 : 0);
    }
    if (l.frame_type >= 0) {
        const std::string_view type = fields[l.frame_type].text;
        c.generated.push_back(!is_missing(type) && type != "Application" ? 1 : 0);
    }
    if (l.sync_interval >= 0 && l.allows_tearing >= 0) {
        const std::string_view sync = fields[l.sync_interval].text;
        const std::string_view tearing = fields[l.allows_tearing].text;
        c.tearing.push_back(is_char(sync, '0') && is_char(tearing, '1') ? 1 : 0);
    }
    if (l.app_interval >= 0) {
        c.app_interval_ns.push_back(
            time_cell(l, fields, l.app_interval, place, bad, kAppIntervalAbsent));
    }
    if (l.cpu_busy >= 0) {
        c.cpu_busy_ns.push_back(time_cell(l, fields, l.cpu_busy, place, bad, kCpuBusyAbsent));
    }
    if (l.animation_error >= 0) {
        const Field& f = fields[l.animation_error];
        std::int64_t ns = 0;
        const CellState state = read_signed_ms_cell(f, ns);
        const bool known = state == CellState::value;
        if (!known && state != CellState::not_available)
            bad.add(l.columns[l.animation_error], state, kAnimationErrorAbsent, place, f);
        c.animation_error_ns.push_back(known ? ns : 0);
        c.animation_error_known.push_back(known ? 1 : 0);
    }
}

// Parses rows into streams, parsing only the cells the layout needs. One parser reads a whole
// file on one thread, or one piece of a block of lines when the file is read in pieces.
class RowParser {
  public:
    RowParser(const Layout& l, const std::string& path, bool in_piece)
        : l_(l), in_piece_(in_piece), table_(rows, l, path, in_piece), place_{&path, 0} {}

    // One non-empty row at `line_number` (counted from the piece's start in a piece). OCAT's
    // system description (on its first row only) goes to `metadata` (never given in a piece).
    void row(std::string_view line, std::int64_t line_number, bool had_break,
             std::map<std::string, std::string>* metadata) {
        place_.line = line_number;
        const bool want_info = metadata && l_.info_first > 0 && !info_taken_;
        const std::size_t count =
            split_fields(line, place_, fields_, want_info ? l_.columns.size() : l_.needed_fields);
        take_row(line, had_break, count, metadata);
    }

    // The line of `text` at `begin` (numbered `line_number`), its end found while it is split:
    // returns the offset of its break (text.size() when it has none). An empty line is passed
    // over. The last line of the file may end without a break (`ends_file`).
    std::size_t row_at(std::string_view text, std::size_t begin, std::int64_t line_number,
                       bool ends_file) {
        place_.line = line_number;
        std::size_t count = 0;
        std::string_view line;
        const std::size_t end =
            split_line_fields(text, begin, place_, fields_, l_.needed_fields, count, line);
        if (!line.empty())
            take_row(line, end < text.size() || !ends_file, count, nullptr);
        return end;
    }

    StreamTable& table() { return table_; }

    ParsedRows rows;

  private:
    // A row whose fields_ are split (`count` in all). Flattened: every call inside whose body
    // the compiler sees is inlined here (the cell parsers of this file, each column's
    // push_back), rather than left as one call per cell and column of every row.
    [[gnu::flatten]] void take_row(std::string_view line, bool had_break, std::size_t count,
                                   std::map<std::string, std::string>* metadata) {
        const bool want_info = metadata && l_.info_first > 0 && !info_taken_;
        check_row_width(count, l_, had_break, line, place_);
        if (want_info && fields_.size() > static_cast<std::size_t>(l_.info_first)) {
            for (std::size_t i = l_.info_first; i < fields_.size(); ++i) {
                if (!is_missing(fields_[i].text))
                    (*metadata)[l_.columns[i]] = std::string(fields_[i].text);
            }
            info_taken_ = true;
        }

        const Field& frame = fields_[l_.frame];
        std::int64_t frame_ns = 0;
        const CellState state = read_time_cell(frame, 6, frame_ns);
        if (state != CellState::value && is_header_again()) {
            // The header again: another capture appended to this one (a segment).
            if (rows.repeated_headers++ == 0)
                rows.first_repeated_header_line = place_.line;
            return;
        }
        StreamBuild& s = table_.of_row(fields_, place_);
        Capture& c = s.capture;
        if (state != CellState::value) {
            // A present with no frame time (PresentMon writes NA where it has no previous
            // present to measure from): it cannot enter frame-time figures.
            ++rows.rows_without_frame_time;
            if (state != CellState::not_available)
                rows.bad.add(l_.columns[l_.frame], state, kFrameTimeAbsent, place_, frame);
            return;
        }
        c.frame_ns.push_back(frame_ns);
        if (l_.start >= 0)
            c.start_ns.push_back(parse_start(l_, fields_, place_, s, rows, in_piece_));
        if (l_.present_qpc >= 0) {
            // Raw ticks until the frequency is known (convert_qpc_starts); -1 where unknown.
            std::int64_t ticks = 0;
            const bool known =
                read_integer_cell(fields_[l_.present_qpc], ticks) == CellState::value && ticks >= 0;
            c.cpu_start_to_present_ns.push_back(known ? ticks : -1);
        }
        parse_display_side(l_, fields_, place_, c, rows.bad);
        parse_evidence(l_, fields_, c);
        parse_latency(l_, fields_, place_, c, rows.bad);
    }

    // Whether the row split in fields_ names the header's columns where the layout reads them
    // (the first after a UTF-8 byte-order mark: `cat` of two captures keeps the second's).
    bool is_header_again() const {
        const auto named = [&](int at) {
            if (at < 0)
                return true;
            std::string_view text = fields_[static_cast<std::size_t>(at)].text;
            if (text.starts_with("\xEF\xBB\xBF"))
                text.remove_prefix(3);
            return text == l_.columns[static_cast<std::size_t>(at)];
        };
        return named(l_.app) && named(l_.pid) && named(l_.swap) && named(l_.frame) &&
               named(l_.start);
    }

    const Layout& l_;
    bool in_piece_ = false;
    StreamTable table_;
    LinePlace place_;
    std::vector<Field> fields_;
    bool info_taken_ = false;
};

// Every row after the header, on one thread.
ParsedRows read_rows(LineReader& reader, const Layout& l, const std::string& path,
                     std::map<std::string, std::string>& metadata) {
    RowParser parser(l, path, false);
    std::string_view line;
    while (reader.next(line)) {
        if (!line.empty())
            parser.row(line, reader.line_number(), reader.line_had_break(), &metadata);
    }
    return std::move(parser.rows);
}

// ---- Stage 3 in pieces: a large file on every core --------------------------------------------
//
// The file is read in blocks of whole lines (ParallelRead::chunk_bytes); each block is cut at
// line breaks into pieces (kPiecesPerThread a thread), each piece parsed into its own streams on
// whichever thread takes it, and the pieces merged into the file's streams in file order. The
// result is the one-thread result, byte for byte: streams are numbered in the order their first
// rows appear, the columns are appended in row order, sums are taken in row order, and a piece that
// fails keeps its first error, thrown at the merge once every row before it is merged, with the
// line counted from the file's start.

// A piece's outcome: its rows, how many lines it held, and its first error (the parse stops
// there), with the line counted from the piece's start.
struct Piece {
    std::unique_ptr<RowParser> parser;
    std::int64_t lines = 0;
    std::exception_ptr error;
    std::int64_t error_line = 0;
    // Where the piece stopped because its rows named too many streams (kPieceStreams): the
    // offset of the first line not parsed, npos when the piece was parsed to its end. The
    // merge reads the rest on one thread.
    std::size_t stopped_at = std::string_view::npos;
};

// A piece keeps at most this many streams of its own: each costs about 1 KB, and a file whose
// every row names a new stream would otherwise hold one per row in every piece before the merge
// finds one stream too many. Captures hold a few streams, a busy desktop a few hundred.
constexpr std::size_t kPieceStreams = 256;

// The lines of `text` from `begin`, numbered from `first_number`, each read by `parser` (which
// finds a line's end while splitting it, and passes over an empty one), with `number` set to
// the line's number before it is read (for an error it throws); `stop()` asked before each line
// may end it early. Returns the number of the last line read or passed over.
template <typename Stop>
std::int64_t for_each_line(RowParser& parser, std::string_view text, std::size_t& begin,
                           std::int64_t first_number, bool ends_file, std::int64_t& number,
                           Stop&& stop) {
    number = first_number - 1;
    while (begin < text.size() && !stop()) {
        ++number;
        begin = parser.row_at(text, begin, number, ends_file) + 1;
    }
    begin = std::min(begin, text.size());
    return number;
}

void parse_piece(const Layout& l, const std::string& path, std::string_view text,
                 bool last_piece_of_file, Piece& piece) {
    std::int64_t line_number = 0;
    try {
        piece.parser = std::make_unique<RowParser>(l, path, true);
        RowParser& parser = *piece.parser;
        std::size_t begin = 0;
        for_each_line(parser, text, begin, 1, last_piece_of_file, line_number,
                      [&] { return parser.rows.streams.size() >= kPieceStreams; });
        if (begin < text.size())
            piece.stopped_at = begin;
    } catch (...) {
        piece.error = std::current_exception();
        piece.error_line = line_number;
    }
    piece.lines = line_number;
}

template <typename T>
void append(std::vector<T>& to, const std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
}

// Appends a piece whose first line is the file's line `line_base` + 1 to `file`, the parser of
// the whole file, then throws the piece's error, if it had one, or reads the rest of a piece
// that stopped on one thread. Errors that one thread raises at a stream's first row (a bad
// process ID, one stream too many) are raised here, for the streams new to the file: every
// stream of the piece starts at or before the piece's error, where one thread would have
// stopped. Returns the piece's lines.
std::int64_t merge_piece(RowParser& file, Piece& piece, std::string_view text, bool ends_file,
                         std::int64_t line_base, const std::string& path) {
    if (!piece.parser)  // not even begun: out of memory
        std::rethrow_exception(piece.error);
    ParsedRows& to = file.rows;
    ParsedRows& from = piece.parser->rows;
    for (StreamBuild& s : from.streams) {
        StreamBuild& g = file.table().of_piece_stream(s, {&path, line_base + s.first_line});
        Capture& gc = g.capture;
        const Capture& c = s.capture;
        if (s.has_qpc) {
            if (!g.has_qpc) {
                g.has_qpc = true;
                g.first_qpc = s.first_qpc;
                g.first_interval_ms = s.first_interval_ms;
            }
            g.last_qpc = s.last_qpc;
            g.last_interval_ms = s.last_interval_ms;
        }
        for (const double v : s.qpc_intervals_ms)
            g.interval_sum_ms += v;
        append(gc.frame_ns, c.frame_ns);
        append(gc.start_ns, c.start_ns);
        append(gc.display_ns, c.display_ns);
        append(gc.dropped, c.dropped);
        append(gc.generated, c.generated);
        append(gc.app_interval_ns, c.app_interval_ns);
        append(gc.cpu_busy_ns, c.cpu_busy_ns);
        append(gc.cpu_start_to_present_ns, c.cpu_start_to_present_ns);
        append(gc.tearing, c.tearing);
        append(gc.animation_error_ns, c.animation_error_ns);
        append(gc.animation_error_known, c.animation_error_known);
        append(gc.pc_latency_ns, c.pc_latency_ns);
        append(gc.in_present_api_ns, c.in_present_api_ns);
        append(gc.until_displayed_ns, c.until_displayed_ns);
        append(gc.render_present_latency_ns, c.render_present_latency_ns);
        append(gc.until_render_complete_ns, c.until_render_complete_ns);
        append(gc.gpu_active_ns, c.gpu_active_ns);
        if (gc.telemetry.size() < c.telemetry.size()) {
            gc.telemetry.resize(c.telemetry.size());
            for (std::size_t k = 0; k < c.telemetry.size(); ++k)
                gc.telemetry[k].name = c.telemetry[k].name;
        }
        for (std::size_t k = 0; k < c.telemetry.size(); ++k)
            append(gc.telemetry[k].values, c.telemetry[k].values);
        for (std::size_t k = 0; k < c.time_columns.size(); ++k) {
            if (!c.time_columns[k].empty())
                append(gc.time_column_to_fill(static_cast<TimeColumn>(k)), c.time_columns[k]);
        }
        append(gc.present_mode, c.present_mode);
        append(gc.waits_for_vblank, c.waits_for_vblank);
    }
    to.min_qpc = std::min(to.min_qpc, from.min_qpc);
    to.rows_without_frame_time += from.rows_without_frame_time;
    to.bad.merge(from.bad, line_base);
    if (from.repeated_headers > 0 && to.repeated_headers == 0)
        to.first_repeated_header_line = line_base + from.first_repeated_header_line;
    to.repeated_headers += from.repeated_headers;
    piece.parser.reset();  // its memory back before the next piece's rows are appended
    if (piece.error) {
        try {
            std::rethrow_exception(piece.error);
        } catch (const InputError& e) {
            throw InputError(e.file(), line_base + piece.error_line, e.column(), e.message());
        }
    }
    if (piece.stopped_at == std::string_view::npos)
        return piece.lines;
    std::size_t begin = piece.stopped_at;
    std::int64_t number = 0;
    return for_each_line(file, text, begin, line_base + piece.lines + 1, ends_file, number,
                         [] { return false; }) -
           line_base;
}

// Room for `scale` times the frames each stream has now, in every column it fills.
void reserve_columns(ParsedRows& rows, double scale) {
    const auto grow = [scale](auto& column) {
        if (!column.empty()) {
            column.reserve(static_cast<std::size_t>(static_cast<double>(column.size()) * scale));
            // The room not filled yet: untouched, so its pages can still be large ones.
            using T = typename std::decay_t<decltype(column)>::value_type;
            advise_large_pages(column.data() + column.size(),
                               (column.capacity() - column.size()) * sizeof(T));
        }
    };
    for (StreamBuild& s : rows.streams) {
        Capture& c = s.capture;
        grow(c.frame_ns);
        grow(c.start_ns);
        grow(c.display_ns);
        grow(c.dropped);
        grow(c.generated);
        grow(c.app_interval_ns);
        grow(c.cpu_busy_ns);
        grow(c.tearing);
        grow(c.animation_error_ns);
        grow(c.animation_error_known);
        grow(c.pc_latency_ns);
        grow(c.in_present_api_ns);
        grow(c.until_displayed_ns);
        grow(c.render_present_latency_ns);
        grow(c.until_render_complete_ns);
        grow(c.gpu_active_ns);
        for (TelemetryColumn& t : c.telemetry)
            grow(t.values);
        for (std::vector<std::int64_t>& column : c.time_columns)
            grow(column);
        grow(c.present_mode);
        grow(c.waits_for_vblank);
    }
}

// Cuts `block` at line breaks into at most `count` pieces of about the same size.
std::vector<std::string_view> cut_at_lines(std::string_view block, std::size_t count) {
    std::vector<std::string_view> pieces;
    std::size_t begin = 0;
    for (std::size_t i = 1; i <= count && begin < block.size(); ++i) {
        std::size_t end = block.size();
        if (i < count) {
            const std::size_t target = std::max(begin, block.size() * i / count);
            const std::size_t nl = block.find('\n', target);
            end = nl == std::string_view::npos ? block.size() : nl + 1;
        }
        pieces.push_back(block.substr(begin, end - begin));
        begin = end;
    }
    return pieces;
}

// Pieces a thread per block: more pieces than threads, taken in turn by whichever thread is
// free, so that a thread the OS sets aside (on a machine busy with other work) holds up the
// block by one small piece, not by a whole share of it, and the threads wait less for each
// other's last piece at the end of a block; many more pieces cost more in bookkeeping than they
// save (BM_ReadCapture measures the choice).
constexpr std::size_t kPiecesPerThread = 8;

// A block cut into pieces, parsed and waiting to be merged.
struct ParsedBlock {
    std::vector<std::string_view> texts;
    std::vector<Piece> pieces;
    bool last_block = false;  // the file's last block, which may end without a line break
    std::size_t bytes = 0;
    // An error reading the block after this one: it comes after this block's rows.
    std::exception_ptr next_error;
};

ParsedRows read_rows_in_pieces(LineReader& reader, const Layout& l, const std::string& path,
                               const ParallelRead& parallel) {
    RowParser file(l, path, false);
    bool first_merge = true;
    // Appends a parsed block's rows to the file's, in file order, then throws the error of
    // reading the block after it, if there was one.
    const auto merge = [&](ParsedBlock& b) {
        for (std::size_t i = 0; i < b.pieces.size(); ++i) {
            const bool ends_file = b.last_block && i + 1 == b.texts.size();
            reader.count_lines(
                merge_piece(file, b.pieces[i], b.texts[i], ends_file, reader.line_number(), path));
        }
        // The rows of a file are alike: after the first block, each column gets room for about
        // the frames of the whole file at once, instead of being copied each time it doubles
        // (that copying was half the merge's time). Only address space is taken: the pages are
        // touched when rows fill them.
        if (first_merge && reader.file_size_bytes() > b.bytes) {
            try {
                reserve_columns(file.rows, 1.05 * static_cast<double>(reader.file_size_bytes()) /
                                               static_cast<double>(b.bytes));
            } catch (const std::bad_alloc&) {
            } catch (const std::length_error&) {
            }  // a first block unlike the rest: the columns grow as before
        }
        first_merge = false;
        // At the first line not yet counted when the next block was read (the lines of this
        // block are now), as on one thread.
        if (b.next_error) {
            try {
                std::rethrow_exception(b.next_error);
            } catch (const InputError& e) {
                if (e.line() <= 0)
                    throw;
                throw InputError(e.file(), reader.line_number() + 1, e.column(), e.message());
            }
        }
    };
    std::optional<ParsedBlock> parsed;  // the block before this one, not merged yet
    std::string_view block;
    bool have_block = reader.next_block(parallel.chunk_bytes, block);
    while (have_block) {
        ParsedBlock now;
        now.texts = cut_at_lines(block, parallel.threads * kPiecesPerThread);
        now.pieces.resize(now.texts.size());
        now.last_block = block.back() != '\n';
        now.bytes = block.size();
        std::string_view ahead;
        bool have_ahead = false;
        // While the others parse this block, this thread merges the one before (its buffer is
        // free once merged) and reads the next into that buffer (the kernel's copy of the file
        // is about a sixth of the work), then takes pieces too. Blocks alternate between two
        // buffers, so this one stays valid meanwhile. An error in the block before leaves here
        // once the others have finished their pieces.
        parallel_for(
            now.texts.size(), static_cast<unsigned>(parallel.threads),
            [&](std::size_t i, unsigned) {
                parse_piece(l, path, now.texts[i], now.last_block && i + 1 == now.texts.size(),
                            now.pieces[i]);
            },
            [&] {
                if (parsed) {
                    merge(*parsed);
                    parsed.reset();
                }
                try {
                    have_ahead = reader.next_block(parallel.chunk_bytes, ahead);
                } catch (...) {
                    now.next_error = std::current_exception();
                }
            });
        parsed = std::move(now);
        block = ahead;
        have_block = have_ahead;
    }
    if (parsed)
        merge(*parsed);
    return std::move(file.rows);
}

// ---- Stage 4: QPC ticks to nanoseconds ----------------------------------------------------

[[noreturn]] void throw_qpc_past_range(const Layout& l, const std::string& path,
                                       const Header& header, std::int64_t ticks, bool derived,
                                       double ticks_per_ms) {
    const auto at = static_cast<std::size_t>(l.start);
    throw InputError(
        path, header.line, at < header.column_at.size() ? header.column_at[at] : 0,
        fmt::format("a time of column '{}' lies {} ticks after the earliest, more than 292 "
                    "years at {}: expected QPC times that grow with the frames",
                    l.columns[l.start], ticks,
                    derived ? fmt::format("the {:.3g} ticks a second that the times of column "
                                          "'{}' give them",
                                          ticks_per_ms * 1e3, l.columns[l.qpc_interval])
                            : std::string("an assumed 10 MHz")));
}

// The QPC frequency is not in the file; it is what makes the tick span of the start column
// equal the sum of the matching ms column, over all streams.
void convert_qpc_starts(ParsedRows& rows, const Layout& l, const std::string& path,
                        const Header& header, std::map<std::string, std::string>& metadata) {
    double span_ticks = 0, span_ms = 0;
    for (const auto& s : rows.streams) {
        if (s.capture.start_ns.size() < 2 || !s.has_qpc)
            continue;
        span_ticks += static_cast<double>(s.last_qpc - s.first_qpc);
        span_ms +=
            s.interval_sum_ms -
            (l.start_unit == StartUnit::qpc_following ? s.last_interval_ms : s.first_interval_ms);
    }
    double ticks_per_ms = span_ms > 0 && span_ticks > 0 ? span_ticks / span_ms : 0.0;
    const bool derived = ticks_per_ms > 0;
    if (derived) {
        metadata["qpc_frequency_hz"] =
            fmt::format("{:.0f} (from the file's times)", ticks_per_ms * 1e3);
    } else {
        ticks_per_ms = 1e4;  // 10 MHz, what Windows 10 and later report
        metadata["qpc_frequency_hz"] = "10000000 (assumed)";
    }
    // Each present's start (TimeInQPC, raw ticks) less its frame's CPU start, while the starts
    // are still ticks; only at a rate the file's own times give: at an assumed one the time
    // would be a guess, so the column is left empty (its figures absent).
    for (auto& s : rows.streams) {
        std::vector<std::int64_t>& offset = s.capture.cpu_start_to_present_ns;
        if (offset.size() != s.capture.start_ns.size() || !derived) {
            offset.clear();
            continue;
        }
        for (std::size_t i = 0; i < offset.size(); ++i) {
            const std::int64_t start = s.capture.start_ns[i];
            const bool known = offset[i] >= 0 && start != kNoStart && offset[i] >= start;
            offset[i] =
                known ? std::llround(static_cast<double>(offset[i] - start) * 1e6 / ticks_per_ms)
                      : -1;
        }
    }
    // The rate spans each stream's first and last ticks: a time far outside that span (ticks
    // out of order), at a low rate, converts past the int64 range, where rounding it is
    // undefined. Such a column is refused, as a time cell past 292 years is.
    for (auto& s : rows.streams) {
        for (auto& v : s.capture.start_ns) {
            if (v == kNoStart)
                continue;
            const double ns = static_cast<double>(v - rows.min_qpc) * 1e6 / ticks_per_ms;
            if (!(ns < kInt64RangeNs))
                throw_qpc_past_range(l, path, header, v - rows.min_qpc, derived, ticks_per_ms);
            v = std::llround(ns);
        }
    }
}

// ---- Stage 5: the streams as captures ------------------------------------------------------

// PresentMon 2.x's DisplayedTime is how long a frame stayed on screen: the time from its display
// change to the next one. The 1.x and 2.4+ layouts give each frame the time since the previous
// display change instead, so that a frame's number names the change it made; the same here: each
// displayed frame gets the DisplayedTime of the displayed frame before it. The first displayed
// frame has none in the file (-1, not dropped), and the last frame's time on screen has no later
// frame to go to.
void attribute_time_on_screen(Capture& c) {
    std::int64_t previous = -1;
    for (std::size_t i = 0; i < c.display_ns.size(); ++i) {
        const std::int64_t on_screen = c.display_ns[i];
        if (on_screen < 0)
            continue;
        c.display_ns[i] = previous;
        previous = on_screen;
    }
}

// PresentMon 2.x's "v2 metrics" layout has no present-to-present column: its FrameTime is the
// time between the application's frame starts. Each present begins CPUBusy after its frame's
// CPU start (the 2.4+ layout of the same recording has TimeInQPC = CPUStartQPC + MsCPUBusy on
// every row), so the present timeline is rebuilt from those times, as MsBetweenPresents gives it:
// each application frame's present minus the one before. Generated frames have no present time
// in this layout (their CPUBusy is 0 and their CPU start is not their present), so they keep no
// frame time; the first frame has no earlier present in the file. Frame starts become the
// present times, which end the time since the previous present.
void rebuild_present_timeline(Capture& c) {
    const std::size_t n = c.frame_ns.size();
    if (c.cpu_busy_ns.size() != n || c.start_ns.size() != n)
        return;
    const bool marks_generated = c.generated.size() == n;
    std::int64_t previous_present = -1;
    for (std::size_t i = 0; i < n; ++i) {
        if (marks_generated && c.generated[i] != 0) {
            c.frame_ns[i] = 0;
            continue;
        }
        const std::int64_t present = c.start_ns[i] + std::max<std::int64_t>(c.cpu_busy_ns[i], 0);
        c.start_ns[i] = present;
        c.frame_ns[i] =
            previous_present < 0 ? 0 : std::max<std::int64_t>(present - previous_present, 0);
        if (previous_present < 0)
            c.leading_frames_without_time = i + 1;
        previous_present = present;
    }
    c.start_ends_frame_time = true;
}

// The median of the values that are numbers (the mean of the middle two for an even count),
// NaN without any.
double median_of_known(const std::vector<double>& values) {
    std::vector<double> known;
    known.reserve(values.size());
    for (const double v : values) {
        if (!std::isnan(v))
            known.push_back(v);
    }
    if (known.empty())
        return std::nan("");
    const std::size_t mid = known.size() / 2;
    std::nth_element(known.begin(), known.begin() + static_cast<std::ptrdiff_t>(mid), known.end());
    const double upper = known[mid];
    if (known.size() % 2 == 1)
        return upper;
    return (*std::max_element(known.begin(), known.begin() + static_cast<std::ptrdiff_t>(mid)) +
            upper) /
           2;
}

// A start plus a time, or nullopt past the int64 range.
std::optional<std::int64_t> add_ns(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        return std::nullopt;
    return sum;
}

// Frame starts whose cells were bad (kNoStart): the previous frame's start plus the frame time
// between them, as the frame times lay them; before the first known start, counted back from it.
// Without any known start, the running sum.
void fill_missing_starts(Capture& c) {
    std::vector<std::int64_t>& start = c.start_ns;
    const std::vector<std::int64_t>& frame = c.frame_ns;
    const auto first =
        std::find_if(start.begin(), start.end(), [](std::int64_t v) { return v != kNoStart; });
    if (first == start.end()) {
        start = running_sum_starts(frame);
        return;
    }
    // The time from start i-1 to start i: the frame time of i where a start ends its frame
    // time, of i-1 where it begins it.
    const auto step = [&](std::size_t i) {
        return c.start_ends_frame_time ? frame[i] : frame[i - 1];
    };
    const auto known = static_cast<std::size_t>(first - start.begin());
    for (std::size_t i = known; i-- > 0;)
        start[i] = std::max<std::int64_t>(0, start[i + 1] - step(i + 1));
    for (std::size_t i = known + 1; i < start.size(); ++i) {
        if (start[i] == kNoStart)
            start[i] = add_ns(start[i - 1], step(i)).value_or(start[i - 1]);
    }
}

// Captures joined one after another (the header repeats): where a stream's starts go back,
// the rest is laid right after the frame before, as one recording in segments. Returns the
// number of joins moved.
std::int64_t join_segments(Capture& c) {
    std::vector<std::int64_t>& start = c.start_ns;
    std::int64_t offset = 0, joins = 0;
    for (std::size_t i = 1; i < start.size(); ++i) {
        const auto moved = add_ns(start[i], offset);
        if (!moved)
            return joins;
        start[i] = *moved;
        if (start[i] >= start[i - 1])
            continue;
        const std::int64_t step = c.start_ends_frame_time ? c.frame_ns[i] : c.frame_ns[i - 1];
        const auto after = add_ns(start[i - 1], step);
        if (!after)
            return joins;
        offset += *after - start[i];
        start[i] = *after;
        ++joins;
    }
    return joins;
}

// Every stream with at least one frame; frame starts from the running sum where the layout has
// no start column.
std::vector<Capture> finish_streams(ParsedRows& rows, const Layout& l, const std::string& path,
                                    std::int64_t header_line) {
    std::vector<Capture> out;
    out.reserve(rows.streams.size());
    for (auto& s : rows.streams) {
        if (s.capture.frame_ns.empty())
            continue;
        if (l.start < 0)
            s.capture.start_ns = running_sum_starts(s.capture.frame_ns);
        // A CPU start begins the application's frame; the other time columns are the present's,
        // which ends the time since the previous present.
        s.capture.start_ends_frame_time =
            l.start >= 0 && !l.columns[static_cast<std::size_t>(l.start)].starts_with("CPUStart");
        if (l.start >= 0)
            fill_missing_starts(s.capture);
        if (rows.repeated_headers > 0 && l.start >= 0)
            join_segments(s.capture);
        if (l.display_is_time_on_screen)
            attribute_time_on_screen(s.capture);
        if (l.format == "presentmon-2")
            rebuild_present_timeline(s.capture);
        for (TelemetryColumn& t : s.capture.telemetry)
            t.median = median_of_known(t.values);
        out.push_back(std::move(s.capture));
    }
    if (out.empty()) {
        const auto& bad = rows.bad.groups();
        const auto frame_cells = std::find_if(bad.begin(), bad.end(), [&](const BadCells& b) {
            return b.column == l.columns[static_cast<std::size_t>(l.frame)];
        });
        if (frame_cells != bad.end()) {
            throw InputError(
                path, frame_cells->first_line, frame_cells->first_column,
                fmt::format("no row has a frame time: column '{}' holds {}, {}, "
                            "and NA or no number on every other row",
                            frame_cells->column, quote_for_message(frame_cells->first_text),
                            frame_cells->kind));
        }
        throw InputError(path, header_line, 0, "no row has a frame time: every cell is NA");
    }
    return out;
}

}  // namespace

std::string classify_presentmon_header(const std::vector<std::string>& columns,
                                       const std::string& path, std::int64_t line,
                                       bool after_capframex_preamble) {
    if (find_column(columns, "Application") < 0)
        return "";
    const auto has = [&](std::string_view name) { return find_column(columns, name) >= 0; };
    if (has("MsBetweenPresents") && has("MsBetweenAppStart"))
        return "presentmon-2.4";
    if (has("FrameTime"))
        return "presentmon-2";
    if (has("msBetweenPresents")) {
        if (after_capframex_preamble)
            return "capframex-csv";
        if (has("FlipToken") || has("Render Queue Depth") ||
            has_column_starting(columns, "GPU0Clk")) {
            return "frameview";
        }
        if (has("Motherboard"))
            return "ocat";
        return "presentmon-1";
    }
    layout_error(path, line, columns, "unknown PresentMon column layout");
}

FileStreams read_presentmon_streams(const std::string& path, const ParallelRead& parallel) {
    LineReader reader(path);
    FileStreams out;
    std::map<std::string, std::string>& metadata = out.metadata;
    Header header = read_header(reader, path, metadata);
    const std::string format = classify_presentmon_header(header.columns, path, header.line,
                                                          header.after_capframex_preamble);
    if (format.empty())
        layout_error(path, header.line, header.columns, "no Application column");
    const Layout l = make_layout(format, header.columns, path, header.line);

    // OCAT keeps its system description from its first row: one thread reads it line by line.
    // One thread also reads a mapped file in pieces, one after another: without the kernel's
    // copy of the file, and with each line's end found while it is split, which reads quicker
    // than line by line.
    const bool in_pieces = (parallel.threads > 1 || parallel.map_file) && l.info_first < 0 &&
                           reader.file_size_bytes() >= parallel.from_bytes;
    if (in_pieces && parallel.map_file)
        reader.map_blocks();
    ParsedRows rows = in_pieces ? read_rows_in_pieces(reader, l, path, parallel)
                                : read_rows(reader, l, path, metadata);
    if (rows.streams.empty()) {
        throw InputError(path, header.line, 0,
                         "header only: expected rows of presents after the header");
    }
    if (l.start_unit == StartUnit::qpc_following || l.start_unit == StartUnit::qpc_preceding)
        convert_qpc_starts(rows, l, path, header, metadata);
    if (rows.rows_without_frame_time > 0)
        metadata["rows_without_frame_time"] = std::to_string(rows.rows_without_frame_time);
    out.streams = finish_streams(rows, l, path, header.line);
    rows.bad.append_to(out.quality);
    if (rows.repeated_headers > 0) {
        out.quality.oddities.push_back(
            {"concatenated_captures", rows.repeated_headers + 1,
             fmt::format("The header row repeats ({} time{}, first at line {}): {} captures "
                         "joined one after another, read as consecutive segments of one "
                         "capture{}.",
                         rows.repeated_headers, rows.repeated_headers == 1 ? "" : "s",
                         rows.first_repeated_header_line, rows.repeated_headers + 1,
                         l.start >= 0 ? " (where a segment's times start again, it is laid "
                                        "right after the frame before)"
                                      : "")});
    }
    return out;
}

}  // namespace loopscope::detail
