// The catalogue's frame-time, FPS, stutter, refresh and display figures, the figures without
// the start-up segment and the figures of a sampled log.
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

// ---- Sampled logs (MangoHud, MSI Afterburner) ----
// What a sampled log's figures stand on, said in each definition: "from 298 samples of one frame
// every 100 ms" (MangoHud: each row the latest single frame's time when it was logged) or "from
// 470 polling intervals of 1000 ms" (Afterburner: each row 1000 / the interval's Framerate).
std::string sample_period(const Series& s) {
    if (s.start_ns.size() < 2)
        return "an unknown period";
    std::vector<std::int64_t> gaps;
    gaps.reserve(s.start_ns.size() - 1);
    for (std::size_t i = 1; i < s.start_ns.size(); ++i)
        gaps.push_back(s.start_ns[i] - s.start_ns[i - 1]);
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2),
                     gaps.end());
    return fmt::format("{:.0f} ms", ns_to_ms(gaps[gaps.size() / 2]));
}
std::string sample_basis(const CaptureReport& r) {
    const std::size_t n = r.series.frame_ns.size();
    switch (r.capture->sample_kind) {
        case Capture::SampleKind::latest_frame:
            return fmt::format("from {} samples of one frame every {}", n, sample_period(r.series));
        case Capture::SampleKind::interval_rate:
            return fmt::format("from {} polling intervals of {}", n, sample_period(r.series));
        case Capture::SampleKind::none:
            break;
    }
    return fmt::format("from {} samples", n);
}
std::optional<double> duration_of(const CaptureReport& r) {
    if (r.capture->per_frame)
        return ns_to_s(ft(r).total_ns);
    const auto& starts = r.series.start_ns;
    if (starts.size() < 2)
        return std::nullopt;
    return ns_to_s(starts.back() - starts.front());
}
std::string duration_definition(const CaptureReport& r) {
    if (r.capture->per_frame)
        return "sum of " + r.frame_time_column;
    return fmt::format("from the first sample to the last by the log's clock ({}), {}",
                       r.capture->sample_kind == Capture::SampleKind::interval_rate
                           ? "its time stamps, whole seconds"
                           : "elapsed",
                       sample_basis(r));
}
std::string sampled_percentile_definition(const CaptureReport& r) {
    return fmt::format("linear interpolation at h = p·(N-1) over the samples' {}, {}",
                       r.frame_time_column, sample_basis(r));
}
std::string sampled_extreme_definition(const CaptureReport& r) {
    return fmt::format("longest sampled {}, {}", r.frame_time_column, sample_basis(r));
}
// MSI Afterburner's Frametime sensor over the rows analysed (those with a Framerate), without
// its N/A cells.
std::vector<std::int64_t> sensor_values(const CaptureReport& r) {
    std::vector<std::int64_t> out;
    const Capture& c = *r.capture;
    if (c.sensor_frame_ns.size() != c.frames())
        return out;
    for (std::size_t i = r.range.begin; i < r.range.end && i < c.frames(); ++i) {
        if (c.sensor_frame_ns[i] >= 0)
            out.push_back(c.sensor_frame_ns[i]);
    }
    std::sort(out.begin(), out.end());
    return out;
}
template <int Permille>
std::optional<double> sensor_percentile(const CaptureReport& r) {
    const std::vector<std::int64_t> v = sensor_values(r);
    if (v.empty())
        return std::nullopt;
    return ns_to_ms(percentile_sorted(v, Permille / 1000.0));
}
std::string sensor_definition(const CaptureReport& r) {
    const std::vector<std::int64_t> v = sensor_values(r);
    return fmt::format(
        "linear interpolation at h = p·(N-1) over MSI Afterburner's Frametime sensor, {} "
        "polling intervals of {} (N/A left out); its meaning is undocumented: at least the "
        "interval's mean frame time on every row examined (docs/input-formats.md)",
        v.size(), sample_period(r.series));
}

constexpr auto kRefresh = [](const FrameStats& s) { return s.refresh.rate_hz; };
constexpr auto kOnGrid = [](const FrameStats& s) { return s.refresh.on_grid_share; };

