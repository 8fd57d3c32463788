// What every reader produces: the frames of one application's swap chain, in integer
// nanoseconds, whatever format they came from. Statistics and writers see only this.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/loop_figures.hpp"
#include "core/trace_record.hpp"

namespace loopscope {

struct CaptureSource {
    // "loopscope-trace", "presentmon-1", "presentmon-2", "presentmon-2.4", "ocat", "frameview",
    // "capframex-json", "capframex-csv", "mangohud", "plain" (see reports/readers.hpp)
    std::string format;
    std::string file;     // path as given
    std::string process;  // application name ("" when the format has none)
    std::int64_t process_id = -1;
    std::string swap_chain;  // swap chain address as text ("" when the format has none)
};

inline constexpr std::uint8_t kPresentModeOther = 0;
inline constexpr std::uint8_t kPresentModeComposed = 1;
inline constexpr std::uint8_t kPresentModeDirect = 2;

struct Capture {
    CaptureSource source;
    // False for sampled logs (MangoHud: one row per interval, averaged): per-frame figures such
    // as percentiles of frames and stutter cannot be computed from them.
    bool per_frame = true;

    // One entry per frame (or per sample when !per_frame), all vectors the same length where
    // present; an optional column is empty when the format lacks it.
    std::vector<std::int64_t> frame_ns;  // present-to-present frame time (the main timeline)
    // Frame start since the capture began; where a format has no time column, the running sum
    // of frame_ns from 0. See start_ends_frame_time for where it sits on a frame's time.
    std::vector<std::int64_t> start_ns;
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
    // Instead of `loop`, when the reader was asked not to keep the records (a report over the
    // whole trace in a format without per-frame loop columns): the loop figures of all the
    // frames, computed while reading (core/analysis.hpp, TraceLoopFigures), in constant memory.
    std::optional<LoopFigures> loop_figures;
    // `# key: value` metadata of a loopscope trace, `//Key=Value` lines of CapFrameX, etc.
    std::map<std::string, std::string> metadata;
    // What the reader kept or left out with a doubt ("FILE:LINE: ..."), for the reports'
    // notes: e.g. a trace whose last row has no line break.
    std::vector<std::string> warnings;

    std::size_t frames() const { return frame_ns.size(); }
};

// Whether frame 0's time is a frame time. In a loopscope trace it is not: frame 0 has no
// previous frame, so its raw_ns is only the time since the trace began (about 0). Statistics,
// stutter and hitches leave it out; the trace and its loop records keep it. A PresentMon-like
// capture's first row is timed against a present before the capture began, so it counts.
inline bool first_frame_is_frame_time(const Capture& capture) {
    return capture.source.format != "loopscope-trace";
}

// Whether a capture has a game loop's columns (a loopscope trace read with them): its records,
// or the loop figures computed from them while reading.
inline bool has_loop_columns(const Capture& capture) {
    return !capture.loop.empty() || capture.loop_figures.has_value();
}

// Whether generated frames lack a frame time. PresentMon 2.x's FrameTime is the time between the
// application's frame starts and is 0 on generated frames, which are not 0 ms frames: its present
// timeline is the application frames' (generated ones are counted and on the display timeline).
inline bool generated_frames_have_no_frame_time(const Capture& capture) {
    return capture.source.format == "presentmon-2";
}

}  // namespace loopscope
