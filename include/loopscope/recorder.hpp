// loopscope/recorder.hpp: record a game loop's frames as a loopscope trace (format v1).
//
// One header, standard library only. Recording is on only where LOOPSCOPE_RECORDER is defined to
// 1 before the include (or with -DLOOPSCOPE_RECORDER=1). Otherwise the header includes nothing
// but <cstdint> and the OS clock's declaration: loopscope::Recorder keeps the same functions,
// empty and inline, with no members, the options are write-only and trivially constructible, and
// every call compiles to nothing, so the game needs no #if around it.
//
//     loopscope::Recorder recorder({.path = "frames.csv", .policy = "fixed-interp",
//                                   .dt_ns = 16'666'667});
//     while (running) {
//         const std::int64_t now = loopscope::now_ns();   // the monotonic clock, on or off
//         recorder.begin_frame(now);                       // frame time = now - previous begin
//         ... accumulate, step ...
//         recorder.loop({.acc_before_ns = acc_before, .steps = steps,
//                        .acc_after_ns = acc, .alpha = alpha});
//         recorder.end_steps(loopscope::now_ns());  // optional: time in the steps
//         ... render ...
//         recorder.end_render(loopscope::now_ns()); // optional: time rendering; the rest until the
//     }                                             // next begin_frame is the wait (vsync,
//     limiter)
//
// Or let loopscope::FixedStep run the accumulator (clamp, step cap, timescale: loopscope's loop
// model, exactly) and record each frame itself:
//
//     loopscope::FixedStep loop({.dt_ns = 16'666'667, .max_steps = 8}, recorder);
//     while (running) {
//         const loopscope::LoopFrame f = loop.advance();  // reads the clock, records the frame
//         for (std::int64_t i = 0; i < f.steps; ++i) { previous = state; step(state); }
//         render(lerp(previous, state, f.alpha));
//     }
//
// Where the rows go (the sinks): a file (options.path; "-" = standard output), a function of the
// game's (on_rows), a live TCP stream (serve_port, docs/live.md), fed by one writer from one ring.
// Rows go into memory allocated once, at construction: a ring of blocks of flush_every rows. When a
// block fills, the loop's thread hands it to the writer thread (three stores and a look at which
// CPU it is on: no lock, no formatting, no allocation, no system call) and goes on in the next
// block; the writer, which looks for blocks every writer_poll_us (2 ms), gives the block to each
// sink in turn, then evicts the lines the sinks read from the caches (so that the loop's thread,
// when the ring comes round, need not take them back from the writer's core). After each block lie
// 4 KB no row uses, where the writer's prefetcher, reading on past the block it was given, lands
// instead of on the next block's first rows. The loop's thread wakes the writer at once only when a
// block it handed over earlier is still waiting. If the writer still holds the next block (it fell
// a whole ring behind), the loop's thread does not wait: frames are dropped and counted
// (dropped_frames()) until the block is free; the frame column keeps counting, so the gap shows in
// the trace. With flush_every = 0 nothing is written until close() and frames beyond `capacity` are
// dropped the same way. background_writer = false runs the sinks on the loop's thread at each flush
// instead.
//
// What a crash leaves in the file: every block the writer has finished, as whole rows. Each block
// is written and flushed to the operating system, which keeps it when the process dies (only a
// power loss can still take it: there is no fsync). A crash loses the rows of the block being
// filled (fewer than flush_every frames) and of any block handed over whose writing had not
// finished. The writer starts a block at its next look, writer_poll_us (2 ms) at most after the
// hand-over, and spends about 110-180 ns of CPU a row (docs/loop-engine.md, "Speed"). So unless
// the writer is starved of CPU or the disk stalls, a handed-over block is on disk a few ms later.
// The hard bound is in frames: the ring, `capacity` rows (2 x flush_every if that is more). A
// crash in the middle of a write can leave one last row without its line break; the
// loopscope-trace reader leaves such a last row out (or keeps it, when it parses whole) with a
// warning. Not thread-safe: call it from the loop's thread.
//
// The header also owns the trace format v1: FrameRecord (the row), trace_v1::kColumns and
// trace_v1::format_row, which loopscope's own trace writer uses too; with LOOPSCOPE_TRACE_TEXT
// defined to 1 (or recording on) trace_v1::preamble_text writes the lines before the rows.
//
// The sections below have include guards of their own (not #pragma once), so a translation unit
// that includes the header first with recording off and again with LOOPSCOPE_RECORDER=1 (or
// LOOPSCOPE_TRACE_TEXT=1) gets the parts it asked for the second time. The on and off recorders
// live in different inline namespaces, so programs may mix translation units of both.

// ---- Always: the clock, the trace row and its text, the loop helper. No heavy header. ----
#ifndef LOOPSCOPE_RECORDER_HPP_COMMON
#define LOOPSCOPE_RECORDER_HPP_COMMON

#include <cstdint>

#if defined(_WIN32)
// QueryPerformanceCounter as <windows.h> declares it, without pulling <windows.h> in (tens of
// thousands of lines): the same declaration may appear twice, so a game that includes
// <windows.h> as well is fine. LARGE_INTEGER is `union _LARGE_INTEGER`; only a pointer is used.
union _LARGE_INTEGER;
extern "C" __declspec(dllimport) int __stdcall QueryPerformanceCounter(union _LARGE_INTEGER*);
extern "C" __declspec(dllimport) int __stdcall QueryPerformanceFrequency(union _LARGE_INTEGER*);
#else
#include <time.h>
#endif

