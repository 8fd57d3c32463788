// The frame-pacing statistics on small hand-made series whose figures are worked out by hand.
#include "core/frame_stats.hpp"
#include "core/capture.hpp"
#include "core/units.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace loopscope {
namespace {

std::int64_t ms(double v) {
    return std::llround(v * 1e6);
}
constexpr std::int64_t us(std::int64_t v) {
    return v * 1'000;
}

std::vector<std::int64_t> ms_list(std::initializer_list<double> values) {
    std::vector<std::int64_t> out;
    for (double v : values)
        out.push_back(ms(v));
    return out;
}

TEST(FrameStats, ProductsAreComparedExactlyPastTheInt64Range) {
    EXPECT_EQ(compare_products(6, 7, 21, 2), 0);
    EXPECT_EQ(compare_products(6, 7, 41, 1), 1);
    const std::uint64_t big = std::uint64_t{1} << 62;
    EXPECT_EQ(compare_products(big, 8, big, 7), 1);  // 2^65 against 7·2^62
    EXPECT_EQ(compare_products(big, 4, big * 2, 2), 0);
    EXPECT_EQ(compare_products(UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX - 1), 1);
    EXPECT_EQ(compare_products(0xffffffffu, 0x100000001u, UINT64_MAX, 1), 0);
}

// round_to_int64 rounds half away from zero, as C's llround is specified to, over the range the
// readers accept (|x| < 2^63): ties, the largest double below a half, whole values past 2^52,
// and a sweep of ms-scaled cells, against a reference built on floor. (MinGW-w64's llround is
// not that rounding: it gives 1 for the largest double below 0.5, so a platform's llround is
// compared only where it is known to be exact.)
std::int64_t half_away_from_zero(double x) {
    const double below = std::floor(x);
    // Exact for x >= 0 and x <= -1 (x and its floor within a factor of two, or x below 1 and
    // its floor 0): the sweep below stays there; the edges between -1 and 0 are spelled out.
    const double fraction = x - below;
    const bool up = x >= 0 ? fraction >= 0.5 : fraction > 0.5;
    return static_cast<std::int64_t>(below) + (up ? 1 : 0);
}

TEST(Units, RoundToInt64RoundsHalfAwayFromZero) {
    EXPECT_EQ(round_to_int64(0.0), 0);
    EXPECT_EQ(round_to_int64(-0.0), 0);
    EXPECT_EQ(round_to_int64(0.5), 1);
    EXPECT_EQ(round_to_int64(-0.5), -1);
    EXPECT_EQ(round_to_int64(1.5), 2);
    EXPECT_EQ(round_to_int64(2.5), 3);
    EXPECT_EQ(round_to_int64(-2.5), -3);
    EXPECT_EQ(round_to_int64(0.49999999999999994), 0);
    EXPECT_EQ(round_to_int64(-0.49999999999999994), 0);
    EXPECT_EQ(round_to_int64(4503599627370495.5), 4503599627370496);
    EXPECT_EQ(round_to_int64(9007199254740993.0), 9007199254740992);  // the double nearest
    EXPECT_EQ(round_to_int64(8.99e18), 8'990'000'000'000'000'000);
    EXPECT_EQ(round_to_int64(-8.99e18), -8'990'000'000'000'000'000);
    // The largest double below kInt64RangeNs (2^63 - 1024).
    EXPECT_EQ(round_to_int64(std::nextafter(kInt64RangeNs, 0.0)), 9'223'372'036'854'774'784);
    EXPECT_EQ(round_to_int64(-std::nextafter(kInt64RangeNs, 0.0)), -9'223'372'036'854'774'784);
    EXPECT_EQ(round_to_int64(1e6 * 16.6173), 16'617'300);
    std::uint64_t bits = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 200'000; ++i) {
        bits = bits * 6364136223846793005ull + 1442695040888963407ull;
        const double ms = static_cast<double>(bits >> 20) / 1e6;  // up to about 17.6 s, 6 decimals
        const double ns = ms * 1e6;
        ASSERT_EQ(round_to_int64(ns), half_away_from_zero(ns)) << ns;
        ASSERT_EQ(round_to_int64(-ns), half_away_from_zero(-ns)) << -ns;
#if defined(__GLIBC__)
        ASSERT_EQ(round_to_int64(ns), std::llround(ns)) << ns;
#endif
    }
}

