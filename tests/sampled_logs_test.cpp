// Sampled logs: MangoHud (a row every 100 ms with the latest single frame's time) and MSI
// Afterburner's hardware monitoring log (a row every polling period with that interval's frame
// rate). The Afterburner reader on small logs written here and on the real ones; the figures of
// the samples, their labels, duration from the log's clock, a comparison of two sampled logs and
// their Chrome trace as a counter at the samples' times.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "core/analysis.hpp"
#include "core/comparison.hpp"
#include "core/figures.hpp"
#include "readers/readers.hpp"
#include "test_support.hpp"

namespace loopscope {
namespace {

constexpr std::int64_t kMs = 1'000'000;

class SampledLogs : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::make_temp_dir("loopscope-sampled"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string write(const std::string& name, const std::string& text) {
        const std::string path = dir_ + "/" + name;
        test::write_text(path, text);
        return path;
    }
    std::string dir_;
};

// One session as Afterburner writes it: CRLF, names padded with spaces, Framerate and Frametime
// logged twice, N/A while no game runs; the clock crosses midnight.
std::string afterburner_session(const std::string& day, const std::string& gpu) {
    const std::string eol = "\r\n";
    return "00, " + day + " 23:59:58, Hardware monitoring log v1.6 ,,,,," + eol + "01, " + day +
           " 23:59:58, " + gpu + ",,,,," + eol + "02, " + day +
           " 23:59:58, Power               ,Framerate           ,Frametime           ,"
           "Framerate           ,Frametime           " +
           eol + "03, " + day + " 23:59:58,0,W                   ,0,300,10" + eol + "80, " + day +
           " 23:59:59,5.0,N/A                 ,N/A                 ,N/A                 ,N/A" +
           eol + "80, 02-02-2025 00:00:00,100.0,50.0,25.5,50.0,25.5" + eol +
           "80, 02-02-2025 00:00:01,100.0,40.0,30.000,40.0,30.000" + eol +
           "80, 02-02-2025 00:00:01,100.0,80.0,N/A                 ,80.0,N/A" + eol;
}

TEST_F(SampledLogs, AfterburnerRowsAreIntervalsOfItsFramerate) {
    const std::string path = write("ab.csv", afterburner_session("01-02-2025", "Example GPU"));
    EXPECT_EQ(detect_format(path), "afterburner");
    const Capture c = read_capture(path);
    EXPECT_EQ(c.source.format, "afterburner");
    EXPECT_FALSE(c.per_frame);
    EXPECT_EQ(c.sample_kind, Capture::SampleKind::interval_rate);
    EXPECT_EQ(c.source.swap_chain, "");  // one session: one unnamed stream
    // 1000 / Framerate; the N/A row gives no sample and is counted.
    EXPECT_EQ(c.frame_ns, (std::vector<std::int64_t>{20 * kMs, 25 * kMs, 12'500'000}));
    // Seconds since the 00 line, across midnight; two rows with one stamp share its second.
    // Times count from the first sample (t = 0), kept on the log's clock once.
    EXPECT_EQ(c.start_ns, (std::vector<std::int64_t>{0, 1'000'000'000, 1'500'000'000}));
    EXPECT_EQ(c.clock_origin_ns, 2'000'000'000);
    EXPECT_EQ(c.sensor_frame_ns, (std::vector<std::int64_t>{25'500'000, 30 * kMs, -1}));
    EXPECT_EQ(c.metadata.at("gpu"), "Example GPU");
    EXPECT_EQ(c.metadata.at("rows_without_frame_time"), "1");
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_NE(c.warnings[0].find("ab.csv:5: 1 row of session 1 with Framerate N/A"),
              std::string::npos)
        << c.warnings[0];
}

TEST_F(SampledLogs, AfterburnerSessionsAppendedToOneLogAreStreams) {
    const std::string path =
        write("two.csv", afterburner_session("01-02-2025", "GPU A") +
                             afterburner_session("01-02-2025", "GPU A") +
                             "80, 02-02-2025 00:00:02,100.0,60.0,17.0,60.0,17.0\r\n");
    const auto listed = list_capture_streams(path);
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[0].swap_chain, "session 2");  // most samples first
    EXPECT_EQ(listed[0].frames, 4u);
    EXPECT_EQ(listed[1].swap_chain, "session 1");
    EXPECT_EQ(listed[1].frames, 3u);
    ReadOptions first;
    first.process = "session 1";
    const Capture c = read_capture(path, first);
    EXPECT_EQ(c.frames(), 3u);
    EXPECT_NE(c.warnings.front().find("2 logging sessions"), std::string::npos);
    // A sampled log's duration is the span of its samples on the log's clock.
    EXPECT_DOUBLE_EQ(listed[0].duration_s, 2.0);
}

// A polling period of 250 ms: four rows a stamp, spread over their second.
TEST_F(SampledLogs, AfterburnerRowsSharingAStampAreSpreadOverItsSecond) {
    std::string text =
        "00, 24-10-2025 15:41:23, Hardware monitoring log v1.6 ,,\r\n"
        "02, 24-10-2025 15:41:23, Framerate           ,Frametime           \r\n";
    for (int second = 24; second < 27; ++second) {
        for (int k = 0; k < 4; ++k)
            text += "80, 24-10-2025 15:41:" + std::to_string(second) + ",60.0,17.0\r\n";
    }
    const Capture c = read_capture(write("fast.csv", text));
    ASSERT_EQ(c.frames(), 12u);
    for (std::size_t i = 0; i < c.frames(); ++i)
        EXPECT_EQ(c.clock_origin_ns + c.start_ns[i],
                  1'000'000'000 + static_cast<std::int64_t>(i) * 250 * kMs)
            << i;
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_NE(
        figure_definition(*find_figure("samples"), &r).find("from 12 polling intervals of 250 ms"),
        std::string::npos);
    EXPECT_NEAR(*figure_value(r, "sampled_avg_fps"), 60.0, 1e-5);  // 16666667 ns a frame
}

TEST_F(SampledLogs, AfterburnerDamageNamesLineAndColumn) {
    const std::string head =
        "00, 24-10-2025 15:41:23, Hardware monitoring log v1.6 ,,\n"
        "02, 24-10-2025 15:41:23, Framerate           ,Frametime           \n";
    struct Case {
        std::string text, message;
        std::int64_t line, column;
    };
    const std::vector<Case> cases = {
        {head + "80, 2025-10-24 15:41:24,60.0,17.0\n", "expected a time stamp dd-mm-yyyy", 3, 4},
        {head + "80, 24-10-2025 15:41:24,60.0\n", "expected 4 comma-separated columns", 3, 29},
        {head + "80, 24-10-2025 15:41:24,fast,17.0\n", "Framerate", 3, 25},
        {"00, 24-10-2025 15:41:23, Hardware monitoring log v1.6 ,,\n"
         "80, 24-10-2025 15:41:24,60.0,17.0\n",
         "before the sensor names", 2, 1},
        {"00, 24-10-2025 15:41:23, Hardware monitoring log v1.6 ,,\n"
         "02, 24-10-2025 15:41:23, Power               ,Frametime           \n",
         "no Framerate sensor", 2, 1},
        {head + "80, 24-10-2025 15:41:24,N/A,N/A\n", "no sample", 1, 0},
        // Found by the fuzz target: a stamp centuries after the first passed the int64 range in
        // ns (tests/fuzz/corpus/afterburner_time_stamps_eight_centuries_apart.csv).
        {head + "80, 24-10-2025 15:41:24,60.0,17.0\n80, 24-10-2825 15:41:25,60.0,17.0\n",
         "more than 292 years", 4, 4},
    };
    for (const Case& k : cases) {
        SCOPED_TRACE(k.text);
        const std::string path = write("bad.csv", k.text);
        try {
            read_capture(path);
            ADD_FAILURE() << "read";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(k.message), std::string::npos) << e.what();
            EXPECT_EQ(e.line(), k.line) << e.what();
            EXPECT_EQ(e.column(), k.column) << e.what();
        }
    }
}

TEST_F(SampledLogs, MangoHudNaFrameTimeIsCountedNotRefused) {
    const std::string path =
        write("mh.csv",
              "os,cpu,gpu,ram,kernel,driver,cpuscheduler\n"
              "Linux,Example CPU,Example GPU,1,6.1,,performance\n"
              "fps,frametime,cpu_load,elapsed\n"
              "60,16.6667,10,100000000\nNA,NA,10,200000000\n50,20,10,300000000\n");
    const Capture c = read_capture(path);
    EXPECT_EQ(c.sample_kind, Capture::SampleKind::latest_frame);
    EXPECT_EQ(c.frame_ns, (std::vector<std::int64_t>{16'666'700, 20 * kMs}));
    EXPECT_EQ(c.start_ns, (std::vector<std::int64_t>{0, 200 * kMs}));
    EXPECT_EQ(c.clock_origin_ns, 100 * kMs);
    EXPECT_EQ(c.metadata.at("rows_without_frame_time"), "1");
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_NE(c.warnings[0].find("mh.csv:5: 1 row with frametime NA"), std::string::npos)
        << c.warnings[0];
}

// The samples' percentiles are the project's percentile over the samples, and every definition
// says what they are samples of.
TEST(SampledLogFigures, PercentilesOfTheSamplesSayWhatTheSamplesAre) {
    const Capture c = read_capture(test::test_data("mangohud_v1.csv"));
    const CaptureReport r = analyse_capture(c, {});
    std::vector<std::int64_t> sorted = c.frame_ns;
    std::sort(sorted.begin(), sorted.end());
    const auto at = [&](double p) {
        const double h = p * static_cast<double>(sorted.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(h));
        const double x = static_cast<double>(sorted[lo]);
        const double next = lo + 1 < sorted.size() ? static_cast<double>(sorted[lo + 1]) : x;
        return (x + (h - static_cast<double>(lo)) * (next - x)) / 1e6;
    };
    EXPECT_NEAR(*figure_value(r, "sampled_p50_ms"), at(0.50), 1e-9);
    EXPECT_NEAR(*figure_value(r, "sampled_p95_ms"), at(0.95), 1e-9);
    EXPECT_NEAR(*figure_value(r, "sampled_p99_ms"), at(0.99), 1e-9);
    EXPECT_NEAR(*figure_value(r, "sampled_max_ms"), static_cast<double>(sorted.back()) / 1e6, 1e-9);
    const std::string basis =
        "from " + std::to_string(c.frames()) + " samples of one frame every 100 ms";
    EXPECT_NE(figure_definition(*find_figure("sampled_p99_ms"), &r).find(basis), std::string::npos)
        << figure_definition(*find_figure("sampled_p99_ms"), &r);
    // duration_s from the log's clock: first sample to last.
    EXPECT_NEAR(*figure_value(r, "duration_s"),
                static_cast<double>(c.start_ns.back() - c.start_ns.front()) / 1e9, 1e-12);
    // Only an Afterburner log has the Frametime sensor.
    EXPECT_FALSE(figure_value(r, "sensor_frametime_p99_ms").has_value());
    // The frames' figures stay absent.
    EXPECT_FALSE(figure_value(r, "p99_ms").has_value());
}

TEST(SampledLogFigures, AfterburnerFiguresNameThePollingIntervals) {
    const Capture c = read_capture(test::test_data("afterburner.csv"));
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_NE(figure_definition(*find_figure("samples"), &r)
                  .find("from " + std::to_string(c.frames()) + " polling intervals of 1000 ms"),
              std::string::npos)
        << figure_definition(*find_figure("samples"), &r);
    std::vector<std::int64_t> sensor;
    for (const std::int64_t v : c.sensor_frame_ns) {
        if (v >= 0)
            sensor.push_back(v);
    }
    ASSERT_FALSE(sensor.empty());
    EXPECT_NEAR(*figure_value(r, "sensor_frametime_max_ms"),
                static_cast<double>(*std::max_element(sensor.begin(), sensor.end())) / 1e6, 1e-9);
}

TEST(SampledLogFigures, TwoSampledLogsCompareOnTheirSamples) {
    const Capture a = read_capture(test::test_data("mangohud.csv"));
    const Capture b = read_capture(test::test_data("mangohud_v1.csv"));
    const CaptureReport ra = analyse_capture(a, {});
    const CaptureReport rb = analyse_capture(b, {});
    const Comparison c = compare_captures(ra, rb, 50);
    ASSERT_FALSE(c.figures.empty());
    for (const FigureDifference& d : c.figures) {
        SCOPED_TRACE(d.name);
        // The samples' own figures, and MangoHud's summary figures, which MangoHud computes
        // from the same rows.
        EXPECT_TRUE(d.name.starts_with("sampled_") || d.name == "mean_sample_ms" ||
                    d.name.starts_with("mangohud_"));
        EXPECT_NEAR(d.difference, d.b - d.a, 1e-12);
        EXPECT_LE(d.low, d.high);
    }
    EXPECT_EQ(c.block_a, bootstrap_block_frames(a.frames()));  // blocks of samples
    // A sampled log and a per-frame capture do not compare: their rows are different things.
    const Capture frames = read_capture(test::test_data("presentmon1.csv"));
    const CaptureReport rf = analyse_capture(frames, {});
    EXPECT_THROW(compare_captures(ra, rf, 10), UsageError);
    // Through the command line.
    const auto run = test::run_loopscope("report '" + test::test_data("mangohud.csv") + "' '" +
                                         test::test_data("mangohud_v1.csv") + "'");
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("sampled_p99_ms"), std::string::npos) << run.out;
}

TEST(SampledLogFigures, ChromeTraceIsACounterAtTheSampleTimes) {
    const std::string dir = test::make_temp_dir("loopscope-sampled-chrome");
    const std::string out = dir + "/trace.json";
    const auto run = test::run_loopscope("report --format chrome -o '" + out + "' '" +
                                         test::test_data("mangohud.csv") + "'");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto j = nlohmann::json::parse(test::read_text(out));
    std::filesystem::remove_all(dir);
    const Capture c = read_capture(test::test_data("mangohud.csv"));
    std::vector<std::int64_t> ts;
    for (const auto& e : j["traceEvents"]) {
        EXPECT_NE(e["ph"], "X");  // no frames laid end to end
        if (e["ph"] == "C") {
            EXPECT_EQ(e["name"], "sampled_frame_time_ms");
            ts.push_back(e["ts"].get<std::int64_t>());
        }
    }
    ASSERT_EQ(ts.size(), c.frames());
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const std::int64_t want_us = (c.start_ns[i] - c.start_ns[0] + 500) / 1000;
        EXPECT_EQ(ts[i], want_us) << i;
    }
}