namespace loopscope {

// The monotonic clock in nanoseconds, whether recording is on or off: CLOCK_MONOTONIC
// (clock_gettime, through the vDSO on Linux) or QueryPerformanceCounter on Windows. This is the
// clock the recorder reads when options.clock_ns is not set.
inline std::int64_t now_ns() {
#if defined(_WIN32)
    std::int64_t counter = 0;
    static const std::int64_t frequency = [] {
        std::int64_t f = 0;
        QueryPerformanceFrequency(reinterpret_cast<union _LARGE_INTEGER*>(&f));
        return f;
    }();
    QueryPerformanceCounter(reinterpret_cast<union _LARGE_INTEGER*>(&counter));
    // Whole seconds and the remainder apart: counter * 1e9 overflows after about 10 days at
    // 10 MHz, the split never does.
    return counter / frequency * 1'000'000'000 + counter % frequency * 1'000'000'000 / frequency;
#else
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
#endif
}

// One frame of a game loop as loopscope records it: the columns of the trace format v1, in
// their order. The recorder writes these, and loopscope's loop engine, readers and reports use
// the same struct.
struct FrameRecord {
    std::int64_t frame = 0;           // frame index from 0
    std::int64_t start_ns = 0;        // frame start, since the trace began
    std::int64_t raw_ns = 0;          // measured frame time
    std::int64_t clamped_ns = 0;      // after the frame-time clamp
    std::int64_t clamp_lost_ns = 0;   // raw - clamped
    std::int64_t consumed_ns = 0;     // simulation time fed to the accumulator
    std::int64_t acc_before_ns = 0;   // accumulator after adding consumed, before stepping
    std::int64_t steps = 0;           // simulation steps (integrations) run this frame
    std::int64_t cap_dropped_ns = 0;  // simulation time the step cap discarded this frame
    std::int64_t acc_after_ns = 0;    // accumulator after stepping
    double alpha = 0.0;               // acc_after / dt, in [0, 1)
    std::int64_t step_cost_ns = 0;    // real time spent in the steps (0 when unknown)
    std::int64_t render_ns = 0;       // real time spent rendering (0 when unknown)
    std::int64_t wait_ns = 0;         // real time spent waiting (limiter, vsync; 0 when unknown)
};

namespace trace_v1 {

inline constexpr const char* kMagic = "# loopscope-trace v1";
// The line after the rows that says the game's clock went back while recording.
inline constexpr const char* kClockWentBackKey = "clock_went_back";
// The header row, in column order: FrameRecord's members.
inline constexpr const char* kColumns =
    "frame,start_ns,raw_ns,clamped_ns,clamp_lost_ns,consumed_ns,acc_before_ns,steps,"
    "cap_dropped_ns,acc_after_ns,alpha,step_cost_ns,render_ns,wait_ns";
// The longest row format_row writes: 13 integers of up to 20 characters, alpha, separators.
inline constexpr decltype(sizeof 0) kMaxRowChars = 13 * 21 + 32;

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
        const auto pair = static_cast<unsigned>(u % 100) * 2;
        u /= 100;
        *--p = kPairs[pair + 1];
        *--p = kPairs[pair];
    }
    if (u >= 10) {
        const auto pair = static_cast<unsigned>(u) * 2;
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

// Writes one row (with its '\n') and returns the end. `out` must have room for kMaxRowChars
// characters.
inline char* format_row(char* out, const FrameRecord& r) {
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

}  // namespace trace_v1

// The live stream's wire format (docs/live.md): little-endian, version 1. The game listens; a
// client connects and only reads. The game sends a handshake, then messages: batches of rows
// (each row the trace format v1 columns in order, 13 integers and alpha as an IEEE-754 double,
// 8 bytes each) and, when the recorder closes, an end message with the trace's last lines.
namespace live_v1 {
inline constexpr char kMagic[8] = {'L', 'S', 'C', 'P', 'L', 'I', 'V', 'E'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::uint32_t kRowBytes = 14 * 8;
inline constexpr std::uint32_t kBatch = 1;  // u32 rows, u64 dropped for this client, u64 total
inline constexpr std::uint32_t kEnd = 2;    // u32 length, the trailer text
inline constexpr std::uint32_t kBatchHeaderBytes = 4 + 4 + 8 + 8;
inline constexpr std::uint32_t kMaxBatchRows = 256;
}  // namespace live_v1

// What the loop did this frame, for Recorder::loop: the trace's columns from clamped_ns to alpha,
// in their order, so that designated initialisers name them (C++20: `{.steps = 2, ...}`; in C++17
// set the members one by one). A game without a clamp or a timescale leaves clamped_ns and
// consumed_ns at kSameAsRaw: the frame time is then taken as it is (or, if loop() was called
// before in the same frame, what that call gave).
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
    std::int64_t closed_garbage = 0;  // clients closed for sending anything (clients only read)
    std::int64_t closed_stalled = 0;  // clients closed for reading nothing for stall_ms
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
    BasicFixedStep(const FixedStepConfig& config, Rec& recorder)
        : config_(sane(config)), recorder_(&recorder) {}

    // One frame beginning at the clock reading `now`: the frame time since the previous call
    // goes through the clamp, the timescale, the accumulator and the step cap, and the recorder
    // (if any) records the frame. Run the returned `steps` steps of dt and render with `alpha`.
    // The first frame's time counts from the recorder's start (with recording on), otherwise it
    // is 0. A reading earlier than the latest one counts as the latest (a frame time of 0), as
    // the recorder takes it.
    LoopFrame advance(std::int64_t now) {
        if (!started_) {
            started_ = true;
            latest_ns_ = recorder_ && Rec::kEnabled ? recorder_->start_ns() : now;
        }
        std::int64_t raw_ns = 0;
        if (now > latest_ns_) {
            raw_ns = now - latest_ns_;
            latest_ns_ = now;
        }
        const LoopFrame f = advance_by(raw_ns);
        if (recorder_) {
            recorder_->begin_frame(now);
            recorder_->loop(f);
        }
        return f;
    }
    // The same, reading the recorder's clock (loopscope::now_ns() unless its options name one).
    LoopFrame advance() { return advance(recorder_ ? recorder_->now_ns() : loopscope::now_ns()); }

    // The arithmetic alone, for a frame time the game measured (>= 0); records nothing. This is
    // loopscope's LoopEngine::advance for the accumulator policies, column for column, and
    // repeats its few lines on purpose: the header must stand alone (a game gets nothing else),
    // and the engine is core's. tests/recorder_fixed_step_test.cpp holds the two equal.
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

// ---- The trace's preamble as text: with recording on, or for a writer of traces. ----
#if ((defined(LOOPSCOPE_RECORDER) && LOOPSCOPE_RECORDER) ||      \
     (defined(LOOPSCOPE_TRACE_TEXT) && LOOPSCOPE_TRACE_TEXT)) && \
    !defined(LOOPSCOPE_RECORDER_HPP_TEXT)
#define LOOPSCOPE_RECORDER_HPP_TEXT

#include <charconv>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

namespace loopscope::trace_v1 {

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

}  // namespace loopscope::trace_v1

#endif  // LOOPSCOPE_RECORDER_HPP_TEXT

// ---- Recording on. ----
#if defined(LOOPSCOPE_RECORDER) && LOOPSCOPE_RECORDER && !defined(LOOPSCOPE_RECORDER_HPP_ON)
#define LOOPSCOPE_RECORDER_HPP_ON

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

// The live stream's sockets: the OS's own (BSD sockets; Winsock 2 on Windows, whose library,
// ws2_32, MSVC links through the pragma below and MinGW through loopscope::recorder or
// -lws2_32). Only with recording on. As always with Winsock 2, <winsock2.h> must come before a
// full <windows.h>: include this header first, or define WIN32_LEAN_AND_MEAN.
#if defined(_WIN32)
#if !defined(NOMINMAX)
#define NOMINMAX  // <windows.h>'s min and max macros would break std::min / std::max
#define LOOPSCOPE_RECORDER_UNDEF_NOMINMAX
#endif
#include <winsock2.h>
#include <ws2tcpip.h>
// After <winsock2.h>, which must come first.
#include <windows.h>  // GetCurrentProcessorNumber
#if defined(LOOPSCOPE_RECORDER_UNDEF_NOMINMAX)
#undef NOMINMAX
#undef LOOPSCOPE_RECORDER_UNDEF_NOMINMAX
#endif
#if defined(_MSC_VER)
#pragma comment(lib, "ws2_32")
#endif
#else
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#if defined(__linux__)
#include <sched.h>  // sched_getcpu
#endif

#include <cerrno>
#endif
#include <cstring>
// Keeps a function out of line: the rare half of the frame's path, so that the common half,
// inlined into the game's loop, stays short.
#if defined(_MSC_VER)
#define LOOPSCOPE_RECORDER_NOINLINE __declspec(noinline)
#elif defined(__GNUC__) || defined(__clang__)
#define LOOPSCOPE_RECORDER_NOINLINE __attribute__((noinline))
#else
#define LOOPSCOPE_RECORDER_NOINLINE
#endif
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <immintrin.h>
#include <intrin.h>
#elif (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#endif

namespace loopscope {
namespace detail {
// Asks for the cache line at `address` in a state this core may write, ahead of the write. The
// writer thread reads each row on its own core; when the ring comes round again, the loop's
// write would otherwise wait for that core to give the line up (measured on a quiet 2-core VM:
// 16 ns a frame with the file sink, 9.6 ns with rows asked for 32 ahead). Never faults; on
// x86-64 CPUs that predate the instruction it executes as a no-op.
inline void prefetch_for_write(std::uintptr_t address) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    __asm__ volatile("prefetchw %0" : : "m"(*reinterpret_cast<const char*>(address)));
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    _m_prefetchw(reinterpret_cast<const void*>(address));
#elif defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(reinterpret_cast<const void*>(address), 1);
#else
    (void)address;
#endif
}

// Whether this CPU has CLFLUSHOPT (CPUID leaf 7, EBX bit 23).
inline bool has_clflushopt() {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0 && (ebx & (1u << 23)) != 0;
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    int regs[4] = {};
    __cpuid(regs, 0);
    if (regs[0] < 7)
        return false;
    __cpuidex(regs, 7, 0);
    return (regs[1] & (1 << 23)) != 0;
#else
    return false;
#endif
}

// The CPU the calling thread runs on now, or -1 where the OS does not say.
inline int current_cpu() {
#if defined(_WIN32)
    return static_cast<int>(GetCurrentProcessorNumber());
#elif defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

// Evicts the lines of [begin, begin + bytes) from every cache, once the writer has read them.
// Otherwise they stay shared in the writer's core, and when the ring comes round the loop's
// write to each must first take it back from there: with the file sink, 21-148 ns a frame on a
// quiet 2-core VM against 8.4-12.7 ns with the lines evicted (docs/recorder-speed.md).
// From memory, the loop's prefetch 32 rows ahead has the lines in time. Call it only where
// CLFLUSHOPT is (has_clflushopt()).
inline void evict_lines(const void* begin, std::size_t bytes) {
    const auto first = reinterpret_cast<std::uintptr_t>(begin) & ~std::uintptr_t{63};
    const auto end = reinterpret_cast<std::uintptr_t>(begin) + bytes;
    for (std::uintptr_t line = first; line < end; line += 64) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
        __asm__ volatile("clflushopt %0" : "+m"(*reinterpret_cast<volatile char*>(line)));
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
        _mm_clflushopt(reinterpret_cast<void*>(line));
#else
        (void)line;
#endif
    }
}

// A row as the ring holds it: FrameRecord without frame, start_ns and clamp_lost_ns, which
// follow from the other columns. 88 bytes instead of 112, so the loop writes 1.4 cache lines a
// frame instead of 1.75: lines that the writer's eviction sent to memory and the loop's write
// fetches back (docs/recorder-speed.md).
struct RingRow {
    std::int64_t raw_ns = 0;
    std::int64_t clamped_ns = 0;
    std::int64_t consumed_ns = 0;
    std::int64_t acc_before_ns = 0;
    std::int64_t steps = 0;
    std::int64_t cap_dropped_ns = 0;
    std::int64_t acc_after_ns = 0;
    double alpha = 0.0;
    std::int64_t step_cost_ns = 0;
    std::int64_t render_ns = 0;
    std::int64_t wait_ns = 0;
};

// Asks for every line of the row at `row` ahead of the loop's write. Rows of 88 bytes begin in
// only 8 of every 11 lines; each of the other 3 holds the byte 64 on from a row's start, so that
// byte is asked for too. A row of up to 128 bytes touches at most its first line, the next one
// and the line where the next row begins: these two prefetches and the next row's cover them.
static_assert(sizeof(RingRow) <= 128, "two prefetches a row cover at most 128 bytes");
inline void prefetch_row_for_write(const RingRow* row) {
    const auto address = reinterpret_cast<std::uintptr_t>(row);
    prefetch_for_write(address);
    prefetch_for_write(address + 64);
}

// Which ring row to ask for while the loop writes row `row` of the block whose first row is
// ring row `block_first`: the row `ahead_rows` frames on, in the same block or past the gap in
// the next slot. After the ring's last slot the next is its first, at the ring's start: asking
// past the ring's end instead left the first slot's opening rows unasked for, once a lap. Returns
// `ring_rows` (ask for nothing) where the row lies further on than one lap (blocks shorter than
// `ahead_rows`).
constexpr std::size_t row_ahead(std::size_t block_first, std::size_t row, std::size_t ahead_rows,
                                std::size_t block_rows, std::size_t gap_rows,
                                std::size_t ring_rows) {
    std::size_t index = block_first + row + ahead_rows;
    if (row + ahead_rows >= block_rows)
        index += gap_rows;
    if (index >= ring_rows)
        index -= ring_rows;
    return index < ring_rows ? index : ring_rows;
}

// A block handed to the sinks. Its rows are consecutive frames (a frame is dropped only where a
// block would begin), so the first row's frame and start give every row's.
struct Block {
    const RingRow* rows = nullptr;
    std::size_t count = 0;
    std::int64_t first_frame = 0;
    std::int64_t first_start_ns = 0;
};

// Where a block begins: set by the loop's thread at the block's first commit, before the rows
// or their count are known.
struct BlockStart {
    std::int64_t first_frame = 0;
    std::int64_t first_start_ns = 0;
};

// Reads a block's rows in order as whole FrameRecords. A frame's time runs from the previous
// frame's begin to its own, so each frame starts where the one before it started plus its own
// frame time.
class BlockReader {
  public:
    explicit BlockReader(const Block& block)
        : row_(block.rows), frame_(block.first_frame), start_ns_(block.first_start_ns) {}
    FrameRecord next() {
        const RingRow& r = *row_++;
        if (!first_)
            start_ns_ += r.raw_ns;
        first_ = false;
        FrameRecord f;
        f.frame = frame_++;
        f.start_ns = start_ns_;
        f.raw_ns = r.raw_ns;
        f.clamped_ns = r.clamped_ns;
        f.clamp_lost_ns = r.raw_ns - r.clamped_ns;
        f.consumed_ns = r.consumed_ns;
        f.acc_before_ns = r.acc_before_ns;
        f.steps = r.steps;
        f.cap_dropped_ns = r.cap_dropped_ns;
        f.acc_after_ns = r.acc_after_ns;
        f.alpha = r.alpha;
        f.step_cost_ns = r.step_cost_ns;
        f.render_ns = r.render_ns;
        f.wait_ns = r.wait_ns;
        return f;
    }

  private:
    const RingRow* row_;
    std::int64_t frame_;
    std::int64_t start_ns_;  // the start of the row read last (of the first, before any)
    bool first_ = true;
};
}  // namespace detail
}  // namespace loopscope

namespace loopscope {
inline namespace recorder_enabled {

// Every member has an initialiser, so that designated initialisers may leave any out without
// a -Wmissing-field-initializers warning.
struct RecorderOptions {
    // The file sink: the trace file; "-" = standard output, "" = no file.
    std::string path = "loopscope-trace.csv";
    // The callback sink: called with each block's rows in frame order, in pieces of at most 64
    // rows, on the writer's thread (the loop's thread without background_writer), after the file
    // sink has written them. Keep it short: the ring fills while it runs. The rows are valid
    // during the call only.
    std::function<void(const FrameRecord* rows, std::size_t count)> on_rows = {};
    // Rows held in memory, allocated once. With the background writer they form a ring of
    // capacity / flush_every blocks of flush_every rows (at least two blocks), with 4 KB between
    // blocks (at most a block's size) that no row uses.
    std::size_t capacity = 4096;
    std::size_t flush_every = 1024;  // hand the rows to the writer every N frames; 0 = at close()
    // Run the sinks on a thread of the recorder's own, so that the loop's thread only hands a
    // full block over. false = on the loop's thread at each flush (for a game that cannot start
    // a thread); a thread that fails to start falls back to this.
    bool background_writer = true;
    // How often the writer looks for blocks handed over, in µs. A hand-over is three stores on the
    // loop's thread; the writer is woken sooner (a system call on the loop's thread, a few µs)
    // only when a second block waits while it has not taken the first, and by flush(),
    // wait_for_writer() and close(). After a second without blocks (a paused game) the writer
    // sleeps until the next hand-over wakes it. 0 = woken at every hand-over instead: no periodic
    // wake-ups of the writer, a system call every flush_every frames on the loop's thread. At
    // most 60 s.
    std::int64_t writer_poll_us = 2000;
    // The clock the argument-less calls read, in nanoseconds; nullptr = loopscope::now_ns.
    std::int64_t (*clock_ns)() = nullptr;
    std::string clock_name = {};  // metadata; "" = "monotonic" when clock_ns is nullptr
    // The loop's knobs, written as metadata (empty / 0 when the game does not say).
    std::string policy = {};
    std::int64_t dt_ns = 0;
    std::int64_t clamp_ns = 0;
    std::int64_t max_steps = 0;
    double timescale = 1.0;
    std::string machine = {};
    bool write_start_time = true;
    std::vector<std::pair<std::string, std::string>> metadata = {};  // more `# key: value` lines
    // The live sink: serve the rows over TCP (docs/live.md) to one `loopscope view --connect` or
    // `loopscope record --connect` at a time. -1 = no live stream; 0 = any free port (see
    // serving_port()). Rows reach it at each hand-over: a small flush_every (a few frames)
    // keeps the stream live.
    int serve_port = -1;
    std::string serve_address = "127.0.0.1";  // another address only when the game asks
    std::int64_t serve_stall_ms = 2000;       // a client that reads nothing this long is closed

    // The knobs of a FixedStep loop as the metadata (policy: the accumulator policy the game
    // renders with, "fixed", "fixed-interp" or "fixed-extrap").
    void describe_loop(const FixedStepConfig& c, const char* loop_policy = "fixed-interp") {
        policy = loop_policy;
        dt_ns = c.dt_ns;
        clamp_ns = c.clamp_ns;
        max_steps = c.max_steps;
        timescale = c.timescale;
    }
};

namespace sinks {

// Where the rows go. One thread at a time calls a sink (the writer's, or the loop's without
// background_writer), with blocks in frame order. The file and the callback are sinks; another
// destination (a network stream) is one more sink fed by the same ring, with no change to the
// calls a game makes.
class Sink {
  public:
    virtual ~Sink() = default;
    // Takes a block of rows; returns how many of them did not reach the destination (the last
    // ones of the block: a sink that fails loses a tail).
    virtual std::size_t take(const detail::Block& block) = 0;
    // How many rows from the first the last take() read (the writer evicts their lines).
    virtual std::size_t rows_read(std::size_t count) const { return count; }
    // After the last block: the lines a trace ends with ("" for none), then closing.
    virtual void finish(const std::string& trailer) = 0;
    virtual bool failed() const = 0;
};

// The trace file, unbuffered: each piece of whole rows goes to the system in one write, so a
// crash leaves at most one row cut short at the end (standard output keeps its buffering: it may
// be in use already). Once a write has failed nothing more is attempted.
class FileSink final : public Sink {
  public:
    FileSink(const std::string& path, const std::string& preamble) {
        to_stdout_ = path == "-";
        file_ = to_stdout_ ? stdout : std::fopen(path.c_str(), "wb");
        if (!file_) {
            failed_ = true;
            return;
        }
        if (!to_stdout_)
            std::setvbuf(file_, nullptr, _IONBF, 0);
        text_.resize(trace_v1::kMaxRowChars * 512);  // few large writes: system calls are dear
        write(preamble.data(), preamble.size());
        if (std::fflush(file_) != 0)
            failed_ = true;
    }
    ~FileSink() override { finish(""); }

    // Formats the rows in large pieces, writes them and flushes the file.
    std::size_t take(const detail::Block& block) override {
        const std::size_t count = block.count;
        if (failed_)
            return count;
        char* out = text_.data();
        char* const end = text_.data() + text_.size() - trace_v1::kMaxRowChars;
        std::size_t piece_first = 0;  // the first row of the piece being formatted
        detail::BlockReader rows(block);
        for (std::size_t i = 0; i < count; ++i) {
            out = trace_v1::format_row(out, rows.next());
            if (out >= end || i + 1 == count) {
                const std::size_t written =
                    write(text_.data(), static_cast<std::size_t>(out - text_.data()));
                if (failed_) {
                    // The whole rows of this piece that reached the file are kept; the rest of
                    // the piece and of the block are lost.
                    const auto whole = static_cast<std::size_t>(
                        std::count(text_.data(), text_.data() + written, '\n'));
                    return count - piece_first - whole;
                }
                out = text_.data();
                piece_first = i + 1;
            }
        }
        if (std::fflush(file_) != 0)
            failed_ = true;
        return 0;
    }

    void finish(const std::string& trailer) override {
        if (!file_)
            return;
        if (!trailer.empty() && !failed_)
            write(trailer.data(), trailer.size());
        if (to_stdout_ ? std::fflush(file_) != 0 : std::fclose(file_) != 0)
            failed_ = true;
        file_ = nullptr;
    }

    bool failed() const override { return failed_; }

  private:
    // Returns the bytes written (all of them unless it failed).
    std::size_t write(const char* data, std::size_t size) {
        const std::size_t written = std::fwrite(data, 1, size, file_);
        if (written != size)
            failed_ = true;
        return written;
    }

    std::FILE* file_ = nullptr;
    bool to_stdout_ = false;
    bool failed_ = false;
    std::vector<char> text_;  // the formatting buffer
};

// The game's function, given each block's rows as whole FrameRecords in pieces of at most
// kPieceRows: built in a buffer of the sink's own (allocated once, 7 KB, small enough to stay
// in the writer's L1 cache).
class CallbackSink final : public Sink {
  public:
    static constexpr std::size_t kPieceRows = 64;
    explicit CallbackSink(std::function<void(const FrameRecord*, std::size_t)> on_rows)
        : on_rows_(std::move(on_rows)), rows_(kPieceRows) {}
    std::size_t take(const detail::Block& block) override {
        detail::BlockReader reader(block);
        for (std::size_t first = 0; first < block.count; first += kPieceRows) {
            const std::size_t n = std::min(kPieceRows, block.count - first);
            for (std::size_t i = 0; i < n; ++i)
                rows_[i] = reader.next();
            on_rows_(rows_.data(), n);
        }
        return 0;
    }
    void finish(const std::string&) override {}
    bool failed() const override { return false; }

  private:
    std::function<void(const FrameRecord*, std::size_t)> on_rows_;
    std::vector<FrameRecord> rows_;
};

// The live stream's encoding (the constants are with the trace format, live_v1).
namespace wire {
inline char* put_u32(char* out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        *out++ = static_cast<char>((v >> (8 * i)) & 0xFF);
    return out;
}
inline char* put_u64(char* out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        *out++ = static_cast<char>((v >> (8 * i)) & 0xFF);
    return out;
}
// One row, kRowBytes bytes.
inline char* put_row(char* out, const FrameRecord& r) {
    const std::int64_t ints[13] = {r.frame,          r.start_ns,     r.raw_ns,        r.clamped_ns,
                                   r.clamp_lost_ns,  r.consumed_ns,  r.acc_before_ns, r.steps,
                                   r.cap_dropped_ns, r.acc_after_ns, r.step_cost_ns,  r.render_ns,
                                   r.wait_ns};
    for (int i = 0; i < 10; ++i)
        out = put_u64(out, static_cast<std::uint64_t>(ints[i]));
    std::uint64_t alpha_bits = 0;
    std::memcpy(&alpha_bits, &r.alpha, sizeof alpha_bits);
    out = put_u64(out, alpha_bits);
    for (int i = 10; i < 13; ++i)
        out = put_u64(out, static_cast<std::uint64_t>(ints[i]));
    return out;
}
}  // namespace wire

// The live stream: a TCP server on a thread of its own (the sender). take() runs on the
// writer's thread and only copies rows into a queue allocated at construction (under a mutex
// the sender holds just as long as a copy); rows that find no client, or no room because the
// client reads too slowly, are dropped and counted, so neither the writer nor the loop ever
// waits for the network. One client at a time; the next connects once the last one is gone.
class LiveSink final : public Sink {
  public:
#if defined(_WIN32)
    using Socket = SOCKET;
    static constexpr Socket kNoSocket = INVALID_SOCKET;
#else
    using Socket = int;
    static constexpr Socket kNoSocket = -1;
#endif

    LiveSink(const std::string& address, int port, std::string clock, std::string preamble,
             std::size_t queue_rows, std::int64_t stall_ms)
        : clock_(std::move(clock)), preamble_(std::move(preamble)), stall_ms_(stall_ms) {
        queue_.resize(queue_rows < live_v1::kMaxBatchRows ? live_v1::kMaxBatchRows : queue_rows);
        out_.resize(live_v1::kBatchHeaderBytes + live_v1::kMaxBatchRows * live_v1::kRowBytes);
        if (!listen_on(address, port))
            return;
        try {
            sender_ = std::thread([this] { sender_main(); });
        } catch (const std::system_error&) {
            set_error("cannot start the sender thread");
            close_socket(listen_);
        }
    }
    ~LiveSink() override {
        finish("");
#if defined(_WIN32)
        if (wsa_started_)
            WSACleanup();
#endif
    }
    LiveSink(const LiveSink&) = delete;
    LiveSink& operator=(const LiveSink&) = delete;

    std::size_t take(const detail::Block& block) override {
        const std::size_t count = block.count;
        std::lock_guard<std::mutex> lock(mutex_);
        kept_ = 0;
        if (!connected_) {
            stats_.rows_dropped += static_cast<std::int64_t>(count);
            return 0;  // the live stream's drops are its own: the file still gets every row
        }
        const std::size_t room = queue_.size() - (tail_ - head_);
        const std::size_t kept = count < room ? count : room;
        kept_ = kept;
        detail::BlockReader rows(block);
        for (std::size_t i = 0; i < kept; ++i)
            queue_[(tail_ + i) % queue_.size()] = rows.next();
        tail_ += kept;
        client_dropped_ += count - kept;
        stats_.rows_dropped += static_cast<std::int64_t>(count - kept);
        return 0;
    }
    // Only the rows copied for the client were read; without one, none (the writer's thread
    // alone calls take() and this).
    std::size_t rows_read(std::size_t) const override {
        return kept_;
    }

    // Sends what is queued and the end message to a connected client (for at most a second),
    // then closes.
    void finish(const std::string& trailer) override {
        if (!sender_.joinable()) {
            close_socket(listen_);
            return;
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            trailer_ = trailer;
            stop_ = true;
        }
        sender_.join();
        close_socket(listen_);
    }
    bool failed() const override {
        return false;
    }  // never fails the recording

    LiveStats stats() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return stats_;
    }
    std::string error() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return error_;
    }

  private:
    static void close_socket(Socket& s) {
        if (s == kNoSocket)
            return;
#if defined(_WIN32)
        closesocket(s);
#else
        ::close(s);
#endif
        s = kNoSocket;
    }
    static bool would_block() {
#if defined(_WIN32)
        return WSAGetLastError() == WSAEWOULDBLOCK;
#else
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
#endif
    }
    static bool set_nonblocking(Socket s) {
#if defined(_WIN32)
        u_long on = 1;
        return ioctlsocket(s, FIONBIO, &on) == 0;
#else
        const int flags = fcntl(s, F_GETFL, 0);
        return flags >= 0 && fcntl(s, F_SETFL, flags | O_NONBLOCK) == 0;
#endif
    }
    void set_error(const std::string& what) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = what;
    }