// A frame of about 31 years among 60 Hz frames: the stutter rules and the refresh grid compare
// its products exactly (2·n·ft, ft·R) instead of wrapping.
TEST(FrameStats, AFrameOfYearsIsOneStutterAndOffTheGrid) {
    std::vector<std::int64_t> frames(100, 16'666'667);
    frames[50] = 1'000'000'000'008'333'333;  // half a 60 Hz period past a whole second
    const CapFrameXStutter s = capframex_stutter(frames);
    EXPECT_EQ(s.above_mean, 1u);
    ASSERT_EQ(s.frames.size(), 1u);
    EXPECT_EQ(s.frames[0], 50u);
    EXPECT_NEAR(on_grid_share(frames, 60), 99.0 / 100.0, 1e-12);
    EXPECT_EQ(unreal_hitches(frames, {}).hitches.size(), 1u);
}

// Frames of about a century (found by fuzz_report): the frame-generation rule compares them
// without products and sums a cycle's frames saturated, never wrapped.
TEST(FrameStats, FramesOfCenturiesInFrameGenerationCyclesDoNotWrap) {
    const std::vector<std::int64_t> one = {16'666'667, 5'000'000'000'000'000'000, 16'666'667};
    EXPECT_EQ(generation_evidence("f", one, 2).cycles, 0u);
    std::vector<std::int64_t> frames;
    for (int i = 0; i < 60; ++i)
        frames.push_back(i % 3 == 1 ? 4'000'000'000'000'000'000 : 3'000'000'000'000'000'000);
    // Decisive, so that the estimate (the saturated sums) is made.
    const std::vector<GenerationColumn> columns = {{"f", frames, true, true}};
    const GenerationDetection g = detect_frame_generation(columns, frames, 0);
    ASSERT_TRUE(g.detected);
    EXPECT_EQ(g.period, 3);
    ASSERT_FALSE(g.application_intervals_ns.empty());
    for (const std::int64_t v : g.application_intervals_ns)
        EXPECT_EQ(v, std::numeric_limits<std::int64_t>::max());
}

TEST(FrameStats, PercentilesInterpolateLinearlyAtPTimesNMinusOne) {
    const std::vector<std::int64_t> sorted = ms_list({10, 20, 30, 40, 50});
    EXPECT_DOUBLE_EQ(percentile_sorted(sorted, 0.0), 10e6);
    EXPECT_DOUBLE_EQ(percentile_sorted(sorted, 0.5), 30e6);     // h = 2
    EXPECT_DOUBLE_EQ(percentile_sorted(sorted, 0.9), 46e6);     // h = 3.6
    EXPECT_DOUBLE_EQ(percentile_sorted(sorted, 0.99), 49.6e6);  // h = 3.96
    EXPECT_DOUBLE_EQ(percentile_sorted(sorted, 1.0), 50e6);
    EXPECT_DOUBLE_EQ(percentile_sorted(std::vector<std::int64_t>{7}, 0.99), 7.0);
    EXPECT_DOUBLE_EQ(percentile_sorted(std::vector<std::int64_t>{}, 0.5), 0.0);
}

