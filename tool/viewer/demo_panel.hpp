// The loops demo: the same bouncing ball under the variable, fixed-without-interpolation and
// fixed-with-interpolation loops side by side, fed the same frame times, with a render-rate
// slider and a spike button; and a ball running into a wall under interpolation and under
// extrapolation, where extrapolation draws the ball past the wall. Each lane has its own
// LoopEngine; the trails plot every rendered position so the judder shows in a still picture.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/loop_engine.hpp"
#include "tool/viewer/ball_physics.hpp"

namespace loopscope {

class LoopsDemo {
  public:
    LoopsDemo();
    // Advances the demo by the real time since the last call, in frames of the chosen render
    // rate, then draws it.
    void update_and_draw();

  private:
    struct Lane {
        std::string title;
        LoopConfig config;
        LoopEngine engine;
        BallStates states;
        struct Sample {
            double t_s;
            double x, y;
        };
        std::deque<Sample> trail;  // rendered positions, newest last
        double max_overshoot = 0.0;
    };
    void reset();
    void advance(std::int64_t raw_ns);
    void draw_lane(Lane& lane, bool wall_lane, float height);

    float render_hz_ = 30.0f;
    float sim_hz_ = 10.0f;
    float spike_ms_ = 250.0f;
    bool spike_pending_ = false;
    std::vector<Lane> bounce_lanes_;
    std::vector<Lane> wall_lanes_;
    double demo_time_s_ = 0.0;
    std::int64_t pending_ns_ = 0;  // real time not yet given to a demo frame
    std::chrono::steady_clock::time_point last_;
    bool started_ = false;
};

}  // namespace loopscope
