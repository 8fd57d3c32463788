// Frame-pacing statistics; definitions in frame_stats.hpp and docs/reports.md.
#include "core/frame_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "core/ascending.hpp"
#include "core/beside.hpp"
#include "core/capture.hpp"
#include "core/sort_ns.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {

// Mean of the values >= threshold, in ns: a run of the largest.
double mean_at_or_above(const AscendingValues& values, double threshold_ns) {
    const std::size_t first = values.rank_at_least(threshold_ns);
    const std::size_t count = values.size() - first;
    if (count == 0)
        return 0.0;
    return static_cast<double>(values.sum_from(first)) / static_cast<double>(count);
}

// integral_low_frame_ns given the values' sum, which summary_of already has.
std::int64_t integral_low_of_total(const AscendingValues& values, std::int64_t total,
                                   double share) {
    if (values.size() == 0)
        return 0;
    // The target as CapFrameX forms it from its quantile argument (0.99 for 1 %), total × (1 −
    // quantile) in doubles, so that a sum landing on the target picks the same frame.
    const double quantile = 1.0 - share;
    return values.top_sum_reaching(static_cast<double>(total) * (1.0 - quantile));
}

double fps_of_ms(double ms) {
    return ms > 0 ? 1000.0 / ms : 0.0;
}

// The sum of squares is taken over the frame times in series order (the order decides the last
// bits of the standard deviation); every other figure comes from the sorted values.
struct Moments {
    std::int64_t total_ns = 0;
    double mean_ns = 0, squares = 0;
};

Moments moments_in_order(std::span<const std::int64_t> frame_ns) {
    Moments m;
    m.total_ns = std::accumulate(frame_ns.begin(), frame_ns.end(), std::int64_t{0});
    m.mean_ns = static_cast<double>(m.total_ns) / static_cast<double>(frame_ns.size());
    for (const std::int64_t v : frame_ns) {
        const double d = static_cast<double>(v) - m.mean_ns;
        m.squares += d * d;
    }
    return m;
}

FrameTimeSummary summary_of(const Moments& m, const AscendingValues& sorted) {
    FrameTimeSummary s;
    s.frames = sorted.size();
    s.total_ns = m.total_ns;
    const double n = static_cast<double>(s.frames);
    const double mean_ns = m.mean_ns;
    const double stdev_ns = s.frames > 1 ? std::sqrt(m.squares / (n - 1.0)) : 0.0;
    s.min_ms = ns_to_ms(sorted.front());
    s.max_ms = ns_to_ms(sorted.back());
    s.mean_ms = ns_to_ms(mean_ns);
    s.stdev_ms = ns_to_ms(stdev_ns);
    s.cv = mean_ns > 0 ? stdev_ns / mean_ns : 0.0;
    const double p99_ns = percentile_of(sorted, 0.99);
    const double p999_ns = percentile_of(sorted, 0.999);
    s.p50_ms = ns_to_ms(percentile_of(sorted, 0.50));
    s.p90_ms = ns_to_ms(percentile_of(sorted, 0.90));
    s.p95_ms = ns_to_ms(percentile_of(sorted, 0.95));
    s.p99_ms = ns_to_ms(p99_ns);
    s.p999_ms = ns_to_ms(p999_ns);
    s.mean_at_or_above_q99_ms = ns_to_ms(mean_at_or_above(sorted, quantile_r8_of(sorted, 0.99)));
    s.mean_at_or_above_q999_ms = ns_to_ms(mean_at_or_above(sorted, quantile_r8_of(sorted, 0.999)));
    s.integral_1_ms = ns_to_ms(integral_low_of_total(sorted, m.total_ns, 0.01));
    s.integral_01_ms = ns_to_ms(integral_low_of_total(sorted, m.total_ns, 0.001));
    s.tools = tool_figures(sorted, m.total_ns);
    return s;
}

}  // namespace

FrameTimeSummary summarize_frame_times_in_place(std::vector<std::int64_t>& values) {
    if (values.empty())
        return {};
    const Moments m = moments_in_order(values);
    sort_ns(values);
    return summary_of(m, SortedValues(values));
}

FrameTimeSummary summarize_ascending(const AscendingValues& values, std::int64_t total_ns,
                                     double squares_about_mean) {
    if (values.size() == 0)
        return {};
    Moments m;
    m.total_ns = total_ns;
    m.mean_ns = static_cast<double>(total_ns) / static_cast<double>(values.size());
    m.squares = squares_about_mean;
    return summary_of(m, values);
}

FrameTimeSummary summarize_frame_times(std::span<const std::int64_t> frame_ns,
                                       std::span<const std::int64_t> sorted_ns) {
    if (frame_ns.empty())
        return {};
    const Moments m = moments_in_order(frame_ns);
    if (sorted_ns.size() == frame_ns.size())
        return summary_of(m, SortedValues(sorted_ns));
    std::vector<std::int64_t> sorted(frame_ns.begin(), frame_ns.end());
    sort_ns(sorted);
    return summary_of(m, SortedValues(sorted));
}