TEST(FrameStats, SummaryOfFiveFramesMatchesHandComputation) {
    // Unsorted on purpose: the summary sorts a copy.
    const auto frames = ms_list({30, 10, 50, 20, 40});
    const FrameTimeSummary s = summarize_frame_times(frames);
    EXPECT_EQ(s.frames, 5u);
    EXPECT_EQ(s.total_ns, ms(150));
    EXPECT_DOUBLE_EQ(s.min_ms, 10);
    EXPECT_DOUBLE_EQ(s.max_ms, 50);
    EXPECT_DOUBLE_EQ(s.mean_ms, 30);
    EXPECT_DOUBLE_EQ(s.stdev_ms, std::sqrt(250.0));  // (400+100+0+100+400) / (5-1)
    EXPECT_DOUBLE_EQ(s.cv, std::sqrt(250.0) / 30.0);
    EXPECT_DOUBLE_EQ(s.p50_ms, 30);
    EXPECT_DOUBLE_EQ(s.p90_ms, 46);
    EXPECT_DOUBLE_EQ(s.p95_ms, 48);
    EXPECT_DOUBLE_EQ(s.p99_ms, 49.6);
    EXPECT_DOUBLE_EQ(s.p999_ms, 49.96);
    // h = (5 + 1/3)·0.99 + 1/3 = 5.61 >= N, so the 0.99 quantile is the maximum.
    EXPECT_DOUBLE_EQ(s.mean_at_or_above_q99_ms, 50);
    EXPECT_DOUBLE_EQ(s.integral_1_ms, 50);  // the longest frame alone is over 1 % of 150 ms

    const FpsFigures f = fps_figures(s);
    EXPECT_DOUBLE_EQ(f.average, 5.0 / 0.150);
    EXPECT_DOUBLE_EQ(f.p1_low, 1000.0 / 49.6);
    EXPECT_DOUBLE_EQ(f.p01_low, 1000.0 / 49.96);
    EXPECT_DOUBLE_EQ(f.low1_average, 20.0);
    EXPECT_DOUBLE_EQ(f.low01_average, 20.0);
    EXPECT_DOUBLE_EQ(f.low1_integral, 20.0);
    EXPECT_DOUBLE_EQ(f.low01_integral, 20.0);
}

TEST(FrameStats, QuantileR8IsMathNetsMethodNotPresentMons) {
    std::vector<std::int64_t> v;
    for (std::int64_t i = 1; i <= 100; ++i)
        v.push_back(i);
    // h = (100 + 1/3)·0.99 + 1/3 = 99.663: between the 99th and 100th value (1-based).
    EXPECT_NEAR(quantile_r8_sorted(v, 0.99), 99.0 + ((100.0 + 1.0 / 3.0) * 0.99 + 1.0 / 3.0 - 99.0),
                1e-9);
    EXPECT_NEAR(percentile_sorted(v, 0.99), 99.01, 1e-9);  // PresentMon: h = 0.99·99
    EXPECT_DOUBLE_EQ(quantile_r8_sorted(v, 0.5), 50.5);
    EXPECT_DOUBLE_EQ(quantile_r8_sorted(v, 0.001), 1.0);  // h < 1: the minimum
    EXPECT_DOUBLE_EQ(quantile_r8_sorted(v, 1.0), 100.0);
}

TEST(FrameStats, IntegralLowIsTheFrameWhereTheLongestFramesReachTheShare) {
    // 989 frames of 1 ms, one of 3 ms, two of 4 ms: 1000 ms. Longest first: 4, 8, 11 ms >= 10
    // ms (1 %) at the 3 ms frame; 4 ms >= 1 ms (0.1 %) at once.
    std::vector<std::int64_t> frames(989, ms(1));
    frames.push_back(ms(4));
    frames.push_back(ms(3));
    frames.push_back(ms(4));
    const FpsFigures f = fps_figures(summarize_frame_times(frames));
    EXPECT_NEAR(f.low1_integral, 1000.0 / 3.0, 1e-9);
    EXPECT_DOUBLE_EQ(f.low01_integral, 250.0);
    EXPECT_DOUBLE_EQ(f.p1_low, 1000.0 / 1.0);  // the percentile meaning: p99 is 1 ms here
}

