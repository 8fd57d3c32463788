// The per-platform words of the shared probe text; see platform_terms.hpp.
#include "probes/platform_terms.hpp"

namespace loopscope {

const PlatformTerms& platform_terms(Platform platform) {
    static const PlatformTerms linux_terms{
        "linux",
        "CLOCK_MONOTONIC",
        "clock_gettime(CLOCK_MONOTONIC)",
        "CLOCK_THREAD_CPUTIME_ID",
        "clock_getres",
        "CLOCK_*_COARSE",
        "steady_clock / CLOCK_MONOTONIC",
        "Timer slack (nanosleep, this thread's slack as found and at 1 ns)",
    };
    // The coarse clocks step with the timer interrupt, whose interval is the timer resolution in
    // effect; GetThreadTimes is charged at those interrupts too.
    static const PlatformTerms windows_terms{
        "windows",
        "QueryPerformanceCounter",
        "QueryPerformanceCounter",
        "GetThreadTimes",
        "NtQueryTimerResolution",
        "GetTickCount64, timeGetTime, GetSystemTimeAsFileTime, QueryInterruptTime",
        "steady_clock / QueryPerformanceCounter",
        "Timer slack (Windows has none)",
    };
    return platform == Platform::Windows ? windows_terms : linux_terms;
}

std::string_view platform_json_name(Platform platform) {
    return platform_terms(platform).json_name;
}

std::optional<Platform> platform_from_json_name(std::string_view name) {
    for (const Platform p : {Platform::Linux, Platform::Windows}) {
        if (name == platform_json_name(p))
            return p;
    }
    return std::nullopt;
}

}  // namespace loopscope
