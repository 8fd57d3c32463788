// `loopscope replay` end to end: every capture replays (the synthetic ones, and the real ones
// where they are), plain lists with units, a modelled
// step cost tips a steady pattern into the spiral, the sweep grid, and a run's trace replays to
// the same loop columns.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

namespace fs = std::filesystem;

// The loop columns of a row: frame .. alpha (the first 11), without the cost columns.
std::string loop_columns(const std::string& row) {
    std::size_t pos = 0;
    for (int commas = 0; commas < 11 && pos != std::string::npos; ++commas) {
        pos = row.find(',', pos + 1);
    }
    return row.substr(0, pos);
}

void expect_replays_with_steps_and_alpha(const std::string& path) {
    const auto r = test::run_loopscope("replay '" + path + "'");
    EXPECT_EQ(r.exit_code, 0) << path << ": " << r.err;
    EXPECT_NE(r.out.find("Steps per frame: mean"), std::string::npos) << path;
    EXPECT_NE(r.out.find("Alpha (acc_after / dt): mean"), std::string::npos) << path;
    EXPECT_NE(r.out.find("onset:"), std::string::npos) << path;
}

TEST(ReplayCommand, EveryCaptureLayoutReplaysWithStepsAndAlphaFigures) {
    const std::vector<std::string> names = test::test_data_captures();
    EXPECT_GE(names.size(), 12u);
    for (const std::string& name : names)
        expect_replays_with_steps_and_alpha(test::test_data(name));
}

TEST(ReplayCommand, EveryRealCaptureReplaysWithStepsAndAlphaFigures) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    int replayed = 0;
    for (const auto& entry : fs::directory_iterator(test::captures_dir())) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".csv" && ext != ".json")
            continue;
        expect_replays_with_steps_and_alpha(entry.path().string());
        ++replayed;
    }
    EXPECT_GE(replayed, 10);
}

// A step cost so large that steps × cost passes the int64 range: the replay stops at the frame
// it freezes, with no negative frame time written.
TEST(ReplayCommand, AHugeStepCostFreezesTheReplayWithoutOverflow) {
    const std::string dir = test::make_temp_dir("loopscope-replay");
    const test::RunResult r = test::run_loopscope("replay --step-cost 5000000000s -o '" + dir +
                                                  "/t.csv' '" + test::test_data("plain.txt") + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("froze"), std::string::npos) << r.out;
    const std::string trace = test::read_text(dir + "/t.csv");
    EXPECT_EQ(trace.find(",-"), std::string::npos) << trace;
    std::filesystem::remove_all(dir);
}

TEST(ReplayCommand, PlainListInMicrosecondsAndBadUnit) {
    const std::string dir = test::make_temp_dir("replay");
    std::string list;
    for (int i = 0; i < 120; ++i)
        list += "16666.667\n";
    test::write_text(dir + "/list.txt", list);
    const auto r = test::run_loopscope("replay --unit us --dt 1/60 " + dir + "/list.txt -o " + dir +
                                       "/out.csv");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Frames: 120 over 2.000 s"), std::string::npos) << r.out;
    EXPECT_EQ(test::trace_data_rows(test::read_text(dir + "/out.csv")).size(), 120u);

    const auto bad = test::run_loopscope("replay --unit min " + dir + "/list.txt");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--unit"), std::string::npos) << bad.err;
    const auto missing = test::run_loopscope("replay " + dir + "/nope.txt");
    EXPECT_EQ(missing.exit_code, 2);
    const auto bad_cost = test::run_loopscope("replay --step-cost 5 " + dir + "/list.txt");
    EXPECT_EQ(bad_cost.exit_code, 2);
    EXPECT_NE(bad_cost.err.find("--step-cost"), std::string::npos) << bad_cost.err;
    fs::remove_all(dir);
}

TEST(ReplayCommand, StepCostAboveDtTipsASteadyPatternIntoTheSpiral) {
    const std::string dir = test::make_temp_dir("replay");
    std::string list;
    for (int i = 0; i < 300; ++i)
        list += "16.667\n";
    test::write_text(dir + "/list.txt", list);
    const auto cheap = test::run_loopscope("replay --step-cost 5ms " + dir + "/list.txt");
    ASSERT_EQ(cheap.exit_code, 0) << cheap.err;
    EXPECT_NE(cheap.out.find("onset: none"), std::string::npos) << cheap.out;
    EXPECT_NE(cheap.out.find("Verdict: ok"), std::string::npos) << cheap.out;
    EXPECT_NE(cheap.out.find("headroom: +11.667 ms"), std::string::npos) << cheap.out;
    const auto costly =
        test::run_loopscope("replay --step-cost 20ms --max-steps 4 " + dir + "/list.txt");
    ASSERT_EQ(costly.exit_code, 0) << costly.err;
    EXPECT_NE(costly.out.find("onset: frame"), std::string::npos) << costly.out;
    EXPECT_NE(costly.out.find("Verdict: spiral"), std::string::npos) << costly.out;
    EXPECT_NE(costly.out.find("slow motion from the onset"), std::string::npos);
    fs::remove_all(dir);
}