TEST(FrameStats, LowAverageTakesEveryFrameAtOrAboveThePercentile) {
    // 100 frames: 98 of 10 ms, two of 40 ms. p99: h = 98.01 between 40 and 40 -> 40 ms, so the
    // low average is over both 40 ms frames.
    std::vector<std::int64_t> frames(98, ms(10));
    frames.push_back(ms(40));
    frames.push_back(ms(40));
    const FrameTimeSummary s = summarize_frame_times(frames);
    EXPECT_DOUBLE_EQ(s.p99_ms, 40);
    EXPECT_DOUBLE_EQ(s.mean_at_or_above_q99_ms, 40);
    // p90 at h = 89.1 lies among the 10 ms frames.
    EXPECT_DOUBLE_EQ(s.p90_ms, 10);
    const auto f = fps_figures(s);
    EXPECT_DOUBLE_EQ(f.average, 100.0 / 1.060);
    EXPECT_DOUBLE_EQ(f.low1_average, 25.0);
}

TEST(FrameStats, EmptyAndSingleFrameSeriesGiveZerosNotNaN) {
    const FrameTimeSummary empty = summarize_frame_times({});
    EXPECT_EQ(empty.frames, 0u);
    EXPECT_EQ(fps_figures(empty).average, 0.0);
    const auto one = std::vector<std::int64_t>{ms(20)};
    const FrameTimeSummary s = summarize_frame_times(one);
    EXPECT_DOUBLE_EQ(s.stdev_ms, 0.0);
    EXPECT_DOUBLE_EQ(s.p99_ms, 20.0);
    EXPECT_TRUE(capframex_stutter(one).frames.empty());
    EXPECT_TRUE(unreal_hitches(one, {}).hitches.empty());
    EXPECT_EQ(variation_buckets(one).total, 0u);
}

TEST(FrameStats, CapFrameXWindowIsTenTimesRootOfMeanRounded) {
    EXPECT_EQ(capframex_window(16.0), 40u);
    EXPECT_EQ(capframex_window(1.0), 10u);
    EXPECT_EQ(capframex_window(11.5), 34u);  // 33.91
    EXPECT_EQ(capframex_window(0.0), 1u);
    // Convert.ToInt32 rounds half to even: 10·√1.5625 = 12.5 -> 12, 10·√0.5625 = 7.5 -> 8.
    EXPECT_EQ(capframex_window(1.5625), 12u);
    EXPECT_EQ(capframex_window(0.5625), 8u);
}

TEST(FrameStats, CapFrameXStutterFlagsFramesOverTwoAndAHalfTimesTheMovingAverage) {
    // Ten 10 ms frames, a 40 ms frame (over 3 x 10 ms, so it enters its own average as 10 ms:
    // 40 > 2.5 x 10), a 10 ms frame, a 25 ms frame (average with it 145/13 ms: 25 is not over
    // 27.9 ms).
    const auto frames = ms_list({10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 40, 10, 25});
    const CapFrameXStutter r = capframex_stutter(frames);
    EXPECT_EQ(r.window, capframex_window(175.0 / 13.0));
    ASSERT_EQ(r.frames.size(), 1u);
    EXPECT_EQ(r.frames[0], 10u);
    EXPECT_EQ(r.stutter_ns, ms(40));
    EXPECT_DOUBLE_EQ(r.time_share, 40.0 / 175.0);
    // Count share: frames over 2.5 x the mean (33.65 ms): the 40 ms frame.
    EXPECT_EQ(r.above_mean, 1u);
    EXPECT_DOUBLE_EQ(r.count_share, 1.0 / 13.0);
}

TEST(FrameStats, CapFrameXAverageIncludesTheFrameItself) {
    // 10,10,10,10,10,100,30: the 100 ms frame counts as 10 ms in the average (over 3 x its
    // predecessor) and stutters; the 30 ms frame's window holds itself: 90/7 = 12.9 ms, and
    // 30 ms is not over 32.1 ms. (With the five 10 ms and the substituted 100 ms alone, it
    // would be.)
    const auto frames = ms_list({10, 10, 10, 10, 10, 100, 30});
    const CapFrameXStutter r = capframex_stutter(frames);
    ASSERT_EQ(r.frames.size(), 1u);
    EXPECT_EQ(r.frames[0], 5u);
    EXPECT_DOUBLE_EQ(r.time_share, 100.0 / 180.0);
}