TEST(SampledLogFigures, TheSystemLinesAreInTheReportsContext) {
    const auto text = test::run_loopscope("report '" + test::test_data("mangohud_v1.csv") + "'");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("system: CPU Example CPU 8-Core Processor; GPU Example GPU 4070 "
                            "(RADV); OS Example Linux; kernel 6.12.0-example"),
              std::string::npos)
        << text.out;
    const auto json =
        test::run_loopscope("report --format json '" + test::test_data("afterburner.csv") + "'");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["system"]["GPU"], "Example GPU 4070");
    EXPECT_TRUE(j["duration_s"].is_number());
    EXPECT_EQ(j["sampled"]["kind"], "interval_rate");
}

// ---- The real logs (skipped without ../shared/captures) ----

std::vector<std::vector<std::string>> csv_rows(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        std::vector<std::string> cells;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ','))
            cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

// MangoHud writes fps = 1000 / frametime of the same frame on every row: a sample of one frame
// (an interval's average FPS and average frame time would not be reciprocal).
TEST(SampledLogsReal, MangoHudRowsAreOneFrameEach) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    std::size_t rows = 0;
    for (const char* name : {"mangohud_overwatch.csv", "mangohud_v1_versioned.csv"}) {
        SCOPED_TRACE(name);
        const auto lines = csv_rows(test::capture(name));
        bool data = false;
        for (const auto& cells : lines) {
            if (!data) {
                data = !cells.empty() && cells[0] == "fps";
                continue;
            }
            const double fps = std::stod(cells[0]), frametime = std::stod(cells[1]);
            // Both printed to six significant digits.
            EXPECT_NEAR(fps, 1000.0 / frametime, 5e-6 * fps) << cells[0] << "," << cells[1];
            ++rows;
        }
        const Capture c = read_capture(test::capture(name));
        const CaptureReport r = analyse_capture(c, {});
        EXPECT_TRUE(figure_value(r, "duration_s").has_value());
    }
    EXPECT_EQ(rows, 3992u);
    const Capture a = read_capture(test::capture("mangohud_overwatch.csv"));
    const CaptureReport ra = analyse_capture(a, {});
    EXPECT_NEAR(*figure_value(ra, "duration_s"), 29.7211155, 1e-9);
    const Capture b = read_capture(test::capture("mangohud_v1_versioned.csv"));
    const CaptureReport rb = analyse_capture(b, {});
    EXPECT_FALSE(compare_captures(ra, rb, 20).figures.empty());
}

