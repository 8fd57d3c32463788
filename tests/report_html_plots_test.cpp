// The HTML report's charts fit the data: the frame-time axis scales to the frames (not a fixed
// 40 ms), frames above it are counted and kept, budget lines sit at the loop's dt or the
// detected refresh only, frames are drawn as steps with every frame kept (a spike is neither a
// ramp nor lost), hitches are marked and their rows zoom to them, the loop's guard drops are
// charted, and a sampled log gets a chart of its samples, labelled as such.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/chart_data.hpp"
#include "tests/test_support.hpp"

namespace loopscope::test {
namespace {

std::string html_report(const std::string& input, const std::string& name) {
    const std::string dir = make_temp_dir("loopscope-plots");
    const std::string html = dir + "/" + name + ".html";
    const RunResult r = run_loopscope("report --format html -o '" + html + "' '" + input + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_text(html);
}

// The first chart of the page: the frame-time chart (or the samples chart of a sampled log).
ChartData first_chart(const std::string& page) {
    auto charts = page_charts(page);
    EXPECT_FALSE(charts.empty());
    return charts.empty() ? ChartData{} : std::move(charts.front());
}

std::string plain_list_of(int frames, double ms, int spike_at, double spike_ms) {
    std::string text;
    for (int i = 0; i < frames; ++i)
        text += (i == spike_at ? std::to_string(spike_ms) : std::to_string(ms)) + "\n";
    return text;
}

TEST(ReportHtmlPlots, TheFrameTimeAxisFitsA240FpsCaptureAndKeepsTheFrameAboveIt) {
    const std::string dir = make_temp_dir("loopscope-plots");
    const std::string list = dir + "/fast.txt";
    // 240 fps with one 60 ms frame: the axis follows the 4.2 ms frames, the spike is counted
    // and kept in the data.
    write_text(list, plain_list_of(2000, 4.167, 1000, 60.0));
    const ChartData chart = first_chart(html_report(list, "fast"));
    const double top = chart.json["yMax"].get<double>();
    EXPECT_LE(top, 10.0);
    EXPECT_GE(top, 4.167);
    EXPECT_NE(chart.caption.find("1 frame above"), std::string::npos) << chart.caption;
    ASSERT_EQ(chart.series.front().size(), 2000u);
    EXPECT_NEAR(chart.series.front()[1000], 60.0, 1e-6);
    EXPECT_EQ(chart.json["rowName"], "frame");
}

TEST(ReportHtmlPlots, FramesAreStepsAndEveryFrameIsKept) {
    const std::string dir = make_temp_dir("loopscope-plots");
    const std::string list = dir + "/spike.txt";
    write_text(list, plain_list_of(300, 16.667, 150, 50.0));
    const ChartData chart = first_chart(html_report(list, "spike"));
    // Steps: a frame's time is held level until the next frame begins, so a spike is not a
    // ramp through its neighbours.
    EXPECT_EQ(chart.json["series"][0]["draw"], "steps");
    ASSERT_EQ(chart.x.size(), 300u);
    for (std::size_t i = 1; i < chart.x.size(); ++i) {
        // Each frame begins where the one before it ended (a plain list has no clock).
        EXPECT_NEAR((chart.x[i] - chart.x[i - 1]) * 1e3, chart.series[0][i - 1], 1e-5) << i;
    }
    EXPECT_NEAR(chart.series[0][150], 50.0, 1e-6);
}

TEST(ReportHtmlPlots, BudgetLineAtTheLoopsDtAndNoneWithoutARate) {
    const std::string dir = make_temp_dir("loopscope-plots");
    const std::string trace = dir + "/loop.csv";
    ASSERT_EQ(
        run_loopscope("run --clock virtual --dt 10ms --frames 300 -o '" + trace + "'").exit_code,
        0);
    const ChartData looped = first_chart(html_report(trace, "loop"));
    EXPECT_NE(looped.caption.find("dashed: 10.000 ms budget (loop dt)"), std::string::npos)
        << looped.caption;
    ASSERT_EQ(looped.json["rules"].size(), 1u);
    EXPECT_DOUBLE_EQ(looped.json["rules"][0]["y"].get<double>(), 10.0);
    // A plain list of irregular frame times has neither dt nor a refresh grid: no budget line.
    std::string text;
    for (int i = 0; i < 400; ++i)
        text += std::to_string(7.0 + (i * 7919 % 131) / 10.0) + "\n";
    const std::string list = dir + "/irregular.txt";
    write_text(list, text);
    const ChartData irregular = first_chart(html_report(list, "irregular"));
    EXPECT_TRUE(irregular.json["rules"].empty()) << irregular.caption;
}

TEST(ReportHtmlPlots, HitchesAreMarkedAndTheirRowsZoomToThem) {
    const std::string dir = make_temp_dir("loopscope-plots");
    const std::string list = dir + "/hitch.txt";
    write_text(list, plain_list_of(600, 16.667, 400, 120.0));
    const std::string page = html_report(list, "hitch");
    const ChartData chart = first_chart(page);
    ASSERT_EQ(chart.json["marks"].size(), 1u);
    const auto& mark = chart.json["marks"][0];
    EXPECT_NEAR(mark["y"].get<double>(), 120.0, 1e-9);
    EXPECT_NEAR(mark["x"].get<double>(), chart.x[400], 1e-6);
    EXPECT_LT(mark["z0"].get<double>(), mark["x"].get<double>());
    EXPECT_GT(mark["z1"].get<double>(), mark["x"].get<double>() + 0.12);
    EXPECT_NE(mark["text"].get<std::string>().find("120.000 ms"), std::string::npos);
    // The hitch's row in the table zooms the chart to the mark.
    const auto row = page.find("<tr onclick=\"loopscopeCharts.zoomTo(");
    ASSERT_NE(row, std::string::npos);
    EXPECT_NE(page.find("&quot;h0&quot;)\"><td>400</td>", row), std::string::npos)
        << page.substr(row, 200);
}

TEST(ReportHtmlPlots, TheSpiralTracesGuardDropsAreCharted) {
    const std::string dir = make_temp_dir("loopscope-plots");
    const std::string trace = dir + "/spiral.csv";
    ASSERT_EQ(run_loopscope("run --clock virtual --scenario spiral-clamp-cap -o '" + trace + "'")
                  .exit_code,
              0);
    const auto has_cap_drops = [](const std::string& page) {
        for (const ChartData& c : page_charts(page)) {
            for (std::size_t k = 0; k < c.labels.size(); ++k) {
                if (c.labels[k] != "simulation time the step cap dropped (ms)")
                    continue;
                for (const double v : c.series[k])
                    if (v > 0)
                        return true;
            }
        }
        return false;
    };
    const std::string spiral = html_report(trace, "spiral");
    EXPECT_TRUE(has_cap_drops(spiral));
    EXPECT_NE(spiral.find("the step cap dropped simulation time on"), std::string::npos);
    // A steady trace has nothing to chart.
    const std::string steady = dir + "/steady.csv";
    ASSERT_EQ(run_loopscope("run --clock virtual -o '" + steady + "'").exit_code, 0);
    EXPECT_FALSE(has_cap_drops(html_report(steady, "steady")));
}

TEST(ReportHtmlPlots, ASampledLogGetsAPlotOfItsSamplesAndATimeWeightedFps) {
    const std::string page = html_report(test_data("mangohud.csv"), "mangohud");
    const ChartData chart = first_chart(page);
    EXPECT_NE(chart.caption.find("Sampled frame time"), std::string::npos) << chart.caption;
    EXPECT_NE(chart.caption.find("each row one frame's time at the logging instant, not every "
                                 "frame"),
              std::string::npos);
    EXPECT_NE(page.find("average FPS (time-weighted)"), std::string::npos);
    const RunResult json =
        run_loopscope("report --format json '" + test_data("mangohud.csv") + "'");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    EXPECT_NE(json.out.find("\"sampled_avg_fps\": "), std::string::npos);
    EXPECT_EQ(json.out.find("\"sampled_avg_fps\": null"), std::string::npos);
}

}  // namespace
}  // namespace loopscope::test
