// Each capture tool's own summary figures, by that tool's rule, so that a figure named after a
// tool is the number the tool itself prints for the same frames. Every rule was read from the
// tool's source (or checked against its own summaries) and is named here with its file and
// commit; docs/reports.md ("Each tool's own figures") gives the rules with a worked example.
// All of them are order statistics and sums of the frame times, so they are computed from the
// frame times in ascending order (the sorted copy the other figures use) and the resampled
// comparison gets them the same way. Pure computation: no I/O.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace loopscope {

struct ToolFigures {
    // NVIDIA FrameView's summary (FrameView_Summary.csv), over every row's MsBetweenPresents.
    // The rules reproduce FrameView's own summary rows (checked on the 29 logs with a summary
    // of the public FrameView data set bc17ef71/rtx4060ti-dlss-fsr-xess-comparison-frameview-
    // data, commit 8a44d32): with N frames and k(x) = floor(N·x / 100) + 1,
    // avg = 1000·N / Σ ft; "x% Low FPS" = 1000 / the mean of the k(x) longest frame times;
    // "x% FPS" = 1000 / the k(x)-th longest; min / max = 1000 / the longest / shortest.
    double frameview_avg_fps = 0, frameview_low1_fps = 0, frameview_low01_fps = 0;
    double frameview_p1_fps = 0, frameview_p01_fps = 0, frameview_p5_fps = 0, frameview_p10_fps = 0;
    double frameview_min_fps = 0, frameview_max_fps = 0;

    // MangoHud's log summary (writeSummary in src/logging.cpp with fpsMetrics in
    // src/fps_metrics.h, flightlessmango/MangoHud since commit 7fafed9c, 2024-08-14; read at
    // a5e7dc78, 2026-08-07): the frame times as float32, sorted longest first; "x% Min FPS" and
    // "97% Percentile FPS" = 1000 / the value at index (uint64)(p·N − 1), p = 0.01, 0.001,
    // 0.97, all in float32; "Average FPS" = 1000 / (the float32 sum, longest first, / N).
    // Where p·N < 1 the index expression is negative, which C++ leaves undefined; x86 builds
    // truncate it toward zero, to 0 (the longest frame), and so does this.
    double mangohud_avg_fps = 0, mangohud_min1_fps = 0, mangohud_min01_fps = 0,
           mangohud_p97_fps = 0;

    // CapFrameX's P1 and P0.1 (FrametimeStatisticProvider.GetFpsMetricValue, EMetric.P1 and
    // P0dot1, CXWorld/CapFrameX 3ba66ff): the 0.01 / 0.001 quantile of the FPS values 1000 /
    // ft_ms by MathNet's Statistics.Quantile (Hyndman-Fan R-8), interpolated between FPS values.
    double capframex_p1_fps = 0, capframex_p01_fps = 0;

    // PresentMon's capture statistics (the `-stats.csv` the PresentMon application writes
    // beside a capture: RawFrameDataWriter::WriteStats_ with StatisticsTracker,
    // GameTechDev/PresentMon 18f6047, IntelPresentMon/Core/source/pmon), over MsBetweenPresents
    // in ms: "Average FPS" = 1000 / mean; "1st" / "5th Percentile FPS" = 1000 / the 0.99 / 0.95
    // percentile, h = (N − 1)·p, x[⌊h⌋]·(1 − w) + x[⌊h⌋+1]·w with w = h − ⌊h⌋ over the
    // ascending times; "Minimum" / "Maximum FPS" = 1000 / the longest / shortest.
    double presentmon_avg_fps = 0, presentmon_p1_fps = 0, presentmon_p5_fps = 0;
    double presentmon_min_fps = 0, presentmon_max_fps = 0;

    // OCAT's perf_summary.csv percentiles (Recording::PrintSummary in
    // PresentMonInterface/Recording.cpp, GPUOpen-Tools/OCAT 24098c0): the frame times
    // ascending, the value at index (int)(p·N), p = 0.95, 0.99, 0.999 (no interpolation).
    double ocat_p95_ms = 0, ocat_p99_ms = 0, ocat_p999_ms = 0;
};

