// The viewer run headless (SDL's offscreen driver: OpenGL through EGL and Mesa) on a real capture,
// in live mode, on the loops demo and on a spiral scenario: each run must write a PNG that shows
// the plots, checked by decoding it and counting pixels of the plot colours.
#ifdef LOOPSCOPE_HAVE_VIEWER
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/test_support.hpp"

using namespace loopscope::test;

namespace {

struct Png {
    int width = 0, height = 0;
    std::size_t matching = 0;  // pixels within `tolerance` of the colour asked for
};

// Counts the pixels of one colour: the first document's plot colour, the spiral marker's …
Png count_colour(const std::string& path, int r, int g, int b, int tolerance = 14) {
    Png png;
    int channels = 0;
    unsigned char* pixels = stbi_load(path.c_str(), &png.width, &png.height, &channels, 3);
    if (!pixels) {
        return png;
    }
    const std::size_t n =
        static_cast<std::size_t>(png.width) * static_cast<std::size_t>(png.height);
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned char* p = pixels + i * 3;
        if (std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance &&
            std::abs(p[2] - b) <= tolerance) {
            ++png.matching;
        }
    }
    stbi_image_free(pixels);
    return png;
}

// The first document's colour in every panel (document_colour(0)).
Png count_plot_pixels(const std::string& path) {
    return count_colour(path, 90, 200, 255);
}

class ViewerHeadless : public ::testing::Test {
  protected:
    void SetUp() override {
        setenv("SDL_VIDEODRIVER", "offscreen", 1);
        dir_ = make_temp_dir("loopscope-view");
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string png(const char* name) const { return dir_ + "/" + name; }
    std::string dir_;
};

}  // namespace

TEST_F(ViewerHeadless, CaptureScreenshotShowsTheFrameTimeGraph) {
    const std::string out = png("capture.png");
    const RunResult r = run_loopscope("view '" + capture("ocat_metro_exodus.csv") +
                                      "' --size 800x600 --frames 3 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Png p = count_plot_pixels(out);
    EXPECT_EQ(p.width, 800);
    EXPECT_EQ(p.height, 600);
    // 2500 frames decimated into a ~700 px wide plot: hundreds of plot-coloured pixels at least.
    EXPECT_GT(p.matching, 1000u);
}

TEST_F(ViewerHeadless, TwoCapturesAreDrawnInTheirOwnColours) {
    const std::string out = png("two.png");
    const RunResult r = run_loopscope("view '" + capture("ocat_metro_exodus.csv") + "' '" +
                                      capture("presentmon_gold_test_case_5.csv") +
                                      "' --size 800x600 --frames 3 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(count_plot_pixels(out).matching, 500u);
    EXPECT_GT(count_colour(out, 255, 170, 60).matching, 200u);  // the second document's orange
}

TEST_F(ViewerHeadless, LiveModeRunsTheEngineAndDrawsItsGraphs) {
    const std::string out = png("live.png");
    const RunResult r =
        run_loopscope("view --live --size 800x600 --frames 25 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Png p = count_plot_pixels(out);
    EXPECT_EQ(p.width, 800);
    EXPECT_GT(p.matching, 300u);  // frame-time, accumulator, steps and alpha lines and the ball
}

TEST_F(ViewerHeadless, LoopsDemoDrawsEveryLane) {
    const std::string out = png("demo.png");
    const RunResult r =
        run_loopscope("view --demo --size 800x600 --frames 30 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(count_plot_pixels(out).matching, 300u);          // five balls and their trails
    EXPECT_GT(count_colour(out, 255, 90, 90).matching, 200u);  // the walls of the wall lanes
}

TEST_F(ViewerHeadless, SpiralScenarioMarksTheOnset) {
    const std::string out = png("spiral.png");
    const RunResult r = run_loopscope(
        "view --scenario spiral-clamp-cap --size 800x600 --frames 3 "
        "--screenshot '" +
        out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(count_plot_pixels(out).matching, 300u);
    EXPECT_GT(count_colour(out, 255, 80, 255, 10).matching, 50u);  // the onset line and label
}

TEST_F(ViewerHeadless, BadInputIsOneLineAndExitCodeTwoWithNoScreenshot) {
    const std::string out = png("never.png");
    const std::string missing = dir_ + "/missing.csv";
    RunResult r = run_loopscope("view '" + missing + "' --frames 1 --screenshot '" + out + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("missing.csv"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));

    r = run_loopscope("view --size 12xbig --frames 1 --screenshot '" + out + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--size"), std::string::npos) << r.err;

    r = run_loopscope("view --scenario no-such-thing --frames 1 --screenshot '" + out + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("steady-60"), std::string::npos) << r.err;  // lists the scenarios
    EXPECT_FALSE(std::filesystem::exists(out));
}
#endif  // LOOPSCOPE_HAVE_VIEWER
