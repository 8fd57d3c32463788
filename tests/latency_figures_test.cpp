// Latency, where-the-time-goes and the other tools' figures users compare (core/latency.hpp,
// core/bottleneck.hpp, core/tool_figures.hpp), checked against rules re-implemented here from
// the definitions in docs/reports.md: the cells read as text and parsed as doubles in ms, the
// way the tools sum them. FrameView's latency figures are also checked against the summaries
// FrameView itself wrote (frameview_set/FrameView_Summaries.csv).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/bottleneck.hpp"
#include "core/figures.hpp"
#include "core/tool_figures.hpp"
#include "readers/readers.hpp"
#include "tests/csv_table.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

using test::read_table;
using test::Table;

// A cell's value in ms when the whole cell is a finite number below 2^63 ns.
std::optional<double> number(const std::string& text) {
    if (text.empty())
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v) || v < 0 || v * 1e6 >= 9.2e18)
        return std::nullopt;
    return v;
}

// The rows of the stream with the most rows that have a frame time (file order breaks ties).
std::vector<std::size_t> main_stream(const Table& t, const std::string& frame_column) {
    std::map<std::string, std::vector<std::size_t>> streams;
    std::vector<std::string> order;
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
        if (!number(t.cell(i, frame_column)))
            continue;
        const std::string key = t.cell(i, "Application") + "|" + t.cell(i, "ProcessID") + "|" +
                                t.cell(i, "SwapChainAddress");
        if (!streams.contains(key))
            order.push_back(key);
        streams[key].push_back(i);
    }
    std::string best;
    for (const std::string& k : order) {
        if (best.empty() || streams[k].size() > streams[best].size())
            best = k;
    }
    return streams[best];
}

struct Stats {
    std::size_t n = 0;
    double mean = 0, p50 = 0, p99 = 0, min = 0, max = 0;
};
double interpolate(const std::vector<double>& s, double p) {
    const double h = p * static_cast<double>(s.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    if (lo + 1 >= s.size())
        return s.back();
    return s[lo] + (h - static_cast<double>(lo)) * (s[lo + 1] - s[lo]);
}
Stats stats_of(std::vector<double> v) {
    Stats s;
    s.n = v.size();
    if (v.empty())
        return s;
    std::sort(v.begin(), v.end());
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    s.p50 = interpolate(v, 0.5);
    s.p99 = interpolate(v, 0.99);
    s.min = v.front();
    s.max = v.back();
    return s;
}

std::optional<double> value(const CaptureReport& r, const std::string& key) {
    return figure_value(r, key).number;
}

// The bound rule of docs/reports.md for PresentMon 2.x columns: 0 unknown, 1 CPU, 2 GPU, 3 wait.
int bound_rule(double cpu, double wait, double gpu) {
    const double t = cpu + wait;
    if (!(t > 0))
        return 0;
    if (std::max(cpu, gpu) < 0.8 * t)
        return 3;
    return gpu >= cpu ? 2 : 1;
}

// ---- FrameView's own summaries -------------------------------------------------------------

// FrameView's AvgPCLatency / MinPCLatency / MaxPCLatency / RenderPresentLatency are the mean,
// minimum and maximum of every row's cell that is a number (NA left out), all rows, printed to
// three decimals. Checked on every log of frameview_set with a summary: the rule and
// loopscope's figures both equal FrameView's to 0.001 ms; where FrameView prints NA (every cell
// NA), loopscope's figure is absent.
TEST(LatencyGolden, FrameViewLatencyEqualsFrameViewsOwnSummaries) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string dir = test::captures_dir() + "/frameview_set";
    if (!std::filesystem::exists(dir + "/FrameView_Summaries.csv"))
        GTEST_SKIP() << dir << "/FrameView_Summaries.csv is not there";
    const Table summaries = read_table(dir + "/FrameView_Summaries.csv", "File");
    struct Pair {
        const char* summary;
        const char* column;
        const char* key;
        double Stats::*stat;
    };
    const Pair pairs[] = {{"AvgPCLatency (ms)", "MsPCLatency", "pc_latency_avg_ms", &Stats::mean},
                          {"MinPCLatency (ms)", "MsPCLatency", "pc_latency_min_ms", &Stats::min},
                          {"MaxPCLatency (ms)", "MsPCLatency", "pc_latency_max_ms", &Stats::max},
                          {"RenderPresentLatency (ms)", "MsRenderPresentLatency",
                           "render_present_latency_avg_ms", &Stats::mean}};
    std::size_t compared = 0, absent = 0;
    for (std::size_t row = 0; row < summaries.rows.size(); ++row) {
        const std::string file = summaries.cell(row, "File");
        const std::string path = dir + "/" + file;
        const Table log = read_table(path, "Application");
        const Capture capture = read_capture(path);
        const CaptureReport r = analyse_capture(capture, {});
        for (const Pair& p : pairs) {
            const std::string theirs_text = summaries.cell(row, p.summary);
            std::vector<double> cells;
            for (std::size_t i = 0; i < log.rows.size(); ++i) {
                if (auto v = number(log.cell(i, p.column)))
                    cells.push_back(*v);
            }
            const Stats rule = stats_of(cells);
            const auto ours = value(r, p.key);
            if (theirs_text == "NA") {
                EXPECT_EQ(rule.n, 0u) << file << " " << p.summary;
                EXPECT_FALSE(ours.has_value()) << file << " " << p.key;
                ++absent;
                continue;
            }
            const double theirs = std::strtod(theirs_text.c_str(), nullptr);
            EXPECT_NEAR(rule.*(p.stat), theirs, 0.001) << file << " " << p.summary;
            ASSERT_TRUE(ours.has_value()) << file << " " << p.key;
            EXPECT_NEAR(*ours, theirs, 0.001) << file << " " << p.key;
            EXPECT_NEAR(*ours, rule.*(p.stat), 1e-9) << file << " " << p.key;
            ++compared;
        }
    }
    // 29 logs with a summary: 21 with PC latency (4 figures), 8 with every PC latency cell NA.
    EXPECT_EQ(compared + absent, 29u * 4u);
    EXPECT_GE(compared, 21u * 4u);
    std::printf("[ note ] %zu FrameView latency figures compared, %zu absent as in FrameView\n",
                compared, absent);
}

