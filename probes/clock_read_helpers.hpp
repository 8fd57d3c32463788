// What every OS's clock list (clock_sources_linux.cpp, clock_sources_windows.cpp) builds its
// sources from: the read loops the probe times, the std::chrono clocks' scales, the TSC sources
// (the processor's, not the OS's) and the check of which OS clock a library clock's readings
// match. Portable; each OS file adds only its own clocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "probes/clock_source.hpp"
#include "probes/system_info.hpp"

namespace loopscope {

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

inline TickScale reduced(std::int64_t num, std::int64_t den) {
    const std::int64_t g = std::gcd(num, den);
    return {num / g, den / g};
}

template <class Clock>
std::int64_t read_chrono() {
    return static_cast<std::int64_t>(Clock::now().time_since_epoch().count());
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

// A std::chrono clock as a source: everything but `backing`, which the OS file finds by reading
// it against the OS's clocks.
template <class Clock>
ClockSource chrono_clock_source(std::string name, std::string description) {
    ClockSource s;
    s.name = std::move(name);
    s.claims_steady = Clock::is_steady;
    s.description = description + "; is_steady = " + (Clock::is_steady ? "true" : "false");
    s.scale = chrono_scale<Clock>();
    s.resolution_ns = chrono_resolution_ns<Clock>();
    s.resolution_from = "std::chrono period";
    set_reader<read_chrono<Clock>>(s);
    return s;
}

// An OS clock read in nanoseconds, as a candidate for what backs a library clock.
struct NamedClock {
    const char* name;
    ClockReadFn read;
};

// The candidates whose readings `read` matches (a reading taken between two of theirs falls
// between them, five times running), joined with ", "; empty when none does.
std::string clocks_matching(const std::vector<NamedClock>& candidates, ClockReadFn read,
                            TickScale scale);

// rdtsc (with lfence;rdtsc as its ordered read) and rdtscp where CPUID has them, their rate to
// be calibrated against the reference clock. The reads themselves use compiler intrinsics, which
// stay in the per-OS files (tests/platform_headers_test.cpp), so they are passed in.
template <std::int64_t (*Rdtsc)(), std::int64_t (*RdtscOrdered)(), std::int64_t (*Rdtscp)()>
void add_tsc_sources(std::vector<ClockSource>& v, const char* reference_clock) {
    const CpuFeatures cpu = read_cpu_features();
    if (!cpu.has_tsc)
        return;
    const std::string tsc_kind = cpu.invariant_tsc
                                     ? "invariant TSC (CPUID.80000007H:EDX[8] set)"
                                     : "TSC, NOT invariant (CPUID.80000007H:EDX[8] clear)";
    ClockSource s;
    s.name = "rdtsc";
    s.description = "the CPU's time-stamp counter; RDTSC may run ahead of earlier instructions";
    s.backing = tsc_kind + ", frequency calibrated against " + reference_clock;
    s.claims_steady = false;
    s.resolution_from = "1 tick at the calibrated frequency";
    s.calibrate_scale = true;
    set_reader<Rdtsc>(s);
    s.ordered_read = RdtscOrdered;
    s.ordered_read_name = "lfence;rdtsc";
    v.push_back(s);
    s.ordered_read = nullptr;
    s.ordered_read_name.clear();
    if (cpu.has_rdtscp) {
        s.name = "rdtscp";
        s.description = "the time-stamp counter read after earlier instructions complete";
        set_reader<Rdtscp>(s);
        v.push_back(s);
    }
}

}  // namespace loopscope
