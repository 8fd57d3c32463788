// Statistics of the timer probes on synthetic samples: exact percentiles, histogram buckets and
// edges, and the terminal sparkline.
#include <gtest/gtest.h>

#include <stdexcept>

#include "probes/timer_stats.hpp"

namespace loopscope {
namespace {

TEST(TimerStats, SummaryOfFiveSamplesInterpolatesPercentiles) {
    const SampleSummary s = summarize({5, 1, 3, 2, 4});
    EXPECT_EQ(s.count, 5);
    EXPECT_EQ(s.min_ns, 1);
    EXPECT_EQ(s.p50_ns, 3);
    EXPECT_EQ(s.p99_ns, 5);  // h = 0.99 * 4 = 3.96: 4 + 0.96 * (5 - 4) = 4.96, rounded
    EXPECT_EQ(s.max_ns, 5);
    EXPECT_DOUBLE_EQ(s.mean_ns, 3.0);
}

TEST(TimerStats, QuantileInterpolatesBetweenNeighbours) {
    const std::vector<std::int64_t> two{0, 100};
    EXPECT_EQ(quantile_sorted_ns(two, 0.0), 0);
    EXPECT_EQ(quantile_sorted_ns(two, 0.5), 50);
    EXPECT_EQ(quantile_sorted_ns(two, 0.99), 99);
    EXPECT_EQ(quantile_sorted_ns(two, 1.0), 100);
    EXPECT_EQ(quantile_sorted_ns({}, 0.5), 0);
}

TEST(TimerStats, QuantileKeepsNanosecondsOfLargeValues) {
    // 1e18 + 0.5 ns does not exist as a double; interpolating on the difference keeps it exact.
    const std::int64_t big = 1'000'000'000'000'000'000;
    EXPECT_EQ(quantile_sorted_ns({big, big + 2}, 0.5), big + 1);
}

TEST(TimerStats, EmptySampleSummarisesToZeros) {
    const SampleSummary s = summarize({});
    EXPECT_EQ(s.count, 0);
    EXPECT_EQ(s.min_ns, 0);
    EXPECT_EQ(s.max_ns, 0);
    EXPECT_EQ(s.mean_ns, 0.0);
}

TEST(TimerStats, NegativeSamplesKeepTheirSign) {
    const SampleSummary s = summarize({-300, -100, 200});
    EXPECT_EQ(s.min_ns, -300);
    EXPECT_EQ(s.p50_ns, -100);
    EXPECT_EQ(s.max_ns, 200);
}

TEST(TimerStats, HistogramPutsSamplesInHalfOpenBucketsWithUnderAndOverflow) {
    const Histogram h = make_histogram({-5, 0, 9, 10, 25, 20}, {0, 10, 20});
    EXPECT_EQ(h.counts, (std::vector<std::int64_t>{1, 2, 1, 2}));
    EXPECT_EQ(h.underflows(), 1);
    EXPECT_EQ(h.overflows(), 2);
}

TEST(TimerStats, HistogramRefusesEdgesThatDoNotAscend) {
    EXPECT_THROW(make_histogram({1}, {0, 10, 10}), std::invalid_argument);
    EXPECT_THROW(make_histogram({1}, {10, 0}), std::invalid_argument);
    EXPECT_THROW(make_histogram({1}, {}), std::invalid_argument);
}

TEST(TimerStats, LinearEdgesAreCyclictestsMicrosecondBuckets) {
    EXPECT_EQ(linear_edges_ns(1000, 3), (std::vector<std::int64_t>{0, 1000, 2000, 3000}));
}

TEST(TimerStats, LogEdgesFollowOneTwoFiveFromAMicrosecond) {
    EXPECT_EQ(log_edges_ns(1'000'000),
              (std::vector<std::int64_t>{0, 1'000, 2'000, 5'000, 10'000, 20'000, 50'000, 100'000,
                                         200'000, 500'000, 1'000'000}));
    EXPECT_EQ(signed_log_edges_ns(5'000),
              (std::vector<std::int64_t>{-5'000, -2'000, -1'000, 0, 1'000, 2'000, 5'000}));
}

TEST(TimerStats, SparklineShowsTheUsedBucketsFramedByTheirEdges) {
    Histogram h;
    h.edges_ns = {0, 10, 20};
    h.counts = {0, 100, 0, 1};
    // 100 fills the bar; 1 is log(2)/log(101) = 15% of it: the second of eight heights.
    EXPECT_EQ(sparkline(h), "0 █·▂ >20ns");
    h.counts = {3, 0, 0, 0};
    EXPECT_EQ(sparkline(h), "<0 █ 0");
    h.edges_ns = {0, 1'000, 2'000'000};
    h.counts = {0, 0, 5, 0};
    EXPECT_EQ(sparkline(h), "1us █ 2ms");
    h.counts = {0, 0, 0, 0};
    EXPECT_EQ(sparkline(h), "(empty)");
}

}  // namespace
}  // namespace loopscope
