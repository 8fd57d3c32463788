// Clock sources: every clock a game on this OS can read the time from, behind one interface.
// The per-OS file (clock_sources_linux.cpp, later clock_sources_windows.cpp) lists its clocks and
// supplies the few OS services the probe needs (a reference clock, pinning a thread to a core).
// Everything else in the probe (statistics, drift, output) is portable and knows no OS.
//
// A source reads raw ticks (nanoseconds for most clocks, TSC cycles, SDL counter units); the
// statistics work on those integers exactly and TickScale converts to nanoseconds at the edges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace loopscope {

// ns = ticks * num / den, an exact ratio (1/1 for nanosecond clocks, 1e9/f for a counter of
// frequency f) so that no precision is lost before the figures are printed.
struct TickScale {
    std::int64_t num = 1;
    std::int64_t den = 1;

    double ns_per_tick() const { return static_cast<double>(num) / static_cast<double>(den); }
    double ticks_per_second() const {
        return 1e9 * static_cast<double>(den) / static_cast<double>(num);
    }
    // ticks * num / den truncated toward zero, without the overflow of ticks * num (a TSC value
    // times 1e9 passes 2^63 after about three seconds at 3 GHz). Split ticks into whole
    // multiples of den and a remainder: ticks * num / den = (ticks / den) * num +
    // (ticks % den) * num / den, where the first term is exact and the second stays below num.
    // The remainder's product fits whenever num * den < 2^63 (every scale up to a 9 GHz counter
    // with num = 1e9); past that it is taken in long double, off by under a nanosecond. Plain
    // C++: no 128-bit integer, which not every compiler has.
    std::int64_t to_ns(std::int64_t ticks) const {
        const std::int64_t whole = ticks / den;
        const std::int64_t rest = ticks % den;  // same sign as ticks, |rest| < den
        const std::int64_t rest_ns =
            (rest == 0 ||
             (rest > 0 ? rest : -rest) <= std::numeric_limits<std::int64_t>::max() / num)
                ? rest * num / den
                : static_cast<std::int64_t>(static_cast<long double>(rest) * num / den);
        return whole * num + rest_ns;
    }
    double to_ns_double(std::int64_t ticks) const {
        return static_cast<double>(ticks) * ns_per_tick();
    }
};

using ClockReadFn = std::int64_t (*)();
// Reads the clock n times back to back into out[0..n): the stream the granularity comes from.
using ClockFillFn = void (*)(std::int64_t* out, std::size_t n);
// Reads the clock n times back to back and returns a value that depends on every read, so the
// compiler keeps them all: the loop the read cost is timed on (no stores in the way).
using ClockSpinFn = std::int64_t (*)(std::size_t n);

struct ClockSource {
    std::string name;             // as the programmer writes it, e.g. "CLOCK_MONOTONIC_RAW"
    std::string description;      // what it is, in one line
    std::string backing;          // which OS clock or instruction stands behind it
    bool claims_steady = false;   // the API promises it never goes back (is_steady, MONOTONIC)
    double resolution_ns = -1.0;  // as the API reports it; negative when it reports none
    std::string resolution_from;  // which call reported it, e.g. "clock_getres"
    TickScale scale;              // ticks to nanoseconds
    // The TSC has no reported frequency we trust: the probe calibrates `scale` against the
    // reference clock and fills in the resolution from it.
    bool calibrate_scale = false;
    // For a coarse clock that holds a finer clock's value as of its last step (the kernel tick):
    // that finer clock, in nanoseconds. Reading both tells how late a step became visible.
    ClockReadFn sampled_from = nullptr;
    ClockReadFn read = nullptr;
    // A read that waits for every instruction before it (lfence;rdtsc) for a clock whose plain
    // read may execute ahead of earlier loads (rdtsc); nullptr when `read` is already ordered
    // (rdtscp, clock_gettime, whose vDSO orders its own counter read). Ordering across cores is
    // judged with this read: an unordered read can see a value another core published after it
    // and still be taken "earlier", which is out-of-order execution, not a clock going back.
    ClockReadFn ordered_read = nullptr;
    std::string ordered_read_name;  // how ordered_read reads, e.g. "lfence;rdtsc"
    ClockFillFn fill = nullptr;
    ClockSpinFn spin = nullptr;
};

// The clock sources this build can read on this machine, in the order they are reported.
std::vector<ClockSource> clock_sources();

// The clock the others are judged against: free of NTP slewing (CLOCK_MONOTONIC_RAW on Linux).
std::int64_t reference_now_ns();
const char* reference_clock_name();

// CPUs this process may run on, and pinning the calling thread to one of them (false when the
// OS refuses): used to read a clock from two different cores at once.
std::vector<int> usable_cpus();
bool pin_current_thread(int cpu);

// The OS clocks whose readings a source's readings match (same epoch and rate, read between two
// readings of the OS clock), e.g. "CLOCK_MONOTONIC, CLOCK_BOOTTIME"; empty when none does.
// Used to report what really backs a library clock instead of assuming it.
std::string matching_os_clocks(ClockReadFn read, TickScale scale);

}  // namespace loopscope
