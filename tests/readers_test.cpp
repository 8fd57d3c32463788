// The capture readers on every shared real capture (skipped where the real captures are not
// there), on the synthetic captures of tests/data/ and on files written here for one case each.
// Expected figures of the real captures were computed independently of this code, with
// Python's csv module over the same files (group rows by Application, ProcessID,
// SwapChainAddress; take the group with the most rows; count rows, sum the frame-time column,
// count Dropped == 1 / MsUntilDisplayed == NA / DisplayedTime == NA, and FrameType !=
// Application). MangoHud rows were counted after the `fps,frametime` header line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <random>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "core/trace_record.hpp"
#include "readers/csv_scanner.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"
#include "writers/trace_writer.hpp"

namespace loopscope {
namespace {

using test::capture;

struct Expected {
    const char* file;
    const char* format;
    const char* process;
    std::int64_t process_id;
    const char* swap_chain;
    std::size_t frames;
    double sum_ms;
    double max_ms;
    std::size_t dropped;    // frames never displayed
    std::size_t generated;  // FrameType other than Application (0 where the format has none)
    bool has_generated;
};

// Computed with Python (see the top of this file).
const Expected kCaptures[] = {
    {"IPMAuxTestData_F01TimeSpyDemoFS2080_gold.csv", "presentmon-2.4", "3DMarkTimeSpy.exe", 19736,
     "0x36B47B0", 2037, 34889.8573, 106.144, 0, 0, true},
    {"IPMAuxTestData_test_case_8.csv", "presentmon-2.4",
     "scimitar_engine_win64_vs2022_llvm_fusion_dx12_px.exe", 6920, "0x21946759D40", 5013,
     38336.9314, 433.5294, 1, 2506, true},
    {"IPMAuxTestData_test_case_9_v1.csv", "presentmon-1", "F1_24.exe", 10340, "0x0000000071197740",
     7219, 75370.0730, 530.4733, 1973, 0, false},
    {"IPMAuxTestData_test_case_9_v2.csv", "presentmon-2", "F1_24.exe", 10340, "0x71197740", 7218,
     75340.8678, 530.4733, 1973, 2662, true},
    {"capframex_legacy_re2.csv", "capframex-csv", "re2.exe", 1936, "0x0000000076F3DB00", 7285,
     25443.2060, 8.211, 4236, 0, false},
    {"frameview_police2.csv", "frameview", "Police2.exe", 20816, "0x0000000019ACFCC8", 1481,
     6183.0920, 6.187, 139, 0, false},
    {"ocat_metro_exodus.csv", "ocat", "MetroExodus.exe", 13840, "0x00000000215D7910", 2502,
     25386.4330, 17.945, 0, 0, false},
    {"presentmon_gold_test_case_5.csv", "presentmon-2.4", "PresentBench.exe", 24892,
     "0x2A70D2CAC00", 258, 2902.5974, 12.1421, 84, 0, true},
    {"presentmon_gold_test_case_5_v1.csv", "presentmon-1", "PresentBench.exe", 24892,
     "0x000002A70D2CAC00", 259, 2913.6028, 12.1421, 84, 0, false},
    // 2.x: present-to-present rebuilt from CPU start + CPUBusy; the first frame has none (0).
    {"presentmon_gold_test_case_5_v2.csv", "presentmon-2", "PresentBench.exe", 24892,
     "0x2A70D2CAC00", 258, 2891.5352, 12.1421, 84, 0, true},
};

double sum_ms(const std::vector<std::int64_t>& ns) {
    return static_cast<double>(std::accumulate(ns.begin(), ns.end(), std::int64_t{0})) / 1e6;
}

TEST(Readers, EverySharedPresentMonFamilyCaptureReadsTheStreamWithTheMostFrames) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const Expected& e : kCaptures) {
        SCOPED_TRACE(e.file);
        const std::string path = capture(e.file);
        EXPECT_EQ(detect_format(path), e.format);
        const Capture c = read_capture(path);
        EXPECT_EQ(c.source.format, e.format);
        EXPECT_EQ(c.source.file, path);
        EXPECT_EQ(c.source.process, e.process);
        EXPECT_EQ(c.source.process_id, e.process_id);
        EXPECT_EQ(c.source.swap_chain, e.swap_chain);
        EXPECT_TRUE(c.per_frame);
        ASSERT_EQ(c.frames(), e.frames);
        EXPECT_NEAR(sum_ms(c.frame_ns), e.sum_ms, 1e-3);
        EXPECT_NEAR(*std::max_element(c.frame_ns.begin(), c.frame_ns.end()) / 1e6, e.max_ms, 1e-6);
        ASSERT_EQ(c.start_ns.size(), e.frames);
        ASSERT_EQ(c.dropped.size(), e.frames);
        ASSERT_EQ(c.display_ns.size(), e.frames);
        EXPECT_EQ(std::count(c.dropped.begin(), c.dropped.end(), 1), static_cast<long>(e.dropped));
        for (std::size_t i = 0; i < c.frames(); ++i) {
            if (c.dropped[i]) {
                ASSERT_EQ(c.display_ns[i], -1) << "frame " << i;
            }
        }
        EXPECT_EQ(c.generated.size(), e.has_generated ? e.frames : 0u);
        EXPECT_EQ(std::count(c.generated.begin(), c.generated.end(), 1),
                  static_cast<long>(e.generated));
        EXPECT_TRUE(std::is_sorted(c.start_ns.begin(), c.start_ns.end()));
        EXPECT_GE(c.start_ns.front(), 0);
    }
}

