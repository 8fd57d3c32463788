// Latency figures from a capture's own latency columns: PC latency (FrameView, PresentMon 2.4+
// MsPCLatency), click-to-photon and all-input-to-photon (PresentMon 2.x), display latency (the
// application's frame start to the display: PresentMon 2.x DisplayLatency, 2.4+ MsCPUBusy +
// MsUntilDisplayed) and render-present latency (FrameView MsRenderPresentLatency). Each is over
// the frames of the range whose cell is a time: the capturing tool decides which frames carry a
// value (input latencies only frames that sampled input, display latency only displayed
// frames), so a figure is already of its own cadence. Pure computation: no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/capture.hpp"
#include "core/segments.hpp"

namespace loopscope {

// One latency column over the frames of a range that have a value. FrameView's summary
// (AvgPCLatency, MinPCLatency, MaxPCLatency, RenderPresentLatency) is the mean / min / max of
// the same cells (docs/reports.md, "Latency").
struct LatencySummary {
    std::size_t frames = 0;  // frames with a value; 0: the column is there, every cell NA
    double mean_ms = 0, p50_ms = 0, p99_ms = 0, min_ms = 0, max_ms = 0;
};

enum class LatencyKind { pc, click_to_photon, all_input_to_photon, display, render_present };

// The column a kind is read from in this capture ("MsPCLatency", "DisplayLatency",
// "MsCPUBusy + MsUntilDisplayed", ...), or empty when the capture has none.
std::string_view latency_column(const Capture& capture, LatencyKind kind);

// Each frame's latency of that kind in ns, -1 where it has none; empty when the capture has no
// such column. Display latency is derived on a PresentMon 2.4+ capture (see above).
std::vector<std::int64_t> latency_per_frame(const Capture& capture, LatencyKind kind);

// The summary over the frames of `range` that have a value; nullopt without the column.
std::optional<LatencySummary> latency_summary(const Capture& capture, LatencyKind kind,
                                              FrameRange range);

struct LatencyFigures {
    std::optional<LatencySummary> pc, click_to_photon, all_input_to_photon, display, render_present;
    const std::optional<LatencySummary>& of(LatencyKind kind) const;
};
LatencyFigures latency_figures(const Capture& capture, FrameRange range);

}  // namespace loopscope
