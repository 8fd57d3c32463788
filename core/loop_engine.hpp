// The game-loop engine: the per-frame timestep algorithm of docs/loop-engine.md ("The per-frame
// algorithm") as a pure value type. Give it each frame's measured frame time and it returns that
// frame's record (the trace columns): clamp, timescale, accumulator, steps, step cap and alpha, all
// in integer nanoseconds. It knows no clock, does no I/O and allocates nothing, so the same code
// runs on a real clock, on a virtual clock and in replay, and a replay is exact and reproducible.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/trace_record.hpp"
#include "core/units.hpp"

namespace loopscope {

// How a frame's time becomes simulation steps.
enum class Policy {
    naive,         // one step of dt per frame, whatever the clock says
    variable,      // one step of the measured (clamped, scaled) frame time
    semi_fixed,    // steps of min(remaining, dt) until the frame time is consumed
    fixed,         // accumulator of whole dt steps; render the latest state
    fixed_interp,  // accumulator; render lerp(previous, current, alpha)
    fixed_extrap,  // accumulator; render current state predicted forward by alpha
};

inline constexpr std::array<Policy, 6> kAllPolicies = {Policy::naive,        Policy::variable,
                                                       Policy::semi_fixed,   Policy::fixed,
                                                       Policy::fixed_interp, Policy::fixed_extrap};

// "naive", "variable", "semi-fixed", "fixed", "fixed-interp", "fixed-extrap".
std::string_view policy_name(Policy policy);
std::optional<Policy> parse_policy(std::string_view name);
// The names, comma-separated, for error messages and help texts.
std::string_view policy_names();
// True for the policies that keep an accumulator (the step cap and alpha apply to them).
constexpr bool uses_accumulator(Policy policy) {
    return policy == Policy::fixed || policy == Policy::fixed_interp ||
           policy == Policy::fixed_extrap;
}

inline constexpr std::int64_t kDefaultDtNs = 16'666'667;      // 1/60 s, rounded once
inline constexpr std::int64_t kDefaultClampNs = 250'000'000;  // 250 ms

struct LoopConfig {
    Policy policy = Policy::fixed_interp;
    std::int64_t dt_ns = kDefaultDtNs;        // > 0
    std::int64_t clamp_ns = kDefaultClampNs;  // 0 = no clamp
    std::int64_t max_steps = 0;               // steps per frame; 0 = unlimited
    double timescale = 1.0;                   // finite, >= 0; 1.0 = real time
};

// Throws UsageError naming the first bad knob.
void validate(const LoopConfig& config);

// Copies the loop's knobs into anything that names them as the trace metadata does (policy,
// dt_ns, clamp_ns, max_steps, timescale): the recorder's options and the trace preamble of the
// recorder header, so that every trace loopscope writes states them the same way.
template <class TraceKnobs>
void copy_loop_knobs(const LoopConfig& config, TraceKnobs& out) {
    out.policy = std::string(policy_name(config.policy));
    out.dt_ns = config.dt_ns;
    out.clamp_ns = config.clamp_ns;
    out.max_steps = config.max_steps;
    out.timescale = config.timescale;
}

// Running totals over every frame advanced so far.
struct LoopTotals {
    std::int64_t frames = 0;
    std::int64_t real_ns = 0;         // sum of raw frame times
    std::int64_t clamp_lost_ns = 0;   // real time the clamp threw away
    std::int64_t cap_dropped_ns = 0;  // simulation time the step cap threw away
    std::int64_t steps = 0;
    std::int64_t sim_ns = 0;  // simulation time advanced by the steps
};

class LoopEngine {
  public:
    // Validates the configuration (throws UsageError).
    explicit LoopEngine(const LoopConfig& config);

