// loopscope/recorder.hpp: record a game loop's frames as a loopscope trace (format v1).
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
//
// Rows go into memory allocated once, at construction: a ring of blocks of flush_every rows.
// When a block fills, the loop's thread hands it to a writer thread of the recorder's own (a
// size stored under a mutex and a notify: no formatting, no allocation, no system call beyond
// the notify) and goes on in the next block; the writer formats the rows, writes and flushes
// them. If the writer still holds the next block (it fell a whole ring behind), the loop's
// thread does not wait: frames are dropped and counted (dropped_frames()) until the block is
// free; the frame column keeps counting, so the gap shows in the trace. With flush_every = 0
// nothing is written until close() and frames beyond `capacity` are dropped the same way.
// background_writer = false formats and writes on the loop's thread at each flush instead.
//
// What a crash leaves: every block the writer has finished, as whole rows. Each block is
// written and flushed to the operating system, which keeps it when the process dies (only a
// power loss can still take it: there is no fsync). A crash loses the rows of the block being
// filled (fewer than flush_every frames) and of any block handed over whose writing had not
// finished. The writer starts a block as soon as it is handed over and spends about 70 ns of
// CPU a row (measured: about 75 us for 1024 rows). So unless the writer is starved of CPU or the
// disk stalls, a handed-over block is on disk well under a millisecond later. The hard bound is
// in frames: the ring, `capacity` rows (2 x flush_every if that is more). A crash in the middle of
// a write can leave one last row without its line break; the loopscope-trace reader leaves such a
// last row out (or keeps it, when it parses whole) with a warning. Not thread-safe: call it from
// the loop's thread.
#pragma once

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#if defined(LOOPSCOPE_RECORDER) && LOOPSCOPE_RECORDER
// The writer thread's parts; a disabled recorder does not pull them in.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#endif