TEST(Readers, ListShowsEveryStreamMostFramesFirst) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    // Python: rows per (Application, ProcessID, SwapChainAddress) of test_case_9_v1.
    const auto streams = list_capture_streams(capture("IPMAuxTestData_test_case_9_v1.csv"));
    ASSERT_EQ(streams.size(), 5u);
    EXPECT_EQ(streams[0].process, "F1_24.exe");
    EXPECT_EQ(streams[0].frames, 7219u);
    EXPECT_NEAR(streams[0].duration_s, 75.3700730, 1e-6);
    EXPECT_EQ(streams[1].process, "dwm.exe");
    EXPECT_EQ(streams[1].process_id, 1592);
    EXPECT_EQ(streams[1].frames, 835u);
    EXPECT_EQ(streams[2].process, "F1_24.exe");
    EXPECT_EQ(streams[2].swap_chain, "0x0000000000000000");
    EXPECT_EQ(streams[2].frames, 107u);
    EXPECT_EQ(streams[3].frames, 28u);
    EXPECT_EQ(streams[4].frames, 5u);
}

TEST(Readers, ProcessIsChosenByNamePidOrSwapChain) {
    // Frame counts from tests/data/expected_streams.json.
    const std::string path = test::test_data("presentmon1.csv");
    EXPECT_EQ(read_capture(path, {.process = "dwm.exe"}).frames(), 150u);
    EXPECT_EQ(read_capture(path, {.process = "DWM"}).frames(), 150u);   // case, no ".exe"
    EXPECT_EQ(read_capture(path, {.process = "4242"}).frames(), 420u);  // PID: its largest stream
    const Capture by_swap = read_capture(path, {.process = "0x0000000000000000"});
    EXPECT_EQ(by_swap.source.process, "game.exe");  // the game's second swap chain
    EXPECT_EQ(by_swap.frames(), 6u);
    EXPECT_EQ(read_capture(path, {.process = "WindowsTerminal.exe"}).source.process_id, 9876);
}

TEST(Readers, UnknownProcessListsWhatTheCaptureHolds) {
    const std::string path = test::test_data("presentmon24.csv");
    try {
        read_capture(path, {.process = "explorer.exe"});
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("explorer.exe"), std::string::npos) << what;
        EXPECT_NE(what.find("game.exe PID 4242 swap chain 0x1F3A5C20B00 (420 frames)"),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find("WindowsTerminal.exe"), std::string::npos) << what;
    }
}

