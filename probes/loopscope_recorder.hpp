// loopscope_recorder.hpp: record a game loop's frames as a loopscope trace (format v1).
//
// One header, standard library only: copy it into a game and include it. Recording is on only
// where LOOPSCOPE_RECORDER is defined to 1 before the include (or with -DLOOPSCOPE_RECORDER=1);
// otherwise loopscope::Recorder keeps the same interface with empty inline functions and no
// members, so every call compiles to nothing and the game needs no #if around it.
//
//     loopscope::RecorderOptions options;
//     options.path = "frames.csv";
//     options.policy = "fixed-interp";
//     options.dt_ns = 16'666'667;
//     loopscope::Recorder recorder(options);
//     while (running) {
//         const std::int64_t now = my_clock_ns();
//         recorder.begin_frame(now);            // frame time = now - previous begin
//         ... accumulate, step ...
//         recorder.loop(steps, acc_before_ns, acc_after_ns, alpha);
//         recorder.end_steps(my_clock_ns());    // optional: time in the steps
//         ... render ...
//         recorder.end_render(my_clock_ns());   // optional: time rendering; the rest until the
//     }                                         // next begin_frame is the wait (vsync, limiter)
//
// The begin/end calls without an argument read std::chrono::steady_clock (or options.clock_ns).
// Rows go into a buffer allocated once, at construction; every flush_every frames they are
// written and flushed, so a game that crashes leaves a readable trace up to its last flush.
// With flush_every = 0 nothing is written until close(), and frames beyond the buffer's
// capacity are dropped and counted (dropped_frames()); the frame column keeps counting, so the
// gap shows in the trace too. Not thread-safe: call it from the loop's thread.
#pragma once

#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

