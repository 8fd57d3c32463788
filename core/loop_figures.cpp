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
    ring_size_ = f_.window + 2;  // the window, the frame before it and the frame after it
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

    if (i == 0)
        first_ = r;
    // A step flip with the previous frame marks both; the previous frame is then final.
    if (i > 0) {
        Slot& p = ring_[static_cast<std::size_t>((i - 1) % ring_size_)];
        // Both frames near dt / timescale: frames that straddle the step. A hitch and the burst
        // of short frames after it flip steps too, but they are stutter of their own (the
        // stutter figures), not the step rate meeting the frame rate.
        const auto near_step = [&](std::int64_t raw_ns) {
            const auto ft = static_cast<double>(raw_ns);
            return ft >= 0.5 * f_.spiral_threshold_ns && ft <= 2.0 * f_.spiral_threshold_ns;
        };
        const bool flips = (r.steps == 0 && p.steps >= 2) || (r.steps >= 2 && p.steps == 0);
        if (flips) {
            f_.step_flip_frames += latest_flips_ ? 1 : 2;
            if (near_step(r.raw_ns) && near_step(p.raw_ns)) {
                p.flip = true;
                s.flip = true;
            }
        }
        latest_flips_ = flips;
        aliasing_frame_final(i - 1);
    }
    add_animation_error(r, i);

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

void LoopFiguresBuilder::aliasing_frame_final(std::int64_t last) {
    const std::int64_t w = f_.window;
    window_flips_ += slot(last).flip ? 1 : 0;
    if (last >= w)
        window_flips_ -= slot(last - w).flip ? 1 : 0;
    // A run shorter than a window is judged as one window of all its frames (figures()).
    if (last + 1 >= w &&
        static_cast<double>(window_flips_) >= kStepAliasingWindowShare * static_cast<double>(w)) {
        count_aliasing(last + 1 - w, last);
    }
}

// The step flips of frames [start, last] not counted yet: a window where they persist. The
// stretches run from a counted flip to the last one within a window's length of it.
void LoopFiguresBuilder::count_aliasing(std::int64_t start, std::int64_t last) {
    for (std::int64_t k = std::max(start, aliasing_counted_until_); k <= last; ++k) {
        const Slot& s = slot(k);
        if (!s.flip)
            continue;
        ++f_.step_aliasing_frames;
        f_.aliasing_most_steps = std::max(f_.aliasing_most_steps, s.steps);
        if (s.steps == 0) {
            ++aliasing_zero_frames_;
            aliasing_zero_total_ns_ += static_cast<double>(s.raw_ns);
        } else {
            ++aliasing_multi_frames_;
            aliasing_multi_total_ns_ += static_cast<double>(s.raw_ns);
        }
        if (aliasing_stretch_end_ >= 0 && k - aliasing_stretch_end_ <= f_.window) {
            if (!f_.aliasing_stretches.empty())
                f_.aliasing_stretches.back().last_frame = s.frame;
        } else if (f_.aliasing_stretches.size() < max_engagements_) {
            f_.aliasing_stretches.push_back({s.frame, s.frame});
        } else {
            aliasing_stretch_end_ = -1;  // the list is full: the counts stay exact
            continue;
        }
        aliasing_stretch_end_ = k;
    }
    aliasing_counted_until_ = std::max(aliasing_counted_until_, last + 1);
}