TEST(LatencyGolden, FrameViewLogsSayWhyThereIsNoBottleneck) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture capture = read_capture(test::capture("frameview_police2.csv"));
    const CaptureReport r = analyse_capture(capture, {});
    const FigureValue v = figure_value(r, "gpu_bound_share");
    ASSERT_FALSE(v.has_value());
    EXPECT_NE(v.reason.find("FrameView logs have neither"), std::string::npos) << v.reason;
    // Every PC latency cell of that log is NA: the figure is absent with that reason.
    const FigureValue pc = figure_value(r, "pc_latency_avg_ms");
    ASSERT_FALSE(pc.has_value());
    EXPECT_NE(pc.reason.find("every cell NA"), std::string::npos) << pc.reason;
}

// ---- PresentMon 2.x: the shared captures, recomputed -----------------------------------------

struct PresentMonCase {
    const char* file;
    const char* frame;  // the frame-time column
    bool v2;            // the 2.x layout (FrameTime, CPUBusy, ...; DisplayLatency)
};

TEST(LatencyGolden, PresentMonCapturesEqualAnIndependentRecomputation) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const PresentMonCase cases[] = {
        {"IPMAuxTestData_F01TimeSpyDemoFS2080_gold.csv", "MsBetweenPresents", false},
        {"IPMAuxTestData_test_case_8.csv", "MsBetweenPresents", false},
        {"presentmon_gold_test_case_5.csv", "MsBetweenPresents", false},
        {"presentmon_gold_test_case_5_v2.csv", "FrameTime", true},
    };
    for (const PresentMonCase& c : cases) {
        const std::string path = test::capture(c.file);
        const Table t = read_table(path, "Application");
        const std::vector<std::size_t> rows = main_stream(t, c.frame);
        const Capture capture = read_capture(path);
        const CaptureReport r = analyse_capture(capture, {});
        ASSERT_EQ(r.range.size(), rows.size()) << c.file;
        if (t.column("TimeInQPC") >= 0) {
            ASSERT_EQ(capture.metadata.at("qpc_frequency_hz"), "10000000 (from the file's times)");
        }
        const std::string p = c.v2 ? "" : "Ms";
        std::vector<double> click, input, display;
        std::size_t counts[4] = {};
        for (const std::size_t i : rows) {
            if (auto v = number(t.cell(i, p + "ClickToPhotonLatency")))
                click.push_back(*v);
            if (auto v = number(t.cell(i, p + "AllInputToPhotonLatency")))
                input.push_back(*v);
            if (c.v2) {
                if (auto v = number(t.cell(i, "DisplayLatency")))
                    display.push_back(*v);
            } else if (t.column("TimeInQPC") >= 0 && t.column("CPUStartQPC") >= 0) {
                // PresentMon: DisplayLatency = screen time - CPU start, MsUntilDisplayed = screen
                // time - present start (TimeInQPC); 10 MHz ticks, as the file's times give.
                const auto present = number(t.cell(i, "TimeInQPC"));
                const auto start = number(t.cell(i, "CPUStartQPC"));
                const auto until = number(t.cell(i, "MsUntilDisplayed"));
                if (present && start && until)
                    display.push_back((*present - *start) / 1e4 + *until);
            } else {
                // No TimeInQPC: MsCPUBusy is the same span where no frame is generated.
                ASSERT_EQ(t.cell(i, "FrameType"), "Application") << c.file;
                const auto busy = number(t.cell(i, "MsCPUBusy"));
                const auto until = number(t.cell(i, "MsUntilDisplayed"));
                if (busy && until)
                    display.push_back(*busy + *until);
            }
            if (t.cell(i, "FrameType") != "Application")
                continue;
            const auto cpu = number(t.cell(i, p + "CPUBusy"));
            const auto wait = number(t.cell(i, p + "CPUWait"));
            const auto gpu = number(t.cell(i, p + "GPUBusy"));
            if (cpu && wait && gpu)
                ++counts[bound_rule(*cpu, *wait, *gpu)];
        }
        const auto check = [&](const std::vector<double>& cells, const std::string& key, bool p99) {
            const Stats s = stats_of(cells);
            const auto avg = value(r, key + "_avg_ms");
            if (s.n == 0) {
                EXPECT_FALSE(avg.has_value()) << c.file << " " << key;
                return;
            }
            ASSERT_TRUE(avg.has_value()) << c.file << " " << key;
            EXPECT_NEAR(*avg, s.mean, 1e-6) << c.file << " " << key;
            if (p99) {
                EXPECT_NEAR(*value(r, key + "_p99_ms"), s.p99, 1e-6) << c.file << " " << key;
            }
        };
        check(click, "click_to_photon", true);
        check(input, "all_input_to_photon", true);
        check(display, "display_latency", true);
        EXPECT_GT(display.size(), 100u) << c.file;
        const double classified = static_cast<double>(counts[1] + counts[2] + counts[3]);
        ASSERT_GT(classified, 0) << c.file;
        EXPECT_NEAR(*value(r, "cpu_bound_share"), counts[1] / classified, 1e-12) << c.file;
        EXPECT_NEAR(*value(r, "gpu_bound_share"), counts[2] / classified, 1e-12) << c.file;
        EXPECT_NEAR(*value(r, "wait_bound_share"), counts[3] / classified, 1e-12) << c.file;
    }
}

