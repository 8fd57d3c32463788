// The clock sources of Windows: QueryPerformanceCounter, GetTickCount64, timeGetTime, the system
// time (GetSystemTimePreciseAsFileTime and its coarse sibling), the interrupt time and unbiased
// interrupt time (QueryInterruptTime[Precise], QueryUnbiasedInterruptTime[Precise], looked up at
// run time: the Query*InterruptTime* calls exist only from Windows 10 on), the TSC and
// std::chrono's clocks. Plus the OS services the probe needs: QPC as the reference, and pinning
// a thread to a CPU.
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <windows.h>
// After windows.h, whose types it uses.
#include <mmsystem.h>

#include <fmt/format.h>

#include <chrono>

#include "probes/clock_read_helpers.hpp"
#include "probes/clock_source.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define LOOPSCOPE_X86 1
#endif

namespace loopscope {

namespace {

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

// FILETIME counts 100 ns intervals since 1601-01-01; std::chrono::system_clock counts from
// 1970-01-01: 11'644'473'600 s apart.
constexpr std::int64_t kFiletimeTo1970_100ns = 116'444'736'000'000'000;

std::int64_t read_qpc() {
    LARGE_INTEGER t;
    ::QueryPerformanceCounter(&t);
    return static_cast<std::int64_t>(t.QuadPart);
}

std::int64_t qpc_frequency() {
    static const std::int64_t hz = [] {
        LARGE_INTEGER f;
        return ::QueryPerformanceFrequency(&f) && f.QuadPart > 0
                   ? static_cast<std::int64_t>(f.QuadPart)
                   : std::int64_t{0};
    }();
    return hz;
}

TickScale qpc_scale() {
    return reduced(1'000'000'000, qpc_frequency());
}

std::int64_t read_qpc_ns() {
    static const TickScale scale = qpc_scale();
    return scale.to_ns(read_qpc());
}

std::int64_t read_tick_count64() {
    return static_cast<std::int64_t>(::GetTickCount64());
}

// timeGetTime is 32 bits of milliseconds and wraps after 49.7 days; a probe lasts seconds, so a
// wrap inside one would show as one step back, which the probe reports.
std::int64_t read_time_get_time() {
    return static_cast<std::int64_t>(::timeGetTime());
}

std::int64_t filetime_value(const FILETIME& f) {
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(f.dwHighDateTime) << 32) |
                                     f.dwLowDateTime);
}

std::int64_t read_system_time_precise() {
    FILETIME f;
    ::GetSystemTimePreciseAsFileTime(&f);
    return filetime_value(f);
}

std::int64_t read_system_time() {
    FILETIME f;
    ::GetSystemTimeAsFileTime(&f);
    return filetime_value(f);
}

// The same time in ns since 1970, the epoch system_clock uses, to tell what backs a library
// clock; and in ns since 1601 for the coarse system time's sampled_from.
std::int64_t read_system_time_precise_unix_ns() {
    return (read_system_time_precise() - kFiletimeTo1970_100ns) * 100;
}
std::int64_t read_system_time_precise_ns() {
    return read_system_time_precise() * 100;
}

// The interrupt-time calls, from the DLL that has them on this Windows (or none).
using InterruptTimeFn = void(WINAPI*)(PULONGLONG);
using UnbiasedFn = BOOL(WINAPI*)(PULONGLONG);

template <class Fn>
Fn lookup(const char* name) {
    for (const char* dll : {"kernelbase.dll", "kernel32.dll"}) {
        if (HMODULE m = ::GetModuleHandleA(dll)) {
            if (FARPROC p = ::GetProcAddress(m, name)) {
                // Through void(*)(): GCC's -Wcast-function-type accepts that route on purpose.
                return reinterpret_cast<Fn>(reinterpret_cast<void (*)()>(p));
            }
        }
    }
    return nullptr;
}

struct InterruptTimeCalls {
    InterruptTimeFn interrupt = lookup<InterruptTimeFn>("QueryInterruptTime");
    InterruptTimeFn interrupt_precise = lookup<InterruptTimeFn>("QueryInterruptTimePrecise");
    UnbiasedFn unbiased = lookup<UnbiasedFn>("QueryUnbiasedInterruptTime");
    InterruptTimeFn unbiased_precise = lookup<InterruptTimeFn>("QueryUnbiasedInterruptTimePrecise");
};

const InterruptTimeCalls& interrupt_calls() {
    static const InterruptTimeCalls calls;
    return calls;
}

std::int64_t read_interrupt_time() {
    ULONGLONG t = 0;
    interrupt_calls().interrupt(&t);
    return static_cast<std::int64_t>(t);
}
std::int64_t read_interrupt_time_precise() {
    ULONGLONG t = 0;
    interrupt_calls().interrupt_precise(&t);
    return static_cast<std::int64_t>(t);
}
std::int64_t read_interrupt_time_precise_ns() {
    return read_interrupt_time_precise() * 100;
}
std::int64_t read_unbiased_interrupt_time() {
    ULONGLONG t = 0;
    interrupt_calls().unbiased(&t);
    return static_cast<std::int64_t>(t);
}
std::int64_t read_unbiased_interrupt_time_precise() {
    ULONGLONG t = 0;
    interrupt_calls().unbiased_precise(&t);
    return static_cast<std::int64_t>(t);
}
std::int64_t read_unbiased_interrupt_time_precise_ns() {
    return read_unbiased_interrupt_time_precise() * 100;
}

std::string readings_match(ClockReadFn read, TickScale scale) {
    const std::string m = matching_os_clocks(read, scale);
    return m.empty() ? "readings match no Windows clock tried" : "readings match " + m;
}

template <class Clock>
ClockSource chrono_source(std::string name, std::string description) {
    ClockSource s = chrono_clock_source<Clock>(std::move(name), std::move(description));
    s.backing = readings_match(s.read, s.scale);
    return s;
}

// A clock counted in 100 ns units (FILETIME, interrupt time).
ClockSource hundred_ns_source(const char* name, const char* description, const char* backing,
                              bool steady) {
    ClockSource s;
    s.name = name;
    s.description = description;
    s.backing = backing;
    s.claims_steady = steady;
    s.scale = {100, 1};
    s.resolution_ns = 100;
    s.resolution_from = "its unit (100 ns)";
    return s;
}

ClockSource millisecond_source(const char* name, const char* description, const char* backing) {
    ClockSource s;
    s.name = name;
    s.description = description;
    s.backing = backing;
    s.claims_steady = true;
    s.scale = {1'000'000, 1};
    s.resolution_ns = 1e6;
    s.resolution_from = "its unit (1 ms)";
    return s;
}

}  // namespace

