// The report model on captures built in the test: ranges, start-up detection, the display
// timeline, generated frames, figure names, gating and the bootstrap comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/errors.hpp"
#include "core/analysis.hpp"
#include "core/block_bootstrap.hpp"
#include "core/comparison.hpp"
#include "core/figures.hpp"
#include "core/frame_stats.hpp"
#include "core/gate.hpp"
#include "core/segments.hpp"
#include "readers/readers.hpp"
#include "tests/frames_capture.hpp"
#include "tool/option_values.hpp"
#include "writers/writer.hpp"

namespace loopscope {
namespace {

constexpr std::int64_t kMs = 1'000'000;

Capture make_capture(const std::vector<std::int64_t>& frame_ns) {
    // The capture began before the first frame.
    return test::frames_capture(frame_ns, "presentmon-2.4", 5 * kMs);
}

TEST(ReportModel, PercentileCurveIsTheFiguresPercentilesAtEveryQuarterPercent) {
    // 1..1000 ms in a shuffled order: the curve must come from the sorted values.
    std::vector<std::int64_t> frames;
    for (std::int64_t i = 0; i < 1000; ++i)
        frames.push_back(((i * 617) % 1000 + 1) * kMs);
    const Capture c = make_capture(frames);
    const CaptureReport r = analyse_capture(c, {});
    ASSERT_EQ(r.percentile_curve_ms.size(), static_cast<std::size_t>(kPercentileCurveSteps) + 1);
    EXPECT_DOUBLE_EQ(r.percentile_curve_ms.front(), r.stats.frame_time.min_ms);
    EXPECT_DOUBLE_EQ(r.percentile_curve_ms.back(), r.stats.frame_time.max_ms);
    EXPECT_DOUBLE_EQ(r.percentile_curve_ms[200], r.stats.frame_time.p50_ms);
    EXPECT_DOUBLE_EQ(r.percentile_curve_ms[360], r.stats.frame_time.p90_ms);
    EXPECT_DOUBLE_EQ(r.percentile_curve_ms[396], r.stats.frame_time.p99_ms);
    EXPECT_TRUE(std::is_sorted(r.percentile_curve_ms.begin(), r.percentile_curve_ms.end()));
    // h = p·(N−1) between neighbours: p = 0.25 % of 1..1000 ms is 1 + 0.0025·999 ms.
    EXPECT_NEAR(r.percentile_curve_ms[1], 1 + 0.0025 * 999, 1e-9);
}

TEST(ReportModel, TailCurveIsTheFiguresPercentilesOnTheNinesAxis) {
    std::vector<std::int64_t> frames;
    for (std::int64_t i = 0; i < 1000; ++i)
        frames.push_back(((i * 617) % 1000 + 1) * kMs);
    const Capture c = make_capture(frames);
    const CaptureReport r = analyse_capture(c, {});
    ASSERT_EQ(r.tail_curve_ms.size(), static_cast<std::size_t>(kTailCurveSteps) + 1);
    // n nines at step n / kTailCurveNines of the way: p0, p90, p99, p99.9.
    const auto at_nines = [&](double n) {
        return r.tail_curve_ms[static_cast<std::size_t>(n / kTailCurveNines * kTailCurveSteps)];
    };
    EXPECT_DOUBLE_EQ(at_nines(0), r.stats.frame_time.min_ms);
    EXPECT_NEAR(at_nines(1), r.stats.frame_time.p90_ms, 1e-9);
    EXPECT_NEAR(at_nines(2), r.stats.frame_time.p99_ms, 1e-9);
    EXPECT_NEAR(at_nines(3), r.stats.frame_time.p999_ms, 1e-9);
    // p99.99 of 1..1000 ms: h = 0.9999·999 between 999 and 1000 ms.
    EXPECT_NEAR(r.tail_curve_ms.back(), 1 + 0.9999 * 999, 1e-9);
    EXPECT_TRUE(std::is_sorted(r.tail_curve_ms.begin(), r.tail_curve_ms.end()));
}

TEST(ReportSegments, RangeBoundsAreFrameNumbersOrTimesWithAUnit) {
    EXPECT_EQ(parse_range_bound("--from", "120").kind, RangeBound::Kind::frame);
    EXPECT_EQ(parse_range_bound("--from", "120").value, 120);
    const RangeBound t = parse_range_bound("--to", "1.5s");
    EXPECT_EQ(t.kind, RangeBound::Kind::time);
    EXPECT_EQ(t.value, 1'500'000'000);
    EXPECT_THROW(parse_range_bound("--from", "1.5"), UsageError);
    EXPECT_THROW(parse_range_bound("--from", "-3"), UsageError);
}

TEST(ReportSegments, SelectRangeIsHalfOpenByFrameOrByStartTime) {
    const std::vector<std::int64_t> frames(10, 10 * kMs);
    const Capture c = make_capture(frames);
    RangeBound from{RangeBound::Kind::frame, 2};
    RangeBound to{RangeBound::Kind::frame, 5};
    FrameRange r = select_range(c.frame_ns, c.start_ns, from, to);
    EXPECT_EQ(r.begin, 2u);
    EXPECT_EQ(r.end, 5u);
    // Times count from the first frame's start: frame 3 starts at 30 ms.
    from = {RangeBound::Kind::time, 30 * kMs};
    to = {RangeBound::Kind::time, 61 * kMs};
    r = select_range(c.frame_ns, c.start_ns, from, to);
    EXPECT_EQ(r.begin, 3u);
    EXPECT_EQ(r.end, 7u);
    EXPECT_THROW(select_range(c.frame_ns, c.start_ns, {RangeBound::Kind::frame, 9},
                              {RangeBound::Kind::frame, 9}),
                 UsageError);
}

TEST(ReportSegments, StartupIsTheDenseRunOfFarOffFramesAtTheStart) {
    // Loading frames of 80 ms with a few steady ones among them (far-off frames stay at least
    // half of the run), then steady; a 50 ms frame 20 frames later is an ordinary hitch: it
    // does not pull the 20 steady frames before it into the segment.
    std::vector<std::int64_t> frames = {80 * kMs, 80 * kMs, 16 * kMs, 80 * kMs,
                                        16 * kMs, 80 * kMs, 80 * kMs};
    frames.insert(frames.end(), 20, 16 * kMs);
    frames.push_back(50 * kMs);  // index 27
    frames.insert(frames.end(), 140, 16 * kMs);
    const StartupSegment s = detect_startup(frames);
    EXPECT_EQ(s.frames, 7u);
    EXPECT_DOUBLE_EQ(s.median_ms, 16.0);
    EXPECT_EQ(s.duration_ns, 5 * 80 * kMs + 2 * 16 * kMs);
    EXPECT_FALSE(s.long_gap);
}

// Sparse far-off frames (one every 25) after a short loading run: the earlier "within 30
// frames" rule chained them across the whole first half and set aside 101 frames of which 93
// were ordinary. The segment is the loading run alone.
TEST(ReportSegments, StartupNeverSetsAsideAStretchOfOrdinaryFrames) {
    std::vector<std::int64_t> frames(4, 90 * kMs);
    for (int i = 4; i < 240; ++i)
        frames.push_back(i % 25 == 0 ? 45 * kMs : 16 * kMs);
    const StartupSegment s = detect_startup(frames);
    EXPECT_EQ(s.frames, 4u);
    std::size_t ordinary = 0;
    for (std::size_t i = 0; i < s.frames; ++i)
        ordinary += frames[i] == 16 * kMs ? 1 : 0;
    EXPECT_EQ(ordinary, 0u);
}

// One more frame at the end moves the scanned first half by a frame; that must not change the
// segment. Far-off frames at 0-4, 30 and 60: with 121 frames the scan stops before 60, with
// 122 it reaches it (the earlier rule went from 31 frames to 61).
TEST(ReportSegments, OneTrailingFrameDoesNotFlipTheStartup) {
    std::vector<std::int64_t> frames(121, 16 * kMs);
    for (const std::size_t i : {0u, 1u, 2u, 3u, 4u, 30u, 60u})
        frames[i] = 80 * kMs;
    const StartupSegment before = detect_startup(frames);
    for (const std::int64_t last : {16 * kMs, 80 * kMs, 1500 * kMs}) {
        std::vector<std::int64_t> longer = frames;
        longer.push_back(last);
        const StartupSegment after = detect_startup(longer);
        EXPECT_EQ(after.frames, before.frames) << last;
    }
    EXPECT_EQ(before.frames, 5u);
}

TEST(ReportSegments, ALongGapInTheFirstHalfEndsTheStartup) {
    std::vector<std::int64_t> frames(50, 16 * kMs);
    frames.push_back(1500 * kMs);  // a loading screen at index 50
    frames.insert(frames.end(), 100, 16 * kMs);
    const StartupSegment s = detect_startup(frames);
    EXPECT_EQ(s.frames, 51u);
    EXPECT_TRUE(s.long_gap);
    EXPECT_EQ(detect_startup(std::vector<std::int64_t>(200, 16 * kMs)).frames, 0u);
    EXPECT_EQ(detect_startup(std::vector<std::int64_t>(10, 16 * kMs)).frames, 0u);
}

TEST(ReportSegments, AlternatingCadenceIsNotAStartup) {
    // Generated frames alternating with application frames: every frame is far off the
    // median, but so is the rest of the capture, so nothing is set aside.
    std::vector<std::int64_t> frames;
    for (int i = 0; i < 200; ++i)
        frames.push_back(i % 2 ? kMs / 5 : 14 * kMs);
    EXPECT_EQ(detect_startup(frames).frames, 0u);
}

TEST(ReportModel, FiguresWithoutTheStartupSkipItsFrames) {
    std::vector<std::int64_t> frames(3, 200 * kMs);
    frames.insert(frames.end(), 97, 10 * kMs);
    const Capture c = make_capture(frames);
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_EQ(r.stats.frame_time.frames, 100u);
    EXPECT_EQ(r.startup.frames, 3u);
    EXPECT_EQ(r.steady.frame_time.frames, 97u);
    EXPECT_DOUBLE_EQ(r.steady.frame_time.max_ms, 10.0);
    EXPECT_DOUBLE_EQ(r.steady.fps.average, 100.0);
    // Series starts come from the capture's start times.
    EXPECT_EQ(r.series.start_ns.front(), 5 * kMs);
}

TEST(ReportModel, DisplayTimelineLeavesDroppedFramesOutAndCountsThem) {
    Capture c = make_capture({10 * kMs, 10 * kMs, 10 * kMs, 10 * kMs});
    c.display_ns = {16 * kMs, -1, 17 * kMs, 16 * kMs};
    c.dropped = {0, 1, 0, 0};
    AnalysisOptions o;
    o.timeline = Timeline::display;
    const CaptureReport r = analyse_capture(c, o);
    EXPECT_EQ(r.dropped_in_range, 1u);
    ASSERT_EQ(r.series.frame_ns.size(), 3u);
    EXPECT_EQ(r.series.frame_number[1], 2);
    EXPECT_DOUBLE_EQ(r.stats.frame_time.max_ms, 17.0);
    EXPECT_EQ(r.frame_time_column, "MsBetweenDisplayChange");
    Capture no_display = make_capture({10 * kMs});
    EXPECT_THROW(analyse_capture(no_display, o), UsageError);
}

TEST(ReportModel, RefreshRateComesFromDisplayChangesWhenTheCaptureHasThem) {
    std::vector<std::int64_t> frames;
    for (int i = 0; i < 60; ++i)
        frames.push_back((9 + i % 7) * kMs);  // no grid
    Capture c = make_capture(frames);
    c.display_ns.assign(frames.size(), 16'666'667);
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_EQ(r.stats.refresh.rate_hz, 60);
    EXPECT_EQ(r.refresh_column, "MsBetweenDisplayChange");
}

// The grid is judged on every display change, a frame marked dropped that has one included,
// while the display figures leave dropped frames out.
TEST(ReportModel, RefreshRateCountsTheDisplayChangesOfFramesMarkedDropped) {
    std::vector<std::int64_t> frames(60, 16'666'667);
    Capture c = make_capture(frames);
    c.display_ns = frames;
    c.dropped.assign(frames.size(), 0);
    std::vector<std::int64_t> changes;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (i % 3 == 0) {
            c.dropped[i] = 1;
            c.display_ns[i] = 23'000'000;  // on no grid
        }
        changes.push_back(c.display_ns[i]);
    }
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_EQ(r.display.displayed, 40u);
    EXPECT_DOUBLE_EQ(r.display.between_display_changes.max_ms, 16.666667);
    const RefreshGuess all = detect_refresh_rate(changes);
    EXPECT_EQ(r.stats.refresh.best_rate_hz, all.best_rate_hz);
    EXPECT_DOUBLE_EQ(r.stats.refresh.best_on_grid_share, all.best_on_grid_share);
    EXPECT_LT(r.stats.refresh.best_on_grid_share, 0.7) << r.stats.refresh.best_rate_hz;
    // Without the dropped frames' changes, the same displayed frames are all on the 60 Hz grid.
    for (std::size_t i = 0; i < frames.size(); i += 3)
        c.display_ns[i] = -1;
    const CaptureReport d = analyse_capture(c, {});
    EXPECT_EQ(d.stats.refresh.best_rate_hz, 60);
    EXPECT_DOUBLE_EQ(d.stats.refresh.best_on_grid_share, 1.0);
}

TEST(ReportModel, GeneratedFramesAreSplitFromApplicationFrames) {
    Capture c = make_capture(std::vector<std::int64_t>(8, 8 * kMs));
    c.generated = {0, 1, 0, 1, 0, 1, 0, 1};
    const CaptureReport r = analyse_capture(c, {});
    ASSERT_TRUE(r.has_generated);
    EXPECT_EQ(r.application.frames, 4u);
    EXPECT_DOUBLE_EQ(r.application.interval.mean_ms, 16.0);
    EXPECT_DOUBLE_EQ(*figure_value(r, "app_fps"), 4.0 / 0.064);
}

TEST(ReportModel, SampledLogsGiveNoPerFrameFigures) {
    Capture c = make_capture(std::vector<std::int64_t>(20, 16 * kMs));
    c.per_frame = false;
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_FALSE(figure_value(r, "p99_ms").has_value());
    EXPECT_FALSE(figure_value(r, "mean_ms").has_value());
    EXPECT_DOUBLE_EQ(*figure_value(r, "mean_sample_ms"), 16.0);
    EXPECT_EQ(r.startup.frames, 0u);
}

TEST(ReportModel, NoRefreshGridLeavesTheRefreshFiguresAbsentNotZero) {
    std::vector<std::int64_t> frames;
    for (int i = 0; i < 60; ++i)
        frames.push_back((9 + i % 7) * kMs);  // no grid, and no display column to find one in
    const Capture c = make_capture(frames);
    const CaptureReport r = analyse_capture(c, {});
    ASSERT_EQ(r.stats.refresh.rate_hz, 0);
    for (const char* key : {"refresh_hz", "on_grid_share"}) {
        const FigureValue v = figure_value(r, key);
        EXPECT_FALSE(v.has_value()) << key;
        EXPECT_NE(v.reason.find("no fixed refresh from"), std::string::npos) << v.reason;
    }
    // The summary still says so in words.
    const auto rows = summary_rows(r);
    const auto row = std::find_if(rows.begin(), rows.end(),
                                  [](const SummaryRow& x) { return x.label == "refresh rate"; });
    ASSERT_NE(row, rows.end());
    // Frame times only: no display information, and no grid to name as their cadence.
    EXPECT_EQ(row->value, "none (no display information); no cadence grid");
    EXPECT_EQ(r.stats.refresh.state, RefreshGuess::State::unknown);
}

// Variable refresh: display intervals spread between 27 and 35 ms. 40 % sit on the 100 Hz grid
// (30 ms), well beyond the 10 % chance gives, but a fixed refresh puts all but a few of them on
// its grid: no rate. The display changes follow the presents: that is the state, said with why.
TEST(ReportModel, IntervalsOffOneGridGiveNoRefreshRateAndSayWhy) {
    const std::vector<double> pattern_ms = {30.0, 30.0, 30.0, 30.0, 27.3,
                                            28.6, 31.7, 33.2, 34.4, 32.6};
    std::vector<std::int64_t> frames;
    for (int i = 0; i < 90; ++i)
        frames.push_back(std::llround(pattern_ms[static_cast<std::size_t>(i) % 10] * 1e6));
    Capture c = make_capture(frames);
    c.display_ns = frames;
    c.dropped.assign(frames.size(), 0);
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_EQ(r.stats.refresh.rate_hz, 0);
    EXPECT_EQ(r.stats.refresh.state, RefreshGuess::State::follows_presents);
    EXPECT_EQ(r.stats.refresh.absent, RefreshGuess::Absent::follows);
    EXPECT_EQ(r.stats.refresh.best_rate_hz, 100);
    EXPECT_DOUBLE_EQ(r.stats.refresh.best_on_grid_share, 0.4);
    const FigureValue v = figure_value(r, "refresh_hz");
    EXPECT_FALSE(v.has_value());
    EXPECT_NE(v.reason.find("display changes follow the presents (100.00 % of the displayed"),
              std::string::npos)
        << v.reason;
    // Display changes that do not follow the presents and sit on no grid: unknown, said so.
    Capture apart = c;
    for (std::int64_t& d : apart.display_ns)
        d += 3'000'000;
    const CaptureReport u = analyse_capture(apart, {});
    EXPECT_EQ(u.stats.refresh.state, RefreshGuess::State::unknown);
    EXPECT_EQ(u.stats.refresh.absent, RefreshGuess::Absent::off_grid);
    EXPECT_NE(figure_value(u, "refresh_hz").reason.find("no candidate grid (50-360 Hz) explains"),
              std::string::npos);
    // The same intervals all on the 60 Hz grid are a refresh rate.
    std::vector<std::int64_t> steady(90, 33'333'333);
    Capture fixed = make_capture(steady);
    fixed.display_ns = steady;
    fixed.dropped.assign(steady.size(), 0);
    EXPECT_EQ(analyse_capture(fixed, {}).stats.refresh.rate_hz, 60);
}

// Frame times alone (no display-change, dropped, present-mode or sync column: a trace, a plain
// list) say when the game presented, not when a display changed: a grid they sit on is a
// cadence grid, said so, never a refresh rate, and nothing is judged against it (missed vsync)
// unless --target-fps names a rate.
TEST(ReportModel, FrameTimesWithoutDisplayInformationGiveACadenceGridNotARefreshRate) {
    std::vector<std::int64_t> steady;
    for (int i = 0; i < 240; ++i)
        steady.push_back(i % 10 == 9 ? 33'333'333 : 16'666'667);  // a missed vsync, were it one
    const Capture c = make_capture(steady);
    ASSERT_FALSE(has_display_information(c));
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_EQ(r.stats.refresh.state, RefreshGuess::State::unknown);
    EXPECT_EQ(r.stats.refresh.absent, RefreshGuess::Absent::no_display);
    EXPECT_EQ(r.stats.refresh.rate_hz, 0);
    EXPECT_EQ(r.stats.refresh.best_rate_hz, 60);  // the grid, kept as the evidence
    for (const char* key : {"refresh_hz", "on_grid_share", "unreal_mvp_share"}) {
        const FigureValue v = figure_value(r, key);
        EXPECT_FALSE(v.has_value()) << key;
        EXPECT_NE(v.reason.find("cadence grid 60 Hz"), std::string::npos)
            << key << ": " << v.reason;
    }
    bool said = false;
    for (const SummaryRow& row : summary_rows(r)) {
        if (row.label == "refresh rate") {
            said = true;
            EXPECT_EQ(row.value.rfind("none (no display information); cadence grid 60 Hz", 0), 0u)
                << row.value;
        }
    }
    EXPECT_TRUE(said);
    // A rate named on the command line is judged against.
    AnalysisOptions target;
    target.target_fps = 60;
    EXPECT_TRUE(figure_value(analyse_capture(c, target), "unreal_mvp_share").has_value());
    // The same frame times with a display column: a refresh rate.
    Capture shown = c;
    shown.display_ns = steady;
    shown.dropped.assign(steady.size(), 0);
    EXPECT_EQ(analyse_capture(shown, {}).stats.refresh.rate_hz, 60);
}

// Tearing allowed (SyncInterval 0 with AllowsTearing) on most frames: display changes do not
// wait for a refresh, so even intervals that sit on a grid give no rate.
TEST(ReportModel, TearingAllowedGivesNoRefreshRate) {
    std::vector<std::int64_t> steady(90, 16'666'667);
    Capture c = make_capture(steady);
    c.display_ns = steady;
    c.dropped.assign(steady.size(), 0);
    c.tearing.assign(steady.size(), 1);
    c.tearing[0] = 0;
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_EQ(r.stats.refresh.rate_hz, 0);
    EXPECT_EQ(r.stats.refresh.absent, RefreshGuess::Absent::tearing);
    EXPECT_EQ(r.stats.refresh.best_rate_hz, 60);  // the grid is there; it is not a refresh
    const FigureValue v = figure_value(r, "on_grid_share");
    EXPECT_NE(v.reason.find("tearing was allowed (SyncInterval 0 with AllowsTearing on 98.89 % "),
              std::string::npos)
        << v.reason;
    // Without tearing the same frames are 60 Hz.
    c.tearing.assign(steady.size(), 0);
    EXPECT_EQ(analyse_capture(c, {}).stats.refresh.rate_hz, 60);
}

TEST(ReportModel, EveryKeyedFigureHasAValueOrAReason) {
    const Capture c = make_capture(std::vector<std::int64_t>(50, 16 * kMs));
    const CaptureReport r = analyse_capture(c, {});
    for (const Figure& f : figure_catalogue()) {
        if (f.key.empty())
            continue;
        const FigureValue v = figure_value(r, f.key);
        EXPECT_NE(v.has_value(), !v.reason.empty()) << f.key;
        if (!v.has_value()) {
            EXPECT_EQ(v.reason.rfind(std::string(f.key) + " is not available: ", 0), 0u)
                << v.reason;
        }
    }
}

// A loopscope trace's frames through a fixed-step loop, with the metadata given.
Capture make_loop_trace(std::map<std::string, std::string> metadata) {
    Capture c = make_capture(std::vector<std::int64_t>(120, 16 * kMs));
    describe_as(c, "loopscope-trace");
    c.source.file = "run.trace";
    c.metadata = std::move(metadata);
    std::int64_t acc = 0;
    for (std::size_t i = 0; i < c.frame_ns.size(); ++i) {
        FrameRecord rec;
        rec.frame = static_cast<std::int64_t>(i);
        rec.start_ns = c.start_ns[i];
        rec.raw_ns = rec.clamped_ns = rec.consumed_ns = c.frame_ns[i];
        acc += rec.consumed_ns;
        rec.acc_before_ns = acc;
        rec.steps = acc >= 10 * kMs ? 1 : 0;
        acc -= rec.steps * 10 * kMs;
        rec.acc_after_ns = acc;
        rec.alpha = static_cast<double>(acc) / (10 * kMs);
        rec.step_cost_ns = kMs;
        c.loop.push_back(rec);
    }
    return c;
}

// Frame 0 of a loopscope trace has no previous frame: its raw_ns is the time since the trace
// began (about 0 here). Left in, it would make frames 1-3 stutter against a near-zero moving
// average and make frame 0 a one-frame start-up segment.
TEST(ReportModel, FrameZeroOfATraceIsNotAFrameTime) {
    Capture c = make_loop_trace({{"policy", "fixed-interp"}, {"dt_ns", "16666667"}});
    c.frame_ns[0] = c.loop[0].raw_ns = 421;
    for (std::size_t i = 0; i < c.frames(); ++i)
        c.start_ns[i] = static_cast<std::int64_t>(i) * 16 * kMs + 421;
    const CaptureReport r = analyse_capture(c, {});
    ASSERT_EQ(r.series.frame_ns.size(), c.frames() - 1);
    EXPECT_EQ(r.series.frame_number.front(), 1);
    EXPECT_EQ(r.stats.frame_time.min_ms, 16.0);
    EXPECT_TRUE(r.stats.stutter.frames.empty());
    EXPECT_EQ(r.stats.stutter.time_share, 0.0);
    EXPECT_TRUE(r.stats.hitches.hitches.empty());
    EXPECT_EQ(r.startup.frames, 0u);
    // The trace keeps the frame: the loop records cover the whole range.
    EXPECT_EQ(r.loop.size(), c.frames());
    // The same frames as a PresentMon capture: its first row is timed against a present
    // before the capture began, so it is a frame time.
    Capture pm = c;
    describe_as(pm, "presentmon-2.4");
    pm.loop.clear();
    EXPECT_EQ(analyse_capture(pm, {}).series.frame_ns.size(), c.frames());
    // Only frame 0 selected: nothing to analyse, said so.
    AnalysisOptions only_first;
    only_first.to = {RangeBound::Kind::frame, 1};
    EXPECT_THROW(analyse_capture(c, only_first), UsageError);
}

TEST(ReportModel, TimesAddingUpPastTheInt64RangeAreRefusedAtTheFrameThatPassesIt) {
    // Each frame is under the 292 years a reader takes; together they are not. Every sum of
    // the figures would wrap, so the capture is refused before any is formed.
    Capture c;
    c.source = {"presentmon-1", "centuries.csv", "game.exe", 1, "0x1"};
    c.frame_ns = {16'000'000, 5'000'000'000'000'000'000, 16'000'000, 5'000'000'000'000'000'000};
    c.start_ns = {0, 16'000'000, 32'000'000, 48'000'000};
    try {
        analyse_capture(c, {});
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "centuries.csv");
        EXPECT_NE(std::string(e.what()).find(
                      "the frame times add up to more than 292 years by capture frame 3"),
                  std::string::npos)
            << e.what();
    }
    // The same for the display changes, and a capture just inside the range is analysed.
    c.frame_ns = {16'000'000, 16'000'000, 16'000'000, 16'000'000};
    c.display_ns = {-1, 5'000'000'000'000'000'000, 5'000'000'000'000'000'000, 16'000'000};
    c.dropped = {0, 0, 0, 0};
    EXPECT_THROW(analyse_capture(c, {}), InputError);
    c.display_ns = {-1, 4'000'000'000'000'000'000, 5'000'000'000'000'000'000, 16'000'000};
    EXPECT_NO_THROW(analyse_capture(c, {}));
}

TEST(ReportModel, FramesLaidOutFromALateStartPastTheInt64RangeAreRefused) {
    // Each time fits, and so does each column's total, but frame 1 laid from its start would end
    // past the int64 range (a signed overflow in writers/frame_spans.cpp).
    Capture c;
    c.source = {"presentmon-1", "late.csv", "game.exe", 1, "0x1"};
    c.start_ends_frame_time = true;
    c.frame_ns = {16'600'000, 2'000'000'000'000'000'000, 16'600'000};
    c.start_ns = {8'000'000'000'000'000'000, 8'000'000'001'000'000'000, 8'000'000'002'000'000'000};
    try {
        analyse_capture(c, {});
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "late.csv");
        EXPECT_NE(std::string(e.what()).find(
                      "capture frame 1 starts at 8000000001 s and lasts 2000000000 s: frames "
                      "laid end to end from their start times pass 292 years there"),
                  std::string::npos)
            << e.what();
    }
    // A frame a thousandth as long fits.
    c.frame_ns[1] = 2'000'000'000'000'000;
    EXPECT_NO_THROW(analyse_capture(c, {}));
}

