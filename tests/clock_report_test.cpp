// What the clock probe says in words: the context's warnings and the findings drawn from
// results, on made-up contexts and results.
#include <gtest/gtest.h>

#include <algorithm>

#include "probes/clock_report.hpp"
#include "probes/clock_stats.hpp"
#include "probes/system_info.hpp"

using namespace loopscope;

namespace {
bool any_contains(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

SystemContext quiet_machine() {
    SystemContext c;
    c.clocksource = "tsc";
    c.clocksources_available = {"tsc", "hpet", "acpi_pm"};
    c.build_type = "Release";
    c.has_tsc = true;
    c.invariant_tsc = true;
    c.kernel_tick_ns = 1'000'000;
    c.usable_cpus = 8;
    return c;
}

ClockResult result(const std::string& name, double cost_ns, bool steady = true) {
    ClockResult r;
    r.name = name;
    r.read_cost_ns = cost_ns;
    r.claims_steady = steady;
    return r;
}
}  // namespace

TEST(ClockContext, AQuietBareMetalReleaseMachineHasNoWarnings) {
    EXPECT_TRUE(context_warnings(quiet_machine()).empty());
}

TEST(ClockContext, ASlowClocksourceWarnsAndSaysHowToSwitchToTheTsc) {
    SystemContext c = quiet_machine();
    c.clocksource = "hpet";
    const auto w = context_warnings(c);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_NE(w[0].find("every clock_gettime is a system call"), std::string::npos);
    EXPECT_NE(w[0].find("echo tsc | sudo tee"), std::string::npos);
    c.clocksources_available = {"hpet", "acpi_pm"};
    EXPECT_EQ(context_warnings(c)[0].find("echo tsc"), std::string::npos);
}

TEST(ClockContext, DebugBuildsHypervisorsCoarseTicksAndOneCpuAreWarnedAbout) {
    SystemContext c = quiet_machine();
    c.build_type = "Debug";
    c.hypervisor = true;
    c.hypervisor_name = "KVM";
    c.kernel_tick_ns = 4'000'000;
    c.usable_cpus = 1;
    c.invariant_tsc = false;
    const auto w = context_warnings(c);
    EXPECT_EQ(w.size(), 5u);
    EXPECT_TRUE(any_contains(w, "Debug build"));
    EXPECT_TRUE(any_contains(w, "running under KVM"));
    EXPECT_TRUE(any_contains(w, "advance only every 4.000 ms"));
    EXPECT_TRUE(any_contains(w, "only one CPU"));
    EXPECT_TRUE(any_contains(w, "TSC is not invariant"));
}

TEST(ClockContext, TheContextTableNamesClocksourceTickAndBuild) {
    SystemContext c = quiet_machine();
    c.kernel_tick_ns = 4'000'000;
    c.kernel_tick_from = "clock_getres(CLOCK_MONOTONIC_COARSE)";
    const std::string md = context_markdown(c);
    EXPECT_NE(md.find("| clocksource | tsc (available: tsc, hpet, acpi_pm)"), std::string::npos)
        << md;
    EXPECT_NE(md.find("4.000 ms (250 Hz, from clock_getres(CLOCK_MONOTONIC_COARSE))"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| build       | Release"), std::string::npos) << md;
}

TEST(ClockContext, HypervisorSignaturesHaveNames) {
    EXPECT_EQ(hypervisor_name("KVMKVMKVM"), "KVM");
    EXPECT_EQ(hypervisor_name("Microsoft Hv"), "Hyper-V");
    EXPECT_EQ(hypervisor_name("NewVisor"), "NewVisor");
}

TEST(ClockFindings, SayWhetherTheTscIsCheaperThanClockGettime) {
    ClockProbeResult r;
    r.clocks = {result("CLOCK_MONOTONIC", 25.0), result("rdtsc", 10.0, false)};
    const auto f = clock_findings(r);
    EXPECT_TRUE(any_contains(f,
                             "rdtsc costs 10.0 ns a read, clock_gettime(CLOCK_MONOTONIC) 25.0 ns "
                             "(medians of 0 and 0 timed batches): the TSC is 2.5x cheaper to "
                             "read."))
        << f[0];
}

TEST(ClockFindings, SayWhetherACoarseClockAdvancesInWholeTicks) {
    ClockProbeResult r;
    ClockResult coarse = result("CLOCK_MONOTONIC_COARSE", 5.0);
    coarse.whole_tick_share = 1.0;
    coarse.granularity.deltas = 1000;
    coarse.granularity.zero_deltas = 990;
    coarse.granularity_min_ns = 4e6;
    coarse.granularity_median_ns = 4e6;
    r.clocks = {coarse};
    r.kernel_tick_ns = 4'000'000;
    EXPECT_TRUE(any_contains(clock_findings(r),
                             "CLOCK_MONOTONIC_COARSE advances in whole kernel ticks: 100.0% of its "
                             "10 steps are a whole number of ticks of 4.000 ms"));
    EXPECT_FALSE(any_contains(clock_findings(r), "preempted"));
}

namespace {
// A coarse clock watched step by step: made-up steps of a 4 ms tick.
ClockProbeResult watched_coarse(std::vector<CoarseStep> steps) {
    ClockProbeResult r;
    r.kernel_tick_ns = 4'000'000;
    r.config_hz = 250;
    r.config_hz_from = "/boot/config-test";
    ClockResult c = result("CLOCK_MONOTONIC_COARSE", 5.0);
    c.steps_watched = true;
    c.steps_watch_ns = 100'000'000;
    c.steps = coarse_step_stats(steps, r.kernel_tick_ns, r.kernel_tick_ns / 50);
    r.clocks = {c};
    return r;
}
}  // namespace

TEST(ClockFindings, ACoarseClockJumpingTwoTicksBetweenCloseReadsIsSaidToJumpNotToBePreempted) {
    const auto r = watched_coarse({{4'000'000, 40}, {8'000'000, 30}, {4'000'001, 35}});
    const auto f = clock_findings(r);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].find("moves only in whole kernel ticks (clock_getres 4.000 ms, 1/CONFIG_HZ "
                        "4.000 ms (CONFIG_HZ=250, /boot/config-test))"),
              std::string::npos)
        << f[0];
    EXPECT_NE(f[0].find("2 steps of one tick, 1 of 2 to 2 ticks; 1 of these came between two "
                        "reads at most 30.0 ns apart"),
              std::string::npos)
        << f[0];
    EXPECT_NE(f[0].find("the clock itself jumped"), std::string::npos);
    EXPECT_EQ(f[0].find("missed the steps"), std::string::npos);
}

TEST(ClockFindings, ACoarseClockSeenAfterTheReaderWasAwayIsSaidToBeMissedSteps) {
    const auto r = watched_coarse({{4'000'000, 40}, {12'000'000, 9'000'000}});
    const auto f = clock_findings(r);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].find("1 came after the reader was away"), std::string::npos) << f[0];
    EXPECT_EQ(f[0].find("the clock itself jumped"), std::string::npos);
}