std::vector<ClockSource> clock_sources() {
    using namespace std::chrono;
    std::vector<ClockSource> v;
    v.push_back(chrono_source<steady_clock>("std::chrono::steady_clock",
                                            "the C++ clock meant for measuring intervals"));
    v.push_back(chrono_source<high_resolution_clock>(
        "std::chrono::high_resolution_clock", "the C++ clock with the shortest tick on offer"));
    v.push_back(chrono_source<system_clock>("std::chrono::system_clock",
                                            "wall-clock time; jumps when the time is set"));

    if (const std::int64_t hz = qpc_frequency(); hz > 0) {
        ClockSource s;
        s.name = "QueryPerformanceCounter";
        s.description = fmt::format(
            "Windows' high-resolution counter, {} Hz (the reference the others are judged by)", hz);
        s.backing = "QueryPerformanceCounter, rate from QueryPerformanceFrequency";
        s.claims_steady = true;
        s.scale = qpc_scale();
        s.resolution_ns = 1e9 / static_cast<double>(hz);
        s.resolution_from = "QueryPerformanceFrequency";
        set_reader<read_qpc>(s);
        v.push_back(s);
    }

    v.push_back(millisecond_source("GetTickCount64", "milliseconds since boot, updated every tick",
                                   "the kernel's tick count"));
    set_reader<read_tick_count64>(v.back());
    v.push_back(millisecond_source("timeGetTime",
                                   "winmm's milliseconds since boot (32 bits: wraps at 49.7 days)",
                                   "the interrupt time; its steps follow the timer resolution"));
    set_reader<read_time_get_time>(v.back());

    v.push_back(hundred_ns_source("GetSystemTimePreciseAsFileTime",
                                  "wall-clock time (UTC) in 100 ns units since 1601, precise",
                                  "the system time interpolated with QPC", false));
    set_reader<read_system_time_precise>(v.back());
    v.push_back(hundred_ns_source("GetSystemTimeAsFileTime",
                                  "wall-clock time (UTC) as of the last timer tick",
                                  "the system time at the last tick", false));
    set_reader<read_system_time>(v.back());
    v.back().sampled_from = read_system_time_precise_ns;

    const InterruptTimeCalls& calls = interrupt_calls();
    // Each looked up at run time; a Windows (or wine) without it lists it as unavailable by
    // leaving it out of the table, and says so in its neighbour's description.
    const auto missing = [](const char* name) {
        return fmt::format("{} is not available on this Windows", name);
    };
    if (calls.interrupt) {
        v.push_back(hundred_ns_source("QueryInterruptTime",
                                      "time since boot including sleep, as of the last timer tick",
                                      "the interrupt time (KUSER_SHARED_DATA)", true));
        set_reader<read_interrupt_time>(v.back());
        if (calls.interrupt_precise)
            v.back().sampled_from = read_interrupt_time_precise_ns;
    }
    if (calls.interrupt_precise) {
        v.push_back(hundred_ns_source("QueryInterruptTimePrecise",
                                      "time since boot including sleep, interpolated with QPC",
                                      "the interrupt time read with QPC", true));
        set_reader<read_interrupt_time_precise>(v.back());
    }
    if (calls.unbiased) {
        v.push_back(hundred_ns_source(
            "QueryUnbiasedInterruptTime",
            "time since boot without sleep and hibernation, as of the last timer tick",
            "the interrupt time less the time suspended", true));
        set_reader<read_unbiased_interrupt_time>(v.back());
        if (calls.unbiased_precise)
            v.back().sampled_from = read_unbiased_interrupt_time_precise_ns;
    }
    if (calls.unbiased_precise) {
        v.push_back(hundred_ns_source(
            "QueryUnbiasedInterruptTimePrecise",
            "time since boot without sleep and hibernation, interpolated with QPC",
            "the unbiased interrupt time read with QPC", true));
        set_reader<read_unbiased_interrupt_time_precise>(v.back());
    }
    std::string absent;
    for (const auto& [have, name] :
         {std::pair{calls.interrupt != nullptr, "QueryInterruptTime"},
          std::pair{calls.interrupt_precise != nullptr, "QueryInterruptTimePrecise"},
          std::pair{calls.unbiased != nullptr, "QueryUnbiasedInterruptTime"},
          std::pair{calls.unbiased_precise != nullptr, "QueryUnbiasedInterruptTimePrecise"}}) {
        if (!have)
            absent += (absent.empty() ? "" : "; ") + missing(name);
    }
    if (!absent.empty())
        v.back().description += " (" + absent + ")";

#ifdef LOOPSCOPE_X86
    add_tsc_sources<read_rdtsc, read_rdtsc_ordered, read_rdtscp>(v, reference_clock_name());
#endif
    return v;
}

