// One opened capture (or the live run) as the panels see it: the Capture the readers produced,
// the x position of every frame, the loop columns as plain series, a min/max pyramid per series
// for the graphs, and the report's statistics computed by the report's own code.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/capture.hpp"
#include "core/frame_stats.hpp"
#include "core/loop_engine.hpp"
#include "core/loop_figures.hpp"
#include "core/plot_decimation.hpp"
#include "core/trace_record.hpp"

namespace loopscope {

// A plotted series: its values and their pyramid (the x values are the document's).
struct PlotSeries {
    std::vector<std::int64_t> values;
    MinMaxPyramid pyramid;
    void update() { pyramid.update(values); }
};

// Histogram counts kept between screen frames: recounting ten million frames every frame would
// cost more than drawing them.
struct HistogramCache {
    double lo = 0, hi = 0;
    std::size_t bins = 0;
    bool log_bins = false;
    std::size_t frames = 0;
    std::vector<std::size_t> counts;
};

struct Document {
    std::string name;  // file name, or "live run"
    std::string path;  // as given ("" for the live run)
    Capture capture;
    bool shown = true;  // drawn in the comparison graphs
    int colour_index = 0;

    std::vector<std::int64_t> x_ns;  // frame start since the capture began, ascending
    PlotSeries frame_ns;             // present-to-present frame time (a copy: the pyramid's source)
    // Loop series, only when the capture carries loop columns (loopscope traces, live run).
    PlotSeries acc_after_ns;
    PlotSeries steps;
    PlotSeries alpha_ppm;  // alpha in millionths, so it shares the integer pyramid

    std::vector<std::int64_t> sorted_frame_ns;  // for the percentile curve
    FrameStats stats;                           // of the whole capture
    std::size_t stats_frames = 0;               // frames `stats` and `sorted_frame_ns` cover
    HistogramCache histogram;
    // The loop's knobs (from the trace's metadata, or the live run's) and the loop figures, for
    // documents with loop columns; spiral_onset_frame is where the figures found the spiral.
    std::optional<LoopConfig> loop_config;
    std::optional<LoopFigures> loop_figures;
    std::optional<std::size_t> spiral_onset_frame;

    bool has_loop() const { return !capture.loop.empty(); }
    std::size_t frames() const { return x_ns.size(); }
    std::int64_t end_ns() const { return x_ns.empty() ? 0 : x_ns.back() + frame_ns.values.back(); }

    // Takes in frames appended to `capture` since the last call (all of them the first time;
    // frames already taken in must not change):
    // extends the series and pyramids. Cheap per frame, for the live run.
    void sync_series();
    // Recomputes the statistics over every frame (O(n log n): call once after loading, and in
    // the live run a few times a second).
    void compute_stats();
};

// A document of engine records (a virtual run or the live run): frame time is raw_ns, x is the
// records' start_ns.
Document document_from_records(std::string name, std::vector<FrameRecord> records,
                               const LoopConfig& config);
// Appends one record (live run) to a document made by document_from_records.
void append_record(Document& doc, const FrameRecord& record);

// Reads a trace or capture through the project's readers; throws InputError as they do.
Document load_document(const std::string& path, const std::string& process);

// The frames [first, last) whose start lies in [begin_ns, end_ns): what a selected time range
// covers. first == last when it holds no frame start.
struct FrameRange {
    std::size_t first = 0;
    std::size_t last = 0;
};
FrameRange frames_in_range(const Document& doc, double begin_ns, double end_ns);

// Statistics of frames [first, last) of a document: the same code as the report.
FrameStats range_stats(const Document& doc, std::size_t first, std::size_t last);

}  // namespace loopscope
