// Pure statistics for the timer probes; see timer_stats.hpp for the definitions.
#include "probes/timer_stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/percentile.hpp"
#include "core/units.hpp"

namespace loopscope {

std::int64_t quantile_sorted_ns(const std::vector<std::int64_t>& sorted_ns, double p) {
    return percentile_sorted_ns(sorted_ns, p);
}

SampleSummary summarize(std::vector<std::int64_t> samples_ns) {
    SampleSummary s;
    if (samples_ns.empty())
        return s;
    std::sort(samples_ns.begin(), samples_ns.end());
    s.count = static_cast<std::int64_t>(samples_ns.size());
    s.min_ns = samples_ns.front();
    s.max_ns = samples_ns.back();
    s.p50_ns = quantile_sorted_ns(samples_ns, 0.50);
    s.p99_ns = quantile_sorted_ns(samples_ns, 0.99);
    // Sum in long double: thousands of multi-millisecond samples stay exact well past 2^53 ns.
    long double sum = 0;
    for (auto v : samples_ns)
        sum += static_cast<long double>(v);
    s.mean_ns = static_cast<double>(sum / static_cast<long double>(samples_ns.size()));
    return s;
}

Histogram make_histogram(const std::vector<std::int64_t>& samples_ns,
                         std::vector<std::int64_t> edges_ns) {
    if (edges_ns.empty() || !std::is_sorted(edges_ns.begin(), edges_ns.end()) ||
        std::adjacent_find(edges_ns.begin(), edges_ns.end()) != edges_ns.end()) {
        throw std::invalid_argument("histogram edges must be strictly ascending and not empty");
    }
    Histogram h;
    h.counts.assign(edges_ns.size() + 1, 0);
    for (auto v : samples_ns) {
        // upper_bound gives the first edge above v: that index is v's bucket.
        const auto it = std::upper_bound(edges_ns.begin(), edges_ns.end(), v);
        ++h.counts[static_cast<std::size_t>(it - edges_ns.begin())];
    }
    h.edges_ns = std::move(edges_ns);
    return h;
}

std::vector<std::int64_t> linear_edges_ns(std::int64_t width_ns, int buckets) {
    if (width_ns <= 0 || buckets <= 0)
        throw std::invalid_argument("bad linear histogram");
    std::vector<std::int64_t> edges;
    edges.reserve(static_cast<std::size_t>(buckets) + 1);
    for (int i = 0; i <= buckets; ++i)
        edges.push_back(width_ns * i);
    return edges;
}

std::vector<std::int64_t> log_edges_ns(std::int64_t max_ns) {
    std::vector<std::int64_t> edges{0};
    for (std::int64_t decade = kNsPerUs;; decade *= 10) {
        for (std::int64_t m : {1, 2, 5}) {
            const std::int64_t e = decade * m;
            if (e > max_ns)
                return edges;
            edges.push_back(e);
        }
    }
}

std::vector<std::int64_t> signed_log_edges_ns(std::int64_t max_ns) {
    const auto positive = log_edges_ns(max_ns);  // 0, 1 us, ...
    std::vector<std::int64_t> edges;
    for (auto it = positive.rbegin(); it != positive.rend(); ++it) {
        if (*it != 0)
            edges.push_back(-*it);
    }
    edges.insert(edges.end(), positive.begin(), positive.end());
    return edges;
}

namespace {

// "50us", "1ms", "-2ms", "0": short enough to frame a sparkline.
std::string edge_label(std::int64_t ns) {
    const std::int64_t a = ns < 0 ? -ns : ns;
    if (a == 0)
        return "0";
    if (a % kNsPerS == 0)
        return fmt::format("{}s", ns / kNsPerS);
    if (a % kNsPerMs == 0)
        return fmt::format("{}ms", ns / kNsPerMs);
    if (a % kNsPerUs == 0)
        return fmt::format("{}us", ns / kNsPerUs);
    return fmt::format("{}ns", ns);
}

}  // namespace

Sparkline sparkline_bars(const Histogram& histogram) {
    const auto& c = histogram.counts;
    std::size_t first = c.size(), last = 0;
    std::int64_t peak = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (c[i] == 0)
            continue;
        first = std::min(first, i);
        last = i;
        peak = std::max(peak, c[i]);
    }
    Sparkline bars;
    if (peak == 0)
        return bars;
    const double top = std::log1p(static_cast<double>(peak));
    for (std::size_t i = first; i <= last; ++i) {
        if (c[i] == 0) {
            bars.levels.push_back(0);
            continue;
        }
        const double level = std::log1p(static_cast<double>(c[i])) / top;  // (0, 1]
        bars.levels.push_back(std::clamp(static_cast<int>(std::ceil(level * 8.0)), 1, 8));
    }
    // Bucket i spans [edges[i-1], edges[i]); the under- and overflow buckets are open-ended.
    const auto& e = histogram.edges_ns;
    bars.left = first == 0 ? fmt::format("<{}", edge_label(e.front())) : edge_label(e[first - 1]);
    bars.right = last == e.size() ? fmt::format(">{}", edge_label(e.back())) : edge_label(e[last]);
    return bars;
}

std::string sparkline(const Histogram& histogram) {
    return sparkline_text(sparkline_bars(histogram));
}

}  // namespace loopscope
