// The catalogue's figures of each tool's own rules (core/tool_figures.hpp).
#include "core/figure_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "common/errors.hpp"
#include "core/bottleneck.hpp"
#include "core/figure_parts.hpp"
#include "core/hitch_cause.hpp"
#include "core/latency.hpp"
#include "core/percentile.hpp"
#include "core/tool_figures.hpp"
#include "core/units.hpp"

namespace loopscope::figure_parts {

namespace {

// Each tool's own figures (core/tool_figures.hpp).
constexpr std::string_view kToolSection = "Each tool's own figures";

// OCAT divides by its recording's clock: the time of the last present, counted from the start
// of the recording (TimeInSeconds). Only a present timeline whose time column holds the
// presents' times has it.
constexpr std::string_view kOcatClockAbsent =
    "OCAT divides by the time of the last present on the recording's clock: it needs the "
    "present timeline of a capture whose time column holds the presents' times (TimeInSeconds, "
    "QPCTime)";
std::optional<OcatAverages> ocat_averages_of(const CaptureReport& r) {
    const Series& s = r.series;
    if (r.timeline != Timeline::present || !r.capture->start_ends_frame_time ||
        s.start_ns.empty() || s.start_ns.size() != s.frame_ns.size()) {
        return std::nullopt;
    }
    // OCAT's own TimeInSeconds counts from the start of its recording; another tool's time
    // column counts from elsewhere (FrameView's from long before the capture), so there, as for
    // a range that starts later, the clock starts at the present before the first frame.
    const bool recording_clock =
        r.capture->description.time_counts_from_recording_start && s.frame_number.front() == 0;
    // start_ns counts from the first row (Capture::clock_origin_ns is the recording's clock there).
    const std::int64_t origin =
        recording_clock ? -r.capture->clock_origin_ns : s.start_ns.front() - s.frame_ns.front();
    const std::int64_t elapsed = s.start_ns.back() - origin;
    if (elapsed <= 0)
        return std::nullopt;
    return ocat_averages(s.frame_ns.size(), elapsed);
}

// ---- Other tools' figures that users compare ----
// Frames never displayed, over the range: the Dropped column, or no display change.
std::vector<std::uint8_t> dropped_in_range(const CaptureReport& r) {
    const Capture& c = *r.capture;
    std::vector<std::uint8_t> out;
    out.reserve(r.range.size());
    for (std::size_t i = r.range.begin; i < r.range.end && i < c.frames(); ++i) {
        if (c.dropped.size() == c.frames())
            out.push_back(c.dropped[i]);
        else
            out.push_back(c.display_ns.size() == c.frames() && c.display_ns[i] < 0 ? 1 : 0);
    }
    return out;
}

template <std::size_t Index>
std::optional<double> capframex_threshold(const CaptureReport& r) {
    return static_cast<double>(r.fps_threshold_counts[Index]);
}

// Each tool's keyed figures of the frame times, one row a figure: the number the tool itself
// prints for the same frames, by its rule (core/tool_figures.hpp names the file and commit each
// was read from). Keys and definitions are written out so that each key can be found here and in
// docs/reports.md.
struct ToolRow {
    std::string_view key;
    double ToolFigures::*field;
    std::string_view definition;  // "{}" stands for the frame-time column
    std::string_view unit = "FPS";
    unsigned needs = kNeedsFrames;
    bool compared = true;
};
template <double ToolFigures::*Field>
std::optional<double> tool_value(const FrameStats& s) {
    return s.frame_time.tools.*Field;
}
template <double ToolFigures::*Field>
std::optional<double> tool_report_value(const CaptureReport& r) {
    return tool_value<Field>(r.stats);
}
template <const auto& Table, std::size_t I>
constexpr Figure table_figure() {
    constexpr ToolRow row = Table[I];
    return Figure{.key = row.key,
                  .section = kToolSection,
                  .unit = row.unit,
                  .definition = row.definition,
                  .column = FigureColumn::frame_time,
                  .needs = row.needs,
                  .value = tool_report_value<row.field>,
                  .frame_value = tool_value<row.field>,
                  .compared = row.compared};
}
template <const auto& Table, std::size_t... I>
constexpr auto table_figures(std::index_sequence<I...>) {
    return std::array{table_figure<Table, I>()...};
}

// Each tool's summary row: the numbers it prints, as it rounds them.
std::string frameview_summary(const CaptureReport& r) {
    const ToolFigures& t = tools(r);
    return fmt::format(
        "avg {:.3f}, 1% low {:.3f}, 0.1% low {:.3f}, 1% {:.3f}, 0.1% {:.3f}, 5% "
        "{:.3f}, 10% {:.3f}, min {:.3f}, max {:.3f}",
        t.frameview_avg_fps, t.frameview_low1_fps, t.frameview_low01_fps, t.frameview_p1_fps,
        t.frameview_p01_fps, t.frameview_p5_fps, t.frameview_p10_fps, t.frameview_min_fps,
        t.frameview_max_fps);
}

std::string mangohud_summary(const CaptureReport& r) {
    const ToolFigures& t = tools(r);
    return fmt::format("avg {:.1f}, 1% min {:.1f}, 0.1% min {:.1f}, 97% {:.1f}", t.mangohud_avg_fps,
                       t.mangohud_min1_fps, t.mangohud_min01_fps, t.mangohud_p97_fps);
}

std::string capframex_summary(const CaptureReport& r) {
    const ToolFigures& t = tools(r);
    return fmt::format("P1 {:.2f}, P0.1 {:.2f}", t.capframex_p1_fps, t.capframex_p01_fps);
}

std::string presentmon_summary(const CaptureReport& r) {
    const ToolFigures& t = tools(r);
    return fmt::format(
        "avg {:.3f}, 1st percentile {:.3f}, 5th percentile {:.3f}, "
        "min {:.3f}, max {:.3f}",
        t.presentmon_avg_fps, t.presentmon_p1_fps, t.presentmon_p5_fps, t.presentmon_min_fps,
        t.presentmon_max_fps);
}

std::string ocat_summary(const CaptureReport& r) {
    const ToolFigures& t = tools(r);
    const auto avg = ocat_averages_of(r);
    const std::string head =
        avg ? fmt::format("avg {:.1f} FPS, {:.1f} ms; ", avg->avg_fps, avg->avg_frame_time_ms)
            : std::string();
    return head + fmt::format("p95 {:.1f}, p99 {:.1f}, p99.9 {:.1f} ms", t.ocat_p95_ms,
                              t.ocat_p99_ms, t.ocat_p999_ms);
}

// A tool's summary row: the numbers the tool prints, by its rules, in one cell.
constexpr Figure tool_summary(std::string_view label, std::string_view unit,
                              std::string_view definition, FigureColumn column, unsigned needs,
                              std::string (*text)(const CaptureReport&)) {
    return Figure{.section = kToolSection,
                  .label = label,
                  .unit = unit,
                  .definition = definition,
                  .column = column,
                  .needs = needs,
                  .text = text};
}

constexpr std::array kToolSummaryFigures = {
    // Each tool's own figures: the number the tool itself prints for the same frames, by its
    // rule (core/tool_figures.hpp names the file and commit each was read from). One summary
    // row a tool; the keyed figures are in the JSON, the gates and the comparison.
    // A row a line, as a table reads.
    // clang-format off
    tool_summary("FrameView", "FPS", "FrameView_Summary.csv's Avg, 1% / 0.1% Low, 1% / 0.1% / 5% / 10%, Min, Max FPS by FrameView's rules over {} (frameview_* below)", FigureColumn::frame_time, kNeedsFrames, frameview_summary),
    tool_summary("MangoHud", "FPS", "MangoHud's log summary (Average, 1% Min, 0.1% Min, 97% Percentile FPS) by its rules over {}, in float32 (mangohud_* below)", FigureColumn::frame_time, kNeedsSingleFrames, mangohud_summary),
    tool_summary("CapFrameX P1, P0.1", "FPS", "CapFrameX's P1 and P0.1: the 0.01 / 0.001 quantile (R-8) of the FPS values 1000 / {} (capframex_p1_fps, capframex_p01_fps)", FigureColumn::frame_time, kNeedsFrames, capframex_summary),
    tool_summary("PresentMon statistics", "FPS", "the -stats.csv PresentMon writes beside a capture: Average, 1st and 5th Percentile, Minimum, Maximum FPS over {} (presentmon_* below)", FigureColumn::frame_time, kNeedsFrames, presentmon_summary),
    tool_summary("OCAT perf_summary", "ms", "OCAT's perf_summary.csv: Average FPS and frame time over the recording's clock, 95th / 99th / 99.9th-percentile frame time (ocat_* below)", FigureColumn::none, kNeedsFrames, ocat_summary),
    // clang-format on
};

constexpr ToolRow kFrameToolTable[] = {
    {.key = "frameview_avg_fps",
     .field = &ToolFigures::frameview_avg_fps,
     .definition = "FrameView \"Avg FPS\": 1000·N / Σ {} over every frame (FrameView counts every "
                   "row: dropped, Error and generated frames included)"},
    {.key = "frameview_low1_fps",
     .field = &ToolFigures::frameview_low1_fps,
     .definition = "FrameView \"1% Low FPS\": 1000 / the mean of the floor(N/100) + 1 longest {}"},
    {.key = "frameview_low01_fps",
     .field = &ToolFigures::frameview_low01_fps,
     .definition =
         "FrameView \"0.1% Low FPS\": 1000 / the mean of the floor(N/1000) + 1 longest {}"},
    {.key = "frameview_p1_fps",
     .field = &ToolFigures::frameview_p1_fps,
     .definition = "FrameView \"1% FPS\": 1000 / the (floor(N/100) + 1)-th longest {}"},
    {.key = "frameview_p01_fps",
     .field = &ToolFigures::frameview_p01_fps,
     .definition = "FrameView \"0.1% FPS\": 1000 / the (floor(N/1000) + 1)-th longest {}"},
    {.key = "frameview_p5_fps",
     .field = &ToolFigures::frameview_p5_fps,
     .definition = "FrameView \"5% FPS\": 1000 / the (floor(N/20) + 1)-th longest {}"},
    {.key = "frameview_p10_fps",
     .field = &ToolFigures::frameview_p10_fps,
     .definition = "FrameView \"10% FPS\": 1000 / the (floor(N/10) + 1)-th longest {}"},
    {.key = "frameview_min_fps",
     .field = &ToolFigures::frameview_min_fps,
     .definition = "FrameView \"Min FPS\": 1000 / the longest {}"},
    {.key = "frameview_max_fps",
     .field = &ToolFigures::frameview_max_fps,
     .definition = "FrameView \"Max FPS\": 1000 / the shortest {}"},
    // MangoHud computes its summary from its log's rows (one frame's time every 100 ms), so
    // these exist for its sampled logs as for per-frame captures: no kNeedsFrames.
    {.key = "mangohud_avg_fps",
     .field = &ToolFigures::mangohud_avg_fps,
     .definition = "MangoHud \"Average FPS\": 1000 / (Σ {} / N), the sum taken in float32 longest "
                   "first as MangoHud's writeSummary sums its rows",
     .needs = kNeedsSingleFrames},
    {.key = "mangohud_min1_fps",
     .field = &ToolFigures::mangohud_min1_fps,
     .definition =
         "MangoHud \"1% Min FPS\" (since 2024-08): {} as float32, longest first; 1000 / the one at "
         "index (uint64)(0.01·N - 1), index 0 where 0.01·N < 1 (as x86 builds truncate the "
         "negative index). 2023-10 to 2024-08 it was 1000 / the mean of the ceil(0.01·N) longest",
     .needs = kNeedsSingleFrames},
    {.key = "mangohud_min01_fps",
     .field = &ToolFigures::mangohud_min01_fps,
     .definition =
         "MangoHud \"0.1% Min FPS\" (since 2024-08): {} as float32, longest first; 1000 / the one "
         "at index (uint64)(0.001·N - 1), index 0 where 0.001·N < 1 (as x86 builds truncate the "
         "negative index). 2023-10 to 2024-08 it was 1000 / the mean of the ceil(0.001·N) longest",
     .needs = kNeedsSingleFrames},
    {.key = "mangohud_p97_fps",
     .field = &ToolFigures::mangohud_p97_fps,
     .definition = "MangoHud \"97% Percentile FPS\" (since 2024-08): {} as float32, longest first; "
                   "1000 / the one at index (uint64)(0.97·N - 1)",
     .needs = kNeedsSingleFrames},
    {.key = "capframex_p1_fps",
     .field = &ToolFigures::capframex_p1_fps,
     .definition = "CapFrameX \"P1\": the 0.01 quantile (MathNet R-8) of the FPS values 1000 / {}, "
                   "interpolated between FPS values"},
    {.key = "capframex_p01_fps",
     .field = &ToolFigures::capframex_p01_fps,
     .definition = "CapFrameX \"P0.1\": the 0.001 quantile (MathNet R-8) of the FPS values 1000 / "
                   "{}, interpolated between FPS values"},
    // PresentMon's statistics equal figures above (avg_fps, p1_low_fps, 1000 / max_ms ...) up
    // to rounding, so the comparison does not repeat them.
    {.key = "presentmon_avg_fps",
     .field = &ToolFigures::presentmon_avg_fps,
     .definition = "PresentMon \"Average FPS\" (-stats.csv): 1 / (mean {} / 1000)",
     .compared = false},
    {.key = "presentmon_p1_fps",
     .field = &ToolFigures::presentmon_p1_fps,
     .definition = "PresentMon \"1st Percentile FPS\" (-stats.csv): 1000 / the 0.99 percentile of "
                   "{}, x[i]·(1 - w) + x[i+1]·w at i + w = (N - 1)·0.99",
     .compared = false},
    {.key = "presentmon_p5_fps",
     .field = &ToolFigures::presentmon_p5_fps,
     .definition = "PresentMon \"5th Percentile FPS\" (-stats.csv): 1000 / the 0.95 percentile of "
                   "{}, x[i]·(1 - w) + x[i+1]·w at i + w = (N - 1)·0.95",
     .compared = false},
    {.key = "presentmon_min_fps",
     .field = &ToolFigures::presentmon_min_fps,
     .definition = "PresentMon \"Minimum FPS\" (-stats.csv): 1000 / the longest {}",
     .compared = false},
    {.key = "presentmon_max_fps",
     .field = &ToolFigures::presentmon_max_fps,
     .definition = "PresentMon \"Maximum FPS\" (-stats.csv): 1000 / the shortest {}",
     .compared = false},
};

constexpr std::array kOcatAverageFigures = {
    Figure{.key = "ocat_avg_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "OCAT \"Average FPS\" (perf_summary.csv): N / the time of the last "
                         "present on the recording's clock (an OCAT capture's TimeInSeconds, "
                         "from the start of its recording; for another tool's capture or a "
                         "range that starts later, from the present before the first frame)",
           .needs = kNeedsFrames,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               const auto a = ocat_averages_of(r);
               return a ? std::optional(a->avg_fps) : std::nullopt;
           },
           .absent = kOcatClockAbsent},
    Figure{.key = "ocat_avg_frame_time_ms",
           .section = kToolSection,
           .unit = "ms",
           .definition = "OCAT \"Average frame time\" (perf_summary.csv): 1000 × the time of the "
                         "last present on the recording's clock (s) / N, the clock as for "
                         "ocat_avg_fps",
           .needs = kNeedsFrames,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               const auto a = ocat_averages_of(r);
               return a ? std::optional(a->avg_frame_time_ms) : std::nullopt;
           },
           .absent = kOcatClockAbsent},
};

