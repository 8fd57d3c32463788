// End to end: `loopscope probe timers --quick` on the real machine. Checks structure and sane
// bounds only (every method and limiter present, overshoot >= 0, min <= p50 <= p99 <= max),
// never how fast this shared machine happens to be.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <string>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

using nlohmann::json;

void expect_ordered(const json& s, const std::string& where) {
    const auto min = s.at("min").get<std::int64_t>();
    const auto p50 = s.at("p50").get<std::int64_t>();
    const auto p99 = s.at("p99").get<std::int64_t>();
    const auto max = s.at("max").get<std::int64_t>();
    EXPECT_LE(min, p50) << where;
    EXPECT_LE(p50, p99) << where;
    EXPECT_LE(p99, max) << where;
}

std::int64_t histogram_total(const json& h) {
    EXPECT_EQ(h.at("counts").size(), h.at("edges_ns").size() + 1);
    std::int64_t n = 0;
    for (const auto& c : h.at("counts"))
        n += c.get<std::int64_t>();
    return n;
}

TEST(TimerCli, QuickRunHasEveryMeasurementWithSaneFigures) {
    const std::string dir = test::make_temp_dir("loopscope-timers");
    const std::string json_path = dir + "/timers.json";
    const auto r = test::run_loopscope("probe timers --quick --json '" + json_path + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* heading : {"## One-shot sleep overshoot", "## Periodic wake-up latency",
                                "## Timer slack", "## Frame limiters", "Recommended limiter"}) {
        EXPECT_NE(r.out.find(heading), std::string::npos) << heading;
    }
    const json doc = json::parse(test::read_text(json_path));
    std::filesystem::remove_all(dir);
    EXPECT_EQ(doc.at("schema"), "loopscope-probe/1");
    const json& t = doc.at("timers");
    EXPECT_TRUE(t.at("quick").get<bool>());

    std::set<std::string> expected_methods{"sleep_for", "nanosleep", "clock_nanosleep rel",
                                           "clock_nanosleep abs"};
#ifdef LOOPSCOPE_HAVE_SDL
    expected_methods.insert("SDL_Delay");
#endif
    const std::set<std::int64_t> expected_requests{0,         50'000,    100'000,   500'000,
                                                   1'000'000, 2'000'000, 5'000'000, 16'000'000};
    std::set<std::pair<std::string, std::int64_t>> seen;
    for (const auto& row : t.at("one_shot")) {
        const auto method = row.at("method").get<std::string>();
        const auto requested = row.at("requested_ns").get<std::int64_t>();
        seen.emplace(method, requested);
        const std::string where = method + " " + std::to_string(requested);
        EXPECT_GE(row.at("overshoot_ns").at("min").get<std::int64_t>(), 0) << where;
        expect_ordered(row.at("overshoot_ns"), where);
        EXPECT_EQ(histogram_total(row.at("histogram")), row.at("samples").get<std::int64_t>());
        EXPECT_FALSE(row.at("verdict").get<std::string>().empty());
    }
    EXPECT_EQ(seen.size(), expected_methods.size() * expected_requests.size());
    for (const auto& m : expected_methods) {
        for (auto req : expected_requests)
            EXPECT_TRUE(seen.count({m, req})) << m << " " << req;
    }

    // The default-scheduling run always happens; the real-time one runs or says why not.
    const json& periodic = t.at("periodic");
    ASSERT_GE(periodic.size(), 1u);
    EXPECT_EQ(periodic[0].at("scheduling"), "SCHED_OTHER");
    for (const auto& row : periodic) {
        if (!row.at("ran").get<bool>()) {
            EXPECT_FALSE(row.at("note").get<std::string>().empty());
            continue;
        }
        EXPECT_EQ(row.at("loops"), 200);
        EXPECT_EQ(row.at("interval_ns"), 1'000'000);
        EXPECT_GE(row.at("latency_ns").at("min").get<std::int64_t>(), 0);
        expect_ordered(row.at("latency_ns"), "periodic");
        EXPECT_EQ(histogram_total(row.at("histogram")), 200);
        // Measured in two runs of 100 wake-ups each, one after the other.
        ASSERT_EQ(row.at("repeats_p99_ns").size(), 2u);
        for (const auto& p99 : row.at("repeats_p99_ns")) {
            EXPECT_GE(p99.get<std::int64_t>(), row.at("latency_ns").at("min").get<std::int64_t>());
            EXPECT_LE(p99.get<std::int64_t>(), row.at("latency_ns").at("max").get<std::int64_t>());
        }
    }

    // Timer slack: each request as found and at 1 ns, and the slack restored.
    EXPECT_EQ(t.at("timer_slack_note"), "");
    ASSERT_EQ(t.at("timer_slack").size(), 4u);
    EXPECT_TRUE(t.at("timer_slack")[0].at("as_found").get<bool>());
    EXPECT_EQ(t.at("timer_slack")[1].at("slack_ns"), 1);

    std::set<std::string> expected_limiters{"sleep", "sleep+spin 0.5ms", "sleep+spin 1ms",
                                            "sleep+spin 2ms", "spin"};
#ifdef LOOPSCOPE_HAVE_SDL
    expected_limiters.insert("SDL_Delay");
#endif
    std::set<std::pair<int, std::string>> limiters;
    for (const auto& row : t.at("limiters")) {
        limiters.emplace(row.at("rate_hz").get<int>(), row.at("limiter").get<std::string>());
        expect_ordered(row.at("error_ns"), row.at("limiter").get<std::string>());
        EXPECT_GE(row.at("cpu_per_frame_ns").at("min").get<std::int64_t>(), 0);
        EXPECT_GE(row.at("frames").get<int>(), 4);
    }
    for (int rate : {60, 144, 240}) {
        for (const auto& l : expected_limiters)
            EXPECT_TRUE(limiters.count({rate, l})) << rate << l;
    }
    EXPECT_EQ(t.at("recommendations").size(), 3u);
    // Each recommendation was made again from each of the two runs of the limiters alone.
    for (const auto& rec : t.at("recommendations")) {
        ASSERT_EQ(rec.at("repeats").size(), 2u) << rec.dump();
        const std::string text = rec.at("text");
        EXPECT_TRUE(text.find("; the same in both runs") != std::string::npos ||
                    text.find("; not stable: the first run gives") != std::string::npos)
            << text;
    }
}

