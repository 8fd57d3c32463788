// What every reader produces: the frames of one application's swap chain, in integer
// nanoseconds, whatever format they came from. Statistics and writers see only this.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/loop_figures.hpp"
#include "core/trace_record.hpp"

namespace loopscope {

struct CaptureSource {
    // The reader's name for the file's format (readers/readers.hpp lists them): shown in the
    // reports, never decided on here (Capture::description says what the capture is).
    std::string format;
    std::string file;     // path as given
    std::string process;  // application name ("" when the format has none)
    std::int64_t process_id = -1;
    std::string swap_chain;  // swap chain address as text ("" when the format has none)
};

// Cells of one column, of one kind, that are not the number the column holds (`Error`, an empty
// cell, a negative time, a wrapped unsigned value of 2^63 ns or more): the reader read on
// without them, as `treated_as` says. `NA` / `N/A` cells, which the tools write for "no
// value", are not counted here: they are part of the format.
struct BadCells {
    std::string column;      // the column's name as in the header ("Dropped")
    std::string kind;        // "not a number", "empty", "negative", "2^63 ns or more", ...
    std::string treated_as;  // "the row is read without a display time", ...
    std::int64_t count = 0;
    std::int64_t first_line = 0;    // 1-based place of the first such cell in the file
    std::int64_t first_column = 0;  // 1-based, 0 where the format has no columns (JSON)
    std::string first_text;         // the first such cell's text
};

// Something odd about the data that the reader read on with (rows out of time order, duplicated
// rows, the stream chosen among several of similar size, ...): counted under a key that names
// it in JSON's `data_quality`, and one sentence for the reports' notes.
struct DataOddity {
    std::string kind;  // "duplicated_rows", "rows_out_of_time_order", ... (docs/input-formats.md)
    std::int64_t count = 0;
    std::string note;
};

// What a reader found wrong with a capture it still read: JSON `data_quality`, the notes of
// every report, and what a strict reading refuses (bad cells only: oddities are facts about the
// recording, not damage to the file).
struct DataQuality {
    std::vector<BadCells> bad_cells;
    std::vector<DataOddity> oddities;
    bool empty() const { return bad_cells.empty() && oddities.empty(); }
    std::int64_t bad_cell_count() const {
        std::int64_t n = 0;
        for (const BadCells& b : bad_cells)
            n += b.count;
        return n;
    }
};
// A stretch of the game's own time that it named (the recorder's ScopedZone: trace format v2,
// live protocol v2), on the capture's time axis (the same as start_ns: since the first row's
// time stamp). Zones nest on one thread; `depth` is 0 for an outermost zone.
struct Zone {
    std::string label;
    std::int64_t begin_ns = 0;
    std::int64_t end_ns = 0;
    std::int64_t frame = -1;   // the frame it began in (the trace's frame column), -1 unknown
    std::uint32_t thread = 0;  // the recorder's number for the game thread that opened it
    std::uint32_t depth = 0;
};

// An instant the game named (the recorder's mark()), on the same time axis.
struct Mark {
    std::string label;
    std::int64_t t_ns = 0;
    std::int64_t frame = -1;  // the frame it fell in, -1 unknown
};

// Telemetry a per-frame log carries beside its frames (FrameView: GPU and CPU clocks,
// utilisation, temperatures, power). The tool samples it and repeats each sample on the rows
// until the next, so a row's value is the last sample taken before it.
struct TelemetryColumn {
    std::string name;            // the column as in the header ("GPU0Clk(MHz)")
    std::vector<double> values;  // one per frame; NaN where the row has none (NA)
    double median = 0;           // of the known values (NaN when there are none)
};

// The per-frame time columns a Capture keeps in `time_columns`.
enum class TimeColumn : std::uint8_t {
    click_to_photon,      // PresentMon 2.x (Ms)ClickToPhotonLatency
    all_input_to_photon,  // (Ms)AllInputToPhotonLatency
    // PresentMon 2.x DisplayLatency: the application's frame start to the frame's display
    // (2.4+ has no such column: it is derived there, see core/latency.cpp)
    display_latency,
    cpu_wait,     // PresentMon 2.x (Ms)CPUWait
    gpu_busy,     // (Ms)GPUBusy
    gpu_wait,     // (Ms)GPUWait
    gpu_latency,  // (Ms)GPULatency
    pso_compile,  // PresentMon 2.6 MsPsoCompileTime: the frame's time compiling shaders (PSOs)
};
inline constexpr std::size_t kTimeColumns = 8;

// What a reader says of its capture, so that the analysis decides from the capture itself and
// never from the name of the format it came from (docs/architecture.md): a new format fills one
// of these and changes nothing downstream. The default is a capture with the columns of the
// PresentMon family's newest layout and no peculiarity. The texts are the capture's own column
// names and facts, for the reports: each field points at static text (readers fill them from
// their own tables), so a capture of thousands of streams copies no strings.
struct CaptureDescription {
    // Where each timeline's frame times come from, as the capture names the column
    // (docs/input-formats.md, "Recognising the format").
    std::string_view present_column = "MsBetweenPresents";
    std::string_view display_column = "MsBetweenDisplayChange";
    // The present timeline's source when its times are rebuilt from the application's frame
    // starts and CPU busy times (start_ends_frame_time with cpu_busy_ns for every frame), ""
    // where the capture's present times are its own.
    std::string_view rebuilt_present_column;
    // The column app_interval_ns comes from (the time between the application's frame starts).
    std::string_view app_interval_column = "FrameTime";

