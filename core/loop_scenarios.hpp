// The virtual clock: frame times from a model instead of a real clock, so that a loop can be run
// for hours in milliseconds and give the same trace bit for bit on every run. The model has a
// render cost, a per-step simulation cost (the steps a frame runs make the next frame longer,
// which is what feeds a spiral of death), a virtual display at N Hz (a frame waits for the next
// refresh), seeded jitter, one-shot spikes, periodic hitches and a step cost that ramps. The
// named scenarios are the classic cases the articles on game loops describe.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/loop_engine.hpp"
#include "core/trace_record.hpp"

namespace loopscope {

struct Spike {
    std::int64_t frame = 0;     // the frame whose work takes longer
    std::int64_t extra_ns = 0;  // how much longer
};

struct FrameModel {
    std::int64_t render_ns = 0;     // work per frame besides the steps
    std::int64_t step_cost_ns = 0;  // real time one simulation step costs
    // Ramp: the step cost moves linearly from step_cost_ns to step_cost_end_ns over
    // ramp_frames frames starting at ramp_start_frame (no ramp when ramp_frames is 0).
    std::int64_t step_cost_end_ns = 0;
    std::int64_t ramp_start_frame = 0;
    std::int64_t ramp_frames = 0;
    double display_hz = 0;  // virtual display; 0 = frames do not wait
    // Frame limiter: a frame waits for the next multiple of this period (0 = no limiter).
    std::int64_t limit_period_ns = 0;
    std::int64_t jitter_ns = 0;  // render work varies uniformly in [-jitter, +jitter]
    std::uint64_t seed = 1;
    std::vector<Spike> spikes;
    std::int64_t hitch_every_frames = 0;  // periodic hitch: every N frames (0 = none) ...
    std::int64_t hitch_ns = 0;            // ... the work takes this much longer
};

// The instant of a display's k-th refresh, round(k / hz) seconds, in nanoseconds.
std::int64_t display_refresh_ns(double hz, std::int64_t k);

// Splitmix64: a tiny generator whose output is the same on every platform and compiler (the
// standard distributions are not), so a seed gives the same trace everywhere.
class SeededRandom {
  public:
    explicit SeededRandom(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform in [-range, +range] (range >= 0).
    std::int64_t symmetric(std::int64_t range) {
        if (range <= 0)
            return 0;
        const auto span = static_cast<std::uint64_t>(range) * 2 + 1;
        return static_cast<std::int64_t>(next() % span) - range;
    }

  private:
    std::uint64_t state_;
};

// Frame times from a FrameModel. Frame 0 starts at 0 with a frame time of 0; each later frame's
// time is what the previous frame cost: its steps, its render, its spikes and its wait for the
// display.
class VirtualClock {
  public:
    explicit VirtualClock(FrameModel model);

    // The step cost the model gives frame `frame` (with the ramp applied).
    std::int64_t step_cost_at(std::int64_t frame) const;

    // Charges the frame the engine just advanced: fills r.step_cost_ns, r.render_ns and r.wait_ns
    // and returns the frame time the next frame will measure.
    std::int64_t finish_frame(FrameRecord& r);

    const FrameModel& model() const { return model_; }

  private:
    FrameModel model_;
    SeededRandom random_;
    std::size_t next_spike_ = 0;
};

// A virtual run stops when a frame takes longer than this: without guards a spiral of death
// makes frame times grow without bound, and a real game would have frozen long before.
inline constexpr std::int64_t kFrozenFrameNs = 60 * 1'000'000'000LL;

struct VirtualRunResult {
    std::int64_t frames = 0;
    bool froze = false;  // stopped because a frame took longer than kFrozenFrameNs
    std::int64_t frozen_frame_ns = 0;
};

using FrameSink = std::function<void(const FrameRecord&)>;

// Runs `frames` frames of the engine against the virtual clock, handing each record to sink.
// With duration_ns > 0 the run also stops before the first frame that would start after
// duration_ns of virtual time.
VirtualRunResult run_virtual(const FrameModel& model, const LoopConfig& config, std::int64_t frames,
                             const FrameSink& sink, std::int64_t duration_ns = 0);

// Replay: frame i measures input_frame_ns[i] plus the modelled cost of the previous frame's
// steps (step_cost_ns each), so a recorded frame pattern can be asked what a given per-step cost
// would have done. step_cost_ns = 0 replays the frame times as they are.
VirtualRunResult run_replay(std::span<const std::int64_t> input_frame_ns, const LoopConfig& config,
                            std::int64_t step_cost_ns, const FrameSink& sink);

struct Scenario {
    std::string name;
    std::string description;
    LoopConfig config;  // the knobs the scenario is about; the command line may override them
    FrameModel model;
    std::int64_t frames = 0;
};

// The built-in scenarios, in the order the scenario list shows them.
const std::vector<Scenario>& builtin_scenarios();
// nullptr when there is no such scenario.
const Scenario* find_scenario(std::string_view name);

}  // namespace loopscope