    bool listen_on(const std::string& address, int port) {
#if defined(_WIN32)
        WSADATA data;
        if (WSAStartup(MAKEWORD(2, 2), &data) != 0) {
            set_error("WSAStartup failed");
            return false;
        }
        wsa_started_ = true;
#endif
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(port));
        if (inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1) {
            set_error("not an IPv4 address: " + address);
            return false;
        }
        listen_ = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
        if (listen_ == kNoSocket) {
            set_error("cannot create a socket");
            return false;
        }
        int yes = 1;
        setsockopt(listen_, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const char*>(&yes),
                   sizeof yes);
        if (bind(listen_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
            listen(listen_, 1) != 0 || !set_nonblocking(listen_)) {
            set_error("cannot listen on " + address + ":" + std::to_string(port));
            close_socket(listen_);
            return false;
        }
        sockaddr_in bound{};
        socklen_t size = sizeof bound;
        getsockname(listen_, reinterpret_cast<sockaddr*>(&bound), &size);
        std::lock_guard<std::mutex> lock(mutex_);
        stats_.port = ntohs(bound.sin_port);
        return true;
    }

    static std::int64_t ms_now() {
        return loopscope::now_ns() / 1'000'000;
    }

    // Appends to pending_ (the handshake and the end message: rare, so a std::string).
    void queue_handshake() {
        std::string h(live_v1::kMagic, sizeof live_v1::kMagic);
        char word[8];
        h.append(word, wire::put_u32(word, live_v1::kVersion));
        h.append(word, wire::put_u32(word, live_v1::kRowBytes));
        h.append(word, wire::put_u32(word, static_cast<std::uint32_t>(clock_.size())));
        h += clock_;
        h.append(word, wire::put_u32(word, static_cast<std::uint32_t>(preamble_.size())));
        h += preamble_;
        pending_ = std::move(h);
        sent_ = 0;
    }