TEST(FrameStats, CapFrameXSpikeSubstitutionKeepsTheNextSpikeVisible) {
    // 10 x5, 100, 40: the 100 ms frame enters the average as 10 ms, so the 40 ms frame's
    // average is 100/7 = 14.3 ms and 40 ms stutters (with 100 ms in the average it would not).
    const auto frames = ms_list({10, 10, 10, 10, 10, 100, 40});
    const CapFrameXStutter r = capframex_stutter(frames);
    ASSERT_EQ(r.frames.size(), 2u);
    EXPECT_EQ(r.frames[0], 5u);
    EXPECT_EQ(r.frames[1], 6u);
    EXPECT_DOUBLE_EQ(r.time_share, 140.0 / 190.0);
}

TEST(FrameStats, CapFrameXAlternatingCadenceIsAllStutterTimeButNoStutterCount) {
    // 1 ms and 15 ms alternating: each 15 ms frame is over 3 x the 1 ms before it, so the
    // moving average sees 1 ms throughout and every 15 ms frame is over 2.5 x it: CapFrameX's
    // time share is 15/16. No frame is over 2.5 x the 8 ms mean: the count share is 0.
    std::vector<std::int64_t> frames;
    for (int i = 0; i < 200; ++i) {
        frames.push_back(ms(1));
        frames.push_back(ms(15));
    }
    const CapFrameXStutter r = capframex_stutter(frames);
    EXPECT_EQ(r.window, 28u);  // 10·√8 = 28.3
    EXPECT_EQ(r.frames.size(), 200u);
    EXPECT_DOUBLE_EQ(r.time_share, 15.0 / 16.0);
    EXPECT_EQ(r.above_mean, 0u);
    EXPECT_EQ(r.count_share, 0.0);
}

TEST(FrameStats, CapFrameXAverageSlidesOverTheWindowOnly) {
    // Mean 356.25 us -> window round(10·√0.35625) = round(5.97) = 6. The last frame (700 us,
    // over 3 x 200 us, so it counts as 200 us) is over 2.5 x the six-sample average of 200 us,
    // though not over 2.5 x the average of all 16 (325 us).
    std::vector<std::int64_t> frames(5, us(600));
    frames.insert(frames.end(), 10, us(200));
    frames.push_back(us(700));
    const CapFrameXStutter r = capframex_stutter(frames);
    EXPECT_EQ(r.window, 6u);
    ASSERT_EQ(r.frames.size(), 1u);
    EXPECT_EQ(r.frames[0], 15u);
    EXPECT_DOUBLE_EQ(r.time_share, 700.0 / 5700.0);
}

TEST(FrameStats, UnrealHitchesNeedSixtyMsAndOneAndAHalfTimesThePreviousFrame) {
    const auto frames = ms_list({16, 16, 70, 16, 100, 150, 61, 16, 60});
    const UnrealHitches r = unreal_hitches(frames, {});
    ASSERT_EQ(r.hitches.size(), 3u);
    EXPECT_EQ(r.hitches[0].index, 2u);
    EXPECT_EQ(r.hitches[0].start_ns, ms(32));
    EXPECT_EQ(r.hitches[0].frame_ns, ms(70));
    EXPECT_EQ(r.hitches[0].previous_ns, ms(16));
    EXPECT_EQ(r.hitches[0].next_ns, ms(16));
    EXPECT_EQ(r.hitches[1].index, 4u);
    EXPECT_EQ(r.hitches[2].index, 5u);  // 150 = 1.5 x 100 exactly counts
    // 61 ms after 150 ms is not 1.5 x; 60 ms after 16 ms is not over 60 ms.
    EXPECT_DOUBLE_EQ(r.per_minute, 3.0 / (0.505 / 60.0));
}

