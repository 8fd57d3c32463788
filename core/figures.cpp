// The figure catalogue (see figures.hpp): one entry a figure, the rule for when a capture has
// it, and the reasons given when it does not.
#include "core/figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "common/errors.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {

std::string fixed(double v, int digits) {
    return fmt::format("{:.{}f}", v, digits);
}
std::string percent(double share) {
    return fmt::format("{:.2f} %", share * 100.0);
}
std::string ms(double v) {
    return fixed(v, 3) + " ms";
}

const FrameStats& stats(const CaptureReport& r) {
    return r.stats;
}
const FrameTimeSummary& ft(const CaptureReport& r) {
    return r.stats.frame_time;
}
const LoopFigures& loop(const CaptureReport& r) {
    return *r.loop_figures;
}

// The frame-statistics figures: one accessor serves the report (over its series) and the
// comparison (over a resample).
template <auto Get>
std::optional<double> from_stats(const FrameStats& s) {
    return static_cast<double>(Get(s));
}
template <auto Get>
std::optional<double> from_report(const CaptureReport& r) {
    return static_cast<double>(Get(r.stats));
}

constexpr auto kFrames = [](const FrameStats& s) { return s.frame_time.frames; };
constexpr auto kDuration = [](const FrameStats& s) { return ns_to_s(s.frame_time.total_ns); };
constexpr auto kAvgFps = [](const FrameStats& s) { return s.fps.average; };
constexpr auto kP1Low = [](const FrameStats& s) { return s.fps.p1_low; };
constexpr auto kP01Low = [](const FrameStats& s) { return s.fps.p01_low; };
constexpr auto kLow1Avg = [](const FrameStats& s) { return s.fps.low1_average; };
constexpr auto kLow01Avg = [](const FrameStats& s) { return s.fps.low01_average; };
constexpr auto kLow1Integral = [](const FrameStats& s) { return s.fps.low1_integral; };
constexpr auto kLow01Integral = [](const FrameStats& s) { return s.fps.low01_integral; };
constexpr auto kMin = [](const FrameStats& s) { return s.frame_time.min_ms; };
constexpr auto kMean = [](const FrameStats& s) { return s.frame_time.mean_ms; };
constexpr auto kStdev = [](const FrameStats& s) { return s.frame_time.stdev_ms; };
constexpr auto kCv = [](const FrameStats& s) { return s.frame_time.cv; };
constexpr auto kP50 = [](const FrameStats& s) { return s.frame_time.p50_ms; };
constexpr auto kP90 = [](const FrameStats& s) { return s.frame_time.p90_ms; };
constexpr auto kP95 = [](const FrameStats& s) { return s.frame_time.p95_ms; };
constexpr auto kP99 = [](const FrameStats& s) { return s.frame_time.p99_ms; };
constexpr auto kP999 = [](const FrameStats& s) { return s.frame_time.p999_ms; };
constexpr auto kMax = [](const FrameStats& s) { return s.frame_time.max_ms; };
constexpr auto kStutterCount = [](const FrameStats& s) { return s.stutter.frames.size(); };
constexpr auto kStutterShare = [](const FrameStats& s) { return s.stutter.time_share; };
constexpr auto kStutterCountShare = [](const FrameStats& s) { return s.stutter.count_share; };
constexpr auto kHitchCount = [](const FrameStats& s) { return s.hitches.hitches.size(); };
constexpr auto kHitchRate = [](const FrameStats& s) { return s.hitches.per_minute; };
constexpr auto kVarGe12 = [](const FrameStats& s) { return s.variation.share(4); };
// A sampled log's average FPS: each row stands for interval / frame time frames over the
// interval to the next row, so the average is weighted by time, not by row (a plain mean of
// the rows' FPS over-counts short, fast intervals).
std::optional<double> time_weighted_fps(const Series& s) {
    double frames = 0;
    double seconds = 0;
    for (std::size_t i = 0; i + 1 < s.start_ns.size() && i < s.frame_ns.size(); ++i) {
        const std::int64_t interval_ns = s.start_ns[i + 1] - s.start_ns[i];
        if (interval_ns <= 0 || s.frame_ns[i] <= 0)
            continue;
        frames += static_cast<double>(interval_ns) / static_cast<double>(s.frame_ns[i]);
        seconds += static_cast<double>(interval_ns) / 1e9;
    }
    if (!(seconds > 0))
        return std::nullopt;
    return frames / seconds;
}

constexpr auto kRefresh = [](const FrameStats& s) { return s.refresh.rate_hz; };
constexpr auto kOnGrid = [](const FrameStats& s) { return s.refresh.on_grid_share; };

// The five frame-to-frame variation buckets, one summary row each.
template <std::size_t B>
std::string bucket_text(const CaptureReport& r) {
    const VariationBuckets& v = r.stats.variation;
    return fmt::format("{} ({})", v.counts[B], percent(v.share(B)));
}

std::string cadence_text(const CadenceFigures& c) {
    return fmt::format("{} frames, {} FPS, interval mean {} ms, p99 {} ms", c.frames,
                       fixed(c.average_fps, 2), fixed(c.interval.mean_ms, 3),
                       fixed(c.interval.p99_ms, 3));
}