TEST(Readers, QpcStartTimesFollowTheFrameTimes) {
    // PresentMon 2.x: FrameTime is the time from this frame's CPU start to the next one's, so the
    // QPC column converted with the frequency found must step by exactly those times; each
    // application frame's start is then its present (CPU start + CPUBusy), and its frame time
    // the step from the previous application frame's present.
    const auto check = [](const Capture& c) {
        EXPECT_EQ(c.metadata.at("qpc_frequency_hz"), "10000000 (from the file's times)");
        ASSERT_EQ(c.cpu_busy_ns.size(), c.frames());
        ASSERT_EQ(c.generated.size(), c.frames());
        std::int64_t previous = -1;
        for (std::size_t i = 0; i < c.frames(); ++i) {
            if (c.generated[i] != 0) {
                EXPECT_EQ(c.frame_ns[i], 0) << "frame " << i;
                continue;
            }
            if (previous >= 0) {
                const auto step = c.start_ns[i] - c.start_ns[static_cast<std::size_t>(previous)];
                ASSERT_EQ(step, c.frame_ns[i]) << "frame " << i;
                const auto cpu_start = [&](std::size_t k) {
                    return c.start_ns[k] - c.cpu_busy_ns[k];
                };
                if (static_cast<std::size_t>(previous) + 1 == i) {
                    ASSERT_NEAR(cpu_start(i) - cpu_start(i - 1), c.app_interval_ns[i - 1], 1000)
                        << "frame " << i;
                }
            }
            previous = static_cast<std::int64_t>(i);
        }
        EXPECT_GE(c.leading_frames_without_time, 1u);
    };
    check(read_capture(test::test_data("presentmon2.csv")));
    if (test::have_real_captures()) {
        check(read_capture(capture("IPMAuxTestData_test_case_9_v2.csv")));
        // The same capture in the 1.x layout: TimeInSeconds of F1_24's first present is
        // 2.3696221 s.
        const Capture v1 = read_capture(capture("IPMAuxTestData_test_case_9_v1.csv"));
        // Times count from there (t = 0); the file's clock is kept once.
        EXPECT_EQ(v1.start_ns.front(), 0);
        EXPECT_EQ(v1.clock_origin_ns, 2'369'622'100);
    }
}

TEST(Readers, PresentMon24KeepsGeneratedFramesAndAnimationError) {
    // The synthetic capture: the animation error is unknown on every generated frame.
    const Capture fg = read_capture(test::test_data("presentmon24_framegen.csv"));
    ASSERT_EQ(fg.animation_error_known.size(), fg.frames());
    ASSERT_EQ(fg.generated.size(), fg.frames());
    EXPECT_GT(std::count(fg.generated.begin(), fg.generated.end(), 1), 100);
    for (std::size_t i = 0; i < fg.frames(); ++i) {
        if (fg.generated[i]) {
            ASSERT_EQ(fg.animation_error_known[i], 0) << "frame " << i;
        }
    }
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture c = read_capture(capture("IPMAuxTestData_test_case_8.csv"));
    ASSERT_EQ(c.animation_error_ns.size(), c.frames());
    ASSERT_EQ(c.animation_error_known.size(), c.frames());
    // Python: MsAnimationError is NA on 2,506 of this stream's 5,013 rows, exactly its XeSS-FG
    // (generated) frames.
    const auto known =
        std::count(c.animation_error_known.begin(), c.animation_error_known.end(), 1);
    EXPECT_EQ(known, 5013 - 2506);
    for (std::size_t i = 0; i < c.frames(); ++i) {
        if (!c.animation_error_known[i]) {
            ASSERT_EQ(c.animation_error_ns[i], 0);
        }
    }
    // CPUStartTime in ms (F01): the first frame starts at 44.5948 ms.
    const Capture f01 = read_capture(capture("IPMAuxTestData_F01TimeSpyDemoFS2080_gold.csv"));
    EXPECT_EQ(f01.start_ns.front(), 0);
    EXPECT_EQ(f01.clock_origin_ns, 44'594'800);
}

TEST(Readers, PreambleAndSystemInformationBecomeMetadata) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();  // the synthetic files: tests/test_data_test.cpp
    const Capture cfx = read_capture(capture("capframex_legacy_re2.csv"));
    EXPECT_EQ(cfx.metadata.at("GameName"), "re2.exe");
    EXPECT_EQ(cfx.metadata.at("GPU"), "NVIDIA GeForce RTX 2080 Ti");
    const Capture ocat = read_capture(capture("ocat_metro_exodus.csv"));
    EXPECT_EQ(ocat.metadata.at("Processor"), "Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz");
}

