// The machine context on Linux: /etc/os-release, uname, /proc/cpuinfo, the clocksource in
// /sys/devices/system/clocksource/clocksource0/, /proc/self/timerslack_ns, and the kernel tick
// as clock_getres reports it for the coarse clocks.
#include <sched.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "probes/system_info.hpp"

namespace loopscope {

namespace {
std::string read_first_line(const char* path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

std::vector<std::string> split_words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

std::string os_release_name() {
    std::ifstream in("/etc/os-release");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            std::string v = line.substr(12);
            if (v.size() >= 2 && v.front() == '"' && v.back() == '"')
                v = v.substr(1, v.size() - 2);
            return v;
        }
    }
    return "Linux";
}

std::string cpuinfo_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos && colon + 2 <= line.size())
                return line.substr(colon + 2);
        }
    }
    return {};
}

// CONFIG_HZ from a kernel config's text: the tick rate the kernel was built with, which the
// coarse clocks' measured steps are checked against.
int config_hz_in(std::istream& in) {
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("CONFIG_HZ=", 0) == 0) {
            try {
                return std::stoi(line.substr(10));
            } catch (const std::exception&) {
                return -1;
            }
        }
    }
    return -1;
}

// The kernel config is /boot/config-<release> on Debian, or /proc/config.gz where the kernel
// exposes it (decompressed by gzip, so that no zlib is linked for one line).
void read_config_hz(SystemContext& c) {
    struct utsname u {};
    if (::uname(&u) == 0) {
        const std::string path = std::string("/boot/config-") + u.release;
        std::ifstream f(path);
        if (f) {
            c.config_hz = config_hz_in(f);
            if (c.config_hz > 0) {
                c.config_hz_from = path;
                return;
            }
        }
    }
    if (::access("/proc/config.gz", R_OK) != 0)
        return;
    FILE* pipe = ::popen("gzip -dc /proc/config.gz 2>/dev/null", "r");
    if (pipe == nullptr)
        return;
    std::string text;
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
        text.append(buffer, n);
    ::pclose(pipe);
    std::istringstream in(text);
    c.config_hz = config_hz_in(in);
    if (c.config_hz > 0)
        c.config_hz_from = "/proc/config.gz";
}

std::vector<std::string> sanitizers() {
    std::vector<std::string> s;
#if defined(__SANITIZE_ADDRESS__)
    s.push_back("address");
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(__SANITIZE_ADDRESS__)
    s.push_back("address");
#endif
#endif
    return s;
}
}  // namespace

Platform this_platform() {
    return Platform::Linux;
}

SystemContext collect_system_context() {
    SystemContext c;
    c.platform = this_platform();
    c.os = os_release_name();
    struct utsname u {};
    if (::uname(&u) == 0)
        c.kernel = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
    const CpuFeatures cpu = read_cpu_features();
    c.cpu_model = cpuinfo_model();
    if (c.cpu_model.empty())
        c.cpu_model = cpu.brand;
    c.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
        c.usable_cpus = CPU_COUNT(&set);

    const char* cs_dir = "/sys/devices/system/clocksource/clocksource0/";
    c.clocksource = read_first_line((std::string(cs_dir) + "current_clocksource").c_str());
    c.clocksources_available =
        split_words(read_first_line((std::string(cs_dir) + "available_clocksource").c_str()));

    const std::string slack = read_first_line("/proc/self/timerslack_ns");
    if (!slack.empty()) {
        try {
            c.timer_slack_ns = std::stoll(slack);
        } catch (const std::exception&) {
            c.timer_slack_ns = -1;
        }
    }
    // The coarse clocks return the time of the last tick, so their resolution is the tick.
    struct timespec res {};
    if (::clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0) {
        c.kernel_tick_ns = static_cast<std::int64_t>(res.tv_sec) * 1'000'000'000 + res.tv_nsec;
        c.kernel_tick_from = "clock_getres(CLOCK_MONOTONIC_COARSE)";
    }
    read_config_hz(c);
    fill_cpu_and_build(c, cpu);
    c.sanitizers = sanitizers();
    return c;
}

// Linux has no process-settable timer resolution: its timers are high-resolution (hrtimers) and
// timer slack is the setting that delays wake-ups.
std::optional<TimerResolution> read_timer_resolution() {
    return std::nullopt;
}

std::string machine_description() {
    utsname u{};
    if (::uname(&u) != 0)
        return "unknown";
    return std::string(u.nodename) + " (" + u.sysname + " " + u.release + " " + u.machine + ")";
}

}  // namespace loopscope