std::string cadence_percentiles_text(const CadenceFigures& c) {
    const FrameTimeSummary& t = c.interval;
    return fmt::format("p50 {}, p90 {}, p95 {}, p99 {}, p99.9 {} ms", fixed(t.p50_ms, 3),
                       fixed(t.p90_ms, 3), fixed(t.p95_ms, 3), fixed(t.p99_ms, 3),
                       fixed(t.p999_ms, 3));
}
std::string cadence_lows_text(const CadenceFigures& c) {
    return fmt::format("1% low {}, 0.1% low {}, 1% low average {}, 1% low integral {} FPS",
                       fixed(c.fps.p1_low, 2), fixed(c.fps.p01_low, 2),
                       fixed(c.fps.low1_average, 2), fixed(c.fps.low1_integral, 2));
}
std::string cadence_stutter_text(const CadenceFigures& c) {
    return fmt::format("{} of time ({} frames), count share {}", percent(c.stutter.time_share),
                       c.stutter.frames.size(), percent(c.stutter.count_share));
}
// The per-cadence figures' numbers, once: the catalogue's value reads them from the report's
// cadence, the comparison from a resampled one.
double cadence_p99(const CadenceFigures& c) {
    return c.interval.p99_ms;
}
double cadence_low1_average(const CadenceFigures& c) {
    return c.fps.low1_average;
}
double cadence_stutter_share(const CadenceFigures& c) {
    return c.stutter.time_share;
}
template <double (*Get)(const CadenceFigures&)>
std::optional<double> of_cadence(const CadenceFigures& c) {
    return Get(c);
}
template <double (*Get)(const CadenceFigures&)>
std::optional<double> of_application(const CaptureReport& r) {
    return Get(r.application);
}
template <double (*Get)(const CadenceFigures&)>
std::optional<double> of_displayed(const CaptureReport& r) {
    return Get(r.displayed);
}

constexpr std::string_view kCadencePercentiles =
    "linear interpolation at h = p·(N-1) over the intervals, as for the frame time above";
constexpr std::string_view kCadenceLows =
    "the FPS lows above (percentile, CapFrameX average, integral) over the intervals";
constexpr std::string_view kCadenceStutter =
    "CapFrameX stutter time share and count share over the intervals, in order";

std::string stutter_text(const FrameStats& s) {
    return fmt::format("{} of time ({} frames)", percent(s.stutter.time_share),
                       s.stutter.frames.size());
}

// Why the report claims no refresh rate, with the evidence, naming the column looked at.
std::string refresh_absence(const CaptureReport& r) {
    const RefreshGuess& g = r.stats.refresh;
    const std::string head = "no refresh rate was detected from " + r.refresh_column + ": ";
    switch (g.absent) {
        case RefreshGuess::Absent::tearing:
            return head + fmt::format(
                              "tearing was allowed (SyncInterval 0 with AllowsTearing on {} of "
                              "the frames), so display changes did not wait for a refresh",
                              percent(g.tearing_share));
        case RefreshGuess::Absent::off_grid:
            return head + fmt::format(
                              "the intervals do not sit on one grid (the best, {} Hz, holds {} "
                              "of them; a refresh rate needs {:.0f} %): variable refresh or no "
                              "vsync",
                              g.best_rate_hz, percent(g.best_on_grid_share),
                              kRefreshMinOnGrid * 100.0);
        case RefreshGuess::Absent::no_candidate:
        case RefreshGuess::Absent::no:
            break;
    }
    return head + "no candidate grid (50-360 Hz) holds 20 % more frames than chance";
}

std::string as_above(const CaptureReport&) {
    return "as above";
}