// What a frame shows: interpolation lerps from the previous state to the latest by alpha (one
// step in the past, t - dt + alpha dt), extrapolation predicts ahead (t + alpha dt); both move by
// the same differences, acc_after standing for alpha dt exactly. Without either, the latest
// state (t). The frame renders at its start plus its steps' time.
void LoopFiguresBuilder::add_animation_error(const FrameRecord& r, std::int64_t i) {
    const bool ahead =
        config_.policy == Policy::fixed_interp || config_.policy == Policy::fixed_extrap;
    const std::int64_t shown = saturating_add_ns(f_.sim_ns, ahead ? r.acc_after_ns : 0);
    const std::int64_t render = saturating_add_ns(r.start_ns, r.step_cost_ns);
    if (i > 0) {
        const std::int64_t real = render - previous_render_ns_;
        const std::int64_t real_sim =
            config_.timescale == 1.0 ? real
                                     : std::llround(static_cast<double>(real) * config_.timescale);
        const std::int64_t error = shown - previous_shown_ns_ - real_sim;
        const std::int64_t magnitude = error < 0 ? -error : error;
        ++f_.animation_error_frames;
        animation_error_total_ns_ += static_cast<double>(magnitude);
        f_.animation_error_max_ns = std::max(f_.animation_error_max_ns, magnitude);
        ++animation_error_us_[(magnitude + 500) / 1000];
    }
    previous_shown_ns_ = shown;
    previous_render_ns_ = render;
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
    LoopFiguresBuilder whole = *this;
    if (f_.frames > 0) {
        // The last frame has no next frame: its step flips are final now.
        whole.aliasing_frame_final(f_.frames - 1);
        if (f_.frames < f_.window &&
            static_cast<double>(whole.window_flips_) >=
                kStepAliasingWindowShare * static_cast<double>(f_.frames)) {
            whole.count_aliasing(0, f_.frames - 1);
        }
    }
    if (!f_.onset_frame && f_.frames > 0 && f_.frames < f_.window) {
        // A run shorter than one window (one that froze within it, say) is judged as one window
        // of all its frames; the ring holds them all. The headroom still needs a whole window.
        whole.f_.window = f_.frames;
        whole.evaluate_window(0);
        whole.f_.window = f_.window;
        whole.worst_window_mean_.reset();
    }
    return whole.assemble();
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
    f.step_aliasing_share = ratio(f.step_aliasing_frames, f.frames);
    if (aliasing_zero_frames_ > 0)
        f.aliasing_zero_step_ns =
            aliasing_zero_total_ns_ / static_cast<double>(aliasing_zero_frames_);
    if (aliasing_multi_frames_ > 0) {
        f.aliasing_multi_step_ns =
            aliasing_multi_total_ns_ / static_cast<double>(aliasing_multi_frames_);
    }
    if (f.animation_error_frames > 0) {
        f.animation_error_mean_ns =
            animation_error_total_ns_ / static_cast<double>(f.animation_error_frames);
        // Nearest rank: the smallest error at or under which 99 % of the frames' errors lie.
        const auto rank = static_cast<std::int64_t>(
            std::ceil(0.99 * static_cast<double>(f.animation_error_frames)));
        std::int64_t seen = 0;
        for (const auto& [us, count] : animation_error_us_) {
            seen += count;
            if (seen >= rank) {
                f.animation_error_p99_ns = static_cast<double>(us) * 1e3;
                break;
            }
        }
    }
    describe_verdict(f);
    describe_findings(f);
    return f;
}

namespace {

// The policy's animation error by design: what a frame shows and how that moves.
std::string animation_expectation(const LoopConfig& c) {
    switch (c.policy) {
        case Policy::fixed_interp:
            return "fixed-interp shows t - dt + alpha dt, one step in the past by design: a "
                   "constant offset the differences cancel; each frame moves it by consumed - "
                   "cap_dropped, so the error is 0 but for the clamp, the step cap and the time "
                   "the steps take before the frame renders";
        case Policy::fixed_extrap:
            return "fixed-extrap shows t + alpha dt, predicted ahead: each frame moves it by "
                   "consumed - cap_dropped, so the error is 0 but for the clamp, the step cap and "
                   "the time the steps take before the frame renders";
        case Policy::fixed:
            return "fixed shows t, the latest step: each frame moves it by steps x dt, so every "
                   "frame whose time is not a whole number of steps is off, by up to dt, by "
                   "design";
        case Policy::variable:
        case Policy::semi_fixed:
            return fmt::format(
                "{} shows t, which each frame moves by its consumed time: 0 but for the clamp "
                "and the time the steps take before the frame renders",
                policy_name(c.policy));
        case Policy::naive:
            return "naive moves the simulation one dt a frame whatever the clock: the error is "
                   "dt - the frame time, by design";
    }
    return {};
}

}  // namespace

