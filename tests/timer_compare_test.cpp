// `probe compare` on timer sections: rows pair by what they measured, differences are B - A,
// rows on one side only show "-", and malformed sections are refused with the field named.
#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "probes/timer_compare.hpp"

namespace loopscope {
namespace {

using nlohmann::json;

json summary(std::int64_t p50, std::int64_t p99) {
    return {{"min", 0}, {"p50", p50}, {"p99", p99}, {"max", p99}, {"mean", 1.0 * p50}};
}

json section(std::int64_t nanosleep_p50) {
    json t;
    t["one_shot"] = json::array({
        {{"method", "nanosleep"},
         {"requested_ns", 1000000},
         {"overshoot_ns", summary(nanosleep_p50, 90000)}},
    });
    t["periodic"] = json::array({{{"scheduling", "SCHED_OTHER"},
                                  {"realtime", false},
                                  {"latency_ns",
                                   [] {
                                       json s = summary(80000, 200000);
                                       s["avg"] = 85000.0;
                                       return s;
                                   }()},
                                  {"overflows", 0}}});
    t["limiters"] = json::array({{{"limiter", "sleep"},
                                  {"rate_hz", 60},
                                  {"abs_error_p99_ns", 300000},
                                  {"error_ns", summary(0, 300000)},
                                  {"cpu_per_frame_ns", summary(50000, 60000)}}});
    t["recommendations"] = json::array({{{"rate_hz", 60}, {"limiter", "sleep"}}});
    return t;
}

TEST(TimerCompare, PairsRowsAndShowsTheDifferenceBMinusA) {
    json a = section(70000);
    json b = section(50000);
    b["one_shot"].push_back(
        {{"method", "SDL_Delay"}, {"requested_ns", 1000000}, {"overshoot_ns", summary(1, 2)}});
    b["recommendations"][0]["limiter"] = nullptr;
    check_timers_section(a, "a.json");
    check_timers_section(b, "b.json");
    const std::string md = compare_timers_markdown(a, "a.json", b, "b.json");
    EXPECT_NE(md.find("A = a.json, B = b.json."), std::string::npos) << md;
    EXPECT_NE(md.find("| nanosleep | 1.000 ms | 70.000 us | 50.000 us | -20.000 us |"),
              std::string::npos)
        << md;
    // Only B has SDL_Delay: A's cells and the difference are "-".
    EXPECT_NE(md.find("| SDL_Delay | 1.000 ms |         - |      1 ns |          - |"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("- 60 Hz: A sleep, B none within the bound"), std::string::npos) << md;
    EXPECT_NE(md.find("## Periodic wake-up latency (A vs B)"), std::string::npos);
    EXPECT_NE(md.find("## Frame limiters (A vs B)"), std::string::npos);
}

TEST(TimerCompare, RefusesAMalformedSectionNamingTheField) {
    json t = section(1);
    t["limiters"][0]["rate_hz"] = "sixty";
    try {
        check_timers_section(t, "old.json");
        FAIL() << "accepted a string rate";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "old.json");
        EXPECT_NE(std::string(e.what()).find("timers.limiters[0].rate_hz: expected an integer"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(check_timers_section(json::array(), "x.json"), InputError);
    json missing = section(1);
    missing["one_shot"][0].erase("overshoot_ns");
    EXPECT_THROW(check_timers_section(missing, "x.json"), InputError);
}

}  // namespace
}  // namespace loopscope
