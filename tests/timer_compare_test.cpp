// `probe compare` on timer sections: rows pair by what they measured, differences that change
// what a game should do are marked with a reason, noise-sized ones are not, rows on one side
// only show "-", and malformed sections are refused with the field named.
#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "probes/probe_compare.hpp"
#include "probes/probe_json.hpp"
#include "probes/timer_compare.hpp"

namespace loopscope {
namespace {

using nlohmann::json;

json summary(std::int64_t p50, std::int64_t p99) {
    return {{"min", 0}, {"p50", p50}, {"p99", p99}, {"max", p99}, {"mean", 1.0 * p50}};
}

json periodic_row(bool realtime, double avg_ns, std::int64_t overflows) {
    json s = summary(static_cast<std::int64_t>(avg_ns), 200000);
    s["avg"] = avg_ns;
    return {{"scheduling", realtime ? "SCHED_FIFO 80" : "SCHED_OTHER"},
            {"realtime", realtime},
            {"loops", 1000},
            {"latency_ns", s},
            {"histogram", {{"edges_ns", {1000000}}, {"counts", {0, 1000 - overflows, overflows}}}},
            {"overflows", overflows}};
}

// A hand-written "timers" section as the TimerReport `probe compare` reads it into.
TimerReport timers_of(const json& section) {
    return ProbeJson::parse(section.dump()).get<TimerReport>();
}

json section(std::int64_t nanosleep_p99) {
    json t;
    t["one_shot"] = json::array({{{"method", "nanosleep"},
                                  {"requested_ns", 1000000},
                                  {"overshoot_ns", summary(60000, nanosleep_p99)}}});
    t["periodic"] = json::array({periodic_row(false, 90000.0, 0)});
    t["timer_slack"] = json::array({{{"requested_ns", 100000},
                                     {"slack_ns", 50000},
                                     {"as_found", true},
                                     {"overshoot_ns", summary(70000, 90000)}}});
    t["limiters"] = json::array({{{"limiter", "sleep"},
                                  {"rate_hz", 60},
                                  {"abs_error_p99_ns", 300000},
                                  {"meets_bound", true},
                                  {"error_ns", summary(0, 300000)},
                                  {"cpu_per_frame_ns", summary(50000, 60000)}}});
    t["recommendations"] = json::array({{{"rate_hz", 60}, {"limiter", "sleep"}}});
    return t;
}

TEST(TimerCompare, ALatenessTwiceAsLargeAndAbove100usMatters) {
    const auto rows = compare_timer_one_shot(timers_of(section(90000)), timers_of(section(400000)));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].item, "nanosleep 1.000 ms");
    ASSERT_EQ(rows[0].cells.size(), 3u);
    EXPECT_EQ(rows[0].cells[0].a, "60.000 us");  // p50 equal: nothing to say
    EXPECT_FALSE(rows[0].cells[0].matters);
    EXPECT_EQ(rows[0].cells[1].a, "90.000 us");
    EXPECT_EQ(rows[0].cells[1].b, "400.000 us");
    EXPECT_TRUE(rows[0].cells[1].matters);
    EXPECT_EQ(rows[0].cells[1].why, "4.4x later in B");
    EXPECT_FALSE(rows[0].cells[2].matters);  // a maximum is one sample: shown, not a finding
}

TEST(TimerCompare, SmallOrProportionallyMildDifferencesDoNotMatter) {
    // 20 us -> 90 us is 4.5x but under the 100 us noise floor; 1 ms -> 1.5 ms is under 2x.
    EXPECT_FALSE(compare_timer_one_shot(timers_of(section(20000)), timers_of(section(90000)))[0]
                     .cells[1]
                     .matters);
    EXPECT_FALSE(compare_timer_one_shot(timers_of(section(1000000)), timers_of(section(1500000)))[0]
                     .cells[1]
                     .matters);
}

TEST(TimerCompare, RowsOnOneSideShowADashAndSaySo) {
    json b = section(90000);
    b["one_shot"].push_back(
        {{"method", "SDL_Delay"}, {"requested_ns", 1000000}, {"overshoot_ns", summary(1, 2)}});
    const auto rows = compare_timer_one_shot(timers_of(section(90000)), timers_of(b));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1].item, "SDL_Delay 1.000 ms");
    EXPECT_EQ(rows[1].cells[0].a, "-");
    EXPECT_EQ(rows[1].cells[0].b, "1 ns");
    EXPECT_TRUE(rows[1].cells[0].matters);
    EXPECT_EQ(rows[1].cells[0].why, "in B only");
}

