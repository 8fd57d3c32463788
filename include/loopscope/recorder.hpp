// loopscope/recorder.hpp: record a game loop's frames as a loopscope trace (format v2), which
// `loopscope report`, `replay` and `view` read.
//
// SETTING UP
//   Link the game to loopscope::recorder (CMake: find_package(loopscope CONFIG),
//   add_subdirectory or FetchContent; see README.md, "Recording a game"), include this header,
//   and define LOOPSCOPE_RECORDER to 1 (-DLOOPSCOPE_RECORDER=1) where recording should be on.
//   Without it the same calls compile to nothing: Recorder is an empty class, its options are
//   write-only and trivially constructible, and the game needs no #if around its calls.
//
// WHAT TO CALL, IN WHAT ORDER
//   1. Once, before the loop: construct a Recorder with its options (the trace's path, and
//      optionally a callback and a live stream port), then a FixedStep if the game lets
//      loopscope run its accumulator:
//
//          loopscope::RecorderOptions options;
//          options.path = "frames.csv";
//          loopscope::Recorder recorder(options);
//          loopscope::FixedStepConfig config;        // C++20: {.dt_ns = ..., .max_steps = 8}
//          config.max_steps = 8;
//          loopscope::FixedStep loop(config, recorder);
//
//   2. Every frame, on the loop's thread:
//
//          const loopscope::LoopFrame f = loop.advance();  // reads the clock, records the frame
//          for (std::int64_t i = 0; i < f.steps; ++i) { previous = state; step(state); }
//          recorder.end_steps();                       // optional: time spent in the steps
//          render(lerp(previous, state, f.alpha));
//          recorder.end_render();                      // optional: time spent rendering
//
//      The time from end_render to the next frame is the frame's wait (vsync, limiter).
//      The game may name stretches of its time and instants, anywhere on the loop's thread:
//
//          { loopscope::ScopedZone zone(recorder, "asset load"); load_assets(); }
//          recorder.mark("level 2 streamed in");
//
//      A game with its own accumulator calls, instead of loop.advance():
//
//          recorder.begin_frame(loopscope::now_ns());  // frame time = now - previous begin
//          recorder.loop(f);                           // what the loop did (LoopFrame)
//
//      and, once before the first frame, recorder.describe_loop(config, "fixed-interp") so
//      that the trace says which dt, clamp, step cap and timescale it ran with (FixedStep does
//      this itself): `report` needs them for the loop's verdict and headroom.
//   3. At the end: recorder.close() (the destructor calls it). flush() hands the rows recorded
//      so far to the writer and waits for them: before a deliberate abort, for instance.
//   Every call but flush(), wait_for_writer() and close() returns at once, whatever the disk,
//   the network or a live client do. Not thread-safe: call it from the loop's thread.
//
// WHAT IT COSTS
//   Memory: `capacity` rows of 112 bytes (4096 by default: 448 KB), allocated at construction,
//   and one writer thread. Per frame, on the loop's thread: a few calls that fill one row and
//   copy it into a ring; no lock, no allocation, no system call (but one wake-up of the writer
//   when a hand-over finds it half a ring behind). The writer thread takes the rows every
//   flush_every frames and feeds the sinks: the file, the callback, the live stream.
//   When the writer is a whole ring behind (a stalled disk, a starved thread) frames are
//   dropped, never waited for, and counted (dropped_frames()); the frame column keeps counting,
//   so the gap shows in the trace. docs/loop-engine.md gives the measured cost.
//
// WHAT A CRASH LEAVES
//   Every row the writer has written, whole: each batch of flush_every rows is written with one
//   unbuffered write and is then the operating system's, which keeps it if the process dies
//   (not on a power loss: there is no fsync). A crash loses the rows not yet handed to the
//   writer (fewer than flush_every frames) and those it had not written yet, at most `capacity`.
//   A crash in the middle of a write can leave a last row cut short; the trace reader leaves it
//   out with a warning.
//
// Where the rows go, how the live stream works and what each option does: the comments below,
// docs/loop-engine.md and docs/live.md.

// ---- Always: the clock, the trace's columns, the loop helper. ----
#ifndef LOOPSCOPE_RECORDER_HPP_COMMON
#define LOOPSCOPE_RECORDER_HPP_COMMON

