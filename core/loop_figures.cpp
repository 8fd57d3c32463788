// Loop figures from frame records: see loop_figures.hpp for the definitions.
#include "core/loop_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/duration.hpp"
#include "core/loop_scenarios.hpp"
#include "core/units.hpp"

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

std::string_view loop_state_name(LoopState state) {
    switch (state) {
        case LoopState::saturated:
            return "saturated";
        case LoopState::spiral:
            return "spiral";
        default:
            return "ok";
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
}

void LoopFiguresBuilder::AfterOnset::add(const Slot& s) {
    ++frames;
    sim_ns = saturating_add_ns(sim_ns, s.sim_ns);
    real_ns = saturating_add_ns(real_ns, s.raw_ns);
    if (s.step_cost_ns > 0) {
        step_cost_ns = saturating_add_ns(step_cost_ns, s.step_cost_ns);
        cost_steps += s.steps;
    }
    other_ns = saturating_add_ns(other_ns, s.other_ns);
    clamp_lost_ns = saturating_add_ns(clamp_lost_ns, s.clamp_lost_ns);
    cap_dropped_ns = saturating_add_ns(cap_dropped_ns, s.cap_dropped_ns);
    engaged_frames += s.engaged ? 1 : 0;
}

void LoopFiguresBuilder::add(const FrameRecord& r) {
    const std::int64_t i = f_.frames++;
    const std::int64_t sim_ns = frame_sim_ns(r, config_);
    f_.real_ns = saturating_add_ns(f_.real_ns, r.raw_ns);
    f_.sim_ns = saturating_add_ns(f_.sim_ns, sim_ns);
    f_.steps += r.steps;
    f_.max_steps_per_frame = std::max(f_.max_steps_per_frame, r.steps);
    ++f_.steps_histogram[r.steps];
    if (f_.has_accumulator) {
        f_.acc_min_ns = std::min(f_.acc_min_ns, r.acc_after_ns);
        f_.acc_max_ns = std::max(f_.acc_max_ns, r.acc_after_ns);
        // Clamped before the conversion: a trace from elsewhere may hold any finite alpha, and
        // converting one past the int range is undefined.
        const int bin = static_cast<int>(std::clamp(r.alpha * 10.0, 0.0, 9.0));
        ++f_.alpha_bins[static_cast<std::size_t>(bin)];
        alpha_total_ += r.alpha;
        f_.alpha_min = std::min(f_.alpha_min, r.alpha);
        f_.alpha_max = std::max(f_.alpha_max, r.alpha);
    }
    f_.clamp_lost_ns = saturating_add_ns(f_.clamp_lost_ns, r.clamp_lost_ns);
    f_.cap_dropped_ns = saturating_add_ns(f_.cap_dropped_ns, r.cap_dropped_ns);
    if (r.clamp_lost_ns > 0)
        ++f_.clamp_frames;
    if (r.cap_dropped_ns > 0)
        ++f_.cap_frames;
    const bool engaged = r.clamp_lost_ns > 0 || r.cap_dropped_ns > 0;
    if (engaged) {
        ++f_.engagement_frames;
        if (f_.engagements.size() < max_engagements_)
            f_.engagements.push_back({r.frame, r.start_ns, r.clamp_lost_ns, r.cap_dropped_ns});
    }
    if (r.step_cost_ns > 0) {
        f_.has_step_costs = true;
        cost_steps_ += r.steps;
        cost_total_ = saturating_add_ns(cost_total_, r.step_cost_ns);
    }
    // What the frame spent besides the previous frame's steps and wait: render, input, present.
    // Frame 0 has no previous frame, so its time is no frame time.
    const std::int64_t other_ns = i == 0 ? 0 : r.raw_ns - previous_spent_ns_;
    other_total_ns_ = saturating_add_ns(other_total_ns_, other_ns);
    previous_spent_ns_ = r.step_cost_ns + r.wait_ns;

    // The simulation time owed at this frame: what it must step plus all the time the guards
    // have thrown away so far. Dropping time does not pay a debt off.
    dropped_sim_ns_ += static_cast<double>(r.clamp_lost_ns) * config_.timescale;
    const std::int64_t owed_ns = f_.has_accumulator ? r.acc_before_ns : r.consumed_ns;
    Slot& s = ring_[static_cast<std::size_t>(i % ring_size_)];
    s = Slot{static_cast<double>(owed_ns) + dropped_sim_ns_,
             r.step_cost_ns,
             r.steps,
             sim_ns,
             r.raw_ns,
             other_ns,
             r.clamp_lost_ns,
             r.cap_dropped_ns,
             r.frame,
             r.start_ns,
             engaged};
    dropped_sim_ns_ += static_cast<double>(r.cap_dropped_ns);

    if (f_.onset_frame)
        after_.add(s);
    window_cost_ns_ += r.step_cost_ns;
    window_steps_ += r.steps;
    window_engaged_ += engaged ? 1 : 0;
    if (i >= f_.window) {
        const Slot& gone = slot(i - f_.window);
        window_cost_ns_ -= gone.step_cost_ns;
        window_steps_ -= gone.steps;
        window_engaged_ -= gone.engaged ? 1 : 0;
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
    if (mean && (!worst_window_mean_ || *mean > *worst_window_mean_))
        worst_window_mean_ = mean;
    if (f_.onset_frame)
        return;

    const double before = start == 0 ? 0.0 : slot(start - 1).backlog;
    const std::int64_t last = start + w - 1;
    const bool grows = slot(last).backlog > before;
    const bool guards_persist = window_engaged_ * 2 >= w;
    const bool steps_too_dear = mean && *mean >= f_.spiral_threshold_ns;
    if (!grows || !(guards_persist || steps_too_dear))
        return;
    // The growth that lasts begins at the first frame from which the backlog stays above every
    // backlog before it in the window (the frame before the window included): the frames before
    // it are a plateau, however noisy, not the trouble. Should no frame qualify (an early peak
    // the window's end does not pass), the growth begins after the window's last lowest backlog.
    const auto n = static_cast<std::size_t>(w);
    suffix_min_.resize(n);
    for (std::size_t j = n; j-- > 0;) {
        const double b = slot(start + static_cast<std::int64_t>(j)).backlog;
        suffix_min_[j] = j + 1 < n ? std::min(b, suffix_min_[j + 1]) : b;
    }
    std::optional<std::int64_t> onset;
    double highest_before = before;
    for (std::size_t j = 0; j < n && !onset; ++j) {
        if (suffix_min_[j] > highest_before)
            onset = start + static_cast<std::int64_t>(j);
        highest_before =
            std::max(highest_before, slot(start + static_cast<std::int64_t>(j)).backlog);
    }
    if (!onset) {
        std::int64_t lowest = start - 1;
        double lowest_backlog = before;
        for (std::int64_t k = start; k <= last; ++k) {
            if (slot(k).backlog <= lowest_backlog) {
                lowest_backlog = slot(k).backlog;
                lowest = k;
            }
        }
        onset = lowest + 1;  // <= last, as the last frame's backlog is higher than before
    }
    f_.onset_frame = slot(*onset).frame;
    f_.onset_ns = slot(*onset).start_ns;
    for (std::int64_t k = *onset; k <= last; ++k)
        after_.add(slot(k));
}

namespace {

double ratio(std::int64_t num, std::int64_t den) {
    return den > 0 ? static_cast<double>(num) / static_cast<double>(den) : 0.0;
}

std::string ms_text(double ns) {
    return fmt::format("{:.3f} ms", ns / 1e6);
}

std::string s_text(double ns) {
    return fmt::format("{:.3f} s", ns / 1e9);
}

}  // namespace

// The state, the cause and the headroom from the sums gathered so far.
void LoopFiguresBuilder::describe_verdict(LoopFigures& f) const {
    const double budget = f.spiral_threshold_ns;
    const std::string budget_text =
        std::isfinite(budget) ? ms_text(budget) : std::string("unbounded (timescale 0)");
    const bool has_cap = f.has_accumulator && config_.max_steps > 0;
    f.other_ns = std::max(0.0, ratio(other_total_ns_, f.frames - 1));

    if (f.onset_frame) {
        f.onset_other_ns = std::max(0.0, ratio(after_.other_ns, after_.frames));
        f.onset_step_cost_ns = ratio(after_.step_cost_ns, after_.cost_steps);
        const bool dear = after_.cost_steps > 0 && f.onset_step_cost_ns >= budget;
        // A loop the guards never held can only have fallen behind through its steps.
        f.state = dear || after_.engaged_frames == 0 ? LoopState::spiral : LoopState::saturated;
        const std::string held =
            after_.engaged_frames > 0
                ? fmt::format("; the guards engaged on {} of the {} frames from the onset on",
                              after_.engaged_frames, after_.frames)
                : "; no guard engaged, so the frame time grows without bound";
        if (f.state == LoopState::spiral) {
            f.cause = after_.cost_steps > 0
                          ? fmt::format(
                                "a step costs {} from the onset on, at least dt / "
                                "timescale = {}: no number of steps can catch up{}",
                                ms_text(f.onset_step_cost_ns), budget_text, held)
                          : fmt::format("the backlog grows without a guard engaging{}", held);
        } else if (static_cast<double>(after_.cap_dropped_ns) >=
                   static_cast<double>(after_.clamp_lost_ns) * config_.timescale) {
            const double per_step = budget - f.onset_step_cost_ns;
            const std::string need =
                per_step > 0 ? fmt::format("{:.1f}", f.onset_other_ns / per_step) : "unbounded";
            f.cause = fmt::format(
                "render and other time {} a frame needs {} steps a frame to keep up (r / (dt / "
                "timescale - step cost) = {} / ({} - {})) against a cap of {}; the cap dropped "
                "{} of simulation time on {} of the {} frames from the onset on",
                ms_text(f.onset_other_ns), need, ms_text(f.onset_other_ns), budget_text,
                ms_text(f.onset_step_cost_ns), config_.max_steps, s_text(after_.cap_dropped_ns),
                after_.engaged_frames, after_.frames);
        } else {
            f.cause = fmt::format(
                "frames longer than the {} clamp: it dropped {} of real time on {} of the {} "
                "frames from the onset on",
                ms_text(static_cast<double>(config_.clamp_ns)), s_text(after_.clamp_lost_ns),
                after_.engaged_frames, after_.frames);
        }
    } else if (f.frames < f.window) {
        f.cause = fmt::format("fewer than {} frames and no trouble among them", f.window);
    } else if (!f.has_step_costs) {
        f.cause = fmt::format(
            "the backlog stayed bounded and the guards engaged on {} of {} frames (never on "
            "half of a {}-frame window); no step costs recorded",
            f.engagement_frames, f.frames, f.window);
    } else {
        f.cause = fmt::format(
            "a step costs {} (highest {}-frame mean {}) against dt / timescale = {}; the "
            "guards engaged on {} of {} frames (never on half of a {}-frame window)",
            ms_text(f.mean_step_cost_ns), f.window, ms_text(worst_window_mean_.value_or(0)),
            budget_text, f.engagement_frames, f.frames, f.window);
    }

    if (!f.has_step_costs || f.frames < f.window || !worst_window_mean_)
        return;
    f.worst_window_step_cost_ns = worst_window_mean_;
    f.step_cost_limit_ns =
        has_cap ? budget - f.other_ns / static_cast<double>(config_.max_steps) : budget;
    f.headroom_ns = f.step_cost_limit_ns - *worst_window_mean_;
    f.headroom_formula =
        has_cap ? fmt::format(
                      "dt / timescale - r / cap - c = {} - {} / {} - {} (r: mean other "
                      "time a frame; c: highest {}-frame mean step cost)",
                      budget_text, ms_text(f.other_ns), config_.max_steps,
                      ms_text(*worst_window_mean_), f.window)
                : fmt::format(
                      "dt / timescale - c = {} - {} (c: highest {}-frame mean step "
                      "cost; no step cap)",
                      budget_text, ms_text(*worst_window_mean_), f.window);
}

LoopFigures LoopFiguresBuilder::figures() const {
    if (!f_.onset_frame && f_.frames > 0 && f_.frames < f_.window) {
        // A run shorter than one window (one that froze within it, say) is judged as one window
        // of all its frames; the ring holds them all. The headroom still needs a whole window.
        LoopFiguresBuilder whole = *this;
        whole.f_.window = f_.frames;
        whole.evaluate_window(0);
        whole.f_.window = f_.window;
        whole.worst_window_mean_.reset();
        return whole.assemble();
    }
    return assemble();
}

LoopFigures LoopFiguresBuilder::assemble() const {
    LoopFigures f = f_;
    if (f.frames == 0) {
        f.acc_min_ns = f.acc_max_ns = 0;
        f.alpha_min = f.alpha_max = 0;
        f.cause = "no frames";
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
    if (f.onset_frame && after_.real_ns > 0)
        f.slow_motion_factor = ratio(after_.sim_ns, after_.real_ns);
    describe_verdict(f);
    return f;
}

std::string verdict_brief(const LoopFigures& f) {
    if (!f.onset_frame)
        return std::string(loop_state_name(f.state));
    return fmt::format("{} from frame {} at {}", loop_state_name(f.state), *f.onset_frame,
                       format_duration(f.onset_ns.value_or(0)));
}

bool loop_froze(const LoopFigures& f, const LoopConfig& c) {
    const bool unbounded = c.clamp_ns == 0 && (c.max_steps == 0 || !uses_accumulator(c.policy));
    return f.state == LoopState::spiral && unbounded;
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