// Designated initialisers keep each entry readable as a record; fields left out keep their
// defaults. Keyed figures keep the order they had in the gate's list, so error messages and
// the comparison table read as before. The entries share a shape on purpose: each is read and
// checked on its own, as one row of a table, and folding them into helpers would hide the row.
const std::array kCatalogue = {
    // Frames
    Figure{.key = "frames",
           .section = "Frames",
           .label = "frames",
           .unit = "frames",
           .definition = "frames analysed",
           .needs = kNeedsFrames,
           .value = from_report<kFrames>,
           .frame_value = from_stats<kFrames>,
           .text = [](const CaptureReport& r) { return fmt::format("{}", ft(r).frames); }},
    Figure{.key = "duration_s",
           .section = "Frames",
           .label = "duration",
           .unit = "s",
           .definition = "sum of {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kDuration>,
           .frame_value = from_stats<kDuration>,
           .text = [](const CaptureReport& r) { return fixed(ns_to_s(ft(r).total_ns), 3) + " s"; }},
    // FPS
    Figure{.key = "avg_fps",
           .better = Better::higher,
           .section = "FPS",
           .label = "average FPS",
           .unit = "FPS",
           .definition = "frames / total frame time (CapFrameX)",
           .needs = kNeedsFrames,
           .value = from_report<kAvgFps>,
           .frame_value = from_stats<kAvgFps>,
           .compared = true,
           .text = [](const CaptureReport& r) { return fixed(stats(r).fps.average, 2); }},
    Figure{.key = "min_ms",
           .better = Better::lower,
           .section = "Frame time",
           .label = "min",
           .unit = "ms",
           .definition = "shortest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kMin>,
           .frame_value = from_stats<kMin>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).min_ms); }},
    Figure{.key = "mean_ms",
           .better = Better::lower,
           .section = "Frame time",
           .label = "mean",
           .unit = "ms",
           .definition = "mean of {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kMean>,
           .frame_value = from_stats<kMean>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).mean_ms); }},
    Figure{.key = "stdev_ms",
           .better = Better::lower,
           .section = "Frame time",
           .label = "stdev",
           .unit = "ms",
           .definition = "sample standard deviation (N-1)",
           .needs = kNeedsFrames,
           .value = from_report<kStdev>,
           .frame_value = from_stats<kStdev>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).stdev_ms); }},
    Figure{.key = "cv",
           .better = Better::lower,
           .section = "Frame time",
           .label = "CV",
           .definition = "stdev / mean",
           .needs = kNeedsFrames,
           .value = from_report<kCv>,
           .frame_value = from_stats<kCv>,
           .compared = true,
           .text = [](const CaptureReport& r) { return fixed(ft(r).cv, 4); }},
    Figure{.key = "p50_ms",
           .better = Better::lower,
           .section = "Frame time",
           .label = "p50",
           .unit = "ms",
           .definition = "linear interpolation at h = p·(N-1) over {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kP50>,
           .frame_value = from_stats<kP50>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).p50_ms); }},
    Figure{.key = "p90_ms",
           .better = Better::lower,
           .section = "Frame time",
           .label = "p90",
           .unit = "ms",
           .definition = "linear interpolation at h = p·(N-1) over {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kP90>,
           .frame_value = from_stats<kP90>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).p90_ms); }},
    Figure{.key = "p95_ms",
           .better = Better::lower,
           .section = "Frame time",
           .label = "p95",
           .unit = "ms",
           .definition = "linear interpolation at h = p·(N-1) over {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kP95>,
           .frame_value = from_stats<kP95>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).p95_ms); }},
    Figure{.key = "p99_ms",
           .better = Better::lower,
           .section = "Frame time",
           .label = "p99",
           .unit = "ms",
           .definition = "linear interpolation at h = p·(N-1) over {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kP99>,
           .frame_value = from_stats<kP99>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).p99_ms); }},
    Figure{.key = "p999_ms",
           .better = Better::lower,
           .section = "Frame time",
           .label = "p99.9",
           .unit = "ms",
           .definition = "linear interpolation at h = p·(N-1) over {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kP999>,
           .frame_value = from_stats<kP999>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).p999_ms); }},
    Figure{.key = "max_ms",
           .better = Better::lower,
           .section = "Frame time",
           .label = "max",
           .unit = "ms",
           .definition = "longest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kMax>,
           .frame_value = from_stats<kMax>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).max_ms); }},
    Figure{.key = "p1_low_fps",
           .better = Better::higher,
           .section = "FPS",
           .label = "1% low",
           .unit = "FPS",
           .definition = "1000 / p99 frame time (percentile meaning: PresentMon, most tools)",
           .needs = kNeedsFrames,
           .value = from_report<kP1Low>,
           .frame_value = from_stats<kP1Low>,
           .compared = true,
           .text = [](const CaptureReport& r) { return fixed(stats(r).fps.p1_low, 2); }},
    Figure{.key = "p01_low_fps",
           .better = Better::higher,
           .section = "FPS",
           .label = "0.1% low",
           .unit = "FPS",
           .definition = "1000 / p99.9 frame time (percentile meaning: PresentMon, most tools)",
           .needs = kNeedsFrames,
           .value = from_report<kP01Low>,
           .frame_value = from_stats<kP01Low>,
           .compared = true,
           .text = [](const CaptureReport& r) { return fixed(stats(r).fps.p01_low, 2); }},
    Figure{.key = "low1_avg_fps",
           .better = Better::higher,
           .section = "FPS",
           .label = "1% low average",
           .unit = "FPS",
           .definition = "1000 / mean(frame times >= their 0.99 quantile, MathNet R-8) "
                         "(CapFrameX \"1% low average\")",
           .needs = kNeedsFrames,
           .value = from_report<kLow1Avg>,
           .frame_value = from_stats<kLow1Avg>,
           .compared = true,
           .text = [](const CaptureReport& r) { return fixed(stats(r).fps.low1_average, 2); }},
    Figure{.key = "low01_avg_fps",
           .better = Better::higher,
           .section = "FPS",
           .label = "0.1% low average",
           .unit = "FPS",
           .definition = "1000 / mean(frame times >= their 0.999 quantile, MathNet R-8) "
                         "(CapFrameX \"0.1% low average\")",
           .needs = kNeedsFrames,
           .value = from_report<kLow01Avg>,
           .frame_value = from_stats<kLow01Avg>,
           .compared = true,
           .text = [](const CaptureReport& r) { return fixed(stats(r).fps.low01_average, 2); }},
    Figure{.key = "low1_integral_fps",
           .better = Better::higher,
           .section = "FPS",
           .label = "1% low integral",
           .unit = "FPS",
           .definition = "1000 / the frame at which the longest frames first sum to 1 % of the "
                         "time (MSI Afterburner; CapFrameX \"1% low\")",
           .needs = kNeedsFrames,
           .value = from_report<kLow1Integral>,
           .frame_value = from_stats<kLow1Integral>,
           .compared = true,
           .text = [](const CaptureReport& r) { return fixed(stats(r).fps.low1_integral, 2); }},
    Figure{.key = "low01_integral_fps",
           .better = Better::higher,
           .section = "FPS",
           .label = "0.1% low integral",
           .unit = "FPS",
           .definition = "1000 / the frame at which the longest frames first sum to 0.1 % of "
                         "the time (MSI Afterburner; CapFrameX \"0.1% low\")",
           .needs = kNeedsFrames,
           .value = from_report<kLow01Integral>,
           .frame_value = from_stats<kLow01Integral>,
           .compared = true,
           .text = [](const CaptureReport& r) { return fixed(stats(r).fps.low01_integral, 2); }},
    // Stutter
    Figure{.key = "stutter_count",
           .better = Better::lower,
           .section = "Stutter",
           .label = "CapFrameX stutter time",
           .unit = "frames",
           .definition = "frames > 2.5 x the moving average of the round-half-even(10·sqrt(mean "
                         "ms)) samples ending at the frame (CapFrameX)",
           .needs = kNeedsFrames,
           .value = from_report<kStutterCount>,
           .frame_value = from_stats<kStutterCount>,
           .compared = true,
           .text = [](const CaptureReport& r) { return stutter_text(r.stats); },
           .describe =
               [](const CaptureReport& r) {
                   return fmt::format(
                       "time of the frames > 2.5 x the moving average of the {} samples ending "
                       "at the frame (round-half-even(10·sqrt(mean ms))); in that average a "
                       "sample > 3 x the one before it counts as the one before (CapFrameX)",
                       r.stats.stutter.window);
               }},
    Figure{.key = "stutter_share",
           .better = Better::lower,
           .section = "Stutter",
           .definition = "share of the total time spent in frames > 2.5 x their moving average "
                         "(CapFrameX stutter time share)",
           .needs = kNeedsFrames,
           .value = from_report<kStutterShare>,
           .frame_value = from_stats<kStutterShare>,
           .compared = true},
    Figure{.key = "stutter_count_share",
           .better = Better::lower,
           .section = "Stutter",
           .label = "CapFrameX stutter count",
           .definition = "share of the frames > 2.5 x the mean frame time (CapFrameX stutter "
                         "count share)",
           .needs = kNeedsFrames,
           .value = from_report<kStutterCountShare>,
           .frame_value = from_stats<kStutterCountShare>,
           .compared = true,
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{} ({} frames)", percent(r.stats.stutter.count_share),
                                      r.stats.stutter.above_mean);
               }},
    Figure{.key = "hitch_count",
           .better = Better::lower,
           .section = "Stutter",
           .label = "Unreal hitches",
           .unit = "frames",
           .definition = "frame time > 60 ms and >= 1.5 x the previous frame",
           .needs = kNeedsFrames,
           .value = from_report<kHitchCount>,
           .frame_value = from_stats<kHitchCount>,
           .compared = true,
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{} ({:.2f} per minute)", r.stats.hitches.hitches.size(),
                                      r.stats.hitches.per_minute);
               }},
    Figure{.key = "hitches_per_min",
           .better = Better::lower,
           .section = "Stutter",
           .unit = "1/min",
           .definition = "Unreal hitches per minute of frame time",
           .needs = kNeedsFrames,
           .value = from_report<kHitchRate>,
           .frame_value = from_stats<kHitchRate>,
           .compared = true},
    // Variation
    Figure{.section = "Variation",
           .label = "change < 2 ms",
           .definition = "|ft_i - ft_(i-1)| between consecutive frames (CapFrameX)",
           .needs = kNeedsFrames,
           .text = bucket_text<0>},
    Figure{.section = "Variation",
           .label = "change < 4 ms",
           .definition = "|ft_i - ft_(i-1)| between consecutive frames (CapFrameX)",
           .needs = kNeedsFrames,
           .text = bucket_text<1>},
    Figure{.section = "Variation",
           .label = "change < 8 ms",
           .definition = "|ft_i - ft_(i-1)| between consecutive frames (CapFrameX)",
           .needs = kNeedsFrames,
           .text = bucket_text<2>},
    Figure{.section = "Variation",
           .label = "change < 12 ms",
           .definition = "|ft_i - ft_(i-1)| between consecutive frames (CapFrameX)",
           .needs = kNeedsFrames,
           .text = bucket_text<3>},
    Figure{.section = "Variation",
           .label = "change >= 12 ms",
           .definition = "|ft_i - ft_(i-1)| between consecutive frames (CapFrameX)",
           .needs = kNeedsFrames,
           .text = bucket_text<4>},
    Figure{.key = "var_ge12_share",
           .better = Better::lower,
           .section = "Variation",
           .definition = "share of frame-to-frame changes |ft_i - ft_(i-1)| >= 12 ms",
           .needs = kNeedsFrames,
           .value = from_report<kVarGe12>,
           .frame_value = from_stats<kVarGe12>,
           .compared = true},
    // Display
    // The summary row says "none detected" where no grid holds; the number itself (refresh_hz)
    // is then absent, not a 0 that would read as measured.
    Figure{.section = "Display",
           .label = "refresh rate",
           .unit = "Hz",
           .definition = "the candidate grid with the most frames beyond chance, from {}",
           .column = FigureColumn::display,
           .needs = kNeedsFrames,
           .text =
               [](const CaptureReport& r) {
                   const int hz = r.stats.refresh.rate_hz;
                   return hz > 0 ? fmt::format("{} Hz", hz) : std::string("none detected");
               },
           .describe =
               [](const CaptureReport& r) {
                   return r.stats.refresh.rate_hz > 0
                              ? "the candidate grid with the most frames beyond chance, from " +
                                    r.refresh_column
                              : refresh_absence(r);
               }},
    Figure{.key = "refresh_hz",
           .section = "Display",
           .unit = "Hz",
           .definition = "the candidate grid with the most frames beyond chance, from {}",
           .column = FigureColumn::display,
           .needs = kNeedsFrames | kNeedsRefreshGrid,
           .value = from_report<kRefresh>,
           .frame_value = from_stats<kRefresh>},
    Figure{.key = "on_grid_share",
           .better = Better::higher,
           .section = "Display",
           .label = "on grid",
           .definition = "frames within 0.5 ms of a whole number of refresh periods",
           .needs = kNeedsFrames | kNeedsRefreshGrid,
           .value = from_report<kOnGrid>,
           .frame_value = from_stats<kOnGrid>,
           .text = [](const CaptureReport& r) { return percent(r.stats.refresh.on_grid_share); }},
    Figure{.section = "Display",
           .label = "displayed frames",
           .definition = "frames with a display change",
           .needs = kNeedsFrames | kNeedsDisplayColumn,
           .text = [](const CaptureReport& r) { return fmt::format("{}", r.display.displayed); }},
    Figure{.key = "dropped_share",
           .better = Better::lower,
           .section = "Display",
           .label = "dropped frames",
           .definition = "frames never displayed",
           .needs = kNeedsFrames | kNeedsDisplayColumn,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return r.display.dropped_share;
           },
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{} ({})", r.display.dropped,
                                      percent(r.display.dropped_share));
               }},
    Figure{.section = "Display",
           .label = "between display changes",
           .unit = "ms",
           .definition = "time between display changes of the displayed frames ({})",
           .column = FigureColumn::display,
           .needs = kNeedsFrames | kNeedsDisplayColumn,
           .text =
               [](const CaptureReport& r) {
                   const FrameTimeSummary& d = r.display.between_display_changes;
                   return fmt::format("mean {} ms, p99 {} ms", fixed(d.mean_ms, 3),
                                      fixed(d.p99_ms, 3));
               }},
    Figure{.section = "Display",
           .label = "animation error",
           .unit = "ms",
           .definition = "absolute AnimationError (PresentMon)",
           .needs = kNeedsFrames | kNeedsDisplayColumn | kNeedsAnimationError,
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("mean |e| {} ms, p99 {} ms, max {} ms",
                                      fixed(r.display.animation_error_mean_abs_ms, 3),
                                      fixed(r.display.animation_error_p99_abs_ms, 3),
                                      fixed(r.display.animation_error_max_abs_ms, 3));
               }},
    // Frame generation
    Figure{.key = "app_fps",
           .better = Better::higher,
           .section = "Application cadence",
           .label = "application frames",
           .unit = "FPS",
           .definition = "FrameType Application; interval = time since the previous application "
                         "frame",
           .needs = kNeedsFrames | kNeedsApplicationCadence,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return r.application.average_fps;
           },
           .text = [](const CaptureReport& r) { return cadence_text(r.application); },
           .describe = [](const CaptureReport& r) -> std::string {
               if (r.capture->app_interval_ns.empty()) {
                   return "FrameType Application; interval = time since the previous "
                          "application frame";
               }
               return fmt::format(
                   "{}interval = time between the app's frame starts ({}); FPS = frames / sum of "
                   "those intervals",
                   r.has_generated ? "FrameType Application; " : "",
                   r.capture->source.format == "presentmon-2.4" ? "MsBetweenAppStart"
                                                                : "FrameTime");
           }},
    Figure{.key = "generated_fps",
           .section = "Frame generation",
           .label = "generated frames",
           .unit = "FPS",
           .definition = "FrameType other than Application; interval = time since the previous "
                         "generated frame",
           .needs = kNeedsFrames | kNeedsGeneratedFrames,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return r.generated.average_fps;
           },
           .text = [](const CaptureReport& r) { return cadence_text(r.generated); }},
    // The headline figures per cadence: the application frames' (what the game simulated and
    // rendered) and the displayed frames' (what the player saw); the present timeline above
    // mixes the two.
    Figure{.key = "app_p99_ms",
           .better = Better::lower,
           .section = "Application cadence",
           .label = "application percentiles",
           .unit = "ms",
           .definition = kCadencePercentiles,
           .needs = kNeedsFrames | kNeedsApplicationCadence,
           .value = of_application<cadence_p99>,
           .compared = true,
           .cadence = Cadence::application,
           .cadence_value = of_cadence<cadence_p99>,
           .text = [](const CaptureReport& r) { return cadence_percentiles_text(r.application); }},
    Figure{.key = "app_low1_avg_fps",
           .better = Better::higher,
           .section = "Application cadence",
           .label = "application lows",
           .unit = "FPS",
           .definition = kCadenceLows,
           .needs = kNeedsFrames | kNeedsApplicationCadence,
           .value = of_application<cadence_low1_average>,
           .compared = true,
           .cadence = Cadence::application,
           .cadence_value = of_cadence<cadence_low1_average>,
           .text = [](const CaptureReport& r) { return cadence_lows_text(r.application); }},
    Figure{.key = "app_stutter_share",
           .better = Better::lower,
           .section = "Application cadence",
           .label = "application stutter",
           .definition = kCadenceStutter,
           .needs = kNeedsFrames | kNeedsApplicationCadence,
           .value = of_application<cadence_stutter_share>,
           .compared = true,
           .cadence = Cadence::application,
           .cadence_value = of_cadence<cadence_stutter_share>,
           .text = [](const CaptureReport& r) { return cadence_stutter_text(r.application); }},
    Figure{.key = "displayed_fps",
           .better = Better::higher,
           .section = "Frame generation",
           .label = "displayed frames",
           .unit = "FPS",
           .definition = "frames with a display change, application and generated; interval = "
                         "time between display changes ({})",
           .column = FigureColumn::display,
           .needs = kNeedsFrames | kNeedsDisplayedCadence,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return r.displayed.average_fps;
           },
           .text = [](const CaptureReport& r) { return cadence_text(r.displayed); }},
    Figure{.key = "displayed_p99_ms",
           .better = Better::lower,
           .section = "Frame generation",
           .label = "displayed percentiles",
           .unit = "ms",
           .definition = kCadencePercentiles,
           .needs = kNeedsFrames | kNeedsDisplayedCadence,
           .value = of_displayed<cadence_p99>,
           .compared = true,
           .cadence = Cadence::displayed,
           .cadence_value = of_cadence<cadence_p99>,
           .text = [](const CaptureReport& r) { return cadence_percentiles_text(r.displayed); }},
    Figure{.key = "displayed_low1_avg_fps",
           .better = Better::higher,
           .section = "Frame generation",
           .label = "displayed lows",
           .unit = "FPS",
           .definition = kCadenceLows,
           .needs = kNeedsFrames | kNeedsDisplayedCadence,
           .value = of_displayed<cadence_low1_average>,
           .compared = true,
           .cadence = Cadence::displayed,
           .cadence_value = of_cadence<cadence_low1_average>,
           .text = [](const CaptureReport& r) { return cadence_lows_text(r.displayed); }},
    Figure{.key = "displayed_stutter_share",
           .better = Better::lower,
           .section = "Frame generation",
           .label = "displayed stutter",
           .definition = kCadenceStutter,
           .needs = kNeedsFrames | kNeedsDisplayedCadence,
           .value = of_displayed<cadence_stutter_share>,
           .compared = true,
           .cadence = Cadence::displayed,
           .cadence_value = of_cadence<cadence_stutter_share>,
           .text = [](const CaptureReport& r) { return cadence_stutter_text(r.displayed); }},
    // Without FrameType: the alternation frame generation leaves, with its evidence.
    Figure{.key = "suspected_generation_share",
           .section = "Frame generation",
           .label = "frame generation suspected",
           .definition = "no FrameType column, but the present-to-present times alternate: share "
                         "of the frames in runs of >= 8 frames each below half of both "
                         "neighbours, two frames apart",
           .needs = kNeedsFrames | kNeedsSuspectedGeneration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return r.generation_suspicion.alternating_share;
           },
           .text =
               [](const CaptureReport& r) {
                   const GenerationSuspicion& g = r.generation_suspicion;
                   return fmt::format(
                       "{} of frames alternate ({} runs, longest {} pairs): short {} ms, long {} "
                       "ms",
                       percent(g.alternating_share), g.runs, g.longest_run_dips,
                       fixed(g.short_mean_ms, 3), fixed(g.long_mean_ms, 3));
               },
           .describe =
               [](const CaptureReport& r) {
                   return fmt::format(
                       "no FrameType column, but the {} alternate: frames in runs of >= {} "
                       "frames each below {} x both neighbours, two frames apart; suspected "
                       "from {:.0f} % of the frames (short / long: the means of the two "
                       "clusters in the runs)",
                       r.frame_time_column, kGenerationMinRunDips, kGenerationDipRatio,
                       kGenerationMinShare * 100.0);
               }},
    // Loop
    Figure{.section = "Loop",
           .label = "policy",
           .definition = "from the trace's metadata",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{}, dt {:.3f} ms", policy_name(r.loop_config->policy),
                                      ns_to_ms(r.loop_config->dt_ns));
               }},
    Figure{.section = "Loop",
           .label = "steps per frame",
           .definition = "frames by simulation steps run (steps column)",
           .needs = kNeedsLoopRecords,
           .text =
               [](const CaptureReport& r) {
                   std::string hist;
                   for (const auto& [steps, frames] : loop(r).steps_histogram)
                       hist += fmt::format("{}{}: {}", hist.empty() ? "" : ", ", steps, frames);
                   return hist;
               }},
    Figure{.key = "max_steps_per_frame",
           .better = Better::lower,
           .section = "Loop",
           .unit = "steps",
           .definition = "most simulation steps run in one frame (steps column)",
           .needs = kNeedsLoopRecords,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return static_cast<double>(loop(r).max_steps_per_frame);
           }},
    Figure{.section = "Loop",
           .label = "accumulator",
           .unit = "ms",
           .definition = "range of acc_after_ns",
           .needs = kNeedsLoopRecords | kNeedsAccumulator,
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{:.3f} - {:.3f} ms", ns_to_ms(loop(r).acc_min_ns),
                                      ns_to_ms(loop(r).acc_max_ns));
               }},
    Figure{
        .key = "alpha_mean",
        .section = "Loop",
        .label = "alpha",
        .definition = "acc_after / dt",
        .needs = kNeedsLoopRecords | kNeedsAccumulator,
        .value = [](const CaptureReport& r) -> std::optional<double> { return loop(r).alpha_mean; },
        .text =
            [](const CaptureReport& r) {
                const LoopFigures& f = loop(r);
                return fmt::format("mean {:.3f}, {:.3f} - {:.3f}", f.alpha_mean, f.alpha_min,
                                   f.alpha_max);
            }},
    Figure{.section = "Loop",
           .label = "time lost to guards",
           .definition = "clamp_lost_ns (real time) and cap_dropped_ns (simulation time)",
           .needs = kNeedsLoopRecords,
           .text =
               [](const CaptureReport& r) {
                   const LoopFigures& f = loop(r);
                   return fmt::format(
                       "clamp {:.3f} ms in {} frames, step cap {:.3f} ms in {} frames",
                       ns_to_ms(f.clamp_lost_ns), f.clamp_frames, ns_to_ms(f.cap_dropped_ns),
                       f.cap_frames);
               }},
    Figure{.key = "clamp_lost_ms",
           .better = Better::lower,
           .section = "Loop",
           .unit = "ms",
           .definition = "real time the frame-time clamp threw away (clamp_lost_ns)",
           .needs = kNeedsLoopRecords,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return ns_to_ms(loop(r).clamp_lost_ns);
           }},
    Figure{.key = "cap_dropped_ms",
           .better = Better::lower,
           .section = "Loop",
           .unit = "ms",
           .definition = "simulation time the step cap threw away (cap_dropped_ns)",
           .needs = kNeedsLoopRecords,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return ns_to_ms(loop(r).cap_dropped_ns);
           }},
    Figure{.section = "Loop",
           .label = "verdict",
           .definition = "ok (the backlog stays bounded), saturated (the guards engage "
                         "persistently and the game runs in slow motion although a step costs "
                         "less than dt / timescale) or spiral (a step costs at least dt / "
                         "timescale), with the onset: the first frame of the trouble",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .text = [](const CaptureReport& r) { return verdict_brief(loop(r)); },
           .describe =
               [](const CaptureReport& r) {
                   return fmt::format(
                       "trouble: the first {}-frame window over which the backlog grows and the "
                       "guards engage on half of its frames or the mean step cost reaches dt / "
                       "timescale; onset: its first frame from which the backlog stays above "
                       "every earlier one",
                       loop(r).window);
               }},
    Figure{.section = "Loop",
           .label = "cause",
           .definition = "the bottleneck, with its measured numbers",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .text = [](const CaptureReport& r) { return loop(r).cause; }},
    Figure{.key = "slow_motion_factor",
           .better = Better::higher,
           .section = "Loop",
           .label = "slow-motion factor",
           .definition = "simulation time / real time from the onset on",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) { return loop(r).slow_motion_factor; },
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{:.3f}", *loop(r).slow_motion_factor);
               },
           .absent = "the loop kept up (verdict ok: no onset)"},
    Figure{.key = "headroom_ms",
           .better = Better::higher,
           .section = "Loop",
           .label = "headroom",
           .unit = "ms",
           .definition = "how much the step cost may grow before the loop leaves ok: dt / "
                         "timescale - r / cap (dt / timescale without a cap) minus the highest "
                         "window-mean step cost, r the mean other time a frame; negative when over",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               const auto& h = loop(r).headroom_ns;
               return h ? std::optional(*h / 1e6) : std::nullopt;
           },
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{:.3f} ms", *loop(r).headroom_ns / 1e6);
               },
           .describe = [](const CaptureReport& r) { return loop(r).headroom_formula; },
           .absent = "the trace has no step costs or fewer frames than one spiral window"},
    // Without start-up
    Figure{.section = "Without start-up",
           .label = "frames",
           .definition = "after the start-up segment",
           .needs = kNeedsFrames | kNeedsStartupSegment,
           .text =
               [](const CaptureReport& r) { return fmt::format("{}", r.steady.frame_time.frames); },
           .describe =
               [](const CaptureReport& r) {
                   return fmt::format("after the first {} frames", r.startup.frames);
               }},
    Figure{.section = "Without start-up",
           .label = "average FPS",
           .definition = "as above",
           .needs = kNeedsFrames | kNeedsStartupSegment,
           .text = [](const CaptureReport& r) { return fixed(r.steady.fps.average, 2); },
           .describe = as_above},
    Figure{.section = "Without start-up",
           .label = "p99",
           .definition = "as above",
           .needs = kNeedsFrames | kNeedsStartupSegment,
           .text = [](const CaptureReport& r) { return ms(r.steady.frame_time.p99_ms); },
           .describe = as_above},
    Figure{.section = "Without start-up",
           .label = "1% low average",
           .definition = "as above",
           .needs = kNeedsFrames | kNeedsStartupSegment,
           .text = [](const CaptureReport& r) { return fixed(r.steady.fps.low1_average, 2); },
           .describe = as_above},
    Figure{.section = "Without start-up",
           .label = "CapFrameX stutter time",
           .definition = "as above",
           .needs = kNeedsFrames | kNeedsStartupSegment,
           .text = [](const CaptureReport& r) { return stutter_text(r.steady); },
           .describe = as_above},
    Figure{.section = "Without start-up",
           .label = "Unreal hitches",
           .definition = "as above",
           .needs = kNeedsFrames | kNeedsStartupSegment,
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{}", r.steady.hitches.hitches.size());
               },
           .describe = as_above},
    // The two cadences of a frame-generation capture without the start-up segment: the headline
    // rows above mix them, as the present timeline does.
    Figure{.section = "Without start-up",
           .label = "application frames",
           .definition = "as in \"Application cadence\", after the start-up segment",
           .needs = kNeedsFrames | kNeedsStartupSegment | kNeedsApplicationCadence,
           .text = [](const CaptureReport& r) { return cadence_text(r.steady_application); }},
    Figure{.section = "Without start-up",
           .label = "displayed frames",
           .definition = "as in \"Frame generation\", after the start-up segment",
           .needs = kNeedsFrames | kNeedsStartupSegment | kNeedsDisplayedCadence,
           .text = [](const CaptureReport& r) { return cadence_text(r.steady_displayed); }},
    // Samples: what a sampled log (one row an interval average) can honestly give.
    Figure{.key = "samples",
           .section = "Samples",
           .label = "samples",
           .unit = "samples",
           .definition = "rows in the log",
           .needs = kNeedsSamples,
           .value = from_report<kFrames>,
           .text = [](const CaptureReport& r) { return fmt::format("{}", ft(r).frames); }},
    Figure{.key = "mean_sample_ms",
           .better = Better::lower,
           .section = "Samples",
           .label = "mean sampled frame time",
           .unit = "ms",
           .definition = "mean of the {} column (each row an interval average)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsSamples,
           .value = from_report<kMean>,
           .text = [](const CaptureReport& r) { return ms(ft(r).mean_ms); }},
    Figure{.key = "sampled_avg_fps",
           .better = Better::higher,
           .section = "Samples",
           .label = "average FPS (time-weighted)",
           .unit = "FPS",
           .definition = "frames the samples stand for over the time they cover: sum of "
                         "interval / {} over sum of intervals, each row's interval to the next "
                         "row (the last row, with no next, is left out)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsSamples,
           .value = [](const CaptureReport& r) { return time_weighted_fps(r.series); },
           .text =
               [](const CaptureReport& r) {
                   const auto fps = time_weighted_fps(r.series);
                   return fps ? fmt::format("{:.2f}", *fps) : std::string("-");
               },
           .absent = "no two rows with time between them"},
};

