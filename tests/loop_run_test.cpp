// `loopscope run` end to end: option errors, bit-identical virtual runs, and a short real-clock
// run checked for structure and sane bounds only (the machine is shared and noisy).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

TEST(RunCommand, BadOptionValuesAreOneLineErrorsWithExitCode2) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--policy fixed_interp", "--policy"},
        {"--dt 16", "--dt"},
        {"--dt 0", "--dt"},
        {"--clamp -5ms", "--clamp"},
        {"--max-steps -1", "--max-steps"},
        {"--max-steps 2.5", "--max-steps"},
        {"--timescale abc", "--timescale"},
        {"--timescale -1", "--timescale"},
        {"--scenario nope", "--scenario"},
        {"--clock nope", "--clock"},
        {"--frames x", "--frames"},
        {"--seconds 0", "--seconds"},
    };
    for (const auto& [args, option] : cases) {
        const bool has_clock = args.find("--clock") != std::string::npos;
        const auto r = test::run_loopscope((has_clock ? "run " : "run --clock virtual ") + args);
        EXPECT_EQ(r.exit_code, 2) << args;
        EXPECT_NE(r.err.find(option), std::string::npos) << args << ": " << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << args;
    }
}

TEST(RunCommand, VirtualRunsWithTheSameSeedWriteTheSameBytes) {
    const std::string dir = test::make_temp_dir("run");
    const std::string args = "run --clock virtual --scenario hitch-200ms --seed 7 -o ";
    const auto a = test::run_loopscope(args + dir + "/a.csv");
    const auto b = test::run_loopscope(args + dir + "/b.csv");
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    const std::string ta = test::read_text(dir + "/a.csv");
    EXPECT_EQ(ta, test::read_text(dir + "/b.csv"));
    EXPECT_EQ(ta.rfind("# loopscope-trace v1\n", 0), 0u);
    EXPECT_NE(ta.find("# seed: 7\n"), std::string::npos);
    EXPECT_EQ(test::trace_cells(ta).size(), 300u);
    // The summaries differ only in the trace's name.
    EXPECT_EQ(a.out.substr(a.out.find("Loop:")), b.out.substr(b.out.find("Loop:")));
    EXPECT_NE(a.out.find("Frames: 300"), std::string::npos);
    EXPECT_NE(a.out.find("10 h at 144 Hz"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(RunCommand, SpiralScenarioReportsOnsetAndSlowMotion) {
    const auto r = test::run_loopscope("run --clock virtual --scenario spiral-clamp-cap");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("onset: frame"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("slow motion from the onset: 0."), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Verdict: spiral"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("froze"), std::string::npos) << r.out;  // the guards held it
    const auto frozen = test::run_loopscope("run --clock virtual --scenario spiral-no-guards");
    ASSERT_EQ(frozen.exit_code, 0) << frozen.err;
    EXPECT_NE(frozen.out.find("The loop froze"), std::string::npos) << frozen.out;
}

TEST(RunCommand, JsonCarriesTheVerdictAndTheHeadroom) {
    const auto r = test::run_loopscope("run --clock virtual --scenario spiral-clamp-cap --json -");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("Verdict: spiral"), std::string::npos) << r.err;  // summary moved
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["schema"], "loopscope-loop/1");
    EXPECT_EQ(j["verdict"]["state"], "spiral");
    EXPECT_TRUE(j["verdict"]["onset_frame"].is_number_integer());
    EXPECT_GT(j["verdict"]["onset_time_s"].get<double>(), 0.0);
    EXPECT_GT(j["verdict"]["slow_motion"].get<double>(), 0.3);
    EXPECT_LT(j["verdict"]["slow_motion"].get<double>(), 0.95);
    EXPECT_FALSE(j["verdict"]["cause"].get<std::string>().empty());
    EXPECT_LT(j["headroom"]["ms"].get<double>(), 0.0);
    EXPECT_FALSE(j["source"]["froze"].get<bool>());

    const auto ok = test::run_loopscope("run --clock virtual --scenario steady-60 --json -");
    ASSERT_EQ(ok.exit_code, 0) << ok.err;
    const auto k = nlohmann::json::parse(ok.out);
    EXPECT_EQ(k["verdict"]["state"], "ok");
    EXPECT_TRUE(k["verdict"]["onset_frame"].is_null());
    EXPECT_GT(k["headroom"]["ms"].get<double>(), 0.0);

    const auto both = test::run_loopscope("run --clock virtual -o - --json -");
    EXPECT_EQ(both.exit_code, 2);
    EXPECT_NE(both.err.find("--json"), std::string::npos) << both.err;
}

TEST(RunCommand, ShortRealClockRunHasTheTraceStructureAndSaneTimes) {
    const std::string dir = test::make_temp_dir("run");
    const std::string path = dir + "/real.csv";
    const auto r =
        test::run_loopscope("run --scenario steady-60 --frames 20 --clock monotonic -o " + path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string text = test::read_text(path);
    EXPECT_NE(text.find("# clock: monotonic\n"), std::string::npos);
    EXPECT_NE(text.find("# machine: "), std::string::npos);
    const auto rows = test::trace_cells(text);
    ASSERT_EQ(rows.size(), 20u);
    long long previous_start = -1;
    long long total_ns = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ASSERT_EQ(rows[i].size(), 14u);
        EXPECT_EQ(std::stoll(rows[i][0]), static_cast<long long>(i));
        const long long start = std::stoll(rows[i][1]);
        const long long raw = std::stoll(rows[i][2]);
        EXPECT_GT(start, previous_start);
        EXPECT_GE(raw, 0);
        EXPECT_EQ(start - (previous_start < 0 ? 0 : previous_start), raw);
        const double alpha = std::stod(rows[i][10]);
        EXPECT_GE(alpha, 0.0);
        EXPECT_LT(alpha, 1.0);
        previous_start = start;
        total_ns += raw;
    }
    // 20 frames limited to 60 Hz: at least 19 refresh periods, and not absurdly long.
    EXPECT_GT(total_ns, 19 * 16'000'000LL);
    EXPECT_LT(total_ns, 20'000'000'000LL);
    EXPECT_NE(r.out.find("Frames: 20"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(RunCommand, VirtualRunForSecondsStopsAtThatVirtualTime) {
    const auto r =
        test::run_loopscope("run --clock virtual --scenario display-144-sim-60 --seconds 2");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Frames start at 0, 1/144 s, ... 2 s: 289 frames.
    EXPECT_NE(r.out.find("Frames: 289 over 2.000 s"), std::string::npos) << r.out;
}

TEST(RunCommand, ListScenariosNamesEveryScenario) {
    const auto r = test::run_loopscope("run --list-scenarios");
    ASSERT_EQ(r.exit_code, 0);
    for (const char* name : {"steady-60", "display-144-sim-60", "sim-60-display-50", "hitch-200ms",
                             "debugger-pause-5s", "spiral-no-guards", "spiral-clamp", "spiral-cap",
                             "spiral-clamp-cap"}) {
        EXPECT_NE(r.out.find(name), std::string::npos) << name;
    }
}

}  // namespace
}  // namespace loopscope