TEST(ReportModel, LoopConfigurationComesFromTheMetadataOrNotAtAll) {
    const std::map<std::string, std::string> full = {{"policy", "fixed-interp"},
                                                     {"dt_ns", "10000000"},
                                                     {"clamp_ns", "0"},
                                                     {"max_steps", "4"},
                                                     {"timescale", "0.5"}};
    const auto config = loop_config_from_metadata(make_loop_trace(full));
    ASSERT_TRUE(config.has_value());
    EXPECT_EQ(config->policy, Policy::fixed_interp);
    EXPECT_EQ(config->dt_ns, 10 * kMs);
    EXPECT_EQ(config->clamp_ns, 0);
    EXPECT_EQ(config->max_steps, 4);
    EXPECT_DOUBLE_EQ(config->timescale, 0.5);
    // Without the policy or without dt, nothing is invented.
    auto no_policy = full;
    no_policy.erase("policy");
    EXPECT_FALSE(loop_config_from_metadata(make_loop_trace(no_policy)).has_value());
    auto no_dt = full;
    no_dt.erase("dt_ns");
    EXPECT_FALSE(loop_config_from_metadata(make_loop_trace(no_dt)).has_value());
    // A value that does not parse is an input error naming the file and the key.
    for (const auto& [key, value] : std::map<std::string, std::string>{{"policy", "sometimes"},
                                                                       {"dt_ns", "-5"},
                                                                       {"timescale", "fast"},
                                                                       {"max_steps", "2x"}}) {
        auto bad = full;
        bad[key] = value;
        try {
            loop_config_from_metadata(make_loop_trace(bad));
            ADD_FAILURE() << key << ": " << value << " must be refused";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("run.trace"), std::string::npos) << what;
            EXPECT_NE(what.find(key + ": " + value), std::string::npos) << what;
        }
    }
}

