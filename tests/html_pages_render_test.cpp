// Every kind of HTML page loopscope writes (report, comparison, summary, history, fleet,
// diagnosis), loaded in headless Chromium: no script error, every chart drawn on its canvas,
// nothing asked of the network, and the verdict before the charts and tables where the page has
// one. Skipped, saying so, when Chromium is not installed (scripts/setup.sh installs it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "common/output_file.hpp"
#include "tests/html_browser.hpp"
#include "tests/test_support.hpp"
#include "writers/fleet_writer.hpp"
#include "writers/history_writer.hpp"

namespace loopscope {
namespace {

namespace fs = std::filesystem;
using test::quoted;

// Skipped without Chromium, unless LOOPSCOPE_REQUIRE_BROWSER=1 (.ci/run sets it: there the setup
// has installed it, and a skip would hide that the pages were never loaded).
#define LOOPSCOPE_REQUIRE_CHROMIUM()                                                              \
    do {                                                                                          \
        if (!test::have_chromium()) {                                                             \
            const char* required = std::getenv("LOOPSCOPE_REQUIRE_BROWSER");                      \
            if (required != nullptr && std::string(required) == "1")                              \
                FAIL() << test::kChromium << " is not installed and LOOPSCOPE_REQUIRE_BROWSER=1"; \
            GTEST_SKIP() << test::kChromium << " is not installed (scripts/setup.sh)";            \
        }                                                                                         \
    } while (0)

// Whether a page must open with its verdict (id="verdict", before every chart and table), or
// only keep it first when it has one.
enum class Verdict { required, first_if_any };

// What a page must show in the browser: at least `charts` charts, every one drawn on its canvas,
// no script error, no request, no sideways scrolling in a window 1,280 px wide; the verdict
// first, and the charts before the reference table (the <details>).
void expect_page_works(const test::PageInBrowser& page, int charts,
                       Verdict verdict = Verdict::first_if_any) {
    ASSERT_TRUE(page.failure.empty()) << page.failure << "\n" << page.log;
    for (const std::string& e : page.errors)
        ADD_FAILURE() << "script error: " << e;
    for (const std::string& r : page.requests)
        ADD_FAILURE() << "asked the network for " << r;
    EXPECT_GE(page.charts, charts);
    EXPECT_EQ(page.drawn_charts, page.charts) << "a chart left blank";
    EXPECT_GT(page.drawn_canvases, 0);
    EXPECT_LE(page.scroll_width_px, 1280) << "the page scrolls sideways";
    if (verdict == Verdict::required) {
        EXPECT_TRUE(page.has_verdict) << "no id=\"verdict\"";
    }
    if (page.has_verdict) {
        EXPECT_TRUE(page.verdict_first) << "the verdict comes after a chart or table";
    }
    EXPECT_TRUE(page.charts_before_details) << "a chart after the reference table";
}

// The recorder itself: a page with a script error, a request for an image and a chart left
// blank is seen as such.
TEST(HtmlPagesRender, TheRecorderSeesErrorsRequestsAndBlankCharts) {
    LOOPSCOPE_REQUIRE_CHROMIUM();
    const std::string dir = test::make_temp_dir("loopscope-page-bad");
    const std::string html = dir + "/bad.html";
    test::write_text(html,
                     "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>"
                     "<div class=\"lsc-chart\"><canvas width=\"10\" height=\"10\"></canvas></div>"
                     "<div class=\"bars\"><canvas id=\"c\" width=\"10\" height=\"10\"></canvas>"
                     "</div><table></table><section id=\"verdict\"></section>"
                     "<img src=\"http://192.0.2.1/x.png\"><script>"
                     "document.getElementById('c').getContext('2d').fillRect(0, 0, 5, 5);"
                     "no_such_function();</script></body></html>");
    const test::PageInBrowser page = test::load_in_chromium(html, dir);
    ASSERT_TRUE(page.failure.empty()) << page.failure << "\n" << page.log;
    ASSERT_EQ(page.errors.size(), 2u);
    const std::string errors = page.errors[0] + "\n" + page.errors[1];
    EXPECT_NE(errors.find("failed to load http://192.0.2.1/x.png"), std::string::npos) << errors;
    EXPECT_NE(errors.find("no_such_function"), std::string::npos) << errors;
    ASSERT_EQ(page.requests.size(), 1u);
    EXPECT_EQ(page.charts, 2);
    EXPECT_EQ(page.drawn_charts, 1);
    EXPECT_TRUE(page.has_verdict);
    EXPECT_FALSE(page.verdict_first);
    fs::remove_all(dir);
}

TEST(HtmlPagesRender, ReportOfAFrameViewLog) {
    LOOPSCOPE_REQUIRE_CHROMIUM();
    const std::string dir = test::make_temp_dir("loopscope-page-report");
    const std::string html = dir + "/report.html";
    const auto r = test::run_loopscope("report --format html -o " + quoted(html) + " " +
                                       quoted(test::test_data("frameview_Log.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_page_works(test::load_in_chromium(html, dir), 3, Verdict::required);
    fs::remove_all(dir);
}

TEST(HtmlPagesRender, ReportOfAPresentMon2Capture) {
    LOOPSCOPE_REQUIRE_CHROMIUM();
    const std::string dir = test::make_temp_dir("loopscope-page-report2");
    const std::string html = dir + "/report.html";
    const auto r = test::run_loopscope("report --format html -o " + quoted(html) + " " +
                                       quoted(test::test_data("presentmon2.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_page_works(test::load_in_chromium(html, dir), 3, Verdict::required);
    fs::remove_all(dir);
}

// The same on real captures: a FrameView log of a 240 fps game, PresentMon 2.x's layout of a
// recording with generated frames, and a MangoHud log (samples, not frames).
TEST(HtmlPagesRender, ReportsOfRealCaptures) {
    LOOPSCOPE_REQUIRE_CHROMIUM();
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const char* name :
         {"frameview_police2.csv", "IPMAuxTestData_test_case_9_v2.csv", "mangohud_overwatch.csv"}) {
        SCOPED_TRACE(name);
        const std::string dir = test::make_temp_dir("loopscope-page-real");
        const std::string html = dir + "/report.html";
        const auto r = test::run_loopscope("report --format html -o " + quoted(html) + " " +
                                           quoted(test::capture(name)));
        ASSERT_EQ(r.exit_code, 0) << r.err;
        expect_page_works(test::load_in_chromium(html, dir), 1, Verdict::required);
        fs::remove_all(dir);
    }
}

TEST(HtmlPagesRender, Comparison) {
    LOOPSCOPE_REQUIRE_CHROMIUM();
    const std::string dir = test::make_temp_dir("loopscope-page-compare");
    const std::string html = dir + "/compare.html";
    const auto r = test::run_loopscope("report --format html -o " + quoted(html) + " " +
                                       quoted(test::test_data("presentmon1.csv")) + " " +
                                       quoted(test::test_data("presentmon2.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const test::PageInBrowser page = test::load_in_chromium(html, dir);
    expect_page_works(page, 9, Verdict::required);
    // The comparison's table of verdicts (better, worse, no change) comes before its charts.
    EXPECT_TRUE(page.table_before_charts);
    fs::remove_all(dir);
}

TEST(HtmlPagesRender, SummaryDrawsItsBars) {
    LOOPSCOPE_REQUIRE_CHROMIUM();
    const std::string dir = test::make_temp_dir("loopscope-page-summary");
    // Two games, two configurations: the groups' means and their runs side by side.
    for (const char* run : {"doom/high", "doom/low", "quake/high"}) {
        fs::create_directories(dir + "/runs/" + run);
        fs::copy_file(test::test_data("presentmon2.csv"),
                      dir + "/runs/" + run + "/presentmon2.csv");
        fs::copy_file(test::test_data("frameview_Log.csv"),
                      dir + "/runs/" + run + "/frameview_Log.csv");
    }
    const std::string html = dir + "/summary.html";
    const auto r = test::run_loopscope("report --summary " + quoted(dir + "/runs") +
                                       " --labels-from-path game/config --group-by game"
                                       " --format html -o " +
                                       quoted(html));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Hovering the first bar (the pointer swept along its row) names its row, series and value.
    const test::PageInBrowser page = test::load_in_chromium(html, dir, R"(function () {
        const canvas = document.querySelector('.bars canvas');
        const tip = document.querySelector('.bars-tip');
        const box = canvas.getBoundingClientRect();
        for (let x = 0; x < box.width; x += 4) {
          canvas.dispatchEvent(new MouseEvent('mousemove',
              { clientX: box.left + x, clientY: box.top + 22 + 5 }));
          if (tip.style.display === 'block') return tip.textContent;
        }
        return 'no tip';
      })");
    expect_page_works(page, 1);
    EXPECT_EQ(page.probe.rfind("game=doom (mean) \u2014 average FPS (avg_fps): ", 0), 0u)
        << page.probe;
    EXPECT_TRUE(page.probe.ends_with(" FPS")) << page.probe;
    fs::remove_all(dir);
}

// Sampled logs have no per-frame lows: their bars are the samples' average and the tools' own
// lows, never bars that are all absent.
TEST(HtmlPagesRender, SummaryBarsOfSampledLogs) {
    const std::string dir = test::make_temp_dir("loopscope-page-sampled");
    fs::create_directories(dir + "/runs");
    for (const char* name : {"mangohud.csv", "mangohud_v1.csv"})
        fs::copy_file(test::test_data(name), dir + "/runs/" + name);
    const std::string html = dir + "/summary.html";
    const auto r = test::run_loopscope("report --summary " + quoted(dir + "/runs") +
                                       " --format html -o " + quoted(html));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string page = test::read_text(html);
    EXPECT_NE(page.find("\"series\":[{\"name\":\"average FPS (time-weighted) (sampled_avg_fps)\""),
              std::string::npos);
    EXPECT_NE(page.find("{\"name\":\"mangohud_min1_fps\""), std::string::npos);
    EXPECT_EQ(page.find("\"values\":[null"), std::string::npos);
    fs::remove_all(dir);
}

TEST(HtmlPagesRender, HistoryDrawsEachFigureOverTheRuns) {
    LOOPSCOPE_REQUIRE_CHROMIUM();
    const std::string dir = test::make_temp_dir("loopscope-page-history");
    HistoryListing listing;
    listing.database = "runs.db";
    listing.figures = {"avg_fps", "p99_ms"};
    for (int i = 1; i <= 6; ++i) {
        HistoryRun run;
        run.id = i;
        run.added_utc = "2026-01-0" + std::to_string(i) + "T12:00:00Z";
        run.source_file = "run" + std::to_string(i) + ".csv";
        run.labels = {{"gpu", i % 2 ? "a" : "b"}};
        run.verdict = i == 5 ? "regressed" : "passed";
        run.verdict_detail = i == 5 ? "avg_fps regressed: 80 FPS against a baseline of 97.5" : "";
        run.figures = {{"avg_fps", 100.0 - (i == 5 ? 20 : i)}, {"p99_ms", 12.0 + i}};
        listing.runs.push_back(run);
    }
    const std::string html = dir + "/history.html";
    const std::string page = write_history(listing, "html");
    // The regressed run is marked; each run is named by its number and day on the x axis.
    EXPECT_NE(
        page.find("\"run 5 regressed: avg_fps regressed: 80 FPS against a baseline of 97.5\""),
        std::string::npos);
    EXPECT_NE(page.find("5\u00a0\u00b7 01\u201105"), std::string::npos);
    test::write_text(html, page);
    expect_page_works(test::load_in_chromium(html, dir), 2);
    fs::remove_all(dir);
}

TEST(HtmlPagesRender, FleetDrawsItsGroupsBars) {
    LOOPSCOPE_REQUIRE_CHROMIUM();
    const std::string dir = test::make_temp_dir("loopscope-page-fleet");
    FleetListing listing;
    listing.url = "http://localhost:8123/fleet";
    listing.group_by = {"gpu"};
    listing.figure_keys = {"avg_fps", "p1_low_fps", "low1_avg_fps"};
    for (const char* gpu : {"a", "b", ""}) {
        FleetGroup g;
        g.labels = {{"gpu", gpu}};
        g.captures = 3;
        g.frames = 3000;
        g.figures = {{"avg_fps", 120.0}, {"p1_low_fps", 80.0}, {"low1_avg_fps", std::nullopt}};
        listing.groups.push_back(g);
    }
    const std::string html = dir + "/fleet.html";
    test::write_text(html, write_fleet(listing, "html"));
    expect_page_works(test::load_in_chromium(html, dir), 1);
    fs::remove_all(dir);
}

TEST(HtmlPagesRender, Diagnosis) {
    LOOPSCOPE_REQUIRE_CHROMIUM();
    const std::string dir = test::make_temp_dir("loopscope-page-diagnose");
    const auto r = test::run_loopscope("diagnose --quick -o " + quoted(dir + "/out"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string page = test::read_text(dir + "/out/index.html");
    EXPECT_NE(page.find("Frame times of every scenario"), std::string::npos);
    expect_page_works(test::load_in_chromium(dir + "/out/index.html", dir), 5);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