double quantile_r8_sorted(std::span<const std::int64_t> sorted_ns, double p) {
    return quantile_r8_of(SortedValues(sorted_ns), p);
}

double quantile_r8_of(const AscendingValues& values, double p) {
    if (values.size() == 0)
        return 0.0;
    const double n = static_cast<double>(values.size());
    const double h = (n + 1.0 / 3.0) * p + 1.0 / 3.0;
    const double whole = std::floor(h);
    if (whole <= 0.0)
        return static_cast<double>(values.front());
    if (whole >= n)
        return static_cast<double>(values.back());
    const auto i = static_cast<std::size_t>(whole);
    const double a = static_cast<double>(values.at(i - 1));
    const double b = static_cast<double>(values.at(i));
    return a + (h - whole) * (b - a);
}

std::int64_t integral_low_frame_ns(std::span<const std::int64_t> sorted_ns, double share) {
    return integral_low_of_total(
        SortedValues(sorted_ns),
        std::accumulate(sorted_ns.begin(), sorted_ns.end(), std::int64_t{0}), share);
}

FpsFigures fps_figures(const FrameTimeSummary& s) {
    FpsFigures f;
    if (s.frames == 0 || s.total_ns <= 0)
        return f;
    f.average = static_cast<double>(s.frames) / ns_to_s(s.total_ns);
    f.p1_low = fps_of_ms(s.p99_ms);
    f.p01_low = fps_of_ms(s.p999_ms);
    f.low1_average = fps_of_ms(s.mean_at_or_above_q99_ms);
    f.low01_average = fps_of_ms(s.mean_at_or_above_q999_ms);
    f.low1_integral = fps_of_ms(s.integral_1_ms);
    f.low01_integral = fps_of_ms(s.integral_01_ms);
    return f;
}

std::size_t capframex_window(double mean_ms) {
    if (!(mean_ms > 0))
        return 1;
    // Convert.ToInt32 rounds half to even, as nearbyint does in the default rounding mode.
    const auto w = static_cast<std::size_t>(std::nearbyint(10.0 * std::sqrt(mean_ms)));
    return std::max<std::size_t>(1, w);
}

namespace {

// The stutter rules over the series, `greater(a, b, c, d)` deciding whether a·b > c·d.
template <class Greater>
void capframex_rules(std::span<const std::int64_t> frame_ns, std::int64_t total,
                     CapFrameXStutter& r, Greater greater) {
    const auto n = static_cast<std::uint64_t>(frame_ns.size());
    const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
    // Count share: ft > 2.5 × total / n, i.e. 2·n·ft > 5·total.
    for (const std::int64_t ft : frame_ns) {
        if (greater(2 * n, u(ft), 5, u(total)))
            ++r.above_mean;
    }
    // The values the moving average sees: a sample over 3 × its predecessor counts as the
    // predecessor (the first sample has none and counts as itself). Formed on the fly, as the
    // window takes a sample in and as it lets it go, rather than stored.
    const auto averaged = [&](std::size_t i) {
        return i > 0 && greater(1, u(frame_ns[i]), 3, u(frame_ns[i - 1])) ? frame_ns[i - 1]
                                                                          : frame_ns[i];
    };
    std::int64_t window_sum = 0;  // sum of averaged[i - k + 1 .. i]
    std::size_t k = 0;
    for (std::size_t i = 0; i < frame_ns.size(); ++i) {
        window_sum += averaged(i);
        if (k < r.window) {
            ++k;
        } else {
            window_sum -= averaged(i - r.window);
        }
        if (greater(2 * k, u(frame_ns[i]), 5, u(window_sum))) {
            r.frames.push_back(i);
            r.stutter_ns += frame_ns[i];
        } else if (frame_ns[i] > kCapFrameXLowFpsNs) {
            r.low_fps_ns += frame_ns[i];
        }
    }
}

}  // namespace

CapFrameXStutter capframex_stutter(std::span<const std::int64_t> frame_ns) {
    CapFrameXStutter r;
    if (frame_ns.empty())
        return r;
    const std::int64_t total = std::accumulate(frame_ns.begin(), frame_ns.end(), std::int64_t{0});
    const auto n = static_cast<std::int64_t>(frame_ns.size());
    r.window = capframex_window(ns_to_ms(static_cast<double>(total) / static_cast<double>(n)));
    // Every product the rules form is at most 5 · max(n, window) · the longest frame (a window's
    // sum, and the total, are at most that many frames). When that fits in 64 bits, as it does
    // for any real capture, plain products decide exactly what compare_products decides, at a
    // fraction of its cost; the comparison's resamples run these rules 400 times.
    const auto [shortest, longest] = std::minmax_element(frame_ns.begin(), frame_ns.end());
    const std::uint64_t factor =
        5 * static_cast<std::uint64_t>(std::max<std::size_t>(frame_ns.size(), r.window)) + 5;
    if (*shortest >= 0 && static_cast<std::uint64_t>(*longest) <= UINT64_MAX / factor) {
        capframex_rules(frame_ns, total, r,
                        [](std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
                            return a * b > c * d;
                        });
    } else {
        capframex_rules(frame_ns, total, r,
                        [](std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
                            return compare_products(a, b, c, d) > 0;
                        });
    }
    r.count_share = static_cast<double>(r.above_mean) / static_cast<double>(n);
    r.time_share = total > 0 ? static_cast<double>(r.stutter_ns) / static_cast<double>(total) : 0;
    return r;
}