TEST(ReportModel, ATraceWithoutPolicyGetsOnlyTheFiguresOfItsRecordedColumns) {
    const Capture c = make_loop_trace({{"clock", "virtual"}});
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_FALSE(r.loop_config.has_value());
    ASSERT_TRUE(r.loop_figures.has_value());
    // The recorded columns give steps, accumulator, alpha and guards.
    EXPECT_DOUBLE_EQ(*figure_value(r, "max_steps_per_frame"), 1.0);
    EXPECT_TRUE(figure_value(r, "alpha_mean").has_value());
    EXPECT_TRUE(figure_value(r, "clamp_lost_ms").has_value());
    // What needs dt or the policy is absent, with the reason.
    for (const char* key : {"slow_motion_factor", "headroom_ms"}) {
        const FigureValue v = figure_value(r, key);
        EXPECT_FALSE(v.has_value()) << key;
        EXPECT_NE(v.reason.find("names no loop configuration"), std::string::npos) << v.reason;
    }
    std::set<std::string> labels;
    for (const SummaryRow& row : summary_rows(r)) {
        if (row.section == "Loop")
            labels.insert(row.label);
    }
    EXPECT_EQ(labels, (std::set<std::string>{"steps per frame", "accumulator", "alpha",
                                             "time lost to guards"}));
    // With the configuration, the policy row and the spiral figures are there.
    const Capture configured = make_loop_trace({{"policy", "fixed"}, {"dt_ns", "10000000"}});
    const CaptureReport rc = analyse_capture(configured, {});
    ASSERT_TRUE(rc.loop_config.has_value());
    labels.clear();
    for (const SummaryRow& row : summary_rows(rc)) {
        if (row.section == "Loop")
            labels.insert(row.label);
    }
    EXPECT_TRUE(labels.contains("policy"));
    EXPECT_TRUE(labels.contains("verdict"));
    EXPECT_TRUE(labels.contains("cause"));
    EXPECT_TRUE(figure_value(rc, "headroom_ms").has_value());
}

