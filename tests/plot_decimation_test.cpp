// Min/max decimation for plots: checked against a plain scan over every sample, on series that
// grow the way a live run grows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/plot_decimation.hpp"

using namespace loopscope;

namespace {

MinMax brute(const std::vector<std::int64_t>& v, std::size_t first, std::size_t last) {
    const auto [lo, hi] = std::minmax_element(v.begin() + static_cast<std::ptrdiff_t>(first),
                                              v.begin() + static_cast<std::ptrdiff_t>(last));
    return {*lo, *hi};
}

std::vector<std::int64_t> random_series(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> dist(-1'000'000, 50'000'000);
    std::vector<std::int64_t> v(n);
    for (auto& x : v) {
        x = dist(rng);
    }
    return v;
}

}  // namespace

TEST(PlotDecimation, PyramidRangeEqualsAPlainScanForEveryRangeOfASmallSeries) {
    const auto v = random_series(203, 1);
    MinMaxPyramid p;
    p.update(v);
    ASSERT_EQ(p.size(), v.size());
    for (std::size_t a = 0; a < v.size(); ++a) {
        for (std::size_t b = a + 1; b <= v.size(); ++b) {
            const MinMax got = p.range(v, a, b);
            const MinMax want = brute(v, a, b);
            ASSERT_EQ(got.min, want.min) << a << ".." << b;
            ASSERT_EQ(got.max, want.max) << a << ".." << b;
        }
    }
}

TEST(PlotDecimation, PyramidGrownSampleBySampleMatchesOneBuiltAtOnce) {
    const auto all = random_series(5000, 2);
    std::vector<std::int64_t> grown;
    MinMaxPyramid p;
    std::mt19937 rng(3);
    for (std::size_t i = 0; i < all.size();) {
        const std::size_t n = std::min<std::size_t>(all.size() - i, 1 + rng() % 40);
        grown.insert(grown.end(), all.begin() + static_cast<std::ptrdiff_t>(i),
                     all.begin() + static_cast<std::ptrdiff_t>(i + n));
        i += n;
        p.update(grown);
        // A spike in the newest sample must show in a range over everything.
        const MinMax m = p.range(grown, 0, grown.size());
        const MinMax want = brute(grown, 0, grown.size());
        ASSERT_EQ(m.min, want.min);
        ASSERT_EQ(m.max, want.max);
    }
    std::mt19937 pick(4);
    for (int t = 0; t < 2000; ++t) {
        std::size_t a = pick() % all.size(), b = pick() % all.size();
        if (a > b)
            std::swap(a, b);
        ++b;
        ASSERT_EQ(p.range(all, a, b).max, brute(all, a, b).max);
        ASSERT_EQ(p.range(all, a, b).min, brute(all, a, b).min);
    }
}

TEST(PlotDecimation, ColumnsKeepASingleSpikeWhenZoomedOut) {
    std::vector<std::int64_t> frame_ns(100'000, 16'666'667);
    frame_ns[54'321] = 250'000'000;
    const auto x = running_start_ns(frame_ns);
    MinMaxPyramid p;
    p.update(frame_ns);
    std::vector<PlotColumn> cols;
    const double end = static_cast<double>(x.back() + frame_ns.back());
    decimate_columns(x, frame_ns, p, 0.0, end, 800, cols);
    ASSERT_EQ(cols.size(), 800u);
    std::size_t spikes = 0, covered = 0;
    for (const auto& c : cols) {
        covered += c.last - c.first;
        if (c.max == 250'000'000) {
            ++spikes;
            EXPECT_LE(c.first, 54'321u);
            EXPECT_GT(c.last, 54'321u);
        }
        if (!c.empty()) {
            EXPECT_EQ(c.min, 16'666'667);
        }
    }
    EXPECT_EQ(spikes, 1u);
    EXPECT_EQ(covered, frame_ns.size());  // every frame in exactly one column
}

TEST(PlotDecimation, ZoomedInColumnsAreEmptyBetweenSamplesAndExactOnThem) {
    const std::vector<std::int64_t> x = {0, 100, 200, 300};
    const std::vector<std::int64_t> v = {5, 7, 1, 9};
    MinMaxPyramid p;
    p.update(v);
    std::vector<PlotColumn> cols;
    decimate_columns(x, v, p, 50.0, 250.0, 4, cols);  // columns of 50: [50,100) [100,150) ...
    ASSERT_EQ(cols.size(), 4u);
    EXPECT_TRUE(cols[0].empty());
    EXPECT_EQ(cols[1].first, 1u);
    EXPECT_EQ(cols[1].max, 7);
    EXPECT_TRUE(cols[2].empty());
    EXPECT_EQ(cols[3].min, 1);
    decimate_columns(x, v, p, 10.0, 10.0, 4, cols);
    EXPECT_TRUE(cols.empty());
}

TEST(PlotDecimation, NearestSampleAndHistogram) {
    const std::vector<std::int64_t> x = {0, 100, 200};
    EXPECT_EQ(nearest_sample(x, -5.0), 0u);
    EXPECT_EQ(nearest_sample(x, 149.0), 1u);
    EXPECT_EQ(nearest_sample(x, 151.0), 2u);
    EXPECT_EQ(nearest_sample(x, 1e9), 2u);
    const std::vector<std::int64_t> v = {1, 2, 3, 4, 10, 100};
    const auto lin = histogram_counts(v, 0.0, 10.0, 5, false);
    EXPECT_EQ(lin, (std::vector<std::size_t>{1, 2, 1, 0, 2}));  // 10 and 100 land in the last bin
    const auto lg = histogram_counts(v, 1.0, 1000.0, 3, true);  // decades
    EXPECT_EQ(lg, (std::vector<std::size_t>{4, 1, 1}));
    EXPECT_TRUE(histogram_counts(v, 0.0, 10.0, 3, true).empty());
}