TEST(ClockFindings, AStepBetweenTicksOrATickThatDisagreesWithConfigHzIsSaid) {
    auto r = watched_coarse({{4'000'000, 40}, {3'000'000, 40}});
    r.config_hz = 1000;
    const auto f = clock_findings(r);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].find("does not move in whole kernel ticks only"), std::string::npos) << f[0];
    EXPECT_NE(f[0].find(", which disagree"), std::string::npos) << f[0];
    EXPECT_NE(f[0].find("1 steps were not a whole number of ticks"), std::string::npos) << f[0];
}

TEST(ClockFindings, TheCrossCoreVerdictRestsOnOrderedReadsAndPlainRdtscIsReportedAsReordering) {
    ClockProbeResult r;
    ClockResult tsc = result("rdtsc", 10.0, false);
    tsc.reads = 1000;
    tsc.cross_thread_checked = true;
    tsc.cross_thread_pinned = true;
    tsc.cross_thread_cpus = {0, 1};
    tsc.cross_thread_read = "lfence;rdtsc";
    tsc.cross_thread_reads = 5000;
    tsc.cross_thread_backward_steps = 0;
    tsc.cross_thread_unordered_reads = 6000;
    tsc.cross_thread_unordered_backward_steps = 40;
    r.clocks = {tsc};
    auto f = clock_findings(r);
    EXPECT_FALSE(any_contains(f, "cannot be used to order events"));
    EXPECT_TRUE(any_contains(f,
                             "No step back within a thread or across cores for rdtsc: 5000 "
                             "reads from two threads on CPUs 0 and 1"));
    EXPECT_TRUE(any_contains(f,
                             "Plain rdtsc read a value below one the other core had already "
                             "published 40 times in 6000 reads, where lfence;rdtsc went back "
                             "0 times in 5000"));
    EXPECT_TRUE(any_contains(f, "out-of-order execution"));

    // Ordered reads that do go back are the verdict.
    r.clocks[0].cross_thread_backward_steps = 3;
    f = clock_findings(r);
    EXPECT_TRUE(any_contains(f,
                             "rdtsc went back 0 times in 1000 back-to-back reads of one thread "
                             "and 3 times in 5000 ordered reads (lfence;rdtsc) from two threads "
                             "on CPUs 0 and 1: readings taken on different cores cannot be "
                             "used to order events."));
    EXPECT_FALSE(any_contains(f, "No step back"));
}

TEST(ClockFindings, BackwardStepsOfASteadyClockAreCalledOut) {
    ClockProbeResult r;
    ClockResult bad = result("CLOCK_MONOTONIC", 25.0);
    bad.granularity.backward_steps = 2;
    ClockResult tsc = result("rdtsc", 10.0, false);
    tsc.cross_thread_checked = true;
    tsc.cross_thread_backward_steps = 7;
    r.clocks = {bad, tsc, result("steady", 20.0)};
    const auto f = clock_findings(r);
    EXPECT_TRUE(any_contains(f, "CLOCK_MONOTONIC promises never to go back but went back 2 times"));
    EXPECT_TRUE(any_contains(f,
                             "rdtsc went back 0 times in 0 back-to-back reads of one thread and "
                             "7 times in 0 reads from two threads"));
    EXPECT_FALSE(any_contains(f, "steady"));
}

TEST(ClockFindings, AHighResolutionClockThatIsNotSteadyIsCalledOut) {
    ClockProbeResult r;
    r.clocks = {result("std::chrono::high_resolution_clock", 25.0, false)};
    EXPECT_TRUE(any_contains(clock_findings(r), "high_resolution_clock is not steady here"));
    r.clocks[0].claims_steady = true;
    EXPECT_TRUE(clock_findings(r).empty());
}

TEST(ClockReport, FormatsNanosecondsWithAFittingUnit) {
    EXPECT_EQ(format_ns(0.385), "0.39 ns");
    EXPECT_EQ(format_ns(25.47), "25.5 ns");
    EXPECT_EQ(format_ns(1500), "1.50 us");
    EXPECT_EQ(format_ns(4e6), "4.000 ms");
    EXPECT_EQ(format_ns(-1), "n/a");
}
