// The virtual clock's frame-time model, virtual runs and replays, and the built-in scenarios.
#include "core/loop_scenarios.hpp"

#include <algorithm>
#include <cmath>

#include "core/units.hpp"

namespace loopscope {

std::int64_t display_refresh_ns(double hz, std::int64_t k) {
    return std::llround(static_cast<double>(k) * 1e9 / hz);
}

namespace {

// The first refresh strictly after `after_ns` and at or after `done_ns`: a frame never presents
// twice on one refresh, and waits for the refresh that follows the end of its work.
std::int64_t next_refresh_ns(double hz, std::int64_t after_ns, std::int64_t done_ns) {
    const std::int64_t target = std::max(after_ns + 1, done_ns);
    auto k = static_cast<std::int64_t>(std::floor(static_cast<double>(target) * hz / 1e9));
    if (k > 0)
        --k;  // the estimate may be one high; step up to the exact refresh
    while (display_refresh_ns(hz, k) < target)
        ++k;
    return display_refresh_ns(hz, k);
}

}  // namespace

VirtualClock::VirtualClock(FrameModel model) : model_(std::move(model)), random_(model_.seed) {
    std::sort(model_.spikes.begin(), model_.spikes.end(),
              [](const Spike& a, const Spike& b) { return a.frame < b.frame; });
}

std::int64_t VirtualClock::step_cost_at(std::int64_t frame) const {
    const FrameModel& m = model_;
    if (m.ramp_frames <= 0 || frame <= m.ramp_start_frame)
        return m.step_cost_ns;
    const std::int64_t into = std::min(frame - m.ramp_start_frame, m.ramp_frames);
    // Integer interpolation so the ramp is identical everywhere.
    return m.step_cost_ns + (m.step_cost_end_ns - m.step_cost_ns) * into / m.ramp_frames;
}

std::int64_t VirtualClock::finish_frame(FrameRecord& r) {
    const FrameModel& m = model_;
    r.step_cost_ns = r.steps * step_cost_at(r.frame);
    std::int64_t render = m.render_ns + random_.symmetric(m.jitter_ns);
    while (next_spike_ < m.spikes.size() && m.spikes[next_spike_].frame < r.frame)
        ++next_spike_;
    while (next_spike_ < m.spikes.size() && m.spikes[next_spike_].frame == r.frame) {
        render += m.spikes[next_spike_++].extra_ns;
    }
    if (m.hitch_every_frames > 0 && r.frame > 0 && r.frame % m.hitch_every_frames == 0) {
        render += m.hitch_ns;
    }
    r.render_ns = std::max<std::int64_t>(render, 0);
    const std::int64_t work = r.step_cost_ns + r.render_ns;
    r.wait_ns = 0;
    if (m.display_hz > 0) {
        r.wait_ns =
            next_refresh_ns(m.display_hz, r.start_ns, r.start_ns + work) - r.start_ns - work;
    } else if (m.limit_period_ns > 0) {
        // Absolute deadlines, as a good limiter keeps, so that waits do not drift.
        const std::int64_t target = std::max(r.start_ns + 1, r.start_ns + work);
        const std::int64_t deadline =
            (target + m.limit_period_ns - 1) / m.limit_period_ns * m.limit_period_ns;
        r.wait_ns = deadline - r.start_ns - work;
    }
    return work + r.wait_ns;
}

VirtualRunResult run_virtual(const FrameModel& model, const LoopConfig& config, std::int64_t frames,
                             const FrameSink& sink, std::int64_t duration_ns) {
    LoopEngine engine(config);
    VirtualClock clock(model);
    VirtualRunResult result;
    std::int64_t raw = 0;
    std::int64_t start_ns = 0;
    for (std::int64_t i = 0; i < frames; ++i) {
        start_ns += raw;
        if (duration_ns > 0 && start_ns > duration_ns)
            break;
        if (raw > kFrozenFrameNs) {
            result.froze = true;
            result.frozen_frame_ns = raw;
            break;
        }
        FrameRecord r = engine.advance(raw);
        raw = clock.finish_frame(r);
        sink(r);
        ++result.frames;
    }
    return result;
}

VirtualRunResult run_replay(std::span<const std::int64_t> input_frame_ns, const LoopConfig& config,
                            std::int64_t step_cost_ns, const FrameSink& sink) {
    LoopEngine engine(config);
    VirtualRunResult result;
    std::int64_t carried_ns = 0;  // the modelled cost of the previous frame's steps
    for (std::int64_t input : input_frame_ns) {
        const std::int64_t raw = saturating_add_ns(std::max<std::int64_t>(input, 0), carried_ns);
        if (raw > kFrozenFrameNs) {
            result.froze = true;
            result.frozen_frame_ns = raw;
            break;
        }
        FrameRecord r = engine.advance(raw);
        // A cost past the frozen-frame limit stops the replay at the next frame whatever its
        // size, so it is kept just over that limit: sums of step costs stay in range.
        r.step_cost_ns = std::min(saturating_mul_ns(r.steps, step_cost_ns), kFrozenFrameNs + 1);
        carried_ns = r.step_cost_ns;
        sink(r);
        ++result.frames;
    }
    return result;
}

namespace {

Scenario make(std::string name, std::string description, std::int64_t frames, LoopConfig config,
              FrameModel model) {
    return Scenario{std::move(name), std::move(description), config, std::move(model), frames};
}

std::vector<Scenario> make_scenarios() {
    const std::int64_t dt = kDefaultDtNs;
    FrameModel base;
    base.render_ns = 2 * kNsPerMs;
    base.step_cost_ns = 1 * kNsPerMs;
    base.jitter_ns = 500 * kNsPerUs;
    base.seed = 1;

    std::vector<Scenario> out;
    LoopConfig fixed_interp;

    FrameModel m = base;
    m.limit_period_ns = dt;
    out.push_back(make("steady-60",
                       "a frame limiter at exactly dt (1/60 s), 60 Hz simulation: one step a frame",
                       600, fixed_interp, m));

    m = base;
    m.display_hz = 144;
    out.push_back(make("display-144-sim-60",
                       "144 Hz display, 60 Hz simulation: 0 or 1 step a frame, alpha does the work",
                       1440, fixed_interp, m));

    m = base;
    m.display_hz = 50;
    out.push_back(make("sim-60-display-50",
                       "60 Hz simulation on a 50 Hz display: 1 or 2 steps a frame", 500,
                       fixed_interp, m));

    m = base;
    m.display_hz = 60;
    m.spikes = {Spike{120, 200 * kNsPerMs}};
    out.push_back(make("hitch-200ms", "one 200 ms hitch at frame 120 on a 60 Hz display", 300,
                       fixed_interp, m));

    m = base;
    m.display_hz = 60;
    m.spikes = {Spike{120, 5 * kNsPerS}};
    out.push_back(make("debugger-pause-5s",
                       "a 5 s pause at frame 120 (a breakpoint): the clamp keeps it to 250 ms", 300,
                       fixed_interp, m));

    m = base;
    m.display_hz = 60;
    m.hitch_every_frames = 60;
    m.hitch_ns = 50 * kNsPerMs;
    out.push_back(make("periodic-hitch", "a 50 ms hitch every 60 frames on a 60 Hz display", 600,
                       fixed_interp, m));

    // The spiral of death: the per-step cost ramps from half of dt to 1.5 dt over 600 frames.
    FrameModel ramp = base;
    ramp.display_hz = 60;
    ramp.step_cost_ns = dt / 2;
    ramp.step_cost_end_ns = dt * 3 / 2;
    ramp.ramp_start_frame = 60;
    ramp.ramp_frames = 600;
    LoopConfig none;
    none.clamp_ns = 0;
    none.max_steps = 0;
    LoopConfig clamp_only;
    clamp_only.max_steps = 0;
    LoopConfig cap_only;
    cap_only.clamp_ns = 0;
    cap_only.max_steps = 5;
    LoopConfig both;
    both.max_steps = 5;
    out.push_back(make("spiral-no-guards",
                       "per-step cost ramps from 0.5 dt to 1.5 dt, no clamp, no step cap: the "
                       "loop freezes",
                       900, none, ramp));
    out.push_back(make("spiral-clamp",
                       "per-step cost ramps from 0.5 dt to 1.5 dt under the 250 ms clamp", 900,
                       clamp_only, ramp));
    out.push_back(make("spiral-cap",
                       "per-step cost ramps from 0.5 dt to 1.5 dt with at most 5 steps a frame",
                       900, cap_only, ramp));
    out.push_back(make("spiral-clamp-cap",
                       "per-step cost ramps from 0.5 dt to 1.5 dt, 250 ms clamp and 5-step cap",
                       900, both, ramp));
    return out;
}

}  // namespace

const std::vector<Scenario>& builtin_scenarios() {
    static const std::vector<Scenario> scenarios = make_scenarios();
    return scenarios;
}

const Scenario* find_scenario(std::string_view name) {
    for (const Scenario& s : builtin_scenarios()) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

}  // namespace loopscope
