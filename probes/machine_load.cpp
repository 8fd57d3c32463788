// What two load snapshots say: shares of the CPU time, warnings and the probe output's section.
#include "probes/machine_load.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/markdown_table.hpp"

namespace loopscope {

namespace {
// Thresholds of "busy": other processes taking a quarter of the machine leave a probe's threads
// waiting for a CPU often enough to show in the tails; a load average above the CPU count means
// runnable threads queue; 5 % steal is a host visibly short of CPU for this guest.
constexpr double kOtherShareBusy = 0.25;
constexpr double kStealShareBusy = 0.05;

std::string share(double s) {
    return fmt::format("{:.1f}%", s * 100.0);
}
std::string load_text(const LoadSnapshot& s) {
    if (!s.valid || s.load_1m < 0)
        return "unknown";
    return fmt::format("{:.2f} / {:.2f} / {:.2f}", s.load_1m, s.load_5m, s.load_15m);
}
}  // namespace

MachineLoad machine_load_between(const LoadSnapshot& before, const LoadSnapshot& after) {
    MachineLoad m;
    m.before = before;
    m.after = after;
    if (!before.valid || !after.valid)
        return m;
    const std::int64_t total = after.cpu_total_ticks - before.cpu_total_ticks;
    if (total <= 0)
        return m;
    const std::int64_t idle = after.cpu_idle_ticks - before.cpu_idle_ticks;
    const std::int64_t steal = after.cpu_steal_ticks - before.cpu_steal_ticks;
    const std::int64_t self = after.self_ticks - before.self_ticks;
    // Busy = neither idle nor stolen; what this process did is not "other" load.
    const std::int64_t other = std::max<std::int64_t>(0, total - idle - steal - self);
    const auto t = static_cast<double>(total);
    m.measured = true;
    m.interval_ticks = total;
    m.other_share = static_cast<double>(other) / t;
    m.self_share = static_cast<double>(std::max<std::int64_t>(self, 0)) / t;
    m.steal_share = static_cast<double>(std::max<std::int64_t>(steal, 0)) / t;
    return m;
}

LoadBusy machine_load_busy(const MachineLoad& load, int cpus) {
    LoadBusy b;
    b.other = load.measured && load.other_share >= kOtherShareBusy;
    b.steal = load.measured && load.steal_share >= kStealShareBusy;
    const double peak = std::max(load.before.load_1m, load.after.load_1m);
    b.queueing = cpus > 0 && peak > static_cast<double>(cpus);
    return b;
}

std::vector<std::string> machine_load_warnings(const MachineLoad& load, int cpus) {
    std::vector<std::string> w;
    const LoadBusy busy = machine_load_busy(load, cpus);
    if (busy.other) {
        w.push_back(fmt::format(
            "the machine was busy: other processes used {} of all CPU time during the run "
            "(this one {}): waits and read costs include time spent waiting for a CPU; rerun "
            "on a quiet machine before trusting tails and recommendations.",
            share(load.other_share), share(load.self_share)));
    }
    if (busy.steal) {
        w.push_back(fmt::format(
            "the hypervisor ran other work on this guest's CPUs for {} of the run (steal "
            "time): wake-ups and frame times may be late by a host's time slice; measure on "
            "bare metal or a less loaded host.",
            share(load.steal_share)));
    }
    if (busy.queueing) {
        w.push_back(fmt::format(
            "the 1-minute load average was {:.2f} before and {:.2f} after on {} CPUs: runnable "
            "threads were queueing for a CPU.",
            load.before.load_1m, load.after.load_1m, cpus));
    }
    return w;
}

TextSection machine_load_section(const MachineLoad& load, int cpus, bool timers_measured) {
    MarkdownTable t;
    t.add_column("machine load", MarkdownTable::Align::left);
    t.add_column("value", MarkdownTable::Align::left);
    t.add_row({"load average before (1/5/15 min)", load_text(load.before)});
    t.add_row({"load average after (1/5/15 min)", load_text(load.after)});
    if (load.measured) {
        t.add_row({"CPU time of other processes", share(load.other_share)});
        t.add_row({"CPU time of this process", share(load.self_share)});
        t.add_row({"steal time", share(load.steal_share)});
        t.add_row({"from", fmt::format("{} ({} ticks of CPU time between the readings)",
                                       load.after.from, load.interval_ticks)});
    } else {
        t.add_row({"CPU time", "not measured (counters unreadable)"});
    }
    TextSection s;
    s.title = "Machine load";
    s.add_heading("Machine load during the run");
    s.add_table(std::move(t));
    auto w = machine_load_warnings(load, cpus);
    if (!w.empty()) {
        if (timers_measured) {
            w.push_back(
                "the limiter recommendation and the periodic wake-up latency above were "
                "measured in two runs, both under this load: runs that agree were stable under "
                "it, not necessarily on a quiet machine. Rerun `loopscope probe timers` when the "
                "machine is quiet and compare the two with `loopscope probe compare` before "
                "relying on them.");
        }
        s.add_paragraph("Warnings:");
        s.add_bullets(std::move(w));
    }
    return s;
}

std::string machine_load_markdown(const MachineLoad& load, int cpus, bool timers_measured) {
    return render_markdown(machine_load_section(load, cpus, timers_measured));
}

}  // namespace loopscope