// "MangoHud" for the reader's format names, so reasons read as a user names the tool.
std::string format_display_name(std::string_view format) {
    if (format.starts_with("mangohud"))
        return "MangoHud";
    return std::string(format);
}

// "100 ms samples": the median spacing of the samples' start times, when the log has them.
std::string sample_spacing(const Capture& c) {
    if (c.start_ns.size() < 2)
        return "interval-average samples";
    std::vector<std::int64_t> gaps;
    gaps.reserve(c.start_ns.size() - 1);
    for (std::size_t i = 1; i < c.start_ns.size(); ++i)
        gaps.push_back(c.start_ns[i] - c.start_ns[i - 1]);
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2),
                     gaps.end());
    // Whole milliseconds: the log interval is a setting (100 ms by default) that the samples'
    // timestamps only approximate.
    return fmt::format("{:.0f} ms samples", ns_to_ms(gaps[gaps.size() / 2]));
}

std::string capture_name(const CaptureReport& r) {
    return fmt::format("'{}' ({})", r.capture->source.file, r.capture->source.format);
}

// Why neither marked nor suspected frame generation splits the cadences, with the evidence.
std::string generation_absence(const CaptureReport& r) {
    if (r.timeline == Timeline::display)
        return "the display timeline does not split generated frames";
    if (r.capture->generated.size() == r.capture->frames())
        return "no generated frames among the frames analysed";
    if (r.loop_figures)
        return "a loopscope trace records the game's own loop, which never sees the frames a "
               "driver generates";
    const GenerationSuspicion& g = r.generation_suspicion;
    return fmt::format(
        "no generated frames marked (no FrameType column) and frame generation not suspected: {} "
        "of the present-to-present times alternate (a suspicion needs {:.0f} %)",
        percent(g.alternating_share), kGenerationMinShare * 100.0);
}