    // Moves up to kMaxBatchRows queued rows into out_ as one batch; false when none are queued.
    bool take_batch() {
        std::lock_guard<std::mutex> lock(mutex_);
        const std::size_t queued = tail_ - head_;
        if (queued == 0)
            return false;
        const std::size_t n = queued < live_v1::kMaxBatchRows ? queued : live_v1::kMaxBatchRows;
        char* out = out_.data();
        out = wire::put_u32(out, live_v1::kBatch);
        out = wire::put_u32(out, static_cast<std::uint32_t>(n));
        out = wire::put_u64(out, client_dropped_);
        out = wire::put_u64(out, static_cast<std::uint64_t>(stats_.rows_dropped));
        for (std::size_t i = 0; i < n; ++i)
            out = wire::put_row(out, queue_[(head_ + i) % queue_.size()]);
        head_ += n;
        out_rows_ = n;
        out_size_ = static_cast<std::size_t>(out - out_.data());
        out_sent_ = 0;
        return true;
    }

    // Ends the connection; what was queued or half sent for it is dropped and counted.
    void drop_client(std::int64_t LiveStats::*reason) {
        close_socket(client_);
        std::lock_guard<std::mutex> lock(mutex_);
        connected_ = false;
        if (reason)
            ++(stats_.*reason);
        stats_.rows_dropped += static_cast<std::int64_t>(tail_ - head_ + out_rows_);
        head_ = tail_;
        out_rows_ = out_size_ = out_sent_ = 0;
        pending_.clear();
        sent_ = 0;
    }