#include <cstddef>
#include <cstdint>

#if defined(_WIN32)
// QueryPerformanceCounter as <windows.h> declares it, without including <windows.h>: the same
// declaration may appear twice, so a game that includes <windows.h> too is fine.
union _LARGE_INTEGER;
extern "C" __declspec(dllimport) int __stdcall QueryPerformanceCounter(union _LARGE_INTEGER*);
extern "C" __declspec(dllimport) int __stdcall QueryPerformanceFrequency(union _LARGE_INTEGER*);
#else
#include <time.h>
#endif

namespace loopscope {

// The monotonic clock in nanoseconds, whether recording is on or off: CLOCK_MONOTONIC
// (clock_gettime) or QueryPerformanceCounter on Windows. The recorder reads this clock unless
// options.clock_ns names another.
inline std::int64_t now_ns() {
#if defined(_WIN32)
    std::int64_t counter = 0;
    static const std::int64_t frequency = [] {
        std::int64_t f = 0;
        QueryPerformanceFrequency(reinterpret_cast<union _LARGE_INTEGER*>(&f));
        return f;
    }();
    QueryPerformanceCounter(reinterpret_cast<union _LARGE_INTEGER*>(&counter));
    // Whole seconds and the remainder apart: counter * 1e9 overflows after days, this never.
    return counter / frequency * 1'000'000'000 + counter % frequency * 1'000'000'000 / frequency;
#else
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
#endif
}

// The columns of the trace format v1, in their order, declared once: X(name, type, kind, what).
// `kind` says what a reader accepts: `index` any integer, `ns` a time >= 0, `count` a count
// >= 0, `fraction` a number. FrameRecord's members, the header row, the text of a row, the live
// stream's rows, the trace reader and the live client all come from this list.
#define LOOPSCOPE_TRACE_COLUMNS(X)                                                           \
    X(frame, std::int64_t, index, "frame index from 0")                                      \
    X(start_ns, std::int64_t, ns, "frame start, since the trace began")                      \
    X(raw_ns, std::int64_t, ns, "measured frame time")                                       \
    X(clamped_ns, std::int64_t, ns, "after the frame-time clamp")                            \
    X(clamp_lost_ns, std::int64_t, ns, "raw - clamped")                                      \
    X(consumed_ns, std::int64_t, ns, "simulation time fed to the accumulator")               \
    X(acc_before_ns, std::int64_t, ns, "accumulator after adding consumed, before stepping") \
    X(steps, std::int64_t, count, "simulation steps (integrations) run this frame")          \
    X(cap_dropped_ns, std::int64_t, ns, "simulation time the step cap discarded this frame") \
    X(acc_after_ns, std::int64_t, ns, "accumulator after stepping")                          \
    X(alpha, double, fraction, "acc_after / dt, in [0, 1)")                                  \
    X(step_cost_ns, std::int64_t, ns, "real time spent in the steps (0 when unknown)")       \
    X(render_ns, std::int64_t, ns, "real time spent rendering (0 when unknown)")             \
    X(wait_ns, std::int64_t, ns, "real time spent waiting (limiter, vsync; 0 when unknown)")

// One frame of a game loop as loopscope records it: a row of the trace. loopscope's loop
// engine, readers and reports use the same struct.
struct FrameRecord {
#define LOOPSCOPE_RECORDER_MEMBER_(name, type, kind, what) type name = 0;
    LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_RECORDER_MEMBER_)
#undef LOOPSCOPE_RECORDER_MEMBER_
};

namespace trace_v1 {
inline constexpr const char* kMagic = "# loopscope-trace v1";
// Version 2 is version 1 with the game's zones and marks as records of their own (lines that
// start with `zone,` or `mark,`, see README.md, "Trace format"); the recorder writes it.
inline constexpr const char* kMagicV2 = "# loopscope-trace v2";
// A zone's or mark's label is kept to this many bytes (longer ones are cut at a character).
inline constexpr int kMaxLabelBytes = 64;
// The line after the rows that says the game's clock went back while recording.
inline constexpr const char* kClockWentBackKey = "clock_went_back";
// The header row: the column names in order, comma-separated.
#define LOOPSCOPE_RECORDER_NAME_(name, type, kind, what) "," #name
inline constexpr const char* kColumns = &(LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_RECORDER_NAME_))[1];
#undef LOOPSCOPE_RECORDER_NAME_
#define LOOPSCOPE_RECORDER_COUNT_(name, type, kind, what) +1
inline constexpr int kColumnCount = 0 LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_RECORDER_COUNT_);
#undef LOOPSCOPE_RECORDER_COUNT_
}  // namespace trace_v1