std::string need_reason(FigureNeed need, const CaptureReport& r) {
    const Capture& c = *r.capture;
    switch (need) {
        case kNeedsFrames:
            return fmt::format("{} rows are {}, not frames", format_display_name(c.source.format),
                               sample_spacing(c));
        case kNeedsSamples:
            return fmt::format("{} has a row per frame, not interval samples", capture_name(r));
        case kNeedsDisplayColumn:
            return fmt::format("{} has no display-change column", capture_name(r));
        case kNeedsAnimationError:
            return fmt::format("{} has no AnimationError column", capture_name(r));
        case kNeedsGeneratedFrames:
            if (r.timeline == Timeline::display)
                return "the display timeline does not split generated frames";
            if (c.generated.size() != c.frames())
                return fmt::format("{} does not mark generated frames (no FrameType column)",
                                   capture_name(r));
            return "no generated frames among the frames analysed";
        case kNeedsRefreshGrid:
            return refresh_absence(r);
        case kNeedsLoopRecords:
            return fmt::format("{} has no loop columns (only loopscope traces do)",
                               capture_name(r));
        case kNeedsAccumulator:
            return r.loop_config ? fmt::format("the {} policy has no accumulator",
                                               policy_name(r.loop_config->policy))
                                 : std::string("the trace's accumulator columns are all 0");
        case kNeedsLoopConfiguration:
            return fmt::format(
                "the metadata of '{}' names no loop configuration (policy and dt_ns)",
                c.source.file);
        case kNeedsStartupSegment:
            return "no start-up segment was found";
        case kNeedsDisplayedCadence:
            if (!r.has_generated && !r.generation_suspicion.suspected)
                return generation_absence(r);
            return fmt::format("{} has no display-change column", capture_name(r));
        case kNeedsApplicationCadence:
            if (r.timeline == Timeline::display)
                return "the display timeline does not split the application's frames";
            if (c.source.format == "presentmon-1")
                return "PresentMon 1.x writes presents only: no application frame-start column "
                       "(FrameTime or MsBetweenAppStart) and no FrameType";
            return fmt::format(
                "{} has no application frame-start column (PresentMon 2.x FrameTime or "
                "MsBetweenAppStart) and marks no generated frames",
                capture_name(r));
        case kNeedsSuspectedGeneration:
            if (r.has_generated || c.generated.size() == c.frames())
                return "the capture has a FrameType column: generated frames are marked there, not "
                       "suspected";
            return generation_absence(r);
    }
    return "not available";
}

