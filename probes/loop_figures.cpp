// Loop figures from frame records: see loop_figures.hpp for the definitions.
#include "probes/loop_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "probes/loop_scenarios.hpp"

namespace loopscope {

std::int64_t frame_sim_ns(const FrameRecord& r, const LoopConfig& config) {
    switch (config.policy) {
        case Policy::naive:
            return r.steps * config.dt_ns;
        case Policy::variable:
        case Policy::semi_fixed:
            return r.consumed_ns;
        default:
            return r.steps * config.dt_ns;
    }
}

LoopFigures compute_loop_figures(std::span<const FrameRecord> records, const LoopConfig& config,
                                 std::int64_t window) {
    LoopFigures f;
    f.window = window < 1 ? 1 : window;
    f.has_accumulator = uses_accumulator(config.policy);
    f.spiral_threshold_ns = config.timescale > 0
                                ? static_cast<double>(config.dt_ns) / config.timescale
                                : std::numeric_limits<double>::infinity();
    const std::size_t n = records.size();
    f.frames = static_cast<std::int64_t>(n);
    if (n == 0)
        return f;

    // Prefix sums: backlog after each frame, step costs and steps, for O(1) windows.
    std::vector<double> backlog(n);
    std::vector<std::int64_t> cost_sum(n + 1, 0);
    std::vector<std::int64_t> steps_sum(n + 1, 0);
    double dropped_sim_ns = 0;  // clamp losses (scaled to simulation time) plus cap drops
    std::int64_t cost_steps = 0;
    std::int64_t cost_total = 0;
    double alpha_total = 0;
    f.acc_min_ns = std::numeric_limits<std::int64_t>::max();
    f.acc_max_ns = std::numeric_limits<std::int64_t>::min();
    f.alpha_min = 1.0;
    f.alpha_max = 0.0;

    for (std::size_t i = 0; i < n; ++i) {
        const FrameRecord& r = records[i];
        f.real_ns += r.raw_ns;
        f.sim_ns += frame_sim_ns(r, config);
        f.steps += r.steps;
        f.max_steps_per_frame = std::max(f.max_steps_per_frame, r.steps);
        ++f.steps_histogram[r.steps];
        if (f.has_accumulator) {
            f.acc_min_ns = std::min(f.acc_min_ns, r.acc_after_ns);
            f.acc_max_ns = std::max(f.acc_max_ns, r.acc_after_ns);
            const int bin = std::clamp(static_cast<int>(r.alpha * 10.0), 0, 9);
            ++f.alpha_bins[static_cast<std::size_t>(bin)];
            alpha_total += r.alpha;
            f.alpha_min = std::min(f.alpha_min, r.alpha);
            f.alpha_max = std::max(f.alpha_max, r.alpha);
        }
        f.clamp_lost_ns += r.clamp_lost_ns;
        f.cap_dropped_ns += r.cap_dropped_ns;
        if (r.clamp_lost_ns > 0)
            ++f.clamp_frames;
        if (r.cap_dropped_ns > 0)
            ++f.cap_frames;
        if (r.clamp_lost_ns > 0 || r.cap_dropped_ns > 0) {
            f.engagements.push_back({r.frame, r.start_ns, r.clamp_lost_ns, r.cap_dropped_ns});
        }
        // The simulation time owed at this frame: what it must step (the accumulator before
        // stepping, or the frame's whole time for the policies without one) plus all the time
        // the guards have thrown away so far. Dropping time does not pay a debt off.
        dropped_sim_ns += static_cast<double>(r.clamp_lost_ns) * config.timescale;
        const std::int64_t owed_ns = f.has_accumulator ? r.acc_before_ns : r.consumed_ns;
        backlog[i] = static_cast<double>(owed_ns) + dropped_sim_ns;
        dropped_sim_ns += static_cast<double>(r.cap_dropped_ns);
        cost_sum[i + 1] = cost_sum[i] + r.step_cost_ns;
        steps_sum[i + 1] = steps_sum[i] + r.steps;
        if (r.step_cost_ns > 0) {
            f.has_step_costs = true;
            cost_steps += r.steps;
            cost_total += r.step_cost_ns;
        }
    }
    if (f.has_accumulator) {
        f.alpha_mean = alpha_total / static_cast<double>(n);
    } else {
        f.acc_min_ns = f.acc_max_ns = 0;
        f.alpha_min = 0;
    }
    if (cost_steps > 0) {
        f.mean_step_cost_ns = static_cast<double>(cost_total) / static_cast<double>(cost_steps);
    }

    const auto w = static_cast<std::size_t>(f.window);
    if (n < w)
        return f;
    auto window_mean_cost = [&](std::size_t s) -> std::optional<double> {
        const std::int64_t steps = steps_sum[s + w] - steps_sum[s];
        if (steps <= 0)
            return std::nullopt;
        return static_cast<double>(cost_sum[s + w] - cost_sum[s]) / static_cast<double>(steps);
    };
    std::size_t onset_index = n;
    for (std::size_t s = 0; s + w <= n; ++s) {
        const double before = s == 0 ? 0.0 : backlog[s - 1];
        const auto mean_cost = window_mean_cost(s);
        if (backlog[s + w - 1] > before && mean_cost && *mean_cost > f.spiral_threshold_ns) {
            onset_index = s;
            f.onset_frame = records[s].frame;
            f.onset_ns = records[s].start_ns;
            std::int64_t sim = 0;
            std::int64_t real = 0;
            for (std::size_t i = s; i < n; ++i) {
                sim += frame_sim_ns(records[i], config);
                real += records[i].raw_ns;
            }
            if (real > 0)
                f.slow_motion_factor = static_cast<double>(sim) / static_cast<double>(real);
            break;
        }
    }

    if (f.has_step_costs) {
        // Windows wholly before the onset; the onset window itself when the onset is frame 0.
        std::optional<double> worst;
        for (std::size_t s = 0; s + w <= std::max(onset_index, w); ++s) {
            if (auto mean = window_mean_cost(s); mean && (!worst || *mean > *worst))
                worst = mean;
        }
        if (worst)
            f.headroom_ns = f.spiral_threshold_ns - *worst;
    }
    return f;
}

TimeAccumulation accumulate_display_frames(double hz, std::int64_t duration_ns) {
    TimeAccumulation acc;
    std::int64_t previous = 0;
    for (std::int64_t k = 1;; ++k) {
        const std::int64_t at = display_refresh_ns(hz, k);
        if (at > duration_ns)
            break;
        acc.add(at - previous);
        previous = at;
    }
    acc.exact_ns = previous;  // the last refresh's instant, not the sum being checked
    return acc;
}

}  // namespace loopscope
