// Windows' timer resolution as the context carries it: NtQueryTimerResolution's 100 ns units
// turned into nanoseconds, the JSON it is written as (context.timer_resolution) and read back
// from, and the context row. Pure: runs on Linux with made-up readings.
#include <gtest/gtest.h>

#include "probes/probe_json.hpp"
#include "probes/system_info.hpp"

namespace loopscope {
namespace {

// A typical Windows machine: 15.625 ms coarsest, 0.5 ms finest, 1 ms in effect.
TimerResolution typical_windows() {
    return timer_resolution_from_100ns(156'250, 5'000, 10'000);
}

TEST(TimerResolution, HundredNanosecondUnitsBecomeNanoseconds) {
    const TimerResolution r = typical_windows();
    EXPECT_EQ(r.min_ns, 15'625'000);
    EXPECT_EQ(r.max_ns, 500'000);
    EXPECT_EQ(r.current_ns, 1'000'000);
    EXPECT_EQ(r.current_after_ns, -1);
    // The largest ULONG fits in nanoseconds without overflow.
    EXPECT_EQ(timer_resolution_from_100ns(0xFFFF'FFFFu, 1, 1).min_ns, 429'496'729'500);
}

TEST(TimerResolution, ContextJsonCarriesItAndReadsItBack) {
    SystemContext c;
    c.os = "Windows 10.0 build 19045";
    c.timer_resolution = typical_windows();
    c.timer_resolution->current_after_ns = 500'000;
    const ProbeJson j = c;
    ASSERT_TRUE(j.contains("timer_resolution"));
    const ProbeJson& r = j["timer_resolution"];
    EXPECT_EQ(r["min_ns"], 15'625'000);
    EXPECT_EQ(r["max_ns"], 500'000);
    EXPECT_EQ(r["current_ns"], 1'000'000);
    EXPECT_EQ(r["current_after_ns"], 500'000);
    EXPECT_EQ(j.get<SystemContext>(), c);
}

TEST(TimerResolution, NotReadAgainIsNullAndRoundTrips) {
    SystemContext c;
    c.timer_resolution = typical_windows();
    const ProbeJson j = c;
    EXPECT_TRUE(j["timer_resolution"]["current_after_ns"].is_null());
    EXPECT_EQ(j.get<SystemContext>(), c);
}

TEST(TimerResolution, LinuxContextHasNoSuchKey) {
    SystemContext c;
    c.os = "Debian GNU/Linux 12 (bookworm)";
    const ProbeJson j = c;
    EXPECT_FALSE(j.contains("timer_resolution"));
    EXPECT_FALSE(j.get<SystemContext>().timer_resolution.has_value());
}

TEST(TimerResolution, PowerThrottlingMasksSayWhetherAHiddenProcessKeepsItsResolution) {
    // Control bit clear: the process left it to Windows.
    EXPECT_EQ(timer_throttling_text(0, 0).rfind("not set: Windows decides", 0), 0u);
    EXPECT_EQ(timer_throttling_text(0x1, 0x1).rfind("not set", 0), 0u);  // execution speed only
    // Control bit set, state bit clear: the opt-out that keeps the resolution.
    EXPECT_EQ(timer_throttling_text(kIgnoreTimerResolutionBit, 0),
              "opted out: the raised resolution is kept while hidden");
    EXPECT_EQ(timer_throttling_text(0x5, 0x1),
              "opted out: the raised resolution is kept while hidden");
    EXPECT_EQ(timer_throttling_text(0x4, 0x4),
              "opted in: the raised resolution is dropped while hidden");
}

TEST(TimerResolution, ThrottlingAndPowerPlanAreWindowsContextRowsAndKeys) {
    SystemContext c;
    c.platform = Platform::Windows;
    c.timer_resolution = typical_windows();
    c.timer_throttling = timer_throttling_text(kIgnoreTimerResolutionBit, 0);
    c.power_plan = "Balanced (381b4222-f694-41f0-9685-ff5bb260df2e)";
    const ProbeJson j = c;
    EXPECT_EQ(j["timer_throttling"], c.timer_throttling);
    EXPECT_EQ(j["power_plan"], c.power_plan);
    EXPECT_EQ(j.get<SystemContext>(), c);
    const std::string md = context_markdown(c);
    EXPECT_NE(md.find("| resolution when hidden | opted out: the raised resolution is kept"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| power plan             | Balanced (381b4222-"), std::string::npos) << md;
    // A Linux context has neither.
    const ProbeJson linux_json = SystemContext{};
    EXPECT_FALSE(linux_json.contains("timer_throttling"));
    EXPECT_FALSE(linux_json.contains("power_plan"));
}

TEST(TimerResolution, WrongTypeNamesTheField) {
    SystemContext c;
    c.timer_resolution = typical_windows();
    ProbeJson j = c;
    j["timer_resolution"]["current_ns"] = "1 ms";
    try {
        (void)j.get<SystemContext>();
        FAIL() << "a string current_ns was accepted";
    } catch (const ProbeSchemaMismatch& e) {
        EXPECT_NE(e.where.find("current_ns"), std::string::npos) << e.where;
    }
}

TEST(TimerResolution, ContextTableShowsBeforeAndAfter) {
    SystemContext c;
    c.timer_resolution = typical_windows();
    c.timer_resolution->current_after_ns = 500'000;
    const std::string md = context_markdown(c);
    EXPECT_NE(md.find("| timer resolution"), std::string::npos) << md;
    EXPECT_NE(md.find("NtQueryTimerResolution"), std::string::npos) << md;
    EXPECT_EQ(context_markdown(SystemContext{}).find("timer resolution"), std::string::npos);
}

}  // namespace
}  // namespace loopscope