UnrealHitches unreal_hitches(std::span<const std::int64_t> frame_ns,
                             std::span<const std::int64_t> start_ns) {
    UnrealHitches r;
    std::int64_t t = 0;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < frame_ns.size(); ++i) {
        const std::int64_t ft = frame_ns[i];
        const std::int64_t start = start_ns.size() == frame_ns.size() ? start_ns[i] : t;
        if (i > 0 && ft > kHitchThresholdNs &&
            compare_products(2, static_cast<std::uint64_t>(ft), 3,
                             static_cast<std::uint64_t>(frame_ns[i - 1])) >= 0) {
            Hitch h;
            h.index = i;
            h.start_ns = start;
            h.frame_ns = ft;
            h.previous_ns = frame_ns[i - 1];
            h.next_ns = i + 1 < frame_ns.size() ? frame_ns[i + 1] : -1;
            r.hitches.push_back(h);
            r.hitch_ns += ft;
        }
        t += ft;
        total += ft;
    }
    r.per_minute =
        total > 0 ? static_cast<double>(r.hitches.size()) / (ns_to_s(total) / 60.0) : 0.0;
    return r;
}

VariationBuckets variation_buckets(std::span<const std::int64_t> frame_ns) {
    VariationBuckets b;
    for (std::size_t i = 1; i < frame_ns.size(); ++i) {
        const std::int64_t d = std::llabs(frame_ns[i] - frame_ns[i - 1]);
        std::size_t bucket = kVariationEdgesNs.size();
        for (std::size_t e = 0; e < kVariationEdgesNs.size(); ++e) {
            if (d < kVariationEdgesNs[e]) {
                bucket = e;
                break;
            }
        }
        ++b.counts[bucket];
        ++b.total;
    }
    return b;
}

namespace {

// Whether a frame time lies on the grid of a rate (see frame_stats.hpp), given ft_mod_s = ft mod
// one second, which detect_refresh_rate takes once a frame for all the candidate rates.
bool on_grid(std::int64_t ft, std::int64_t ft_mod_s, std::int64_t rate) {
    // ft·R in ns·Hz; one period is 1e9 of these units. The distance to the nearest whole number
    // k >= 1 of periods is taken from (ft·R) mod 1e9, which never forms ft·R itself (a frame of
    // years times 360 Hz passes the int64 range).
    const std::int64_t m = ft_mod_s * rate % kNsPerS;
    const bool under_half_period = ft < kNsPerS && ft * rate < kNsPerS / 2;  // then k = 1
    const std::int64_t distance =
        under_half_period ? kNsPerS - ft * rate : std::min(m, kNsPerS - m);
    return distance <= kRefreshToleranceNs * rate;
}

}  // namespace

double on_grid_share(std::span<const std::int64_t> frame_ns, int rate_hz) {
    if (frame_ns.empty())
        return 0.0;
    std::size_t on = 0;
    for (const std::int64_t ft : frame_ns)
        on += on_grid(ft, ft % kNsPerS, rate_hz) ? 1 : 0;
    return static_cast<double>(on) / static_cast<double>(frame_ns.size());
}

namespace {

// The first index in [from, end) whose value is not below `value`, searched from `from` in
// steps that double: a cost of the log of the distance, so a walk that mostly moves a little
// stays linear.
std::size_t gallop_lower_bound(std::span<const std::int64_t> sorted, std::size_t from,
                               std::int64_t value) {
    std::size_t step = 1, lo = from, hi = from;
    while (hi < sorted.size() && sorted[hi] < value) {
        lo = hi + 1;
        hi = from + step;
        step *= 2;
    }
    hi = std::min(hi, sorted.size());
    return static_cast<std::size_t>(
        std::lower_bound(sorted.begin() + static_cast<std::ptrdiff_t>(lo),
                         sorted.begin() + static_cast<std::ptrdiff_t>(hi), value) -
        sorted.begin());
}

// Frame times up to this are counted by windows: k·1e9 + tolerance·R stays far inside int64 for
// every k such a frame reaches (k <= 1e16·360/1e9 + 1). Longer ones (over 115 days) one by one.
constexpr std::int64_t kWindowedLimitNs = 10'000'000'000'000'000;
static_assert(kRefreshToleranceNs * 360 < kNsPerS / 2,
              "the windows assume that no frame under half a period is on the grid");

}  // namespace