// The same recording in PresentMon's 2.x and 2.4+ layouts gives the same display latency: 2.x
// writes DisplayLatency, 2.4+ has MsCPUBusy + MsUntilDisplayed.
TEST(LatencyGolden, DisplayLatencyAgreesAcrossPresentMonLayouts) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture a = read_capture(test::capture("presentmon_gold_test_case_5.csv"));
    const Capture b = read_capture(test::capture("presentmon_gold_test_case_5_v2.csv"));
    const CaptureReport ra = analyse_capture(a, {});
    const CaptureReport rb = analyse_capture(b, {});
    EXPECT_NEAR(*value(ra, "display_latency_avg_ms"), *value(rb, "display_latency_avg_ms"), 0.001);
    EXPECT_NEAR(*value(ra, "display_latency_p99_ms"), *value(rb, "display_latency_p99_ms"), 0.001);
    EXPECT_NEAR(*value(ra, "cpu_bound_share"), *value(rb, "cpu_bound_share"), 1e-12);
}

// ---- A capture the test writes: many latency cells, bad cells counted ------------------------

// A deterministic sequence in [0, 1).
struct Lcg {
    std::uint64_t s = 12345;
    double next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(s >> 11) / 9007199254740992.0;
    }
};

TEST(LatencyFigures, WrittenPresentMon24CaptureEqualsTheRule) {
    const std::string dir = test::make_temp_dir("latency");
    const std::string path = dir + "/pm24.csv";
    std::string text =
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
        "AllowsTearing,PresentMode,FrameType,CPUStartTime,MsBetweenPresents,"
        "MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,"
        "MsPCLatency,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUBusy,MsGPUWait,"
        "MsAllInputToPhotonLatency,MsClickToPhotonLatency\n";
    Lcg rng;
    std::vector<double> pc, click, input, display, render;
    std::size_t bounds[4] = {};
    double start = 0;
    const auto fmt4 = [](double v) {
        char b[64];
        std::snprintf(b, sizeof b, "%.4f", v);
        return std::string(b);
    };
    for (int i = 0; i < 600; ++i) {
        const double frame = 10 + 20 * rng.next();
        const double busy = frame * (0.3 + 0.7 * rng.next());
        const double wait = frame - busy;
        const double gpu = frame * (0.2 + 0.8 * rng.next());
        const double until = 5 + 10 * rng.next();
        const double render_ms = 1 + 3 * rng.next();
        std::string pc_cell = fmt4(30 + 40 * rng.next());
        std::string click_cell = i % 7 == 0 ? fmt4(40 + 30 * rng.next()) : "NA";
        std::string input_cell = i % 3 == 0 ? fmt4(35 + 30 * rng.next()) : "NA";
        if (i == 100)
            pc_cell = "Error";  // counted, left out
        if (i == 210)
            click_cell = "18446744073709.5516";  // a wrapped unsigned value: counted, left out
        if (i == 300)
            pc_cell = "NA";  // no value: neither counted nor used
        const std::string b4 = fmt4(busy), w4 = fmt4(wait), g4 = fmt4(gpu), u4 = fmt4(until),
                          r4 = fmt4(render_ms);
        if (auto v = number(pc_cell))
            pc.push_back(*v);
        if (auto v = number(click_cell))
            click.push_back(*v);
        if (auto v = number(input_cell))
            input.push_back(*v);
        display.push_back(std::strtod(b4.c_str(), nullptr) + std::strtod(u4.c_str(), nullptr));
        render.push_back(std::strtod(r4.c_str(), nullptr));
        ++bounds[bound_rule(std::strtod(b4.c_str(), nullptr), std::strtod(w4.c_str(), nullptr),
                            std::strtod(g4.c_str(), nullptr))];
        text += "Game.exe,42,0x1,DXGI,1,0,0,Hardware: Independent Flip,Application," + fmt4(start) +
                "," + fmt4(frame) + "," + fmt4(frame) + ",0.2000," + r4 + "," + u4 + "," + pc_cell +
                "," + fmt4(frame) + "," + b4 + "," + w4 + ",1.0000," + g4 + ",0.5000," +
                input_cell + "," + click_cell + "\n";
        start += frame;
    }
    test::write_text(path, text);
    const Capture capture = read_capture(path);
    const CaptureReport r = analyse_capture(capture, {});
    const Stats spc = stats_of(pc), sclick = stats_of(click), sinput = stats_of(input),
                sdisplay = stats_of(display), srender = stats_of(render);
    EXPECT_EQ(spc.n, 598u);
    EXPECT_NEAR(*value(r, "pc_latency_avg_ms"), spc.mean, 1e-6);
    EXPECT_NEAR(*value(r, "pc_latency_p50_ms"), spc.p50, 1e-6);
    EXPECT_NEAR(*value(r, "pc_latency_p99_ms"), spc.p99, 1e-6);
    EXPECT_NEAR(*value(r, "pc_latency_min_ms"), spc.min, 1e-6);
    EXPECT_NEAR(*value(r, "pc_latency_max_ms"), spc.max, 1e-6);
    EXPECT_NEAR(*value(r, "click_to_photon_avg_ms"), sclick.mean, 1e-6);
    EXPECT_NEAR(*value(r, "click_to_photon_p99_ms"), sclick.p99, 1e-6);
    EXPECT_NEAR(*value(r, "all_input_to_photon_avg_ms"), sinput.mean, 1e-6);
    EXPECT_NEAR(*value(r, "all_input_to_photon_p99_ms"), sinput.p99, 1e-6);
    EXPECT_NEAR(*value(r, "display_latency_avg_ms"), sdisplay.mean, 1e-6);
    EXPECT_NEAR(*value(r, "display_latency_p99_ms"), sdisplay.p99, 1e-6);
    EXPECT_NEAR(*value(r, "render_present_latency_avg_ms"), srender.mean, 1e-6);
    const double classified = static_cast<double>(bounds[1] + bounds[2] + bounds[3]);
    EXPECT_EQ(classified, 600);
    EXPECT_NEAR(*value(r, "cpu_bound_share"), bounds[1] / classified, 1e-12);
    EXPECT_NEAR(*value(r, "gpu_bound_share"), bounds[2] / classified, 1e-12);
    EXPECT_NEAR(*value(r, "wait_bound_share"), bounds[3] / classified, 1e-12);
    // The sample holds frames of each kind, so the shares are not trivially 0 or 1.
    EXPECT_GT(bounds[1], 0u);
    EXPECT_GT(bounds[2], 0u);
    EXPECT_GT(bounds[3], 0u);
    // The Error and the wrapped value are counted, each under its column, at its line.
    std::map<std::string, std::int64_t> bad;
    for (const BadCells& b : capture.data_quality.bad_cells)
        bad[b.column] += b.count;
    EXPECT_EQ(bad["MsPCLatency"], 1);
    EXPECT_EQ(bad["MsClickToPhotonLatency"], 1);
}

