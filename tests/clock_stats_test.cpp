// The clock statistics on made-up sample streams: exact granularity, zero share, backward steps,
// histogram and drift, no real clock involved.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "probes/clock_stats.hpp"

using namespace loopscope;

namespace {
DeltaCounts counts_of(const std::vector<std::int64_t>& ticks) {
    DeltaCounts c;
    c.add_batch(ticks);
    return c;
}
}  // namespace

TEST(ClockStats, CountsZeroBackwardAndPositiveDeltasOfAStream) {
    // deltas: 0, 10, 0, 20, -5, 0, 20
    const auto c = counts_of({0, 0, 10, 10, 30, 25, 25, 45});
    const GranularityStats s = granularity_stats(c);
    EXPECT_EQ(s.deltas, 7);
    EXPECT_EQ(s.zero_deltas, 3);
    EXPECT_EQ(s.backward_steps, 1);
    EXPECT_DOUBLE_EQ(s.zero_delta_share, 3.0 / 7.0);
    EXPECT_EQ(s.min_ticks, 10);
    EXPECT_EQ(s.median_ticks, 20);  // positive deltas 10, 20, 20: the middle one
}

TEST(ClockStats, MedianOfAnEvenCountIsTheLowerMiddleDelta) {
    const auto s = granularity_stats(counts_of({0, 1, 3, 6, 10}));  // deltas 1, 2, 3, 4
    EXPECT_EQ(s.min_ticks, 1);
    EXPECT_EQ(s.median_ticks, 2);
}

TEST(ClockStats, NoDeltaIsFormedAcrossTwoBatches) {
    DeltaCounts c;
    c.add_batch(std::vector<std::int64_t>{0, 10});
    c.add_batch(std::vector<std::int64_t>{100, 105});
    c.add_batch(std::vector<std::int64_t>{7});  // one sample: no delta at all
    const auto s = granularity_stats(c);
    EXPECT_EQ(s.deltas, 2);
    EXPECT_EQ(s.min_ticks, 5);
    EXPECT_EQ(s.median_ticks, 5);
    EXPECT_EQ(c.positive().count(90), 0u);
}