std::size_t on_grid_count_sorted(std::span<const std::int64_t> sorted_ns, int rate_hz) {
    const std::int64_t rate = rate_hz;
    const std::int64_t reach = kRefreshToleranceNs * rate;  // in ns·Hz
    std::size_t count = 0;
    // Negative values (no reader gives them) and the longest frames, one by one.
    const std::size_t first = gallop_lower_bound(sorted_ns, 0, 0);
    const std::size_t last = gallop_lower_bound(sorted_ns, first, kWindowedLimitNs + 1);
    for (std::size_t i = 0; i < first; ++i)
        count += on_grid(sorted_ns[i], sorted_ns[i] % kNsPerS, rate_hz) ? 1 : 0;
    for (std::size_t i = last; i < sorted_ns.size(); ++i)
        count += on_grid(sorted_ns[i], sorted_ns[i] % kNsPerS, rate_hz) ? 1 : 0;
    // The rest by windows: ft is on the grid of k when k·1e9 − reach <= ft·R <= k·1e9 + reach,
    // that is lo(k) <= ft <= hi(k) with the bounds rounded inwards. Each step counts the frames
    // in the window of the next frame's nearest k, or jumps to the next window's first frame.
    const auto lo = [&](std::int64_t k) { return (k * kNsPerS - reach + rate - 1) / rate; };
    const auto hi = [&](std::int64_t k) { return (k * kNsPerS + reach) / rate; };
    std::size_t i = first;
    while (i < last) {
        const std::int64_t ft = sorted_ns[i];
        std::int64_t k = std::max<std::int64_t>(1, ft * rate / kNsPerS);
        while (hi(k) < ft)
            ++k;
        if (ft < lo(k)) {
            i = gallop_lower_bound(sorted_ns.first(last), i, lo(k));
            continue;
        }
        const std::size_t end = gallop_lower_bound(sorted_ns.first(last), i, hi(k) + 1);
        count += end - i;
        i = end;
    }
    return count;
}

RefreshGuess detect_refresh_rate(std::span<const std::int64_t> frame_ns) {
    std::vector<std::int64_t> sorted(frame_ns.begin(), frame_ns.end());
    sort_ns(sorted);
    return detect_refresh_rate_sorted(sorted);
}

RefreshGuess detect_refresh_rate_sorted(std::span<const std::int64_t> sorted_ns) {
    // Counted by windows of the sorted values: frame times gather near a few multiples of a
    // period, so each candidate takes a few searches where a test of every frame against every
    // candidate was the dearest step of a report (15 % of the CPU of a 3M-row report).
    std::array<std::size_t, kRefreshCandidatesHz.size()> on{};
    for (std::size_t c = 0; c < kRefreshCandidatesHz.size(); ++c)
        on[c] = on_grid_count_sorted(sorted_ns, kRefreshCandidatesHz[c]);
    RefreshGuess g;
    if (sorted_ns.empty())
        return g;  // absent: no_candidate
    const auto share_of = [&](std::size_t c) {
        return static_cast<double>(on[c]) / static_cast<double>(sorted_ns.size());
    };
    // The best grid beyond chance (2·0.5 ms·R / 1 s of the intervals land on it by luck), for
    // the reason given when no grid explains the intervals.
    double best_excess = 0;
    for (std::size_t c = 0; c < kRefreshCandidatesHz.size(); ++c) {
        const int rate = kRefreshCandidatesHz[c];
        const double chance = 2.0 * static_cast<double>(kRefreshToleranceNs) * rate / 1e9;
        if (share_of(c) - chance > best_excess) {
            best_excess = share_of(c) - chance;
            g.best_rate_hz = rate;
            g.best_on_grid_share = share_of(c);
        }
    }
    g.absent = RefreshGuess::Absent::off_grid;
    // Every interval on a rate's grid is on the grid of each multiple of it. A rate is not taken
    // when one of its multiples explains more of the intervals than chance alone would add
    // (its chance share of those off the rate's grid) plus kRefreshMaxExceptionShare: those are
    // the exceptions (a 30 FPS game's 8.3 ms intervals on a 120 Hz display), which the display's
    // grid explains too.
    const auto explains_its_exceptions = [&](std::size_t c) {
        const int rate = kRefreshCandidatesHz[c];
        for (std::size_t m = c + 1; m < kRefreshCandidatesHz.size(); ++m) {
            const int multiple = kRefreshCandidatesHz[m];
            if (multiple % rate != 0)
                continue;
            const double chance = 2.0 * static_cast<double>(kRefreshToleranceNs) * multiple / 1e9;
            if (share_of(m) - share_of(c) >
                kRefreshMaxExceptionShare + (1.0 - share_of(c)) * chance)
                return false;
        }
        return true;
    };
    for (std::size_t c = 0; c < kRefreshCandidatesHz.size(); ++c) {
        if (share_of(c) < 1.0 - kRefreshMaxOffGridShare)
            continue;
        const int rate = kRefreshCandidatesHz[c];
        if (g.rate_hz == 0 && !explains_its_exceptions(c))
            continue;
        if (g.rate_hz == 0) {
            g.rate_hz = rate;
            g.on_grid_share = share_of(c);
            g.state = RefreshGuess::State::fixed;
            g.absent = RefreshGuess::Absent::no;
        } else if (rate % g.rate_hz != 0) {
            g.also_fits_hz.push_back(rate);
        }
    }
    return g;
}