    // What frame 0 is. True: its time is a frame time (a present's time since a present before
    // the capture began). False: it has no previous frame, so its time is only the time since
    // the recording began (about 0): statistics, stutter and hitches leave it out.
    bool first_frame_is_frame_time = true;
    // How generated frames are timed. True: generated frames have no frame time on the present
    // timeline (their frame_ns is the application's cadence, 0 there, not a 0 ms frame), so the
    // present timeline holds the application frames and generated ones are counted apart.
    bool generated_frames_have_no_frame_time = false;
    // The time column counts from the start of the tool's own recording, so a range from frame
    // 0 is timed from that start rather than from the present before the first frame.
    bool time_counts_from_recording_start = false;

    // The latency bases: the columns the input-to-photon latencies come from, and whether the
    // display latency may be derived from the frame's CPU start and its time until displayed
    // where the capture has no display-latency column (core/latency.cpp).
    std::string_view click_to_photon_column = "MsClickToPhotonLatency";
    std::string_view all_input_to_photon_column = "MsAllInputToPhotonLatency";
    bool display_latency_from_cpu_start = false;

    // The tool rules that apply, as their absence is said: the name of the tool whose rows a
    // sampled log holds ("" where the reports name the capture by its format), why the tool's
    // logs never have the bottleneck columns and why they have no application frame-start
    // column ("" for the general reasons).
    std::string_view tool_name;
    std::string_view bottleneck_absent_reason;
    std::string_view application_cadence_absent_reason;
};

inline constexpr std::uint8_t kPresentModeOther = 0;
inline constexpr std::uint8_t kPresentModeComposed = 1;
inline constexpr std::uint8_t kPresentModeDirect = 2;

struct Capture {
    CaptureSource source;
    // What the reader says of this capture's timelines, frame 0, generated frames, latency
    // bases and tool rules; the sample kind follows (per_frame, sample_kind).
    CaptureDescription description;
    // False for sampled logs (MangoHud, MSI Afterburner: one row per logging interval):
    // per-frame figures such as percentiles of frames and stutter cannot be computed from them.
    bool per_frame = true;
    // What one row of a sampled log holds, which its figures' labels say.
    enum class SampleKind {
        none,  // a row per frame
        // MangoHud: the time of the latest single frame when the row was logged (a point
        // sample of one frame; src/logging.cpp and src/overlay.cpp since 2023-01-23)
        latest_frame,
        // MSI Afterburner: 1000 / the Framerate sensor, the frame rate over a polling interval
        interval_rate,
    };
    SampleKind sample_kind = SampleKind::none;
    // MSI Afterburner's Frametime sensor on each row, -1 where it was N/A: a second figure of
    // the interval beside its frame rate (docs/input-formats.md says what is known of it).
    std::vector<std::int64_t> sensor_frame_ns;