bool has(FigureNeed need, const CaptureReport& r) {
    const Capture& c = *r.capture;
    switch (need) {
        case kNeedsFrames:
            return c.per_frame;
        case kNeedsSamples:
            return !c.per_frame;
        case kNeedsDisplayColumn:
            return r.display.available;
        case kNeedsAnimationError:
            return r.display.has_animation_error;
        case kNeedsGeneratedFrames:
            return r.has_generated;
        case kNeedsRefreshGrid:
            return r.stats.refresh.rate_hz > 0;
        case kNeedsLoopRecords:
            return r.loop_figures.has_value();
        case kNeedsAccumulator:
            return r.loop_figures && r.loop_figures->has_accumulator;
        case kNeedsLoopConfiguration:
            return r.loop_config.has_value();
        case kNeedsStartupSegment:
            return r.startup.frames > 0;
        case kNeedsDisplayedCadence:
            return r.displayed.frames > 0;
        case kNeedsSuspectedGeneration:
            return r.generation_suspicion.suspected;
        case kNeedsApplicationCadence:
            return r.application.frames > 0;
    }
    return false;
}

}  // namespace

std::span<const Figure> figure_catalogue() {
    return kCatalogue;
}

const Figure* find_figure(std::string_view key) {
    if (key.empty())
        return nullptr;
    for (const Figure& f : kCatalogue) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}