    // Advances one frame whose measured frame time is raw_ns (>= 0) and returns its record. The
    // cost columns (step_cost_ns, render_ns, wait_ns) are left 0 for the caller's clock to fill.
    FrameRecord advance(std::int64_t raw_ns) {
        FrameRecord r;
        r.frame = totals_.frames;
        now_ns_ += raw_ns;
        r.start_ns = now_ns_;
        r.raw_ns = raw_ns;
        const LoopConfig& c = config_;

        if (c.policy == Policy::naive) {
            // No clock: the frame time is recorded but neither clamped nor consumed.
            r.clamped_ns = raw_ns;
            r.consumed_ns = c.dt_ns;
            r.steps = 1;
            totals_.sim_ns = saturating_add_ns(totals_.sim_ns, c.dt_ns);
        } else {
            r.clamped_ns = (c.clamp_ns > 0 && raw_ns > c.clamp_ns) ? c.clamp_ns : raw_ns;
            r.clamp_lost_ns = raw_ns - r.clamped_ns;
            r.consumed_ns = scale(r.clamped_ns);
            switch (c.policy) {
                case Policy::variable:
                    r.steps = 1;
                    totals_.sim_ns = saturating_add_ns(totals_.sim_ns, r.consumed_ns);
                    break;
                case Policy::semi_fixed:
                    r.steps = (r.consumed_ns + c.dt_ns - 1) / c.dt_ns;  // ceil; 0 when 0
                    totals_.sim_ns = saturating_add_ns(totals_.sim_ns, r.consumed_ns);
                    break;
                default:
                    step_accumulator(r);
                    break;
            }
        }
        totals_.frames += 1;
        totals_.real_ns = saturating_add_ns(totals_.real_ns, raw_ns);
        totals_.clamp_lost_ns = saturating_add_ns(totals_.clamp_lost_ns, r.clamp_lost_ns);
        totals_.cap_dropped_ns = saturating_add_ns(totals_.cap_dropped_ns, r.cap_dropped_ns);
        totals_.steps += r.steps;
        return r;
    }

    // Advances one frame for each of raw_ns and writes its record to out, in order: the first
    // min(raw_ns.size(), out.size()) frames, the count returned. The records are those advance()
    // returns.
    std::size_t advance_into(std::span<const std::int64_t> raw_ns, std::span<FrameRecord> out);

    const LoopConfig& config() const { return config_; }
    const LoopTotals& totals() const { return totals_; }
    std::int64_t accumulator_ns() const { return acc_ns_; }

  private:
    std::int64_t scale(std::int64_t clamped_ns) const {
        // Exact at 1.0 whatever the size; otherwise llround as the model states.
        if (config_.timescale == 1.0)
            return clamped_ns;
        return std::llround(static_cast<double>(clamped_ns) * config_.timescale);
    }

    void step_accumulator(FrameRecord& r) {
        const std::int64_t dt = config_.dt_ns;
        acc_ns_ += r.consumed_ns;
        r.acc_before_ns = acc_ns_;
        // The while loop of the model, in closed form: the whole steps that fit, then the cap
        // drops the steps past it and keeps the remainder. A frame usually holds a step or two,
        // so they are counted by subtraction; a 64-bit division costs more than a few of those.
        std::int64_t steps = 0;
        if ((acc_ns_ >> 2) < dt) {  // under four steps, without 4 * dt overflowing
            while (acc_ns_ >= dt) {
                acc_ns_ -= dt;
                ++steps;
            }
        } else {
            steps = acc_ns_ / dt;
            acc_ns_ -= steps * dt;
        }
        if (config_.max_steps > 0 && steps > config_.max_steps) {
            r.cap_dropped_ns = (steps - config_.max_steps) * dt;
            steps = config_.max_steps;
        }
        r.steps = steps;
        r.acc_after_ns = acc_ns_;
        r.alpha = static_cast<double>(acc_ns_) / static_cast<double>(dt);
        totals_.sim_ns = saturating_add_ns(totals_.sim_ns, steps * dt);
    }

    LoopConfig config_;
    std::int64_t acc_ns_ = 0;
    std::int64_t now_ns_ = 0;
    LoopTotals totals_;
};

}  // namespace loopscope
