// The HTML report's plots fit the data: the frame-time axis scales to the frames (not a fixed
// 40 ms), frames above it are marked and counted, budget lines sit at the loop's dt or the
// detected refresh only, frames are drawn as steps (a spike is not a ramp), the loop's guard
// drops are marked, and a sampled log gets a plot of its samples, labelled as such.
#include <gtest/gtest.h>

#include <regex>
#include <string>

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

// The first <figure> of the page: the frame-time plot (or the samples plot of a sampled log).
std::string first_figure(const std::string& page) {
    const auto begin = page.find("<figure>");
    const auto end = page.find("</figure>", begin);
    return begin == std::string::npos ? std::string() : page.substr(begin, end - begin);
}

// The y tick labels of a figure, in drawing order.
std::vector<double> y_ticks(const std::string& figure) {
    std::vector<double> out;
    static const std::regex tick(R"(class="yt">([0-9.]+)</text>)");
    for (std::sregex_iterator it(figure.begin(), figure.end(), tick), end; it != end; ++it)
        out.push_back(std::stod((*it)[1].str()));
    return out;
}

std::string plain_list_of(int frames, double ms, int spike_at, double spike_ms) {
    std::string text;
    for (int i = 0; i < frames; ++i)
        text += (i == spike_at ? std::to_string(spike_ms) : std::to_string(ms)) + "\n";
    return text;
}

TEST(ReportHtmlPlots, TheFrameTimeAxisFitsA240FpsCaptureAndMarksTheFrameAboveIt) {
    const std::string dir = make_temp_dir("loopscope-plots");
    const std::string list = dir + "/fast.txt";
    // 240 fps with one 60 ms frame: the axis follows the 4.2 ms frames, the spike is marked.
    write_text(list, plain_list_of(2000, 4.167, 1000, 60.0));
    const std::string figure = first_figure(html_report(list, "fast"));
    const auto ticks = y_ticks(figure);
    ASSERT_FALSE(ticks.empty());
    EXPECT_LE(ticks.back(), 10.0) << figure.substr(0, 400);
    EXPECT_GE(ticks.back(), 4.167);
    EXPECT_NE(figure.find("1 frame above"), std::string::npos) << figure.substr(0, 400);
    EXPECT_NE(figure.find("class=\"clip\""), std::string::npos);
    EXPECT_NE(figure.find("frame 1000: 60.000 ms"), std::string::npos);
}

TEST(ReportHtmlPlots, FramesAreStepsNotRamps) {
    const std::string dir = make_temp_dir("loopscope-plots");
    const std::string list = dir + "/spike.txt";
    write_text(list, plain_list_of(300, 16.667, 150, 50.0));
    const std::string figure = first_figure(html_report(list, "spike"));
    static const std::regex path(R"re(<path d="([^"]*)" class="line0")re");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(figure, m, path));
    // Level runs (H) and vertical strokes (V) only: a diagonal (L) would draw the spike as a
    // ramp through its neighbours' columns.
    EXPECT_EQ(m[1].str().find('L'), std::string::npos);
    EXPECT_NE(m[1].str().find('H'), std::string::npos);
    EXPECT_NE(m[1].str().find('V'), std::string::npos);
}

TEST(ReportHtmlPlots, BudgetLineAtTheLoopsDtAndNoneWithoutARate) {
    const std::string dir = make_temp_dir("loopscope-plots");
    const std::string trace = dir + "/loop.csv";
    ASSERT_EQ(
        run_loopscope("run --clock virtual --dt 10ms --frames 300 -o '" + trace + "'").exit_code,
        0);
    const std::string looped = first_figure(html_report(trace, "loop"));
    EXPECT_NE(looped.find("dashed: 10.000 ms budget (loop dt)"), std::string::npos)
        << looped.substr(0, 300);
    // A plain list of irregular frame times has neither dt nor a refresh grid: no budget line.
    std::string text;
    for (int i = 0; i < 400; ++i)
        text += std::to_string(7.0 + (i * 7919 % 131) / 10.0) + "\n";
    const std::string list = dir + "/irregular.txt";
    write_text(list, text);
    const std::string irregular = first_figure(html_report(list, "irregular"));
    EXPECT_EQ(irregular.find("class=\"budget\""), std::string::npos) << irregular.substr(0, 300);
}

TEST(ReportHtmlPlots, TheSpiralTracesGuardDropsAreMarked) {
    const std::string dir = make_temp_dir("loopscope-plots");
    const std::string trace = dir + "/spiral.csv";
    ASSERT_EQ(run_loopscope("run --clock virtual --scenario spiral-clamp-cap -o '" + trace + "'")
                  .exit_code,
              0);
    const std::string figure = first_figure(html_report(trace, "spiral"));
    EXPECT_NE(figure.find("class=\"capdrop\""), std::string::npos);
    EXPECT_NE(figure.find("the step cap dropped simulation time on"), std::string::npos);
    // A steady trace has nothing to mark.
    const std::string steady = dir + "/steady.csv";
    ASSERT_EQ(run_loopscope("run --clock virtual -o '" + steady + "'").exit_code, 0);
    EXPECT_EQ(first_figure(html_report(steady, "steady")).find("capdrop"), std::string::npos);
}

TEST(ReportHtmlPlots, ASampledLogGetsAPlotOfItsSamplesAndATimeWeightedFps) {
    const std::string page = html_report(test_data("mangohud.csv"), "mangohud");
    const std::string figure = first_figure(page);
    EXPECT_NE(figure.find("Sampled frame time"), std::string::npos) << figure.substr(0, 300);
    EXPECT_NE(figure.find("each row one frame's time at the logging instant, not every frame"),
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
