// One recording written by PresentMon in its three CSV layouts (1.x, 2.x "v2 metrics", 2.4+)
// must give the same present timeline, application cadence and display timeline: the layouts
// differ in what a column means (2.x FrameTime is the time between the app's frame starts,
// DisplayedTime a frame's time on screen), not in what happened. Uses the shared real
// recordings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/comparison.hpp"
#include "core/latency.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

Capture read(const std::string& name) {
    return read_capture(test::capture(name));
}

// Each displayed frame's time between display changes, by its number in the capture.
std::map<std::int64_t, std::int64_t> display_timeline(const Capture& c) {
    AnalysisOptions o;
    o.timeline = Timeline::display;
    const CaptureReport r = analyse_capture(c, o);
    std::map<std::int64_t, std::int64_t> by_frame;
    for (std::size_t i = 0; i < r.series.frame_ns.size(); ++i)
        by_frame[r.series.frame_number[i]] = r.series.frame_ns[i];
    return by_frame;
}

// The frames both timelines hold must carry the same time; a layout may lack the first
// displayed frame's time (2.x has no display change before the capture) and the last one's.
void expect_same_display_timeline(const Capture& a, const Capture& b) {
    const auto ta = display_timeline(a);
    const auto tb = display_timeline(b);
    std::size_t common = 0, equal = 0;
    for (const auto& [frame, ns] : ta) {
        const auto it = tb.find(frame);
        if (it == tb.end())
            continue;
        ++common;
        if (std::llabs(it->second - ns) <= 1'000)  // cells are rounded to 0.1 us or finer
            ++equal;
    }
    EXPECT_GE(common + 2, std::max(ta.size(), tb.size()));
    EXPECT_EQ(equal, common) << a.source.file << " vs " << b.source.file;

    const CaptureReport ra = analyse_capture(a, {});
    const CaptureReport rb = analyse_capture(b, {});
    EXPECT_EQ(ra.display.dropped, rb.display.dropped);
    const double mean_a = ra.display.between_display_changes.mean_ms;
    const double mean_b = rb.display.between_display_changes.mean_ms;
    EXPECT_NEAR(mean_a, mean_b, 1e-3 * mean_a);
    EXPECT_NEAR(ra.display.between_display_changes.p99_ms,
                rb.display.between_display_changes.p99_ms,
                1e-3 * ra.display.between_display_changes.p99_ms);
}

TEST(LayoutsAgree, DisplayTimelineIsTheSameInEveryLayout) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture v1 = read("presentmon_gold_test_case_5_v1.csv");
    const Capture v2 = read("presentmon_gold_test_case_5_v2.csv");
    const Capture v24 = read("presentmon_gold_test_case_5.csv");
    ASSERT_EQ(v2.source.format, "presentmon-2");
    ASSERT_EQ(v24.source.format, "presentmon-2.4");
    expect_same_display_timeline(v1, v24);
    expect_same_display_timeline(v1, v2);
    expect_same_display_timeline(v24, v2);
    // With frame generation (Intel XeSS-FG): generated frames are displayed too.
    expect_same_display_timeline(read("IPMAuxTestData_test_case_9_v1.csv"),
                                 read("IPMAuxTestData_test_case_9_v2.csv"));
}

