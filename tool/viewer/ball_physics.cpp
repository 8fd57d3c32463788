// Ball stepping and rendering by policy (see ball_physics.hpp).
#include "tool/viewer/ball_physics.hpp"

#include <algorithm>

namespace loopscope {

void step_ball(Ball& ball, double h_s) {
    ball.vy -= ball.gravity * h_s;
    ball.x += ball.vx * h_s;
    ball.y += ball.vy * h_s;
    if (ball.x < 0.0) {
        ball.x = -ball.x;
        ball.vx = -ball.vx;
    } else if (ball.x > 1.0) {
        ball.x = 2.0 - ball.x;
        ball.vx = -ball.vx;
    }
    if (ball.y < 0.0) {
        ball.y = -ball.y;
        ball.vy = -ball.vy;
    }
}

// The ball takes at most kMaxBallSteps steps a frame. A tiny dt (--dt 1ns, the clamp off) asks for
// millions of steps a frame; stepping each one would make the viewer's own frame longer, the
// next frame ask for more steps, and the window freeze in a spiral of its own. Above the limit
// the frame's simulated time is split into this many equal steps: the ball covers the same
// time, with coarser bounces, which only the picture shows.

void simulate_frame(const LoopConfig& config, const FrameRecord& record, BallStates& states) {
    if (record.steps > kMaxBallSteps) {
        const double total_s =
            config.policy == Policy::semi_fixed
                ? static_cast<double>(record.consumed_ns) / 1e9
                : static_cast<double>(record.steps) * static_cast<double>(config.dt_ns) / 1e9;
        for (std::int64_t s = 0; s < kMaxBallSteps; ++s) {
            states.previous = states.current;
            step_ball(states.current, total_s / static_cast<double>(kMaxBallSteps));
        }
        return;
    }
    const double dt_s = static_cast<double>(config.dt_ns) / 1e9;
    switch (config.policy) {
        case Policy::variable:
            states.previous = states.current;
            step_ball(states.current, static_cast<double>(record.consumed_ns) / 1e9);
            break;
        case Policy::semi_fixed: {
            std::int64_t remaining = record.consumed_ns;
            for (std::int64_t s = 0; s < record.steps; ++s) {
                const std::int64_t h = std::min(remaining, config.dt_ns);
                states.previous = states.current;
                step_ball(states.current, static_cast<double>(h) / 1e9);
                remaining -= h;
            }
            break;
        }
        default:  // naive and the accumulator policies: whole steps of dt
            for (std::int64_t s = 0; s < record.steps; ++s) {
                states.previous = states.current;
                step_ball(states.current, dt_s);
            }
            break;
    }
}

Ball rendered_ball(const LoopConfig& config, const FrameRecord& record, const BallStates& states) {
    const double a = record.alpha;
    Ball out = states.current;
    if (config.policy == Policy::fixed_interp) {
        out.x = states.previous.x + (states.current.x - states.previous.x) * a;
        out.y = states.previous.y + (states.current.y - states.previous.y) * a;
    } else if (config.policy == Policy::fixed_extrap) {
        const double ahead_s = a * static_cast<double>(config.dt_ns) / 1e9;
        out.x = states.current.x + states.current.vx * ahead_s;
        out.y = states.current.y + states.current.vy * ahead_s;
    }
    return out;
}

}  // namespace loopscope