TEST(Readers, MangoHudRowsAreSamplesNotFrames) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();  // the synthetic files: tests/test_data_test.cpp
    // Python: rows after the `fps,frametime` header; sum of the frametime column.
    const Capture a = read_capture(capture("mangohud_overwatch.csv"));
    EXPECT_EQ(a.source.format, "mangohud");
    EXPECT_FALSE(a.per_frame);
    EXPECT_EQ(a.frames(), 298u);
    EXPECT_NEAR(sum_ms(a.frame_ns), 1235.48607, 1e-3);
    EXPECT_EQ(a.clock_origin_ns, 333365637);  // elapsed, ns
    EXPECT_EQ(a.start_ns.front(), 0);
    EXPECT_EQ(a.metadata.at("cpu"), "AMD Ryzen 7 9800X3D 8-Core Processor");
    // The samples span elapsed 333365637 ns to 30054481137 ns (first and last rows).
    const auto streams = list_capture_streams(capture("mangohud_overwatch.csv"));
    ASSERT_EQ(streams.size(), 1u);
    EXPECT_NEAR(streams[0].duration_s, 29.7211155, 1e-9);
    const Capture b = read_capture(capture("mangohud_v1_versioned.csv"));
    EXPECT_EQ(detect_format(capture("mangohud_v1_versioned.csv")), "mangohud");
    EXPECT_FALSE(b.per_frame);
    EXPECT_EQ(b.frames(), 3694u);
    EXPECT_NEAR(sum_ms(b.frame_ns), 24069.59048, 1e-3);
    EXPECT_EQ(b.metadata.at("mangohud_version"), "0.8.1-1+");
    EXPECT_EQ(b.metadata.at("gpu"), "NVIDIA GeForce RTX 4090");
}

class TempFiles : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::make_temp_dir("loopscope-readers"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string write(const std::string& name, const std::string& text) {
        const std::string path = dir_ + "/" + name;
        test::write_text(path, text);
        return path;
    }
    std::string dir_;
};

using ReadersFiles = TempFiles;

TEST_F(ReadersFiles, TraceFillsTheLoopColumns) {
    const std::string path =
        write("t.csv", std::string(kTraceMagic) + "\n# policy: fixed-interp\n# dt_ns: 16666667\n" +
                           kTraceColumns + ",extra\n" +
                           "0,0,16000000,16000000,0,16000000,16000000,0,0,"
                           "16000000,0.96,0,0,0,x\n"
                           "1,16000000,300000000,250000000,50000000,250000000,"
                           "266000000,15,0,15999995,0.9999997,100,200,300,y\n");
    EXPECT_EQ(detect_format(path), "loopscope-trace");
    const Capture c = read_capture(path);
    EXPECT_EQ(c.source.format, "loopscope-trace");
    ASSERT_EQ(c.frames(), 2u);
    EXPECT_EQ(c.frame_ns, (std::vector<std::int64_t>{16000000, 300000000}));
    EXPECT_EQ(c.start_ns, (std::vector<std::int64_t>{0, 16000000}));
    ASSERT_EQ(c.loop.size(), 2u);
    EXPECT_EQ(c.loop[1].clamp_lost_ns, 50000000);
    EXPECT_EQ(c.loop[1].steps, 15);
    EXPECT_DOUBLE_EQ(c.loop[1].alpha, 0.9999997);
    EXPECT_EQ(c.loop[1].wait_ns, 300);
    EXPECT_EQ(c.metadata.at("policy"), "fixed-interp");
    EXPECT_EQ(c.metadata.at("dt_ns"), "16666667");
    EXPECT_TRUE(c.display_ns.empty());
    const auto streams = list_capture_streams(path);
    ASSERT_EQ(streams.size(), 1u);
    EXPECT_NEAR(streams[0].duration_s, 0.316, 1e-12);
}

