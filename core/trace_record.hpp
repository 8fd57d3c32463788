// One frame of a game loop as loopscope records it: the columns of the trace format v1 (see
// README.md, "Trace format"), in their order. The engine produces these, the recorder header
// writes them, `run` and `replay` save them and the reports read them back.
#pragma once

#include <cstdint>

namespace loopscope {

struct FrameRecord {
    std::int64_t frame = 0;           // frame index from 0
    std::int64_t start_ns = 0;        // frame start, since the trace began
    std::int64_t raw_ns = 0;          // measured frame time
    std::int64_t clamped_ns = 0;      // after the frame-time clamp
    std::int64_t clamp_lost_ns = 0;   // raw - clamped
    std::int64_t consumed_ns = 0;     // simulation time fed to the accumulator
    std::int64_t acc_before_ns = 0;   // accumulator after adding consumed, before stepping
    std::int64_t steps = 0;           // simulation steps (integrations) run this frame
    std::int64_t cap_dropped_ns = 0;  // simulation time the step cap discarded this frame
    std::int64_t acc_after_ns = 0;    // accumulator after stepping
    double alpha = 0.0;               // acc_after / dt, in [0, 1)
    std::int64_t step_cost_ns = 0;    // real time spent in the steps (0 when unknown)
    std::int64_t render_ns = 0;       // real time spent rendering (0 when unknown)
    std::int64_t wait_ns = 0;         // real time spent waiting (limiter, vsync; 0 when unknown)
};

// The header row of the trace format v1, in column order.
inline constexpr const char* kTraceColumns =
    "frame,start_ns,raw_ns,clamped_ns,clamp_lost_ns,consumed_ns,acc_before_ns,steps,"
    "cap_dropped_ns,acc_after_ns,alpha,step_cost_ns,render_ns,wait_ns";
inline constexpr const char* kTraceMagic = "# loopscope-trace v1";
// A `# clock_went_back: ...` line after the rows: the recorder saw the game's clock go back.
inline constexpr const char* kTraceClockWentBackKey = "clock_went_back";

}  // namespace loopscope