const char* refresh_state_name(RefreshGuess::State state) {
    switch (state) {
        case RefreshGuess::State::fixed:
            return "fixed";
        case RefreshGuess::State::follows_presents:
            return "follows_presents";
        case RefreshGuess::State::unknown:
            break;
    }
    return "unknown";
}

RefreshGuess classify_refresh(RefreshGuess grid, std::span<const std::int64_t> display_ns,
                              std::span<const std::int64_t> frame_ns,
                              std::span<const std::uint8_t> present_mode,
                              std::span<const std::uint8_t> waits_for_vblank,
                              std::span<const std::uint8_t> tearing) {
    RefreshGuess g = std::move(grid);
    const auto share = [](std::size_t part, std::size_t whole) {
        return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
    };
    if (!display_ns.empty() && display_ns.size() == frame_ns.size()) {
        std::size_t shown = 0, follows = 0;
        for (std::size_t i = 0; i < display_ns.size(); ++i) {
            if (display_ns[i] < 0 || frame_ns[i] < 0)
                continue;
            ++shown;
            // |d − f| <= tolerance without forming d − f (both may reach the int64 range).
            const std::int64_t hi = std::max(display_ns[i], frame_ns[i]);
            const std::int64_t lo = std::min(display_ns[i], frame_ns[i]);
            follows += hi - lo <= kRefreshFollowToleranceNs ? 1 : 0;
        }
        if (shown > 0)
            g.follows_share = share(follows, shown);
    }
    if (!present_mode.empty()) {
        g.direct_share = share(static_cast<std::size_t>(std::count(
                                   present_mode.begin(), present_mode.end(), kPresentModeDirect)),
                               present_mode.size());
    }
    const auto follow = [&](RefreshGuess::Absent why) {
        g.state = RefreshGuess::State::follows_presents;
        g.absent = why;
        g.rate_hz = 0;
        g.on_grid_share = 0;
        g.also_fits_hz.clear();
        return g;
    };
    if (!tearing.empty()) {
        g.tearing_share =
            share(static_cast<std::size_t>(std::count(tearing.begin(), tearing.end(), 1)),
                  tearing.size());
        if (g.tearing_share >= kRefreshMaxTearingShare)
            return follow(RefreshGuess::Absent::tearing);
    }
    const bool follows = g.follows_share >= kRefreshMinFollowShare;
    const double vblank_share =
        waits_for_vblank.empty() ? 0.0
                                 : share(static_cast<std::size_t>(std::count(
                                             waits_for_vblank.begin(), waits_for_vblank.end(), 1)),
                                         waits_for_vblank.size());
    if (g.direct_share >= 0.5 && vblank_share < 0.5 && follows)
        return follow(RefreshGuess::Absent::follows);
    if (g.state == RefreshGuess::State::fixed)
        return g;
    // The desktop compositor flips at its refresh: composed frames never follow the presents,
    // however close their intervals come to the presents' (composition jitter spreads them).
    const std::size_t composed = static_cast<std::size_t>(
        std::count(present_mode.begin(), present_mode.end(), kPresentModeComposed));
    if (follows && share(composed, present_mode.size()) < 0.5)
        return follow(RefreshGuess::Absent::follows);
    g.state = RefreshGuess::State::unknown;
    return g;
}

DisplayFigures display_figures(std::span<const std::int64_t> display_ns,
                               std::span<const std::uint8_t> dropped,
                               std::span<const std::int64_t> animation_error_ns,
                               std::span<const std::uint8_t> animation_error_known,
                               std::vector<std::int64_t>* sorted_displayed_ns) {
    DisplayFigures d;
    if (display_ns.empty())
        return d;
    d.available = true;
    std::vector<std::int64_t> shown;
    shown.reserve(display_ns.size());
    for (std::size_t i = 0; i < display_ns.size(); ++i) {
        const bool was_dropped =
            dropped.size() == display_ns.size() ? dropped[i] != 0 : display_ns[i] < 0;
        if (was_dropped)
            ++d.dropped;
        if (!was_dropped && display_ns[i] >= 0)
            shown.push_back(display_ns[i]);
    }
    d.displayed = shown.size();
    d.dropped_share = static_cast<double>(d.dropped) / static_cast<double>(display_ns.size());
    d.between_display_changes = summarize_frame_times_in_place(shown);
    if (sorted_displayed_ns)
        *sorted_displayed_ns = std::move(shown);
    std::vector<std::int64_t> abs_error;
    for (std::size_t i = 0; i < animation_error_ns.size(); ++i) {
        const bool known = animation_error_known.size() != animation_error_ns.size() ||
                           animation_error_known[i] != 0;
        if (known)
            abs_error.push_back(std::llabs(animation_error_ns[i]));
    }
    if (!abs_error.empty()) {
        d.has_animation_error = true;
        const FrameTimeSummary e = summarize_frame_times_in_place(abs_error);
        d.animation_error_mean_abs_ms = e.mean_ms;
        d.animation_error_p99_abs_ms = e.p99_ms;
        d.animation_error_max_abs_ms = e.max_ms;
    }
    return d;
}

