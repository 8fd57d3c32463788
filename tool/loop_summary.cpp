// Text of the loop summary. Numbers come from compute_loop_figures and TimeAccumulation only.
#include "tool/loop_summary.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/duration.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {

std::string percent(std::int64_t part, std::int64_t whole) {
    if (whole <= 0)
        return "0%";
    return fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string signed_duration(double ns) {
    const std::int64_t rounded = std::llround(ns);
    const std::string text = format_duration(rounded < 0 ? -rounded : rounded);
    if (rounded > 0)
        return "+" + text;
    if (rounded < 0)
        return "-" + text;
    return text;
}

// Three decimals, truncated: an alpha just below 1 must not read as 1.000.
std::string alpha_text(double alpha) {
    return fmt::format("{:.3f}", std::floor(alpha * 1000.0) / 1000.0);
}

std::string frames_word(std::int64_t n) {
    return n == 1 ? "frame" : "frames";
}

// The histogram as rows; many distinct counts (a spiral) are grouped in powers of two.
void append_steps_histogram(std::string& out, const LoopFigures& f) {
    if (f.steps_histogram.size() <= 12) {
        for (const auto& [steps, frames] : f.steps_histogram) {
            out += fmt::format("  {:>9} steps: {:>8} {} ({})\n", steps, frames, frames_word(frames),
                               percent(frames, f.frames));
        }
        return;
    }
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    while (lo <= f.max_steps_per_frame) {
        std::int64_t frames = 0;
        for (auto it = f.steps_histogram.lower_bound(lo);
             it != f.steps_histogram.end() && it->first <= hi; ++it) {
            frames += it->second;
        }
        if (frames > 0) {
            const std::string label =
                lo == hi ? fmt::format("{}", lo) : fmt::format("{}-{}", lo, hi);
            out += fmt::format("  {:>9} steps: {:>8} {} ({})\n", label, frames, frames_word(frames),
                               percent(frames, f.frames));
        }
        lo = hi + 1;
        hi = lo * 2 - 1;
    }
}

}  // namespace

std::string format_loop_config(const LoopConfig& c) {
    return fmt::format("policy {}, dt {} ({} ns), clamp {}, max steps {}, timescale {}",
                       policy_name(c.policy), format_duration(c.dt_ns), c.dt_ns,
                       c.clamp_ns > 0 ? format_duration(c.clamp_ns) : "off",
                       c.max_steps > 0 ? fmt::format("{}", c.max_steps) : "unlimited", c.timescale);
}

std::string format_loop_summary(const LoopFigures& f, const LoopConfig& c) {
    std::string out;
    out += fmt::format("Loop: {}\n", format_loop_config(c));
    out += fmt::format("Frames: {} over {} of real time (sum of raw_ns); simulation advanced {}\n",
                       f.frames, format_duration(f.real_ns), format_duration(f.sim_ns));
    if (f.frames == 0)
        return out;

    out += fmt::format("Steps per frame: mean {:.4f}, max {} ({} steps in all)\n",
                       f.mean_steps_per_frame(), f.max_steps_per_frame, f.steps);
    append_steps_histogram(out, f);

    if (f.has_accumulator) {
        out += fmt::format("Accumulator after stepping: {} .. {}\n", format_duration(f.acc_min_ns),
                           format_duration(f.acc_max_ns));
        out += fmt::format(
            "Alpha (acc_after / dt): mean {}, min {}, max {}; frames per "
            "tenth [0,0.1) .. [0.9,1):\n ",
            alpha_text(f.alpha_mean), alpha_text(f.alpha_min), alpha_text(f.alpha_max));
        for (std::int64_t bin : f.alpha_bins)
            out += fmt::format(" {}", bin);
        out += "\n";
    } else {
        out += fmt::format("Accumulator and alpha: none ({} keeps no accumulator)\n",
                           policy_name(c.policy));
    }

    out += fmt::format(
        "Guards: clamp engaged on {} {}, {} of real time dropped; step cap engaged on {} {}, {} "
        "of simulation time dropped\n",
        f.clamp_frames, frames_word(f.clamp_frames), format_duration(f.clamp_lost_ns), f.cap_frames,
        frames_word(f.cap_frames), format_duration(f.cap_dropped_ns));
    const std::size_t shown = std::min(f.engagements.size(), LoopSummaryBuilder::kEngagementsShown);
    for (std::size_t i = 0; i < shown; ++i) {
        const GuardEngagement& g = f.engagements[i];
        out += fmt::format("  frame {} at {}:", g.frame, format_duration(g.start_ns));
        if (g.clamp_lost_ns > 0)
            out += fmt::format(" clamp dropped {}", format_duration(g.clamp_lost_ns));
        if (g.cap_dropped_ns > 0) {
            out += fmt::format("{} cap dropped {}", g.clamp_lost_ns > 0 ? "," : "",
                               format_duration(g.cap_dropped_ns));
        }
        out += "\n";
    }
    if (f.engagement_frames > static_cast<std::int64_t>(shown)) {
        out += fmt::format("  ... and {} more frames\n",
                           f.engagement_frames - static_cast<std::int64_t>(shown));
    }

    out += fmt::format(
        "Step aliasing: {:.1f}% of frames ({} {}: 0 steps beside 2 or more, both near dt, in "
        "{}-frame windows where at least a quarter of the frames are; {} {} flip steps in all)\n",
        100.0 * f.step_aliasing_share, f.step_aliasing_frames, frames_word(f.step_aliasing_frames),
        f.window, f.step_flip_frames, frames_word(f.step_flip_frames));
    if (f.animation_error_frames > 0) {
        out += fmt::format(
            "Animation error (change of the shown simulation time minus change of the render "
            "instant): mean {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms\n  expected: {}\n",
            f.animation_error_mean_ns / 1e6, f.animation_error_p99_ns / 1e6,
            ns_to_ms(f.animation_error_max_ns), f.animation_error_expected);
    }

    out += format_loop_verdict(f);
    return out;
}

