// The clock sources of Linux: std::chrono's three clocks, clock_gettime's clocks, the TSC (x86)
// and, when built with SDL2, SDL's counter and millisecond ticks. Plus the OS services the probe
// needs: CLOCK_MONOTONIC_RAW as the reference, and pinning a thread to a CPU.
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <fmt/format.h>

#include <chrono>
#include <numeric>
#include <type_traits>

#include "probes/clock_source.hpp"
#include "probes/system_info.hpp"

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

template <class Clock>
std::int64_t read_chrono() {
    return static_cast<std::int64_t>(Clock::now().time_since_epoch().count());
}

#ifdef LOOPSCOPE_X86
std::int64_t read_rdtsc() {
    return static_cast<std::int64_t>(__rdtsc());
}
// LFENCE waits until every earlier instruction has completed locally, so the counter is read
// after the load before it, as the kernel's rdtsc_ordered() does.
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

// The read is a template argument, so it is inlined into the loop: the loop costs what the
// clock costs, not an indirect call per read.
template <std::int64_t (*Read)()>
void fill_with(std::int64_t* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        out[i] = Read();
}

template <std::int64_t (*Read)()>
std::int64_t spin_with(std::size_t n) {
    std::uint64_t acc = 0;  // unsigned: wrapping is defined
    for (std::size_t i = 0; i < n; ++i)
        acc += static_cast<std::uint64_t>(Read());
    return static_cast<std::int64_t>(acc);
}

template <std::int64_t (*Read)()>
void set_reader(ClockSource& s) {
    s.read = Read;
    s.fill = fill_with<Read>;
    s.spin = spin_with<Read>;
}

TickScale reduced(std::int64_t num, std::int64_t den) {
    const std::int64_t g = std::gcd(num, den);
    return {num / g, den / g};
}

template <class Clock>
TickScale chrono_scale() {
    using P = typename Clock::period;
    return reduced(static_cast<std::int64_t>(P::num) * 1'000'000'000,
                   static_cast<std::int64_t>(P::den));
}

template <class Clock>
double chrono_resolution_ns() {
    using P = typename Clock::period;
    return 1e9 * static_cast<double>(P::num) / static_cast<double>(P::den);
}

std::string readings_match(ClockReadFn read, TickScale scale) {
    const std::string m = matching_os_clocks(read, scale);
    return m.empty() ? "readings match no clock_gettime clock" : "readings match " + m;
}

template <class Clock>
ClockSource chrono_source(std::string name, std::string description, std::string alias) {
    ClockSource s;
    s.name = std::move(name);
    s.claims_steady = Clock::is_steady;
    s.description = fmt::format("{}; is_steady = {}", description, Clock::is_steady);
    s.scale = chrono_scale<Clock>();
    s.resolution_ns = chrono_resolution_ns<Clock>();
    s.resolution_from = "std::chrono period";
    set_reader<read_chrono<Clock>>(s);
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
    const CpuFeatures cpu = read_cpu_features();
    if (cpu.has_tsc) {
        const std::string tsc_kind = cpu.invariant_tsc
                                         ? "invariant TSC (CPUID.80000007H:EDX[8] set)"
                                         : "TSC, NOT invariant (CPUID.80000007H:EDX[8] clear)";
        ClockSource s;
        s.name = "rdtsc";
        s.description = "the CPU's time-stamp counter; RDTSC may run ahead of earlier instructions";
        s.backing = tsc_kind + ", frequency calibrated against CLOCK_MONOTONIC_RAW";
        s.claims_steady = false;
        s.resolution_from = "1 tick at the calibrated frequency";
        s.calibrate_scale = true;
        set_reader<read_rdtsc>(s);
        s.ordered_read = read_rdtsc_ordered;
        s.ordered_read_name = "lfence;rdtsc";
        v.push_back(s);
        s.ordered_read = nullptr;
        s.ordered_read_name.clear();
        if (cpu.has_rdtscp) {
            s.name = "rdtscp";
            s.description = "the time-stamp counter read after earlier instructions complete";
            set_reader<read_rdtscp>(s);
            v.push_back(s);
        }
    }
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
    struct Candidate {
        const char* name;
        ClockReadFn read;
    };
    static const Candidate candidates[] = {
        {"CLOCK_MONOTONIC", read_posix<CLOCK_MONOTONIC>},
        {"CLOCK_MONOTONIC_RAW", read_posix<CLOCK_MONOTONIC_RAW>},
        {"CLOCK_BOOTTIME", read_posix<CLOCK_BOOTTIME>},
        {"CLOCK_REALTIME", read_posix<CLOCK_REALTIME>},
    };
    std::string out;
    for (const auto& c : candidates) {
        // A reading taken between two readings of the OS clock must fall between them if it
        // comes from that clock; a few tries rule out a lucky hit.
        bool all = true;
        for (int i = 0; i < 5 && all; ++i) {
            const std::int64_t before = c.read();
            const std::int64_t v = scale.to_ns(read());
            const std::int64_t after = c.read();
            all = before <= v && v <= after;
        }
        if (all)
            out += out.empty() ? c.name : std::string(", ") + c.name;
    }
    return out;
}

}  // namespace loopscope