// What the loop did this frame, for Recorder::loop: the trace's columns from clamped_ns to alpha,
// in their order (C++20 designated initialisers name them; in C++17 set the members one by
// one). A game without a clamp or a timescale leaves clamped_ns and consumed_ns at kSameAsRaw:
// the frame time is then taken as it is (or as an earlier loop() call this frame gave it).
struct LoopFrame {
    static constexpr std::int64_t kSameAsRaw = -1;
    std::int64_t clamped_ns = kSameAsRaw;   // after the clamp; kSameAsRaw = the raw frame time
    std::int64_t consumed_ns = kSameAsRaw;  // fed to the accumulator; kSameAsRaw = clamped_ns
    std::int64_t acc_before_ns = 0;         // accumulator after adding consumed, before stepping
    std::int64_t steps = 0;                 // simulation steps run this frame
    std::int64_t cap_dropped_ns = 0;        // simulation time the step cap discarded
    std::int64_t acc_after_ns = 0;          // accumulator after stepping
    double alpha = 0.0;                     // acc_after / dt

    // The loop's columns of a whole row (a loop that already fills FrameRecords).
    static LoopFrame of(const FrameRecord& r) {
        return {r.clamped_ns,     r.consumed_ns,  r.acc_before_ns, r.steps,
                r.cap_dropped_ns, r.acc_after_ns, r.alpha};
    }
};

// Phase times the game measured itself, for Recorder::add_times.
struct PhaseTimes {
    std::int64_t step_cost_ns = 0;
    std::int64_t render_ns = 0;
    std::int64_t wait_ns = 0;
};

// What the live stream did, for Recorder::live_stats().
struct LiveStats {
    int port = 0;                     // the port it listens on; 0 = not listening
    std::int64_t clients = 0;         // connections accepted
    std::int64_t rows_sent = 0;       // rows that reached a client's socket
    std::int64_t rows_dropped = 0;    // rows no client got: none connected, one too slow, or gone
    std::int64_t closed_garbage = 0;  // clients closed for sending what is not an acknowledgement
    std::int64_t closed_stalled = 0;  // clients closed for acknowledging nothing for serve_stall_ms
    std::int64_t closed_lost = 0;     // clients that went away or failed mid-stream
};

// The knobs of FixedStep: those of loopscope's loop model (docs/loop-engine.md).
struct FixedStepConfig {
    std::int64_t dt_ns = 16'666'667;      // simulation step; 0 or less = 1/60 s
    std::int64_t clamp_ns = 250'000'000;  // frame-time clamp; 0 = none
    std::int64_t max_steps = 0;           // steps per frame; 0 = unlimited
    double timescale = 1.0;               // 1.0 = real time; negative or NaN = 1.0
};

namespace detail {

// FixedStep for the Recorder of this translation unit (recording on or off): see below.
template <class Rec>
class BasicFixedStep {
  public:
    explicit BasicFixedStep(const FixedStepConfig& config) : config_(sane(config)) {}
    // With a recorder: the loop's knobs go into the trace's metadata (before its first row),
    // and every advance() records its frame.
    BasicFixedStep(const FixedStepConfig& config, Rec& recorder)
        : config_(sane(config)), recorder_(&recorder) {
        recorder.describe_loop(config_);
    }

