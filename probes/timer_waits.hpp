// The ways this OS lets a program wait, behind one interface: one file per OS
// (timer_waits_linux.cpp; a timer_waits_windows.cpp adds Sleep, timeBeginPeriod(1) and
// high-resolution waitable timers the same way). The measurements themselves (timer_probe.cpp)
// are portable and only call what is declared here.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "probes/frame_limiter.hpp"

namespace loopscope {

// One way to wait once, measured for its overshoot.
struct WaitMethod {
    std::string name;         // "nanosleep", "clock_nanosleep abs", ...: stable, used in JSON
    std::string description;  // one line for people
    // true: wait(deadline) sleeps to an absolute deadline on monotonic_now_ns();
    // false: wait(duration) sleeps for a duration.
    bool absolute = false;
    // Requests are rounded up to a multiple of this (1 ms for SDL_Delay, which takes whole ms):
    // the overshoot is still measured against what the caller asked for.
    std::int64_t granularity_ns = 1;
    std::function<void(std::int64_t)> wait;
    // The method the timer-slack comparison sleeps with: a plain relative sleep that timer slack
    // applies to (nanosleep on Linux). The OS file chooses it; the portable probe only asks.
    bool measures_timer_slack = false;
};

// This OS's one-shot wait methods, in the order the tables list them.
std::vector<WaitMethod> one_shot_wait_methods();

// This OS's frame limiters, in the order the tables list them (also the tie-break order when
// two cost the same CPU time).
std::vector<LimiterSpec> frame_limiter_specs();

// The OS's other ways to sleep to an absolute deadline, each measured by the periodic probe as a
// row of its own at default scheduling beside system_limiter_clock() (absolute-deadline waitable
// timers and MMCSS on Windows; none on Linux, where clock_nanosleep is the one way). A variant
// whose facility is missing has no clock and says why in `unavailable`.
struct PeriodicVariant {
    std::string name;  // "hi-res timer abs", "MMCSS Games": added to the row's scheduling
    LimiterClock* clock = nullptr;
    std::string unavailable;
};
std::vector<PeriodicVariant> periodic_variants();

// The monotonic clock every timer measurement uses (CLOCK_MONOTONIC on Linux).
std::int64_t monotonic_now_ns();

// The real clock for limiters and the periodic probe (sleeps are absolute-deadline sleeps on
// the monotonic clock; delay_ms is SDL_Delay where SDL is built in, else a whole-ms sleep).
LimiterClock& system_limiter_clock();

// Timer slack: how late the kernel may deliver a sleeping thread's wake-up so that it can batch
// wake-ups. nullopt where the OS has no such setting. Applies to the calling thread.
std::optional<std::int64_t> current_timer_slack_ns();
bool set_timer_slack_ns(std::int64_t slack_ns);  // false when refused

// Runs fn on a new thread with real-time scheduling (SCHED_FIFO) and the process's memory
// locked (mlockall) when the process is allowed them, or at default scheduling otherwise.
struct ScheduledRun {
    std::string scheduling;  // "SCHED_OTHER", "SCHED_FIFO 80"
    bool realtime = false;
    bool memory_locked = false;
    std::string note;  // why real-time or mlockall was not used, empty when both were
};
ScheduledRun run_on_thread(bool want_realtime, const std::function<void()>& fn);

}  // namespace loopscope