TEST(TimerCli, BadOptionsFailBeforeMeasuring) {
    auto r = test::run_loopscope("probe timers --bound 0");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--bound"), std::string::npos) << r.err;
    r = test::run_loopscope("probe timers --interval 5");
    EXPECT_EQ(r.exit_code, 2);
    r = test::run_loopscope("probe timers --only naps");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--only naps: expected one-shot, periodic, slack or limiters"),
              std::string::npos)
        << r.err;
    r = test::run_loopscope("probe timers --quick --json /nonexistent-dir/t.json");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << "measured before refusing the output path";
}

}  // namespace
}  // namespace loopscope

namespace loopscope {
namespace {

TEST(TimerCli, ProbeWithoutSubcommandRunsClocksThenTimersIntoOneDocument) {
    const auto r = test::run_loopscope("probe --quick --json -");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);  // stdout carries only the JSON
    EXPECT_EQ(doc.at("schema"), "loopscope-probe/1");
    EXPECT_TRUE(doc.at("context").is_object());
    EXPECT_FALSE(doc.at("clocks").empty());
    EXPECT_FALSE(doc.at("timers").at("one_shot").empty());
    EXPECT_FALSE(doc.at("timers").at("limiters").empty());
}

TEST(TimerCli, ProbeOptionsBeforeASubcommandAreRefusedBeforeMeasuring) {
    const auto r = test::run_loopscope("probe --quick timers");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("give them after the subcommand"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace loopscope
