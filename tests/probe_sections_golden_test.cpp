// The Markdown of each probe section (machine context, clock sources, timers, machine load), as
// `loopscope probe` and `loopscope diagnose` print it, compared byte for byte with the text in
// tests/golden/probe_sections/. The inputs are fixed: a real quick probe run of a KVM guest
// (probe.json, its results read back into the structs) and made-up results that reach the
// branches a quiet Linux machine never takes (every context warning, a busy machine, a refused
// timer slack, empty sections). A change to a writer that alters one byte fails here; the
// text it now writes is left beside the test binary to compare with.
#include <gtest/gtest.h>

#include <string>

#include "core/units.hpp"
#include "probes/clock_report.hpp"
#include "probes/machine_load.hpp"
#include "probes/probe_json.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_report.hpp"
#include "tests/test_support.hpp"

using namespace loopscope;

namespace {

std::string golden_dir() {
    return std::string(LOOPSCOPE_SOURCE_DIR) + "/tests/golden/probe_sections";
}

// Compares with tests/golden/probe_sections/NAME; on a difference the text written is saved as
// NAME.actual in the working folder (the test binary's) and named in the failure.
void expect_golden(const std::string& name, const std::string& actual) {
    const std::string expected = test::read_text(golden_dir() + "/" + name);
    if (actual != expected) {
        test::write_text(name + ".actual", actual);
    }
    // Not EXPECT_EQ: a whole section printed twice would bury the file name.
    EXPECT_TRUE(actual == expected)
        << name << " differs; the text written is in " << name << ".actual";
}

ProbeDocument real_run() {
    return read_probe_results(golden_dir() + "/probe.json");
}

constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kMs = 1'000'000;

}  // namespace

TEST(ProbeSectionsGolden, ARealRunReadsBackIntoTheSameMarkdown) {
    const ProbeDocument d = real_run();
    ASSERT_TRUE(d.context && d.clocks && d.timers && d.load);
    expect_golden("real_context.md", context_section_markdown(*d.context));
    expect_golden("real_clocks.md", clocks_section_markdown(*d.clocks));
    expect_golden("real_timers.md", render_timer_markdown(*d.timers));
    expect_golden("real_load.md", machine_load_markdown(*d.load, d.context->logical_cpus, true));
}

TEST(ProbeSectionsGolden, AContextWithEveryWarning) {
    SystemContext c;
    c.os = "Example OS 1";
    c.kernel = "Linux 5.10.0 x86_64";
    c.logical_cpus = 4;
    c.usable_cpus = 1;
    c.clocksource = "hpet";
    c.clocksources_available = {"hpet", "acpi_pm", "tsc"};
    c.kernel_tick_ns = 10 * kMs;
    c.kernel_tick_from = "clock_getres(CLOCK_MONOTONIC_COARSE)";
    c.hypervisor = true;
    c.hypervisor_name = "Xen";
    c.has_tsc = true;
    c.build_type = "Debug";
    c.compiler = "GCC 12.2";
    c.sanitizers = {"address", "undefined"};
    expect_golden("made_up_context.md", context_section_markdown(c));
    // Nothing known: every row says so and no warning is given.
    expect_golden("unknown_context.md", context_section_markdown(SystemContext{}));
}

TEST(ProbeSectionsGolden, ABusyMachineAndUnreadableCounters) {
    LoadSnapshot before, after;
    before.valid = after.valid = true;
    before.load_1m = 3.5;
    before.load_5m = 2.25;
    before.load_15m = 1.0;
    after.load_1m = 4.75;
    after.load_5m = 3.0;
    after.load_15m = 1.5;
    after.cpu_total_ticks = 1000;
    after.cpu_idle_ticks = 200;
    after.cpu_steal_ticks = 100;
    after.self_ticks = 150;
    after.from = "/proc/stat";
    const MachineLoad busy = machine_load_between(before, after);
    expect_golden("busy_load_timers.md", machine_load_markdown(busy, 2, true));
    expect_golden("busy_load_clocks.md", machine_load_markdown(busy, 2, false));
    expect_golden("unmeasured_load.md", machine_load_markdown(MachineLoad{}, 2, true));
}

TEST(ProbeSectionsGolden, TimerSectionsLeftOutRefusedOrEmpty) {
    // Its own rows, though shaped like probe_json_test's sample: these values are frozen with
    // the golden text, so a change to the other fixture must not change this file's output.
    TimerReport r;
    r.quick = true;
    r.bound_ns = 500 * kUs;
    r.elapsed_ns = 2'345 * kMs;
    PeriodicRow p;
    p.scheduling = "SCHED_OTHER";
    p.interval_ns = kMs;
    p.latency = summarize({50 * kUs, 70 * kUs, 2 * kMs});
    p.histogram = make_histogram({50 * kUs, 70 * kUs, 2 * kMs}, linear_edges_ns(kUs, 1000));
    p.log_histogram = make_histogram({50 * kUs, 70 * kUs, 2 * kMs}, log_edges_ns(20 * kMs));
    p.note = "the two halves agree";
    p.verdict = "fair: 2.000 ms late at worst";
    r.periodic.push_back(p);
    PeriodicRow refused;
    refused.scheduling = "SCHED_FIFO 80";
    refused.realtime = true;
    refused.note = "not shown: no samples";
    refused.verdict = "refused: needs CAP_SYS_NICE";
    r.periodic.push_back(refused);
    r.slack_note = "setting the timer slack was refused";
    expect_golden("refused_timers.md", render_timer_markdown(r));
    // Nothing measured at all: only the run's length is left.
    TimerReport empty;
    empty.elapsed_ns = 1 * kMs;
    expect_golden("empty_timers.md", render_timer_markdown(empty));
}

TEST(ProbeSectionsGolden, AClockProbeWithNoClocks) {
    ClockProbeResult r;
    r.elapsed_ns = 3 * kMs;
    r.min_reads = 1000;
    r.reference_clock = "CLOCK_MONOTONIC_RAW";
    expect_golden("no_clocks.md", clocks_section_markdown(r));
}