TEST(SampledLogsReal, BothAfterburnerLogsRead) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    // awk: 80 rows per session (after each 00 line) whose Framerate is not N/A, and the sum of
    // 1000 / Framerate over them.
    struct Session {
        std::string file, swap_chain;
        std::size_t samples;
        double sum_ms;
    };
    const std::vector<Session> sessions = {
        {"afterburner/GOD.OF.WAR_Windows.csv", "session 2", 910, 16104.791045},
        {"afterburner/GOD.OF.WAR_Windows.csv", "session 1", 465, 7724.446574},
        {"afterburner/RE3_Windows.csv", "", 805, 7392.131446},
    };
    for (const Session& s : sessions) {
        SCOPED_TRACE(s.file + " " + s.swap_chain);
        EXPECT_EQ(detect_format(test::capture(s.file)), "afterburner");
        ReadOptions options;
        options.process = s.swap_chain;
        const Capture c = read_capture(test::capture(s.file), options);
        EXPECT_EQ(c.source.swap_chain, s.swap_chain);
        ASSERT_EQ(c.frames(), s.samples);
        double sum = 0;
        for (const std::int64_t ns : c.frame_ns)
            sum += static_cast<double>(ns) / 1e6;
        EXPECT_NEAR(sum, s.sum_ms, 1e-6 * static_cast<double>(s.samples));
        EXPECT_EQ(c.metadata.at("gpu"), "Radeon RX 580 Series");
        // The Frametime sensor is never below the interval's mean frame time, 1000 / Framerate
        // (what docs/input-formats.md says of it).
        ASSERT_EQ(c.sensor_frame_ns.size(), c.frames());
        for (std::size_t i = 0; i < c.frames(); ++i) {
            if (c.sensor_frame_ns[i] >= 0) {
                EXPECT_GE(c.sensor_frame_ns[i], c.frame_ns[i]) << i;
            }
        }
        const CaptureReport r = analyse_capture(c, {});
        EXPECT_NEAR(*figure_value(r, "duration_s"),
                    static_cast<double>(c.start_ns.back() - c.start_ns.front()) / 1e9, 1e-12);
    }
}

}  // namespace
}  // namespace loopscope
