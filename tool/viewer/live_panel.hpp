// The live harness: the loop engine on the real clock, one loop frame per viewer frame, with
// real busy work for the per-step and render costs, a real frame-rate cap, a spike button and
// every knob of the loop; its frames go into a Document so the same graphs and statistics show
// it as it runs, and it can be saved as a trace.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>

#include "core/loop_engine.hpp"
#include "tool/viewer/ball_physics.hpp"
#include "tool/viewer/document.hpp"
#include "tool/viewer/panels.hpp"
#include "tool/viewer/time_plot.hpp"

namespace loopscope {

class LiveRun {
  public:
    LiveRun(const LoopConfig& config, std::string trace_path);

    // One loop frame on the real clock: measures the time since the last call, advances the
    // engine, spends the steps' and the render's cost, then waits for the render-rate cap.
    void tick();
    // Controls, the moving ball and the graphs.
    void draw();
    bool running() const { return running_; }
    // What the "save trace" button does, to another path: sets the path field and saves.
    // False when it could not be saved; save_message() says what happened either way.
    bool save_trace_as(const std::string& path);
    const std::string& save_message() const { return save_message_; }

  private:
    using Clock = std::chrono::steady_clock;
    void restart_engine();
    void spin_for(std::int64_t ns);
    bool save_trace();

    LoopConfig config_;
    LoopEngine engine_;
    Document doc_;
    BallStates ball_;
    Ball shown_ball_;
    TimeView view_;
    GraphSettings settings_;

    bool running_ = true;
    bool have_last_ = false;
    Clock::time_point last_frame_start_;
    Clock::time_point last_stats_;
    std::int64_t engine_offset_ns_ = 0;  // time before the current engine (knob changes restart it)
    std::int64_t engine_offset_frames_ = 0;

    // Knobs the engine does not have: the harness's own costs and pacing.
    float render_cap_hz_ = 60.0f;  // 0 = uncapped
    float step_cost_ms_ = 1.0f;
    float render_cost_ms_ = 2.0f;
    float spike_ms_ = 200.0f;
    bool spike_pending_ = false;
    bool clamp_on_ = true;
    float clamp_ms_ = 250.0f;
    bool cap_on_ = false;
    int max_steps_ = 5;
    float dt_ms_ = 1000.0f / 60.0f;
    float timescale_ = 1.0f;
    std::int64_t work_capped_frames_ = 0;
    std::string trace_path_;
    std::string save_message_;
    std::array<char, 512> path_input_{};
};

}  // namespace loopscope