TEST_F(ReadersFiles, TraceFrameTimesOnlyKeepsNoLoopColumns) {
    const std::string path =
        write("t.csv", std::string(kTraceMagic) + "\n" + kTraceColumns + "\n" +
                           "0,0,16000000,16000000,0,16000000,16000000,1,0,0,0,0,0,0\n"
                           "1,16000000,17000000,17000000,0,17000000,17000000,1,0,"
                           "333333,0.02,0,0,0\n");
    ReadOptions options;
    options.frame_times_only = true;
    const Capture c = read_capture(path, options);
    EXPECT_EQ(c.frame_ns, (std::vector<std::int64_t>{16000000, 17000000}));
    EXPECT_EQ(c.start_ns, (std::vector<std::int64_t>{0, 16000000}));
    EXPECT_TRUE(c.loop.empty());
    // Rows are still checked in full.
    const std::string bad =
        write("bad.csv", std::string(kTraceMagic) + "\n" + kTraceColumns + "\n" +
                             "0,0,16000000,16000000,0,16000000,16000000,1,0,0,zero,0,0,0\n");
    EXPECT_THROW(read_capture(bad, options), InputError);
}

TEST_F(ReadersFiles, PlainListInEachUnit) {
    const std::string path = write("p.txt", "16.5\n\n 17 \r\n1e1\n");
    EXPECT_EQ(detect_format(path), "plain");
    const Capture ms = read_capture(path);
    EXPECT_EQ(ms.frame_ns, (std::vector<std::int64_t>{16'500'000, 17'000'000, 10'000'000}));
    EXPECT_EQ(ms.start_ns, (std::vector<std::int64_t>{0, 16'500'000, 33'500'000}));
    EXPECT_EQ(read_capture(path, {.process = "", .plain_unit = "us"}).frame_ns[0], 16'500);
    EXPECT_EQ(read_capture(path, {.process = "", .plain_unit = "s"}).frame_ns[1], 17'000'000'000);
    EXPECT_EQ(read_capture(path, {.process = "", .plain_unit = "ns"}).frame_ns[2], 10);
    EXPECT_THROW(read_capture(path, {.process = "", .plain_unit = "min"}), UsageError);
}

TEST_F(ReadersFiles, BomAndCrlfReadLikePlainLineFeeds) {
    const std::string header =
        "Application,ProcessID,SwapChainAddress,Runtime,Dropped,TimeInSeconds,msBetweenPresents,"
        "msBetweenDisplayChange";
    const std::string rows[] = {"game.exe,42,0x1,DXGI,0,0.5,16.6,16.7",
                                "game.exe,42,0x1,DXGI,1,0.52,20.0,0",
                                "\"tool, the\",7,0x2,DXGI,0,0.53,33.3,33.3"};
    std::string lf = header + "\n", crlf = "\xEF\xBB\xBF" + header + "\r\n";
    for (const auto& r : rows) {
        lf += r + "\n";
        crlf += r + "\r\n";
    }
    const Capture a = read_capture(write("lf.csv", lf));
    const Capture b = read_capture(write("crlf.csv", crlf));
    EXPECT_EQ(a.source.format, "presentmon-1");
    EXPECT_EQ(b.source.format, "presentmon-1");
    EXPECT_EQ(a.frame_ns, b.frame_ns);
    EXPECT_EQ(b.frame_ns, (std::vector<std::int64_t>{16'600'000, 20'000'000}));
    EXPECT_EQ(b.display_ns, (std::vector<std::int64_t>{16'700'000, -1}));
    EXPECT_EQ(b.dropped, (std::vector<std::uint8_t>{0, 1}));
    // Times count from the first row's (t = 0); the file's clock keeps its time.
    EXPECT_EQ(b.start_ns, (std::vector<std::int64_t>{0, 20'000'000}));
    EXPECT_EQ(b.clock_origin_ns, 500'000'000);
    EXPECT_EQ(read_capture(write("q.csv", crlf), {.process = "tool, the"}).frames(), 1u);
}

TEST_F(ReadersFiles, CapFrameXJsonRunsAreStreams) {
    const std::string json = R"({
  "Hash": "abc",
  "Info": {"ProcessName": "game.exe", "GameName": "Game", "Processor": "CPU"},
  "Runs": [
    {"Hash": "r1", "CaptureData": {"TimeInSeconds": [0.0, 0.016], "MsBetweenPresents": [16.0, 17.0],
      "MsBetweenDisplayChange": [16.5, 0], "Dropped": [false, true], "PresentMode": [1, 1]},
     "SensorData": {"MeasureTime": [1, 2, 3]}},
    {"Hash": "r2", "CaptureData": {"TimeInSeconds": [0, 0.01, 0.02], "MsBetweenPresents": [10, 10.5, 11],
      "MsBetweenDisplayChange": [10, 10, 10], "Dropped": [false, false, false]}}
  ]
})";
    const std::string path = write("session.json", json);
    EXPECT_EQ(detect_format(path), "capframex-json");
    const Capture c = read_capture(path);
    EXPECT_EQ(c.source.format, "capframex-json");
    EXPECT_EQ(c.source.process, "game.exe");
    EXPECT_EQ(c.source.swap_chain, "run 2");
    EXPECT_EQ(c.frame_ns, (std::vector<std::int64_t>{10'000'000, 10'500'000, 11'000'000}));
    EXPECT_EQ(c.start_ns, (std::vector<std::int64_t>{0, 10'000'000, 20'000'000}));
    EXPECT_EQ(c.metadata.at("Processor"), "CPU");
    const auto streams = list_capture_streams(path);
    ASSERT_EQ(streams.size(), 2u);
    EXPECT_EQ(streams[1].swap_chain, "run 1");
    const Capture run1 = read_capture(path, {.process = "run 1"});
    EXPECT_EQ(run1.frames(), 2u);
    EXPECT_EQ(run1.dropped, (std::vector<std::uint8_t>{0, 1}));
    EXPECT_EQ(run1.display_ns, (std::vector<std::int64_t>{16'500'000, -1}));
}

