// The machine a probe ran on: what decides how its clocks and timers behave (OS, kernel,
// clocksource, kernel tick, timer slack, hypervisor, build type). Collected by the per-OS file
// (system_info_linux.cpp), shown before any result (context_section()), and turned into
// warnings that say what to do by context_warnings(). Every probe prints the same context.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/markdown_table.hpp"
#include "probes/platform_terms.hpp"

namespace loopscope {

// What CPUID says (x86 only; all false elsewhere).
struct CpuFeatures {
    bool x86 = false;
    bool has_tsc = false;
    bool invariant_tsc = false;     // CPUID.80000007H:EDX[8]: constant rate, runs in every C-state
    bool has_rdtscp = false;        // CPUID.80000001H:EDX[27]
    bool hypervisor = false;        // CPUID.1:ECX[31]
    std::string hypervisor_vendor;  // CPUID.40000000H signature, e.g. "KVMKVMKVM"
    std::string brand;              // CPUID.80000002H-80000004H
};
CpuFeatures read_cpu_features();

// Windows' timer resolution as NtQueryTimerResolution reports it, in nanoseconds. Windows calls
// the coarsest interval the timer interrupt can be set to the "minimum" resolution (15.625 ms on
// most machines) and the finest the "maximum" (0.5 ms); current is the interval in effect, the
// finest that a process has asked for (timeBeginPeriod, NtSetTimerResolution).
struct TimerResolution {
    std::int64_t min_ns = -1;            // coarsest
    std::int64_t max_ns = -1;            // finest
    std::int64_t current_ns = -1;        // when the context was read, before the probes
    std::int64_t current_after_ns = -1;  // once the probes ended; -1: not read
    friend bool operator==(const TimerResolution&, const TimerResolution&) = default;
};
// NtQueryTimerResolution answers in 100 ns units.
TimerResolution timer_resolution_from_100ns(std::uint32_t min_100ns, std::uint32_t max_100ns,
                                            std::uint32_t current_100ns);
// Reads it now (per-OS file): nullopt where the OS has no such setting (Linux) or the call is
// missing.
std::optional<TimerResolution> read_timer_resolution();

// Since Windows 11 a process whose windows are minimised or hidden loses its raised timer
// resolution unless it opts out: ProcessPowerThrottling's PROCESS_POWER_THROTTLING_IGNORE_
// TIMER_RESOLUTION bit (0x4) set in the control mask and clear in the state mask. What the two
// masks of GetProcessInformation(ProcessPowerThrottling) say, in words: "opted out ...",
// "opted in ..." or "not set ...".
inline constexpr std::uint32_t kIgnoreTimerResolutionBit = 0x4;
std::string timer_throttling_text(std::uint32_t control_mask, std::uint32_t state_mask);

struct SystemContext {
    // The OS measured: the words of the context, clocks and timers text follow from it. A
    // document without it was written on Linux (the only OS before Windows was added).
    Platform platform = Platform::Linux;
    std::string os;      // e.g. "Debian GNU/Linux 12 (bookworm)"
    std::string kernel;  // e.g. "Linux 6.1.0-18-amd64 x86_64"
    std::string cpu_model;
    int logical_cpus = 0;
    int usable_cpus = 0;      // the CPUs this process may run on
    std::string clocksource;  // the kernel's current clocksource; empty when unknown
    std::vector<std::string> clocksources_available;
    std::int64_t timer_slack_ns = -1;  // -1: unknown
    std::int64_t kernel_tick_ns = -1;  // resolution of the coarse clocks; -1: unknown
    std::string kernel_tick_from;      // where kernel_tick_ns comes from
    int config_hz = -1;                // the kernel's CONFIG_HZ as built; -1: unknown
    std::string config_hz_from;        // the kernel config it was read from
    std::optional<TimerResolution> timer_resolution;  // Windows only
    // Windows only: timer_throttling_text of this process as found, or why it is unknown
    // ("unavailable: ..."); empty on Linux.
    std::string timer_throttling;
    // Windows only: the active power plan (PowerGetActiveScheme), "Balanced (381b4222-...)", or
    // why it is unknown ("unavailable: ..."); empty on Linux.
    std::string power_plan;
    bool hypervisor = false;
    std::string hypervisor_name;  // "KVM", "Hyper-V", ... or the raw CPUID signature
    bool has_tsc = false;
    bool invariant_tsc = false;
    std::string build_type;  // CMake build type of this program
    std::string compiler;
    std::vector<std::string> sanitizers;  // compiled in, e.g. "address"
    friend bool operator==(const SystemContext&, const SystemContext&) = default;
};

// Reads the running machine (per-OS file).
SystemContext collect_system_context();

// The fields every OS fills the same way, for the per-OS collect_system_context: CPUID's
// hypervisor and TSC flags, this program's build type and compiler.
void fill_cpu_and_build(SystemContext& context, const CpuFeatures& cpu);

// "host (Linux 6.1.0 x86_64)": the machine a trace was recorded on, for its `machine` metadata
// (per-OS file).
std::string machine_description();

// The context as a two-column Markdown table ("| context | value |").
std::string context_markdown(const SystemContext& context);

// "Context": the table and the warnings as a list, what every probe shows first.
TextSection context_section(const SystemContext& context);
// That section as Markdown, as `loopscope probe` prints it.
std::string context_section_markdown(const SystemContext& context);

// Warnings about things that distort timing, each saying what to do. Pure: depends only on the
// context, so it is tested with made-up contexts.
std::vector<std::string> context_warnings(const SystemContext& context);

// "KVMKVMKVM" -> "KVM" and so on; the signature itself when unknown.
std::string hypervisor_name(const std::string& cpuid_signature);

}  // namespace loopscope
