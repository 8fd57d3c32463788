// The panels of the viewer, one source file each: frame_time_graph.cpp, loop_graphs.cpp,
// histogram_panel.cpp, stats_panel.cpp (live_panel.cpp and demo_panel.cpp have their own
// headers, as they keep state). Each draws into the current ImGui window.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "core/analysis.hpp"
#include "tool/viewer/document.hpp"
#include "tool/viewer/time_plot.hpp"

namespace loopscope {

struct GraphSettings {
    bool log_axis = false;  // logarithmic frame-time axis
    bool fps = false;       // show frames per second instead of milliseconds
};

// Frame time over time for every shown document, overlaid in their colours: budget lines at
// 16.7 and 33.3 ms and at the primary document's detected refresh, hitches (Unreal rule, red),
// CapFrameX stutters (orange ticks) and the spiral onset marked; the hovered frame's record in a
// tooltip.
void draw_frame_time_graph(std::span<Document* const> docs, const Document* primary, TimeView& view,
                           GraphSettings& settings, float height);

// Accumulator, steps per frame and alpha of one document on the same time axis. Draws a note
// instead when the document has no loop columns.
void draw_loop_graphs(const Document& doc, TimeView& view, float height_each);

// The loop verdict of a document's report (state, onset, slow motion, cause, headroom) as text;
// nothing when the report has no loop figures.
void draw_loop_verdict(const Document& doc);

// The graphs of a document that grows while shown (the live run, a game live): a "follow"
// checkbox (the time axis follows the newest frame), the frame-time graph and the loop graphs,
// with the given shares of the height left.
void draw_growing_document_graphs(Document& doc, TimeView& view, GraphSettings& settings,
                                  float frame_time_share, float loop_share_each);

// Frame-time histogram and percentile curve of every shown document, side by side.
void draw_histogram_panel(std::span<Document* const> docs, const GraphSettings& settings,
                          float height);

// A selected range's report, labelled with where it came from.
struct RangeReportView {
    std::string label;                // e.g. "frames 120-480 of run.csv"
    std::size_t first = 0, last = 0;  // the document's frames [first, last)
    CaptureReport report;
};

// The figure catalogue (core/figures.hpp) as a table: one row a figure, one column per shown
// document (and one for the selected range); "n/a: why" where a capture cannot have a figure.
void draw_stats_table(std::span<Document* const> docs, const std::optional<RangeReportView>& range);

// Milliseconds or FPS for the frame-time axis.
double frame_ns_to_ms(std::int64_t ns);
double frame_ns_to_fps(std::int64_t ns);

}  // namespace loopscope