// The five frame-to-frame variation buckets, one summary row each.
template <std::size_t B>
std::string bucket_text(const CaptureReport& r) {
    const VariationBuckets& v = r.stats.variation;
    return fmt::format("{} ({})", v.counts[B], percent(v.share(B)));
}

// The grid frame times without display information sit on, named as what it is.
std::string cadence_grid_text(const RefreshGuess& g) {
    return g.best_rate_hz > 0 ? fmt::format("cadence grid {} Hz ({} of the intervals on it)",
                                            g.best_rate_hz, percent(g.best_on_grid_share))
                              : std::string("no cadence grid");
}

}  // namespace

// Why the report claims no refresh rate, with the evidence, naming the column looked at.
std::string refresh_absence(const CaptureReport& r) {
    const RefreshGuess& g = r.stats.refresh;
    const std::string head = "no fixed refresh from " + r.refresh_column + ": ";
    switch (g.absent) {
        case RefreshGuess::Absent::tearing:
            return head + fmt::format(
                              "tearing was allowed (SyncInterval 0 with AllowsTearing on {} of "
                              "the frames), so display changes follow the presents",
                              percent(g.tearing_share));
        case RefreshGuess::Absent::follows:
            return head + fmt::format(
                              "display changes follow the presents ({} of the displayed frames "
                              "change the display within 1 ms of their present's interval{}): "
                              "independent flip or variable refresh",
                              percent(g.follows_share),
                              g.direct_share >= 0
                                  ? fmt::format(", {} sent to the display without composition",
                                                percent(g.direct_share))
                                  : std::string());
        case RefreshGuess::Absent::off_grid:
            return head + fmt::format(
                              "no candidate grid (50-360 Hz) explains all but {:.0f} % of the "
                              "intervals (the best beyond chance, {} Hz, holds {}), and the "
                              "display changes do not follow the presents: unknown",
                              kRefreshMaxOffGridShare * 100.0, g.best_rate_hz,
                              percent(g.best_on_grid_share));
        case RefreshGuess::Absent::no_display:
            return head + cadence_grid_text(g) +
                   "; frame times without display information (no display-change, dropped, "
                   "present-mode or sync column) show the loop's pacing, never a display's "
                   "refresh rate, missed vsync or dropped frames (unless a target frame rate "
                   "is given)";
        case RefreshGuess::Absent::no_candidate:
        case RefreshGuess::Absent::no:
            break;
    }
    return head + "no intervals to look at";
}

