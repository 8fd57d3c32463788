// The clock sources of Linux: std::chrono's three clocks, clock_gettime's clocks, the TSC (x86)
// and, when built with SDL2, SDL's counter and millisecond ticks. Plus the OS services the probe
// needs: CLOCK_MONOTONIC_RAW as the reference, and pinning a thread to a CPU.
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <fmt/format.h>

#include <chrono>
#include <type_traits>

#include "probes/clock_read_helpers.hpp"
#include "probes/clock_source.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define LOOPSCOPE_X86 1
#endif

#ifdef LOOPSCOPE_HAVE_SDL
#include <SDL.h>
#endif

namespace loopscope {

namespace {

template <clockid_t Id>
std::int64_t read_posix() {
    struct timespec ts;
    ::clock_gettime(Id, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

#ifdef LOOPSCOPE_X86
// The TSC reads (the same in the Linux and Windows files, on purpose: intrinsics stay in per-OS
// files). LFENCE waits until every earlier instruction has completed locally, so the ordered
// read sees the counter after the load before it, as the Linux kernel's rdtsc_ordered() does.
std::int64_t read_rdtsc() {
    return static_cast<std::int64_t>(__rdtsc());
}
std::int64_t read_rdtsc_ordered() {
    _mm_lfence();
    return static_cast<std::int64_t>(__rdtsc());
}
std::int64_t read_rdtscp() {
    unsigned aux;
    return static_cast<std::int64_t>(__rdtscp(&aux));
}
#endif

#ifdef LOOPSCOPE_HAVE_SDL
std::int64_t read_sdl_counter() {
    return static_cast<std::int64_t>(SDL_GetPerformanceCounter());
}
std::int64_t read_sdl_ticks64() {
    return static_cast<std::int64_t>(SDL_GetTicks64());
}
#endif

std::string readings_match(ClockReadFn read, TickScale scale) {
    const std::string m = matching_os_clocks(read, scale);
    return m.empty() ? "readings match no clock_gettime clock" : "readings match " + m;
}

template <class Clock>
ClockSource chrono_source(std::string name, std::string description, std::string alias) {
    ClockSource s = chrono_clock_source<Clock>(std::move(name), std::move(description));
    s.backing = alias.empty() ? readings_match(s.read, s.scale)
                              : alias + ", " + readings_match(s.read, s.scale);
    return s;
}

template <clockid_t Id>
ClockSource posix_source(const char* name, const char* description) {
    ClockSource s;
    s.name = name;
    s.description = description;
    s.backing = fmt::format("clock_gettime({})", name);
    s.claims_steady = Id != CLOCK_REALTIME && Id != CLOCK_REALTIME_COARSE;
    struct timespec res {};
    if (::clock_getres(Id, &res) == 0) {
        s.resolution_ns = static_cast<double>(res.tv_sec) * 1e9 + static_cast<double>(res.tv_nsec);
        s.resolution_from = "clock_getres";
    }
    set_reader<read_posix<Id>>(s);
    return s;
}

// What the high_resolution_clock really is in this standard library, found from the types
// rather than assumed.
std::string high_resolution_alias() {
    using namespace std::chrono;
    if constexpr (std::is_same_v<high_resolution_clock, system_clock>) {
        return "an alias of std::chrono::system_clock in this standard library";
    } else if constexpr (std::is_same_v<high_resolution_clock, steady_clock>) {
        return "an alias of std::chrono::steady_clock in this standard library";
    } else {
        return "a clock of its own in this standard library";
    }
}

}  // namespace

std::vector<ClockSource> clock_sources() {
    using namespace std::chrono;
    std::vector<ClockSource> v;
    v.push_back(chrono_source<steady_clock>("std::chrono::steady_clock",
                                            "the C++ clock meant for measuring intervals", ""));
    v.push_back(chrono_source<high_resolution_clock>(
        "std::chrono::high_resolution_clock", "the C++ clock with the shortest tick on offer",
        high_resolution_alias()));
    v.push_back(chrono_source<system_clock>("std::chrono::system_clock",
                                            "wall-clock time; jumps when the time is set", ""));

    v.push_back(posix_source<CLOCK_MONOTONIC>(
        "CLOCK_MONOTONIC", "time since boot without suspend; NTP adjusts its rate"));
    v.push_back(posix_source<CLOCK_MONOTONIC_RAW>(
        "CLOCK_MONOTONIC_RAW", "CLOCK_MONOTONIC without NTP's rate adjustment (the reference)"));
    v.push_back(posix_source<CLOCK_MONOTONIC_COARSE>(
        "CLOCK_MONOTONIC_COARSE", "CLOCK_MONOTONIC as of the last kernel tick: cheap and coarse"));
    v.back().sampled_from = read_posix<CLOCK_MONOTONIC>;
    v.push_back(posix_source<CLOCK_BOOTTIME>("CLOCK_BOOTTIME",
                                             "CLOCK_MONOTONIC plus the time spent suspended"));
    v.push_back(posix_source<CLOCK_REALTIME>(
        "CLOCK_REALTIME", "wall-clock time (UTC); jumps when set, NTP adjusts its rate"));
    v.push_back(posix_source<CLOCK_REALTIME_COARSE>(
        "CLOCK_REALTIME_COARSE", "CLOCK_REALTIME as of the last kernel tick: cheap and coarse"));
    v.back().sampled_from = read_posix<CLOCK_REALTIME>;

#ifdef LOOPSCOPE_X86
    add_tsc_sources<read_rdtsc, read_rdtsc_ordered, read_rdtscp>(v, reference_clock_name());
#endif

#ifdef LOOPSCOPE_HAVE_SDL
    {
        const std::int64_t hz = static_cast<std::int64_t>(SDL_GetPerformanceFrequency());
        if (hz > 0) {
            ClockSource s;
            s.name = "SDL_GetPerformanceCounter";
            s.description = fmt::format("SDL2's high-resolution counter, {} Hz", hz);
            s.scale = reduced(1'000'000'000, hz);
            s.claims_steady = true;
            s.resolution_ns = 1e9 / static_cast<double>(hz);
            s.resolution_from = "SDL_GetPerformanceFrequency";
            set_reader<read_sdl_counter>(s);
            s.backing = readings_match(s.read, s.scale);
            v.push_back(s);
        }
        ClockSource t;
        t.name = "SDL_GetTicks64";
        t.description = "SDL2's milliseconds since SDL was first used";
        t.backing = "SDL's performance counter, in whole milliseconds";
        t.scale = {1'000'000, 1};
        t.claims_steady = true;
        t.resolution_ns = 1e6;
        t.resolution_from = "its unit (1 ms)";
        set_reader<read_sdl_ticks64>(t);
        v.push_back(t);
    }
#endif
    return v;
}

std::int64_t reference_now_ns() {
    return read_posix<CLOCK_MONOTONIC_RAW>();
}
const char* reference_clock_name() {
    return "CLOCK_MONOTONIC_RAW";
}

std::vector<int> usable_cpus() {
    std::vector<int> cpus;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) != 0)
        return cpus;
    for (int i = 0; i < CPU_SETSIZE; ++i) {
        if (CPU_ISSET(i, &set))
            cpus.push_back(i);
    }
    return cpus;
}

bool pin_current_thread(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set) == 0;
}

std::string matching_os_clocks(ClockReadFn read, TickScale scale) {
    static const std::vector<NamedClock> candidates{
        {"CLOCK_MONOTONIC", read_posix<CLOCK_MONOTONIC>},
        {"CLOCK_MONOTONIC_RAW", read_posix<CLOCK_MONOTONIC_RAW>},
        {"CLOCK_BOOTTIME", read_posix<CLOCK_BOOTTIME>},
        {"CLOCK_REALTIME", read_posix<CLOCK_REALTIME>},
    };
    return clocks_matching(candidates, read, scale);
}

}  // namespace loopscope
