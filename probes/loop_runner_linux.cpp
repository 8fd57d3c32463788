// The clocks the real-clock loop can run on, on Linux: std::chrono::steady_clock and the
// clock_gettime clocks a game might read directly (all through the vDSO, no system call).
#include <sys/utsname.h>
#include <time.h>

#include <array>
#include <chrono>

#include "probes/loop_runner.hpp"

namespace loopscope {

namespace {

template <clockid_t Id>
std::int64_t posix_now_ns() {
    timespec ts{};
    clock_gettime(Id, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::int64_t steady_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

const std::array<RealClockSource, 4> kClocks = {{
    {"steady_clock", "std::chrono::steady_clock", &steady_now_ns},
    {"monotonic", "clock_gettime(CLOCK_MONOTONIC)", &posix_now_ns<CLOCK_MONOTONIC>},
    {"monotonic_raw", "clock_gettime(CLOCK_MONOTONIC_RAW): not slewed by NTP",
     &posix_now_ns<CLOCK_MONOTONIC_RAW>},
    {"boottime", "clock_gettime(CLOCK_BOOTTIME): counts suspend", &posix_now_ns<CLOCK_BOOTTIME>},
}};

}  // namespace

std::span<const RealClockSource> real_clock_sources() {
    return kClocks;
}

std::string machine_description() {
    utsname u{};
    if (uname(&u) != 0)
        return "unknown";
    return std::string(u.nodename) + " (" + u.sysname + " " + u.release + " " + u.machine + ")";
}

}  // namespace loopscope