    // Sends what it can without blocking: false when the client must be dropped (an error).
    bool send_some(const char* data, std::size_t size, std::size_t& sent) {
        while (sent < size) {
#if defined(_WIN32)
            const int n = ::send(client_, data + sent, static_cast<int>(size - sent), 0);
#elif defined(MSG_NOSIGNAL)
            const auto n = ::send(client_, data + sent, size - sent, MSG_NOSIGNAL);
#else
            const auto n = ::send(client_, data + sent, size - sent, 0);
#endif
            if (n > 0) {
                sent += static_cast<std::size_t>(n);
                progress_ms_ = ms_now();
                continue;
            }
            return n < 0 && would_block();
        }
        return true;
    }

    void accept_client() {
        const Socket s = ::accept(listen_, nullptr, nullptr);
        if (s == kNoSocket)
            return;
        if (!set_nonblocking(s)) {
            Socket c = s;
            close_socket(c);
            return;
        }
#if defined(SO_NOSIGPIPE)
        int yes = 1;
        setsockopt(s, SOL_SOCKET, SO_NOSIGPIPE, &yes, sizeof yes);
#endif
        int nodelay = 1;
        setsockopt(s, IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char*>(&nodelay),
                   sizeof nodelay);
        client_ = s;
        progress_ms_ = ms_now();
        queue_handshake();
        std::lock_guard<std::mutex> lock(mutex_);
        connected_ = true;
        client_dropped_ = 0;
        ++stats_.clients;
    }

    // The sender's thread: waits (at most 10 ms) for a client, for its socket to take more, or
    // for rows; a client that sends anything, stalls or goes away is closed and the game never
    // notices.
    void sender_main() {
        std::int64_t stop_ms = -1;
        for (;;) {
            bool stopping = false;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                stopping = stop_;
            }
            if (stopping && stop_ms < 0)
                stop_ms = ms_now();
            const bool busy =
                client_ != kNoSocket && (sent_ < pending_.size() || out_sent_ < out_size_);
#if defined(_WIN32)
            WSAPOLLFD fds[2] = {};
#else
            pollfd fds[2] = {};
#endif
            fds[0].fd = client_ == kNoSocket ? listen_ : client_;
            fds[0].events = static_cast<short>(POLLIN | (busy ? POLLOUT : 0));
#if defined(_WIN32)
            WSAPoll(fds, 1, stopping ? 1 : 10);
#else
            poll(fds, 1, stopping ? 1 : 10);
#endif
            if (client_ == kNoSocket) {
                if (stopping)
                    return;
                if (fds[0].revents & POLLIN)
                    accept_client();
                continue;
            }
            if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
                char junk[64];
                const auto n = ::recv(client_, junk, sizeof junk, 0);
                if (n > 0) {
                    drop_client(&LiveStats::closed_garbage);
                    continue;
                }
                if (n == 0 || !would_block()) {
                    drop_client(&LiveStats::closed_lost);
                    continue;
                }
            }
            if (!send_some(pending_.data(), pending_.size(), sent_)) {
                drop_client(&LiveStats::closed_lost);
                continue;
            }
            if (sent_ == pending_.size()) {
                pending_.clear();
                sent_ = 0;
                for (;;) {
                    if (out_sent_ == out_size_ && !take_batch())
                        break;
                    if (!send_some(out_.data(), out_size_, out_sent_)) {
                        drop_client(&LiveStats::closed_lost);
                        break;
                    }
                    if (out_sent_ < out_size_)
                        break;  // the socket is full: poll for room
                    std::lock_guard<std::mutex> lock(mutex_);
                    stats_.rows_sent += static_cast<std::int64_t>(out_rows_);
                    out_rows_ = 0;
                }
            }
            if (client_ == kNoSocket)
                continue;
            const bool idle = sent_ == pending_.size() && out_sent_ == out_size_;
            if (!idle && ms_now() - progress_ms_ > stall_ms_) {
                drop_client(&LiveStats::closed_stalled);
                continue;
            }
            if (stopping) {
                bool drained = false;
                {
                    std::lock_guard<std::mutex> lock(mutex_);
                    drained = tail_ == head_;
                }
                if (idle && drained && !end_queued_) {
                    std::string end(8, '\0');
                    char* p = end.data();
                    p = wire::put_u32(p, live_v1::kEnd);
                    wire::put_u32(p, static_cast<std::uint32_t>(trailer_.size()));
                    pending_ = end + trailer_;
                    sent_ = 0;
                    end_queued_ = true;
                } else if ((idle && end_queued_) || ms_now() - stop_ms > 1000) {
                    drop_client(nullptr);
                    return;
                }
            }
        }
    }

    const std::string clock_;
    const std::string preamble_;
    const std::int64_t stall_ms_;
    Socket listen_ = kNoSocket;
    std::thread sender_;
#if defined(_WIN32)
    bool wsa_started_ = false;