TEST(ReportGate, ConditionsParseAndUnknownFiguresListTheValidNames) {
    const GateCondition c = parse_gate_condition("p99_ms>=20.5");
    EXPECT_EQ(c.figure, "p99_ms");
    EXPECT_EQ(c.op, ">=");
    EXPECT_DOUBLE_EQ(c.limit, 20.5);
    EXPECT_EQ(parse_gate_condition(" stutter_time_share < 0.01 ").op, "<");
    try {
        parse_gate_condition("p98_ms>20");
        FAIL() << "an unknown figure must be refused";
    } catch (const UsageError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("unknown figure 'p98_ms'"), std::string::npos);
        EXPECT_NE(what.find("stutter_time_share"), std::string::npos);
    }
    // A key that named two rules is refused with both of its replacements, not guessed.
    try {
        parse_gate_condition("stutter_count>=4");
        FAIL() << "a renamed key must be refused";
    } catch (const UsageError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("was renamed"), std::string::npos) << what;
        EXPECT_NE(what.find("stutter_time_frames"), std::string::npos) << what;
        EXPECT_NE(what.find("stutter_count_frames"), std::string::npos) << what;
    }
    EXPECT_THROW(parse_gate_condition("p99_ms"), UsageError);
    EXPECT_THROW(parse_gate_condition("p99_ms>abc"), UsageError);
    EXPECT_THROW(parse_gate_condition("p99_ms=20"), UsageError);
}