namespace {

// The refresh state in words, for the summary row.
std::string refresh_text(const CaptureReport& r) {
    const RefreshGuess& g = r.stats.refresh;
    switch (g.state) {
        case RefreshGuess::State::fixed: {
            std::string t =
                fmt::format("fixed, {} Hz ({} on grid)", g.rate_hz, percent(g.on_grid_share));
            if (!g.also_fits_hz.empty()) {
                t += "; cannot be told apart from";
                for (std::size_t i = 0; i < g.also_fits_hz.size(); ++i)
                    t += fmt::format("{} {} Hz", i ? "," : "", g.also_fits_hz[i]);
            }
            return t;
        }
        case RefreshGuess::State::follows_presents:
            return g.absent == RefreshGuess::Absent::tearing
                       ? fmt::format("follows presents (tearing on {})", percent(g.tearing_share))
                       : fmt::format("follows presents ({} of display changes)",
                                     percent(g.follows_share));
        case RefreshGuess::State::unknown:
            break;
    }
    if (g.absent == RefreshGuess::Absent::no_display)
        return "none (no display information); " + cadence_grid_text(g);
    return "unknown";
}

std::string as_above(const CaptureReport&) {
    return "as above";
}

std::optional<double> unreal_hitch_share(const CaptureReport& r) {
    if (ft(r).total_ns <= 0)
        return std::nullopt;
    std::int64_t hitch_ns = 0;
    for (const Hitch& h : r.stats.hitches.hitches)
        hitch_ns += h.frame_ns;
    return static_cast<double>(hitch_ns) / static_cast<double>(ft(r).total_ns);
}
// The target an Unreal missed-vsync share is judged against: the one given, else the detected
// fixed refresh rate.
std::optional<double> mvp_target(const CaptureReport& r) {
    if (r.target_fps)
        return r.target_fps;
    if (r.stats.refresh.state == RefreshGuess::State::fixed && r.stats.refresh.rate_hz > 0)
        return static_cast<double>(r.stats.refresh.rate_hz);
    return std::nullopt;
}
std::optional<std::string> mvp_missing(const CaptureReport& r) {
    if (mvp_target(r))
        return std::nullopt;
    return "no target frame rate: none was given, and the display changes show no fixed "
           "refresh rate (" +
           refresh_absence(r) + ")";
}
std::optional<double> unreal_mvp(const CaptureReport& r) {
    const auto target = mvp_target(r);
    if (!target)
        return std::nullopt;
    return unreal_missed_vsync_share(ft(r).frames, ft(r).total_ns, *target);
}
// The same two shares from frame statistics alone, in integers: what the comparison resamples.
std::optional<double> hitch_time_of(const FrameStats& s) {
    if (s.frame_time.total_ns <= 0)
        return std::nullopt;
    return static_cast<double>(s.hitches.hitch_ns) / static_cast<double>(s.frame_time.total_ns);
}
std::optional<double> low_fps_time_of(const FrameStats& s) {
    if (s.frame_time.total_ns <= 0)
        return std::nullopt;
    return static_cast<double>(s.stutter.low_fps_ns) / static_cast<double>(s.frame_time.total_ns);
}
std::optional<double> capframex_low_fps(const CaptureReport& r) {
    if (ft(r).total_ns <= 0)
        return std::nullopt;
    return capframex_low_fps_time_share(r.series.frame_ns, r.stats.stutter.frames);
}

// A row of the frame-to-frame variation histogram: the share of changes in one bucket.
template <std::size_t Bucket>
constexpr Figure variation_row(std::string_view label) {
    return Figure{.section = "Variation",
                  .label = label,
                  .definition = "|ft_i - ft_(i-1)| between consecutive frames (CapFrameX)",
                  .needs = kNeedsFrames,
                  .text = bucket_text<Bucket>};
}

// A figure of the frame statistics: one accessor gives the report's number and the
// comparison's (over a resample), and the summary cell.
template <auto Get>
constexpr Figure frame_stat(Figure f, std::string (*text)(const CaptureReport&)) {
    f.needs = kNeedsFrames;
    f.value = from_report<Get>;
    f.frame_value = from_stats<Get>;
    f.compared = true;
    f.text = text;
    return f;
}
template <auto Get>
std::string ms_text(const CaptureReport& r) {
    return ms(Get(r.stats));
}
template <auto Get>
std::string fps_text(const CaptureReport& r) {
    return fixed(Get(r.stats), 2);
}

// A frame statistic a line, as a table reads.
// clang-format off
constexpr std::array kFrameFigures = {
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
           .definition = "sum of {}; for a sampled log, from its first sample to its last by the "
                         "log's clock",
           .column = FigureColumn::frame_time,
           .value = duration_of,
           .frame_value = from_stats<kDuration>,
           .text =
               [](const CaptureReport& r) {
                   const auto d = duration_of(r);
                   return d ? fixed(*d, 3) + " s" : std::string("-");
               },
           .describe = duration_definition,
           .absent = "a sampled log with fewer than two samples has no span"},
    // FPS
    frame_stat<kAvgFps>({.key = "avg_fps", .better = Better::higher, .section = "FPS", .label = "average FPS", .unit = "FPS", .definition = "frames / total frame time (CapFrameX)"}, fps_text<kAvgFps>),
    frame_stat<kMin>({.key = "min_ms", .better = Better::lower, .section = "Frame time", .label = "min", .unit = "ms", .definition = "shortest {}", .column = FigureColumn::frame_time}, ms_text<kMin>),
    frame_stat<kMean>({.key = "mean_ms", .better = Better::lower, .section = "Frame time", .label = "mean", .unit = "ms", .definition = "mean of {}", .column = FigureColumn::frame_time}, ms_text<kMean>),
    frame_stat<kStdev>({.key = "stdev_ms", .better = Better::lower, .section = "Frame time", .label = "stdev", .unit = "ms", .definition = "sample standard deviation (N-1)"}, ms_text<kStdev>),
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
    frame_stat<kP50>({.key = "p50_ms", .better = Better::lower, .section = "Frame time", .label = "p50", .unit = "ms", .definition = "linear interpolation at h = p·(N-1) over {}", .column = FigureColumn::frame_time}, ms_text<kP50>),
    frame_stat<kP90>({.key = "p90_ms", .better = Better::lower, .section = "Frame time", .label = "p90", .unit = "ms", .definition = "linear interpolation at h = p·(N-1) over {}", .column = FigureColumn::frame_time}, ms_text<kP90>),
    frame_stat<kP95>({.key = "p95_ms", .better = Better::lower, .section = "Frame time", .label = "p95", .unit = "ms", .definition = "linear interpolation at h = p·(N-1) over {}", .column = FigureColumn::frame_time}, ms_text<kP95>),
    frame_stat<kP99>({.key = "p99_ms", .better = Better::lower, .section = "Frame time", .label = "p99", .unit = "ms", .definition = "linear interpolation at h = p·(N-1) over {}", .column = FigureColumn::frame_time}, ms_text<kP99>),
    frame_stat<kP999>({.key = "p999_ms", .better = Better::lower, .section = "Frame time", .label = "p99.9", .unit = "ms", .definition = "linear interpolation at h = p·(N-1) over {}", .column = FigureColumn::frame_time}, ms_text<kP999>),
    frame_stat<kMax>({.key = "max_ms", .better = Better::lower, .section = "Frame time", .label = "max", .unit = "ms", .definition = "longest {}", .column = FigureColumn::frame_time}, ms_text<kMax>),
    frame_stat<kP1Low>({.key = "p1_low_fps", .better = Better::higher, .section = "FPS", .label = "1% low", .unit = "FPS", .definition = "1000 / p99 frame time (percentile meaning: PresentMon, most tools)"}, fps_text<kP1Low>),
    frame_stat<kP01Low>({.key = "p01_low_fps", .better = Better::higher, .section = "FPS", .label = "0.1% low", .unit = "FPS", .definition = "1000 / p99.9 frame time (percentile meaning: PresentMon, most tools)"}, fps_text<kP01Low>),
    frame_stat<kLow1Avg>({.key = "low1_avg_fps", .better = Better::higher, .section = "FPS", .label = "1% low average", .unit = "FPS", .definition = "1000 / mean(frame times >= their 0.99 quantile, MathNet R-8) (CapFrameX \"1% low average\")"}, fps_text<kLow1Avg>),
    frame_stat<kLow01Avg>({.key = "low01_avg_fps", .better = Better::higher, .section = "FPS", .label = "0.1% low average", .unit = "FPS", .definition = "1000 / mean(frame times >= their 0.999 quantile, MathNet R-8) (CapFrameX \"0.1% low average\")"}, fps_text<kLow01Avg>),
    frame_stat<kLow1Integral>({.key = "low1_integral_fps", .better = Better::higher, .section = "FPS", .label = "1% low integral", .unit = "FPS", .definition = "1000 / the frame at which the longest frames first sum to 1 % of the time (CapFrameX \"1% low\")"}, fps_text<kLow1Integral>),
    frame_stat<kLow01Integral>({.key = "low01_integral_fps", .better = Better::higher, .section = "FPS", .label = "0.1% low integral", .unit = "FPS", .definition = "1000 / the frame at which the longest frames first sum to 0.1 % of the time (CapFrameX \"0.1% low\")"}, fps_text<kLow01Integral>),
    // Stutter
    Figure{.key = "stutter_time_share",
           .better = Better::lower,
           .section = "Stutter",
           .label = "CapFrameX stutter time",
           .definition = "share of the total time spent in frames > 2.5 x their moving average "
                         "(CapFrameX stutter time share)",
           .needs = kNeedsFrames,
           .value = from_report<kStutterShare>,
           .frame_value = from_stats<kStutterShare>,
           .compared = true,
           .text = [](const CaptureReport& r) { return stutter_text(r.stats); },
           .describe =
               [](const CaptureReport& r) {
                   return fmt::format(
                       "share of the time in frames > 2.5 x the moving average of the {} "
                       "samples ending at the frame (round-half-even(10·sqrt(mean ms))); in that "
                       "average a sample > 3 x the one before it counts as the one before "
                       "(CapFrameX stutter time share)",
                       r.stats.stutter.window);
               }},
    Figure{.key = "stutter_time_frames",
           .better = Better::lower,
           .section = "Stutter",
           .unit = "frames",
           .definition = "frames of the stutter time rule: frames > 2.5 x the moving average of "
                         "the round-half-even(10·sqrt(mean ms)) samples ending at the frame "
                         "(CapFrameX)",
           .needs = kNeedsFrames,
           .value = from_report<kStutterCount>,
           .frame_value = from_stats<kStutterCount>,
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
    Figure{.key = "stutter_count_frames",
           .better = Better::lower,
           .section = "Stutter",
           .unit = "frames",
           .definition = "frames of the stutter count rule: frames > 2.5 x the mean frame time "
                         "(CapFrameX)",
           .needs = kNeedsFrames,
           .value = from_report<kStutterCountFrames>,
           .frame_value = from_stats<kStutterCountFrames>,
           .compared = true},
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
    Figure{.key = "unreal_hitch_time_share",
           .better = Better::lower,
           .section = "Stutter",
           .definition = "share of the total frame time spent in Unreal hitches (frame time > "
                         "60 ms and >= 1.5 x the previous frame): Unreal's hitch time percent "
                         "(FPerformanceTrackingChart::GetPercentHitchTime, Engine ChartCreation; "
                         "only Epic's API documentation was reachable, not its source)",
           .needs = kNeedsFrames,
           .value = unreal_hitch_share,
           .frame_value = hitch_time_of,
           .compared = true,
           .absent = "no frame time"},
    Figure{.key = "unreal_mvp_share",
           .better = Better::lower,
           .section = "Stutter",
           .label = "Unreal missed vsync",
           .definition = "Unreal's missed-vsync percentage as a share: with V = floor(target FPS "
                         "x total seconds), max(0, V - frames) / V; the target is the frame rate "
                         "the report is given, else the detected refresh rate (FPerformanceTrackingChart::"
                         "GetPercentMissedVSync; only Epic's API documentation was reachable)",
           .needs = kNeedsFrames,
           .value = unreal_mvp,
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{} at {:.3f} FPS{}", percent(*unreal_mvp(r)), *mvp_target(r),
                                      r.target_fps ? "" : " (the detected refresh rate)");
               },
           .missing = mvp_missing},
    Figure{.key = "capframex_below25_time_share",
           .better = Better::lower,
           .section = "Stutter",
           .label = "CapFrameX low FPS time",
           .definition = "share of the total time in frames that are not CapFrameX stutter and "
                         "run below 25 FPS (1000 / ft_ms < 25): CapFrameX's \"Low FPS\" "
                         "(GetLowFPSTimePercentage, defaults StutteringFactor 2.5, "
                         "StutteringThreshold 25 FPS; CXWorld/CapFrameX 3ba66ff)",
           .needs = kNeedsFrames,
           .value = capframex_low_fps,
           .frame_value = low_fps_time_of,
           .compared = true,
           .text = [](const CaptureReport& r) { return percent(*capframex_low_fps(r)); },
           .absent = "no frame time"},
    // Variation
    variation_row<0>("change < 2 ms"),
    variation_row<1>("change < 4 ms"),
    variation_row<2>("change < 8 ms"),
    variation_row<3>("change < 12 ms"),
    variation_row<4>("change >= 12 ms"),
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
           .definition = "the lowest candidate rate whose grid explains all but 5 % of {}",
           .column = FigureColumn::display,
           .needs = kNeedsFrames,
           .text = refresh_text,
           .describe =
               [](const CaptureReport& r) {
                   return r.stats.refresh.rate_hz > 0
                              ? fmt::format(
                                    "the lowest candidate rate (50-360 Hz) whose grid "
                                    "(whole periods +-0.5 ms) explains all but {:.0f} % "
                                    "of {}",
                                    kRefreshMaxOffGridShare * 100.0, r.refresh_column)
                              : refresh_absence(r);
               }},
    Figure{.key = "refresh_hz",
           .section = "Display",
           .unit = "Hz",
           .definition = "a fixed refresh: the lowest candidate rate whose grid explains all "
                         "but 5 % of {}",
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
};
// clang-format on