TEST(FrameStats, UnrealHitchesUseTheCapturesStartTimesWhenGiven) {
    const auto frames = ms_list({10, 100});
    const std::vector<std::int64_t> starts = {ms(1000), ms(1010)};
    const UnrealHitches r = unreal_hitches(frames, starts);
    ASSERT_EQ(r.hitches.size(), 1u);
    EXPECT_EQ(r.hitches[0].start_ns, ms(1010));
    EXPECT_EQ(r.hitches[0].next_ns, -1);
}

TEST(FrameStats, VariationBucketsCountAbsoluteFrameToFrameChanges) {
    // Differences 1, 3, 6, 10, 12, 0, 2 ms.
    const auto frames = ms_list({10, 11, 14, 20, 30, 42, 42, 40});
    const VariationBuckets b = variation_buckets(frames);
    EXPECT_EQ(b.total, 7u);
    EXPECT_EQ(b.counts[0], 2u);  // 1, 0
    EXPECT_EQ(b.counts[1], 2u);  // 3, 2 (a 2 ms change is not < 2 ms)
    EXPECT_EQ(b.counts[2], 1u);  // 6
    EXPECT_EQ(b.counts[3], 1u);  // 10
    EXPECT_EQ(b.counts[4], 1u);  // 12
    EXPECT_DOUBLE_EQ(b.share(0), 2.0 / 7.0);
}

TEST(FrameStats, RefreshRateIsTheCoarsestGridTheFramesSitOn) {
    // 60 Hz vsync with some doubled frames: every 120 / 240 Hz grid point also fits, but 60 Hz
    // explains the frames with the least help from chance.
    std::vector<std::int64_t> vsync60;
    for (int i = 0; i < 90; ++i)
        vsync60.push_back(i % 9 == 0 ? 33'333'333 : 16'666'667);
    const RefreshGuess g = detect_refresh_rate(vsync60);
    EXPECT_EQ(g.rate_hz, 60);
    EXPECT_DOUBLE_EQ(g.on_grid_share, 1.0);
    EXPECT_DOUBLE_EQ(on_grid_share(vsync60, 144), 0.0);

    std::vector<std::int64_t> vsync144(50, 6'944'444);
    vsync144[7] = 6'944'444 + 600'000;  // off the grid by more than 0.5 ms
    const RefreshGuess h = detect_refresh_rate(vsync144);
    EXPECT_EQ(h.rate_hz, 144);
    EXPECT_DOUBLE_EQ(h.on_grid_share, 49.0 / 50.0);
}

