// `loopscope report` end to end: malformed inputs give one line naming file:line:column and exit
// code 2 with no output file left behind; --fail-if exits 3 naming the figure; --list, ranges,
// timelines, formats and comparisons work on the synthetic captures of tests/data/ (and every
// format on the real captures too, where they are).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

namespace fs = std::filesystem;

using test::quoted;

std::string line_of(const std::string& path, int n) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    for (int i = 0; i < n && std::getline(in, line); ++i) {
    }
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    return line;
}

// Replaces the `column`th comma-separated cell (0-based) of a row.
std::string with_cell(const std::string& row, int column, const std::string& value) {
    std::string out;
    int c = 0;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = row.find(',', start);
        out += c == column ? value : row.substr(start, end - start);
        if (end == std::string::npos)
            break;
        out += ',';
        start = end + 1;
        ++c;
    }
    return out;
}

class ReportCliMalformed : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = test::make_temp_dir("loopscope-report-cli");
        const std::string gold = test::test_data("presentmon24.csv");
        header_ = line_of(gold, 1);
        if (header_.rfind("\xEF\xBB\xBF", 0) == 0)
            header_ = header_.substr(3);
        row_ = line_of(gold, 3);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Runs the report on `text` written to a file and checks the error contract. `place` is
    // what must follow the file name in the message, e.g. ":2:" ("" when there is no line).
    void expect_rejected(const std::string& name, const std::string& text,
                         const std::string& place) {
        SCOPED_TRACE(name);
        const std::string input = dir_ + "/" + name;
        test::write_text(input, text);
        expect_rejected_path(input, place);
    }
    void expect_rejected_path(const std::string& input, const std::string& place) {
        const std::string output = dir_ + "/report.json";
        const auto r =
            test::run_loopscope("report --format json -o " + quoted(output) + " " + quoted(input));
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_TRUE(r.out.empty());
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(input + place), std::string::npos) << r.err;
        // No report and no temporary file beside it.
        for (const auto& entry : fs::directory_iterator(dir_)) {
            EXPECT_EQ(entry.path().filename().string().rfind("report.json", 0), std::string::npos)
                << entry.path();
        }
    }

    std::string dir_;
    std::string header_;
    std::string row_;
};

TEST_F(ReportCliMalformed, EmptyFile) {
    expect_rejected("empty.csv", "", ": empty file");
}

TEST_F(ReportCliMalformed, HeaderOnly) {
    expect_rejected("header.csv", header_ + "\n", ":1");
}

TEST_F(ReportCliMalformed, TruncatedLine) {
    expect_rejected("truncated.csv", header_ + "\n" + row_ + "\n" + row_.substr(0, 60) + "\n",
                    ":3:");
}

TEST_F(ReportCliMalformed, WrongDelimiter) {
    std::string h = header_, r = row_;
    std::replace(h.begin(), h.end(), ',', ';');
    std::replace(r.begin(), r.end(), ',', ';');
    expect_rejected("semicolons.csv", h + "\n" + r + "\n", ":1:");
}

TEST_F(ReportCliMalformed, BadNumbers) {
    // Column 11 is MsBetweenPresents in the PresentMon 2.4 layout.
    for (const char* value : {"abc", "NaN", "inf", "-5.0"}) {
        expect_rejected(std::string("bad_") + value + ".csv",
                        header_ + "\n" + with_cell(row_, 11, value) + "\n", ":2:");
    }
}

TEST_F(ReportCliMalformed, UnknownFormat) {
    expect_rejected("unknown.csv", "hello world\nthis is not a capture\n", ":1:1:");
}

TEST_F(ReportCliMalformed, BinaryGarbage) {
    std::string bytes;
    for (int i = 0; i < 256; ++i)
        bytes += static_cast<char>((i * 37 + 11) % 256);
    expect_rejected("garbage.csv", bytes, ":1:");
}

TEST_F(ReportCliMalformed, MissingFile) {
    expect_rejected_path(dir_ + "/nope.csv", ": ");
}

