// Loop figures: what a fixed-timestep loop did over a run, computed from its frame records. Pure
// functions over plain data (no clock, no file), shared by `run`, `replay`, the reports and the
// viewer so that every place shows the same numbers with the same definitions:
//   - spiral-of-death onset: the first frame of the first window of W frames (default 30) over
//     which the backlog grows (the simulation time owed at a frame: the accumulator before
//     stepping, or the frame's consumed time for variable and semi-fixed, plus all the time the
//     guards have dropped so far, in simulation time) and the mean per-step cost exceeds dt /
//     timescale;
//   - each frame where a guard (clamp, step cap) engaged, and the time it dropped;
//   - the slow-motion factor: simulation time advanced / real time elapsed, from the onset on;
//   - the headroom: dt / timescale minus the highest W-frame mean per-step cost before onset;
//   - steps-per-frame histogram, accumulator range, alpha distribution;
//   - the error of accumulating frame times as float seconds, double seconds and int64 ns.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "core/loop_engine.hpp"
#include "core/trace_record.hpp"

namespace loopscope {

inline constexpr std::int64_t kDefaultSpiralWindow = 30;

struct GuardEngagement {
    std::int64_t frame = 0;
    std::int64_t start_ns = 0;
    std::int64_t clamp_lost_ns = 0;   // real time the clamp dropped this frame
    std::int64_t cap_dropped_ns = 0;  // simulation time the step cap dropped this frame
};

struct LoopFigures {
    std::int64_t frames = 0;
    std::int64_t real_ns = 0;  // sum of raw frame times
    std::int64_t sim_ns = 0;   // simulation time the steps advanced
    std::int64_t steps = 0;
    std::int64_t max_steps_per_frame = 0;
    std::map<std::int64_t, std::int64_t> steps_histogram;  // steps per frame -> frames

    // Accumulator and alpha: only for the accumulator policies (has_accumulator).
    bool has_accumulator = false;
    std::int64_t acc_min_ns = 0;  // over acc_after_ns
    std::int64_t acc_max_ns = 0;
    std::array<std::int64_t, 10> alpha_bins{};  // [0, 0.1), [0.1, 0.2) ... [0.9, 1)
    double alpha_mean = 0;
    double alpha_min = 0;
    double alpha_max = 0;

    // Guards.
    std::int64_t clamp_lost_ns = 0;
    std::int64_t cap_dropped_ns = 0;
    std::int64_t clamp_frames = 0;             // frames where the clamp engaged
    std::int64_t cap_frames = 0;               // frames where the step cap dropped time
    std::int64_t engagement_frames = 0;        // frames where either guard engaged
    std::vector<GuardEngagement> engagements;  // the first of them (all, unless limited)

    // Spiral of death.
    std::int64_t window = kDefaultSpiralWindow;
    double spiral_threshold_ns = 0;  // dt / timescale: a step may cost no more real time
    bool has_step_costs = false;     // some frame has step_cost_ns > 0
    double mean_step_cost_ns = 0;    // over all steps with a known cost
    std::optional<std::int64_t> onset_frame;
    std::optional<std::int64_t> onset_ns;      // start_ns of the onset frame
    std::optional<double> slow_motion_factor;  // sim / real from the onset to the end
    // dt / timescale minus the highest window-mean per-step cost before the onset (all windows
    // when there is no onset; the onset window when onset is at the first frame): how much the
    // per-step cost may grow before the spiral. Negative once in the spiral. Unset without
    // step costs or with fewer than `window` frames.
    std::optional<double> headroom_ns;
};

// `config` gives dt, timescale and the policy the records were produced with.
LoopFigures compute_loop_figures(std::span<const FrameRecord> records, const LoopConfig& config,
                                 std::int64_t window = kDefaultSpiralWindow);

// The same figures computed one frame at a time, holding only the last `window` frames: a run
// of any length takes constant memory (plus the steps histogram and up to `max_engagements`
// listed guard engagements; the engagement counts stay exact). add() every record in order,
// then figures(); compute_loop_figures is this builder over a span.
class LoopFiguresBuilder {
  public:
    explicit LoopFiguresBuilder(
        const LoopConfig& config, std::int64_t window = kDefaultSpiralWindow,
        std::size_t max_engagements = std::numeric_limits<std::size_t>::max());

    void add(const FrameRecord& r);
    // The figures of the frames added so far.
    LoopFigures figures() const;

  private:
    // What the windows need of one frame.
    struct Slot {
        double backlog = 0;  // simulation time owed at the frame (see loop_figures.hpp's top)
        std::int64_t step_cost_ns = 0;
        std::int64_t steps = 0;
        std::int64_t sim_ns = 0;
        std::int64_t raw_ns = 0;
        std::int64_t frame = 0;
        std::int64_t start_ns = 0;
    };
    const Slot& slot(std::int64_t index) const {
        return ring_[static_cast<std::size_t>(index % ring_size_)];
    }
    void evaluate_window(std::int64_t start);

    LoopConfig config_;
    std::size_t max_engagements_;
    LoopFigures f_;
    std::int64_t ring_size_;  // window + 1: the window and the frame before it
    std::vector<Slot> ring_;
    double dropped_sim_ns_ = 0;  // clamp losses (scaled to simulation time) plus cap drops
    std::int64_t cost_steps_ = 0;
    std::int64_t cost_total_ = 0;
    double alpha_total_ = 0;
    std::int64_t window_cost_ns_ = 0;  // over the last `window` frames
    std::int64_t window_steps_ = 0;
    // Window means of the last `window` windows (a window counts towards the headroom once it
    // ends before any later onset), the worst settled one, and the first window's.
    std::vector<std::optional<double>> recent_means_;
    std::optional<double> worst_settled_;
    std::optional<double> first_window_mean_;
    std::optional<double> headroom_worst_;  // fixed at the onset
    std::int64_t after_onset_sim_ns_ = 0;
    std::int64_t after_onset_real_ns_ = 0;
};

// Simulation time a frame's steps advanced under a policy.
std::int64_t frame_sim_ns(const FrameRecord& r, const LoopConfig& config);

// The error of adding up frame times in three representations, against the exact sum.
struct TimeAccumulation {
    std::int64_t frames = 0;
    std::int64_t exact_ns = 0;  // the true elapsed time (sum of integer nanoseconds)
    float float_s = 0;          // sum of (float)(frame seconds)
    double double_s = 0;        // sum of (double)(frame seconds)
    std::int64_t int64_ns = 0;  // sum of integer nanoseconds

    void add(std::int64_t frame_ns) {
        ++frames;
        exact_ns += frame_ns;
        float_s += static_cast<float>(static_cast<double>(frame_ns) * 1e-9);
        double_s += static_cast<double>(frame_ns) * 1e-9;
        int64_ns += frame_ns;
    }
    double float_error_ns() const {
        return static_cast<double>(float_s) * 1e9 - static_cast<double>(exact_ns);
    }
    double double_error_ns() const { return double_s * 1e9 - static_cast<double>(exact_ns); }
    std::int64_t int64_error_ns() const { return int64_ns - exact_ns; }
};

// Accumulates the frame times of a display refreshing at hz for duration_ns (frame k lasting
// from refresh k to refresh k + 1, as the virtual display produces them); the elapsed time
// it is checked against is the last refresh's instant, computed directly.
TimeAccumulation accumulate_display_frames(double hz, std::int64_t duration_ns);

}  // namespace loopscope