    // One entry per frame (or per sample when !per_frame), all vectors the same length where
    // present; an optional column is empty when the format lacks it.
    std::vector<std::int64_t> frame_ns;  // present-to-present frame time (the main timeline)
    // Frame start on the report's time axis: since the time stamp of this stream's first row
    // (so start_ns[0] is 0); where a format has no time column, the running sum of frame_ns from
    // 0. See start_ends_frame_time for where it sits on a frame's time.
    std::vector<std::int64_t> start_ns;
    // Where t = 0 lies on the capture's own clock (its time column: TimeInSeconds, QPC ticks
    // since the file's first, a trace's start_ns, ...): the first row's time stamp, taken off
    // every start_ns (and loop record's) so that no other time mixes the two. 0 where the
    // format has no time column.
    std::int64_t clock_origin_ns = 0;
    // Where start_ns[i] sits on the stretch of time frame_ns[i] measures. False: at its
    // beginning (a running sum, a CPU start column). True: at its end: a present's time
    // (TimeInSeconds, QPCTime) ends the time since the previous present, and a loopscope
    // trace's frame start ends the previous frame, whose length that row's raw_ns is.
    bool start_ends_frame_time = false;
    std::vector<std::int64_t> display_ns;  // time between display changes; -1 where not displayed
    std::vector<std::uint8_t> dropped;     // 1 where the frame was never displayed
    std::vector<std::uint8_t> generated;   // 1 where the frame was generated (FrameType != App)
    // Time since the application's previous frame start (PresentMon 2.x FrameTime = CPUBusy +
    // CPUWait, 2.4+ MsBetweenAppStart): the application's cadence; 0 on generated frames, -1
    // where the cell was NA.
    std::vector<std::int64_t> app_interval_ns;
    // Time from the application's frame start to its Present call (PresentMon 2.x CPUBusy, 2.4+
    // MsCPUBusy); -1 where the cell was NA.
    std::vector<std::int64_t> cpu_busy_ns;
    // Time from the frame's CPU start to the start of its present (PresentMon 2.4+ TimeInQPC −
    // CPUStartQPC, at the QPC frequency the file's own times give); -1 where unknown. On a
    // generated frame it differs from MsCPUBusy, which PresentMon sets to 0 (or NA) there.
    std::vector<std::int64_t> cpu_start_to_present_ns;
    // How many frames at the start have no frame time, though their rows hold other columns: a
    // PresentMon 2.x "v2 metrics" capture's frame times are rebuilt from its present times
    // (CPU start + CPUBusy), and its first frame has no earlier present in the file.
    std::size_t leading_frames_without_time = 0;
    // 1 where the frame was presented with SyncInterval 0 and AllowsTearing 1 (PresentMon
    // family): its display change did not wait for a refresh.
    std::vector<std::uint8_t> tearing;
    // Per-frame columns that only serve as evidence of how frames reached the display (frame
    // generation's pattern, whether display changes follow presents); each empty when the format
    // lacks the column, -1 where the cell was NA or not a time >= 0.
    std::vector<std::int64_t> pc_latency_ns;              // FrameView MsPCLatency
    std::vector<std::int64_t> in_present_api_ns;          // MsInPresentAPI
    std::vector<std::int64_t> until_displayed_ns;         // MsUntilDisplayed (present to display)
    std::vector<std::int64_t> render_present_latency_ns;  // FrameView MsRenderPresentLatency
    std::vector<std::int64_t> until_render_complete_ns;   // PresentMon 1.x msUntilRenderComplete
    std::vector<std::int64_t> gpu_active_ns;              // PresentMon 1.x msGPUActive
    std::vector<TelemetryColumn> telemetry;               // FrameView's sampled sensors
    // Latency and where the frame's time went (core/latency.hpp, core/bottleneck.hpp), by
    // TimeColumn, in the same convention: an empty column without the capture's column, -1
    // where the cell was NA or not a time >= 0 (those are counted in data_quality); no columns
    // at all for a format that has none of them, so a capture of many streams pays one empty
    // vector a stream. pc_latency_ns, render_present_latency_ns and until_render_complete_ns
    // above are read the same way.
    std::vector<std::vector<std::int64_t>> time_columns;
    const std::vector<std::int64_t>& time_column(TimeColumn column) const {
        static const std::vector<std::int64_t> none;
        const auto at = static_cast<std::size_t>(column);
        return at < time_columns.size() ? time_columns[at] : none;
    }
    std::vector<std::int64_t>& time_column_to_fill(TimeColumn column) {
        if (time_columns.empty())
            time_columns.resize(kTimeColumns);
        return time_columns[static_cast<std::size_t>(column)];
    }
    // How the frame reached the display (PresentMon family's PresentMode): kPresentModeComposed
    // (the desktop compositor, which flips at the refresh), kPresentModeDirect (to the display
    // without composition: "Hardware: …", "Hardware Composed: Independent Flip"), or
    // kPresentModeOther (unknown, other).
    std::vector<std::uint8_t> present_mode;
    // 1 where SyncInterval >= 1 (the present waits for a vertical blank), 0 where it is 0.
    std::vector<std::uint8_t> waits_for_vblank;
    std::vector<std::int64_t> animation_error_ns;  // PresentMon 2.x AnimationError, if present
    // 1 where animation_error_ns holds a value; 0 where the cell was NA (generated frames,
    // frames never displayed, the first frame), and animation_error_ns holds 0 there.
    std::vector<std::uint8_t> animation_error_known;

