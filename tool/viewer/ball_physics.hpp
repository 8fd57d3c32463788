// The object the live harness and the loops demo move: a ball in a unit box, stepped by whatever
// the loop engine decided for the frame, and drawn the way the policy renders (latest state,
// interpolated between the last two states, or extrapolated forward). Pure code, no GUI.
#pragma once

#include <cstdint>

#include "core/loop_engine.hpp"
#include "core/trace_record.hpp"

namespace loopscope {

struct Ball {
    double x = 0.5, y = 1.0;    // position in the unit box, y up
    double vx = 0.0, vy = 0.0;  // units per second
    double gravity = 8.0;       // units per second², 0 for the wall-bounce ball
};

// Semi-implicit Euler over h seconds; walls at 0 and 1 reflect the velocity. Its result depends
// on the step size, which is the point: a variable step gives different bounces.
void step_ball(Ball& ball, double h_s);

// The two states a renderer may blend.
struct BallStates {
    Ball previous;
    Ball current;
};

// Runs the steps the engine returned for this frame: dt steps for the accumulator policies and
// `naive`, one step of the consumed time for `variable`, steps of min(remaining, dt) for
// `semi-fixed`. At most kMaxBallSteps steps a frame (the frame's simulated time split evenly
// above that), so a tiny dt cannot freeze the viewer.
inline constexpr std::int64_t kMaxBallSteps = 4096;
void simulate_frame(const LoopConfig& config, const FrameRecord& record, BallStates& states);

// What the renderer shows after the frame: fixed-interp blends previous→current by alpha,
// fixed-extrap predicts current forward by alpha·dt (and so can cross a wall), the rest draw the
// current state.
Ball rendered_ball(const LoopConfig& config, const FrameRecord& record, const BallStates& states);

}  // namespace loopscope