TEST(ReportCli, TerminalReportOfACaptureShowsDefinitionsAndNoColourWhenPiped) {
    const auto r = test::run_loopscope("report " + quoted(test::test_data("ocat.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("game.exe"), std::string::npos);
    EXPECT_NE(r.out.find("1000 / mean(frame times >= their 0.99 quantile, MathNet R-8) "
                         "(CapFrameX \"1% low average\")"),
              std::string::npos);
    EXPECT_NE(r.out.find("(CapFrameX \"1% low\")"), std::string::npos);
    EXPECT_EQ(r.out.find('\033'), std::string::npos);
}

TEST(ReportCli, FailIfExitsThreeNamingTheFigure) {
    const std::string input = quoted(test::test_data("presentmon1.csv"));
    auto r = test::run_loopscope(
        "report --format json --fail-if 'p99_ms>20' --fail-if "
        "'stutter_time_share>0.9' " +
        input);
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("gate failed: p99_ms = "), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("stutter_time_share"), std::string::npos) << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out).empty());  // the report is still written
    r = test::run_loopscope("report --fail-if 'p99_ms>100000' " + input);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    r = test::run_loopscope("report --fail-if 'p98_ms>20' " + input);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown figure 'p98_ms'; valid figures: frames, duration_s"),
              std::string::npos)
        << r.err;
    r = test::run_loopscope("report --fail-if 'p99_ms>20' " +
                            quoted(test::test_data("mangohud.csv")));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("not available"), std::string::npos) << r.err;
}

// A plain list of frame times that sit on no refresh grid.
std::string list_without_refresh_grid(const std::string& dir) {
    std::string text;
    for (int i = 0; i < 200; ++i)
        text += std::to_string(9 + (i * 7) % 11) + "." + std::to_string((i * 37) % 10) + "\n";
    const std::string path = dir + "/no-grid.txt";
    test::write_text(path, text);
    return path;
}

TEST(ReportCli, FailIfOnAFigureTheCaptureCannotHaveExitsTwoSayingWhy) {
    const std::string dir = test::make_temp_dir("loopscope-fail-if");
    const std::string no_policy = test::write_unconfigured_trace(dir);
    struct Case {
        std::string figure, input, reason;
    };
    const std::vector<Case> cases = {
        // a sampled log: a row every 100 ms holds one frame's time
        {"avg_fps", test::test_data("mangohud.csv"),
         "MangoHud rows are 100 ms samples, not frames"},
        {"p99_ms", test::test_data("mangohud_v1.csv"), "MangoHud rows are"},
        // a per-frame capture has no sample figures
        {"samples", test::test_data("presentmon1.csv"),
         "has a row per frame, not interval samples"},
        // no display column
        {"dropped_share", test::test_data("plain.txt"), "has no display-change column"},
        // generated frames: not marked at all, or marked but none in the capture
        {"app_fps", test::test_data("presentmon1.csv"),
         "PresentMon 1.x writes presents only: no application frame-start column"},
        {"app_fps", test::test_data("presentmon1.csv"),
         "no generated frames marked (no FrameType column) and frame generation not detectable "
         "from this capture"},
        {"generated_fps", test::test_data("presentmon1.csv"),
         "does not mark generated frames (no FrameType column)"},
        {"generated_fps", test::test_data("presentmon24.csv"),
         "no generated frames among the frames analysed"},
        // no refresh grid
        {"refresh_hz", list_without_refresh_grid(dir), "no fixed refresh from"},
        // loop figures: not a trace, a trace without a loop configuration, no spiral
        {"alpha_mean", test::test_data("ocat.csv"),
         "has no loop columns (only loopscope traces do)"},
        {"headroom_ms", no_policy, "names no loop configuration (policy and dt_ns)"},
        {"slow_motion_factor", test::test_data("loopscope.trace"),
         "the loop kept up (verdict ok: no onset)"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.figure + " of " + c.input);
        const auto r =
            test::run_loopscope("report --fail-if '" + c.figure + ">0' " + quoted(c.input));
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find("--fail-if '" + c.figure + ">0': " + c.figure + " is not available: "),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find(c.reason), std::string::npos) << r.err;
    }
    fs::remove_all(dir);
}