TEST(LayoutsAgree, ApplicationCadenceIsTheSameInBothTwoXLayouts) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture v1 = read("presentmon_gold_test_case_5_v1.csv");
    const Capture v2 = read("presentmon_gold_test_case_5_v2.csv");
    const Capture v24 = read("presentmon_gold_test_case_5.csv");
    // 2.x FrameTime equals 2.4+ MsBetweenAppStart row for row.
    ASSERT_EQ(v2.app_interval_ns.size(), v2.frames());
    EXPECT_EQ(v2.app_interval_ns, v24.app_interval_ns);
    // Without generated frames both give the application cadence from that column, identically.
    const CaptureReport r2 = analyse_capture(v2, {});
    const CaptureReport r24 = analyse_capture(v24, {});
    ASSERT_FALSE(r24.has_generated);
    ASSERT_EQ(r2.application.frames, v2.frames());
    EXPECT_EQ(r24.application.frames, r2.application.frames);
    EXPECT_EQ(r24.application.average_fps, r2.application.average_fps);
    EXPECT_EQ(r24.application.interval.p99_ms, r2.application.interval.p99_ms);
    EXPECT_EQ(r24.application.fps.low1_average, r2.application.fps.low1_average);
    EXPECT_EQ(r24.application.stutter.time_share, r2.application.stutter.time_share);
    const FrameTimeSummary app = summarize_frame_times(v24.app_interval_ns);
    EXPECT_NEAR(r24.application.interval.p99_ms, app.p99_ms, 1e-9 * app.p99_ms);
    // 1.x writes presents only: no application cadence.
    EXPECT_EQ(analyse_capture(v1, {}).application.frames, 0u);
}

TEST(LayoutsAgree, PresentTimelineIsTheSameInEveryLayout) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture v1 = read("presentmon_gold_test_case_5_v1.csv");
    const Capture v2 = read("presentmon_gold_test_case_5_v2.csv");
    const Capture v24 = read("presentmon_gold_test_case_5.csv");
    const CaptureReport r1 = analyse_capture(v1, {});
    const CaptureReport r2 = analyse_capture(v2, {});
    const CaptureReport r24 = analyse_capture(v24, {});
    // 1.x writes the swap chain's last present, which 2.x never completes: the 1.x report keeps
    // it (every row is a frame), and every present both hold has the same time.
    EXPECT_EQ(v1.frames(), v24.frames() + 1);
    ASSERT_EQ(r1.series.frame_ns.size(), r24.series.frame_ns.size() + 1);
    for (std::size_t i = 0; i < r24.series.frame_ns.size(); ++i) {
        EXPECT_EQ(r1.series.frame_ns[i], r24.series.frame_ns[i]) << "frame " << i;
        EXPECT_EQ(r1.series.frame_number[i], r24.series.frame_number[i]);
    }
    // A comparison of the two is cut to the presents both hold, and then their figures agree.
    const auto aligned = align_one_recording(v1, v24);
    ASSERT_TRUE(aligned.has_value());
    EXPECT_EQ(aligned->frames_a, v24.frames());
    EXPECT_EQ(aligned->frames_b, v24.frames());
    EXPECT_NE(aligned->note.find("A's last present, after B's last, is left out"),
              std::string::npos)
        << aligned->note;
    AnalysisOptions cut;
    cut.to = RangeBound{RangeBound::Kind::frame, static_cast<std::int64_t>(aligned->frames_a)};
    EXPECT_EQ(analyse_capture(v1, cut).stats.frame_time.p99_ms, r24.stats.frame_time.p99_ms);
    // The 2.x layout against 1.x: aligned too (its first frame has no time and is skipped).
    const auto v2_aligned = align_one_recording(v2, v1);
    ASSERT_TRUE(v2_aligned.has_value());
    EXPECT_EQ(v2_aligned->frames_b, v2.frames());
    // 2.x has no present-to-present column: rebuilt from CPU start + CPUBusy, it gives every
    // frame but the first (no earlier present in the file) the time 2.4+ gives it.
    ASSERT_EQ(r2.series.frame_ns.size() + 1, r24.series.frame_ns.size());
    for (std::size_t i = 0; i < r2.series.frame_ns.size(); ++i) {
        EXPECT_EQ(r2.series.frame_number[i], r24.series.frame_number[i + 1]);
        EXPECT_LE(std::llabs(r2.series.frame_ns[i] - r24.series.frame_ns[i + 1]), 1)
            << "frame " << r2.series.frame_number[i];
    }
    EXPECT_NE(r2.frame_time_column.find("CPUBusy"), std::string::npos);
}

