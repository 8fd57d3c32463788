// The viewer run headless (SDL's offscreen driver: OpenGL through EGL and Mesa) on a real capture,
// in live mode, on the loops demo, on a spiral scenario and on the probe tab: each run must write
// a PNG that shows the plots or tables, checked by decoding it and counting pixels of their
// colours.
#ifdef LOOPSCOPE_HAVE_VIEWER
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "probes/clock_report.hpp"
#include "tests/test_support.hpp"
#include "tool/viewer/markdown_blocks.hpp"

using namespace loopscope;
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

TEST_F(ViewerHeadless, ProbeTabRunsBothProbesAndShowsTheirTables) {
    const std::string out = png("probes.png");
    const RunResult r =
        run_loopscope("view --probes --size 1600x1000 --frames 2 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The screenshot waits for both probes; each reports its end on standard output.
    EXPECT_NE(r.out.find("probes: clock probe finished"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("probes: timer probe finished"), std::string::npos) << r.out;
    const Png headers = count_colour(out, 120, 230, 160, 6);  // kProbeHeaderColour
    EXPECT_EQ(headers.width, 1600);
    // Column titles of the clock table and the timer tables beside it.
    EXPECT_GT(headers.matching, 1000u);
    // The timer tables' histogram sparklines, drawn as bars (kProbeSparkColour).
    EXPECT_GT(count_colour(out, 190, 150, 255, 6).matching, 1000u);
    // Section headings ("Clock sources", "One-shot sleep overshoot": kProbeHeadingColour).
    EXPECT_GT(count_colour(out, 255, 214, 120, 6).matching, 500u);
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

    r = run_loopscope("view --demo --probes --frames 1 --screenshot '" + out + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--probes"), std::string::npos) << r.err;

    r = run_loopscope("view --scenario no-such-thing --frames 1 --screenshot '" + out + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("steady-60"), std::string::npos) << r.err;  // lists the scenarios
    EXPECT_FALSE(std::filesystem::exists(out));
}
// The probe panel shows the probes' own Markdown as tables: the split must keep every cell.
TEST(ViewerMarkdown, SplitsHeadingsParagraphsBulletsAndTables) {
    const std::string md =
        "## Clock sources\n\n"
        "2 clocks in 1 s; at least\nten reads each.\n\n"
        "| clock | read cost | note |\n"
        "| ----- | --------: | :--- |\n"
        "| a     |    1.0 ns | x    |\n"
        "| b     |    2.0 ns |\n"
        "\n- first finding\n- second finding\n";
    const auto blocks = parse_markdown_blocks(md);
    ASSERT_EQ(blocks.size(), 5u);
    EXPECT_EQ(blocks[0].kind, MarkdownBlock::Kind::heading);
    EXPECT_EQ(blocks[0].level, 2);
    EXPECT_EQ(blocks[0].text, "Clock sources");
    EXPECT_EQ(blocks[1].kind, MarkdownBlock::Kind::paragraph);
    EXPECT_EQ(blocks[1].text, "2 clocks in 1 s; at least ten reads each.");
    ASSERT_EQ(blocks[2].kind, MarkdownBlock::Kind::table);
    EXPECT_EQ(blocks[2].header, (std::vector<std::string>{"clock", "read cost", "note"}));
    EXPECT_EQ(blocks[2].right_aligned, (std::vector<bool>{false, true, false}));
    ASSERT_EQ(blocks[2].rows.size(), 2u);
    EXPECT_EQ(blocks[2].rows[0], (std::vector<std::string>{"a", "1.0 ns", "x"}));
    EXPECT_EQ(blocks[2].rows[1], (std::vector<std::string>{"b", "2.0 ns", ""}));  // padded
    EXPECT_EQ(blocks[3].kind, MarkdownBlock::Kind::bullet);
    EXPECT_EQ(blocks[4].text, "second finding");
}

TEST(ViewerMarkdown, SparklineCellsBecomeBarLevels) {
    Sparkline s;
    ASSERT_TRUE(parse_sparkline("50us \u2581\u2588\u2583\u00b7\u2584 1ms", s));
    EXPECT_EQ(s.left, "50us");
    EXPECT_EQ(s.right, "1ms");
    EXPECT_EQ(s.levels, (std::vector<int>{1, 8, 3, 0, 4}));
    EXPECT_FALSE(parse_sparkline("tight: 31 ns late at p99", s));
    EXPECT_FALSE(parse_sparkline("1.00 ns", s));
}

// The clock probe's real Markdown writer on a made-up result: every clock becomes a table row.
TEST(ViewerMarkdown, ClockSectionGivesOneRowPerClock) {
    ClockProbeResult result;
    result.reference_clock = "CLOCK_MONOTONIC_RAW";
    for (const char* name : {"steady", "coarse", "tsc"}) {
        ClockResult c;
        c.name = name;
        c.description = "a clock";
        result.clocks.push_back(c);
    }
    std::size_t tables = 0;
    for (const auto& b : parse_markdown_blocks(clocks_section_markdown(result))) {
        if (b.kind == MarkdownBlock::Kind::table) {
            ++tables;
            ASSERT_EQ(b.rows.size(), 3u);
            EXPECT_EQ(b.rows[2][0], "tsc");
            EXPECT_EQ(b.header[0], "clock");
        }
    }
    EXPECT_EQ(tables, 2u);  // the results and what each clock is
}

#endif  // LOOPSCOPE_HAVE_VIEWER
