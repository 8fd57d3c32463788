// Frame-pacing statistics as pure functions over frame times in integer nanoseconds. Every
// definition is the one docs/reports.md, "Statistics and their definitions", states next to
// each figure; where tools disagree the function names the tool whose definition it follows.
// Nothing here knows files, formats or output: readers build the series, writers print results.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/percentile.hpp"
#include "core/tool_figures.hpp"

namespace loopscope {

class AscendingValues;  // core/ascending.hpp

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
// The same from the values in ascending order however they are held (core/ascending.hpp), their
// sum and the sum of their squares about the mean, for a caller that forms them without the
// series itself (the comparison's resamples, from their blocks).
FrameTimeSummary summarize_ascending(const AscendingValues& values, std::int64_t total_ns,
                                     double squares_about_mean);
// The same, sorting the caller's vector in place instead of a copy of it: one copy fewer of
// every frame time, for a vector the caller no longer needs in its order.
FrameTimeSummary summarize_frame_times_in_place(std::vector<std::int64_t>& frame_ns);

// The p-quantile of ascending values as MathNet.Numerics' Statistics.Quantile computes it, which
// CapFrameX uses (Hyndman-Fan R-8, "approximately median-unbiased"): h = (N + 1/3)·p + 1/3,
// i = floor(h); the minimum when i <= 0, the maximum when i >= N, else x[i-1] + (h − i)·(x[i] −
// x[i-1]) (0-based). Not PresentMon's method (percentile_sorted, h = p·(N−1)).
double quantile_r8_sorted(std::span<const std::int64_t> sorted_ns, double p);
double quantile_r8_of(const AscendingValues& values, double p);

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
// CapFrameX's "Low FPS" threshold, 25 FPS, as a frame time: 1000 / ft_ms < 25 is ft > 40 ms.
inline constexpr std::int64_t kCapFrameXLowFpsNs = 40'000'000;
struct CapFrameXStutter {
    std::size_t window = 0;
    std::vector<std::size_t> frames;  // indices into the series, flagged by the time-share rule
    std::int64_t stutter_ns = 0;      // summed frame time of those frames
    // The time of the frames the time rule does not flag that run below 25 FPS (ft > 40 ms):
    // CapFrameX's "Low FPS" time (capframex_low_fps_time_share), summed in integers.
    std::int64_t low_fps_ns = 0;
    double time_share = 0;       // stutter_ns / total time
    std::size_t above_mean = 0;  // frames > 2.5 × the mean frame time
    double count_share = 0;      // above_mean / frames
};
std::size_t capframex_window(double mean_ms);
CapFrameXStutter capframex_stutter(std::span<const std::int64_t> frame_ns);

// Unreal Engine's hitch rule: frame i (i >= 1) is a hitch when it takes more than 60 ms and at
// least 1.5 × the previous frame. Frame 0 has no previous frame and is never a hitch.
inline constexpr std::int64_t kHitchThresholdNs = 60'000'000;
struct Hitch {
    std::size_t index = 0;         // index into the series
    std::int64_t start_ns = 0;     // frame start on the time axis (t = 0 at the first row)
    std::int64_t frame_ns = 0;     // its length
    std::int64_t previous_ns = 0;  // the frame before it
    std::int64_t next_ns = -1;     // the frame after it, -1 at the end
};
struct UnrealHitches {
    std::vector<Hitch> hitches;
    double per_minute = 0;      // hitches / total time in minutes
    std::int64_t hitch_ns = 0;  // the hitches' summed frame time
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
// a whole number k >= 1 of refresh periods: |ft·R − k·1e9| <= 0.5 ms·R (exact in integers).
// The refresh rate is the LOWEST candidate whose grid explains all but kRefreshMaxOffGridShare
// of the intervals, the exceptions included: a display refreshing at R Hz changes only on its
// grid, whatever frame rate the game reaches (a 30 fps game on a 120 Hz display shows 33.3 ms
// and a few 8.3 or 16.7 ms intervals: 120 Hz, not 60). So a rate is passed over when a multiple
// of it explains more than kRefreshMaxExceptionShare of the intervals beyond it (and beyond what
// the multiple's denser grid catches by chance, 2·0.5 ms·R of the rest). Every interval on the
// 120 Hz grid is also on the 240 and 360 Hz grids, so a finer grid than the intervals need is
// never taken. Candidates above it
// whose grids explain as much and that are not multiples of it cannot be told apart from it by
// the intervals (`also_fits_hz`: 33.3 ms intervals alone sit on the 60 and the 90 Hz grid).
// Composed flips on the shared captures sit on their display's grid (100 % at 120 Hz); variable
// refresh, tearing and composition jitter spread intervals off any grid.
inline constexpr std::array<int, 11> kRefreshCandidatesHz = {50,  60,  72,  75,  90, 100,
                                                             120, 144, 165, 240, 360};
inline constexpr std::int64_t kRefreshToleranceNs = 500'000;
inline constexpr double kRefreshMaxOffGridShare = 0.05;
inline constexpr double kRefreshMaxExceptionShare = 0.005;
// Tearing: when at least half the frames were presented with SyncInterval 0 and AllowsTearing,
// display changes do not wait for a refresh: they follow the presents.
inline constexpr double kRefreshMaxTearingShare = 0.5;
// A displayed frame's display change follows its present when the time between display changes
// is within 1 ms of the time between presents; the display follows the presents when at least
// half the displayed frames do (independent flip with variable refresh: 58-99 % on the shared
// direct-to-display logs whose frame rate is not doubled by frame generation).
inline constexpr std::int64_t kRefreshFollowToleranceNs = 1'000'000;
inline constexpr double kRefreshMinFollowShare = 0.5;
double on_grid_share(std::span<const std::int64_t> frame_ns, int rate_hz);
struct RefreshGuess {
    // fixed: a grid (rate_hz, on_grid_share); follows_presents: display changes track presents
    // (independent flip, variable refresh, tearing; follows_share); unknown: neither holds.
    enum class State { fixed, follows_presents, unknown };
    // Why there is no rate: no_candidate (no intervals), off_grid (no grid explains them),
    // tearing, follows (display changes follow their presents), no_display (frame times of a
    // capture without display information: a grid they sit on is the loop's cadence, kept in
    // best_rate_hz / best_on_grid_share, not a display's refresh).
    enum class Absent { no, no_candidate, off_grid, tearing, follows, no_display };
    State state = State::unknown;
    int rate_hz = 0;  // 0 unless fixed; `absent` says why
    double on_grid_share = 0;
    Absent absent = Absent::no_candidate;
    std::vector<int> also_fits_hz;  // see above (fixed only)
    int best_rate_hz = 0;           // the grid holding the most intervals beyond chance (0: none)
    double best_on_grid_share = 0;
    double tearing_share = 0;   // frames with SyncInterval 0 and AllowsTearing
    double follows_share = -1;  // displayed frames whose display change follows their present
                                // (-1: the capture has no display column)
    double direct_share = -1;   // frames sent to the display without composition (-1: unknown)
};
RefreshGuess detect_refresh_rate(std::span<const std::int64_t> frame_ns);
// The same from the values in ascending order (no copy, no sort).
RefreshGuess detect_refresh_rate_sorted(std::span<const std::int64_t> sorted_ns);
// How many of the ascending values lie on the grid of rate_hz: on_grid_share × their count,
// counted window by window (a few searches) instead of value by value.
std::size_t on_grid_count_sorted(std::span<const std::int64_t> sorted_ns, int rate_hz);
// The display's state from the grid guess of the display intervals (or of the frame times, where
// the capture has no display column) and per-frame evidence, each span empty when the capture
// lacks it: display_ns (-1 where not displayed) and frame_ns, present_mode (Capture's
// kPresentMode…), waits_for_vblank and tearing. In order: tearing on at least half the frames
// -> follows_presents; most frames direct to the display without waiting for a vertical blank
// and most display changes following their presents -> follows_presents; a grid -> fixed; most
// display changes following their presents, on frames not mostly composed by the desktop (which
// flips at its refresh) -> follows_presents; else unknown.
RefreshGuess classify_refresh(RefreshGuess grid, std::span<const std::int64_t> display_ns,
                              std::span<const std::int64_t> frame_ns,
                              std::span<const std::uint8_t> present_mode,
                              std::span<const std::uint8_t> waits_for_vblank,
                              std::span<const std::uint8_t> tearing);
const char* refresh_state_name(RefreshGuess::State state);

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
// where the error is a value, 0 where the cell was NA (empty: all are values). When
// `sorted_displayed_ns` is given, it receives the displayed frames' display_ns sorted (the values
// between_display_changes summarises), for a caller that needs them sorted too.
DisplayFigures display_figures(std::span<const std::int64_t> display_ns,
                               std::span<const std::uint8_t> dropped,
                               std::span<const std::int64_t> animation_error_ns,
                               std::span<const std::uint8_t> animation_error_known = {},
                               std::vector<std::int64_t>* sorted_displayed_ns = nullptr);

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

// Frame generation detected on a capture that does not mark generated frames (no FrameType,
// as in FrameView logs and PresentMon 1.x). Frame generation presents k frames per application
// frame (k = 2; XeSS-FG's presents come in cycles of 3), and per-frame columns that differ
// between the application's present and the generated ones repeat with period k: the PC
// latency, the time in the present call, the render-present latency, and, where the pair is not
// paced evenly, the present-to-present time itself. In one column, frame i is a k-peak when its
// value exceeds every other value within k − 1 frames of it by at least 1/20 of its own
// (kGenerationContrastDivisor); a cycle is a chain of k-peaks exactly k frames apart, covering
// the frames from k − 1 before its first peak to k − 1 after its last; a cycle counts when it
// covers at least kGenerationMinRunFrames frames. A column shows frame generation when its
// cycles cover at least kGenerationMinShare of its known frames (each k from 2 to
// kGenerationMaxPeriod on the present-to-present times, k = 2 on the others). The
// present-to-present times do not count where the presents wait for a fixed refresh (half the
// covered intervals on its grid): a vsync-limited game alternates one and two refresh periods.
// Margins on the shared captures (docs/reports.md): every log with frame generation has a
// column covered on 0.62-1.00 of its frames, every log without has none above 0.03.
inline constexpr std::int64_t kGenerationContrastDivisor = 20;
inline constexpr std::size_t kGenerationMinRunFrames = 16;
inline constexpr double kGenerationMinShare = 0.25;
inline constexpr int kGenerationMaxPeriod = 4;
// A column with fewer known frames is not examined: two cycles' worth at least.
inline constexpr std::size_t kGenerationMinKnownFrames = 2 * kGenerationMinRunFrames;
inline constexpr double kGenerationMaxOnGridShare = 0.5;

// One per-frame column to examine: values in ns (< 0 where unknown).
struct GenerationColumn {
    std::string name;
    std::span<const std::int64_t> values_ns;
    bool present_intervals = false;  // the present-to-present times: periods 2..kMaxPeriod
    // A column whose cycles frame generation explains and nothing else does (the PC latency:
    // a generated frame carries the latency of the input its application frame sampled). Cycles
    // of any other column alone also come from other causes (an above-refresh game's displays
    // waiting every other frame, the present call's cost alternating, a frame cap's pattern).
    bool decisive = false;
};
struct GenerationEvidence {
    std::string column;
    int period = 2;
    std::size_t known_frames = 0;    // frames with a value
    std::size_t covered_frames = 0;  // frames inside cycles
    double share = 0;                // covered_frames / known_frames
    std::size_t cycles = 0;          // chains of peaks covering >= kGenerationMinRunFrames
    std::size_t longest_cycle_frames = 0;
    double peak_mean_ms = 0, other_mean_ms = 0;  // inside cycles: the peaks, the other frames
    // Present-to-present times paced by a fixed refresh: not evidence (share of the covered
    // intervals on its grid).
    bool on_refresh_grid = false;
    double covered_on_grid_share = 0;
    bool shows_generation = false;
    bool decisive = false;                 // from a decisive column (GenerationColumn::decisive)
    std::vector<std::size_t> peaks;        // the first peak of each counted cycle's chain
    std::vector<std::size_t> chain_peaks;  // and its number of peaks (same length)
};
// One column at one period.
GenerationEvidence generation_evidence(std::string name, std::span<const std::int64_t> values_ns,
                                       int period);
struct GenerationDetection {
    bool examined = false;  // some column had kGenerationMinKnownFrames known frames
    // Detected: a decisive column shows frame generation's cycles (evidence.front() is it).
    bool detected = false;
    // Possible: only columns that are not decisive show them (evidence.front(), the strongest):
    // weaker evidence, said as such; the frames are treated as presents, nothing is estimated.
    bool possible = false;
    // Every column examined (at its strongest period), strongest first; the first decides.
    std::vector<GenerationEvidence> evidence;
    // When detected: the application's cadence estimated from the first evidence's cycles. One
    // present in `period` is the application's; which one is not known, so the application is
    // timed between presents of one phase (the peaks): interval = the frame times from one peak
    // to the next in a chain, summed.
    int period = 0;
    std::vector<std::int64_t> application_intervals_ns;
    std::size_t estimated_frames = 0;  // frames inside the cycles the estimate uses
};
// frame_ns: the present-to-present times of the same frames (for the estimate and the grid
// check); refresh_hz: the display's fixed rate (0: none).
GenerationDetection detect_frame_generation(std::span<const GenerationColumn> columns,
                                            std::span<const std::int64_t> frame_ns, int refresh_hz);

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
