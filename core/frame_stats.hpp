// Frame-pacing statistics as pure functions over frame times in integer nanoseconds. Every
// definition is the one DESIGN.md "Statistics" states (and docs/reports.md repeats next to each
// figure); where tools disagree the function names the tool whose definition it follows.
// Nothing here knows files, formats or output: readers build the series, writers print results.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/percentile.hpp"
#include "core/tool_figures.hpp"

namespace loopscope {

// Percentiles: percentile_sorted() of common/percentile.hpp, linear interpolation at h = p·(N−1)
// (PresentMon's method), the same definition the timer probes use.

// Frame-time distribution. Times in ms as doubles for display; stdev is the sample standard
// deviation (divides by N−1; 0 for one frame); cv = stdev / mean.
struct FrameTimeSummary {
    std::size_t frames = 0;
    std::int64_t total_ns = 0;
    double min_ms = 0, mean_ms = 0, stdev_ms = 0, cv = 0;
    double p50_ms = 0, p90_ms = 0, p95_ms = 0, p99_ms = 0, p999_ms = 0, max_ms = 0;
    // Low averages (CapFrameX's "x% low average"): mean of the frame times at or above the 0.99
    // / 0.999 quantile, the quantile taken as CapFrameX takes it (quantile_r8_sorted).
    double mean_at_or_above_q99_ms = 0, mean_at_or_above_q999_ms = 0;
    // Integral lows (CapFrameX's current "x% low"): integral_low_frame_ns of
    // 1 % and 0.1 %.
    double integral_1_ms = 0, integral_01_ms = 0;
    // Each capture tool's own summary figures by its rule (core/tool_figures.hpp).
    ToolFigures tools;
};
// sorted_ns, when not empty, holds the same values as frame_ns in ascending order (a caller that
// can order them without sorting, as the comparison's resamples do); empty: a sorted copy is made.
FrameTimeSummary summarize_frame_times(std::span<const std::int64_t> frame_ns,
                                       std::span<const std::int64_t> sorted_ns = {});
// The same from the values in ascending order, their sum and the sum of (value − mean)² taken in
// the series' order (the order decides its last bits), for a caller that forms the series' sums
// without the series itself (the comparison's resamples, from their blocks).
FrameTimeSummary summarize_sorted_frame_times(std::span<const std::int64_t> sorted_ns,
                                              std::int64_t total_ns, double squares_about_mean);
// The same, sorting the caller's vector in place instead of a copy of it: one copy fewer of
// every frame time, for a vector the caller no longer needs in its order.
FrameTimeSummary summarize_frame_times_in_place(std::vector<std::int64_t>& frame_ns);

// The p-quantile of ascending values as MathNet.Numerics' Statistics.Quantile computes it, which
// CapFrameX uses (Hyndman-Fan R-8, "approximately median-unbiased"): h = (N + 1/3)·p + 1/3,
// i = floor(h); the minimum when i <= 0, the maximum when i >= N, else x[i-1] + (h − i)·(x[i] −
// x[i-1]) (0-based). Not PresentMon's method (percentile_sorted, h = p·(N−1)).
double quantile_r8_sorted(std::span<const std::int64_t> sorted_ns, double p);

// The integral "x% low" frame (CapFrameX's GetPercentageHighIntegralSequence):
// frames sorted longest first, their times summed until the sum reaches share × the total time;
// the frame at which it does. share = 0.01 for "1% low". 0 for no frames.
std::int64_t integral_low_frame_ns(std::span<const std::int64_t> sorted_ns, double share);

// FPS figures, the three meanings of "x% low" side by side (docs/reports.md names the tools):
// average = frames / total frame time (CapFrameX, OCAT). p1_low / p01_low: 1000 / the 99th /
// 99.9th percentile frame time (PresentMon's percentile method; PresentMon and most tools).
// low1_average / low01_average: 1000 / mean(frame times >= the 0.99 / 0.999 quantile, R-8)
// (CapFrameX's "1% low average"). low1_integral / low01_integral: 1000 / the integral low frame
// (CapFrameX's current "1% low"). 0 where undefined.
struct FpsFigures {
    double average = 0, p1_low = 0, p01_low = 0, low1_average = 0, low01_average = 0;
    double low1_integral = 0, low01_integral = 0;
};
FpsFigures fps_figures(const FrameTimeSummary& summary);

// CapFrameX's stutter figures, as FrametimeStatisticProvider computes them (CapFrameX master
// 3ba66ff, February 2026; docs/reports.md):
// - count share (GetStutteringCountPercentage): the frames longer than 2.5 × the series' mean
//   frame time, as a share of the frames;
// - time share (GetStutteringTimePercentage): frame i stutters when its time exceeds 2.5 × the
//   moving average of the W samples ending at and including frame i (fewer at the start), W =
//   Convert.ToInt32(10·√mean_ms), rounded half to even, at least 1 (SampleBasedMovingAverage).
//   In that average a sample more than 3 × the sample before it counts as that earlier sample
//   (CapFrameX's guard against huge outliers, SampleBasedMovingAverage since 2022). The share
//   is the stuttering frames' time over the total time.
// Compared in integers: ft > 2.5·Σ/k as 2·ft·k > 5·Σ, so no rounding decides a frame.
struct CapFrameXStutter {
    std::size_t window = 0;
    std::vector<std::size_t> frames;  // indices into the series, flagged by the time-share rule
    std::int64_t stutter_ns = 0;      // summed frame time of those frames
    double time_share = 0;            // stutter_ns / total time
    std::size_t above_mean = 0;       // frames > 2.5 × the mean frame time
    double count_share = 0;           // above_mean / frames
};
std::size_t capframex_window(double mean_ms);
CapFrameXStutter capframex_stutter(std::span<const std::int64_t> frame_ns);

// Unreal Engine's hitch rule: frame i (i >= 1) is a hitch when it takes more than 60 ms and at
// least 1.5 × the previous frame. Frame 0 has no previous frame and is never a hitch.
inline constexpr std::int64_t kHitchThresholdNs = 60'000'000;
struct Hitch {
    std::size_t index = 0;         // index into the series
    std::int64_t start_ns = 0;     // frame start since the capture began
    std::int64_t frame_ns = 0;     // its length
    std::int64_t previous_ns = 0;  // the frame before it
    std::int64_t next_ns = -1;     // the frame after it, -1 at the end
};
struct UnrealHitches {
    std::vector<Hitch> hitches;
    double per_minute = 0;  // hitches / total time in minutes
};
// start_ns: each frame's start; empty means "sum of the frame times before it".
UnrealHitches unreal_hitches(std::span<const std::int64_t> frame_ns,
                             std::span<const std::int64_t> start_ns);

// Frame-to-frame variation |ft_i − ft_(i−1)| counted in buckets < 2, < 4, < 8, < 12, >= 12 ms
// (CapFrameX). N−1 differences for N frames.
inline constexpr std::array<std::int64_t, 4> kVariationEdgesNs = {2'000'000, 4'000'000, 8'000'000,
                                                                  12'000'000};
struct VariationBuckets {
    std::array<std::size_t, 5> counts{};
    std::size_t total = 0;
    double share(std::size_t bucket) const {
        return total ? static_cast<double>(counts[bucket]) / static_cast<double>(total) : 0.0;
    }
};
VariationBuckets variation_buckets(std::span<const std::int64_t> frame_ns);

// Display quantization. A frame time ft is on the grid of rate R when it lies within 0.5 ms of
// a whole number k >= 1 of refresh periods: |ft·R − k·1e9| <= 0.5 ms·R (exact in integers). The
// best candidate is the one whose on-grid share most exceeds the share that chance alone gives
// (2·0.5 ms·R / 1 s, since denser grids catch more by luck). It is the refresh rate only when
// that excess is at least 0.2 and at least 60 % of the intervals sit on its grid: a fixed
// refresh without tearing puts display changes on the grid (100 % on the shared captures
// composed by the desktop, 73 % on a windowed FrameView capture whose composition jitter splits
// some periods in two), while variable refresh spreads them (42 % at "100 Hz" for intervals
// between 27 and 35 ms) and so does tearing (48-67 % on the shared tearing captures).
inline constexpr std::array<int, 11> kRefreshCandidatesHz = {50,  60,  72,  75,  90, 100,
                                                             120, 144, 165, 240, 360};
inline constexpr std::int64_t kRefreshToleranceNs = 500'000;
inline constexpr double kRefreshMinExcess = 0.2;
inline constexpr double kRefreshMinOnGrid = 0.6;
// Tearing: when at least half the frames were presented with SyncInterval 0 and AllowsTearing,
// display changes do not wait for a refresh and no rate is claimed.
inline constexpr double kRefreshMaxTearingShare = 0.5;
double on_grid_share(std::span<const std::int64_t> frame_ns, int rate_hz);
struct RefreshGuess {
    enum class Absent { no, no_candidate, off_grid, tearing };
    int rate_hz = 0;  // 0 when there is no rate; `absent` says why
    double on_grid_share = 0;
    Absent absent = Absent::no_candidate;
    int best_rate_hz = 0;  // the best candidate, also when it is not taken (0: none)
    double best_on_grid_share = 0;
    double tearing_share = 0;  // frames with SyncInterval 0 and AllowsTearing (tearing only)
};
RefreshGuess detect_refresh_rate(std::span<const std::int64_t> frame_ns);
// The same from the values in ascending order (no copy, no sort).
RefreshGuess detect_refresh_rate_sorted(std::span<const std::int64_t> sorted_ns);
// How many of the ascending values lie on the grid of rate_hz: on_grid_share × their count,
// counted window by window (a few searches) instead of value by value.
std::size_t on_grid_count_sorted(std::span<const std::int64_t> sorted_ns, int rate_hz);
// The same guess withdrawn because tearing was allowed on `tearing_share` of the frames.
RefreshGuess without_rate_for_tearing(RefreshGuess guess, double tearing_share);

// Display side of a PresentMon capture: time between display changes over the displayed frames
// (display_ns >= 0), frames never displayed, and the animation error where the capture has it.
struct DisplayFigures {
    bool available = false;
    std::size_t displayed = 0, dropped = 0;
    double dropped_share = 0;
    FrameTimeSummary between_display_changes;
    bool has_animation_error = false;
    double animation_error_mean_abs_ms = 0, animation_error_p99_abs_ms = 0,
           animation_error_max_abs_ms = 0;
};
// display_ns: -1 where not displayed; dropped: 1 where never displayed (may be empty: then
// display_ns < 0 counts as dropped); animation_error_ns may be empty; animation_error_known: 1
// where the error is a value, 0 where the cell was NA (empty: all are values).
DisplayFigures display_figures(std::span<const std::int64_t> display_ns,
                               std::span<const std::uint8_t> dropped,
                               std::span<const std::int64_t> animation_error_ns,
                               std::span<const std::uint8_t> animation_error_known = {});

// One class of frames (application or generated) on its own cadence: a frame's interval is the
// time since the previous frame of the same class (the frame times in between summed), so that
// alternating application / generated frames are not mixed into one misleading figure.
// average_fps = frames of the class / total time of all frames.
// Each cadence carries the headline figures of a frame series over its own intervals: the
// percentiles and lows of `interval` (fps_figures) and CapFrameX's stutter, so a frame-generation
// capture is judged per cadence rather than on the mixed present timeline.
struct CadenceFigures {
    std::size_t frames = 0;
    double average_fps = 0;
    FrameTimeSummary interval;  // over frames - 1 intervals
    FpsFigures fps;             // lows of `interval`
    CapFrameXStutter stutter;   // CapFrameX's stutter over the intervals, in order
};
CadenceFigures cadence_figures(std::span<const std::int64_t> frame_ns,
                               std::span<const std::uint8_t> generated, bool want_generated);
// The intervals each cadence below is summarised over, in order, and the summary itself: the
// comparison resamples a cadence's intervals and summarises each resample the same way.
std::vector<std::int64_t> cadence_intervals(std::span<const std::int64_t> frame_ns,
                                            std::span<const std::uint8_t> generated,
                                            bool want_generated);
std::vector<std::int64_t> application_intervals(std::span<const std::int64_t> app_interval_ns,
                                                std::span<const std::uint8_t> generated);
std::vector<std::int64_t> displayed_intervals(std::span<const std::int64_t> display_ns);
// frames: the class's frame count; total_ns: the time of all frames (for average_fps).
// sorted_intervals: as summarize_frame_times' sorted_ns.
CadenceFigures summarise_cadence(std::span<const std::int64_t> intervals, std::size_t frames,
                                 std::int64_t total_ns,
                                 std::span<const std::int64_t> sorted_intervals = {});
// The application frames' cadence from the time since the application's previous frame start
// (app_interval_ns: 2.x FrameTime, 2.4+ MsBetweenAppStart; < 0 where unknown): interval = that
// time of each application frame; average_fps = application frames / Σ frame_ns of all frames.
CadenceFigures application_cadence(std::span<const std::int64_t> app_interval_ns,
                                   std::span<const std::uint8_t> generated,
                                   std::span<const std::int64_t> frame_ns);

// The displayed frames' cadence: the time between display changes of the frames that were
// displayed (display_ns >= 0), in order; average_fps = displayed frames / Σ frame_ns of all frames
// (the same denominator as the other cadences). What the player saw, generated frames included.
CadenceFigures displayed_cadence(std::span<const std::int64_t> display_ns,
                                 std::span<const std::int64_t> frame_ns);

// Frame generation suspected on a capture that does not mark generated frames (no FrameType, as
// in FrameView logs and PresentMon 1.x). Frame generation presents two frames per application
// frame; where the pair is not paced evenly, the present-to-present times alternate between a
// short and a long cluster. Frame i (not the first or last) is a dip when its time is below
// kGenerationDipRatio × both neighbours; an alternating run is a chain of dips two frames apart
// with no dip between them; a run of at least kGenerationMinRunDips dips covers its dips and the
// frames around them. Suspected when the runs cover at least kGenerationMinShare of the frames.
// Thresholds from the shared captures (docs/reports.md): the two frame-generation recordings
// without marks (test_case_8 with FrameType removed, test_case_9 in the 1.x layout) have 99.6 %
// and 72.06 % of their frames in runs (longest 1133 and 436 dips), every other capture has no
// dip at all, so the thresholds sit far from both. Evenly paced generation does not alternate
// and is not detected; nor is multi-frame generation (one long, several short), which leaves
// single dips.
inline constexpr double kGenerationDipRatio = 0.5;
inline constexpr std::size_t kGenerationMinRunDips = 8;
inline constexpr double kGenerationMinShare = 0.1;
struct GenerationSuspicion {
    bool suspected = false;
    std::size_t frames = 0;          // frames examined
    std::size_t covered_frames = 0;  // frames inside alternating runs
    double alternating_share = 0;    // covered_frames / frames
    std::size_t runs = 0;            // alternating runs of at least kGenerationMinRunDips dips
    std::size_t longest_run_dips = 0;
    double short_mean_ms = 0;  // mean time of the dips inside runs
    double long_mean_ms = 0;   // mean time of the other frames inside runs
};
GenerationSuspicion suspect_frame_generation(std::span<const std::int64_t> frame_ns);

// All per-frame figures of one series.
struct FrameStats {
    FrameTimeSummary frame_time;
    FpsFigures fps;
    CapFrameXStutter stutter;
    UnrealHitches hitches;
    VariationBuckets variation;
    RefreshGuess refresh;
};
// The figures of FrameStats that depend on the frames' order, not on their sorted values: they
// can be computed while the frames are sorted, on a second core.
struct OrderFigures {
    CapFrameXStutter stutter;
    UnrealHitches hitches;
    VariationBuckets variation;
};
OrderFigures order_figures(std::span<const std::int64_t> frame_ns,
                           std::span<const std::int64_t> start_ns);

// A series needs at least this many frames for compute_frame_stats and analyse_capture to use
// a second thread: below it, starting the thread costs about what it saves.
inline constexpr std::size_t kFramesForSecondThread = std::size_t{1} << 16;

// Every figure of FrameStats. The refresh-rate guess is the dearest part (a scan per candidate
// rate); with_refresh = false leaves `refresh` empty, for callers that do not use it (the
// comparison's resamples).
// sorted_ns: as summarize_frame_times' sorted_ns.
// threads: above 1 (0: one per hardware thread), a series of kFramesForSecondThread frames or
// more has its order figures computed on a second thread while this one sorts the frame times
// (when sorted_ns is not given); the figures are the same.
FrameStats compute_frame_stats(std::span<const std::int64_t> frame_ns,
                               std::span<const std::int64_t> start_ns, bool with_refresh = true,
                               std::span<const std::int64_t> sorted_ns = {}, unsigned threads = 1);
// The same from the order figures of the same frames, computed before, and their sorted values
// (sorted_ns.size() == frame_ns.size()).
FrameStats compute_frame_stats(OrderFigures order, std::span<const std::int64_t> frame_ns,
                               std::span<const std::int64_t> sorted_ns, bool with_refresh);

}  // namespace loopscope