// The window-by-window count of sorted values equals the value-by-value rule (on_grid_share) on
// values at every window's edges (one ns inside and outside, for every candidate and k up to
// 40), at random in a few seconds, near the int64 limit, and on negative values.
TEST(FrameStats, OnGridCountBySortedWindowsIsTheRuleFrameByFrame) {
    std::vector<std::int64_t> values = {0,
                                        1,
                                        -5,
                                        -1'000'000'000,
                                        INT64_MAX,
                                        INT64_MAX - 7,
                                        10'000'000'000'000'000,
                                        10'000'000'000'000'001,
                                        9'999'999'999'999'999};
    for (const int rate : kRefreshCandidatesHz) {
        for (std::int64_t k = 1; k <= 40; ++k) {
            const std::int64_t at = k * kNsPerS;  // in ns·Hz: ft·R near k·1e9
            const std::int64_t reach = kRefreshToleranceNs * rate;
            for (const std::int64_t edge : {at - reach, at + reach, at}) {
                const std::int64_t ft = edge / rate;
                for (std::int64_t d = -2; d <= 2; ++d)
                    values.push_back(ft + d);
            }
        }
    }
    std::uint64_t x = 88172645463325252ull;  // xorshift: the same values every run
    const auto next = [&] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    for (int i = 0; i < 20'000; ++i)
        values.push_back(static_cast<std::int64_t>(next() % 3'000'000'000ull));
    for (int i = 0; i < 200; ++i)
        values.push_back(static_cast<std::int64_t>(next() >> 1));  // up to the int64 limit
    std::sort(values.begin(), values.end());
    for (const int rate : kRefreshCandidatesHz) {
        const double share = on_grid_share(values, rate);
        const auto expected =
            static_cast<std::size_t>(std::llround(share * static_cast<double>(values.size())));
        EXPECT_EQ(on_grid_count_sorted(values, rate), expected) << rate << " Hz";
        EXPECT_GT(expected, 0u) << rate << " Hz";
    }
    // Part of a sorted array, as the analysis passes it.
    const std::span<const std::int64_t> part(values.data() + 100, 5000);
    EXPECT_DOUBLE_EQ(
        static_cast<double>(on_grid_count_sorted(part, 144)) / static_cast<double>(part.size()),
        on_grid_share(part, 144));
}

// The lowest rate whose grid explains all but 5 % of the intervals, exceptions included: a
// 30 FPS game on a 120 Hz display with a few 8.3 and 16.7 ms intervals is 120 Hz; without the
// exceptions its 33.3 ms intervals sit on the 60 Hz grid first, and on the 90 Hz grid too,
// which is said (120, 240 and 360 Hz are multiples of 60 Hz and not listed).
TEST(FrameStats, RefreshRateIsTheLowestGridExplainingTheExceptionsToo) {
    std::vector<std::int64_t> thirty(100, 33'333'333);
    thirty[10] = 8'333'333;
    thirty[20] = 16'666'667;
    thirty[30] = 25'000'000;
    const RefreshGuess g = detect_refresh_rate(thirty);
    EXPECT_EQ(g.state, RefreshGuess::State::fixed);
    EXPECT_EQ(g.rate_hz, 120);
    EXPECT_DOUBLE_EQ(g.on_grid_share, 1.0);
    const RefreshGuess plain = detect_refresh_rate(std::vector<std::int64_t>(100, 33'333'333));
    EXPECT_EQ(plain.rate_hz, 60);
    EXPECT_EQ(plain.also_fits_hz, std::vector<int>({90}));
    // More than 5 % off every grid: no fixed rate.
    std::vector<std::int64_t> off(thirty);
    for (int i = 0; i < 6; ++i)
        off[40 + i] = 30'000'000;
    const RefreshGuess o = detect_refresh_rate(off);
    EXPECT_EQ(o.state, RefreshGuess::State::unknown);
    EXPECT_EQ(o.rate_hz, 0);
    EXPECT_EQ(o.absent, RefreshGuess::Absent::off_grid);
}

// Display changes that follow their presents (within 1 ms) on frames sent straight to the
// display have no cadence of their own, whatever grid they seem to sit on; composed frames do.
TEST(FrameStats, RefreshStateFollowsPresentsOnDirectFlipsAndTearing) {
    const std::vector<std::int64_t> frames(100, 33'333'333);
    const std::vector<std::int64_t> display(100, 33'400'000);
    const RefreshGuess grid = detect_refresh_rate(display);
    ASSERT_EQ(grid.state, RefreshGuess::State::fixed);
    const std::vector<std::uint8_t> direct(100, kPresentModeDirect),
        composed(100, kPresentModeComposed), no_vblank(100, 0), vblank(100, 1), torn(100, 1);
    const RefreshGuess d = classify_refresh(grid, display, frames, direct, no_vblank, {});
    EXPECT_EQ(d.state, RefreshGuess::State::follows_presents);
    EXPECT_EQ(d.rate_hz, 0);
    EXPECT_DOUBLE_EQ(d.follows_share, 1.0);
    EXPECT_DOUBLE_EQ(d.direct_share, 1.0);
    // Waiting for a vertical blank on a direct flip keeps the grid; so does composition.
    EXPECT_EQ(classify_refresh(grid, display, frames, direct, vblank, {}).state,
              RefreshGuess::State::fixed);
    EXPECT_EQ(classify_refresh(grid, display, frames, composed, no_vblank, {}).state,
              RefreshGuess::State::fixed);
    // Tearing on most frames: follows, whatever the rest says.
    const RefreshGuess t = classify_refresh(grid, display, frames, composed, vblank, torn);
    EXPECT_EQ(t.state, RefreshGuess::State::follows_presents);
    EXPECT_EQ(t.absent, RefreshGuess::Absent::tearing);
    // Off every grid and following the presents, without a present mode: follows; composed
    // frames off the grid are unknown instead.
    std::vector<std::int64_t> vrr, vrr_display;
    for (int i = 0; i < 100; ++i) {
        vrr.push_back(20'000'000 + i * 97'000);
        vrr_display.push_back(20'000'000 + i * 97'000 + 300'000);
    }
    const RefreshGuess vgrid = detect_refresh_rate(vrr_display);
    ASSERT_NE(vgrid.state, RefreshGuess::State::fixed);
    EXPECT_EQ(classify_refresh(vgrid, vrr_display, vrr, {}, {}, {}).state,
              RefreshGuess::State::follows_presents);
    EXPECT_EQ(classify_refresh(vgrid, vrr_display, vrr, composed, vblank, {}).state,
              RefreshGuess::State::unknown);
    // Without a display column nothing follows: a grid or unknown.
    EXPECT_EQ(classify_refresh(vgrid, {}, {}, {}, {}, {}).state, RefreshGuess::State::unknown);
}

TEST(FrameStats, RefreshRateIsNoneWhenFramesAreSpreadEvenly) {
    std::vector<std::int64_t> spread;
    for (int i = 0; i < 200; ++i)
        spread.push_back(ms(5.0) + i * 137'000);  // 5 .. 32.3 ms
    EXPECT_EQ(detect_refresh_rate(spread).rate_hz, 0);
}

TEST(FrameStats, DisplayFiguresCountDroppedFramesAndSkipThemInTheDisplayTimes) {
    const auto display = std::vector<std::int64_t>{ms(16), -1, ms(33), ms(16)};
    const auto dropped = std::vector<std::uint8_t>{0, 1, 0, 0};
    const auto error = std::vector<std::int64_t>{ms(-2), ms(1), 0, ms(1)};
    const DisplayFigures d = display_figures(display, dropped, error);
    EXPECT_TRUE(d.available);
    EXPECT_EQ(d.displayed, 3u);
    EXPECT_EQ(d.dropped, 1u);
    EXPECT_DOUBLE_EQ(d.dropped_share, 0.25);
    EXPECT_DOUBLE_EQ(d.between_display_changes.mean_ms, 65.0 / 3.0);
    EXPECT_TRUE(d.has_animation_error);
    EXPECT_DOUBLE_EQ(d.animation_error_mean_abs_ms, 1.0);
    EXPECT_DOUBLE_EQ(d.animation_error_max_abs_ms, 2.0);
    EXPECT_FALSE(display_figures({}, {}, {}).available);
    // NA cells (known = 0) are left out: only -2 and 1 ms remain.
    const auto known = std::vector<std::uint8_t>{1, 0, 0, 1};
    const DisplayFigures k = display_figures(display, dropped, error, known);
    EXPECT_DOUBLE_EQ(k.animation_error_mean_abs_ms, 1.5);
}

TEST(FrameStats, ApplicationAndGeneratedFramesAreMeasuredOnTheirOwnCadence) {
    // Alternating 8 ms application / generated frames: each class runs every 16 ms.
    const auto frames = ms_list({8, 8, 8, 8, 8, 8});
    const auto generated = std::vector<std::uint8_t>{0, 1, 0, 1, 0, 1};
    const CadenceFigures app = cadence_figures(frames, generated, false);
    EXPECT_EQ(app.frames, 3u);
    EXPECT_DOUBLE_EQ(app.average_fps, 3.0 / 0.048);
    EXPECT_EQ(app.interval.frames, 2u);
    EXPECT_DOUBLE_EQ(app.interval.mean_ms, 16.0);
    const CadenceFigures gen = cadence_figures(frames, generated, true);
    EXPECT_EQ(gen.frames, 3u);
    EXPECT_DOUBLE_EQ(gen.interval.max_ms, 16.0);
    EXPECT_EQ(cadence_figures(frames, {}, true).frames, 0u);
}

}  // namespace
}  // namespace loopscope