TEST_F(ReadersFiles, NaFrameTimesAreSkippedAndCounted) {
    const std::string path = write(
        "na.csv",
        "Application,ProcessID,SwapChainAddress,PresentRuntime,FrameType,CPUStartQPC,FrameTime,"
        "DisplayedTime,AnimationError\n"
        "g.exe,1,0x1,DXGI,Application,1000,NA,NA,NA\n"
        "g.exe,1,0x1,DXGI,Application,1000,10.0,10.0,NA\n"
        "g.exe,1,0x1,DXGI,DLSS-FG,101000,5.0,NA,1.5\n"
        "g.exe,1,0x1,DXGI,Application,151000,5.0,5.0,-0.25\n");
    const Capture c = read_capture(path);
    EXPECT_EQ(c.source.format, "presentmon-2");
    EXPECT_EQ(c.frames(), 3u);
    EXPECT_EQ(c.metadata.at("rows_without_frame_time"), "1");
    EXPECT_EQ(c.generated, (std::vector<std::uint8_t>{0, 1, 0}));
    EXPECT_EQ(c.dropped, (std::vector<std::uint8_t>{0, 1, 0}));
    // DisplayedTime is a frame's time on screen, so it is the time between display changes of
    // the next displayed frame (as in 1.x and 2.4+): the first displayed frame has none (-1 but
    // not dropped), the third gets the first's 10 ms, and the third's 5 ms has no later frame.
    EXPECT_EQ(c.display_ns, (std::vector<std::int64_t>{-1, -1, 10'000'000}));
    EXPECT_EQ(c.app_interval_ns, (std::vector<std::int64_t>{10'000'000, 5'000'000, 5'000'000}));
    EXPECT_EQ(c.animation_error_ns, (std::vector<std::int64_t>{0, 1'500'000, -250'000}));
    EXPECT_EQ(c.animation_error_known, (std::vector<std::uint8_t>{0, 1, 1}));
    // 10,000 ticks per ms: 100,000 ticks over the first 10 ms.
    EXPECT_EQ(c.start_ns, (std::vector<std::int64_t>{0, 10'000'000, 15'000'000}));
}

// What the trace writer writes, the trace reader reads back to the same records.
TEST_F(ReadersFiles, TraceWriterOutputReadsBack) {
    const std::string path = dir_ + "/round-trip.csv";
    std::vector<FrameRecord> records;
    for (std::int64_t i = 0; i < 100; ++i) {
        FrameRecord r;
        r.frame = i;
        r.start_ns = i * 16'666'667;
        r.raw_ns = 16'666'667 + (i % 7) * 1000;
        r.clamped_ns = r.raw_ns;
        r.consumed_ns = r.raw_ns;
        r.acc_before_ns = r.raw_ns + i;
        r.steps = i % 3;
        r.acc_after_ns = i;
        r.alpha = static_cast<double>(i) / 128.0;  // exact in six decimals
        r.step_cost_ns = i * 10;
        records.push_back(r);
    }
    {
        OutputFile out(path);
        TraceInfo info;
        info.clock = "virtual";
        TraceWriter writer(out, info);
        for (const auto& r : records)
            writer.write(r);
        writer.finish();
        out.commit();
    }
    const Capture c = read_capture(path);
    ASSERT_EQ(c.loop.size(), records.size());
    for (std::size_t i = 0; i < records.size(); ++i) {
        EXPECT_EQ(c.loop[i].raw_ns, records[i].raw_ns);
        EXPECT_EQ(c.loop[i].steps, records[i].steps);
        EXPECT_EQ(c.loop[i].acc_after_ns, records[i].acc_after_ns);
        EXPECT_NEAR(c.loop[i].alpha, records[i].alpha, 1e-6);
        EXPECT_EQ(c.frame_ns[i], records[i].raw_ns);
        EXPECT_EQ(c.start_ns[i], records[i].start_ns);
    }
    EXPECT_EQ(c.metadata.at("clock"), "virtual");
    EXPECT_EQ(c.metadata.at("policy"), "fixed-interp");
}

// The field splitter's fast path (no quotes, sixteen bytes at a time) against a plain
// character-by-character split, on lines of every length around the block edges.
TEST(CsvScanner, SplitMatchesAPlainSplitAtEveryLengthAndLimit) {
    std::mt19937 rng(5);
    const std::string path = "x.csv";
    std::vector<Field> fields;
    for (int trial = 0; trial < 2000; ++trial) {
        std::string line;
        const int len = static_cast<int>(rng() % 70);
        for (int i = 0; i < len; ++i)
            line += "ab,1.5,"[rng() % 7];
        std::vector<std::string> expected{""};
        for (const char c : line) {
            if (c == ',') {
                expected.emplace_back();
            } else {
                expected.back() += c;
            }
        }
        for (const std::size_t limit : {std::size_t{1}, std::size_t{3}, std::size_t{100}}) {
            const std::size_t count = split_fields(line, LinePlace{&path, 1}, fields, limit);
            ASSERT_EQ(count, expected.size()) << line;
            ASSERT_EQ(fields.size(), std::min(limit, expected.size())) << line;
            std::size_t column = 1;
            for (std::size_t i = 0; i < fields.size(); ++i) {
                ASSERT_EQ(fields[i].text, expected[i]) << line << " field " << i;
                ASSERT_EQ(fields[i].column, static_cast<std::int64_t>(column)) << line;
                column += expected[i].size() + 1;
            }
        }
    }
    // Quotes anywhere take the general path; a comma inside quotes does not split.
    EXPECT_EQ(split_fields("a,\"b,c\",d", LinePlace{&path, 1}, fields), 3u);
    EXPECT_EQ(fields[1].text, "b,c");
    EXPECT_EQ(fields[2].column, 9);
    EXPECT_EQ(split_fields("a,b,\"c,d\",e", LinePlace{&path, 1}, fields, 2), 4u);
}

// split_line_fields finds a line's end while it splits it: every line of random texts (quotes,
// CRs, empty lines, lines longer than the 255 blocks its comma sums hold, no break at the end)
// gives the fields, count, line and error of finding the break first and then splitting.
TEST(CsvScanner, SplittingALineOfATextMatchesFindingItsBreakFirst) {
    std::mt19937 rng(6);
    const std::string path = "x.csv";
    std::vector<Field> fused;
    std::vector<Field> apart;
    const auto outcome = [](auto&& split) {
        try {
            return std::to_string(split());
        } catch (const InputError& e) {
            return std::string(e.what());
        }
    };
    for (int trial = 0; trial < 3000; ++trial) {
        std::string text;
        const int lines = 1 + static_cast<int>(rng() % 4);
        for (int l = 0; l < lines; ++l) {
            const bool long_line = rng() % 40 == 0;
            const int len = static_cast<int>(long_line ? 4000 + rng() % 2000 : rng() % 90);
            const bool quotes = rng() % 6 == 0;
            for (int i = 0; i < len; ++i)
                text += quotes ? "ab,1.5,\"\r"[rng() % 9] : "ab,1.5,\r"[rng() % 8];
            if (l + 1 < lines || rng() % 2)
                text += rng() % 3 ? "\n" : "\r\n";
        }
        for (const std::size_t limit :
             {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{100}}) {
            std::size_t begin = 0;
            while (begin < text.size()) {
                const std::size_t nl = text.find('\n', begin);
                const std::size_t end = nl == std::string::npos ? text.size() : nl;
                std::string_view line(text.data() + begin, end - begin);
                if (!line.empty() && line.back() == '\r')
                    line.remove_suffix(1);
                const LinePlace place{&path, 1};
                const std::string want =
                    outcome([&] { return split_fields(line, place, apart, limit); });
                std::size_t count = 0;
                std::string_view got_line;
                std::size_t got_end = 0;
                const std::string got = outcome([&] {
                    got_end = split_line_fields(text, begin, place, fused, limit, count, got_line);
                    return count;
                });
                ASSERT_EQ(got, want) << text.substr(begin, 80);
                if (want.find_first_not_of("0123456789") == std::string::npos) {
                    ASSERT_EQ(got_end, end);
                    ASSERT_EQ(got_line, line);
                    ASSERT_EQ(fused.size(), apart.size());
                    for (std::size_t i = 0; i < fused.size(); ++i) {
                        ASSERT_EQ(fused[i].text, apart[i].text) << i;
                        ASSERT_EQ(fused[i].column, apart[i].column) << i;
                    }
                }
                begin = end + 1;
            }
        }
    }
}

TEST_F(ReadersFiles, WithoutATimeColumnFramesStartAtTheRunningSum) {
    const Capture pm =
        read_capture(write("pm.csv",
                           "Application,ProcessID,SwapChainAddress,msBetweenPresents\n"
                           "g.exe,1,0x1,10\ng.exe,1,0x1,20\ng.exe,1,0x1,5\n"));
    EXPECT_EQ(pm.source.format, "presentmon-1");
    EXPECT_EQ(pm.start_ns, (std::vector<std::int64_t>{0, 10'000'000, 30'000'000}));
    EXPECT_TRUE(pm.display_ns.empty());
    EXPECT_TRUE(pm.dropped.empty());
    const Capture json = read_capture(
        write("s.json", R"({"Runs": [{"CaptureData": {"MsBetweenPresents": [4, 6]}}]})"));
    EXPECT_EQ(json.start_ns, (std::vector<std::int64_t>{0, 4'000'000}));
    EXPECT_EQ(json.source.process, "");
}

}  // namespace
}  // namespace loopscope
