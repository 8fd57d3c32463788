// One opened capture (or the live run) as the panels see it: the Capture the readers produced,
// the x position of every frame, the loop columns as plain series, a min/max pyramid per series
// for the graphs, and the report of the capture from the report's own analysis
// (core/analysis.hpp): the viewer draws that report and computes no figure of its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/capture.hpp"
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
    Document() = default;
    // The report points into `capture`: a document stays where it was made.
    Document(const Document&) = delete;
    Document& operator=(const Document&) = delete;

    std::string name;  // file name, or "live run"
    std::string path;  // as given ("" for the live run)
    Capture capture;
    bool shown = true;  // drawn in the comparison graphs
    int colour_index = 0;

    // Each row's time, ns since the first row's time stamp (t = 0), ascending: its time column
    // (a present's time, a trace's frame start, where the loop graphs plot its loop columns).
    std::vector<std::int64_t> x_ns;
    // When each row's frame time began (core/segments.hpp, frame_begin_ns), ascending: the
    // frame-time graph draws frame i from began_ns[i] for its frame time, the hitch markers
    // stand there, and a selection takes the frames that began in it, as --from / --to does.
    std::vector<std::int64_t> began_ns;
    PlotSeries frame_ns;  // present-to-present frame time (a copy: the pyramid's source)
    // Loop series, only when the capture carries loop columns (loopscope traces, live run).
    PlotSeries acc_after_ns;
    PlotSeries steps;
    PlotSeries alpha_ppm;  // alpha in millionths, so it shares the integer pyramid

    // The frame times of the report's series, the frames its figures are of (a trace's frame 0
    // is not one), copied when analysed because the capture grows after that in a live run:
    // what the histogram counts.
    std::vector<std::int64_t> report_frame_ns;
    // The report of the whole capture on the present timeline, as `loopscope report` computes
    // it (segments, display timeline, generated frames, refresh, loop figures with the loop
    // configuration of the metadata, if it states one); unset before the first frame.
    std::optional<CaptureReport> report;
    HistogramCache histogram;

    bool has_loop() const { return !capture.loop.empty(); }
    std::size_t frames() const { return x_ns.size(); }
    std::int64_t end_ns() const {
        return began_ns.empty() ? 0
                                : std::max(x_ns.back(), began_ns.back() + frame_ns.values.back());
    }
    std::int64_t begin_ns() const { return began_ns.empty() ? 0 : began_ns.front(); }
    // The time the frames cover, from the first one's beginning to the last one's end.
    std::int64_t duration_ns() const { return end_ns() - begin_ns(); }
    // The frame where the loop verdict puts the onset of the trouble, saturated or spiral (only
    // with a loop configuration), and the marker's label: "saturated from here" and the like.
    std::optional<std::size_t> spiral_onset_frame() const;
    std::string onset_label() const;

    // Takes in frames appended to `capture` since the last call (all of them the first time;
    // frames already taken in must not change):
    // extends the series and pyramids. Cheap per frame, for the live run.
    void sync_series();
    // Runs the report's analysis over every frame (O(n log n): call once after loading, and in
    // the live run a few times a second).
    void analyse();
};

// A document of engine records (a virtual run or the live run): frame time is raw_ns, x is the
// records' start_ns; the loop configuration goes into the capture's metadata as a trace's
// would, so the analysis reads it back through the one metadata parser.
std::unique_ptr<Document> document_from_records(std::string name, std::vector<FrameRecord> records,
                                                const LoopConfig& config);
// Appends one record (live run) to a document made by document_from_records.
void append_record(Document& doc, const FrameRecord& record);
// States `config` in the capture's metadata (the live run changes its knobs as it goes).
void set_loop_metadata(Capture& capture, const LoopConfig& config);

// Reads a trace or capture through the project's readers; throws InputError as they do (and for
// a bad cell with `strict`, ReadOptions::strict).
std::unique_ptr<Document> load_document(const std::string& path, const std::string& process,
                                        bool strict = false);

// The frames [first, last) that began (Document::began_ns) in [begin_ns, end_ns): what a
// selected time range covers, the frames `report --from --to` takes for those times.
// first == last when no frame began in it.
struct SelectedFrames {
    std::size_t first = 0;
    std::size_t last = 0;
};
SelectedFrames frames_in_range(const Document& doc, double begin_ns, double end_ns);

// The report of frames [first, last) of a document: `loopscope report --from first --to last`.
CaptureReport range_report(const Document& doc, std::size_t first, std::size_t last);

}  // namespace loopscope