#endif

    // The sender's thread only.
    Socket client_ = kNoSocket;
    std::string pending_;  // handshake or end message being sent
    std::size_t sent_ = 0;
    std::vector<char> out_;  // the batch being sent
    std::size_t out_size_ = 0;
    std::size_t out_sent_ = 0;
    std::size_t out_rows_ = 0;
    std::int64_t progress_ms_ = 0;
    bool end_queued_ = false;

    // Shared, under mutex_.
    mutable std::mutex mutex_;
    std::vector<FrameRecord> queue_;  // rows for the client, allocated once
    std::size_t head_ = 0;            // rows taken by the sender
    std::size_t tail_ = 0;            // rows put by take()
    std::uint64_t client_dropped_ = 0;
    std::size_t kept_ = 0;  // rows the last take() copied for the client
    bool connected_ = false;
    bool stop_ = false;
    std::string trailer_;
    std::string error_;  // why it is not listening
    LiveStats stats_;
};

}  // namespace sinks

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
        if (blocks_ > 1) {
            constexpr std::size_t gap_rows =
                (kGapBytes + sizeof(detail::RingRow) - 1) / sizeof(detail::RingRow);
            gap_rows_ = std::min(gap_rows, block_rows_);
        }
        rows_.resize((block_rows_ + gap_rows_) * blocks_);
        block_ = rows_.data();
        block_sizes_.resize(blocks_);
        block_starts_.resize(blocks_);
        block_cpus_.resize(blocks_, -1);
        if (!options_.path.empty())
            sinks_.push_back(std::make_unique<sinks::FileSink>(options_.path, preamble()));
        if (options_.on_rows)
            sinks_.push_back(std::make_unique<sinks::CallbackSink>(options_.on_rows));
        if (options_.serve_port >= 0) {
            auto live = std::make_unique<sinks::LiveSink>(
                options_.serve_address, options_.serve_port, clock_label(), preamble(),
                block_rows_ * blocks_, options_.serve_stall_ms);
            live_ = live.get();
            sinks_.push_back(std::move(live));
        }
        for (const auto& sink : sinks_) {
            if (sink->failed())
                failed_ = true;
        }
        accepting_ = !sinks_.empty();
        start_ns_ = previous_ns_ = mark_ns_ = now_ns();
        if (streaming && options_.background_writer && !failed_ && !sinks_.empty()) {
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
        return options_.clock_ns ? options_.clock_ns() : loopscope::now_ns();
    }

    // Starts a frame at now_ns (the game's own clock reading saves a read); ends the previous
    // one, whose wait is the time from its end_render (or end_steps) to now.
    void begin_frame(std::int64_t now) {
        // Most frames fall in a block's middle: the row before is in the ring, not the block's
        // first, and neither the block's end nor the gap is within kPrefetchRows. run_ counts
        // such frames still ahead, so each needs one check here instead of those in commit()
        // and begin_frame_rest(); a clock reading that went back takes the long way, where it
        // is counted.
        if (run_ != 0 && now >= mark_ns_) {
            detail::RingRow* r = row_;
            if (!explicit_wait_)
                r->wait_ns = now - mark_ns_;
            else
                explicit_wait_ = false;
            ++fill_;  // commit(): kept in place, and the block is far from full
            --run_;
            ++r;
            row_ = r;
            detail::prefetch_row_for_write(r + kPrefetchRows);  // still in this block
            start_row(r, now);
            return;
        }
        begin_frame_rest(now);
    }
    void begin_frame() { begin_frame(now_ns()); }

    // What the loop did this frame (the columns clamped_ns to alpha, by name). A column left at
    // kSameAsRaw is not stored: begin_frame() already holds the raw time in both, and an earlier
    // call this frame may have set them. Reading raw_ns back from the row instead makes each
    // frame wait for the store begin_frame has only just made: 0.4-0.7 ns a frame more in
    // BM_RecorderFrameHotPath (docs/recorder-speed.md).
    void loop(const LoopFrame& f) {
        detail::RingRow& r = *row_;
        if (f.clamped_ns != LoopFrame::kSameAsRaw)
            r.clamped_ns = r.consumed_ns = f.clamped_ns;
        if (f.consumed_ns != LoopFrame::kSameAsRaw)
            r.consumed_ns = f.consumed_ns;
        r.acc_before_ns = f.acc_before_ns;
        r.steps = f.steps;
        r.cap_dropped_ns = f.cap_dropped_ns;
        r.acc_after_ns = f.acc_after_ns;
        r.alpha = f.alpha;
    }

    // Phase ends: the steps took from begin_frame (or the previous mark) to here; rendering
    // from end_steps to end_render.
    void end_steps(std::int64_t now) {
        now = reading(now, open_frame());
        row_->step_cost_ns += now - mark_ns_;
        mark_ns_ = now;
    }
    void end_steps() { end_steps(now_ns()); }
    void end_render(std::int64_t now) {
        now = reading(now, open_frame());
        row_->render_ns += now - mark_ns_;
        mark_ns_ = now;
    }
    void end_render() { end_render(now_ns()); }
    // Phase times measured by the game itself, added to the frame's columns; the wait is then
    // the one given here instead of the time to the next begin_frame.
    void add_times(const PhaseTimes& t) {
        row_->step_cost_ns += t.step_cost_ns;
        row_->render_ns += t.render_ns;
        // begin_frame() leaves wait_ns unset: the first call sets it, later ones add.
        row_->wait_ns = (explicit_wait_ ? row_->wait_ns : 0) + t.wait_ns;
        explicit_wait_ = true;  // the game measures its own phases
    }

    // Ends the last frame (its wait counts up to now), hands over what is buffered, waits for
    // the writer to write it and closes the file. Called by the destructor; safe to call twice.
    void close() { close(now_ns()); }
    // The same, with the last frame ending at `now` (the game's own clock reading).
    void close(std::int64_t now) {
        if (closed_)
            return;
        now = reading(now, open_frame());
        if (open_ && !failed_) {
            // Closing may wait: the last frame is not dropped for a writer still busy.
            if (fill_ == 0 && handed_ >= blocks_)
                wait_written(handed_ - blocks_ + 1);
            commit(now);
            open_ = false;
        } else if (open_) {
            open_ = false;
            ++dropped_;  // a sink failed: the last frame is lost like the others
        }
        closed_ = true;
        accepting_ = false;
        hand_over();
        if (writer_.joinable()) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                stop_ = true;
            }
            work_cv_.notify_one();
            writer_.join();
        }
        std::string trailer;
        if (backward_steps_ > 0) {
            // After the rows, where the reader takes `# key: value` lines too.
            trailer = std::string("# ") + trace_v1::kClockWentBackKey + ": " +
                      std::to_string(backward_steps_) + " times, by up to " +
                      std::to_string(backward_max_ns_) + " ns, first at frame " +
                      std::to_string(backward_first_frame_) + "\n";
        }
        for (const auto& sink : sinks_) {
            sink->finish(trailer);
            if (sink->failed())
                failed_ = true;
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
    // Frames that reached every sink, and frames lost: not kept for a writer a ring behind, or
    // kept but in a block that a sink failed to take (a full disk). Together they are every
    // ended frame.
    std::int64_t recorded_frames() const {
        return rows_handed_ + static_cast<std::int64_t>(fill_) -
               lost_rows_.load(std::memory_order_acquire);
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
    // The live stream: the port it listens on (0 when not serving), why it could not listen
    // ("" otherwise), and what it did.
    int serving_port() const { return live_ ? live_->stats().port : 0; }
    std::string serve_error() const { return live_ ? live_->error() : std::string(); }
    LiveStats live_stats() const { return live_ ? live_->stats() : LiveStats{}; }

  private:
    // begin_frame() for every frame that run_ does not cover: out of line, so that the game's
    // loop inlines only the short path above.
    LOOPSCOPE_RECORDER_NOINLINE void begin_frame_rest(std::int64_t now) {
        now = reading(now, next_frame_);
        if (open_)
            commit(now);  // the next frame is open at once: open_ stays true
        else
            open_ = true;
        // The row is written where it will stay: its slot in the ring, when the slot can take
        // it (a block can only stop being free at a hand-over, so this is checked once a
        // block), else the spare row, which commit() keeps or drops. Every column is stored
        // once; no zeroing, no copy.
        detail::RingRow* r = &spare_;
        if (accepting_ && fill_ < block_rows_ && (fill_ != 0 || block_free())) {
            r = block_ + fill_;
            // The row 32 frames on, a few hundred ns ahead in a tight loop: near a block's end,
            // past the gap, in the next slot, which after the last slot is the first.
            const std::size_t ahead =
                detail::row_ahead(static_cast<std::size_t>(block_ - rows_.data()), fill_,
                                  kPrefetchRows, block_rows_, gap_rows_, rows_.size());
            if (ahead < rows_.size())
                detail::prefetch_row_for_write(rows_.data() + ahead);
        }
        row_ = r;
        // The frames from the next on that the short path may take: up to the one whose row
        // is kPrefetchRows before the block's last, so that its prefetch needs no gap check.
        run_ = 0;
        if (r != &spare_ && fill_ != 0 && fill_ + kPrefetchRows + 1 < block_rows_)
            run_ = block_rows_ - kPrefetchRows - 1 - fill_;
        start_row(r, now);
    }

    // Stores the new frame's columns in its row and makes `now` its begin and the mark.
    void start_row(detail::RingRow* r, std::int64_t now) {
        // frame, start_ns and clamp_lost_ns are not stored: the writer's side derives them.
        const std::int64_t raw = now - previous_ns_;
        ++next_frame_;
        r->raw_ns = raw;
        r->clamped_ns = raw;
        r->consumed_ns = raw;
        r->acc_before_ns = 0;
        r->steps = 0;
        r->cap_dropped_ns = 0;
        r->acc_after_ns = 0;
        r->alpha = 0.0;
        r->step_cost_ns = 0;
        r->render_ns = 0;
        // wait_ns is left to commit() (or add_times()): one store fewer a frame.
        previous_ns_ = now;
        mark_ns_ = now;
    }
    // The loop's thread: the row goes into the block being filled, unless that block is full
    // (flush_every = 0) or the writer has not yet written what it held before (a ring lap
    // behind): then the frame is dropped and counted, and the loop never waits.
    void commit(std::int64_t now) {
        detail::RingRow* const r = row_;
        if (!explicit_wait_)
            r->wait_ns = now - mark_ns_;
        else
            explicit_wait_ = false;  // stored only when set: one store fewer a frame
        if (r != &spare_) {
            // Written in place. A block that began free stays free (only a hand-over takes
            // one), except that a sink may have failed since: then it is dropped as before.
            if (fill_ == 0) {
                if (failed_.load(std::memory_order_relaxed)) {
                    ++dropped_;
                    return;
                }
                mark_block_start();
            }
        } else {
            // The frame began where it could not be kept; it may be kept now (the writer freed
            // the block meanwhile, or close() waited for it). Nowhere to go (no sink, close()
            // has run, the block is full with flush_every = 0): dropped.
            if (!accepting_ || fill_ == block_rows_ || (fill_ == 0 && !block_free())) {
                ++dropped_;
                return;
            }
            if (fill_ == 0)
                mark_block_start();
            block_[fill_] = spare_;
        }
        ++fill_;
        if (fill_ == block_rows_ && options_.flush_every > 0)
            hand_over();
    }

    // The block's first row is the frame being committed (next_frame_ counts it already; the
    // next frame has not begun): what its other rows' frames and starts count from.
    void mark_block_start() {
        detail::BlockStart& b = block_starts_[handed_ % blocks_];
        b.first_frame = next_frame_ - 1;
        b.first_start_ns = previous_ns_ - start_ns_;
    }

    // The frame begun last (frame 0 before any): what a clock reading that went back is
    // reported at.
    std::int64_t open_frame() const { return next_frame_ > 0 ? next_frame_ - 1 : 0; }

    // A clock reading, never earlier than the latest one: a reading that went back is counted
    // (with its size and the frame) and taken as the latest, so no time comes out negative.
    std::int64_t reading(std::int64_t now, std::int64_t frame) {
        if (now >= mark_ns_)
            return now;  // the caller makes it the mark
        if (backward_steps_++ == 0)
            backward_first_frame_ = frame;
        backward_max_ns_ = std::max(backward_max_ns_, mark_ns_ - now);
        return mark_ns_;
    }

    // A slot's first row: the slots lie a block and a gap apart.
    detail::RingRow* slot_rows(std::size_t slot) {
        return rows_.data() + slot * (block_rows_ + gap_rows_);
    }

    // Block number handed_ reuses the slot of block handed_ - blocks_.
    bool block_free() const {
        if (failed_.load(std::memory_order_relaxed))
            return false;
        return handed_ - written_.load(std::memory_order_acquire) < blocks_;
    }

    // The loop's thread: the block's size and the count of blocks handed over; no formatting, no
    // allocation, no lock. The writer finds the block at its next look (writer_poll_us); it is
    // woken now only without polling or when the block before is still waiting, so that the
    // ring does not fill while it sleeps. A wake-up is a system call of a few µs: one every
    // 1024 frames added 1.3-3.8 ns to the loop's cost per frame (docs/recorder-speed.md).
    void hand_over() {
        run_ = 0;  // the next frame takes the long way: a new block, or the spare row
        if (fill_ == 0)
            return;
        const std::size_t slot = handed_ % blocks_;
        if (writer_.joinable()) {
            block_sizes_[slot] = fill_;  // published by the store of queued_
            block_cpus_[slot] = detail::current_cpu();
            // Sequentially consistent with the writer's writer_asleep_ store and queued_ load:
            // either the writer sees this block or this thread sees the writer asleep.
            queued_.store(handed_ + 1, std::memory_order_seq_cst);
            if (options_.writer_poll_us <= 0 || writer_asleep_.load(std::memory_order_seq_cst) ||
                handed_ > written_.load(std::memory_order_acquire))  // one before still waits
                wake_writer();
        } else {
            write_block(slot, fill_);
            written_.store(handed_ + 1, std::memory_order_release);
        }
        ++handed_;
        rows_handed_ += static_cast<std::int64_t>(fill_);
        fill_ = 0;
        block_ = slot_rows(handed_ % blocks_);  // once a block, not a frame
        if (open_ && row_ != &spare_) {
            // flush() mid-frame: the open frame's slot went with the block; its commit decides
            // where it goes now.
            spare_ = *row_;
            row_ = &spare_;
        }
    }

    // Taking the lock before the notify: a writer that has just found nothing to do and is about
    // to wait holds it, so the notify reaches it once it waits rather than before.
    void wake_writer() {
        { std::lock_guard<std::mutex> lock(mutex_); }
        work_cv_.notify_one();
    }

    void wait_written(std::uint64_t blocks) {
        if (!writer_.joinable())
            return;
        if (written_.load(std::memory_order_acquire) >= blocks)
            return;
        wake_writer();  // not to wait for its next look
        std::unique_lock<std::mutex> lock(mutex_);
        done_cv_.wait(lock, [&] { return written_.load(std::memory_order_acquire) >= blocks; });
    }

    // The writer's thread: takes the blocks in the order they were handed over, looking for them
    // every writer_poll_us (or when woken).
    void writer_main() {
        std::uint64_t next = 0;
        const auto ready = [&] { return queued_.load(std::memory_order_seq_cst) > next || stop_; };
        // At most a minute: a huge period would overflow the deadline wait_for forms.
        const std::int64_t poll_us = std::min<std::int64_t>(options_.writer_poll_us, 60'000'000);
        const auto poll = std::chrono::microseconds(poll_us);
        // After a second of looks that found nothing (a paused game), the writer sleeps until
        // woken instead, saying so in writer_asleep_, so that an idle game is not woken 500
        // times a second.
        const std::int64_t looks_before_sleep =
            poll_us > 0 ? std::max<std::int64_t>(1, 1'000'000 / poll_us) : 0;
        for (;;) {
            std::size_t size = 0;
            int loop_cpu = -1;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                for (std::int64_t looks = 0; !ready(); ++looks) {
                    if (poll_us > 0 && looks < looks_before_sleep) {
                        work_cv_.wait_for(lock, poll);
                        continue;
                    }
                    writer_asleep_.store(true, std::memory_order_seq_cst);
                    if (!ready())
                        work_cv_.wait(lock, ready);
                    writer_asleep_.store(false, std::memory_order_relaxed);
                }
                if (queued_.load(std::memory_order_acquire) == next)
                    break;  // stopped, and everything handed over is written
                size = block_sizes_[next % blocks_];
                loop_cpu = block_cpus_[next % blocks_];
            }
            // Where the loop's thread ran on this writer's CPU (a loaded machine), the lines
            // need not come back from anywhere: evicting them would only send the loop's next
            // writes to memory (0.4-1.3 ns a frame in BM_RecorderFrameGivenTimePinned/x/x/0).
            const bool evict =
                has_clflushopt_ && (loop_cpu < 0 || loop_cpu != detail::current_cpu());
            write_block(next % blocks_, size, evict);
            {
                // Under the lock, so that a waiter between its check and its wait cannot miss it.
                std::lock_guard<std::mutex> lock(mutex_);
                written_.store(++next, std::memory_order_release);
            }
            done_cv_.notify_all();
        }
    }

    // Gives a block to every sink. Once a sink has failed the rest is not attempted (ok() is
    // false): the block's rows are lost, counted. A sink loses the tail of a block, so the
    // block's lost rows are the most any sink lost.
    void write_block(std::size_t slot, std::size_t size, bool evict = false) {
        if (failed_.load(std::memory_order_relaxed)) {
            lost_rows_.fetch_add(static_cast<std::int64_t>(size), std::memory_order_release);
            return;
        }
        const detail::RingRow* rows = slot_rows(slot);
        const detail::BlockStart& start = block_starts_[slot];
        const detail::Block block{rows, size, start.first_frame, start.first_start_ns};
        std::size_t lost = 0;
        std::size_t read = 0;
        for (const auto& sink : sinks_) {
            lost = std::max(lost, sink->take(block));
            read = std::max(read, sink->rows_read(size));
            if (sink->failed())
                failed_ = true;
        }
        if (lost > 0)
            lost_rows_.fetch_add(static_cast<std::int64_t>(lost), std::memory_order_release);
        // Rows no sink read are still only in the loop's core: left there.
        if (evict)
            detail::evict_lines(rows, read * sizeof(detail::RingRow));
    }

    std::string clock_label() const {
        return !options_.clock_name.empty() ? options_.clock_name
               : options_.clock_ns          ? "custom"
                                            : "monotonic";
    }

    std::string preamble() const {
        trace_v1::Preamble p;
        p.clock = clock_label();
        p.policy = options_.policy;
        p.dt_ns = options_.dt_ns;
        p.clamp_ns = options_.clamp_ns;
        p.max_steps = options_.max_steps;
        p.timescale = options_.timescale;
        p.machine = options_.machine;
        if (options_.write_start_time)
            p.start_time = trace_v1::utc_now_iso8601();
        p.metadata = options_.metadata;
        return trace_v1::preamble_text(p);
    }

    static constexpr std::size_t kPrefetchRows = 32;
    // Between two blocks in the ring, rows that no frame uses. The writer reads a block in order,
    // and its core's prefetcher runs on past the block's end; without the gap it would fetch the
    // next block's first lines, which the loop (its own prefetch holding them ready) is about to
    // write, and each of those writes would have to take its line back from the writer's core:
    // frames 1-63 after each hand-over took 9-116 ns each (docs/recorder-speed.md).
    // No more than a block's size, so that small blocks at most double the ring.
    static constexpr std::size_t kGapBytes = 4096;
    const bool has_clflushopt_ = detail::has_clflushopt();

    RecorderOptions options_;
    std::size_t block_rows_ = 0;         // rows a block holds
    std::size_t gap_rows_ = 0;           // unused rows after each block (kGapBytes)
    std::size_t blocks_ = 1;             // blocks in the ring
    std::vector<detail::RingRow> rows_;  // blocks_ x (block_rows_ + gap_rows_)
    detail::RingRow* block_ = nullptr;   // the block being filled (slot handed_ % blocks_)
    // The destinations, in the order they take each block (file first). Called by the writing
    // thread, created and finished on the loop's thread while no writer runs.
    std::vector<std::unique_ptr<sinks::Sink>> sinks_;
    sinks::LiveSink* live_ = nullptr;  // the live sink among them, if any

    // The loop's thread only.
    detail::RingRow spare_;           // the row of a frame begun where no slot could take it
    detail::RingRow* row_ = &spare_;  // the row of the frame being recorded (a slot, or spare_)
    bool accepting_ = false;          // a sink exists and close() has not run
    std::size_t fill_ = 0;            // rows in the block being filled
    std::size_t run_ = 0;             // frames ahead that begin_frame's short path may take
    std::uint64_t handed_ = 0;        // blocks handed over; the one being filled has this number
    std::int64_t start_ns_ = 0;
    std::int64_t previous_ns_ = 0;
    // The latest clock reading: every reading but close()'s becomes the mark that the next
    // phase or the wait counts from, so this is also what a reading that went back is held to.
    std::int64_t mark_ns_ = 0;
    std::int64_t next_frame_ = 0;
    std::int64_t rows_handed_ = 0;  // rows in the blocks handed over (recorded: these + fill_)
    std::int64_t dropped_ = 0;
    std::int64_t backward_steps_ = 0;
    std::int64_t backward_max_ns_ = 0;
    std::int64_t backward_first_frame_ = 0;
    bool open_ = false;
    bool explicit_wait_ = false;
    bool closed_ = false;

    // Shared by the loop's thread and the writer.
    std::mutex mutex_;
    std::condition_variable work_cv_;  // a block was handed over, or stop
    std::condition_variable done_cv_;  // a block was written
    // Rows in each handed-over block: written by the loop's thread before it counts the block in
    // queued_, read by the writer after it sees the count.
    std::vector<std::size_t> block_sizes_;
    std::vector<int> block_cpus_;  // the loop's CPU at each block's hand-over, -1 if unknown
    // Each block's first frame and start (set by the loop's thread at the block's first commit).
    std::vector<detail::BlockStart> block_starts_;
    std::atomic<std::uint64_t> queued_{0};    // blocks handed over
    std::atomic<bool> writer_asleep_{false};  // waiting until woken, not looking every poll
    bool stop_ = false;                       // under mutex_
    std::atomic<std::uint64_t> written_{0};   // blocks the writer has finished
    std::atomic<bool> failed_{false};
    std::atomic<std::int64_t> lost_rows_{0};  // recorded rows that a sink lost
    std::thread writer_;
};