TEST(ReportCli, FiguresACaptureCannotHaveAreNullInJson) {
    auto r = test::run_loopscope("report --format json " + quoted(test::test_data("mangohud.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto figures = nlohmann::json::parse(r.out)["figures"];
    EXPECT_TRUE(figures["avg_fps"].is_null());
    EXPECT_TRUE(figures["duration_s"].is_number());  // from the log's clock
    EXPECT_TRUE(figures["min_ms"].is_null());
    EXPECT_TRUE(figures["samples"].is_number_integer());
    EXPECT_TRUE(figures["mean_sample_ms"].is_number());

    r = test::run_loopscope("report --format json " + quoted(test::test_data("presentmon1.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    figures = nlohmann::json::parse(r.out)["figures"];
    EXPECT_GT(figures["avg_fps"].get<double>(), 0);
    EXPECT_TRUE(figures["app_fps"].is_null());
    EXPECT_TRUE(figures["alpha_mean"].is_null());
    EXPECT_TRUE(figures["samples"].is_null());
}

// The cells of the per-frame CSV: "capture,frame,start_s,frame_time_ms,fps,change_ms,
// capframex_stutter_time,unreal_hitch,startup,generated,hitch_cause" and, where a capture has
// busy and wait columns, "bound"; the cells after change_ms for the second frame.
std::string flag_cells_of_second_frame(const std::string& input) {
    const auto r = test::run_loopscope("report --format csv " + quoted(input));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line);  // header
    std::getline(lines, line);  // frame 0
    std::getline(lines, line);
    std::size_t at = 0;
    for (int comma = 0; comma < 6 && at != std::string::npos; ++comma)
        at = line.find(',', at) + 1;
    return line.substr(at);
}

TEST(ReportCli, CellsACaptureCannotHaveAreEmptyInCsv) {
    // PresentMon 1.x cannot mark generated frames: no 0 that would say "application frame".
    // Its msUntilRenderComplete and msInPresentAPI say where the frame's time went.
    EXPECT_EQ(flag_cells_of_second_frame(test::test_data("presentmon1.csv")), "0,0,1,,,cpu");
    // PresentMon 2.4+ with FrameType marks them (frame 1 is generated), and a generated frame
    // is not the application's work: its bound cell is empty.
    EXPECT_EQ(flag_cells_of_second_frame(test::test_data("presentmon24_framegen.csv")),
              "0,0,1,1,,");
    // A sampled log's rows are not frames: no stutter, hitch or start-up flags.
    EXPECT_EQ(flag_cells_of_second_frame(test::test_data("mangohud.csv")), ",,,,");
}

TEST(ReportCli, ATraceWithoutLoopConfigurationGetsNoInventedPolicyOrSpiral) {
    const std::string dir = test::make_temp_dir("loopscope-unconfigured");
    const std::string input = quoted(test::write_unconfigured_trace(dir));
    auto r = test::run_loopscope("report --format json " + input);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto capture = nlohmann::json::parse(r.out);  // one capture: its object
    const auto& loop = capture["loop"];
    for (const char* key : {"policy", "dt_ns", "sim_s", "spiral"})
        EXPECT_TRUE(loop[key].is_null()) << key << ": " << loop[key].dump();
    EXPECT_FALSE(loop["steps_histogram"].empty());
    EXPECT_TRUE(capture["figures"]["alpha_mean"].is_number());
    EXPECT_TRUE(capture["figures"]["slow_motion_factor"].is_null());
    EXPECT_TRUE(capture["figures"]["headroom_ms"].is_null());

    r = test::run_loopscope("report " + input);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("steps per frame"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("time lost to guards"), std::string::npos) << r.out;
    for (const char* absent : {"policy", "fixed-interp", "spiral onset", "headroom"})
        EXPECT_EQ(r.out.find(absent), std::string::npos) << absent << " in\n" << r.out;
    fs::remove_all(dir);
}

TEST(ReportCli, ListShowsTheStreamsOfACapture) {
    const auto r =
        test::run_loopscope("report --list " + quoted(test::test_data("presentmon1.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("game.exe"), std::string::npos);
    EXPECT_NE(r.out.find("dwm.exe"), std::string::npos);
    EXPECT_LT(r.out.find("game.exe"), r.out.find("dwm.exe"));  // most frames first
}

TEST(ReportCli, ProcessRangeAndTimelineSelectTheFrames) {
    const std::string input = quoted(test::test_data("presentmon1.csv"));
    auto r = test::run_loopscope("report --format json --process dwm.exe " + input);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["source"]["process"], "dwm.exe");
    r = test::run_loopscope("report --format json --from 100 --to 400 " + input);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["frames"], 300);
    EXPECT_EQ(j["range"]["first_frame"], 100);
    r = test::run_loopscope("report --format json --from 2s --to 6s " + input);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    j = nlohmann::json::parse(r.out);
    EXPECT_NEAR(j["duration_s"].get<double>(), 4.0, 0.2);
    r = test::run_loopscope("report --format json --timeline display " + input);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["timeline"], "display");
    EXPECT_GT(j["dropped_frames_left_out"].get<int>(), 0);
    EXPECT_EQ(
        j["frames"].get<int>() + j["dropped_frames_left_out"].get<int>(),
        j["display"]["displayed_frames"].get<int>() + j["display"]["dropped_frames"].get<int>());
    r = test::run_loopscope("report --from 1.5 " + input);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--from '1.5'"), std::string::npos) << r.err;
}

TEST(ReportCli, LoopscopeTracesGetTheLoopFiguresAndPlots) {
    // A trace of the loop running into the step cap, written by `loopscope run`.
    const std::string dir = test::make_temp_dir("loopscope-report-loop");
    const std::string trace = dir + "/spiral.trace";
    auto r = test::run_loopscope("run --clock virtual --scenario spiral-cap -o '" + trace + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run_loopscope("report --format json '" + trace + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.contains("loop"));
    // The figures agree with the trace's own columns.
    std::ifstream in(trace);
    std::string line;
    long long steps = 0, max_steps = 0, frames = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line.rfind("frame,", 0) == 0)
            continue;
        std::size_t at = 0;
        for (int c = 0; c < 7; ++c)
            at = line.find(',', at) + 1;  // the 8th column: steps
        const long long s = std::stoll(line.substr(at, line.find(',', at) - at));
        steps += s;
        max_steps = std::max(max_steps, s);
        ++frames;
    }
    EXPECT_EQ(j["loop"]["frames"], frames);
    EXPECT_EQ(j["loop"]["steps"], steps);
    EXPECT_EQ(j["loop"]["max_steps_per_frame"], max_steps);
    EXPECT_EQ(j["loop"]["max_steps"], 5);
    EXPECT_FALSE(j["loop"]["spiral"]["onset_frame"].is_null());
    EXPECT_NE(j["loop"]["spiral"]["verdict"]["state"], "ok");
    EXPECT_FALSE(j["loop"]["spiral"]["verdict"]["onset_frame"].is_null());
    EXPECT_GT(j["loop"]["guards"]["cap_frames"].get<int>(), 0);
    r = test::run_loopscope("report --format html -o '" + dir + "/r.html' '" + trace + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string html = test::read_text(dir + "/r.html");
    EXPECT_NE(html.find("Simulation steps per frame"), std::string::npos);
    EXPECT_NE(html.find("Accumulator after stepping"), std::string::npos);
    // The onset marker, labelled with the verdict, on both loop charts.
    const std::string marker =
        "\"label\":\"spiral from frame " +
        std::to_string(j["loop"]["spiral"]["verdict"]["onset_frame"].get<long long>()) + " at ";
    const std::size_t first = html.find(marker);
    ASSERT_NE(first, std::string::npos) << marker;
    EXPECT_NE(html.find(marker, first + 1), std::string::npos);
    fs::remove_all(dir);
}

TEST(ReportCli, HtmlNeedsAFile) {
    const auto r =
        test::run_loopscope("report --format html " + quoted(test::test_data("ocat.csv")));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("-o FILE"), std::string::npos) << r.err;
}

TEST(ReportCli, ComparisonOfTwoLayoutsOfOneCaptureFindsNoChange) {
    // The same presents written in the PresentMon 1.x and 2.4 layouts: nothing real changed
    // between them.
    const auto r =
        test::run_loopscope("report --format json " + quoted(test::test_data("presentmon1.csv")) +
                            " " + quoted(test::test_data("presentmon24.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["captures"].size(), 2u);
    EXPECT_EQ(j["comparison"]["figures"]["mean_ms"]["significant"], false);
    EXPECT_EQ(j["comparison"]["figures"]["p99_ms"]["significant"], false);
}

void expect_every_format_writes(const std::string& input) {
    const std::string dir = test::make_temp_dir("loopscope-report-formats");
    for (const char* format : {"terminal", "json", "md", "csv", "html", "chrome"}) {
        SCOPED_TRACE(input + " " + format);
        const std::string out = dir + "/out";
        const auto r = test::run_loopscope("report --format " + std::string(format) + " -o " +
                                           quoted(out) + " " + quoted(input));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_GT(fs::file_size(out), 100u);
        if (std::string(format) == "json" || std::string(format) == "chrome") {
            EXPECT_TRUE(nlohmann::json::accept(test::read_text(out)));
        }
    }
    fs::remove_all(dir);
}

TEST(ReportCli, EveryFormatWritesEveryCaptureLayout) {
    const std::vector<std::string> names = test::test_data_captures();
    EXPECT_GE(names.size(), 12u);
    for (const std::string& name : names)
        expect_every_format_writes(test::test_data(name));
}

TEST(ReportCli, EveryFormatWritesEveryRealCapture) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const auto& entry : fs::directory_iterator(test::captures_dir())) {
        if (entry.path().extension() == ".csv")
            expect_every_format_writes(entry.path().string());
    }
}

TEST(ReportCli, OutputExtensionChoosesTheFormatWhenNoneIsGiven) {
    const std::string dir = test::make_temp_dir("loopscope-ext");
    const std::string input = quoted(test::test_data("presentmon1.csv"));
    auto r = test::run_loopscope("report " + input + " -o '" + dir + "/r.html'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(test::read_text(dir + "/r.html").find("<html"), std::string::npos);
    r = test::run_loopscope("report " + input + " -o '" + dir + "/r.json'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(test::read_text(dir + "/r.json")).contains("frames"));
    // --format wins over the extension.
    r = test::run_loopscope("report " + input + " --format md -o '" + dir + "/r.json'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(test::read_text(dir + "/r.json").rfind("#", 0), 0u);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
