// The viewer run headless (SDL's offscreen driver: OpenGL through EGL and Mesa) on a capture,
// in live mode, on the loops demo, on a spiral scenario and on the probe tab: each run must write
// a PNG that shows the plots or tables, checked by decoding it and counting pixels of their
// colours.
#ifdef LOOPSCOPE_HAVE_VIEWER
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/frame_stats.hpp"
#include "core/segments.hpp"
#include "probes/clock_report.hpp"
#include "probes/probe_json.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_report.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"
#include "tool/viewer/document.hpp"

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

// The line of standard output that starts with `prefix`, or "" when there is none.
std::string output_line(const std::string& out, const std::string& prefix) {
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(prefix, 0) == 0) {
            return line;
        }
    }
    return "";
}

// "key=value" pairs of a line (values are numbers).
std::map<std::string, double> key_values(const std::string& line) {
    std::map<std::string, double> kv;
    std::istringstream words(line);
    for (std::string w; words >> w;) {
        const auto eq = w.find('=');
        if (eq != std::string::npos) {
            kv[w.substr(0, eq)] = std::stod(w.substr(eq + 1));
        }
    }
    return kv;
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
    const RunResult r = run_loopscope("view '" + test_data("ocat.csv") +
                                      "' --size 800x600 --frames 3 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Png p = count_plot_pixels(out);
    EXPECT_EQ(p.width, 800);
    EXPECT_EQ(p.height, 600);
    // 300 frames drawn across a ~700 px wide plot: hundreds of plot-coloured pixels at least.
    EXPECT_GT(p.matching, 1000u);
}

TEST_F(ViewerHeadless, TwoCapturesAreDrawnInTheirOwnColours) {
    const std::string out = png("two.png");
    const RunResult r =
        run_loopscope("view '" + test_data("ocat.csv") + "' '" + test_data("presentmon24.csv") +
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

#if defined(LOOPSCOPE_EXAMPLE_GAME) && !defined(_WIN32)
// `view --connect` against the example game serving its frames: the game's tab plots them as
// they arrive (frame time, accumulator, steps, alpha) with the report over what was received.
TEST_F(ViewerHeadless, ConnectPlotsTheExampleGameLive) {
    test::ServingGame game(300);
    ASSERT_GT(game.port(), 0);
    const std::string out = png("connect.png");
    const RunResult r = run_loopscope("view --connect 127.0.0.1:" + std::to_string(game.port()) +
                                      " --size 800x600 --frames 90 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // 90 viewer frames at 60 Hz: about 1.5 s of the game's 60 Hz frames, less the hand-overs.
    long long frames = 0;
    ASSERT_EQ(std::sscanf(r.out.c_str(), "connect: %lld frames received", &frames), 1) << r.out;
    EXPECT_GT(frames, 30);
    const Png p = count_plot_pixels(out);
    EXPECT_EQ(p.width, 800);
    EXPECT_GT(p.matching, 300u);
}

// No game at the address: one line and exit code 2, before a window opens.
TEST_F(ViewerHeadless, ConnectToNothingIsOneLineAndExitCode2) {
    const RunResult r =
        run_loopscope("view --connect 127.0.0.1:1 --screenshot '" + png("none.png") + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("loopscope: error: 127.0.0.1:1: cannot connect"), std::string::npos)
        << r.err;
}
#endif

TEST_F(ViewerHeadless, LoopsDemoDrawsEveryLane) {
    const std::string out = png("demo.png");
    const RunResult r =
        run_loopscope("view --demo --size 800x600 --frames 30 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(count_plot_pixels(out).matching, 300u);          // five balls and their trails
    EXPECT_GT(count_colour(out, 255, 90, 90).matching, 200u);  // the walls of the wall lanes
}

// Each of the three bounce lanes (the top three of five) shows its ball whole in its scene box,
// the variable step's too, which gains height at each bounce: at the default size, the ball
// pixels at the left, above the wall lanes, form three separate blobs of a ball's size.
TEST_F(ViewerHeadless, LoopsDemoShowsTheBallOfEveryBounceLane) {
    const std::string out = png("balls.png");
    const RunResult r = run_loopscope("view --demo --frames 90 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(out.c_str(), &w, &h, &channels, 3);
    ASSERT_NE(pixels, nullptr);
    ASSERT_EQ(w, 1600);
    // Rows holding ball pixels left of the trails (x < 12 %) in the bounce lanes (y < 61 %).
    std::vector<int> per_row(static_cast<std::size_t>(h), 0);
    for (int y = 0; y < h * 61 / 100; ++y) {
        for (int x = 0; x < w * 12 / 100; ++x) {
            const unsigned char* p = pixels + (static_cast<std::size_t>(y) * w + x) * 3;
            if (std::abs(p[0] - 90) <= 14 && std::abs(p[1] - 200) <= 14 &&
                std::abs(p[2] - 255) <= 14)
                ++per_row[static_cast<std::size_t>(y)];
        }
    }
    stbi_image_free(pixels);
    std::vector<int> blobs;  // pixels of each run of rows with ball pixels
    bool inside = false;
    for (const int n : per_row) {
        if (n > 0 && !inside)
            blobs.push_back(0);
        if (n > 0)
            blobs.back() += n;
        inside = n > 0;
    }
    ASSERT_EQ(blobs.size(), 3u);
    for (const int n : blobs)
        EXPECT_GT(n, 40);  // a ball of radius 7, filled (about 150) or a ring
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

// The probe tab draws the probes' sections (TextSection) directly: every table's column titles
// and cells, as handed to ImGui (--save-probe-tables), are the model's, and the model is the one
// the pure section functions build from the results the run measured (the probe document saved
// beside them). The window is tall enough that no table is scrolled out of view (ImGui skips
// what it cannot show).
TEST_F(ViewerHeadless, ProbeTabDrawsTheCellsOfTheProbeSections) {
    const std::string out = png("probe_tables.png");
    const std::string tables_path = dir_ + "/probe_tables.json";
    const RunResult r = run_loopscope("view --probes --size 1600x4000 --frames 2 --screenshot '" +
                                      out + "' --save-probe-tables '" + tables_path + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto saved = nlohmann::ordered_json::parse(read_text(tables_path));
    const auto& sections = saved.at("sections");
    std::vector<std::string> titles;
    for (const auto& s : sections) {
        titles.push_back(s.at("title").get<std::string>());
    }
    ASSERT_EQ(titles, (std::vector<std::string>{"Machine context", "Machine load", "Clock sources",
                                                "Timers and waits"}));
    for (const auto& s : sections) {
        const std::string title = s.at("title").get<std::string>();
        ASSERT_FALSE(s.at("drawn").is_null()) << title << " was not drawn";
        const auto& model = s.at("model");
        const auto& drawn = s.at("drawn");
        ASSERT_GE(model.size(), 1u) << title;
        ASSERT_EQ(drawn.size(), model.size()) << title;
        for (std::size_t t = 0; t < model.size(); ++t) {
            EXPECT_EQ(drawn[t].at("columns"), model[t].at("columns")) << title << " table " << t;
            ASSERT_EQ(drawn[t].at("rows").size(), model[t].at("rows").size()) << title << " " << t;
            for (std::size_t row = 0; row < model[t].at("rows").size(); ++row) {
                EXPECT_EQ(drawn[t].at("rows")[row], model[t].at("rows")[row])
                    << title << " table " << t << " row " << row;
            }
        }
    }

    // The model of the measured results: the sections built again here from the saved probe
    // document must hold the same cells. The document leaves out the periodic rows' log-scale
    // histograms (the terminal's bars), so that column is not compared; the machine load's raw
    // counters are not in it either: that section is checked against its shares.
    const ProbeDocument doc = saved.at("probe").get<ProbeDocument>();
    ASSERT_TRUE(doc.context && doc.clocks && doc.timers && doc.load);
    const auto model_cells = [](const TextSection& section) {
        std::vector<std::vector<std::vector<std::string>>> tables;
        for (const TextBlock& b : section.blocks) {
            if (b.kind != TextBlock::Kind::table) {
                continue;
            }
            auto& rows = tables.emplace_back();
            for (const auto& row : b.table.rows()) {
                auto& cells = rows.emplace_back();
                for (const TableCell& cell : row) {
                    cells.push_back(cell.text);
                }
            }
        }
        return tables;
    };
    const auto saved_cells = [&](std::size_t section) {
        std::vector<std::vector<std::vector<std::string>>> tables;
        for (const auto& t : sections[section].at("model")) {
            tables.push_back(t.at("rows").get<std::vector<std::vector<std::string>>>());
        }
        return tables;
    };
    EXPECT_EQ(saved_cells(0), model_cells(context_section(*doc.context)));
    EXPECT_EQ(saved_cells(2), model_cells(clocks_section(*doc.clocks)));
    auto timers = model_cells(timers_section(*doc.timers));
    auto shown = saved_cells(3);
    ASSERT_EQ(shown.size(), timers.size());
    for (std::size_t t = 0; t < timers.size(); ++t) {
        const auto& columns = sections[3].at("model")[t].at("columns");
        const bool periodic = columns[0] == "scheduling";
        ASSERT_EQ(shown[t].size(), timers[t].size()) << "timer table " << t;
        for (std::size_t row = 0; row < timers[t].size(); ++row) {
            for (std::size_t c = 0; c < timers[t][row].size(); ++c) {
                if (periodic && columns[c] == "histogram") {
                    continue;
                }
                EXPECT_EQ(shown[t][row][c], timers[t][row][c])
                    << "timer table " << t << " row " << row << " column " << columns[c];
            }
        }
    }
    const auto load_rows = saved_cells(1).at(0);
    const auto share_row = [&](const std::string& name) {
        for (const auto& row : load_rows) {
            if (row.at(0) == name) {
                return row.at(1);
            }
        }
        return std::string("(no row)");
    };
    if (doc.load->measured) {  // unreadable counters leave a "not measured" row instead
        EXPECT_EQ(share_row("CPU time of other processes"),
                  fmt::format("{:.1f}%", doc.load->other_share * 100.0));
        EXPECT_EQ(share_row("CPU time of this process"),
                  fmt::format("{:.1f}%", doc.load->self_share * 100.0));
        EXPECT_EQ(share_row("steal time"), fmt::format("{:.1f}%", doc.load->steal_share * 100.0));
    }
}

// --drop pushes a real SDL drop event: the file must come through the window's event path and
// open as a document (nothing else is opened, so the plot pixels can only come from it), and a
// bad dropped file must leave the viewer running with the reason shown.
TEST_F(ViewerHeadless, DroppedFileOpensAsADocument) {
    const std::string out = png("dropped.png");
    const std::string path = test_data("ocat.csv");
    const std::string missing = dir_ + "/missing.csv";
    const RunResult r = run_loopscope("view --drop '" + path + "' --drop '" + missing +
                                      "' --size 800x600 --frames 3 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(output_line(r.out, "dropped: "), "dropped: opened " + path) << r.out;
    EXPECT_NE(r.out.find("dropped: " + missing), std::string::npos) << r.out;
    EXPECT_GT(count_plot_pixels(out).matching, 1000u);
}

// --select sets the range as a shift-drag does; its statistics must be the report's own
// compute_frame_stats over exactly the frames starting inside the range.
TEST_F(ViewerHeadless, SelectedRangeHasTheStatisticsOfItsFrames) {
    const std::string out = png("selected.png");
    const std::string path = test_data("ocat.csv");
    const RunResult r = run_loopscope("view '" + path +
                                      "' --select 2s:5s --size 800x600 --frames 3 "
                                      "--screenshot '" +
                                      out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string line = output_line(r.out, "selection: ");
    ASSERT_FALSE(line.empty()) << r.out;

    // The frames that began in [2 s, 5 s), found here from the capture itself.
    const Capture c = read_capture(path);
    ASSERT_EQ(c.start_ns.size(), c.frame_ns.size());
    FrameBegins begins(c.frame_ns, c.start_ns, c.start_ends_frame_time);
    const auto began = [&](std::size_t i) { return begins.at(i); };
    std::size_t first = 0;
    while (first < c.frames() && began(first) < 2'000'000'000) {
        ++first;
    }
    std::size_t last = first;
    while (last < c.frames() && began(last) < 5'000'000'000) {
        ++last;
    }
    ASSERT_GT(first, 0u);
    ASSERT_LT(last, c.frames());
    EXPECT_NE(line.find(fmt::format("frames {}-{} of", first, last - 1)), std::string::npos)
        << line;
    const FrameStats expected =
        compute_frame_stats(std::span(c.frame_ns).subspan(first, last - first),
                            std::span(c.start_ns).subspan(first, last - first));
    auto kv = key_values(line);
    EXPECT_EQ(kv["frames"], static_cast<double>(last - first));
    EXPECT_DOUBLE_EQ(kv["mean_ms"], expected.frame_time.mean_ms);
    EXPECT_DOUBLE_EQ(kv["p50_ms"], expected.frame_time.p50_ms);
    EXPECT_DOUBLE_EQ(kv["p99_ms"], expected.frame_time.p99_ms);
    EXPECT_DOUBLE_EQ(kv["max_ms"], expected.frame_time.max_ms);
    EXPECT_DOUBLE_EQ(kv["fps"], expected.fps.average);
    EXPECT_DOUBLE_EQ(kv["fps_1pct_low"], expected.fps.p1_low);
    // The whole capture's figures differ: the check above is about the slice.
    EXPECT_NE(kv["max_ms"], compute_frame_stats(c.frame_ns, c.start_ns).frame_time.max_ms);
}

// "Save report..." headless: the viewer's report of a capture is the report command's, figure
// for figure, in every layout the issue of one model names (trace, PresentMon 1.x/2.x/2.4+,
// FrameView, MangoHud), and for a trace whose metadata names no loop configuration.
TEST_F(ViewerHeadless, SavedReportEqualsTheReportCommand) {
    const std::string no_policy_path = write_unconfigured_trace(dir_);
    for (const std::string& input :
         {test_data("loopscope.trace"), no_policy_path, test_data("presentmon1.csv"),
          test_data("presentmon2.csv"), test_data("presentmon24.csv"),
          test_data("presentmon24_framegen.csv"), test_data("frameview_Log.csv"),
          test_data("mangohud.csv")}) {
        SCOPED_TRACE(input);
        const std::string saved = dir_ + "/saved.json";
        const RunResult v =
            run_loopscope("view '" + input + "' --size 800x600 --frames 2 " + "--screenshot '" +
                          png("save.png") + "' --save-report '" + saved + "'");
        ASSERT_EQ(v.exit_code, 0) << v.err;
        EXPECT_NE(output_line(v.out, "report: saved the json report of ").find(saved),
                  std::string::npos)
            << v.out;
        const RunResult r = run_loopscope("report --format json '" + input + "'");
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto expected = nlohmann::json::parse(r.out);
        const auto actual = nlohmann::json::parse(read_text(saved));
        EXPECT_EQ(actual, expected) << "viewer:\n"
                                    << actual.dump(1) << "\nreport:\n"
                                    << expected.dump(1);
        EXPECT_FALSE(expected["figures"].empty());
    }
}

// With a range selected, the saved report is the report of that range (--from/--to in frames),
// in the format the extension names.
TEST_F(ViewerHeadless, SavedReportOfASelectionEqualsTheReportOfThoseFrames) {
    const std::string input = test_data("presentmon24.csv");
    const std::string saved = dir_ + "/range.md";
    const RunResult v = run_loopscope("view '" + input +
                                      "' --select 2s:5s --size 800x600 --frames 3 --screenshot '" +
                                      png("range.png") + "' --save-report '" + saved + "'");
    ASSERT_EQ(v.exit_code, 0) << v.err;
    const std::string line = output_line(v.out, "report: saved the md report of frames ");
    ASSERT_FALSE(line.empty()) << v.out;
    // "frames FIRST-LAST of ...": LAST inclusive, --to exclusive.
    std::size_t first = 0, last = 0;
    ASSERT_EQ(
        std::sscanf(line.c_str(), "report: saved the md report of frames %zu-%zu", &first, &last),
        2)
        << line;
    const RunResult r = run_loopscope(
        fmt::format("report --format md --from {} --to {} '{}'", first, last + 1, input));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_text(saved), r.out);
    EXPECT_NE(r.out.find(fmt::format("capture frames {}-{}", first, last)), std::string::npos)
        << r.out;

    // An extension without a format, and no --format: one line, exit 2, nothing written.
    const RunResult bad = run_loopscope("view '" + input + "' --frames 1 --screenshot '" +
                                        png("bad.png") + "' --save-report '" + dir_ + "/r.weird'");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("give --format"), std::string::npos) << bad.err;
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/r.weird"));
    const RunResult forced =
        run_loopscope("view '" + input + "' --frames 1 --screenshot '" + png("forced.png") +
                      "' --save-report '" + dir_ + "/r.weird' --format csv");
    EXPECT_EQ(forced.exit_code, 0) << forced.err;
    EXPECT_EQ(read_text(dir_ + "/r.weird").rfind("capture,frame,start_s", 0), 0u);
}

// --save-live-trace goes through the live panel's save: the trace must read back through the
// readers with every frame the run had and its loop columns.
TEST_F(ViewerHeadless, LiveRunSavedAsTraceReadsBack) {
    const std::string out = png("live-saved.png");
    const std::string trace = dir_ + "/live.trace.csv";
    const RunResult r = run_loopscope("view --live --size 800x600 --frames 20 --save-live-trace '" +
                                      trace + "' --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string line = output_line(r.out, "live: saved ");
    ASSERT_FALSE(line.empty()) << r.out;
    const std::size_t frames = std::stoul(line.substr(std::string("live: saved ").size()));
    EXPECT_NE(line.find(trace), std::string::npos) << line;
    EXPECT_GE(frames, 1u);
    EXPECT_LE(frames, 20u);  // at most one loop frame per viewer frame
    const Capture c = read_capture(trace);
    EXPECT_EQ(c.source.format, "loopscope-trace");
    EXPECT_EQ(c.frames(), frames);
    ASSERT_EQ(c.loop.size(), frames);
    for (std::size_t i = 1; i < c.loop.size(); ++i) {
        EXPECT_GT(c.loop[i].frame, c.loop[i - 1].frame);
        EXPECT_GE(c.loop[i].start_ns, c.loop[i - 1].start_ns);
    }

    // A path that cannot be written: the reason is reported, exit code 1, no file.
    const std::string bad = dir_ + "/no-such-dir/live.csv";
    const RunResult b = run_loopscope("view --live --frames 2 --save-live-trace '" + bad +
                                      "' --screenshot '" + png("live-bad.png") + "'");
    EXPECT_EQ(b.exit_code, 1);
    EXPECT_NE(output_line(b.out, "live: ").find(bad), std::string::npos) << b.out;
    EXPECT_FALSE(std::filesystem::exists(bad));
}

// --select FROM:TO and report --from FROM --to TO are one range on one time axis: the same
// frames, on real captures whose clocks do not start at 0.
TEST_F(ViewerHeadless, SelectGivesTheFramesOfReportFromTo) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const char* name : {"IPMAuxTestData_F01TimeSpyDemoFS2080_gold.csv",
                             "IPMAuxTestData_test_case_9_v1.csv", "frameview_police2.csv"}) {
        SCOPED_TRACE(name);
        const std::string path = capture(name);
        const RunResult v = run_loopscope("view '" + path +
                                          "' --select 5s:10s --size 800x600 --frames 2 "
                                          "--screenshot '" +
                                          png("select.png") + "'");
        ASSERT_EQ(v.exit_code, 0) << v.err;
        const std::string line = output_line(v.out, "selection: ");
        std::size_t first = 0, last = 0;
        ASSERT_EQ(std::sscanf(line.c_str(), "selection: frames %zu-%zu", &first, &last), 2)
            << v.out;
        const RunResult r = run_loopscope("report --format json --from 5s --to 10s '" + path + "'");
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["range"]["first_frame"].get<std::size_t>(), first);
        EXPECT_EQ(j["range"]["last_frame"].get<std::size_t>(), last);
    }
}

// Captures opened together line up at their first frames (t = 0), whatever their own clocks
// say, and a document's duration is the time its frames cover.
TEST(ViewerDocument, DocumentsStartAtTheirFirstFrames) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const char* name :
         {"frameview_set/fv0008_alan-wake-2-no-rt-dlss-3-5-10_30fps-driver-cap-fsr-quality.csv",
          "frameview_set/fv0066_cyberpunk-no-rt_30fps-xess-quality.csv", "frameview_police2.csv",
          "IPMAuxTestData_test_case_9_v1.csv"}) {
        SCOPED_TRACE(name);
        const auto doc = load_document(capture(name), "");
        ASSERT_GT(doc->frames(), 1u);
        // The first frame began one frame time before its present at t = 0.
        EXPECT_LE(doc->begin_ns(), 0);
        EXPECT_GE(doc->begin_ns(), -doc->frame_ns.values.front());
        EXPECT_GT(doc->capture.clock_origin_ns + doc->begin_ns(), 0);
        std::int64_t sum_ns = 0;
        for (const std::int64_t ns : doc->frame_ns.values)
            sum_ns += ns;
        // Frames end to end on the capture's clock: the span is the sum of the frame times, to
        // the rounding of the file's times (0.1 ms).
        EXPECT_NEAR(static_cast<double>(doc->duration_ns()), static_cast<double>(sum_ns), 1e5);
    }
}

// A long frame is a plateau of its length (a step), not a ramp from the frame before, and its
// hitch marker stands at the plateau's left edge: 100 frames of 10 ms, one of 500 ms, 100 more.
TEST_F(ViewerHeadless, AHitchDrawsAsAStepWithItsMarkerAtItsStart) {
    const std::string list = dir_ + "/hitch.txt";
    std::string text;
    for (int i = 0; i < 201; ++i)
        text += i == 100 ? "500\n" : "10\n";
    write_text(list, text);
    const std::string out = png("step.png");
    const RunResult r =
        run_loopscope("view '" + list + "' --size 1280x720 --frames 3 --screenshot '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(out.c_str(), &w, &h, &channels, 3);
    ASSERT_NE(pixels, nullptr);
    const auto is = [&](int x, int y, int cr, int cg, int cb) {
        const unsigned char* p = pixels + (static_cast<std::size_t>(y) * w + x) * 3;
        return std::abs(p[0] - cr) <= 14 && std::abs(p[1] - cg) <= 14 && std::abs(p[2] - cb) <= 14;
    };
    // The longest run of the plot's colour on each row, and where it starts.
    std::vector<int> run_length(h, 0), run_start(h, 0);
    for (int y = 0; y < h; ++y) {
        for (int x = 0, n = 0; x < w; ++x) {
            n = is(x, y, 90, 200, 255) ? n + 1 : 0;
            if (n > run_length[y]) {
                run_length[y] = n;
                run_start[y] = x - n + 1;
            }
        }
    }
    // The 10 ms frames: the longest run of all (1 s of frames on each side).
    const int base = static_cast<int>(std::max_element(run_length.begin(), run_length.end()) -
                                      run_length.begin());
    // The 500 ms frame: a run well above it, a fifth of the 2.5 s capture's width.
    int top = -1;
    for (int y = 0; y + 100 < base; ++y) {
        if (top < 0 || run_length[y] > run_length[top])
            top = y;
    }
    ASSERT_GE(top, 0);
    const int plot_width = run_length[base] * 5 / 2;  // the base run is ~1 s of 2.5 s
    EXPECT_GT(run_length[top], plot_width / 8) << "row " << top << " base " << base;
    // The hitch marker (a red triangle at the top of the plot) at the plateau's left edge.
    long red_x = 0, red_n = 0;
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            if (is(x, y, 255, 60, 60)) {
                red_x += x;
                ++red_n;
            }
        }
    }
    stbi_image_free(pixels);
    ASSERT_GT(red_n, 0);
    EXPECT_NEAR(static_cast<double>(red_x) / static_cast<double>(red_n), run_start[top], 6.0);
}

// At 1280x720 no label is cut short (the viewer measures each label against its panel with
// ImGui's text size and prints those that do not fit); in a tiny window some are, so the check
// can fail.
TEST_F(ViewerHeadless, NoLabelIsCutAt1280x720) {
    // Said on standard error only when some are cut; standard output never has the count.
    const auto cut = [](const RunResult& r) {
        EXPECT_EQ(r.out.find("labels cut"), std::string::npos) << r.out;
        const std::string line = output_line(r.err, "labels cut: ");
        return line.empty() ? 0 : std::stoi(line.substr(12));
    };
    for (const std::string& files :
         {quoted(test_data("presentmon24_framegen.csv")), quoted(test_data("loopscope.trace")),
          quoted(test_data("ocat.csv"))
              .append(" ")
              .append(quoted(test_data("presentmon24.csv")))}) {
        SCOPED_TRACE(files);
        const RunResult r =
            run_loopscope("view " + files + " --size 1280x720 --frames 3 --screenshot '" +
                          png("labels.png") + "'");
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(cut(r), 0) << r.err;
    }
    const RunResult tiny =
        run_loopscope("view '" + test_data("presentmon24_framegen.csv") +
                      "' --size 320x240 --frames 3 --screenshot '" + png("tiny.png") + "'");
    ASSERT_EQ(tiny.exit_code, 0) << tiny.err;
    EXPECT_GT(cut(tiny), 0) << tiny.err;
}

// -o is the live harness's trace: with --live and --screenshot the run is saved there; without
// --live it is refused, and --json (a loop command's) is not an option of view.
TEST_F(ViewerHeadless, OutputOptionWorksWhereOffered) {
    const std::string trace = dir_ + "/o.trace.csv";
    const RunResult r =
        run_loopscope("view --live -o '" + trace + "' --size 800x600 --frames 10 --screenshot '" +
                      png("o.png") + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(read_capture(trace).frames(), 0u);
    const std::string other = dir_ + "/other.csv";
    RunResult bad = run_loopscope("view '" + test_data("ocat.csv") + "' -o '" + other +
                                  "' --frames 1 --screenshot '" + png("o2.png") + "'");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--live"), std::string::npos) << bad.err;
    EXPECT_FALSE(std::filesystem::exists(other));
    bad = run_loopscope("view --live --json '" + other + "' --frames 1 --screenshot '" +
                        png("o3.png") + "'");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_FALSE(std::filesystem::exists(other));
    const RunResult help = run_loopscope("view --help");
    EXPECT_EQ(help.out.find("--json"), std::string::npos) << help.out;
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

    r = run_loopscope("view --select 5s --frames 1 --screenshot '" + out + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--select"), std::string::npos) << r.err;

    r = run_loopscope("view --save-live-trace x.csv --frames 1 --screenshot '" + out + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--live"), std::string::npos) << r.err;

    r = run_loopscope("view --save-probe-tables t.json --frames 1 --screenshot '" + out + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--save-probe-tables: needs --probes"), std::string::npos) << r.err;

    r = run_loopscope("view --scenario no-such-thing --frames 1 --screenshot '" + out + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("steady-60"), std::string::npos) << r.err;  // lists the scenarios
    EXPECT_FALSE(std::filesystem::exists(out));
}
// What a selected time range covers: the frames whose start lies inside it.
TEST(ViewerSelection, RangeCoversTheFramesStartingInIt) {
    Document d;
    d.x_ns = {0, 10, 20, 30, 40};
    d.began_ns = d.x_ns;
    const auto check = [&](double a, double b, std::size_t first, std::size_t last) {
        const SelectedFrames r = frames_in_range(d, a, b);
        EXPECT_EQ(r.first, first) << a << ".." << b;
        EXPECT_EQ(r.last, last) << a << ".." << b;
    };
    check(5, 25, 1, 3);
    check(10, 30, 1, 3);  // begin inclusive, end exclusive
    check(-100, 1000, 0, 5);
    check(11, 19, 2, 2);  // no frame starts inside: empty
    check(50, 60, 5, 5);
}

// The document holds the report's own analysis: the refresh rate from the display column, the
// start-up segment, the loop configuration through the one metadata parser (none when the trace
// names none, so no spiral is marked), and for engine records the configuration they ran with.
TEST(ViewerDocument, HoldsTheReportOfItsCapture) {
    const std::string path = test_data("presentmon24.csv");
    const auto doc = load_document(path, "");
    ASSERT_TRUE(doc->report.has_value());
    const Capture c = read_capture(path);
    const CaptureReport expected = analyse_capture(c, {});
    EXPECT_EQ(doc->report->refresh_column, expected.refresh_column);
    EXPECT_EQ(doc->report->refresh_column, "MsBetweenDisplayChange");
    EXPECT_EQ(doc->report->stats.refresh.rate_hz, expected.stats.refresh.rate_hz);
    EXPECT_EQ(doc->report->startup.frames, expected.startup.frames);
    EXPECT_DOUBLE_EQ(doc->report->stats.frame_time.p99_ms, expected.stats.frame_time.p99_ms);
    EXPECT_TRUE(doc->report->display.available);

    const std::string dir = make_temp_dir("loopscope-document");
    const auto bare = load_document(write_unconfigured_trace(dir), "");
    ASSERT_TRUE(bare->report.has_value());
    EXPECT_FALSE(bare->report->loop_config.has_value());
    EXPECT_TRUE(bare->report->loop_figures.has_value());  // steps, accumulator, alpha, guards
    EXPECT_FALSE(bare->spiral_onset_frame().has_value());
    std::filesystem::remove_all(dir);

    LoopConfig config;
    config.policy = Policy::fixed;
    config.dt_ns = 10'000'000;
    config.max_steps = 3;
    config.timescale = 0.5;
    std::vector<FrameRecord> records(5);
    for (std::size_t i = 0; i < records.size(); ++i) {
        records[i].frame = static_cast<std::int64_t>(i);
        records[i].start_ns = static_cast<std::int64_t>(i) * 16'000'000;
        records[i].raw_ns = 16'000'000;
    }
    const auto run = document_from_records("run", records, config);
    ASSERT_TRUE(run->report && run->report->loop_config);
    EXPECT_EQ(run->report->loop_config->policy, Policy::fixed);
    EXPECT_EQ(run->report->loop_config->dt_ns, config.dt_ns);
    EXPECT_EQ(run->report->loop_config->max_steps, 3);
    EXPECT_DOUBLE_EQ(run->report->loop_config->timescale, 0.5);
}

// The histogram and the percentile curve are of the report's frames and the curve is the
// report's: a trace's frame 0 (its raw_ns is not a frame time) is in neither.
TEST(ViewerDocument, DistributionIsOfTheReportsFrames) {
    std::vector<FrameRecord> records(200);
    for (std::size_t i = 0; i < records.size(); ++i) {
        records[i].frame = static_cast<std::int64_t>(i);
        records[i].start_ns = static_cast<std::int64_t>(i) * 16'000'000;
        records[i].raw_ns = 16'000'000 + static_cast<std::int64_t>(i % 7) * 100'000;
    }
    records[0].raw_ns = 900'000'000;  // before the first frame: not a frame time
    const auto doc = document_from_records("run", records, LoopConfig{});
    ASSERT_TRUE(doc->report.has_value());
    EXPECT_EQ(doc->frames(), records.size());
    ASSERT_EQ(doc->report_frame_ns.size(), records.size() - 1);
    EXPECT_EQ(doc->report_frame_ns.size(), doc->report->stats.frame_time.frames);
    EXPECT_EQ(std::count(doc->report_frame_ns.begin(), doc->report_frame_ns.end(), 900'000'000), 0);
    EXPECT_DOUBLE_EQ(doc->report->tail_curve_ms.front(), doc->report->stats.frame_time.min_ms);
    EXPECT_LT(doc->report->tail_curve_ms.back(), 17.0);  // the frame-0 900 ms is not its tail
}

#endif  // LOOPSCOPE_HAVE_VIEWER
