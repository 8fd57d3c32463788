// The whole diagnosis, end to end, in its quick form: the output folder holds every file it
// promises, each one readable, and the terminal report carries every section. Timing figures
// are only checked for structure: this runs on shared machines.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "tests/chart_data.hpp"
#include "tests/gfm_tables.hpp"
#include "tests/test_support.hpp"

using namespace loopscope::test;

TEST(Diagnose, QuickRunWritesEveryFileOfTheReport) {
    const std::string dir = make_temp_dir("loopscope-diagnose");
    const std::string out = dir + "/report";
    const RunResult r = run_loopscope("diagnose --quick -o '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* section :
         {"## Context", "## Clock sources", "## Machine load during the run",
          "Game loops on the real clock", "steady-60", "spiral-clamp-cap", "## Files"}) {
        EXPECT_NE(r.out.find(section), std::string::npos) << section;
    }
    // The answer comes first: the summary right under the title, before the context's table.
    const std::size_t summary = r.out.find("## What this means for a game on this machine");
    ASSERT_NE(summary, std::string::npos) << r.out;
    EXPECT_LT(summary, r.out.find("## Context"));
    for (const char* line : {"- **Clock**: ", "- **Wait 1 ms**: ", "- **Limiter**: ",
                             "- **Machine**: ", "- **Loops**: steady-60: "}) {
        EXPECT_NE(r.out.find(line, summary), std::string::npos) << line;
    }
    const std::string html = read_text(out + "/index.html");
    EXPECT_NE(html.find("<h2 id=\"clock-sources\">Clock sources</h2>"), std::string::npos);
    // How busy the machine was while it was probed, with its table.
    EXPECT_NE(html.find("<h2 id=\"machine-load-during-the-run\">Machine load during the run</h2>"),
              std::string::npos);
    // Each summary line links to a heading of the page.
    std::size_t links = 0;
    for (std::size_t at = html.find("href=\"#"); at != std::string::npos;
         at = html.find("href=\"#", at + 1)) {
        const std::size_t end = html.find('"', at + 7);
        const std::string id = html.substr(at + 7, end - at - 7);
        EXPECT_NE(html.find("id=\"" + id + "\""), std::string::npos) << id;
        ++links;
    }
    EXPECT_GE(links, 5u);
    EXPECT_NE(html.find("load average before (1/5/15 min)"), std::string::npos);
    EXPECT_FALSE(page_charts(html).empty());
    EXPECT_NE(html.find("loopscopeCharts.draw(\"scenario-frame-times\")"), std::string::npos);
    EXPECT_NE(html.find("hitch-200ms: "), std::string::npos);
    const std::string own = page_without_chart_library(html);
    EXPECT_EQ(own.find("http://"), std::string::npos);
    EXPECT_EQ(own.find("https://"), std::string::npos);
    const std::string diagnosis = read_text(out + "/diagnosis.md");
    EXPECT_EQ(diagnosis.rfind("# loopscope diagnosis", 0), 0u);
    if (have_cmark_gfm()) {
        // Every table renders with each cell in its column (`|error|` once split the timer table).
        for (const std::string& problem : gfm_table_problems(diagnosis))
            ADD_FAILURE() << "diagnosis.md: " << problem;
    }

    const auto doc = nlohmann::json::parse(read_text(out + "/probe.json"));
    EXPECT_EQ(doc.at("schema"), "loopscope-probe/1");
    EXPECT_FALSE(doc.at("clocks").empty());
    EXPECT_TRUE(doc.contains("timers"));
    for (const char* name :
         {"steady-60", "display-144-sim-60", "hitch-200ms", "spiral-clamp-cap"}) {
        const std::string trace = read_text(out + "/traces/" + name + ".csv");
        EXPECT_EQ(trace.rfind("# loopscope-trace v2", 0), 0u) << name;
    }
    // The spiral scenario's verdict: trouble with an onset and a slow motion in sane bounds (the
    // real clock decides the exact frame); the steady loop is no spiral.
    const auto row = [&](const std::string& name) {
        const std::size_t at = r.out.find("| " + name + " ");
        return at == std::string::npos ? std::string()
                                       : r.out.substr(at, r.out.find('\n', at) - at);
    };
    EXPECT_NE(r.out.find("| verdict "), std::string::npos);
    const std::string spiral_row = row("spiral-clamp-cap");
    EXPECT_TRUE(spiral_row.find("spiral from frame") != std::string::npos ||
                spiral_row.find("saturated from frame") != std::string::npos)
        << spiral_row;
    EXPECT_EQ(row("steady-60").find("spiral"), std::string::npos) << row("steady-60");
    EXPECT_EQ(r.out.find("froze"), std::string::npos);  // the guards hold the spiral
    const RunResult spiral_json =
        run_loopscope("report --format json '" + out + "/traces/spiral-clamp-cap.csv'");
    ASSERT_EQ(spiral_json.exit_code, 0) << spiral_json.err;
    const auto verdict = nlohmann::json::parse(spiral_json.out)["loop"]["spiral"]["verdict"];
    EXPECT_NE(verdict["state"], "ok") << verdict.dump();
    ASSERT_TRUE(verdict["slow_motion"].is_number()) << verdict.dump();
    EXPECT_GT(verdict["slow_motion"].get<double>(), 0.2);
    EXPECT_LT(verdict["slow_motion"].get<double>(), 1.0);

    // The traces read back through the report command.
    const RunResult report = run_loopscope("report '" + out + "/traces/hitch-200ms.csv'");
    EXPECT_EQ(report.exit_code, 0) << report.err;
    // A trace has frame times only, no display information: no trace diagnose writes gives a
    // refresh rate or missed vsync.
    for (const char* name :
         {"steady-60", "display-144-sim-60", "hitch-200ms", "spiral-clamp-cap"}) {
        SCOPED_TRACE(name);
        const RunResult json =
            run_loopscope("report --format json '" + out + "/traces/" + name + ".csv'");
        ASSERT_EQ(json.exit_code, 0) << json.err;
        const auto figures = nlohmann::json::parse(json.out)["figures"];
        EXPECT_TRUE(figures["refresh_hz"].is_null()) << figures["refresh_hz"];
        EXPECT_TRUE(figures["unreal_mvp_share"].is_null()) << figures["unreal_mvp_share"];
        EXPECT_TRUE(figures["dropped_share"].is_null()) << figures["dropped_share"];
    }
    std::filesystem::remove_all(dir);
}