TEST(ClockStats, LargeDeltasOfACoarseClockAreCountedExactly) {
    // A 4 ms tick seen by back-to-back reads: mostly zero deltas, steps of whole ticks.
    const auto c = counts_of({0, 0, 0, 4'000'000, 4'000'000, 12'000'000, 12'000'000});
    const auto s = granularity_stats(c);
    EXPECT_EQ(s.deltas, 6);
    EXPECT_EQ(s.zero_deltas, 4);
    EXPECT_DOUBLE_EQ(s.zero_delta_share, 4.0 / 6.0);
    EXPECT_EQ(s.min_ticks, 4'000'000);
    EXPECT_EQ(s.median_ticks, 4'000'000);
    EXPECT_DOUBLE_EQ(share_in_whole_ticks(c, {1, 1}, 4'000'000, 80'000), 1.0);
}

TEST(ClockStats, StepsBetweenTicksAreNotWholeTicks) {
    // Steps of 4 ms, 4.05 ms (within 80 us of a tick), 6 ms (half way) and 1 ms (under a tick).
    const auto c = counts_of({0, 4'000'000, 8'050'000, 14'050'000, 15'050'000});
    EXPECT_DOUBLE_EQ(share_in_whole_ticks(c, {1, 1}, 4'000'000, 80'000), 2.0 / 4.0);
    EXPECT_DOUBLE_EQ(share_in_whole_ticks(DeltaCounts{}, {1, 1}, 4'000'000, 80'000), 0.0);
}

TEST(ClockStats, AStreamWithoutStepsHasNoGranularity) {
    const auto s = granularity_stats(counts_of({5, 5, 5, 5}));
    EXPECT_EQ(s.deltas, 3);
    EXPECT_DOUBLE_EQ(s.zero_delta_share, 1.0);
    EXPECT_EQ(s.min_ticks, 0);
    EXPECT_EQ(s.median_ticks, 0);
    const auto empty = granularity_stats(DeltaCounts{});
    EXPECT_EQ(empty.deltas, 0);
    EXPECT_DOUBLE_EQ(empty.zero_delta_share, 0.0);
}

TEST(ClockStats, ACounterThatWrapsStepsForward) {
    const auto s = granularity_stats(counts_of(
        {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()}));
    EXPECT_EQ(s.backward_steps, 0);
    EXPECT_EQ(s.min_ticks, 1);
}

TEST(ClockStats, HistogramBucketsArePowersOfTwoNanoseconds) {
    // deltas 0, 1, 2, 3, 4, 7, 8 and one backward step, which the histogram leaves out
    const auto c = counts_of({0, 0, 1, 3, 6, 10, 17, 25, 20});
    const auto h = delta_histogram(c, {1, 1});
    ASSERT_EQ(h.size(), 5u);
    EXPECT_EQ(h[0].min_ns, 0);
    EXPECT_EQ(h[0].max_ns, 0);
    EXPECT_EQ(h[0].count, 1);
    EXPECT_EQ(h[1].min_ns, 1);
    EXPECT_EQ(h[1].max_ns, 1);
    EXPECT_EQ(h[1].count, 1);
    EXPECT_EQ(h[2].min_ns, 2);
    EXPECT_EQ(h[2].max_ns, 3);
    EXPECT_EQ(h[2].count, 2);
    EXPECT_EQ(h[3].min_ns, 4);
    EXPECT_EQ(h[3].max_ns, 7);
    EXPECT_EQ(h[3].count, 2);
    EXPECT_EQ(h[4].min_ns, 8);
    EXPECT_EQ(h[4].max_ns, 15);
    EXPECT_EQ(h[4].count, 1);
}

TEST(ClockStats, HistogramOfACounterPlacesSubNanosecondStepsInTheOneNanosecondBucket) {
    // A 3 GHz counter: 1 tick = 1/3 ns, 30 ticks = 10 ns, 31 ticks = 10.33 ns (rounded up: 11).
    const TickScale tsc{1'000'000'000, 3'000'000'000};
    const auto h = delta_histogram(counts_of({0, 1, 31, 62}), tsc);
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0].min_ns, 1);
    EXPECT_EQ(h[0].count, 1);
    EXPECT_EQ(h[1].min_ns, 8);
    EXPECT_EQ(h[1].max_ns, 15);
    EXPECT_EQ(h[1].count, 2);
}

TEST(ClockStats, DriftIsTheRateErrorAgainstTheReferenceInPpm) {
    EXPECT_DOUBLE_EQ(drift_ppm(1'000'100, {1, 1}, 1'000'000), 100.0);
    EXPECT_DOUBLE_EQ(drift_ppm(999'950, {1, 1}, 1'000'000), -50.0);
    EXPECT_DOUBLE_EQ(drift_ppm(1'000'000, {1, 1}, 1'000'000), 0.0);
    // A 3 GHz counter 300 ticks (100 ns) ahead over one second: +0.1 ppm.
    EXPECT_DOUBLE_EQ(drift_ppm(3'000'000'300, {1'000'000'000, 3'000'000'000}, 1'000'000'000), 0.1);
    // Milliseconds: 5001 ms over 5 s of reference is +200 ppm.
    EXPECT_DOUBLE_EQ(drift_ppm(5001, {1'000'000, 1}, 5'000'000'000), 200.0);
    EXPECT_DOUBLE_EQ(drift_ppm(10, {1, 1}, 0), 0.0);
}

TEST(ClockStats, MedianOfBatchCosts) {
    EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
    EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
    EXPECT_DOUBLE_EQ(median({}), 0.0);
}

// The quotient-and-remainder split is exact (truncation toward zero, as integer division) at
// the ends of the int64 range; the expected values are ticks * num / den worked out exactly.
TEST(ClockStats, TickScaleIsExactAtTheExtremes) {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    const TickScale ns{1, 1};
    EXPECT_EQ(ns.to_ns(kMax), kMax);
    EXPECT_EQ(ns.to_ns(kMin), kMin);
    EXPECT_EQ(ns.to_ns(0), 0);
    const TickScale third{1, 3};
    EXPECT_EQ(third.to_ns(kMax), kMax / 3);
    EXPECT_EQ(third.to_ns(-7), -2);  // toward zero, as -7 / 3
    // A 3.000000007 GHz counter (den prime to num): the whole range of ticks converts.
    const TickScale tsc{1'000'000'000, 3'000'000'007};
    EXPECT_EQ(tsc.to_ns(kMax), 3'074'457'338'444'524'812LL);
    EXPECT_EQ(tsc.to_ns(-kMax), -3'074'457'338'444'524'812LL);
    EXPECT_EQ(tsc.to_ns(3'000'000'006), 999'999'999);
    EXPECT_EQ(tsc.to_ns(3'000'000'007), 1'000'000'000);
    // SDL_GetTicks64's milliseconds: a large num with den 1.
    const TickScale ms{1'000'000, 1};
    EXPECT_EQ(ms.to_ns(9'000'000'000'000), 9'000'000'000'000'000'000);
    // num * den past 2^63: the remainder goes through long double, within a nanosecond.
    const TickScale wide{4'000'000'000, 3'000'000'001};
    EXPECT_NEAR(
        static_cast<double>(wide.to_ns(4'611'686'018'427'387'904) - 6'148'914'689'186'878'975), 0.0,
        1.0);
    EXPECT_EQ(wide.to_ns(5'000'000'000'123), 6'666'666'664'608);
}

#ifdef __SIZEOF_INT128__
// Odd counter frequencies (the ACPI PM timer's 3.579545 MHz, the HPET's 14.31818 MHz, wine's
// 10 MHz QPC, TSCs a few hertz off a round number) over ticks from one to the int64 limit (as far
// as the nanoseconds fit): the split conversion equals the exact 128-bit ticks * num / den wherever
// num * den fits in 63 bits. The reference exists only on compilers with __int128, which to_ns
// itself does not need.
TEST(ClockStats, TickScaleMatchesAnExactReferenceAtOddFrequencies) {
    const std::int64_t hz_list[] = {3'579'545,     14'318'180,    10'000'000,   1'000'000'007,
                                    2'999'999'999, 3'000'000'007, 4'294'967'291};
    for (const std::int64_t hz : hz_list) {
        const TickScale scale{1'000'000'000, hz};
        std::vector<std::int64_t> ticks = {1, hz - 1, hz, hz + 1,
                                           std::numeric_limits<std::int64_t>::max()};
        for (int shift = 20; shift < 63; shift += 7)
            ticks.push_back((std::int64_t{1} << shift) + 12345);
        for (const std::int64_t t : ticks) {
            for (const std::int64_t signed_t : {t, -t}) {
                const __int128 exact = static_cast<__int128>(signed_t) * scale.num / scale.den;
                if (exact > std::numeric_limits<std::int64_t>::max() ||
                    -exact > std::numeric_limits<std::int64_t>::max())
                    continue;  // past int64 nanoseconds (centuries of a slow counter)
                EXPECT_EQ(scale.to_ns(signed_t), static_cast<std::int64_t>(exact))
                    << signed_t << " ticks at " << hz << " Hz";
            }
        }
    }
}
#endif

TEST(ClockStats, TickScaleConvertsWithoutOverflow) {
    const TickScale tsc{1'000'000'000, 2'500'000'000};
    // Ten years of a 2.5 GHz counter: ticks * 1e9 overflows 64 bits, the result does not.
    const std::int64_t ticks = 2'500'000'000LL * 86'400 * 3650;
    EXPECT_EQ(tsc.to_ns(ticks), 1'000'000'000LL * 86'400 * 3650);
    EXPECT_DOUBLE_EQ(tsc.ns_per_tick(), 0.4);
    EXPECT_DOUBLE_EQ(tsc.ticks_per_second(), 2.5e9);
}

TEST(CoarseSteps, AreClassifiedByWholeTicksAndByHowLongTheReaderWasAway) {
    const std::vector<CoarseStep> steps = {
        {4'000'000, 30},          // one tick
        {8'000'001, 40},          // two ticks while watching: the clock jumped
        {12'000'000, 5'000'000},  // three ticks after the reader was away longer than half a tick
        {2'500'000, 50},          // not a whole tick
        {3'990'000, 25},          // one tick within the 2% tolerance
    };
    const CoarseStepStats s = coarse_step_stats(steps, 4'000'000, 80'000);
    EXPECT_EQ(s.steps, 5);
    EXPECT_EQ(s.one_tick, 2);
    EXPECT_EQ(s.multi_tick, 2);
    EXPECT_EQ(s.other, 1);
    EXPECT_EQ(s.multi_tick_watched, 1);
    EXPECT_EQ(s.multi_tick_watched_max_gap_ns, 40);
    EXPECT_EQ(s.max_ticks, 3);
    EXPECT_EQ(s.median_step_ns, 4'000'000);  // lower median of 2.5, 3.99, 4, 8, 12 ms
    EXPECT_EQ(s.median_gap_ns, 40);
    EXPECT_EQ(coarse_step_stats({}, 4'000'000, 80'000).steps, 0);
    EXPECT_EQ(coarse_step_stats({}, 4'000'000, 80'000).median_step_ns, 0);
}