CadenceFigures summarise_cadence(std::span<const std::int64_t> intervals, std::size_t frames,
                                 std::int64_t total_ns,
                                 std::span<const std::int64_t> sorted_intervals) {
    CadenceFigures c;
    c.frames = frames;
    c.average_fps = total_ns > 0 ? static_cast<double>(frames) / ns_to_s(total_ns) : 0.0;
    c.interval = summarize_frame_times(intervals, sorted_intervals);
    c.fps = fps_figures(c.interval);
    c.stutter = capframex_stutter(intervals);
    return c;
}

std::vector<std::int64_t> cadence_intervals(std::span<const std::int64_t> frame_ns,
                                            std::span<const std::uint8_t> generated,
                                            bool want_generated) {
    std::vector<std::int64_t> intervals;
    if (generated.size() != frame_ns.size())
        return intervals;
    std::int64_t since_last = 0;
    bool seen = false;
    for (std::size_t i = 0; i < frame_ns.size(); ++i) {
        since_last += frame_ns[i];
        if ((generated[i] != 0) != want_generated)
            continue;
        if (seen)
            intervals.push_back(since_last);
        seen = true;
        since_last = 0;
    }
    return intervals;
}

CadenceFigures cadence_figures(std::span<const std::int64_t> frame_ns,
                               std::span<const std::uint8_t> generated, bool want_generated) {
    if (generated.size() != frame_ns.size())
        return {};
    const auto frames = static_cast<std::size_t>(
        std::count_if(generated.begin(), generated.end(),
                      [&](std::uint8_t g) { return (g != 0) == want_generated; }));
    return summarise_cadence(cadence_intervals(frame_ns, generated, want_generated), frames,
                             std::accumulate(frame_ns.begin(), frame_ns.end(), std::int64_t{0}));
}

std::vector<std::int64_t> application_intervals(std::span<const std::int64_t> app_interval_ns,
                                                std::span<const std::uint8_t> generated) {
    std::vector<std::int64_t> intervals;
    if (generated.size() != app_interval_ns.size())
        return intervals;
    for (std::size_t i = 0; i < app_interval_ns.size(); ++i) {
        if (generated[i] == 0 && app_interval_ns[i] >= 0)
            intervals.push_back(app_interval_ns[i]);
    }
    return intervals;
}

CadenceFigures application_cadence(std::span<const std::int64_t> app_interval_ns,
                                   std::span<const std::uint8_t> generated,
                                   std::span<const std::int64_t> frame_ns) {
    if (generated.size() != app_interval_ns.size())
        return {};
    const auto frames = static_cast<std::size_t>(std::count(generated.begin(), generated.end(), 0));
    return summarise_cadence(application_intervals(app_interval_ns, generated), frames,
                             std::accumulate(frame_ns.begin(), frame_ns.end(), std::int64_t{0}));
}

std::vector<std::int64_t> displayed_intervals(std::span<const std::int64_t> display_ns) {
    std::vector<std::int64_t> intervals;
    for (const std::int64_t d : display_ns) {
        if (d >= 0)
            intervals.push_back(d);
    }
    return intervals;
}

CadenceFigures displayed_cadence(std::span<const std::int64_t> display_ns,
                                 std::span<const std::int64_t> frame_ns) {
    const auto intervals = displayed_intervals(display_ns);
    return summarise_cadence(intervals, intervals.size(),
                             std::accumulate(frame_ns.begin(), frame_ns.end(), std::int64_t{0}));
}