// The loop helper, recording through this Recorder (see detail::BasicFixedStep).
using FixedStep = loopscope::detail::BasicFixedStep<Recorder>;

}  // namespace recorder_enabled
}  // namespace loopscope

#undef LOOPSCOPE_RECORDER_NOINLINE
#endif  // LOOPSCOPE_RECORDER_HPP_ON

// ---- Recording off: the same interface, no state, nothing to run. ----
#if !(defined(LOOPSCOPE_RECORDER) && LOOPSCOPE_RECORDER) && !defined(LOOPSCOPE_RECORDER_HPP_OFF)
#define LOOPSCOPE_RECORDER_HPP_OFF

namespace loopscope {

namespace detail {
// An option with recording off: takes any value, keeps nothing, constructs trivially. So the
// game's code that fills the options compiles either way (options are write-only when off).
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
// empty(), size(), c_str() and data() as a std::string has them, a conversion to std::string
// (or any string type with c_str()) and printing to a stream as nothing, so that a game's uses
// of the two compile either way.
struct EmptyText {
    constexpr bool empty() const noexcept { return true; }
    constexpr decltype(sizeof 0) size() const noexcept { return 0; }
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

// Constant-initialised and trivially copied and destroyed: no allocation, no code. (Each member
// has an empty `{}` initialiser, which makes the default constructor formally non-trivial, so
// that GCC's -Wmissing-field-initializers stays quiet on designated initialisers that leave
// members out, as they do with recording on.)
struct RecorderOptions {
    // In the order of the members with recording on: designated initialisers follow it.
    detail::Ignored path = {}, on_rows = {}, capacity = {}, flush_every = {},
                    background_writer = {}, writer_poll_us = {}, clock_ns = {}, clock_name = {},
                    policy = {}, dt_ns = {}, clamp_ns = {}, max_steps = {}, timescale = {},
                    machine = {}, write_start_time = {}, metadata = {}, serve_port = {},
                    serve_address = {}, serve_stall_ms = {};
    void describe_loop(const FixedStepConfig&, const char* = nullptr) {}
};

class Recorder {
  public:
    static constexpr bool kEnabled = false;
    explicit Recorder(const RecorderOptions&) {}
    std::int64_t now_ns() const { return loopscope::now_ns(); }  // the clock still runs
    void begin_frame(std::int64_t) {}
    void begin_frame() {}
    void loop(const LoopFrame&) {}
    void end_steps(std::int64_t) {}
    void end_steps() {}
    void end_render(std::int64_t) {}
    void end_render() {}
    void add_times(const PhaseTimes&) {}
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
    detail::EmptyText path() const { return {}; }
    std::int64_t start_ns() const { return 0; }
    bool has_writer_thread() const { return false; }
    int serving_port() const { return 0; }
    detail::EmptyText serve_error() const { return {}; }
    LiveStats live_stats() const { return {}; }
};

using FixedStep = loopscope::detail::BasicFixedStep<Recorder>;

}  // namespace recorder_disabled
}  // namespace loopscope

#endif  // LOOPSCOPE_RECORDER_HPP_OFF