std::string figure_keys() {
    std::string out;
    for (const Figure& f : kCatalogue) {
        if (f.key.empty())
            continue;
        if (!out.empty())
            out += ", ";
        out += f.key;
    }
    return out;
}

std::string figure_definition(const Figure& f, const CaptureReport* r) {
    if (r && f.describe)
        return f.describe(*r);
    if (f.column == FigureColumn::none)
        return std::string(f.definition);
    std::string column;
    if (!r) {
        column = f.column == FigureColumn::display ? "the display-change column"
                                                   : "the frame-time column";
    } else if (f.column == FigureColumn::display && r->timeline == Timeline::present) {
        column = r->refresh_column;  // the display column where the capture has one
    } else {
        column = r->frame_time_column;
    }
    return fmt::format(fmt::runtime(f.definition), column);
}

std::vector<const Figure*> summary_figures() {
    std::vector<std::string_view> sections;  // in the order of their first figure
    for (const Figure& f : kCatalogue) {
        if (std::find(sections.begin(), sections.end(), f.section) == sections.end())
            sections.push_back(f.section);
    }
    std::vector<const Figure*> out;
    for (const std::string_view section : sections) {
        for (const Figure& f : kCatalogue) {
            if (f.section == section && !f.label.empty())
                out.push_back(&f);
        }
    }
    return out;
}

