// Statistics over clock sample streams; the definitions are in clock_stats.hpp.
#include "probes/clock_stats.hpp"

#include <algorithm>
#include <bit>

namespace loopscope {

void DeltaCounts::add_batch(std::span<const std::int64_t> ticks) {
    for (std::size_t i = 1; i < ticks.size(); ++i) {
        // Unsigned subtraction: a wrapped counter must not be undefined behaviour.
        const auto d = static_cast<std::int64_t>(static_cast<std::uint64_t>(ticks[i]) -
                                                 static_cast<std::uint64_t>(ticks[i - 1]));
        if (d == 0) {
            ++zero_;
        } else if (d < 0) {
            ++backward_;
        } else if (d < kFlat) {
            ++flat_[static_cast<std::size_t>(d)];
        } else {
            ++large_[d];
        }
    }
    if (ticks.size() > 1)
        deltas_ += static_cast<std::int64_t>(ticks.size() - 1);
}

std::map<std::int64_t, std::int64_t> DeltaCounts::positive() const {
    std::map<std::int64_t, std::int64_t> out = large_;
    for (std::int64_t d = 1; d < kFlat; ++d) {
        if (flat_[static_cast<std::size_t>(d)] != 0)
            out[d] = flat_[static_cast<std::size_t>(d)];
    }
    return out;
}

GranularityStats granularity_stats(const DeltaCounts& counts) {
    GranularityStats s;
    s.deltas = counts.deltas();
    s.zero_deltas = counts.zero_deltas();
    s.backward_steps = counts.backward_steps();
    s.zero_delta_share =
        s.deltas > 0 ? static_cast<double>(s.zero_deltas) / static_cast<double>(s.deltas) : 0.0;
    const auto positive = counts.positive();
    std::int64_t n = 0;
    for (const auto& [d, c] : positive)
        n += c;
    if (n == 0)
        return s;
    s.min_ticks = positive.begin()->first;
    const std::int64_t want = (n - 1) / 2;  // index of the lower median
    std::int64_t seen = 0;
    for (const auto& [d, c] : positive) {
        if (seen + c > want) {
            s.median_ticks = d;
            break;
        }
        seen += c;
    }
    return s;
}

namespace {
// Bucket index of a positive delta: k+1 for a length in [2^k, 2^(k+1)) ns once rounded up, so
// that a TSC step of a third of a nanosecond lands in [1, 1] and not beside the zero deltas.
int bucket_of(std::int64_t ticks, TickScale scale) {
    const __int128 scaled = static_cast<__int128>(ticks) * scale.num;
    const auto ns = static_cast<std::uint64_t>((scaled + scale.den - 1) / scale.den);
    return std::bit_width(std::max<std::uint64_t>(ns, 1));
}
}  // namespace

std::vector<HistogramBucket> delta_histogram(const DeltaCounts& counts, TickScale scale) {
    std::vector<std::int64_t> by_bucket(65, 0);
    by_bucket[0] = counts.zero_deltas();
    for (const auto& [d, c] : counts.positive()) {
        by_bucket[static_cast<std::size_t>(bucket_of(d, scale))] += c;
    }
    std::vector<HistogramBucket> out;
    for (int b = 0; b < 64; ++b) {
        const std::int64_t c = by_bucket[static_cast<std::size_t>(b)];
        if (c == 0)
            continue;
        HistogramBucket h;
        h.min_ns = b == 0 ? 0 : std::int64_t{1} << (b - 1);
        h.max_ns = b == 0 ? 0 : (std::int64_t{1} << b) - 1;
        h.count = c;
        out.push_back(h);
    }
    return out;
}

double drift_ppm(std::int64_t clock_elapsed_ticks, TickScale scale,
                 std::int64_t reference_elapsed_ns) {
    if (reference_elapsed_ns <= 0)
        return 0.0;
    // Exact difference first (128-bit), then one division: the ppm of a few ns over seconds.
    const __int128 clock_ns_times_den = static_cast<__int128>(clock_elapsed_ticks) * scale.num;
    const __int128 diff =
        clock_ns_times_den - static_cast<__int128>(reference_elapsed_ns) * scale.den;
    return static_cast<double>(diff) * 1e6 /
           (static_cast<double>(reference_elapsed_ns) * static_cast<double>(scale.den));
}

double median(std::vector<double> values) {
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

double share_in_whole_ticks(const DeltaCounts& counts, TickScale scale, std::int64_t tick_ns,
                            std::int64_t tolerance_ns) {
    if (tick_ns <= 0)
        return 0.0;
    std::int64_t n = 0;
    std::int64_t whole = 0;
    for (const auto& [d, c] : counts.positive()) {
        const std::int64_t ns = scale.to_ns(d);
        const std::int64_t off = ns % tick_ns;
        const std::int64_t distance = std::min(off, tick_ns - off);
        n += c;
        if (ns >= tick_ns - tolerance_ns && distance <= tolerance_ns)
            whole += c;
    }
    return n > 0 ? static_cast<double>(whole) / static_cast<double>(n) : 0.0;
}

namespace {
std::int64_t lower_median(std::vector<std::int64_t> v) {
    if (v.empty())
        return 0;
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>((v.size() - 1) / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}
}  // namespace

CoarseStepStats coarse_step_stats(std::span<const CoarseStep> steps, std::int64_t tick_ns,
                                  std::int64_t tolerance_ns) {
    CoarseStepStats s;
    std::vector<std::int64_t> sizes, gaps;
    for (const CoarseStep& c : steps) {
        ++s.steps;
        sizes.push_back(c.step_ns);
        gaps.push_back(c.reader_gap_ns);
        if (tick_ns <= 0)
            continue;
        const std::int64_t ticks = (c.step_ns + tick_ns / 2) / tick_ns;
        const std::int64_t off = c.step_ns - ticks * tick_ns;
        if (ticks < 1 || off > tolerance_ns || -off > tolerance_ns) {
            ++s.other;
            continue;
        }
        s.max_ticks = std::max(s.max_ticks, ticks);
        if (ticks == 1) {
            ++s.one_tick;
            continue;
        }
        ++s.multi_tick;
        if (c.reader_gap_ns < tick_ns / 2) {
            ++s.multi_tick_watched;
            s.multi_tick_watched_max_gap_ns =
                std::max(s.multi_tick_watched_max_gap_ns, c.reader_gap_ns);
        }
    }
    s.median_step_ns = lower_median(std::move(sizes));
    s.median_gap_ns = lower_median(std::move(gaps));
    return s;
}

}  // namespace loopscope
