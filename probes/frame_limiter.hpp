// Frame limiters: how a game waits for the start of its next frame. Each limiter aims at absolute
// deadlines spaced one frame period apart (so a constant wake-up delay does not add up frame
// after frame) and differs only in how it waits for a deadline: sleep to it, sleep to a margin
// before it and spin the rest, spin the whole way, or sleep whole milliseconds as SDL_Delay does.
//
// The limiter runs against a LimiterClock, so that unit tests drive it with a fake clock and get
// exact results, and so that another OS can bring its own ways of sleeping.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace loopscope {

// What a limiter needs from the machine. All times are nanoseconds on one monotonic clock.
class LimiterClock {
  public:
    virtual ~LimiterClock() = default;
    virtual std::int64_t now_ns() = 0;
    // CPU time the calling thread has used: what waiting costs.
    virtual std::int64_t thread_cpu_ns() = 0;
    // Sleeps until now_ns() >= deadline_ns, give or take the OS's wake-up delay.
    virtual void sleep_until_ns(std::int64_t deadline_ns) = 0;
    // Sleeps a whole number of milliseconds, the only unit SDL_Delay (and Windows' Sleep) take.
    virtual void delay_ms(std::uint32_t ms) = 0;
    // One turn of a busy wait (a CPU pause hint on real hardware).
    virtual void spin_pause() = 0;
    // Around a measured run, on the thread that runs it: a clock whose sleeps need the thread
    // set up (MMCSS on Windows) does it here. Returns why the setup failed, empty when it did not.
    virtual std::string begin_run() { return {}; }
    virtual void end_run() {}
};

// A LimiterClock on any nanosecond clock read through a function: a clock source of the
// real-clock runner, or steady_clock (now_ns = nullptr) for the viewer's live harness. It
// sleeps with std::this_thread::sleep_for for the time left on that clock, and takes the CPU
// time, whole-millisecond delays and the spin pause from the OS's limiter clock
// (system_limiter_clock() in timer_waits.hpp).
class ReadLimiterClock final : public LimiterClock {
  public:
    explicit ReadLimiterClock(std::int64_t (*now_ns)() = nullptr);

    std::int64_t now_ns() override;
    std::int64_t thread_cpu_ns() override;
    void sleep_until_ns(std::int64_t deadline_ns) override;
    void delay_ms(std::uint32_t ms) override;
    void spin_pause() override;

  private:
    std::int64_t (*read_)();
    LimiterClock& os_;
};

enum class LimiterKind {
    sleep,       // sleep to the deadline
    sleep_spin,  // sleep to deadline - margin, then spin to the deadline
    spin,        // spin to the deadline
    delay_ms,    // sleep floor(remaining / 1 ms) whole milliseconds (SDL_Delay), no spin
    // sleep to deadline - margin, then spin; the margin follows how late the sleeps wake
    // (adaptive_margin_next_ns), starting from margin_ns. Needs the state of a FrameLimiter: a
    // lone wait_until_deadline waits as sleep_spin with the starting margin.
    adaptive_spin,
};

struct LimiterSpec {
    LimiterKind kind = LimiterKind::sleep;
    std::int64_t margin_ns = 0;  // sleep_spin; adaptive_spin's starting margin
    // Where the OS has several ways to sleep: the clock this limiter sleeps with (nullptr: the
    // OS's system_limiter_clock()) and what its name says of it ("Sleep", "MMCSS").
    LimiterClock* clock = nullptr;
    std::string variant = {};  // an initializer, so that {kind, margin} stays complete

    // "sleep", "sleep+spin 1ms", "spin", "SDL_Delay", "adaptive spin", then " (variant)": stable
    // names used in tables and JSON.
    std::string name() const;
};

// The adaptive limiter's margin for the next frame, from this frame's margin and how late its
// sleep woke past the time it slept to (lateness_ns; early counts as 0). A wake-up later than
// the margin covered is carried into the next frame at once: the margin becomes that lateness
// and a quarter more. Otherwise the margin shrinks by an eighth of what it had to spare, so
// that it spins less once the sleeps wake on time again. Kept within [kAdaptiveMinMarginNs,
// period_ns / 2]. Pure: tested with made-up lateness.
inline constexpr std::int64_t kAdaptiveMinMarginNs = 50'000;
std::int64_t adaptive_margin_next_ns(std::int64_t margin_ns, std::int64_t lateness_ns,
                                     std::int64_t period_ns);

// Waits until deadline_ns the way spec says. Returns at once when the deadline has passed.
void wait_until_deadline(const LimiterSpec& spec, LimiterClock& clock, std::int64_t deadline_ns);

// A frame limiter a loop calls once per frame: wait() returns at the start of the next frame.
// The first call starts the schedule one period after it is made. When a frame starts a period or
// more past its deadline the schedule restarts from now (a resync) rather than rushing
// through the missed frames back to back.
class FrameLimiter {
  public:
    FrameLimiter(LimiterSpec spec, std::int64_t period_ns, LimiterClock& clock);

    // Returns the time the new frame starts (the clock read after waking).
    std::int64_t wait();
    std::int64_t resyncs() const { return resyncs_; }
    // The adaptive limiter's margin for the coming frame (the spec's margin for the others).
    std::int64_t margin_ns() const { return margin_ns_; }

  private:
    LimiterSpec spec_;
    std::int64_t margin_ns_;
    std::int64_t period_ns_;
    LimiterClock& clock_;
    bool started_ = false;
    std::int64_t next_deadline_ns_ = 0;
    std::int64_t resyncs_ = 0;
};

// Per-frame results of running a limiter with no work in the frame.
struct LimiterRun {
    std::vector<std::int64_t> error_ns;  // achieved period - target period, one per frame
    std::vector<std::int64_t> cpu_ns;    // thread CPU time spent per frame
    std::int64_t resyncs = 0;
    std::string setup_note;  // why the clock's thread setup failed (LimiterClock::begin_run)
};

// Runs `frames` frames (frames + 1 calls to wait(): the first only starts the schedule).
LimiterRun run_limiter(const LimiterSpec& spec, LimiterClock& clock, std::int64_t period_ns,
                       int frames);

}  // namespace loopscope