    // One frame beginning at the clock reading `now`: the frame time since the previous call
    // goes through the clamp, the timescale, the accumulator and the step cap, and the recorder
    // (if any) records the frame. Run the returned `steps` steps of dt and render with `alpha`.
    // The clock starts at the first advance(), not at construction: the first frame's time is
    // 0, recording on or off, so whatever the game does before its loop (loading, shaders) never
    // reaches the simulation. With recording on, the trace's frame 0 still shows that time
    // (raw_ns and clamped_ns: since the Recorder started) with consumed_ns 0: measured, not fed.
    // A reading earlier than the latest one counts as the latest (a frame time of 0).
    LoopFrame advance(std::int64_t now) {
        const bool first = !started_;
        if (first) {
            started_ = true;
            latest_ns_ = now;
        }
        std::int64_t raw_ns = 0;
        if (now > latest_ns_) {
            raw_ns = now - latest_ns_;
            latest_ns_ = now;
        }
        const LoopFrame f = advance_by(raw_ns);
        if (recorder_) {
            recorder_->begin_frame(now);
            LoopFrame recorded = f;
            if (first)
                recorded.clamped_ns = LoopFrame::kSameAsRaw;  // the recorder's own measure
            recorder_->loop(recorded);
        }
        return f;
    }
    // The same, reading the recorder's clock (loopscope::now_ns() unless its options name one).
    LoopFrame advance() { return advance(recorder_ ? recorder_->now_ns() : loopscope::now_ns()); }

    // The arithmetic alone, for a frame time the game measured (>= 0); records nothing. This is
    // loopscope's LoopEngine::advance for the accumulator policies, column for column, repeated
    // on purpose: the header stands alone. tests/recorder_fixed_step_test.cpp holds them equal.
    LoopFrame advance_by(std::int64_t raw_ns) {
        LoopFrame f;
        const std::int64_t dt = config_.dt_ns;
        f.clamped_ns =
            config_.clamp_ns > 0 && raw_ns > config_.clamp_ns ? config_.clamp_ns : raw_ns;
        f.consumed_ns = scale(f.clamped_ns);
        acc_ns_ += f.consumed_ns;
        f.acc_before_ns = acc_ns_;
        // The model's `while acc >= dt` loop in closed form: whole steps that fit, up to the cap.
        std::int64_t steps = acc_ns_ / dt;
        if (config_.max_steps > 0 && steps > config_.max_steps)
            steps = config_.max_steps;
        acc_ns_ -= steps * dt;
        if (acc_ns_ >= dt) {  // cap hit: drop whole steps, keep the remainder
            f.cap_dropped_ns = acc_ns_ - acc_ns_ % dt;
            acc_ns_ %= dt;
        }
        f.steps = steps;
        f.acc_after_ns = acc_ns_;
        f.alpha = static_cast<double>(acc_ns_) / static_cast<double>(dt);
        return f;
    }

    std::int64_t dt_ns() const { return config_.dt_ns; }
    double dt_s() const { return static_cast<double>(config_.dt_ns) * 1e-9; }
    std::int64_t accumulator_ns() const { return acc_ns_; }
    const FixedStepConfig& config() const { return config_; }

  private:
    static FixedStepConfig sane(FixedStepConfig c) {
        if (c.dt_ns <= 0)
            c.dt_ns = FixedStepConfig{}.dt_ns;
        if (c.clamp_ns < 0)
            c.clamp_ns = 0;
        if (c.max_steps < 0)
            c.max_steps = 0;
        if (!(c.timescale >= 0))
            c.timescale = 1.0;
        return c;
    }

    // clamped x timescale, rounded half away from zero as std::llround does (without <cmath>):
    // x - trunc(x) is exact for a double, so the comparison with 0.5 is too.
    std::int64_t scale(std::int64_t clamped_ns) const {
        if (config_.timescale == 1.0)
            return clamped_ns;  // exact whatever the size
        const double x = static_cast<double>(clamped_ns) * config_.timescale;
        auto whole = static_cast<std::int64_t>(x);
        if (x - static_cast<double>(whole) >= 0.5)
            ++whole;
        return whole;
    }

    FixedStepConfig config_;
    Rec* recorder_ = nullptr;
    std::int64_t acc_ns_ = 0;
    std::int64_t latest_ns_ = 0;
    bool started_ = false;
};

}  // namespace detail
}  // namespace loopscope

#endif  // LOOPSCOPE_RECORDER_HPP_COMMON

// ---- Recording on: the options and the Recorder's declaration (its code is in the library
// loopscope::recorder). Each section has a guard of its own, so that a translation unit may
// include the header with recording off and again with it on; the two recorders live in
// different inline namespaces, so a program may mix translation units of both. ----
#if defined(LOOPSCOPE_RECORDER) && LOOPSCOPE_RECORDER && !defined(LOOPSCOPE_RECORDER_HPP_ON)
#define LOOPSCOPE_RECORDER_HPP_ON

