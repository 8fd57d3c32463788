// Loop figures from frame records: see loop_figures.hpp for the definitions.
#include "core/loop_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/loop_scenarios.hpp"

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

LoopFiguresBuilder::LoopFiguresBuilder(const LoopConfig& config, std::int64_t window,
                                       std::size_t max_engagements)
    : config_(config), max_engagements_(max_engagements) {
    f_.window = window < 1 ? 1 : window;
    f_.has_accumulator = uses_accumulator(config.policy);
    f_.spiral_threshold_ns = config.timescale > 0
                                 ? static_cast<double>(config.dt_ns) / config.timescale
                                 : std::numeric_limits<double>::infinity();
    f_.acc_min_ns = std::numeric_limits<std::int64_t>::max();
    f_.acc_max_ns = std::numeric_limits<std::int64_t>::min();
    f_.alpha_min = 1.0;
    f_.alpha_max = 0.0;
    ring_size_ = f_.window + 1;
    ring_.resize(static_cast<std::size_t>(ring_size_));
    recent_means_.resize(static_cast<std::size_t>(f_.window));
}

void LoopFiguresBuilder::add(const FrameRecord& r) {
    const std::int64_t i = f_.frames++;
    const std::int64_t sim_ns = frame_sim_ns(r, config_);
    f_.real_ns += r.raw_ns;
    f_.sim_ns += sim_ns;
    f_.steps += r.steps;
    f_.max_steps_per_frame = std::max(f_.max_steps_per_frame, r.steps);
    ++f_.steps_histogram[r.steps];
    if (f_.has_accumulator) {
        f_.acc_min_ns = std::min(f_.acc_min_ns, r.acc_after_ns);
        f_.acc_max_ns = std::max(f_.acc_max_ns, r.acc_after_ns);
        const int bin = std::clamp(static_cast<int>(r.alpha * 10.0), 0, 9);
        ++f_.alpha_bins[static_cast<std::size_t>(bin)];
        alpha_total_ += r.alpha;
        f_.alpha_min = std::min(f_.alpha_min, r.alpha);
        f_.alpha_max = std::max(f_.alpha_max, r.alpha);
    }
    f_.clamp_lost_ns += r.clamp_lost_ns;
    f_.cap_dropped_ns += r.cap_dropped_ns;
    if (r.clamp_lost_ns > 0)
        ++f_.clamp_frames;
    if (r.cap_dropped_ns > 0)
        ++f_.cap_frames;
    if (r.clamp_lost_ns > 0 || r.cap_dropped_ns > 0) {
        ++f_.engagement_frames;
        if (f_.engagements.size() < max_engagements_)
            f_.engagements.push_back({r.frame, r.start_ns, r.clamp_lost_ns, r.cap_dropped_ns});
    }
    if (r.step_cost_ns > 0) {
        f_.has_step_costs = true;
        cost_steps_ += r.steps;
        cost_total_ += r.step_cost_ns;
    }

    // The simulation time owed at this frame: what it must step (the accumulator before
    // stepping, or the frame's whole time for the policies without one) plus all the time the
    // guards have thrown away so far. Dropping time does not pay a debt off.
    dropped_sim_ns_ += static_cast<double>(r.clamp_lost_ns) * config_.timescale;
    const std::int64_t owed_ns = f_.has_accumulator ? r.acc_before_ns : r.consumed_ns;
    Slot& s = ring_[static_cast<std::size_t>(i % ring_size_)];
    s = Slot{static_cast<double>(owed_ns) + dropped_sim_ns_,
             r.step_cost_ns,
             r.steps,
             sim_ns,
             r.raw_ns,
             r.frame,
             r.start_ns};
    dropped_sim_ns_ += static_cast<double>(r.cap_dropped_ns);

    if (f_.onset_frame) {
        after_onset_sim_ns_ += sim_ns;
        after_onset_real_ns_ += r.raw_ns;
        return;
    }
    window_cost_ns_ += r.step_cost_ns;
    window_steps_ += r.steps;
    if (i >= f_.window) {
        const Slot& gone = slot(i - f_.window);
        window_cost_ns_ -= gone.step_cost_ns;
        window_steps_ -= gone.steps;
    }
    if (i + 1 >= f_.window)
        evaluate_window(i + 1 - f_.window);
}

// Window [start, start + window) has just been completed by its last frame.
void LoopFiguresBuilder::evaluate_window(std::int64_t start) {
    const std::int64_t w = f_.window;
    std::optional<double> mean;
    if (window_steps_ > 0)
        mean = static_cast<double>(window_cost_ns_) / static_cast<double>(window_steps_);
    if (start == 0)
        first_window_mean_ = mean;
    // Window start - w ends just before this one begins: it lies wholly before any onset from
    // here on, so it counts towards the headroom.
    std::optional<double>& kept = recent_means_[static_cast<std::size_t>(start % w)];
    if (start >= w && kept && (!worst_settled_ || *kept > *worst_settled_))
        worst_settled_ = kept;
    kept = mean;

    const double before = start == 0 ? 0.0 : slot(start - 1).backlog;
    const std::int64_t last = start + w - 1;
    if (slot(last).backlog > before && mean && *mean > f_.spiral_threshold_ns) {
        f_.onset_frame = slot(start).frame;
        f_.onset_ns = slot(start).start_ns;
        for (std::int64_t k = start; k <= last; ++k) {
            after_onset_sim_ns_ += slot(k).sim_ns;
            after_onset_real_ns_ += slot(k).raw_ns;
        }
        // Windows wholly before the onset; the onset window itself when the onset is frame 0.
        headroom_worst_ = start < w ? first_window_mean_ : worst_settled_;
    }
}

LoopFigures LoopFiguresBuilder::figures() const {
    LoopFigures f = f_;
    if (f.frames == 0) {
        f.acc_min_ns = f.acc_max_ns = 0;
        f.alpha_min = f.alpha_max = 0;
        return f;
    }
    if (f.has_accumulator) {
        f.alpha_mean = alpha_total_ / static_cast<double>(f.frames);
    } else {
        f.acc_min_ns = f.acc_max_ns = 0;
        f.alpha_min = 0;
    }
    if (cost_steps_ > 0) {
        f.mean_step_cost_ns = static_cast<double>(cost_total_) / static_cast<double>(cost_steps_);
    }
    if (f.frames < f.window)
        return f;
    if (f.onset_frame && after_onset_real_ns_ > 0) {
        f.slow_motion_factor =
            static_cast<double>(after_onset_sim_ns_) / static_cast<double>(after_onset_real_ns_);
    }
    if (f.has_step_costs) {
        std::optional<double> worst = headroom_worst_;
        if (!f.onset_frame) {
            // No onset: every window counts, the settled ones and the last `window` of them.
            worst = worst_settled_;
            for (const std::optional<double>& mean : recent_means_) {
                if (mean && (!worst || *mean > *worst))
                    worst = mean;
            }
        }
        if (worst)
            f.headroom_ns = f.spiral_threshold_ns - *worst;
    }
    return f;
}

LoopFigures compute_loop_figures(std::span<const FrameRecord> records, const LoopConfig& config,
                                 std::int64_t window) {
    LoopFiguresBuilder builder(config, window);
    for (const FrameRecord& r : records)
        builder.add(r);
    return builder.figures();
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