namespace {

// The k-peaks among `candidates` (ascending): a k-peak stands out of every other known value
// within k − 1 frames by 1/20 of its own (rounded up, so a peak is always strictly above),
// compared without products. A (k+1)-peak is a k-peak (its window holds the k-peak's), so the
// peaks of one period are the candidates of the next.
std::vector<std::size_t> peaks_of(std::span<const std::int64_t> values_ns, std::size_t k,
                                  std::span<const std::size_t> candidates, bool all) {
    const std::size_t n = values_ns.size();
    const auto is_peak = [&](std::size_t i) {
        const std::int64_t v = values_ns[i];
        if (v <= 0)
            return false;
        const std::int64_t margin =
            v / kGenerationContrastDivisor + (v % kGenerationContrastDivisor != 0 ? 1 : 0);
        for (std::size_t j = i + 1 - k; j <= i + k - 1; ++j) {
            if (j == i)
                continue;
            if (values_ns[j] < 0 || v - values_ns[j] < margin)
                return false;
        }
        return true;
    };
    std::vector<std::size_t> peaks;
    if (all) {
        for (std::size_t i = k - 1; i + k - 1 < n; ++i) {
            if (is_peak(i))
                peaks.push_back(i);
        }
    } else {
        for (const std::size_t i : candidates) {
            if (i >= k - 1 && i + k - 1 < n && is_peak(i))
                peaks.push_back(i);
        }
    }
    return peaks;
}

// The evidence of one period from its peaks. Two peaks are never closer than k frames (each
// would stand out of the other), so a chain is a run of peaks k apart in the ascending list.
GenerationEvidence evidence_of(std::string name, std::span<const std::int64_t> values_ns,
                               std::size_t k, std::size_t known_frames,
                               std::span<const std::size_t> peaks) {
    GenerationEvidence e;
    e.column = std::move(name);
    e.period = static_cast<int>(k);
    e.known_frames = known_frames;
    // The frames the chains long enough cover, as ascending ranges that may overlap.
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    for (std::size_t p = 0; p < peaks.size();) {
        std::size_t q = p;
        while (q + 1 < peaks.size() && peaks[q + 1] == peaks[q] + k)
            ++q;
        const std::size_t first_frame = peaks[p] + 1 - k, last_frame = peaks[q] + k - 1;
        const std::size_t frames = last_frame - first_frame + 1;
        if (frames >= kGenerationMinRunFrames) {
            ++e.cycles;
            e.longest_cycle_frames = std::max(e.longest_cycle_frames, frames);
            e.peaks.push_back(peaks[p]);
            e.chain_peaks.push_back(q - p + 1);
            ranges.emplace_back(first_frame, last_frame);
        }
        p = q + 1;
    }
    double peak_sum = 0, other_sum = 0;
    std::size_t peak_count = 0, other_count = 0;
    std::size_t next_peak = 0, from = 0;
    for (const auto& [first, last] : ranges) {
        for (std::size_t i = std::max(first, from); i <= last; ++i) {
            ++e.covered_frames;
            while (next_peak < peaks.size() && peaks[next_peak] < i)
                ++next_peak;
            if (next_peak < peaks.size() && peaks[next_peak] == i) {
                peak_sum += ns_to_ms(values_ns[i]);
                ++peak_count;
            } else {
                other_sum += ns_to_ms(values_ns[i]);
                ++other_count;
            }
        }
        from = std::max(from, last + 1);
    }
    e.share = static_cast<double>(e.covered_frames) / static_cast<double>(e.known_frames);
    e.peak_mean_ms = peak_count ? peak_sum / static_cast<double>(peak_count) : 0.0;
    e.other_mean_ms = other_count ? other_sum / static_cast<double>(other_count) : 0.0;
    e.shows_generation =
        e.known_frames >= kGenerationMinKnownFrames && e.share >= kGenerationMinShare;
    return e;
}

std::size_t known_count(std::span<const std::int64_t> values_ns) {
    return static_cast<std::size_t>(
        std::count_if(values_ns.begin(), values_ns.end(), [](std::int64_t v) { return v >= 0; }));
}

}  // namespace

GenerationEvidence generation_evidence(std::string name, std::span<const std::int64_t> values_ns,
                                       int period) {
    const auto k = static_cast<std::size_t>(period);
    const std::size_t known = known_count(values_ns);
    if (values_ns.size() < 2 * k + 1 || known == 0) {
        GenerationEvidence e;
        e.column = std::move(name);
        e.period = period;
        e.known_frames = known;
        return e;
    }
    return evidence_of(std::move(name), values_ns, k, known, peaks_of(values_ns, k, {}, true));
}

