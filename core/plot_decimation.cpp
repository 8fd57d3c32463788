// Min/max pyramid and per-column decimation for plots (see plot_decimation.hpp).
#include "core/plot_decimation.hpp"

#include <algorithm>
#include <cmath>

namespace loopscope {

namespace {

MinMax merge(MinMax a, MinMax b) {
    return {std::min(a.min, b.min), std::max(a.max, b.max)};
}

MinMax scan(std::span<const std::int64_t> values, std::size_t first, std::size_t last) {
    MinMax m{values[first], values[first]};
    for (std::size_t i = first + 1; i < last; ++i) {
        m.min = std::min(m.min, values[i]);
        m.max = std::max(m.max, values[i]);
    }
    return m;
}

}  // namespace

void MinMaxPyramid::clear() {
    levels_.clear();
    count_ = 0;
}

void MinMaxPyramid::update(std::span<const std::int64_t> values) {
    if (values.size() < count_) {  // a different series: start again
        clear();
    }
    if (values.size() == count_) {
        return;
    }
    // Level 0: recompute from the block that held the old last sample (it may have been partial).
    constexpr std::size_t leaf = std::size_t{1} << kLeafShift;
    std::size_t from_block = count_ >> kLeafShift;
    const std::size_t blocks = (values.size() + leaf - 1) >> kLeafShift;
    if (levels_.empty()) {
        levels_.emplace_back();
    }
    levels_[0].resize(blocks);
    for (std::size_t b = from_block; b < blocks; ++b) {
        const std::size_t first = b << kLeafShift;
        levels_[0][b] = scan(values, first, std::min(first + leaf, values.size()));
    }
    // Higher levels: each block merges the two below it (the second may not exist yet).
    for (std::size_t k = 1; levels_[k - 1].size() > 1; ++k) {
        if (levels_.size() <= k) {
            levels_.emplace_back();
        }
        const auto& below = levels_[k - 1];
        auto& level = levels_[k];
        from_block >>= 1;
        const std::size_t n = (below.size() + 1) / 2;
        level.resize(n);
        for (std::size_t b = from_block; b < n; ++b) {
            level[b] =
                2 * b + 1 < below.size() ? merge(below[2 * b], below[2 * b + 1]) : below[2 * b];
        }
    }
    count_ = values.size();
}

MinMax MinMaxPyramid::range(std::span<const std::int64_t> values, std::size_t first,
                            std::size_t last) const {
    constexpr std::size_t leaf = std::size_t{1} << kLeafShift;
    // Ragged ends are scanned sample by sample (under 16 each), whole blocks come from the levels.
    const std::size_t first_block = (first + leaf - 1) >> kLeafShift;
    const std::size_t last_block = last >> kLeafShift;
    if (first_block >= last_block || levels_.empty()) {
        return scan(values, first, last);
    }
    MinMax m{values[first], values[first]};
    const std::size_t head_end = first_block << kLeafShift;
    if (first < head_end) {
        m = merge(m, scan(values, first, head_end));
    }
    const std::size_t tail_begin = last_block << kLeafShift;
    if (tail_begin < last) {
        m = merge(m, scan(values, tail_begin, last));
    }
    // Bottom-up segment-tree walk over blocks [b0, b1): take an odd edge block at each level.
    std::size_t b0 = first_block;
    std::size_t b1 = last_block;
    for (std::size_t k = 0; b0 < b1 && k < levels_.size(); ++k) {
        const auto& level = levels_[k];
        if (b0 & 1) {
            m = merge(m, level[b0++]);
        }
        if (b1 & 1) {
            m = merge(m, level[--b1]);
        }
        b0 >>= 1;
        b1 >>= 1;
    }
    return m;
}

std::size_t first_sample_at_or_after(std::span<const std::int64_t> x, double at) {
    const auto it = std::partition_point(
        x.begin(), x.end(), [at](std::int64_t v) { return static_cast<double>(v) < at; });
    return static_cast<std::size_t>(it - x.begin());
}

std::size_t nearest_sample(std::span<const std::int64_t> x, double at) {
    const std::size_t i = first_sample_at_or_after(x, at);
    if (i == 0) {
        return 0;
    }
    if (i == x.size()) {
        return x.size() - 1;
    }
    return at - static_cast<double>(x[i - 1]) <= static_cast<double>(x[i]) - at ? i - 1 : i;
}

void decimate_columns(std::span<const std::int64_t> x, std::span<const std::int64_t> values,
                      const MinMaxPyramid& pyramid, double x0, double x1, std::size_t columns,
                      std::vector<PlotColumn>& out) {
    out.clear();
    if (!(x0 < x1) || columns == 0) {
        return;
    }
    out.resize(columns);
    const double width = (x1 - x0) / static_cast<double>(columns);
    std::size_t first = first_sample_at_or_after(x, x0);
    for (std::size_t c = 0; c < columns; ++c) {
        const double end_x = x0 + width * static_cast<double>(c + 1);
        // Columns advance monotonically, so each search starts where the last one ended.
        const auto rest = x.subspan(first);
        std::size_t last = first + first_sample_at_or_after(rest, end_x);
        if (c + 1 == columns) {
            last = first + first_sample_at_or_after(rest, x1);
        }
        PlotColumn& col = out[c];
        col.first = first;
        col.last = last;
        if (first < last) {
            const MinMax m = pyramid.range(values, first, last);
            col.min = m.min;
            col.max = m.max;
            col.first_value = values[first];
            col.last_value = values[last - 1];
        }
        first = last;
    }
}

std::vector<std::size_t> histogram_counts(std::span<const std::int64_t> values, double lo,
                                          double hi, std::size_t bins, bool log_bins) {
    std::vector<std::size_t> counts;
    if (bins == 0 || !(lo < hi) || (log_bins && lo <= 0)) {
        return counts;
    }
    counts.assign(bins, 0);
    const double a = log_bins ? std::log(lo) : lo;
    const double b = log_bins ? std::log(hi) : hi;
    const double scale = static_cast<double>(bins) / (b - a);
    for (const std::int64_t v : values) {
        const double t =
            log_bins ? std::log(std::max(static_cast<double>(v), lo)) : static_cast<double>(v);
        const double pos = (t - a) * scale;
        const auto bin =
            pos <= 0 ? std::size_t{0} : std::min(static_cast<std::size_t>(pos), bins - 1);
        ++counts[bin];
    }
    return counts;
}

std::vector<std::int64_t> running_start_ns(std::span<const std::int64_t> frame_ns) {
    std::vector<std::int64_t> start(frame_ns.size());
    std::int64_t t = 0;
    for (std::size_t i = 0; i < frame_ns.size(); ++i) {
        start[i] = t;
        t += frame_ns[i];
    }
    return start;
}

}  // namespace loopscope