std::optional<std::string> figure_missing(const Figure& f, const CaptureReport& r) {
    for (unsigned bit = 1; bit <= kNeedsLast; bit <<= 1) {
        const auto need = static_cast<FigureNeed>(bit);
        if ((f.needs & bit) && !has(need, r))
            return need_reason(need, r);
    }
    if (f.value && !f.value(r))
        return std::string(f.absent);
    return std::nullopt;
}

std::optional<std::string> figure_unavailable(const Figure& f, const CaptureReport& r) {
    auto missing = figure_missing(f, r);
    if (!missing)
        return std::nullopt;
    return fmt::format("{} is not available: {}", f.key.empty() ? f.label : f.key, *missing);
}

FigureValue figure_value(const CaptureReport& r, std::string_view key) {
    const Figure* f = find_figure(key);
    if (!f) {
        throw UsageError(fmt::format("unknown figure '{}'; valid figures: {}", key, figure_keys()));
    }
    FigureValue v;
    if (auto why = figure_unavailable(*f, r)) {
        v.reason = std::move(*why);
        return v;
    }
    v.number = f->value(r);
    return v;
}

bool figure_is_count(const Figure& f) {
    return f.unit == "frames" || f.unit == "Hz" || f.unit == "samples" || f.unit == "steps";
}

Better figure_better(const Figure& figure) {
    if (figure.better != Better::unknown)
        return figure.better;
    if (figure.unit == "FPS")
        return Better::higher;
    if (figure.unit == "ms")
        return Better::lower;
    return Better::unknown;
}

std::string format_figure(std::string_view key, double value) {
    const Figure* f = find_figure(key);
    if (f && figure_is_count(*f))
        return fmt::format("{:.0f}", value);
    if (f && f->unit.empty())
        return fmt::format("{:.4f}", value);  // shares and ratios
    return fmt::format("{:.3f}", value);
}

}  // namespace loopscope