#include <string>

namespace loopscope {
inline namespace recorder_enabled {

// Every member has an initialiser, so that designated initialisers may leave any out.
struct RecorderOptions {
    // The file sink: the trace file; "-" = standard output, "" = no file. Opened and written on
    // the writer's thread only, so that a path that blocks (a FIFO nobody reads) never stops
    // the game.
    std::string path = "loopscope-trace.csv";
    // The callback sink: called on the writer's thread (the loop's without background_writer)
    // with the rows in frame order, in one or more pieces, after the file has them. The rows are
    // valid during the call only; keep it short, the ring fills while it runs.
    void (*on_rows)(void* user, const FrameRecord* rows, std::size_t count) = nullptr;
    void* on_rows_user = nullptr;  // passed to on_rows as `user`
    // Rows held in memory (the ring), allocated once.
    std::size_t capacity = 4096;
    std::size_t flush_every = 1024;  // hand the rows to the writer every N frames; 0 = at close()
    // Run the sinks on a thread of the recorder's own. false = on the loop's thread at each hand
    // over (for a game that cannot start a thread); a thread that fails to start falls back to
    // this.
    bool background_writer = true;
    // How often the writer looks for rows handed over, in µs, while rows come; after looks that
    // found none it looks less often (at most every 50 ms, or this period when longer).
    // flush(), wait_for_writer() and close() wake it at once, and so does a hand-over that
    // finds the ring more than half full.
    std::int64_t writer_poll_us = 2000;
    // The longest close(), flush() and wait_for_writer() wait for the writer (a sink that blocks:
    // a FIFO nobody reads, a full pipe). Rows it had not written by then are counted as dropped.
    std::int64_t close_timeout_ms = 2000;
    // The clock the argument-less calls read, in nanoseconds; nullptr = loopscope::now_ns.
    std::int64_t (*clock_ns)() = nullptr;
    std::string clock_name = {};  // metadata; "" = "monotonic" when clock_ns is nullptr
    // The loop's knobs, written as metadata (FixedStep and describe_loop() set them).
    std::string policy = {};
    std::int64_t dt_ns = 0;
    std::int64_t clamp_ns = 0;
    std::int64_t max_steps = 0;
    double timescale = 1.0;
    std::string machine = {};
    bool write_start_time = true;
    std::string metadata = {};  // more metadata: "key: value" lines, each ending in '\n'
    // The live sink: serve the rows over TCP (docs/live.md) to one client at a time. -1 = no live
    // stream; 0 = any free port (see serving_port()).
    int serve_port = -1;
    std::string serve_address = "127.0.0.1";  // another address only when the game asks
    // A client that acknowledges nothing this long, while the stream waits for it, is closed.
    std::int64_t serve_stall_ms = 2000;

    // The knobs of a FixedStep loop as the metadata (policy: the accumulator policy the game
    // renders with, "fixed", "fixed-interp" or "fixed-extrap").
    void describe_loop(const FixedStepConfig& c, const char* loop_policy = "fixed-interp") {
        policy = loop_policy;
        dt_ns = c.dt_ns;
        clamp_ns = c.clamp_ns;
        max_steps = c.max_steps;
        timescale = c.timescale;
    }
    // One more metadata line.
    void add_metadata(const std::string& key, const std::string& value) {
        metadata += key + ": " + value + "\n";
    }
};

class Recorder {
  public:
    static constexpr bool kEnabled = true;

    // Allocates the ring, starts the writer thread (which opens the file) and the live stream.
    explicit Recorder(const RecorderOptions& options);
    ~Recorder();  // close()
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    // The clock the argument-less calls read.
    std::int64_t now_ns() const;
    // The loop's knobs for the trace's metadata, as RecorderOptions::describe_loop; a policy of
    // nullptr keeps the options' (or "fixed-interp" when they have none). Only before the first
    // begin_frame: the metadata precedes the rows. FixedStep calls it.
    void describe_loop(const FixedStepConfig& config, const char* policy = nullptr);
    // Starts a frame at `now` (the game's own clock reading saves a read) and ends the previous
    // one, whose wait is the time from its end_render (or end_steps) to now.
    void begin_frame(std::int64_t now);
    void begin_frame();
    // What the loop did this frame (the columns clamped_ns to alpha).
    void loop(const LoopFrame& frame);
    // Phase ends: the steps took from begin_frame (or the previous mark) to here; rendering
    // from end_steps to end_render.
    void end_steps(std::int64_t now);
    void end_steps();
    void end_render(std::int64_t now);
    void end_render();
    // Phase times measured by the game itself, added to the frame's columns; the wait is then
    // the one given here instead of the time to the next begin_frame.
    void add_times(const PhaseTimes& times);
    // An instant the game names ("level 2 streamed in"), in the frame open now. The label is
    // copied (at most trace_v1::kMaxLabelBytes bytes); a named stretch of time is a ScopedZone.
    void mark(const char* label);
    void mark(const char* label, std::int64_t now);
    // ScopedZone's two halves: begin_zone reads the clock and opens a level of nesting;
    // end_zone closes it and records the zone.
    struct ZoneStart {
        std::int64_t ns = 0;
        std::int64_t frame = -1;
    };
    ZoneStart begin_zone();
    void end_zone(const char* label, const ZoneStart& start);

    // Ends the last frame (its wait counts up to now), hands everything to the writer, waits for
    // it (at most close_timeout_ms) and closes the sinks. Safe to call twice.
    void close();
    void close(std::int64_t now);  // the last frame ending at `now`
    // Hands the rows recorded so far to the writer and waits until they are written (at most
    // close_timeout_ms). The hand-overs every flush_every frames never wait.
    void flush();
    // Waits until the writer has written every row handed over so far (not the ones held since).
    void wait_for_writer();
    bool writer_caught_up() const;  // without waiting

    std::int64_t frames() const;  // frames begun
    // Frames that reached the sinks (or are on their way), and frames lost: not kept for a
    // writer a ring behind, lost by a sink that failed (a full disk), not written by close()'s
    // deadline. Together they are every ended frame.
    std::int64_t recorded_frames() const;
    std::int64_t dropped_frames() const;
    // Zones and marks lost: recorded while their ring (a quarter of `capacity`, at least 256)
    // was full, or with no sink to take them.
    std::int64_t dropped_events() const;
    // How often the clock read earlier than the reading before it, and by how much at most: such
    // a time is recorded as 0 (never negative), and the trace ends with a `# clock_went_back:`
    // line.
    std::int64_t clock_backward_steps() const;
    std::int64_t largest_clock_backward_ns() const;
    bool ok() const;  // false once the file could not be opened or written
    const std::string& path() const;
    std::int64_t start_ns() const;  // the clock reading frame 0's time counts from
    bool has_writer_thread() const;
    // The live stream: the port it listens on (0 when not serving), why it could not listen
    // ("" otherwise), and what it did.
    int serving_port() const;
    std::string serve_error() const;
    LiveStats live_stats() const;

  private:
    struct Impl;
    Impl* impl_;
};

// The loop helper, recording through this Recorder (see detail::BasicFixedStep).
using FixedStep = loopscope::detail::BasicFixedStep<Recorder>;

// A named stretch of the game's time, from construction to destruction, on the loop's thread:
//     { loopscope::ScopedZone zone(recorder, "asset load"); load(); }
// Zones nest; each goes into the trace with its label, its begin and end (on the frames' time
// axis), the frame it began in and its depth. The label is copied when the zone ends.
class ScopedZone {
  public:
    ScopedZone(Recorder& recorder, const char* label)
        : recorder_(recorder), label_(label), start_(recorder.begin_zone()) {}
    ~ScopedZone() { recorder_.end_zone(label_, start_); }
    ScopedZone(const ScopedZone&) = delete;
    ScopedZone& operator=(const ScopedZone&) = delete;

  private:
    Recorder& recorder_;
    const char* label_;
    Recorder::ZoneStart start_;
};

}  // namespace recorder_enabled
}  // namespace loopscope