TEST(ReplayCommand, RenderTimeThatNeedsMoreStepsThanTheCapIsSaturatedInTheJson) {
    // The motivating case: a 3DMark capture whose frames need more 8 ms steps of dt 1/120 than
    // a cap of 4 allows. The cap engages on almost every frame; the loop runs in slow motion.
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string capture = test::capture("IPMAuxTestData_F01TimeSpyDemoFS2080_gold.csv");
    const std::string dir = test::make_temp_dir("replay-json");
    const auto r = test::run_loopscope("replay --step-cost 8ms --dt 1/120 --max-steps 4 --json " +
                                       dir + "/loop.json '" + capture + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Verdict: saturated"), std::string::npos) << r.out;
    const auto j = nlohmann::json::parse(test::read_text(dir + "/loop.json"));
    EXPECT_EQ(j["verdict"]["state"], "saturated");
    EXPECT_TRUE(j["verdict"]["onset_frame"].is_number_integer());
    const double slow = j["verdict"]["slow_motion"].get<double>();
    EXPECT_GT(slow, 0.6);
    EXPECT_LT(slow, 0.75);
    EXPECT_GT(j["guards"]["cap_frames"].get<int>(), 2000);
    EXPECT_LT(j["headroom"]["ms"].get<double>(), 0.0);
    fs::remove_all(dir);
}

TEST(ReplayCommand, SweepPrintsOneRowPerCombination) {
    const auto r = test::run_loopscope("replay --sweep --step-cost 10ms '" +
                                       test::test_data("ocat.csv") + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::size_t at = r.out.find("Sweep (");
    ASSERT_NE(at, std::string::npos);
    std::istringstream in(r.out.substr(at));
    int table_lines = 0;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line[0] == '|')
            ++table_lines;
    }
    EXPECT_EQ(table_lines, 2 + 3 * 3 * 3);  // title, rule, 27 combinations
    const auto bad = test::run_loopscope("replay --sweep --sweep-max-steps x '" +
                                         test::test_data("ocat.csv") + "'");
    EXPECT_EQ(bad.exit_code, 2);
}

TEST(ReplayCommand, ARunsTraceReplaysToTheSameLoopColumns) {
    const std::string dir = test::make_temp_dir("replay");
    const auto run = test::run_loopscope(
        "run --clock virtual --scenario sim-60-display-50 --policy fixed-extrap --max-steps 3 -o " +
        dir + "/run.csv");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto rep = test::run_loopscope("replay --policy fixed-extrap --max-steps 3 " + dir +
                                         "/run.csv -o " + dir + "/replay.csv");
    ASSERT_EQ(rep.exit_code, 0) << rep.err;
    const auto a = test::trace_data_rows(test::read_text(dir + "/run.csv"));
    const auto b = test::trace_data_rows(test::read_text(dir + "/replay.csv"));
    ASSERT_EQ(a.size(), b.size());
    ASSERT_EQ(a.size(), 500u);
    for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(loop_columns(a[i]), loop_columns(b[i])) << i;
    }
    fs::remove_all(dir);
}

// A trace states the loop it ran: replay uses it unless an option says otherwise, and says
// which setting came from where. tests/data/loopscope.trace states fixed-interp, dt 1/60 s,
// clamp 250 ms, max_steps 5.
TEST(ReplayCommand, TheTracesLoopIsTheDefaultAndOptionsOverrideIt) {
    const std::string trace = test::test_data("loopscope.trace");
    const auto stated = test::run_loopscope("replay '" + trace + "'");
    ASSERT_EQ(stated.exit_code, 0) << stated.err;
    EXPECT_NE(stated.out.find("max steps 5, timescale 1\n"), std::string::npos) << stated.out;
    EXPECT_NE(stated.out.find("Loop settings from: the trace's metadata (policy, dt, clamp, "
                              "max steps, timescale)\n"),
              std::string::npos)
        << stated.out;
    // The cap of 5 holds: no frame takes more steps.
    EXPECT_NE(stated.out.find("Steps per frame: mean"), std::string::npos);
    EXPECT_EQ(stated.out.find("max steps unlimited"), std::string::npos);
    const auto given =
        test::run_loopscope("replay --max-steps 3 --policy fixed-extrap '" + trace + "'");
    ASSERT_EQ(given.exit_code, 0) << given.err;
    EXPECT_NE(given.out.find("Loop: policy fixed-extrap, dt 16.667 ms (16666667 ns), clamp "
                             "250.000 ms, max steps 3, timescale 1\n"),
              std::string::npos)
        << given.out;
    EXPECT_NE(given.out.find("Loop settings from: the options (policy, max steps); the trace's "
                             "metadata (dt, clamp, timescale)\n"),
              std::string::npos)
        << given.out;
    // A capture without a loop: the defaults, said so.
    const auto plain = test::run_loopscope("replay '" + test::test_data("presentmon1.csv") + "'");
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    EXPECT_NE(plain.out.find(
                  "Loop settings from: the defaults, the input stating no loop (policy, dt, clamp, "
                  "max steps, timescale)"),
              std::string::npos)
        << plain.out;
}

}  // namespace
}  // namespace loopscope
