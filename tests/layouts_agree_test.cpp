// One recording written by PresentMon in its three CSV layouts (1.x, 2.x "v2 metrics", 2.4+)
// must give the same present timeline, application cadence and display timeline: the layouts
// differ in what a column means (2.x FrameTime is the time between the app's frame starts,
// DisplayedTime a frame's time on screen), not in what happened. Uses the shared real
// recordings.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "reports/readers.hpp"
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
    // 1.x writes the swap chain's last present, which 2.x never completes: it is left out.
    EXPECT_EQ(v1.frames(), v24.frames() + 1);
    ASSERT_EQ(r1.series.frame_ns.size(), r24.series.frame_ns.size());
    for (std::size_t i = 0; i < r24.series.frame_ns.size(); ++i) {
        EXPECT_EQ(r1.series.frame_ns[i], r24.series.frame_ns[i]) << "frame " << i;
        EXPECT_EQ(r1.series.frame_number[i], r24.series.frame_number[i]);
    }
    EXPECT_EQ(r1.stats.frame_time.p99_ms, r24.stats.frame_time.p99_ms);
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

}  // namespace
}  // namespace loopscope