#endif  // LOOPSCOPE_RECORDER_HPP_ON

// ---- Recording off: the same interface, no state, nothing to run. ----
#if !(defined(LOOPSCOPE_RECORDER) && LOOPSCOPE_RECORDER) && !defined(LOOPSCOPE_RECORDER_HPP_OFF)
#define LOOPSCOPE_RECORDER_HPP_OFF

namespace loopscope {

namespace detail {
// An option with recording off: takes any value, keeps nothing, constructs trivially.
struct Ignored {
    Ignored() = default;
    template <class T>
    constexpr Ignored(const T&) noexcept {}
    template <class T>
    constexpr Ignored& operator=(const T&) noexcept {
        return *this;
    }
};

// The text path() and serve_error() return with recording off, always empty, without <string>:
// what a game does with a std::string there (empty(), size(), c_str(), data(), converting,
// printing to a stream) compiles either way.
struct EmptyText {
    constexpr bool empty() const noexcept { return true; }
    constexpr std::size_t size() const noexcept { return 0; }
    constexpr const char* c_str() const noexcept { return ""; }
    constexpr const char* data() const noexcept { return ""; }
    template <class String, class = decltype(static_cast<const char*>(
                                static_cast<const String*>(nullptr)->c_str()))>
    operator String() const {
        return String();
    }
    template <class Stream>
    friend Stream& operator<<(Stream& out, const EmptyText&) {
        return out;
    }
};
}  // namespace detail

inline namespace recorder_disabled {

// Constant-initialised and trivially copied and destroyed: no allocation, no code.
struct RecorderOptions {
    // In the order of the members with recording on: designated initialisers follow it.
    detail::Ignored path = {}, on_rows = {}, on_rows_user = {}, capacity = {}, flush_every = {},
                    background_writer = {}, writer_poll_us = {}, close_timeout_ms = {},
                    clock_ns = {}, clock_name = {}, policy = {}, dt_ns = {}, clamp_ns = {},
                    max_steps = {}, timescale = {}, machine = {}, write_start_time = {},
                    metadata = {}, serve_port = {}, serve_address = {}, serve_stall_ms = {};
    void describe_loop(const FixedStepConfig&, const char* = nullptr) {}
    template <class K, class V>
    void add_metadata(const K&, const V&) {}
};

class Recorder {
  public:
    static constexpr bool kEnabled = false;
    explicit Recorder(const RecorderOptions&) {}
    std::int64_t now_ns() const { return loopscope::now_ns(); }  // the clock still runs
    void describe_loop(const FixedStepConfig&, const char* = nullptr) {}
    void begin_frame(std::int64_t) {}
    void begin_frame() {}
    void loop(const LoopFrame&) {}
    void end_steps(std::int64_t) {}
    void end_steps() {}
    void end_render(std::int64_t) {}
    void end_render() {}
    void add_times(const PhaseTimes&) {}
    void mark(const char*) {}
    void mark(const char*, std::int64_t) {}
    void close() {}
    void close(std::int64_t) {}
    void flush() {}
    void wait_for_writer() {}
    bool writer_caught_up() const { return true; }
    std::int64_t frames() const { return 0; }
    std::int64_t recorded_frames() const { return 0; }
    std::int64_t dropped_frames() const { return 0; }
    std::int64_t dropped_events() const { return 0; }
    std::int64_t clock_backward_steps() const { return 0; }
    std::int64_t largest_clock_backward_ns() const { return 0; }
    bool ok() const { return true; }
    detail::EmptyText path() const { return {}; }
    std::int64_t start_ns() const { return 0; }
    bool has_writer_thread() const { return false; }
    int serving_port() const { return 0; }
    detail::EmptyText serve_error() const { return {}; }
    LiveStats live_stats() const { return {}; }
};

using FixedStep = loopscope::detail::BasicFixedStep<Recorder>;

// Nothing to time and nothing kept: constructing it compiles to nothing. The empty destructor
// is user-provided so that Clang's -Wunused-variable takes a zone for the RAII object it is.
class ScopedZone {
  public:
    constexpr ScopedZone(Recorder&, const char*) noexcept {}
    ~ScopedZone() {}
    ScopedZone(const ScopedZone&) = delete;
    ScopedZone& operator=(const ScopedZone&) = delete;
};

}  // namespace recorder_disabled
}  // namespace loopscope

#endif  // LOOPSCOPE_RECORDER_HPP_OFF