GenerationDetection detect_frame_generation(std::span<const GenerationColumn> columns,
                                            std::span<const std::int64_t> frame_ns,
                                            int refresh_hz) {
    GenerationDetection d;
    for (const GenerationColumn& c : columns) {
        if (c.values_ns.size() != frame_ns.size())
            continue;
        GenerationEvidence best;
        bool have = false;
        const int max_period = c.present_intervals ? kGenerationMaxPeriod : 2;
        const std::size_t known = known_count(c.values_ns);
        std::vector<std::size_t> peaks;
        for (int k = 2; k <= max_period; ++k) {
            if (known < kGenerationMinKnownFrames)
                break;
            const auto period = static_cast<std::size_t>(k);
            GenerationEvidence e;
            if (c.values_ns.size() < 2 * period + 1) {
                e = generation_evidence(c.name, c.values_ns, k);
            } else {
                peaks = peaks_of(c.values_ns, period, peaks, k == 2);
                e = evidence_of(c.name, c.values_ns, period, known, peaks);
            }
            if (c.present_intervals && refresh_hz > 0 && e.covered_frames > 0) {
                // Presents that wait for a fixed refresh alternate whole periods by themselves.
                std::vector<std::int64_t> covered;
                for (std::size_t p = 0; p < e.peaks.size(); ++p) {
                    const std::size_t first = e.peaks[p] + 1 - static_cast<std::size_t>(k);
                    const std::size_t last = e.peaks[p] +
                                             (e.chain_peaks[p] - 1) * static_cast<std::size_t>(k) +
                                             static_cast<std::size_t>(k) - 1;
                    for (std::size_t f = first; f <= last; ++f)
                        covered.push_back(c.values_ns[f]);
                }
                e.covered_on_grid_share = on_grid_share(covered, refresh_hz);
                if (e.covered_on_grid_share >= kGenerationMaxOnGridShare) {
                    e.on_refresh_grid = true;
                    e.shows_generation = false;
                }
            }
            if (!have || (e.shows_generation && !best.shows_generation) ||
                (e.shows_generation == best.shows_generation && e.share > best.share)) {
                best = std::move(e);
                have = true;
            }
        }
        if (have) {
            best.decisive = c.decisive;
            d.evidence.push_back(std::move(best));
        }
    }
    d.examined = !d.evidence.empty();
    std::stable_sort(d.evidence.begin(), d.evidence.end(),
                     [](const GenerationEvidence& a, const GenerationEvidence& b) {
                         if (a.shows_generation != b.shows_generation)
                             return a.shows_generation;
                         return a.share > b.share;
                     });
    if (!d.examined || !d.evidence.front().shows_generation)
        return d;
    const auto decisive =
        std::find_if(d.evidence.begin(), d.evidence.end(),
                     [](const GenerationEvidence& e) { return e.shows_generation && e.decisive; });
    if (decisive == d.evidence.end()) {
        d.possible = true;
        return d;
    }
    std::rotate(d.evidence.begin(), decisive, decisive + 1);
    d.detected = true;
    const GenerationEvidence& e = d.evidence.front();
    d.period = e.period;
    d.estimated_frames = e.covered_frames;
    const auto k = static_cast<std::size_t>(e.period);
    for (std::size_t p = 0; p < e.peaks.size(); ++p) {
        // Frame j's time ends at present j: from one peak's present to the next is the sum of
        // the k frame times after the first peak up to the second.
        for (std::size_t m = 1; m < e.chain_peaks[p]; ++m) {
            const std::size_t from = e.peaks[p] + (m - 1) * k + 1;
            // Saturated: frame times of centuries are accepted, and k of them pass int64.
            std::int64_t interval = 0;
            for (std::size_t f = from; f < from + k; ++f) {
                interval = frame_ns[f] > std::numeric_limits<std::int64_t>::max() - interval
                               ? std::numeric_limits<std::int64_t>::max()
                               : interval + frame_ns[f];
            }
            d.application_intervals_ns.push_back(interval);
        }
    }
    return d;
}

OrderFigures order_figures(std::span<const std::int64_t> frame_ns,
                           std::span<const std::int64_t> start_ns) {
    return {capframex_stutter(frame_ns), unreal_hitches(frame_ns, start_ns),
            variation_buckets(frame_ns)};
}

FrameStats compute_frame_stats(OrderFigures order, std::span<const std::int64_t> frame_ns,
                               std::span<const std::int64_t> sorted_ns, bool with_refresh) {
    FrameStats s;
    s.frame_time = summarize_frame_times(frame_ns, sorted_ns);
    s.fps = fps_figures(s.frame_time);
    s.stutter = std::move(order.stutter);
    s.hitches = std::move(order.hitches);
    s.variation = std::move(order.variation);
    if (with_refresh)
        s.refresh = detect_refresh_rate_sorted(sorted_ns);
    return s;
}

FrameStats compute_frame_stats(std::span<const std::int64_t> frame_ns,
                               std::span<const std::int64_t> start_ns, bool with_refresh,
                               std::span<const std::int64_t> sorted_ns, unsigned threads) {
    threads = threads_or_hardware(threads);
    OrderFigures order;
    std::vector<std::int64_t> own_sorted;
    run_beside(
        threads > 1 && frame_ns.size() >= kFramesForSecondThread,
        [&] { order = order_figures(frame_ns, start_ns); },
        [&] {
            if (sorted_ns.size() != frame_ns.size()) {
                own_sorted.assign(frame_ns.begin(), frame_ns.end());
                sort_ns(own_sorted);
                sorted_ns = own_sorted;
            }
        });
    return compute_frame_stats(std::move(order), frame_ns, sorted_ns, with_refresh);
}

}  // namespace loopscope