TEST(TimerCompare, PeriodicOverflowsAndARefusedRealTimeRunMatter) {
    json a = section(1), b = section(1);
    a["periodic"].push_back(periodic_row(true, 40000.0, 0));
    b["periodic"][0] = periodic_row(false, 90000.0, 3);
    b["periodic"].push_back({{"scheduling", "SCHED_FIFO"}, {"realtime", true}, {"ran", false}});
    const auto rows = compare_timer_periodic(timers_of(a), timers_of(b));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].item, "default scheduling");
    EXPECT_TRUE(rows[0].cells[4].matters);
    EXPECT_EQ(rows[0].cells[4].why, "whole periods missed in B only");
    EXPECT_EQ(rows[1].item, "real-time");
    EXPECT_EQ(rows[1].cells[1].b, "-");
    EXPECT_TRUE(rows[1].cells[0].matters);
    EXPECT_EQ(rows[1].cells[0].why, "ran in A only");
}

TEST(TimerCompare, ALimiterLeavingTheBoundAndADifferentRecommendationMatter) {
    json b = section(1);
    b["limiters"][0]["meets_bound"] = false;
    b["limiters"][0]["abs_error_p99_ns"] = 900000;
    b["recommendations"][0]["limiter"] = nullptr;
    const auto rows = compare_timer_limiters(timers_of(section(1)), timers_of(b));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].item, "60 Hz sleep");
    EXPECT_TRUE(rows[0].cells[0].matters);  // 300 us -> 900 us
    EXPECT_TRUE(rows[0].cells[1].matters);
    EXPECT_EQ(rows[0].cells[1].why, "within the bound in A only");
    EXPECT_EQ(rows[1].item, "60 Hz recommended");
    EXPECT_EQ(rows[1].cells[0].b, "none within the bound");
    EXPECT_TRUE(rows[1].cells[0].matters);
}

TEST(TimerCompare, SlackAsFoundThatDiffersMatters) {
    json b = section(1);
    b["timer_slack"][0]["slack_ns"] = 1;
    const auto rows = compare_timer_slack(timers_of(section(1)), timers_of(b));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].item, "100.000 us, slack as found");
    EXPECT_TRUE(rows[0].cells[0].matters);
}

TEST(TimerCompare, ProbeCompareHasTheTimerTables) {
    const json a{{"schema", "loopscope-probe/1"}, {"timers", section(90000)}};
    const json b{{"schema", "loopscope-probe/1"}, {"timers", section(400000)}};
    const auto sections = compare_documents(ProbeJson::parse(a.dump()).get<ProbeDocument>(),
                                            ProbeJson::parse(b.dump()).get<ProbeDocument>());
    const std::string md = comparison_markdown(sections, "a.json", "b.json");
    EXPECT_NE(md.find("## Timers: one-shot sleep overshoot"), std::string::npos) << md;
    EXPECT_NE(md.find("## Timers: frame limiters"), std::string::npos) << md;
    EXPECT_NE(md.find("**90.000 us / 400.000 us**"), std::string::npos) << md;
    EXPECT_EQ(differences_that_matter(sections), 1);
}

TEST(TimerCompare, RefusesAMalformedSectionNamingTheField) {
    const auto mismatch = [](const json& timers) {
        const json doc{{"schema", "loopscope-probe/1"}, {"timers", timers}};
        try {
            ProbeJson::parse(doc.dump()).get<ProbeDocument>();
        } catch (const ProbeSchemaMismatch& e) {
            return e.where + ": expected " + e.expected;
        }
        return std::string("accepted");
    };
    json t = section(1);
    t["limiters"][0]["rate_hz"] = "sixty";
    EXPECT_EQ(mismatch(t), "timers.limiters[0].rate_hz: expected an integer");
    EXPECT_EQ(mismatch(json::array()), "timers: expected an object");
    json missing = section(1);
    missing["one_shot"][0].erase("overshoot_ns");
    EXPECT_EQ(mismatch(missing), "timers.one_shot[0].overshoot_ns: expected a summary object");
}

}  // namespace
}  // namespace loopscope
