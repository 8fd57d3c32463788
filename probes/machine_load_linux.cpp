// Load snapshots on Linux: /proc/loadavg, the aggregate "cpu" line of /proc/stat and this
// process's utime + stime from /proc/self/stat, all in USER_HZ ticks.
#include <fstream>
#include <sstream>
#include <string>

#include "probes/machine_load.hpp"

namespace loopscope {

LoadSnapshot read_load_snapshot() {
    LoadSnapshot s;
    s.from = "/proc/stat, /proc/loadavg, /proc/self/stat";
    {
        std::ifstream f("/proc/loadavg");
        if (!(f >> s.load_1m >> s.load_5m >> s.load_15m))
            s.load_1m = s.load_5m = s.load_15m = -1.0;
    }
    std::ifstream stat("/proc/stat");
    std::string label;
    if (!(stat >> label) || label != "cpu")
        return s;
    // user nice system idle iowait irq softirq steal (guest and guest_nice are already in user
    // and nice, so they are not added again).
    std::int64_t v[8] = {};
    for (auto& x : v) {
        if (!(stat >> x))
            return s;
    }
    for (const auto x : v)
        s.cpu_total_ticks += x;
    s.cpu_idle_ticks = v[3] + v[4];
    s.cpu_steal_ticks = v[7];
    // Fields 14 and 15 of /proc/self/stat; the command name (field 2) may hold spaces, so count
    // from the closing parenthesis.
    std::ifstream self("/proc/self/stat");
    std::string line;
    if (!std::getline(self, line))
        return s;
    const auto close = line.rfind(')');
    if (close == std::string::npos)
        return s;
    std::istringstream rest(line.substr(close + 1));
    std::string field;
    std::int64_t utime = 0, stime = 0;
    for (int i = 3; i <= 15 && (rest >> field); ++i) {
        if (i == 14)
            utime = std::stoll(field);
        if (i == 15)
            stime = std::stoll(field);
    }
    s.self_ticks = utime + stime;
    s.valid = true;
    return s;
}

}  // namespace loopscope
