// How busy the machine was while a probe measured it: the load average, the CPU time other
// processes used and, under a hypervisor, the time the host ran someone else (steal), read
// before and after the run. The per-OS file (machine_load_linux.cpp) takes the snapshots; what
// they mean (shares of the CPU time between them, warnings) is pure and tested on made-up ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/markdown_table.hpp"

namespace loopscope {

// One reading of the machine's counters. CPU times are in the OS's clock ticks (USER_HZ),
// summed over every CPU; only differences between two snapshots mean anything.
struct LoadSnapshot {
    bool valid = false;
    double load_1m = -1.0;  // load averages; negative: unknown
    double load_5m = -1.0;
    double load_15m = -1.0;
    std::int64_t cpu_total_ticks = 0;  // every state (user ... steal)
    std::int64_t cpu_idle_ticks = 0;   // idle + iowait
    std::int64_t cpu_steal_ticks = 0;  // time the hypervisor ran something else
    std::int64_t self_ticks = 0;       // this process (all its threads)
    std::string from;                  // where the counters were read
    friend bool operator==(const LoadSnapshot&, const LoadSnapshot&) = default;
};

// Reads the counters now (per-OS file). valid = false where they cannot be read.
LoadSnapshot read_load_snapshot();

// The CPU time between two snapshots, as shares of all CPU time in that interval.
struct MachineLoad {
    LoadSnapshot before;
    LoadSnapshot after;
    bool measured = false;     // both snapshots valid and some CPU time passed
    double other_share = 0.0;  // busy time of other processes (busy - this process) / total
    double self_share = 0.0;   // this process / total
    double steal_share = 0.0;  // steal / total
    std::int64_t interval_ticks = 0;
    friend bool operator==(const MachineLoad&, const MachineLoad&) = default;
};

MachineLoad machine_load_between(const LoadSnapshot& before, const LoadSnapshot& after);

// Which kinds of "busy" a run met, each against its threshold in machine_load.cpp. Pure, so
// `probe compare` marks a run that was busy when the other was not by the same rule as the
// warnings below.
struct LoadBusy {
    bool other = false;     // other processes took a large share of the CPU time
    bool steal = false;     // the hypervisor ran other work on this guest's CPUs
    bool queueing = false;  // the 1-minute load average exceeded the CPU count
    bool any() const { return other || steal || queueing; }
};
LoadBusy machine_load_busy(const MachineLoad& load, int cpus);

// Warnings when the machine was busy enough to distort timing, each with its figures and what
// to do; empty on a quiet machine. cpus: logical CPUs, for the load average.
std::vector<std::string> machine_load_warnings(const MachineLoad& load, int cpus);

// "Machine load during the run": a before/after table and the warnings. timers_measured: the
// run included the timer probe, whose limiter recommendation and periodic latency are measured
// in runs that all share this load; on a busy machine the section then says so.
TextSection machine_load_section(const MachineLoad& load, int cpus, bool timers_measured = false);
// That section as Markdown, as `loopscope probe` prints it.
std::string machine_load_markdown(const MachineLoad& load, int cpus, bool timers_measured = false);

}  // namespace loopscope
