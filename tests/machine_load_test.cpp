// How busy the machine was, from made-up load snapshots: shares of the CPU time between two
// readings and the warnings they give.
#include <gtest/gtest.h>

#include "probes/machine_load.hpp"

using namespace loopscope;

namespace {
LoadSnapshot snapshot(double load_1m, std::int64_t total, std::int64_t idle, std::int64_t steal,
                      std::int64_t self) {
    LoadSnapshot s;
    s.valid = true;
    s.load_1m = s.load_5m = s.load_15m = load_1m;
    s.cpu_total_ticks = total;
    s.cpu_idle_ticks = idle;
    s.cpu_steal_ticks = steal;
    s.self_ticks = self;
    s.from = "test";
    return s;
}
}  // namespace

TEST(MachineLoad, SharesAreTheDifferencesBetweenTheTwoReadingsOverAllCpuTime) {
    // 400 ticks pass: 200 idle, 20 stolen, 100 by this process, so 80 by others.
    const MachineLoad m =
        machine_load_between(snapshot(0.5, 1000, 500, 10, 50), snapshot(0.6, 1400, 700, 30, 150));
    ASSERT_TRUE(m.measured);
    EXPECT_EQ(m.interval_ticks, 400);
    EXPECT_DOUBLE_EQ(m.other_share, 80.0 / 400.0);
    EXPECT_DOUBLE_EQ(m.self_share, 100.0 / 400.0);
    EXPECT_DOUBLE_EQ(m.steal_share, 20.0 / 400.0);
}

TEST(MachineLoad, AQuietMachineHasNoWarningsAndABusyOneSaysWhyWithItsFigures) {
    const MachineLoad quiet =
        machine_load_between(snapshot(0.2, 0, 0, 0, 0), snapshot(0.3, 1000, 850, 0, 100));
    EXPECT_TRUE(machine_load_warnings(quiet, 4).empty());

    const MachineLoad busy =
        machine_load_between(snapshot(6.0, 0, 0, 0, 0), snapshot(7.5, 1000, 200, 100, 100));
    const auto w = machine_load_warnings(busy, 2);
    ASSERT_EQ(w.size(), 3u);
    EXPECT_NE(w[0].find("other processes used 60.0% of all CPU time"), std::string::npos) << w[0];
    EXPECT_NE(w[1].find("for 10.0% of the run (steal time)"), std::string::npos) << w[1];
    EXPECT_NE(w[2].find("was 6.00 before and 7.50 after on 2 CPUs"), std::string::npos) << w[2];
}

TEST(MachineLoad, UnreadableCountersAreNotMeasuredAndSaySo) {
    LoadSnapshot bad;
    const MachineLoad m = machine_load_between(bad, bad);
    EXPECT_FALSE(m.measured);
    EXPECT_TRUE(machine_load_warnings(m, 2).empty());
    EXPECT_NE(machine_load_markdown(m, 2).find("not measured"), std::string::npos);
    EXPECT_NE(machine_load_markdown(m, 2).find("| load average before (1/5/15 min) | unknown"),
              std::string::npos);
}

TEST(MachineLoad, ThisMachineCanBeRead) {
    const LoadSnapshot s = read_load_snapshot();
    if (!s.valid)
        GTEST_SKIP() << "no /proc/stat here";
    EXPECT_GT(s.cpu_total_ticks, 0);
    EXPECT_GE(s.cpu_idle_ticks, 0);
    EXPECT_LE(s.cpu_idle_ticks + s.cpu_steal_ticks, s.cpu_total_ticks);
    EXPECT_GE(s.load_1m, 0.0);
}

TEST(MachineLoad, OnABusyMachineTheSectionSaysTheTimerVerdictsWereMeasuredOnceUnderThatLoad) {
    const MachineLoad busy =
        machine_load_between(snapshot(1.0, 0, 0, 0, 0), snapshot(1.0, 1000, 300, 0, 100));
    EXPECT_NE(
        machine_load_markdown(busy, 4, true).find("measured in two runs, both under this load"),
        std::string::npos);
    EXPECT_EQ(machine_load_markdown(busy, 4, false).find("measured in two runs"),
              std::string::npos);
    const MachineLoad quiet =
        machine_load_between(snapshot(0.1, 0, 0, 0, 0), snapshot(0.1, 1000, 900, 0, 50));
    EXPECT_EQ(machine_load_markdown(quiet, 4, true).find("measured in two runs"),
              std::string::npos);
}