    // Loop columns, only for loopscope traces (same length as frame_ns).
    std::vector<FrameRecord> loop;
    // The game's zones and marks (a loopscope trace v2 or a live stream v2; empty otherwise),
    // each sorted by its begin (zones) or time (marks).
    std::vector<Zone> zones;
    std::vector<Mark> marks;
    // The capture began while the program was running (a live stream joined mid-run), so its
    // first frames are no start-up.
    bool attached_mid_run = false;
    // Instead of `loop`, when the reader was asked not to keep the records (a report over the
    // whole trace in a format without per-frame loop columns): the loop figures of all the
    // frames, computed while reading (core/analysis.hpp, TraceLoopFigures), in constant memory.
    // Held apart: a capture of thousands of streams holds thousands of Captures, none of them
    // a trace's.
    std::shared_ptr<const LoopFigures> loop_figures;
    // `# key: value` metadata of a loopscope trace, `//Key=Value` lines of CapFrameX, etc.
    std::map<std::string, std::string> metadata;
    // What the reader kept or left out with a doubt ("FILE:LINE: ..."), for the reports'
    // notes: e.g. a trace whose last row has no line break.
    std::vector<std::string> warnings;
    // Cells that were not numbers and what was odd about the rows (see DataQuality).
    DataQuality data_quality;

    std::size_t frames() const { return frame_ns.size(); }
};

// Whether frame 0's time is a frame time (CaptureDescription::first_frame_is_frame_time).
inline bool first_frame_is_frame_time(const Capture& capture) {
    return capture.description.first_frame_is_frame_time;
}

// Whether a capture says anything of the display: when frames changed it, were dropped, how they
// were presented (mode, sync interval, tearing) or how long until they were displayed. Without
// any of these its frame times are the game's alone.
inline bool has_display_information(const Capture& capture) {
    return !capture.display_ns.empty() || !capture.dropped.empty() ||
           !capture.present_mode.empty() || !capture.waits_for_vblank.empty() ||
           !capture.tearing.empty() || !capture.until_displayed_ns.empty();
}

// Whether a capture has a game loop's columns (a loopscope trace read with them): its records,
// or the loop figures computed from them while reading.
inline bool has_loop_columns(const Capture& capture) {
    return !capture.loop.empty() || capture.loop_figures != nullptr;
}

// Whether generated frames lack a frame time on the present timeline
// (CaptureDescription::generated_frames_have_no_frame_time).
inline bool generated_frames_have_no_frame_time(const Capture& capture) {
    return capture.description.generated_frames_have_no_frame_time;
}

}  // namespace loopscope
