// Load snapshots on Windows: GetSystemTimes (idle, kernel and user time of every CPU; kernel
// includes idle) and this process's kernel + user time from GetProcessTimes, all in 100 ns
// units. Windows keeps no load average and reports no steal time.
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <windows.h>

#include "probes/machine_load.hpp"

namespace loopscope {

namespace {
std::int64_t hundred_ns(const FILETIME& f) {
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(f.dwHighDateTime) << 32) |
                                     f.dwLowDateTime);
}
}  // namespace

LoadSnapshot read_load_snapshot() {
    LoadSnapshot s;
    s.from = "GetSystemTimes, GetProcessTimes";
    FILETIME idle, kernel, user;
    if (!::GetSystemTimes(&idle, &kernel, &user))
        return s;
    FILETIME created, exited, self_kernel, self_user;
    if (!::GetProcessTimes(::GetCurrentProcess(), &created, &exited, &self_kernel, &self_user))
        return s;
    s.cpu_total_ticks = hundred_ns(kernel) + hundred_ns(user);
    s.cpu_idle_ticks = hundred_ns(idle);
    s.self_ticks = hundred_ns(self_kernel) + hundred_ns(self_user);
    s.valid = true;
    return s;
}

}  // namespace loopscope
