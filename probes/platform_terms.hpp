// The words the shared probe text uses for this OS's facilities: which clock the waits are
// measured on, which clock gives a thread's CPU time, which call reports the kernel tick, which
// clocks are the coarse ones. The sections (context, clocks, timers) are portable and print the
// results of either OS, also a document read back on the other one (`probe compare`, the viewer),
// so each result carries the platform it was measured on and the words follow from it here,
// never from the OS the program runs on.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace loopscope {

// Capitalised: GCC predefines `linux` as a macro with GNU extensions.
enum class Platform { Linux, Windows };

struct PlatformTerms {
    const char* json_name;        // "linux", "windows": the probe JSON's context.platform
    const char* wait_clock;       // the monotonic clock every wait is measured on
    const char* wait_clock_read;  // how a program reads it, for read-cost comparisons
    const char* cpu_time_clock;   // a thread's CPU time (what waiting costs)
    const char* tick_call;        // the call that reports the kernel tick
    const char* coarse_clocks;    // the clocks that advance only at the tick
    const char* steady_advice;    // what to time frames with when the TSC cannot be trusted
    const char* slack_heading;    // the timer-slack measurement's heading
};

const PlatformTerms& platform_terms(Platform platform);

// The platform this program was built for (per-OS file).
Platform this_platform();

// "linux" / "windows" and back; nullopt for any other name.
std::string_view platform_json_name(Platform platform);
std::optional<Platform> platform_from_json_name(std::string_view name);

}  // namespace loopscope