TEST(ReportGate, AFailingConditionNamesTheFigureAndItsValue) {
    std::vector<std::int64_t> frames(99, 10 * kMs);
    frames.push_back(100 * kMs);
    const Capture c = make_capture(frames);
    const CaptureReport r = analyse_capture(c, {});
    // p99 at h = 98.01: 10 + 0.01 x 90 = 10.9 ms.
    const auto failures =
        evaluate_gate({parse_gate_condition("p99_ms>10.8"), parse_gate_condition("p99_ms>11"),
                       parse_gate_condition("hitch_count>=1")},
                      r);
    ASSERT_EQ(failures.size(), 2u);
    EXPECT_EQ(failures[0].condition.figure, "p99_ms");
    EXPECT_NEAR(failures[0].value, 10.9, 1e-9);  // h = 0.99 x 99 is not exact in binary
    EXPECT_EQ(failures[0].message.rfind("p99_ms = 10.9 > 10.8", 0), 0u);
    EXPECT_EQ(failures[1].condition.figure, "hitch_count");
}

TEST(ReportCompare, BlockResamplingIsReproducibleAndKeepsBlocksTogether) {
    std::vector<std::int64_t> frames(100);
    std::iota(frames.begin(), frames.end(), 0);
    std::uint64_t s1 = 42, s2 = 42;
    EXPECT_EQ(block_resample(frames, 10, s1), block_resample(frames, 10, s2));
    EXPECT_EQ(bootstrap_block_frames(10'000), 100u);
    EXPECT_EQ(bootstrap_block_frames(0), 1u);

    // 103 values in blocks of about 10: ten blocks, the first three of 11. Each draw is a whole
    // block but for the end blocks, of which a draw keeps a piece: the first block's last
    // values, the last block's first ones. The joined resample is the pieces in order.
    std::vector<std::int64_t> odd(103);
    std::iota(odd.begin(), odd.end(), 0);
    const BlockTiling tiling(odd.size(), 10);
    ASSERT_EQ(tiling.blocks(), 10u);
    EXPECT_EQ(tiling.length(0), 11u);
    EXPECT_EQ(tiling.length(3), 10u);
    EXPECT_EQ(tiling.start(9), 93u);
    std::vector<int> seen(103, 0);
    std::uint64_t state = 7;
    for (int k = 0; k < 200; ++k) {
        std::uint64_t again = state;
        BlockDraw draw;
        draw_blocks(tiling, state, draw);
        const std::vector<std::int64_t> joined = block_resample(odd, 10, again);
        EXPECT_EQ(again, state) << "block_resample draws as draw_blocks does";
        ASSERT_EQ(joined.size(), draw.values);
        std::size_t at = 0;
        for (std::size_t i = 0; i < draw.order.size(); ++i) {
            const std::uint32_t j = draw.order[i];
            const std::size_t start = piece_start(tiling, draw, i);
            const std::size_t length = piece_length(tiling, draw, i);
            if (j == 0) {
                EXPECT_EQ(start + length, tiling.length(0));  // ends where the block ends
            } else {
                EXPECT_EQ(start, tiling.start(j));
            }
            if (j != 0 && j != 9) {
                EXPECT_EQ(length, tiling.length(j));
            }
            EXPECT_GE(length, 1u);
            for (std::size_t v = 0; v < length; ++v) {
                EXPECT_EQ(joined[at + v], static_cast<std::int64_t>(start + v));
                seen[start + v] = 1;
            }
            at += length;
        }
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 103);
}

// The moving-block bootstrap, whose blocks start anywhere, draws a value i places from an end
// in i + 1 of its b possible blocks; the end pieces give it the same weight.
TEST(ReportCompare, EndValuesAreDrawnWithTheMovingBlockWeight) {
    const BlockTiling tiling(1000, 20);  // 50 blocks of 20
    std::vector<double> drawn(1000, 0);
    std::uint64_t state = 3;
    BlockDraw draw;
    constexpr int kResamples = 4000;
    for (int k = 0; k < kResamples; ++k) {
        draw_blocks(tiling, state, draw);
        for (std::size_t i = 0; i < draw.order.size(); ++i) {
            const std::size_t start = piece_start(tiling, draw, i);
            for (std::size_t v = start; v < start + piece_length(tiling, draw, i); ++v)
                drawn[v] += 1;
        }
    }
    // An inner value: drawn once a resample on average.
    const auto inner = [&](std::size_t v) { return drawn[v] / kResamples; };
    EXPECT_NEAR(inner(500), 1.0, 0.1);
    for (const std::size_t i : {0u, 4u, 9u, 19u}) {
        SCOPED_TRACE(i);
        const double want = static_cast<double>(i + 1) / 20.0;
        EXPECT_NEAR(inner(i), want, 0.1 * want + 0.02);
        EXPECT_NEAR(inner(999 - i), want, 0.1 * want + 0.02);
    }
}

TEST(ReportCompare, ACaptureWithAFrameOfDaysIsComparedTheStraightforwardWay) {
    // One frame of about 11.6 days among 20,000 of 16 ms (a game suspended while it was
    // captured): products of the stutter rule could pass 64 bits, so every resample is analysed
    // as it is (compute_frame_stats) instead of from the series' tables. Preparing those tables
    // read prefix sums the straightforward path never forms, and crashed.
    std::vector<std::int64_t> frames(20'000, 16 * kMs);
    frames[10'000] = 1'000'000'000'000'000;
    const Capture cd = make_capture(frames);
    const Capture cn = make_capture(std::vector<std::int64_t>(20'000, 16 * kMs));
    const CaptureReport rd = analyse_capture(cd, {});
    const CaptureReport rn = analyse_capture(cn, {});
    const Comparison c = compare_captures(rn, rd, 20);
    EXPECT_EQ(c.resamples, 20u);
    EXPECT_FALSE(c.figures.empty());
}

TEST(ReportCompare, ResamplesThatCouldAddUpPastTheInt64RangeAreRefused) {
    // 99 frames of 16 ms and 100 of about 1.6 years: 5·10^18 ns in all, inside the range, so the
    // capture is analysed; but its resamples join 14 blocks of 14 or 15 frames with replacement,
    // and 14 blocks of its dearest would pass the range, which no resample may sum to.
    std::vector<std::int64_t> months(99, 16 * kMs);
    months.insert(months.end(), 100, 50'000'000'000'000'000);
    const Capture cm = make_capture(months);
    const CaptureReport rm = analyse_capture(cm, {});
    const Capture cn = make_capture(std::vector<std::int64_t>(199, 16 * kMs));
    const CaptureReport rn = analyse_capture(cn, {});
    try {
        compare_captures(rn, rm, 20);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "test.csv");
        EXPECT_NE(std::string(e.what()).find("too long to compare: 14 blocks of 14 frames"),
                  std::string::npos)
            << e.what();
    }
    // A tenth of that is compared.
    std::vector<std::int64_t> weeks(99, 16 * kMs);
    weeks.insert(weeks.end(), 100, 5'000'000'000'000'000);
    const Capture cw = make_capture(weeks);
    const CaptureReport rw = analyse_capture(cw, {});
    EXPECT_NO_THROW(compare_captures(rn, rw, 20));
}

TEST(ReportCompare, ARealShiftIsSignificantAndNoiseIsNot) {
    // A: frames alternating 10/12 ms; B: the same pattern 3 ms slower; C: A's frames reordered.
    std::vector<std::int64_t> fa, fb, fc;
    for (int i = 0; i < 400; ++i) {
        const std::int64_t v = (10 + (i * 7 % 5)) * kMs;
        fa.push_back(v);
        fb.push_back(v + 3 * kMs);
    }
    fc.assign(fa.rbegin(), fa.rend());
    const Capture ca = make_capture(fa), cb = make_capture(fb), cc = make_capture(fc);
    const CaptureReport ra = analyse_capture(ca, {});
    const CaptureReport rb = analyse_capture(cb, {});
    const CaptureReport rc = analyse_capture(cc, {});
    const Comparison shifted = compare_captures(ra, rb, 100);
    const Comparison same = compare_captures(ra, rc, 100);
    auto find = [](const Comparison& c, std::string_view name) {
        for (const auto& f : c.figures) {
            if (f.name == name)
                return f;
        }
        ADD_FAILURE() << "no figure " << name;
        return FigureDifference{};
    };
    const FigureDifference mean_shift = find(shifted, "mean_ms");
    EXPECT_NEAR(mean_shift.difference, 3.0, 1e-9);
    EXPECT_TRUE(mean_shift.significant);
    EXPECT_LE(mean_shift.low, 3.0);
    EXPECT_GE(mean_shift.high, 3.0);
    EXPECT_FALSE(find(same, "mean_ms").significant);
    EXPECT_DOUBLE_EQ(find(same, "mean_ms").difference, 0.0);
    // Same seed, same intervals.
    const Comparison again = compare_captures(ra, rb, 100);
    EXPECT_EQ(find(again, "p99_ms").low, find(shifted, "p99_ms").low);
    EXPECT_EQ(find(again, "p99_ms").high, find(shifted, "p99_ms").high);
}

// How far a resample's figure, formed from its blocks, may lie from the joined resample's, as a
// share of it: 0 (to the bit) but for the standard deviation and its ratio to the mean (summed
// from the blocks' own squares) and MangoHud's average (the float32 of the exact sum, where
// MangoHud rounds after every frame).
double resample_tolerance(std::string_view key) {
    if (key == "stdev_ms" || key == "cv")
        return 1e-9;
    if (key == "mangohud_avg_fps")
        return 1e-3;
    return 0;
}

TEST(Comparison, ThreadsChangeNothingAndMatchOneGeneratorStream) {
    // Noisy, autocorrelated frame times so that every resample differs.
    std::vector<std::int64_t> fa, fb;
    std::uint64_t x = 12345;
    for (int i = 0; i < 3000; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const auto noise = static_cast<std::int64_t>((x >> 33) % (4 * kMs));
        fa.push_back(15 * kMs + noise + (i / 300 % 2) * 2 * kMs);
        fb.push_back(16 * kMs + noise / 2 + (i % 500 == 0 ? 80 * kMs : 0));
    }
    const Capture ca = make_capture(fa), cb = make_capture(fb);
    const CaptureReport ra = analyse_capture(ca, {});
    const CaptureReport rb = analyse_capture(cb, {});
    constexpr std::size_t kResamples = 40;
    constexpr std::uint64_t kSeed = 99;
    double last_progress = 0;
    int progress_calls = 0;
    const Comparison one = compare_captures(ra, rb, kResamples, kSeed, {}, 1);
    const Comparison three = compare_captures(
        ra, rb, kResamples, kSeed,
        [&](double done) {
            EXPECT_GE(done, last_progress);
            last_progress = done;
            ++progress_calls;
        },
        3);
    EXPECT_GT(progress_calls, 0);
    EXPECT_DOUBLE_EQ(last_progress, 1.0);

    // The plain sequential bootstrap: one generator stream, A then B for each resample, each
    // resample joined and analysed by compute_frame_stats itself. The comparison forms its
    // resamples' figures without joining them; every frame-time figure's interval must come out
    // the same (resample_tolerance).
    // The frame-time figures (a figure of another per-frame column, as the hitches' time by
    // cause, is resampled from its own column).
    std::vector<const Figure*> figures;
    for (const Figure* f : compared_figures(ra, rb)) {
        if (f->frame_value)
            figures.push_back(f);
    }
    std::uint64_t state = kSeed;
    std::vector<std::vector<double>> diffs(figures.size());
    for (std::size_t k = 0; k < kResamples; ++k) {
        const auto sa = compute_frame_stats(block_resample(fa, one.block_a, state), {});
        const auto sb = compute_frame_stats(block_resample(fb, one.block_b, state), {});
        for (std::size_t f = 0; f < figures.size(); ++f)
            diffs[f].push_back(*figures[f]->frame_value(sb) - *figures[f]->frame_value(sa));
    }
    ASSERT_EQ(one.figures.size(), three.figures.size());
    ASSERT_GE(one.figures.size(), figures.size());
    for (std::size_t f = 0; f < one.figures.size(); ++f) {
        EXPECT_EQ(one.figures[f].low, three.figures[f].low) << one.figures[f].name;
        EXPECT_EQ(one.figures[f].high, three.figures[f].high) << one.figures[f].name;
    }
    for (std::size_t f = 0; f < figures.size(); ++f) {
        const auto same =
            std::find_if(one.figures.begin(), one.figures.end(),
                         [&](const FigureDifference& d) { return d.name == figures[f]->key; });
        ASSERT_NE(same, one.figures.end()) << figures[f]->key;
        const FigureDifference& compared = *same;
        std::sort(diffs[f].begin(), diffs[f].end());
        // 2.5 % and 97.5 % of the way through 40 sorted values.
        const double h_low = 0.025 * (kResamples - 1), h_high = 0.975 * (kResamples - 1);
        const auto at = [&](double h) {
            const auto i = static_cast<std::size_t>(h);
            return diffs[f][i] + (h - static_cast<double>(i)) * (diffs[f][i + 1] - diffs[f][i]);
        };
        const double tolerance = resample_tolerance(figures[f]->key);
        EXPECT_NEAR(compared.low, at(h_low), tolerance * std::abs(at(h_low))) << figures[f]->key;
        EXPECT_NEAR(compared.high, at(h_high), tolerance * std::abs(at(h_high))) << figures[f]->key;
    }
}

// The comparison forms each resample's figures from its blocks without joining them; every
// figure it reads must equal, to the bit, what the straightforward path gives over the joined
// resample, but for those resample_tolerance names. Series of several lengths (blocks shorter and
// longer than the stutter window), with spikes for the stutter and hitch rules, jumps for every
// variation bucket and outliers that CapFrameX's moving average replaces, and several generator
// states and block lengths.
TEST(Comparison, ResampleFiguresFromBlocksEqualTheJoinedResamples) {
    std::uint64_t x = 7;
    const auto next = [&] {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return x >> 33;
    };
    const std::vector<const Figure*> figures = compared_figures();
    int compared = 0;
    for (const std::size_t n : {0u, 1u, 2u, 5u, 37u, 300u, 2000u, 9000u}) {
        std::vector<std::int64_t> frames;
        for (std::size_t i = 0; i < n; ++i) {
            std::int64_t ft = 8 * kMs + static_cast<std::int64_t>(next() % (6 * kMs));
            if (next() % 23 == 0)
                ft += static_cast<std::int64_t>(next() % (90 * kMs));  // stutter, hitches
            if (next() % 97 == 0)
                ft *= 4;  // over 3 × its predecessor: the moving average keeps the predecessor
            if (next() % 41 == 0)
                ft = static_cast<std::int64_t>(next() % kMs) + 1;  // a very short frame
            frames.push_back(ft);
        }
        const std::size_t default_block = bootstrap_block_frames(n);
        for (const std::size_t block : {default_block, std::size_t{1}, std::size_t{3}, n}) {
            for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{42}, kBootstrapSeed}) {
                std::uint64_t state = seed;
                const std::uint64_t start = state;
                const FrameStats joined =
                    compute_frame_stats(block_resample(frames, block, state), {}, false);
                const FrameStats blocks = resampled_frame_stats(frames, block, start);
                for (const Figure* f : figures) {
                    if (!f->frame_value)
                        continue;  // another column's figure
                    const double want = *f->frame_value(joined), got = *f->frame_value(blocks);
                    const double tolerance = resample_tolerance(f->key);
                    if (tolerance == 0) {
                        // Bitwise: the printed intervals must not move in the last digit either.
                        EXPECT_EQ(std::bit_cast<std::uint64_t>(want),
                                  std::bit_cast<std::uint64_t>(got))
                            << f->key << " n=" << n << " block=" << block << " seed=" << seed
                            << ": " << want << " vs " << got;
                    } else {
                        EXPECT_NEAR(want, got, tolerance * std::abs(want))
                            << f->key << " n=" << n << " block=" << block << " seed=" << seed;
                    }
                    ++compared;
                }
                EXPECT_EQ(joined.frame_time.frames, blocks.frame_time.frames);
                EXPECT_EQ(joined.frame_time.total_ns, blocks.frame_time.total_ns);
                EXPECT_EQ(joined.stutter.window, blocks.stutter.window);
                EXPECT_EQ(joined.stutter.above_mean, blocks.stutter.above_mean);
                EXPECT_EQ(joined.stutter.frames.size(), blocks.stutter.frames.size());
                EXPECT_EQ(joined.hitches.hitches.size(), blocks.hitches.hitches.size());
                EXPECT_EQ(joined.variation.counts, blocks.variation.counts);
                EXPECT_EQ(joined.variation.total, blocks.variation.total);
            }
        }
    }
    EXPECT_GT(compared, 1000);
}

}  // namespace
}  // namespace loopscope
