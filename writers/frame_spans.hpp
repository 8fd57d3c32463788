// The stretch of time each analysed frame time measures, and the frame it belongs to, for the
// writers that place frames on a time axis (the Chrome trace) or name a frame (hitch lists).
// A present's frame time ends at its present; a loopscope trace's raw_ns is measured at a frame's
// start and is the length of the frame before it; a running sum begins each frame.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis.hpp"

namespace loopscope {

struct FrameSpan {
    std::int64_t frame = 0;     // the capture's number of the frame that took this time
    std::int64_t begin_ns = 0;  // on the time axis: t = 0 at the first row's time stamp
    std::int64_t end_ns = 0;
};

// The span of series frame i as the capture's time column places it on its own.
FrameSpan frame_span(const CaptureReport& report, std::size_t i);

// Every series frame's span, laid end to end: a frame of the capture begins where the one before
// it ended, so no two spans partially overlap and each lasts exactly its frame time. The first
// frame, and the first after frames left out of the series, is placed by the capture's time
// column (frame_span), never before the end of the previous span. Laying frames end to end
// rather than each by its own time matters: time columns are rounded (0.1 us), and PresentMon
// 2.4+'s CPUStartTime is the application's frame start, not the previous present where
// MsBetweenPresents begins, so spans placed one by one overlap by up to tens of milliseconds.
// The Chrome trace draws these spans.
std::vector<FrameSpan> laid_out_frame_spans(const CaptureReport& report);

// The spans of the series frames `indices`, each beginning where the time axis places its row
// (core/segments.hpp, frame_begin_ns), in the order given: what the hitch lists give, so that a
// hitch's time used as --from selects it. They differ from the laid-out spans only by the
// rounding of a time column against the frame times (under 0.1 ms on the shared captures).
std::vector<FrameSpan> frame_spans_at(const CaptureReport& report,
                                      std::span<const std::size_t> indices);

// A time on the axis in seconds, rounded down to the millisecond: how the text reports print a
// hitch's time (with 3 decimals), so that the printed time typed back as --from still selects
// the frame (rounding to nearest could print a time just after it).
inline double seconds_down_to_ms(std::int64_t ns) {
    return std::floor(static_cast<double>(ns) / 1e6) / 1e3;
}

// The laid-out spans of the series frames `indices` only, in the order given: what a hitch list
// needs, without a span kept for every frame (24 bytes a frame, 216 MB for 9 M frames).
std::vector<FrameSpan> laid_out_frame_spans_at(const CaptureReport& report,
                                               std::span<const std::size_t> indices);

}  // namespace loopscope
