#include "core/percentile.hpp"

#include <algorithm>
#include <cmath>

#include "core/ascending.hpp"

namespace loopscope {

namespace {

// Where h = p·(N−1) falls: the lower index, the next one (the last when h is at the end), and
// the fraction between them. Needs a non-empty span.
struct Position {
    std::size_t lo = 0;
    std::size_t hi = 0;
    double frac = 0;
};

Position position(std::size_t n, double p) {
    p = std::clamp(p, 0.0, 1.0);
    const double h = p * static_cast<double>(n - 1);
    Position at;
    at.lo = static_cast<std::size_t>(std::floor(h));
    at.hi = std::min(at.lo + 1, n - 1);
    at.frac = h - static_cast<double>(at.lo);
    return at;
}

}  // namespace

double percentile_sorted(std::span<const std::int64_t> sorted_ns, double p) {
    return percentile_of(SortedValues(sorted_ns), p);
}

double percentile_of(const AscendingValues& values, double p) {
    if (values.size() == 0)
        return 0.0;
    const Position at = position(values.size(), p);
    const std::int64_t lo = values.at(at.lo);
    const std::int64_t hi = at.hi == at.lo ? lo : values.at(at.hi);
    return static_cast<double>(lo) + at.frac * static_cast<double>(hi - lo);
}

std::int64_t percentile_sorted_ns(std::span<const std::int64_t> sorted_ns, double p) {
    if (sorted_ns.empty())
        return 0;
    const Position at = position(sorted_ns.size(), p);
    const double step = static_cast<double>(sorted_ns[at.hi] - sorted_ns[at.lo]) * at.frac;
    return sorted_ns[at.lo] + static_cast<std::int64_t>(std::llround(step));
}

double percentile_selected(std::span<std::int64_t> values_ns, double p) {
    if (values_ns.empty())
        return 0.0;
    const Position at = position(values_ns.size(), p);
    const auto lo_it = values_ns.begin() + static_cast<std::ptrdiff_t>(at.lo);
    std::nth_element(values_ns.begin(), lo_it, values_ns.end());
    const std::int64_t lo = *lo_it;
    // The next value in order is the least of those after the selected one.
    const std::int64_t hi = at.hi == at.lo ? lo : *std::min_element(lo_it + 1, values_ns.end());
    return static_cast<double>(lo) + at.frac * static_cast<double>(hi - lo);
}

}  // namespace loopscope