TEST(LayoutsAgree, GeneratedFramesOfTheV2LayoutAreCountedNotZeroMsFrames) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture v2 = read("IPMAuxTestData_test_case_9_v2.csv");
    const CaptureReport r = analyse_capture(v2, {});
    std::size_t generated = 0;
    for (const std::uint8_t g : v2.generated)
        generated += g;
    ASSERT_GT(generated, 0u);
    EXPECT_EQ(r.generated_without_frame_time, generated);
    EXPECT_EQ(r.series.frame_ns.size() + generated + v2.leading_frames_without_time, v2.frames());
    EXPECT_GT(r.stats.frame_time.min_ms, 0.0);  // no 0 ms frames
    EXPECT_EQ(r.generated.frames, generated);
    EXPECT_NE(timeline_label(r).find("application frames only"), std::string::npos);
    // The application cadence is FrameTime of the application frames.
    std::vector<std::int64_t> app;
    for (std::size_t i = 0; i < v2.frames(); ++i) {
        if (v2.generated[i] == 0)
            app.push_back(v2.app_interval_ns[i]);
    }
    EXPECT_EQ(r.application.frames, app.size());
    const FrameTimeSummary expected = summarize_frame_times(app);
    EXPECT_NEAR(r.application.interval.mean_ms, expected.mean_ms, 1e-9 * expected.mean_ms);
}

// PresentMon's CPUBusy is the application's present start less its frame's CPU start, so the
// 2.x layout's rebuilt present (CPUStartQPC + CPUBusy) is the application's present: with frame
// generation too, each application frame's rebuilt present is a present the 1.x layout of the
// same recording holds (TimeInSeconds), within 1 us. (The two layouts write the presents in
// different orders, so they are matched by time, on one offset between the two clocks' zeros.)
TEST(LayoutsAgree, RebuiltPresentsOfTheV2LayoutAreThe1xPresentsWithFrameGeneration) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture v1 = read("IPMAuxTestData_test_case_9_v1.csv");
    const Capture v2 = read("IPMAuxTestData_test_case_9_v2.csv");
    ASSERT_EQ(v2.generated.size(), v2.frames());
    std::vector<std::int64_t> presents_v1 = v1.start_ns;  // TimeInSeconds: the present times
    std::sort(presents_v1.begin(), presents_v1.end());
    std::vector<std::int64_t> rebuilt;
    for (std::size_t i = v2.leading_frames_without_time - 1; i < v2.frames(); ++i) {
        if (v2.generated[i] == 0)
            rebuilt.push_back(v2.start_ns[i]);
    }
    ASSERT_GT(rebuilt.size(), 4000u);
    const auto matched = [&](std::int64_t offset) {
        std::size_t n = 0;
        for (const std::int64_t p : rebuilt) {
            const auto at =
                std::lower_bound(presents_v1.begin(), presents_v1.end(), p + offset - 1'000);
            n += at != presents_v1.end() && *at <= p + offset + 1'000 ? 1 : 0;
        }
        return n;
    };
    // The offset that puts the first rebuilt present on one of the first 1.x presents.
    std::size_t best = 0;
    for (std::size_t j = 0; j < 16 && j < presents_v1.size(); ++j)
        best = std::max(best, matched(presents_v1[j] - rebuilt.front()));
    EXPECT_EQ(best, rebuilt.size());
}

