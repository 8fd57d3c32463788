// Loop figures: what a fixed-timestep loop did over a run, computed from its frame records. Pure
// functions over plain data (no clock, no file), shared by `run`, `replay`, the reports and the
// viewer so that every place shows the same numbers with the same definitions (docs/loop-engine.md
// states them for users):
//   - the backlog at a frame: the simulation time owed (the accumulator before stepping, or the
//     frame's consumed time for variable and semi-fixed) plus all the time the guards have
//     dropped so far, in simulation time; dropping time does not pay a debt off;
//   - the verdict: `ok`, `saturated` (the guards engage persistently although a step costs less
//     than dt / timescale) or `spiral` (a step costs at least dt / timescale). The trouble is
//     found in the first window of W frames (default 30) over which the backlog grows and
//     either the guards engage on at least half of the frames or the mean per-step cost is at
//     least dt / timescale; its onset is the first frame of that window from which the backlog
//     stays above every backlog before it in the window (the frame before the window counts):
//     where the growth that lasts begins, never a steady frame before it. (When no frame
//     qualifies, because of an early peak, the frame after the window's last lowest backlog.)
//   - each frame where a guard (clamp, step cap) engaged, and the time it dropped;
//   - the slow-motion factor: simulation time advanced / real time elapsed, from the onset on;
//   - the cause: the bottleneck with its measured numbers;
//   - the headroom: c_max minus the highest W-frame mean per-step cost, where c_max = dt /
//     timescale - r / cap with a step cap (dt / timescale without) and r is the mean other
//     per-frame time (a frame's time minus the previous frame's steps and wait);
//   - steps-per-frame histogram, accumulator range, alpha distribution;
//   - step aliasing: a frame that ran 0 steps beside one that ran 2 or more (or the other way
//     round), both frames between half and twice dt / timescale, shows no motion and then double
//     motion when the loop draws its latest state, and alternates its work in any case: a step
//     flip. Frame times that straddle dt (a display rate equal to the step rate, with jitter or
//     with a clock a little off) make them by the run; a hitch and the burst of short frames
//     after it are stutter of their own. A step flip counts towards step_aliasing_share only
//     inside a window of W frames of which at least a quarter are step flips: a lone pair is not
//     the pattern. The share is the counted frames over all frames;
//   - the loop's animation error: frame to frame, how far the simulation time a frame shows
//     moved against the real time at which it rendered (its start plus its step cost, the end of
//     its steps where the recorder measured them), the two clocks' differences compared as
//     PresentMon compares CPU and display deltas; mean, p99 and max of the absolute error;
//   - the first frame: frame 0 far longer than the rest (initialisation measured as a frame);
//   - findings: one line each for step aliasing and a long first frame, with cause and fix;
//   - the error of accumulating frame times as float seconds, double seconds and int64 ns.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/loop_engine.hpp"
#include "core/trace_record.hpp"

namespace loopscope {

inline constexpr std::int64_t kDefaultSpiralWindow = 30;
// A window counts its step flips when at least this share of its frames are step flips.
inline constexpr double kStepAliasingWindowShare = 0.25;
// The verdict has a step-aliasing finding from this step_aliasing_share on.
inline constexpr double kStepAliasingFindingShare = 0.05;
// Frame 0 is initialisation when it is at least this many times the other frames' mean, fed the
// simulation some of it, and either the clamp cut it or it fed at least kFirstFrameSteps steps.
inline constexpr double kFirstFrameFactor = 10.0;
inline constexpr std::int64_t kFirstFrameSteps = 4;

// The verdict on a run: see the top of this file.
enum class LoopState { ok, saturated, spiral };
// "ok", "saturated", "spiral".
std::string_view loop_state_name(LoopState state);

struct GuardEngagement {
    std::int64_t frame = 0;
    std::int64_t start_ns = 0;
    std::int64_t clamp_lost_ns = 0;   // real time the clamp dropped this frame
    std::int64_t cap_dropped_ns = 0;  // simulation time the step cap dropped this frame
};

// Frames first..last (the frame column) of a stretch of step aliasing.
struct FrameStretch {
    std::int64_t first_frame = 0;
    std::int64_t last_frame = 0;
};

struct LoopFigures {
    std::int64_t frames = 0;
    std::int64_t real_ns = 0;  // sum of raw frame times
    std::int64_t sim_ns = 0;   // simulation time the steps advanced
    std::int64_t steps = 0;
    std::int64_t max_steps_per_frame = 0;
    std::map<std::int64_t, std::int64_t> steps_histogram;  // steps per frame -> frames
    // Steps over frames; 0 without frames.
    double mean_steps_per_frame() const {
        return frames > 0 ? static_cast<double>(steps) / static_cast<double>(frames) : 0.0;
    }

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

    // The verdict (spiral of death and slow motion).
    std::int64_t window = kDefaultSpiralWindow;
    double spiral_threshold_ns = 0;  // dt / timescale: a step may cost no more real time
    bool has_step_costs = false;     // some frame has step_cost_ns > 0
    double mean_step_cost_ns = 0;    // over all steps with a known cost
    LoopState state = LoopState::ok;
    std::optional<std::int64_t> onset_frame;
    std::optional<std::int64_t> onset_ns;      // start_ns of the onset frame
    std::optional<double> slow_motion_factor;  // sim / real from the onset to the end
    // One line naming the bottleneck with its measured numbers (or why there is none).
    std::string cause;
    // Mean other per-frame time r (a frame's time minus the previous frame's step and wait
    // time), over the run and from the onset on; mean per-step cost from the onset on.
    double other_ns = 0;
    double onset_other_ns = 0;
    double onset_step_cost_ns = 0;
    // Headroom = step_cost_limit_ns - worst_window_step_cost_ns: how much the per-step cost may
    // grow before the loop leaves `ok` (negative once over). Unset without step costs or with
    // fewer than `window` frames. headroom_formula spells the computation out with its numbers.
    std::optional<double> worst_window_step_cost_ns;  // highest window-mean per-step cost
    double step_cost_limit_ns = 0;                    // c_max
    std::optional<double> headroom_ns;
    std::string headroom_formula;