void LoopFiguresBuilder::describe_findings(LoopFigures& f) const {
    f.animation_error_expected = animation_expectation(config_);
    if (f.step_aliasing_share >= kStepAliasingFindingShare && f.aliasing_zero_step_ns > 0 &&
        f.aliasing_multi_step_ns > 0) {
        const double step_real_ns =
            static_cast<double>(config_.dt_ns) / (config_.timescale > 0 ? config_.timescale : 1.0);
        const std::string dt_text = config_.timescale == 1.0
                                        ? fmt::format("dt ({})", ms_text(step_real_ns))
                                        : fmt::format("dt / timescale ({})", ms_text(step_real_ns));
        // A step rate a sixteenth above the frames' rate (60 Hz: 64 Hz) puts every frame on one
        // step or two, never none: the catch-up steps come one at a time, spread out.
        const double mean_ns = (aliasing_zero_total_ns_ + aliasing_multi_total_ns_) /
                               static_cast<double>(aliasing_zero_frames_ + aliasing_multi_frames_);
        const double suggested_hz = std::round(1e9 / mean_ns * 16.0 / 15.0);
        const std::string fix =
            config_.policy == Policy::fixed
                ? fmt::format(
                      "interpolate (fixed-interp), or step at a rate that does not "
                      "match the display ({:.0f} Hz)",
                      suggested_hz)
                : fmt::format(
                      "{} smooths what is drawn, not the work per frame or what is "
                      "read a step (input); step at a rate that does not match the "
                      "display ({:.0f} Hz)",
                      policy_name(config_.policy), suggested_hz);
        f.findings.push_back(fmt::format(
            "steps alternate 0/{} on {:.1f} % of frames: frame times ({:.3f} / {:.3f} ms) "
            "straddle {}; {}",
            f.aliasing_most_steps > 2 ? "2+" : "2", 100.0 * f.step_aliasing_share,
            f.aliasing_zero_step_ns / 1e6, f.aliasing_multi_step_ns / 1e6, dt_text, fix));
    }
    // Frame 0 as initialisation: far longer than the others, and either cut by the clamp or
    // several steps' worth of simulation at once.
    if (f.frames >= 2) {
        const double rest_mean =
            static_cast<double>(f.real_ns - first_.raw_ns) / static_cast<double>(f.frames - 1);
        // A loop that started its clock after initialisation measured the time but fed none
        // of it to the simulation (consumed 0): nothing to flag.
        const bool far = static_cast<double>(first_.raw_ns) >= kFirstFrameFactor * rest_mean &&
                         first_.consumed_ns > 0;
        const bool clamped = first_.clamp_lost_ns > 0;
        const bool many_steps = first_.consumed_ns >= kFirstFrameSteps * config_.dt_ns;
        if (far && (clamped || many_steps)) {
            f.first_frame_initialisation = true;
            f.first_frame_raw_ns = first_.raw_ns;
            const std::string took = format_duration(first_.raw_ns);
            f.findings.push_back(
                clamped ? fmt::format("frame {0} took {1} (initialisation), clamped to {2}: "
                                      "simulation time and timers started at frame {0} run {3} "
                                      "ahead; start the clock after initialisation",
                                      first_.frame, took, format_duration(first_.clamped_ns),
                                      format_duration(first_.consumed_ns))
                        : fmt::format(
                              "frame {} took {} (initialisation, {:.0f} x the other frames' "
                              "mean): its {} steps advanced the simulation {} at once; "
                              "start the clock after initialisation",
                              first_.frame, took, static_cast<double>(first_.raw_ns) / rest_mean,
                              first_.steps, format_duration(first_.consumed_ns)));
        }
    }
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