// PresentMon defines DisplayLatency as the screen time less the frame's CPU start and
// MsUntilDisplayed as the screen time less the present's start (TimeInQPC), so the 2.4+ layout's
// derived display latency is (TimeInQPC - CPUStartQPC) + MsUntilDisplayed: on every displayed
// frame of the recording in both layouts it equals the 2.x layout's own DisplayLatency cell.
TEST(LayoutsAgree, DerivedDisplayLatencyEqualsTheOtherLayoutsColumnOnEveryFrame) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture v2 = read("presentmon_gold_test_case_5_v2.csv");
    const Capture v24 = read("presentmon_gold_test_case_5.csv");
    ASSERT_EQ(latency_column(v24, LatencyKind::display),
              "TimeInQPC - CPUStartQPC + MsUntilDisplayed");
    ASSERT_EQ(v24.cpu_start_to_present_ns.size(), v24.frames());
    const std::vector<std::int64_t> derived = latency_per_frame(v24, LatencyKind::display);
    const std::vector<std::int64_t>& written = v2.time_column(TimeColumn::display_latency);
    ASSERT_EQ(derived.size(), written.size());
    std::size_t compared = 0;
    for (std::size_t i = 0; i < derived.size(); ++i) {
        EXPECT_EQ(derived[i] < 0, written[i] < 0) << "frame " << i;
        if (derived[i] < 0 || written[i] < 0)
            continue;
        ++compared;
        // Cells are rounded to 0.1 us; the ticks are 0.1 us.
        EXPECT_LE(std::llabs(derived[i] - written[i]), 300) << "frame " << i;
    }
    EXPECT_GT(compared, 150u);
}

// With frame generation MsCPUBusy is 0 on generated frames (and the application's own present
// elsewhere), so MsCPUBusy + MsUntilDisplayed is not the display latency there: the derived
// column follows the present's own start. A 2.4+ capture written here with the cells PresentMon
// writes for such frames.
TEST(LayoutsAgree, DerivedDisplayLatencyHoldsOnGeneratedFrames) {
    const std::string dir = test::make_temp_dir("layouts");
    const std::string path = dir + "/fg24.csv";
    std::ofstream out(path);
    out << "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
           "AllowsTearing,PresentMode,FrameType,TimeInQPC,MsBetweenPresents,"
           "MsBetweenDisplayChange,MsInPresentAPI,MsUntilDisplayed,CPUStartQPC,"
           "MsBetweenAppStart,MsCPUBusy\n";
    // 10 MHz ticks. The application starts a frame every 20 ms (200,000 ticks) and presents
    // 6 ms later; the generated frame is presented 10 ms after that, with the same CPU start.
    std::vector<double> expected_ms;
    std::int64_t cpu = 1'000'000;
    for (int i = 0; i < 201; ++i) {  // the last an application frame
        const bool generated = i % 2 == 1;
        if (!generated && i > 0)
            cpu += 200'000;
        const std::int64_t present = cpu + (generated ? 160'000 : 60'000);
        const double until_ms = generated ? 4.5 : 12.25;
        out << "Game.exe,1,0x1,DXGI,1,0,0,Hardware: Independent Flip,"
            << (generated ? "Intel XeSS-FG" : "Application") << "," << present << ",10.0000,"
            << "10.0000,0.1000," << until_ms << "," << cpu << ","
            << (generated ? "0.0000" : "20.0000") << "," << (generated ? "0.0000" : "6.0000")
            << "\n";
        expected_ms.push_back(static_cast<double>(present - cpu) / 1e4 + until_ms);
    }
    out.close();
    const Capture c = read_capture(path);
    ASSERT_EQ(c.metadata.at("qpc_frequency_hz"), "10000000 (from the file's times)");
    const std::vector<std::int64_t> derived = latency_per_frame(c, LatencyKind::display);
    ASSERT_EQ(derived.size(), expected_ms.size());
    for (std::size_t i = 0; i < derived.size(); ++i)
        EXPECT_EQ(derived[i], std::llround(expected_ms[i] * 1e6)) << "frame " << i;
    // 6 + 12.25 on application frames, 16 + 4.5 on generated ones (MsCPUBusy +
    // MsUntilDisplayed would give 18.25 and 4.5).
    const CaptureReport r = analyse_capture(c, {});
    ASSERT_TRUE(r.latency.display.has_value());
    const double mean = std::accumulate(expected_ms.begin(), expected_ms.end(), 0.0) /
                        static_cast<double>(expected_ms.size());
    EXPECT_NEAR(r.latency.display->mean_ms, mean, 1e-9);
    EXPECT_GT(mean, 19.0);
}

}  // namespace
}  // namespace loopscope