    // Step aliasing (see the top of this file).
    std::int64_t step_flip_frames = 0;             // 0 steps beside 2 or more, whatever the times
    std::int64_t step_aliasing_frames = 0;         // the step flips in windows where they persist
    double step_aliasing_share = 0;                // step_aliasing_frames / frames
    double aliasing_zero_step_ns = 0;              // mean frame time of the counted 0-step frames
    double aliasing_multi_step_ns = 0;             // ... of the counted frames with 2 or more steps
    std::int64_t aliasing_most_steps = 0;          // most steps of a counted frame
    std::vector<FrameStretch> aliasing_stretches;  // where they were (the first of them)

    // The loop's animation error (see the top of this file), over frames 1.. (frame 0 has no
    // previous frame); absolute values. p99: nearest rank, to the microsecond.
    std::int64_t animation_error_frames = 0;
    double animation_error_mean_ns = 0;
    double animation_error_p99_ns = 0;
    std::int64_t animation_error_max_ns = 0;
    // What the policy shows and the error it is expected to have by design.
    std::string animation_error_expected;

    // Frame 0 when it is initialisation (see kFirstFrameFactor).
    bool first_frame_initialisation = false;
    std::int64_t first_frame_raw_ns = 0;

    // One line each, with the cause and the fix: step aliasing, a long first frame.
    std::vector<std::string> findings;

    // Computed one record at a time while reading (TraceLoopFigures), without the records kept:
    // the records of each row whose raw_ns is an Unreal hitch (> 60 ms and >= 1.5 x the row
    // before's) and of the row before it, by row index, so that the report can still split its
    // hitches into the loop's phases (core/hitch_cause.hpp). Empty otherwise.
    std::vector<std::pair<std::int64_t, FrameRecord>> hitch_records;
};

// The verdict in a few words for tables and markers: "ok", or "saturated from frame 12 at
// 200.000 ms" (the state and the onset).
std::string verdict_brief(const LoopFigures& figures);

// Whether a loop cut short by a time limit had really stopped advancing: a spiral that no guard
// bounds (no clamp, and no step cap on an accumulator policy), so its frame time grows without
// bound. A loop the guards hold keeps advancing, in slow motion, however dear its steps.
bool loop_froze(const LoopFigures& figures, const LoopConfig& config);

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
        double backlog = 0;  // simulation time owed at the frame (see the top of this file)
        std::int64_t step_cost_ns = 0;
        std::int64_t steps = 0;
        std::int64_t sim_ns = 0;
        std::int64_t raw_ns = 0;
        std::int64_t other_ns = 0;  // raw minus the previous frame's step and wait time
        std::int64_t clamp_lost_ns = 0;
        std::int64_t cap_dropped_ns = 0;
        std::int64_t frame = 0;
        std::int64_t start_ns = 0;
        bool engaged = false;  // a guard engaged on the frame
        bool flip = false;     // a step flip (final once the next frame is added)
    };
    // Sums from the onset on.
    struct AfterOnset {
        std::int64_t frames = 0;
        std::int64_t sim_ns = 0;
        std::int64_t real_ns = 0;
        std::int64_t step_cost_ns = 0;
        std::int64_t cost_steps = 0;  // steps of the frames with a known step cost
        std::int64_t other_ns = 0;
        std::int64_t clamp_lost_ns = 0;
        std::int64_t cap_dropped_ns = 0;
        std::int64_t engaged_frames = 0;
        void add(const Slot& s);
    };
    const Slot& slot(std::int64_t index) const {
        return ring_[static_cast<std::size_t>(index % ring_size_)];
    }
    void evaluate_window(std::int64_t start);
    // Frame `last` is final: the aliasing window ending at it (all the frames when fewer).
    void aliasing_frame_final(std::int64_t last);
    void count_aliasing(std::int64_t start, std::int64_t last);
    void add_animation_error(const FrameRecord& r, std::int64_t i);
    void describe_verdict(LoopFigures& f) const;
    void describe_findings(LoopFigures& f) const;
    LoopFigures assemble() const;  // figures() once the windows are evaluated

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
    std::int64_t window_engaged_ = 0;
    std::optional<double> worst_window_mean_;
    std::vector<double> suffix_min_;      // scratch of evaluate_window: lowest backlog from j on
    std::int64_t previous_spent_ns_ = 0;  // the previous frame's step and wait time
    std::int64_t other_total_ns_ = 0;     // over frames 1.. (frame 0 has no previous frame)
    AfterOnset after_;
    // Step aliasing: step flips among the final frames of the current window, and the first
    // frame not yet looked at by a counting window.
    std::int64_t window_flips_ = 0;
    bool latest_flips_ = false;  // the latest frame flips steps with the one before it
    std::int64_t aliasing_counted_until_ = 0;
    std::int64_t aliasing_zero_frames_ = 0, aliasing_multi_frames_ = 0;
    double aliasing_zero_total_ns_ = 0, aliasing_multi_total_ns_ = 0;
    std::int64_t aliasing_stretch_end_ = -1;  // index of the last counted step flip
    // Animation error: the previous frame's shown simulation time and render instant, and the
    // absolute errors by microsecond.
    std::int64_t previous_shown_ns_ = 0;
    std::int64_t previous_render_ns_ = 0;
    double animation_error_total_ns_ = 0;
    std::map<std::int64_t, std::int64_t> animation_error_us_;
    FrameRecord first_{};
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