constexpr ToolRow kOcatPercentileTable[] = {
    {.key = "ocat_p95_ms",
     .field = &ToolFigures::ocat_p95_ms,
     .definition = "OCAT \"95th-percentile frame time\" (perf_summary.csv): {} ascending, the one "
                   "at index (int)(0.95·N), not interpolated",
     .unit = "ms"},
    {.key = "ocat_p99_ms",
     .field = &ToolFigures::ocat_p99_ms,
     .definition = "OCAT \"99th-percentile frame time\" (perf_summary.csv): {} ascending, the one "
                   "at index (int)(0.99·N), not interpolated",
     .unit = "ms"},
    {.key = "ocat_p999_ms",
     .field = &ToolFigures::ocat_p999_ms,
     .definition = "OCAT \"99.9th-percentile frame time\" (perf_summary.csv): {} ascending, the "
                   "one at index (int)(0.999·N), not interpolated",
     .unit = "ms"},
};

constexpr std::array kDroppedAndThresholdFigures = {
    Figure{.key = "max_consecutive_dropped",
           .better = Better::lower,
           .section = kToolSection,
           .label = "OCAT max consecutive missed",
           .unit = "frames",
           .definition = "OCAT \"Maximum number of consecutive missed frames (Application)\" "
                         "(perf_summary.csv): the longest run of frames never displayed that a "
                         "displayed frame ends (a run open at the end is not counted); "
                         "Recording::FrameStats::UpdateFrameStats, GPUOpen-Tools/OCAT 24098c0",
           .needs = kNeedsFrames | kNeedsDisplayColumn,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return static_cast<double>(ocat_max_consecutive_missed(dropped_in_range(r)));
           },
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{}", ocat_max_consecutive_missed(dropped_in_range(r)));
               }},
    Figure{.section = kToolSection,
           .label = "CapFrameX FPS thresholds",
           .unit = "frames",
           .definition = "CapFrameX's FPS threshold counts: frames whose 1000 / {} is below "
                         "240, 144, 120, 90, 75, 60, 45, 30, 15, 10 FPS "
                         "(GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff; "
                         "capframex_frames_below_*_fps below)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .text =
               [](const CaptureReport& r) {
                   const auto& counts = r.fps_threshold_counts;
                   std::string t;
                   for (std::size_t i = 0; i < counts.size(); ++i)
                       t += fmt::format("{}< {}: {}", i ? ", " : "", kCapFrameXFpsThresholds[i],
                                        counts[i]);
                   return t;
               }},
};