// ---- The other tools' figures ------------------------------------------------------------------

TEST(ToolFiguresCompared, OcatMaxConsecutiveMissedCountsOnlyClosedRuns) {
    // OCAT updates its maximum only when a displayed frame ends a run.
    const std::vector<std::uint8_t> a = {0, 1, 1, 0, 1, 1, 1, 0, 0, 1};
    EXPECT_EQ(ocat_max_consecutive_missed(a), 3u);
    const std::vector<std::uint8_t> b = {0, 1, 0, 1, 1, 1, 1, 1};
    EXPECT_EQ(ocat_max_consecutive_missed(b), 1u);
    EXPECT_EQ(ocat_max_consecutive_missed(std::vector<std::uint8_t>{}), 0u);
}

TEST(ToolFiguresCompared, CapFrameXThresholdsAndLowFpsTime) {
    constexpr std::int64_t kMs = 1'000'000;
    // 1000 / 16.667 = 59.9988 < 60; 1000 / 16.666 = 60.0024 is not.
    const std::vector<std::int64_t> ft = {16'667'000, 16'666'000, 50 * kMs, 100 * kMs, 4 * kMs};
    const auto counts = capframex_fps_threshold_counts(ft);
    // thresholds 240, 144, 120, 90, 75, 60, 45, 30, 15, 10
    const std::array<std::size_t, 10> expected = {4, 4, 4, 4, 4, 3, 2, 2, 1, 0};
    EXPECT_EQ(counts, expected);
    // Low FPS time: frames below 25 FPS that are not stutter (the 100 ms frame is).
    const std::vector<std::size_t> stutter = {3};
    const double total = (16.667 + 16.666 + 50 + 100 + 4);
    EXPECT_NEAR(capframex_low_fps_time_share(ft, stutter), 50 / total, 1e-12);
}