std::string format_loop_verdict(const LoopFigures& f) {
    const std::string budget = std::isfinite(f.spiral_threshold_ns)
                                   ? format_duration(std::llround(f.spiral_threshold_ns))
                                   : std::string("unbounded (timescale 0)");
    std::string out = fmt::format(
        "Verdict: {} (ok: the backlog stays bounded; saturated: the guards hold the loop in "
        "slow motion; spiral: a step costs at least dt / timescale = {})\n",
        loop_state_name(f.state), budget);
    if (!f.has_step_costs) {
        out +=
            "  no step costs (step_cost_ns is 0 in every frame; replay models one with "
            "--step-cost)\n";
    } else {
        out += fmt::format("  mean per-step cost: {}\n",
                           format_duration(std::llround(f.mean_step_cost_ns)));
    }
    if (f.onset_frame) {
        out += fmt::format(
            "  onset: frame {} at {} (where the backlog starts the growth that lasts)\n",
            *f.onset_frame, format_duration(*f.onset_ns));
        if (f.slow_motion_factor) {
            out +=
                fmt::format("  slow motion from the onset: {:.3f}x (simulation time / real time)\n",
                            *f.slow_motion_factor);
        }
    } else {
        out += "  onset: none\n";
    }
    out += fmt::format("  cause: {}\n", f.cause);
    for (const std::string& finding : f.findings)
        out += fmt::format("  finding: {}\n", finding);
    if (f.headroom_ns) {
        out += fmt::format("  headroom: {} = {}\n", signed_duration(*f.headroom_ns),
                           f.headroom_formula);
    }
    return out;
}

std::string format_time_accumulation(const TimeAccumulation& run) {
    const TimeAccumulation ten_hours = accumulate_display_frames(144, 10 * 3600 * kNsPerS);
    std::string out =
        "Time accumulation error (frame times summed as float seconds, double seconds, int64 ns; "
        "minus the exact elapsed time):\n";
    auto line = [&](const std::string& what, const TimeAccumulation& a) {
        out += fmt::format("  {}: float {}, double {}, int64 {} ns\n", what,
                           signed_duration(a.float_error_ns()),
                           signed_duration(a.double_error_ns()), a.int64_error_ns());
    };
    line(fmt::format("this run ({} frames, {})", run.frames, format_duration(run.exact_ns)), run);
    line(fmt::format("10 h at 144 Hz on the virtual display ({} frames)", ten_hours.frames),
         ten_hours);
    return out;
}

std::string LoopSummaryBuilder::text() const {
    return format_loop_summary(figures_.figures(), config_) + format_time_accumulation(time_);
}

}  // namespace loopscope