// CapFrameX's FPS threshold counts, one row a threshold in kCapFrameXFpsThresholds' order: key
// and definition written out so that each key can be found here and in docs/reports.md.
struct ThresholdRow {
    std::string_view key;
    std::string_view definition;  // "{}" stands for the frame-time column
};
constexpr ThresholdRow kThresholdTable[] = {
    {"capframex_frames_below_240_fps",
     "frames whose 1000 / {} is below 240 FPS (CapFrameX GetFpsThresholdCounts, CXWorld/CapFrameX "
     "3ba66ff)"},
    {"capframex_frames_below_144_fps",
     "frames whose 1000 / {} is below 144 FPS (CapFrameX GetFpsThresholdCounts, CXWorld/CapFrameX "
     "3ba66ff)"},
    {"capframex_frames_below_120_fps",
     "frames whose 1000 / {} is below 120 FPS (CapFrameX GetFpsThresholdCounts, CXWorld/CapFrameX "
     "3ba66ff)"},
    {"capframex_frames_below_90_fps",
     "frames whose 1000 / {} is below 90 FPS (CapFrameX GetFpsThresholdCounts, CXWorld/CapFrameX "
     "3ba66ff)"},
    {"capframex_frames_below_75_fps",
     "frames whose 1000 / {} is below 75 FPS (CapFrameX GetFpsThresholdCounts, CXWorld/CapFrameX "
     "3ba66ff)"},
    {"capframex_frames_below_60_fps",
     "frames whose 1000 / {} is below 60 FPS (CapFrameX GetFpsThresholdCounts, CXWorld/CapFrameX "
     "3ba66ff)"},
    {"capframex_frames_below_45_fps",
     "frames whose 1000 / {} is below 45 FPS (CapFrameX GetFpsThresholdCounts, CXWorld/CapFrameX "
     "3ba66ff)"},
    {"capframex_frames_below_30_fps",
     "frames whose 1000 / {} is below 30 FPS (CapFrameX GetFpsThresholdCounts, CXWorld/CapFrameX "
     "3ba66ff)"},
    {"capframex_frames_below_15_fps",
     "frames whose 1000 / {} is below 15 FPS (CapFrameX GetFpsThresholdCounts, CXWorld/CapFrameX "
     "3ba66ff)"},
    {"capframex_frames_below_10_fps",
     "frames whose 1000 / {} is below 10 FPS (CapFrameX GetFpsThresholdCounts, CXWorld/CapFrameX "
     "3ba66ff)"},
};
static_assert(std::size(kThresholdTable) == std::size(kCapFrameXFpsThresholds));
template <std::size_t I>
constexpr Figure threshold_figure() {
    return Figure{.key = kThresholdTable[I].key,
                  .better = Better::lower,
                  .section = kToolSection,
                  .unit = "frames",
                  .definition = kThresholdTable[I].definition,
                  .column = FigureColumn::frame_time,
                  .needs = kNeedsFrames,
                  .value = capframex_threshold<I>};
}
template <std::size_t... I>
constexpr auto threshold_figures(std::index_sequence<I...>) {
    return std::array{threshold_figure<I>()...};
}

constexpr auto kToolFigures =
    join(kToolSummaryFigures,
         table_figures<kFrameToolTable>(std::make_index_sequence<std::size(kFrameToolTable)>()),
         kOcatAverageFigures,
         table_figures<kOcatPercentileTable>(
             std::make_index_sequence<std::size(kOcatPercentileTable)>()),
         kDroppedAndThresholdFigures,
         threshold_figures(std::make_index_sequence<std::size(kThresholdTable)>()));

}  // namespace

const ToolFigures& tools(const CaptureReport& r) {
    return r.stats.frame_time.tools;
}

std::span<const Figure> tool_figures() {
    return kToolFigures;
}

}  // namespace loopscope::figure_parts