constexpr std::array kSteadyFigures = {
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
};

constexpr std::array kSampleFigures = {
    // Samples: what a sampled log can honestly give. A MangoHud row is one frame's time at
    // the logging instant, a sample of the frames (the frame that ended last, picked with a
    // chance that grows with the length of the frame after it); an Afterburner row is a
    // polling interval's frame rate. Their percentiles are of the samples, said as such.
    Figure{.key = "samples",
           .section = "Samples",
           .label = "samples",
           .unit = "samples",
           .definition = "rows in the log with a frame time",
           .needs = kNeedsSamples,
           .value = from_report<kFrames>,
           .text = [](const CaptureReport& r) { return fmt::format("{}", ft(r).frames); },
           .describe =
               [](const CaptureReport& r) { return "rows with a frame time, " + sample_basis(r); }},
    Figure{.key = "mean_sample_ms",
           .better = Better::lower,
           .section = "Samples",
           .label = "mean sampled frame time",
           .unit = "ms",
           .definition = "mean of the samples' {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsSamples,
           .value = from_report<kMean>,
           .frame_value = from_stats<kMean>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).mean_ms); },
           .describe =
               [](const CaptureReport& r) {
                   return fmt::format("mean of the samples' {}, {}", r.frame_time_column,
                                      sample_basis(r));
               }},
    Figure{.key = "sampled_avg_fps",
           .better = Better::higher,
           .section = "Samples",
           .label = "average FPS (time-weighted)",
           .unit = "FPS",
           .definition = "sum of interval / ({}) over sum of intervals, each row's interval to "
                         "the next row (the last row, with no next, is left out): frames over "
                         "time for interval rates; for samples of one frame, 1000 / frame time "
                         "averaged over time, frames over time where consecutive frames are "
                         "alike",
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

// A sampled log's percentiles of its samples, and of MSI Afterburner's Frametime sensor.
template <auto Get>
std::string sampled_text(const CaptureReport& r) {
    return ms(Get(r.stats));
}
template <auto Get>
constexpr Figure sampled_figure(std::string_view key, std::string_view label,
                                std::string (*describe)(const CaptureReport&)) {
    return Figure{.key = key,
                  .section = "Samples",
                  .label = label,
                  .unit = "ms",
                  .needs = kNeedsSamples,
                  .value = from_report<Get>,
                  .frame_value = from_stats<Get>,
                  .compared = true,
                  .text = sampled_text<Get>,
                  .describe = describe};
}
template <int PerMille>
std::string sensor_text(const CaptureReport& r) {
    return ms(*sensor_percentile<PerMille>(r));
}
template <int PerMille>
constexpr Figure sensor_figure(std::string_view key, std::string_view label) {
    return Figure{.key = key,
                  .section = "Samples",
                  .label = label,
                  .unit = "ms",
                  .needs = kNeedsSamples,
                  .value = sensor_percentile<PerMille>,
                  .text = sensor_text<PerMille>,
                  .describe = sensor_definition,
                  .absent =
                      "no Frametime sensor values (only MSI Afterburner logs have the "
                      "sensor)"};
}

constexpr std::array kSampledPercentileFigures = {
    sampled_figure<kP50>("sampled_p50_ms", "sampled p50", sampled_percentile_definition),
    sampled_figure<kP95>("sampled_p95_ms", "sampled p95", sampled_percentile_definition),
    sampled_figure<kP99>("sampled_p99_ms", "sampled p99", sampled_percentile_definition),
    sampled_figure<kMax>("sampled_max_ms", "sampled max", sampled_extreme_definition),
    sensor_figure<500>("sensor_frametime_p50_ms", "Frametime sensor p50"),
    sensor_figure<990>("sensor_frametime_p99_ms", "Frametime sensor p99"),
    sensor_figure<1000>("sensor_frametime_max_ms", "Frametime sensor max"),
};

}  // namespace

std::string stutter_text(const FrameStats& s) {
    return fmt::format("{} of time ({} frames)", percent(s.stutter.time_share),
                       s.stutter.frames.size());
}

std::span<const Figure> frame_figures() {
    return kFrameFigures;
}
std::span<const Figure> steady_figures() {
    return kSteadyFigures;
}
std::span<const Figure> sample_figures() {
    return kSampleFigures;
}
std::span<const Figure> sampled_percentile_figures() {
    return kSampledPercentileFigures;
}

}  // namespace loopscope::figure_parts