// A trace run on the virtual clock: frame times exactly on a 60 Hz grid, and still no refresh
// rate and no missed vsync (the terminal says "cadence grid"); --target-fps names a rate.
TEST(Diagnose, AVirtualClockTraceGivesNoRefreshRateAndNoMissedVsync) {
    const std::string dir = make_temp_dir("loopscope-virtual");
    const RunResult run =
        run_loopscope("run --clock virtual --scenario steady-60 -o '" + dir + "/steady.csv'");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const RunResult text = run_loopscope("report '" + dir + "/steady.csv'");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("none (no display information); cadence grid"), std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("fixed, 60 Hz"), std::string::npos) << text.out;
    const RunResult json = run_loopscope("report --format json '" + dir + "/steady.csv'");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    EXPECT_TRUE(doc["figures"]["refresh_hz"].is_null());
    EXPECT_TRUE(doc["figures"]["unreal_mvp_share"].is_null());
    const RunResult target =
        run_loopscope("report --format json --target-fps 60 '" + dir + "/steady.csv'");
    ASSERT_EQ(target.exit_code, 0) << target.err;
    EXPECT_TRUE(nlohmann::json::parse(target.out)["figures"]["unreal_mvp_share"].is_number());
    std::filesystem::remove_all(dir);
}

TEST(Diagnose, AnOutputFolderThatCannotBeMadeIsAUsageError) {
    const RunResult r = run_loopscope("diagnose --quick -o /proc/loopscope-cannot-be-here");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot create the output folder"), std::string::npos) << r.err;
}