namespace loopscope {

namespace trace_v1 {

inline constexpr const char* kMagic = "# loopscope-trace v1";
inline constexpr const char* kColumns =
    "frame,start_ns,raw_ns,clamped_ns,clamp_lost_ns,consumed_ns,acc_before_ns,steps,"
    "cap_dropped_ns,acc_after_ns,alpha,step_cost_ns,render_ns,wait_ns";
// The longest row format_row writes: 13 integers of up to 20 characters, alpha, separators.
inline constexpr std::size_t kMaxRowChars = 13 * 21 + 32;

inline char* put_int(char* out, std::int64_t v) {
    // Two digits a step from a table: formatting is most of a flush's cost.
    static constexpr char kPairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    char digits[20];
    char* end = digits + sizeof digits;
    char* p = end;
    std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    while (u >= 100) {
        const auto pair = static_cast<std::size_t>(u % 100) * 2;
        u /= 100;
        *--p = kPairs[pair + 1];
        *--p = kPairs[pair];
    }
    if (u >= 10) {
        const auto pair = static_cast<std::size_t>(u) * 2;
        *--p = kPairs[pair + 1];
        *--p = kPairs[pair];
    } else {
        *--p = static_cast<char>('0' + u);
    }
    if (v < 0)
        *out++ = '-';
    while (p != end)
        *out++ = *p++;
    return out;
}

// Alpha with six decimals, truncated rather than rounded so that an alpha below 1 never prints
// as 1.000000.
inline char* put_alpha(char* out, double alpha) {
    if (!(alpha == alpha))
        alpha = 0;  // NaN
    if (alpha < 0) {
        *out++ = '-';
        alpha = -alpha;
    }
    if (alpha > 9e12)
        alpha = 9e12;
    const auto whole = static_cast<std::int64_t>(alpha);
    auto micro = static_cast<std::int64_t>((alpha - static_cast<double>(whole)) * 1e6);
    if (micro > 999999)
        micro = 999999;
    out = put_int(out, whole);
    *out++ = '.';
    for (std::int64_t scale = 100000; scale > 0; scale /= 10) {
        *out++ = static_cast<char>('0' + micro / scale % 10);
    }
    return out;
}

// Writes one row (with its '\n') for any struct with the trace's column names as members, and
// returns the end. `out` must have room for kMaxRowChars characters.
template <class Row>
char* format_row(char* out, const Row& r) {
    out = put_int(out, r.frame);
    *out++ = ',';
    out = put_int(out, r.start_ns);
    *out++ = ',';
    out = put_int(out, r.raw_ns);
    *out++ = ',';
    out = put_int(out, r.clamped_ns);
    *out++ = ',';
    out = put_int(out, r.clamp_lost_ns);
    *out++ = ',';
    out = put_int(out, r.consumed_ns);
    *out++ = ',';
    out = put_int(out, r.acc_before_ns);
    *out++ = ',';
    out = put_int(out, r.steps);
    *out++ = ',';
    out = put_int(out, r.cap_dropped_ns);
    *out++ = ',';
    out = put_int(out, r.acc_after_ns);
    *out++ = ',';
    out = put_alpha(out, r.alpha);
    *out++ = ',';
    out = put_int(out, r.step_cost_ns);
    *out++ = ',';
    out = put_int(out, r.render_ns);
    *out++ = ',';
    out = put_int(out, r.wait_ns);
    *out++ = '\n';
    return out;
}

// "2026-11-22T03:41:17Z" for now, for the start_time metadata line.
inline std::string utc_now_iso8601() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
#if defined(_WIN32)
    gmtime_s(&tm, &t);
#else
    gmtime_r(&t, &tm);
#endif
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

}  // namespace trace_v1

struct RecorderOptions {
    std::string path = "loopscope-trace.csv";  // "-" = standard output
    std::size_t capacity = 4096;               // rows held in memory, allocated once
    std::size_t flush_every = 4096;            // write every N frames; 0 = only at close()
    // The clock the argument-less calls read, in nanoseconds; nullptr = steady_clock.
    std::int64_t (*clock_ns)() = nullptr;
    std::string clock_name;  // metadata; "" = "steady_clock" when clock_ns is nullptr
    // The loop's knobs, written as metadata (empty / 0 when the game does not say).
    std::string policy;
    std::int64_t dt_ns = 0;
    std::int64_t clamp_ns = 0;
    std::int64_t max_steps = 0;
    double timescale = 1.0;
    std::string machine;
    bool write_start_time = true;
    std::vector<std::pair<std::string, std::string>> metadata;  // more `# key: value` lines
};

#if defined(LOOPSCOPE_RECORDER) && LOOPSCOPE_RECORDER

inline namespace recorder_enabled {

class Recorder {
  public:
    static constexpr bool kEnabled = true;

    explicit Recorder(RecorderOptions options) : options_(std::move(options)) {
        if (options_.capacity == 0)
            options_.capacity = 1;
        if (options_.flush_every > options_.capacity)
            options_.flush_every = options_.capacity;
        rows_.resize(options_.capacity);
        text_.resize(trace_v1::kMaxRowChars * 512);  // few large writes: system calls are dear
        to_stdout_ = options_.path == "-";
        file_ = to_stdout_ ? stdout : std::fopen(options_.path.c_str(), "wb");
        if (!file_) {
            failed_ = true;
            return;
        }
        write_header();
        start_ns_ = previous_ns_ = now_ns();
    }
    ~Recorder() { close(); }
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    std::int64_t now_ns() const {
        if (options_.clock_ns)
            return options_.clock_ns();
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }

    // Starts a frame at now_ns (the game's own clock reading saves a read); ends the previous
    // one, whose wait is the time from its end_render (or end_steps) to now.
    void begin_frame(std::int64_t now) {
        if (open_)
            commit(now);
        Row& r = current_;
        r = Row{};
        r.frame = next_frame_++;
        r.start_ns = now - start_ns_;
        r.raw_ns = now - previous_ns_;
        r.clamped_ns = r.raw_ns;
        r.consumed_ns = r.raw_ns;
        previous_ns_ = now;
        mark_ns_ = now;
        open_ = true;
    }
    void begin_frame() { begin_frame(now_ns()); }

    // The loop's state this frame.
    void loop(std::int64_t steps, std::int64_t acc_before_ns, std::int64_t acc_after_ns,
              double alpha) {
        current_.steps = steps;
        current_.acc_before_ns = acc_before_ns;
        current_.acc_after_ns = acc_after_ns;
        current_.alpha = alpha;
    }
    // What the guards and the timescale did, when the game has them (otherwise clamped and
    // consumed are the raw frame time and nothing was dropped).
    void guards(std::int64_t clamped_ns, std::int64_t consumed_ns, std::int64_t cap_dropped_ns) {
        current_.clamped_ns = clamped_ns;
        current_.clamp_lost_ns = current_.raw_ns - clamped_ns;
        current_.consumed_ns = consumed_ns;
        current_.cap_dropped_ns = cap_dropped_ns;
    }

    // Phase ends: the steps took from begin_frame (or the previous mark) to here; rendering
    // from end_steps to end_render.
    void end_steps(std::int64_t now) {
        current_.step_cost_ns += now - mark_ns_;
        mark_ns_ = now;
    }
    void end_steps() { end_steps(now_ns()); }
    void end_render(std::int64_t now) {
        current_.render_ns += now - mark_ns_;
        mark_ns_ = now;
    }
    void end_render() { end_render(now_ns()); }
    // Phase times measured by the game itself, added to the frame's columns; the wait is then
    // the one given here instead of the time to the next begin_frame.
    void add_times(std::int64_t step_cost_ns, std::int64_t render_ns, std::int64_t wait_ns) {
        current_.step_cost_ns += step_cost_ns;
        current_.render_ns += render_ns;
        current_.wait_ns += wait_ns;
        explicit_wait_ = true;  // the game measures its own phases
    }

    // Ends the last frame (its wait counts up to now), writes what is buffered and closes the
    // file. Called by the destructor; safe to call twice.
    void close() { close(now_ns()); }
    // The same, with the last frame ending at `now` (the game's own clock reading).
    void close(std::int64_t now) {
        if (closed_)
            return;
        closed_ = true;
        if (open_ && !failed_)
            commit(now);
        flush();
        if (file_) {
            if (!to_stdout_ && std::fclose(file_) != 0)
                failed_ = true;
            file_ = nullptr;
        }
    }

    // Writes the buffered rows and flushes the file.
    void flush() {
        if (!file_ || buffered_ == 0) {
            buffered_ = 0;
            return;
        }
        char* out = text_.data();
        char* const end = text_.data() + text_.size() - trace_v1::kMaxRowChars;
        for (std::size_t i = 0; i < buffered_; ++i) {
            out = trace_v1::format_row(out, rows_[i]);
            if (out >= end || i + 1 == buffered_) {
                write(text_.data(), static_cast<std::size_t>(out - text_.data()));
                out = text_.data();
            }
        }
        buffered_ = 0;
        if (std::fflush(file_) != 0)
            failed_ = true;
    }

    std::int64_t frames() const { return next_frame_; }
    std::int64_t recorded_frames() const { return recorded_; }
    std::int64_t dropped_frames() const { return dropped_; }
    // False when the file could not be opened or written.
    bool ok() const { return !failed_; }
    const std::string& path() const { return options_.path; }
    // The clock reading the trace's times count from (frame 0's frame time starts here).
    std::int64_t start_ns() const { return start_ns_; }

  private:
    // The trace's columns, as trace_v1::format_row expects them.
    struct Row {
        std::int64_t frame = 0, start_ns = 0, raw_ns = 0, clamped_ns = 0, clamp_lost_ns = 0,
                     consumed_ns = 0, acc_before_ns = 0, steps = 0, cap_dropped_ns = 0,
                     acc_after_ns = 0;
        double alpha = 0;
        std::int64_t step_cost_ns = 0, render_ns = 0, wait_ns = 0;
    };

    void commit(std::int64_t now) {
        if (!explicit_wait_)
            current_.wait_ns = now - mark_ns_;
        explicit_wait_ = false;
        open_ = false;
        if (failed_ || buffered_ == rows_.size()) {
            ++dropped_;
            return;
        }
        rows_[buffered_++] = current_;
        ++recorded_;
        if (options_.flush_every > 0 && buffered_ >= options_.flush_every)
            flush();
    }

    void write(const char* data, std::size_t size) {
        if (std::fwrite(data, 1, size, file_) != size)
            failed_ = true;
    }

    void line(const std::string& key, const std::string& value) {
        const std::string text = "# " + key + ": " + value + "\n";
        write(text.data(), text.size());
    }

    void write_header() {
        const std::string magic = std::string(trace_v1::kMagic) + "\n";
        write(magic.data(), magic.size());
        line("clock", !options_.clock_name.empty() ? options_.clock_name
                      : options_.clock_ns          ? "custom"
                                                   : "steady_clock");
        if (!options_.policy.empty())
            line("policy", options_.policy);
        if (options_.dt_ns > 0)
            line("dt_ns", std::to_string(options_.dt_ns));
        line("clamp_ns", std::to_string(options_.clamp_ns));
        line("max_steps", std::to_string(options_.max_steps));
        char scale[32];
        const auto scaled = std::to_chars(scale, scale + sizeof scale, options_.timescale);
        line("timescale", std::string(scale, scaled.ptr));
        if (!options_.machine.empty())
            line("machine", options_.machine);
        if (options_.write_start_time)
            line("start_time", trace_v1::utc_now_iso8601());
        for (const auto& [key, value] : options_.metadata)
            line(key, value);
        const std::string columns = std::string(trace_v1::kColumns) + "\n";
        write(columns.data(), columns.size());
        if (std::fflush(file_) != 0)
            failed_ = true;
    }

    RecorderOptions options_;
    std::vector<Row> rows_;
    std::vector<char> text_;
    std::FILE* file_ = nullptr;
    Row current_;
    std::size_t buffered_ = 0;
    std::int64_t start_ns_ = 0;
    std::int64_t previous_ns_ = 0;
    std::int64_t mark_ns_ = 0;
    std::int64_t next_frame_ = 0;
    std::int64_t recorded_ = 0;
    std::int64_t dropped_ = 0;
    bool open_ = false;
    bool explicit_wait_ = false;
    bool failed_ = false;
    bool closed_ = false;
    bool to_stdout_ = false;
};

}  // namespace recorder_enabled

#else

// Recording is off: the same interface, no state, nothing to run.
inline namespace recorder_disabled {

class Recorder {
  public:
    static constexpr bool kEnabled = false;
    explicit Recorder(const RecorderOptions&) {}
    std::int64_t now_ns() const { return 0; }
    void begin_frame(std::int64_t) {}
    void begin_frame() {}
    void loop(std::int64_t, std::int64_t, std::int64_t, double) {}
    void guards(std::int64_t, std::int64_t, std::int64_t) {}
    void end_steps(std::int64_t) {}
    void end_steps() {}
    void end_render(std::int64_t) {}
    void end_render() {}
    void add_times(std::int64_t, std::int64_t, std::int64_t) {}
    void close() {}
    void close(std::int64_t) {}
    void flush() {}
    std::int64_t frames() const { return 0; }
    std::int64_t recorded_frames() const { return 0; }
    std::int64_t dropped_frames() const { return 0; }
    bool ok() const { return true; }
};

}  // namespace recorder_disabled

#endif

}  // namespace loopscope
