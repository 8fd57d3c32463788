// What the clock probe says in words: the context's warnings and the findings drawn from
// results, on made-up contexts and results.
#include <gtest/gtest.h>

#include <algorithm>

#include "probes/clock_report.hpp"
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
                             "rdtsc costs 10.0 ns a read, clock_gettime(CLOCK_MONOTONIC) 25.0 ns: "
                             "the TSC is 2.5x cheaper to read."))
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
    EXPECT_TRUE(any_contains(clock_findings(r),
                             "CLOCK_MONOTONIC_COARSE advances in whole kernel ticks: 100.0% of its "
                             "10 steps"));
}

TEST(ClockFindings, BackwardStepsOfASteadyClockAreCalledOut) {
    ClockProbeResult r;
    ClockResult bad = result("CLOCK_MONOTONIC", 25.0);
    bad.granularity.backward_steps = 2;
    ClockResult tsc = result("rdtsc", 10.0, false);
    tsc.cross_thread_backward_steps = 7;
    r.clocks = {bad, tsc, result("steady", 20.0)};
    const auto f = clock_findings(r);
    EXPECT_TRUE(any_contains(f, "CLOCK_MONOTONIC promises never to go back but went back 2 times"));
    EXPECT_TRUE(any_contains(f, "rdtsc went back 7 times across cores (never within one thread)"));
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