// The figures from the frame times in ascending order and their sum; all 0 for no frames.
ToolFigures tool_figures(std::span<const std::int64_t> sorted_ns, std::int64_t total_ns);
class AscendingValues;  // core/ascending.hpp
// The same of values in ascending order however they are held.
ToolFigures tool_figures(const AscendingValues& sorted_ns, std::int64_t total_ns);

// OCAT's average FPS and frame time (Recording::PrintSummary): the frames over the time of the
// last present on the recording's clock (its TimeInSeconds, which counts from the start of the
// recording): avg FPS = frames / seconds, avg frame time = 1000·seconds / frames.
struct OcatAverages {
    double avg_fps = 0, avg_frame_time_ms = 0;
};
OcatAverages ocat_averages(std::size_t frames, std::int64_t elapsed_ns);

// OCAT's "Maximum number of consecutive missed frames (Application)" (perf_summary.csv;
// Recording::FrameStats::UpdateFrameStats in PresentMonInterface/Recording.cpp,
// GPUOpen-Tools/OCAT 24098c0): a missed frame (a present never displayed, PresentMon's Dropped)
// lengthens the current run; a displayed frame closes it, and only then is the run compared
// with the longest. A run still open at the end of the recording is never counted.
// dropped: 1 where the frame was never displayed.
std::size_t ocat_max_consecutive_missed(std::span<const std::uint8_t> dropped);

// CapFrameX's FPS thresholds (FrametimeStatisticProvider.FPSTHRESHOLDS and
// GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff): for each threshold T of 240, 144, 120, 90,
// 75, 60, 45, 30, 15, 10 FPS, the frames whose 1000 / ft_ms < T (CapFrameX's default, not
// reversed, order).
inline constexpr std::array<int, 10> kCapFrameXFpsThresholds = {240, 144, 120, 90, 75,
                                                                60,  45,  30,  15, 10};
std::array<std::size_t, 10> capframex_fps_threshold_counts(std::span<const std::int64_t> frame_ns);

// CapFrameX's "Low FPS" time share (GetLowFPSTimePercentage with the default StutteringFactor
// 2.5 and StutteringThreshold 25 FPS, CXWorld/CapFrameX 3ba66ff): the time of the frames that
// are not stutter (ft <= 2.5 × their moving average, the same moving average as its stutter
// time) and whose 1000 / ft_ms < 25, over the total time. stutter: the series indices flagged
// as stutter (CapFrameXStutter::frames, ascending).
double capframex_low_fps_time_share(std::span<const std::int64_t> frame_ns,
                                    std::span<const std::size_t> stutter);

// Unreal's missed-vsync percentage (FPerformanceTrackingChart::GetPercentMissedVSync(TargetFPS)
// of Engine/Source/Runtime/Engine/Public/ChartCreation.h; Epic's source is in its private
// engine repository, and only the API documentation was reachable): the refreshes at the
// target rate over the total time that got no new frame, as a share: with V = floor(target ×
// total seconds), max(0, V − frames) / V; 0 when V is 0.
double unreal_missed_vsync_share(std::size_t frames, std::int64_t total_ns, double target_fps);

// The "which 1 % low" table: one row a tool's meaning of "1 % low" and "0.1 % low", naming the
// catalogue's keys (empty where the tool has no such figure) and the rule in one line. Every
// human-readable writer renders these rows, in this order, with the capture's values.
struct LowsRow {
    std::string_view tool;       // "FrameView \"1% Low FPS\""
    std::string_view low1_key;   // figure key of the 1 % figure ("" when the tool has none)
    std::string_view low01_key;  // figure key of the 0.1 % figure ("" when the tool has none)
    // The keys name frame times in ms (OCAT's percentiles): the table shows 1000 / the value.
    bool keys_are_ms = false;
    std::string_view rule;  // one line
};
std::span<const LowsRow> lows_rows();

}  // namespace loopscope