namespace loopscope {

namespace trace_v1 {

inline constexpr const char* kMagic = "# loopscope-trace v1";
// The line after the rows that says the game's clock went back while recording.
inline constexpr const char* kClockWentBackKey = "clock_went_back";
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

// What the preamble says: the `# key: value` metadata lines between the magic line and the
// header row. Empty strings, a policy of "" and a dt_ns of 0 are left out (the game did not say).
// Its fields repeat some of RecorderOptions' on purpose: RecorderOptions is the game's interface
// (its names stay put), this is the format's, and loopscope's own trace writer fills it without
// a Recorder.
struct Preamble {
    std::string clock;
    std::string policy;
    std::int64_t dt_ns = 0;
    std::int64_t clamp_ns = 0;
    std::int64_t max_steps = 0;
    double timescale = 1.0;
    std::string machine;
    std::string start_time;
    std::vector<std::pair<std::string, std::string>> metadata;  // more `# key: value` lines
};

// The magic line, the metadata lines and the header row, each ending in '\n': the one preamble
// of every trace, whether a game's recorder or loopscope itself writes it.
inline std::string preamble_text(const Preamble& p) {
    std::string text = std::string(kMagic) + "\n";
    const auto line = [&text](const char* key, const std::string& value) {
        text += std::string("# ") + key + ": " + value + "\n";
    };
    line("clock", p.clock);
    if (!p.policy.empty())
        line("policy", p.policy);
    if (p.dt_ns > 0)
        line("dt_ns", std::to_string(p.dt_ns));
    line("clamp_ns", std::to_string(p.clamp_ns));
    line("max_steps", std::to_string(p.max_steps));
    char scale[32];
    const auto scaled = std::to_chars(scale, scale + sizeof scale, p.timescale);
    line("timescale", std::string(scale, scaled.ptr));
    if (!p.machine.empty())
        line("machine", p.machine);
    if (!p.start_time.empty())
        line("start_time", p.start_time);
    for (const auto& [key, value] : p.metadata)
        text += "# " + key + ": " + value + "\n";
    text += kColumns;
    text += '\n';
    return text;
}

}  // namespace trace_v1

struct RecorderOptions {
    std::string path = "loopscope-trace.csv";  // "-" = standard output
    // Rows held in memory, allocated once. With the background writer they form a ring of
    // capacity / flush_every blocks of flush_every rows (at least two blocks).
    std::size_t capacity = 4096;
    std::size_t flush_every = 1024;  // hand the rows to the writer every N frames; 0 = at close()
    // Format and write the rows on a thread of the recorder's own, so that the loop's thread
    // only hands a full block over. false = format and write on the loop's thread at each flush
    // (for a game that cannot start a thread); a thread that fails to start falls back to this.
    bool background_writer = true;
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
    // For tests and benchmarks: called by whichever thread writes, just before it formats and
    // writes a block, and (background writer only) on the writer's thread just before it ends.
    std::function<void()> before_write;
    std::function<void()> writer_exit;
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
        const bool streaming = options_.flush_every > 0;
        block_rows_ = streaming ? options_.flush_every : options_.capacity;
        if (streaming && options_.background_writer)
            blocks_ = std::max<std::size_t>(2, options_.capacity / options_.flush_every);
        rows_.resize(block_rows_ * blocks_);
        block_ = rows_.data();
        block_sizes_.resize(blocks_);
        text_.resize(trace_v1::kMaxRowChars * 512);  // few large writes: system calls are dear
        to_stdout_ = options_.path == "-";
        file_ = to_stdout_ ? stdout : std::fopen(options_.path.c_str(), "wb");
        if (!file_) {
            failed_ = true;
            return;
        }
        // Unbuffered: each piece of whole rows goes to the system in one write, so a crash
        // leaves at most one row cut short at the end (standard output keeps its buffering:
        // it may be in use already).
        if (!to_stdout_)
            std::setvbuf(file_, nullptr, _IONBF, 0);
        write_header();
        start_ns_ = previous_ns_ = latest_ns_ = now_ns();
        if (streaming && options_.background_writer && !failed_) {
            try {
                writer_ = std::thread([this] { writer_main(); });
            } catch (const std::system_error&) {
                // No thread to be had: write on the loop's thread, as background_writer = false.
            }
        }
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
        now = reading(now, next_frame_);
        if (open_)
            commit(now);
        Row& r = current_;
        r = Row{};
        r.frame = next_frame_++;
        r.raw_ns = now - previous_ns_;
        r.start_ns = now - start_ns_;
        previous_ns_ = now;
        r.clamped_ns = r.raw_ns;
        r.consumed_ns = r.raw_ns;
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
        now = reading(now, current_.frame);
        current_.step_cost_ns += now - mark_ns_;
        mark_ns_ = now;
    }
    void end_steps() { end_steps(now_ns()); }
    void end_render(std::int64_t now) {
        now = reading(now, current_.frame);
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

    // Ends the last frame (its wait counts up to now), hands over what is buffered, waits for
    // the writer to write it and closes the file. Called by the destructor; safe to call twice.
    void close() { close(now_ns()); }
    // The same, with the last frame ending at `now` (the game's own clock reading).
    void close(std::int64_t now) {
        if (closed_)
            return;
        closed_ = true;
        now = reading(now, current_.frame);
        if (open_ && !failed_) {
            // Closing may wait: the last frame is not dropped for a writer still busy.
            if (fill_ == 0 && handed_ >= blocks_)
                wait_written(handed_ - blocks_ + 1);
            commit(now);
        } else if (open_) {
            open_ = false;
            ++dropped_;  // the file failed: the last frame is lost like the others
        }
        hand_over();
        if (writer_.joinable()) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                stop_ = true;
            }
            work_cv_.notify_one();
            writer_.join();
        }
        if (file_ && backward_steps_ > 0 && !failed_) {
            // After the rows, where the reader takes `# key: value` lines too.
            const std::string line = std::string("# ") + trace_v1::kClockWentBackKey + ": " +
                                     std::to_string(backward_steps_) + " times, by up to " +
                                     std::to_string(backward_max_ns_) + " ns, first at frame " +
                                     std::to_string(backward_first_frame_) + "\n";
            write(line.data(), line.size());
        }
        if (file_) {
            if (to_stdout_ ? std::fflush(file_) != 0 : std::fclose(file_) != 0)
                failed_ = true;
            file_ = nullptr;
        }
    }

    // Hands the rows recorded since the last hand-over to the writer and waits until they are
    // written and flushed to the operating system: call it before a deliberate abort or a
    // crash-report upload. Blocks the calling thread; the automatic hand-overs every
    // flush_every frames never wait.
    void flush() {
        hand_over();
        wait_for_writer();
    }
    // Waits until the writer has written and flushed every row handed over so far (not the
    // ones held since: flush() for those). Blocks the calling thread; not for every frame.
    void wait_for_writer() { wait_written(handed_); }
    // Whether the writer has written every row handed over so far, without waiting.
    bool writer_caught_up() const { return written_.load(std::memory_order_acquire) == handed_; }

    std::int64_t frames() const { return next_frame_; }
    // Frames in the file, and frames lost: not kept for a writer a ring behind, or kept but
    // in a block whose write failed (a full disk). Together they are every ended frame.
    std::int64_t recorded_frames() const {
        return recorded_ - lost_rows_.load(std::memory_order_acquire);
    }
    std::int64_t dropped_frames() const {
        return dropped_ + lost_rows_.load(std::memory_order_acquire);
    }
    // How often the clock read earlier than the reading before it, and by how much at most:
    // such a frame's or phase's time is recorded as 0 (never negative), and the trace ends
    // with a `# clock_went_back:` line saying so.
    std::int64_t clock_backward_steps() const { return backward_steps_; }
    std::int64_t largest_clock_backward_ns() const { return backward_max_ns_; }
    // False when the file could not be opened or written.
    bool ok() const { return !failed_.load(std::memory_order_relaxed); }
    const std::string& path() const { return options_.path; }
    // The clock reading the trace's times count from (frame 0's frame time starts here).
    std::int64_t start_ns() const { return start_ns_; }
    // Whether a writer thread is running (false without background_writer, with
    // flush_every = 0, when the file could not be opened, and after close()).
    bool has_writer_thread() const { return writer_.joinable(); }

  private:
    // The trace's columns, as trace_v1::format_row expects them.
    struct Row {
        std::int64_t frame = 0, start_ns = 0, raw_ns = 0, clamped_ns = 0, clamp_lost_ns = 0,
                     consumed_ns = 0, acc_before_ns = 0, steps = 0, cap_dropped_ns = 0,
                     acc_after_ns = 0;
        double alpha = 0;
        std::int64_t step_cost_ns = 0, render_ns = 0, wait_ns = 0;
    };

    // The loop's thread: the row goes into the block being filled, unless that block is full
    // (flush_every = 0) or the writer has not yet written what it held before (a ring lap
    // behind): then the frame is dropped and counted, and the loop never waits.
    void commit(std::int64_t now) {
        if (!explicit_wait_)
            current_.wait_ns = now - mark_ns_;
        explicit_wait_ = false;
        open_ = false;
        // No file (it could not be opened, or close() has run): nothing can be kept.
        if (!file_ || fill_ == block_rows_ || (fill_ == 0 && !block_free())) {
            ++dropped_;
            return;
        }
        block_[fill_] = current_;
        ++fill_;
        ++recorded_;
        if (fill_ == block_rows_ && options_.flush_every > 0)
            hand_over();
    }

    // A clock reading, never earlier than the latest one: a reading that went back is counted
    // (with its size and the frame) and taken as the latest, so no time comes out negative.
    std::int64_t reading(std::int64_t now, std::int64_t frame) {
        if (now >= latest_ns_) {
            latest_ns_ = now;
            return now;
        }
        if (backward_steps_++ == 0)
            backward_first_frame_ = frame;
        backward_max_ns_ = std::max(backward_max_ns_, latest_ns_ - now);
        return latest_ns_;
    }

    // Block number handed_ reuses the slot of block handed_ - blocks_.
    bool block_free() const {
        if (failed_.load(std::memory_order_relaxed))
            return false;
        return handed_ - written_.load(std::memory_order_acquire) < blocks_;
    }

    // The loop's thread: a size under the lock and a notify; no formatting, no allocation.
    void hand_over() {
        if (fill_ == 0 || !file_)
            return;
        const std::size_t slot = handed_ % blocks_;
        if (writer_.joinable()) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                block_sizes_[slot] = fill_;
                queued_ = handed_ + 1;
            }
            work_cv_.notify_one();
        } else {
            write_block(slot, fill_);
            written_.store(handed_ + 1, std::memory_order_release);
        }
        ++handed_;
        fill_ = 0;
        block_ = rows_.data() + (handed_ % blocks_) * block_rows_;  // once a block, not a frame
    }

    void wait_written(std::uint64_t blocks) {
        if (!writer_.joinable())
            return;
        std::unique_lock<std::mutex> lock(mutex_);
        done_cv_.wait(lock, [&] { return written_.load(std::memory_order_acquire) >= blocks; });
    }

    // The writer's thread: takes the blocks in the order they were handed over.
    void writer_main() {
        std::uint64_t next = 0;
        for (;;) {
            std::size_t size = 0;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                work_cv_.wait(lock, [&] { return queued_ > next || stop_; });
                if (queued_ == next)
                    break;  // stopped, and everything handed over is written
                size = block_sizes_[next % blocks_];
            }
            write_block(next % blocks_, size);
            {
                // Under the lock, so that a waiter between its check and its wait cannot miss it.
                std::lock_guard<std::mutex> lock(mutex_);
                written_.store(++next, std::memory_order_release);
            }
            done_cv_.notify_all();
        }
        if (options_.writer_exit)
            options_.writer_exit();
    }

    // Formats a block's rows in large pieces, writes them and flushes the file. Once a write
    // has failed the rest is not attempted (ok() is false).
    void write_block(std::size_t slot, std::size_t size) {
        if (options_.before_write)
            options_.before_write();
        if (failed_.load(std::memory_order_relaxed)) {
            lost_rows_.fetch_add(static_cast<std::int64_t>(size), std::memory_order_release);
            return;
        }
        const Row* rows = rows_.data() + slot * block_rows_;
        char* out = text_.data();
        char* const end = text_.data() + text_.size() - trace_v1::kMaxRowChars;
        std::size_t piece_first = 0;  // the first row of the piece being formatted
        for (std::size_t i = 0; i < size; ++i) {
            out = trace_v1::format_row(out, rows[i]);
            if (out >= end || i + 1 == size) {
                const std::size_t written =
                    write(text_.data(), static_cast<std::size_t>(out - text_.data()));
                if (failed_.load(std::memory_order_relaxed)) {
                    // The whole rows of this piece that reached the file are kept; the rest of
                    // the piece and of the block are lost.
                    const auto whole = static_cast<std::size_t>(
                        std::count(text_.data(), text_.data() + written, '\n'));
                    lost_rows_.fetch_add(static_cast<std::int64_t>(size - piece_first - whole),
                                         std::memory_order_release);
                    return;
                }
                out = text_.data();
                piece_first = i + 1;
            }
        }
        if (std::fflush(file_) != 0)
            failed_ = true;
    }

    // Returns the bytes written (all of them unless it failed).
    std::size_t write(const char* data, std::size_t size) {
        const std::size_t written = std::fwrite(data, 1, size, file_);
        if (written != size)
            failed_ = true;
        return written;
    }

    // The preamble in one write, on the constructing thread (before any writer starts).
    void write_header() {
        trace_v1::Preamble p;
        p.clock = !options_.clock_name.empty() ? options_.clock_name
                  : options_.clock_ns          ? "custom"
                                               : "steady_clock";
        p.policy = options_.policy;
        p.dt_ns = options_.dt_ns;
        p.clamp_ns = options_.clamp_ns;
        p.max_steps = options_.max_steps;
        p.timescale = options_.timescale;
        p.machine = options_.machine;
        if (options_.write_start_time)
            p.start_time = trace_v1::utc_now_iso8601();
        p.metadata = options_.metadata;
        const std::string text = trace_v1::preamble_text(p);
        write(text.data(), text.size());
        if (std::fflush(file_) != 0)
            failed_ = true;
    }

    RecorderOptions options_;
    std::size_t block_rows_ = 0;  // rows a block holds
    std::size_t blocks_ = 1;      // blocks in the ring
    std::vector<Row> rows_;       // blocks_ x block_rows_
    Row* block_ = nullptr;        // the block being filled (slot handed_ % blocks_)
    std::vector<char> text_;      // the writing thread's formatting buffer
    std::FILE* file_ = nullptr;
    bool to_stdout_ = false;

    // The loop's thread only.
    Row current_;
    std::size_t fill_ = 0;      // rows in the block being filled
    std::uint64_t handed_ = 0;  // blocks handed over; the one being filled has this number
    std::int64_t start_ns_ = 0;
    std::int64_t previous_ns_ = 0;
    std::int64_t mark_ns_ = 0;
    std::int64_t next_frame_ = 0;
    std::int64_t recorded_ = 0;
    std::int64_t dropped_ = 0;
    std::int64_t latest_ns_ = INT64_MIN;  // the latest clock reading
    std::int64_t backward_steps_ = 0;
    std::int64_t backward_max_ns_ = 0;
    std::int64_t backward_first_frame_ = 0;
    bool open_ = false;
    bool explicit_wait_ = false;
    bool closed_ = false;

    // Shared by the loop's thread and the writer.
    std::mutex mutex_;
    std::condition_variable work_cv_;        // a block was handed over, or stop
    std::condition_variable done_cv_;        // a block was written
    std::vector<std::size_t> block_sizes_;   // rows in each handed-over block (under mutex_)
    std::uint64_t queued_ = 0;               // blocks handed over (under mutex_)
    bool stop_ = false;                      // under mutex_
    std::atomic<std::uint64_t> written_{0};  // blocks the writer has finished
    std::atomic<bool> failed_{false};
    std::atomic<std::int64_t> lost_rows_{0};  // rows counted in recorded_ that a failed write lost
    std::thread writer_;
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
    void wait_for_writer() {}
    bool writer_caught_up() const { return true; }
    std::int64_t frames() const { return 0; }
    std::int64_t recorded_frames() const { return 0; }
    std::int64_t dropped_frames() const { return 0; }
    std::int64_t clock_backward_steps() const { return 0; }
    std::int64_t largest_clock_backward_ns() const { return 0; }
    bool ok() const { return true; }
    std::int64_t start_ns() const { return 0; }
    bool has_writer_thread() const { return false; }
};

}  // namespace recorder_disabled

#endif

}  // namespace loopscope
