// The real-clock loop harness. Every wait is measured, never assumed: the trace shows what the
// clock said.
#define LOOPSCOPE_RECORDER 1
#include "probes/loop_runner.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>

#include "loopscope/recorder.hpp"
#include "probes/clock_source.hpp"
#include "probes/frame_limiter.hpp"
#include "probes/system_info.hpp"

namespace loopscope {

namespace {

// "std::chrono::steady_clock" -> "steady_clock", "CLOCK_MONOTONIC_RAW" -> "monotonic_raw".
std::string short_clock_name(std::string_view source) {
    constexpr std::string_view kChrono = "std::chrono::";
    constexpr std::string_view kPosix = "CLOCK_";
    if (source.starts_with(kChrono))
        return std::string(source.substr(kChrono.size()));
    if (source.starts_with(kPosix)) {
        std::string name(source.substr(kPosix.size()));
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return name;
    }
    return std::string(source);
}

std::vector<RealClockSource> runnable_clocks() {
    std::vector<RealClockSource> out;
    for (const ClockSource& s : clock_sources()) {
        // The engine and the recorder take nanoseconds from a plain function: a counter of
        // another unit, a clock that may go back or one that moves only at kernel ticks would
        // make frame times wrong.
        const bool nanoseconds = s.scale.num == 1 && s.scale.den == 1 && !s.calibrate_scale;
        if (!nanoseconds || !s.claims_steady || s.sampled_from || !s.read)
            continue;
        out.push_back({short_clock_name(s.name), s.name, s.description, s.read});
    }
    return out;
}

}  // namespace

std::span<const RealClockSource> real_clock_sources() {
    static const std::vector<RealClockSource> clocks = runnable_clocks();
    return clocks;
}

const RealClockSource* find_real_clock(std::string_view name) {
    for (const RealClockSource& c : real_clock_sources()) {
        if (c.name == name || c.source == name)
            return &c;
    }
    return nullptr;
}

namespace {

// Burns CPU until the clock reaches target: the stand-in for simulation and render work.
void busy_until(const RealClockSource& clock, std::int64_t target_ns) {
    while (clock.now_ns() < target_ns) {
    }
}

// The frame's next deadline after `done` (times since the run began), as the virtual clock
// computes it: the next display refresh, or the next multiple of the limiter's period.
std::optional<std::int64_t> next_deadline(const FrameModel& m, std::int64_t start,
                                          std::int64_t done) {
    const std::int64_t target = std::max(start + 1, done);
    if (m.display_hz > 0) {
        std::int64_t k =
            static_cast<std::int64_t>(static_cast<double>(target) * m.display_hz / 1e9);
        if (k > 0)
            --k;
        while (display_refresh_ns(m.display_hz, k) < target)
            ++k;
        return display_refresh_ns(m.display_hz, k);
    }
    if (m.limit_period_ns > 0) {
        return (target + m.limit_period_ns - 1) / m.limit_period_ns * m.limit_period_ns;
    }
    return std::nullopt;
}

}  // namespace

RealRunResult run_real(const RealRunOptions& options) {
    LoopEngine engine(options.config);
    const RealClockSource& clock = options.clock ? *options.clock : real_clock_sources().front();
    // Stalls and the model's limiter wait as a game's sleep-then-spin limiter does.
    ReadLimiterClock limiter_clock(clock.now_ns);
    const LimiterSpec limiter{LimiterKind::sleep_spin, options.spin_margin_ns};
    const FrameModel& m = options.model;
    VirtualClock model(m);  // for the ramp and the spike schedule only
    SeededRandom random(m.seed);

    RealRunResult result;
    result.clock = std::string(clock.name);

    std::optional<Recorder> recorder;
    RecorderOptions ro;
    ro.path = options.trace_path;
    ro.clock_ns = clock.now_ns;
    ro.clock_name = std::string(clock.name);
    copy_loop_knobs(options.config, ro);
    for (const auto& [key, value] : options.metadata)
        ro.add_metadata(key, value);
    ro.machine = machine_description();
    ro.capacity = 4096;
    ro.flush_every = 1024;
    if (!options.trace_path.empty())
        recorder.emplace(ro);

    const std::int64_t t0 = recorder ? recorder->start_ns() : clock.now_ns();
    const std::int64_t hard_limit = options.hard_limit_ns > 0 ? options.hard_limit_ns : INT64_MAX;
    const std::int64_t time_limit =
        options.duration_ns > 0 ? std::min(options.duration_ns, hard_limit) : hard_limit;
    std::int64_t previous = t0;
    std::int64_t render_end = t0;
    // The frame that has ended but whose wait runs until the next frame begins.
    std::optional<FrameRecord> pending;

    std::int64_t end_ns = t0;
    for (std::int64_t i = 0;; ++i) {
        const std::int64_t now = clock.now_ns();
        end_ns = now;
        if (pending) {
            pending->wait_ns = now - render_end;
            if (options.on_frame)
                options.on_frame(*pending);
            pending.reset();
        }
        if ((options.frames > 0 && i >= options.frames) || now - t0 >= time_limit ||
            result.cut_short) {
            break;
        }
        if (recorder)
            recorder->begin_frame(now);
        FrameRecord r = engine.advance(now - previous);
        previous = now;

        // Steps: busy work of steps x the model's cost at this frame, cut at the hard limit.
        std::int64_t steps_target = now + r.steps * model.step_cost_at(r.frame);
        if (steps_target - t0 > hard_limit) {
            steps_target = t0 + hard_limit;
            result.cut_short = true;
        }
        busy_until(clock, steps_target);
        const std::int64_t steps_end = clock.now_ns();
        r.step_cost_ns = steps_end - now;

        // Render: busy work; spikes and hitches are stalls (a pause is not work), so they sleep.
        std::int64_t render =
            std::max<std::int64_t>(m.render_ns + random.symmetric(m.jitter_ns), 0);
        std::int64_t stall = 0;
        for (const Spike& s : m.spikes) {
            if (s.frame == r.frame)
                stall += s.extra_ns;
        }
        if (m.hitch_every_frames > 0 && r.frame > 0 && r.frame % m.hitch_every_frames == 0) {
            stall += m.hitch_ns;
        }
        busy_until(clock, steps_end + render);
        if (stall > 0)
            wait_until_deadline(limiter, limiter_clock, clock.now_ns() + stall);
        render_end = clock.now_ns();
        r.render_ns = render_end - steps_end;

        if (recorder) {
            recorder->loop(LoopFrame::of(r));
            recorder->end_steps(steps_end);
            recorder->end_render(render_end);
        }
        pending = r;
        ++result.frames;

        // The limiter: the model's display or frame period, on absolute deadlines.
        if (auto deadline = next_deadline(m, r.start_ns, render_end - t0)) {
            wait_until_deadline(limiter, limiter_clock, t0 + *deadline);
        }
    }
    if (recorder) {
        // The trace's last frame ends where the run ended.
        recorder->close(end_ns);
        result.dropped_frames = recorder->dropped_frames();
        result.trace_ok = recorder->ok();
    }
    return result;
}

}  // namespace loopscope
