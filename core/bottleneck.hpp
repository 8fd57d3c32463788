// Where a frame's time went: whether it was CPU-bound, GPU-bound or waiting (on the display, a
// frame limiter, vsync), from the busy and wait columns the capturing tool wrote.
//
// PresentMon 2.x (CPUBusy, CPUWait, GPUBusy; 2.4+ MsCPUBusy, MsCPUWait, MsGPUBusy), per
// application frame, with T = CPUBusy + CPUWait (the time between the application's frame
// starts): the frame is bound by the busier of CPU and GPU when that busy time is at least
// kBusyShare of T (GPU on a tie), and wait-bound when neither is (both sat idle for more than a
// fifth of the frame: something else set its pace). Generated frames (frame generation) are
// not the application's work and are not classified.
// PresentMon 1.x and OCAT (msUntilRenderComplete, msInPresentAPI), per frame, with T its
// msBetweenPresents: GPU-bound when the GPU finished the frame's work T or more after the
// Present call (the render queue is backed up behind the GPU); else wait-bound when the
// Present call itself blocked for (1 − kBusyShare)·T or more (the display queue or a limiter
// held the CPU); else CPU-bound. docs/reports.md ("Where the time goes") gives the evidence.
// Pure computation: no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/capture.hpp"
#include "core/segments.hpp"

namespace loopscope {

inline constexpr double kBusyShare = 0.8;

enum class Bound : std::uint8_t { unknown, cpu, gpu, wait };
const char* bound_name(Bound bound);  // "CPU-bound", "GPU-bound", "wait-bound", "unknown"

// Which rule a capture's columns allow.
enum class BottleneckRule { none, busy_wait, render_complete };
BottleneckRule bottleneck_rule(const Capture& capture);

// Why the capture's frames cannot be classified (nullopt when they can).
std::optional<std::string> bottleneck_missing(const Capture& capture);

// One frame of the capture (its index in the capture's arrays).
Bound frame_bound(const Capture& capture, std::size_t frame);

struct BottleneckShares {
    std::size_t classified = 0, cpu = 0, gpu = 0, wait = 0;
    double cpu_share = 0, gpu_share = 0, wait_share = 0;  // of the classified frames
};
BottleneckShares bottleneck_shares(const Capture& capture, FrameRange range);

}  // namespace loopscope