TEST(ToolFiguresCompared, UnrealMissedVsyncShare) {
    // 10 s at 60 FPS: 600 refreshes; 540 frames leave 60 without a new frame.
    EXPECT_NEAR(unreal_missed_vsync_share(540, 10'000'000'000, 60), 0.1, 1e-12);
    EXPECT_EQ(unreal_missed_vsync_share(700, 10'000'000'000, 60), 0.0);
    EXPECT_EQ(unreal_missed_vsync_share(5, 1'000'000, 60), 0.0);  // no whole refresh
}

// On a real capture the report's figures equal the rules over its frames; without a target and
// without a fixed refresh the missed-vsync share is absent with the reason, and --target-fps
// gives it.
TEST(ToolFiguresCompared, RealCaptureFiguresAndTheTarget) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string path = test::capture("IPMAuxTestData_test_case_9_v1.csv");
    const Table t = read_table(path, "Application");
    std::vector<std::size_t> rows = main_stream(t, "msBetweenPresents");
    const Capture capture = read_capture(path);
    CaptureReport r = analyse_capture(capture, {});
    // Every row of the stream is a frame, the last present too, which 2.x never writes.
    ASSERT_EQ(r.range.size(), rows.size());
    std::size_t run = 0, longest = 0;
    std::vector<double> ms;
    for (const std::size_t i : rows) {
        ms.push_back(*number(t.cell(i, "msBetweenPresents")));
        if (t.cell(i, "Dropped") == "1") {
            ++run;
        } else {
            longest = std::max(longest, run);
            run = 0;
        }
    }
    EXPECT_EQ(*value(r, "max_consecutive_dropped"), static_cast<double>(longest));
    EXPECT_GT(longest, 1u);
    std::size_t below60 = 0;
    for (const double v : ms)
        below60 += 1000.0 / v < 60 ? 1 : 0;
    EXPECT_EQ(*value(r, "capframex_frames_below_60_fps"), static_cast<double>(below60));
    // Unreal hitch time share: the hitch frames' time over the total.
    double hitch = 0, total = 0;
    for (std::size_t i = 0; i < ms.size(); ++i) {
        total += ms[i];
        if (i > 0 && ms[i] > 60 && ms[i] >= 1.5 * ms[i - 1])
            hitch += ms[i];
    }
    EXPECT_NEAR(*value(r, "unreal_hitch_time_share"), hitch / total, 1e-9);
    AnalysisOptions with_target;
    with_target.target_fps = 60;
    const CaptureReport rt = analyse_capture(capture, with_target);
    const double vsyncs = std::floor(60 * total / 1000.0);
    EXPECT_NEAR(*value(rt, "unreal_mvp_share"),
                std::max(0.0, vsyncs - static_cast<double>(ms.size())) / vsyncs, 1e-9);
}

TEST(ToolFiguresCompared, MissedVsyncWithoutTargetSaysWhy) {
    constexpr std::int64_t kMs = 1'000'000;
    Capture c;
    describe_as(c, "plain");
    c.source.file = "frames.txt";
    Lcg rng;
    std::int64_t start = 0;
    for (int i = 0; i < 300; ++i) {
        const auto ft = static_cast<std::int64_t>((5 + 20 * rng.next()) * kMs);
        c.frame_ns.push_back(ft);
        c.start_ns.push_back(start);
        start += ft;
    }
    const CaptureReport r = analyse_capture(c, {});
    const FigureValue v = figure_value(r, "unreal_mvp_share");
    ASSERT_FALSE(v.has_value());
    // What is missing, in words: core names no flag (the report's help and docs/reports.md do).
    EXPECT_NE(v.reason.find("no target frame rate: none was given"), std::string::npos) << v.reason;
}

// ---- Every output that lists hitches says why each took its time; HTML plots the latency ----

TEST(LatencyOutputs, HitchListsGiveEachCauseAndHtmlPlotsLatency) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string capture = test::capture("IPMAuxTestData_test_case_9_v2.csv");
    const auto json = test::run_loopscope("report --format json \"" + capture + "\"");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    ASSERT_FALSE(j["stutter"]["hitches"].empty());
    // The longest hitch: the terminal lists the longest ones.
    const auto& hitches = j["stutter"]["hitches"];
    std::size_t longest = 0;
    for (std::size_t k = 1; k < hitches.size(); ++k) {
        if (hitches[k]["frame_time_ms"].get<double>() >
            hitches[longest]["frame_time_ms"].get<double>())
            longest = k;
    }
    const auto& cause = hitches[longest]["cause"];
    const std::string kind = cause["kind"].get<std::string>();
    EXPECT_TRUE(kind == "present" || kind == "cpu") << cause.dump();
    double sum = 0;
    for (const auto& part : cause["parts"])
        sum += part["ms"].get<double>();
    EXPECT_NEAR(sum, hitches[longest]["frame_time_ms"].get<double>(), 1e-3) << cause.dump();
    const std::string first = cause["summary"].get<std::string>();
    EXPECT_TRUE(j["figures"]["cpu_bound_share"].is_number());
    const auto terminal = test::run_loopscope("report \"" + capture + "\"");
    EXPECT_NE(terminal.out.find("why (parts)"), std::string::npos);
    EXPECT_NE(terminal.out.find(first), std::string::npos) << first;
    const auto md = test::run_loopscope("report --format md \"" + capture + "\"");
    EXPECT_NE(md.out.find("| why"), std::string::npos);
    EXPECT_NE(md.out.find(first), std::string::npos) << first;

    const std::string dir = test::make_temp_dir("latency_html");
    const auto html =
        test::run_loopscope("report --format html -o \"" + dir + "/r.html\" \"" + capture + "\"");
    ASSERT_EQ(html.exit_code, 0) << html.err;
    const std::string page = test::read_text(dir + "/r.html");
    const auto frame_plot = page.find("<figcaption>Frame time");
    const auto latency_plot = page.find("<figcaption>Latency over time (DisplayLatency");
    ASSERT_NE(frame_plot, std::string::npos);
    ASSERT_NE(latency_plot, std::string::npos);
    EXPECT_LT(frame_plot, latency_plot);  // under the frame-time plot
    EXPECT_NE(page.find("<th>why</th><th>parts</th>"), std::string::npos);
}

}  // namespace
}  // namespace loopscope