std::int64_t reference_now_ns() {
    return read_qpc_ns();
}
const char* reference_clock_name() {
    return "QueryPerformanceCounter";
}

std::vector<int> usable_cpus() {
    std::vector<int> cpus;
    DWORD_PTR process_mask = 0, system_mask = 0;
    if (!::GetProcessAffinityMask(::GetCurrentProcess(), &process_mask, &system_mask))
        return cpus;
    for (int i = 0; i < static_cast<int>(8 * sizeof process_mask); ++i) {
        if ((process_mask >> i) & 1u)
            cpus.push_back(i);
    }
    return cpus;
}

bool pin_current_thread(int cpu) {
    if (cpu < 0 || cpu >= static_cast<int>(8 * sizeof(DWORD_PTR)))
        return false;
    return ::SetThreadAffinityMask(::GetCurrentThread(), DWORD_PTR{1} << cpu) != 0;
}

std::string matching_os_clocks(ClockReadFn read, TickScale scale) {
    std::vector<NamedClock> candidates{
        {"QueryPerformanceCounter", read_qpc_ns},
        {"GetSystemTimePreciseAsFileTime", read_system_time_precise_unix_ns},
    };
    if (interrupt_calls().interrupt_precise)
        candidates.push_back({"QueryInterruptTimePrecise", read_interrupt_time_precise_ns});
    if (interrupt_calls().unbiased_precise) {
        candidates.push_back(
            {"QueryUnbiasedInterruptTimePrecise", read_unbiased_interrupt_time_precise_ns});
    }
    return clocks_matching(candidates, read, scale);
}

}  // namespace loopscope
