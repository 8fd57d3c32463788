// Statistics of timing samples (sleep overshoot, wake-up latency, pacing error, CPU time), as
// pure functions over integer nanoseconds: min, percentiles, max, mean, and histograms with
// explicit bucket edges. No clock and no OS here, so every figure is tested on synthetic data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/markdown_table.hpp"

namespace loopscope {

// min / p50 / p99 / max / mean of a sample. Percentiles interpolate linearly at
// h = p * (N - 1) over the sorted samples (PresentMon's method), rounded to the nearest ns.
// An empty sample has count 0 and every figure 0.
struct SampleSummary {
    std::int64_t count = 0;
    std::int64_t min_ns = 0;
    std::int64_t p50_ns = 0;
    std::int64_t p99_ns = 0;
    std::int64_t max_ns = 0;
    double mean_ns = 0.0;
    friend bool operator==(const SampleSummary&, const SampleSummary&) = default;
};

SampleSummary summarize(std::vector<std::int64_t> samples_ns);

// The p-th quantile (p in [0, 1]) of samples sorted ascending, interpolated at h = p * (N - 1).
// Returns 0 for an empty sample.
std::int64_t quantile_sorted_ns(const std::vector<std::int64_t>& sorted_ns, double p);

// Counts per bucket. counts has edges_ns.size() + 1 entries: counts[0] holds samples below
// edges_ns[0], counts[i] samples in [edges_ns[i-1], edges_ns[i]), and counts.back() samples at
// or above edges_ns.back() (the overflows). edges_ns is strictly ascending and not empty.
struct Histogram {
    std::vector<std::int64_t> edges_ns;
    std::vector<std::int64_t> counts;

    std::int64_t underflows() const { return counts.empty() ? 0 : counts.front(); }
    std::int64_t overflows() const { return counts.empty() ? 0 : counts.back(); }
    friend bool operator==(const Histogram&, const Histogram&) = default;
};

Histogram make_histogram(const std::vector<std::int64_t>& samples_ns,
                         std::vector<std::int64_t> edges_ns);

// Edges 0, w, 2w, ... n*w: cyclictest's histogram (w = 1 us) with everything >= n*w an overflow.
std::vector<std::int64_t> linear_edges_ns(std::int64_t width_ns, int buckets);

// Edges 0, 1, 2, 5, 10, 20, 50 ... us up to max_ns (a 1-2-5 series): lateness spans five orders
// of magnitude, from a spin's nanoseconds to a coarse tick's milliseconds.
std::vector<std::int64_t> log_edges_ns(std::int64_t max_ns);

// The same series mirrored around 0 (-max ... -1 us, 0, 1 us ... max) for signed errors such as
// frame pacing error, where early frames are as interesting as late ones.
std::vector<std::int64_t> signed_log_edges_ns(std::int64_t max_ns);

// One character per bucket (including the under- and overflow buckets), its height growing with
// the logarithm of the count so that a single outlier stays visible beside thousands of samples;
// "·" for an empty bucket. Buckets outside the first and last non-empty ones are left out and
// the result is framed as "[first edge] bars [last edge]", e.g. "50us ▁█▃· 1ms".
std::string sparkline(const Histogram& histogram);
// The same bars as levels (1 to 8, 0 for an empty bucket) and edge labels, for a front end that
// draws them; no levels for an empty histogram. sparkline() is sparkline_text() of these.
Sparkline sparkline_bars(const Histogram& histogram);

}  // namespace loopscope
