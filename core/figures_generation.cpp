// The catalogue's frame-generation figures: each cadence's, and the verdict without FrameType.
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
constexpr std::string_view kCadencePercentiles =
    "linear interpolation at h = p·(N-1) over the intervals, as for the frame time above";
constexpr std::string_view kCadenceLows =
    "the FPS lows above (percentile, CapFrameX average, integral) over the intervals";
constexpr std::string_view kCadenceStutter =
    "CapFrameX stutter time share and count share over the intervals, in order";

// An application cadence estimated from detected frame generation says so in every output.
std::string estimated_prefix(const CaptureReport& r) {
    return r.application_estimated ? "estimated: " : "";
}
// The headline statistics each cadence gives: the number (from the report's cadence, or from a
// resampled one in the comparison), its definition, its summary text and which way is better.
struct CadenceStat {
    double (*get)(const CadenceFigures&);
    std::string_view definition;
    std::string (*text)(const CadenceFigures&);
    Better better;
    std::string_view unit;
};
enum CadenceStatIndex : std::size_t { kPercentiles, kLows, kStutter };
constexpr CadenceStat kCadenceStats[] = {
    {cadence_p99, kCadencePercentiles, cadence_percentiles_text, Better::lower, "ms"},
    {cadence_low1_average, kCadenceLows, cadence_lows_text, Better::higher, "FPS"},
    {cadence_stutter_share, kCadenceStutter, cadence_stutter_text, Better::lower, {}},
};

template <Cadence C, std::size_t S>
std::optional<double> cadence_value(const CaptureReport& r) {
    return kCadenceStats[S].get(C == Cadence::application ? r.application : r.displayed);
}
template <std::size_t S>
std::optional<double> resampled_cadence_value(const CadenceFigures& c) {
    return kCadenceStats[S].get(c);
}
template <Cadence C, std::size_t S>
std::string cadence_stat_text(const CaptureReport& r) {
    if constexpr (C == Cadence::application)
        return estimated_prefix(r) + kCadenceStats[S].text(r.application);
    else
        return kCadenceStats[S].text(r.displayed);
}
template <std::size_t S>
std::string estimated_cadence_definition(const CaptureReport& r) {
    const std::string definition(kCadenceStats[S].definition);
    return r.application_estimated ? "estimated (see application frames): " + definition
                                   : definition;
}
// One headline statistic of one cadence: the application frames' in a section of their own
// (an estimated cadence says so), the displayed frames' under frame generation.
template <Cadence C, std::size_t S>
constexpr Figure cadence_figure(std::string_view key, std::string_view label) {
    constexpr CadenceStat stat = kCadenceStats[S];
    constexpr bool application = C == Cadence::application;
    return Figure{
        .key = key,
        .better = stat.better,
        .section = application ? "Application cadence" : "Frame generation",
        .label = label,
        .unit = stat.unit,
        .definition = stat.definition,
        .needs = kNeedsFrames | (application ? kNeedsApplicationCadence : kNeedsDisplayedCadence),
        .value = cadence_value<C, S>,
        .compared = true,
        .cadence = C,
        .cadence_value = resampled_cadence_value<S>,
        .text = cadence_stat_text<C, S>,
        .describe = application ? estimated_cadence_definition<S> : nullptr};
}

// Frame generation's evidence in one line: the deciding column's cycles.
std::string evidence_text(const GenerationEvidence& e) {
    return fmt::format(
        "{} repeats every {} frames on {} of its {} known frames ({} cycles, "
        "longest {} frames; peaks {} ms, others {} ms)",
        e.column, e.period, percent(e.share), e.known_frames, e.cycles, e.longest_cycle_frames,
        fixed(e.peak_mean_ms, 3), fixed(e.other_mean_ms, 3));
}

constexpr std::string_view kGenerationRule =
    "a k-peak exceeds every value within k-1 frames by 1/20 of its own; a cycle is a chain of "
    "k-peaks exactly k frames apart covering >= 16 frames; a column shows frame generation when "
    "cycles cover >= 25 % of its known frames (k = 2-4 on the present-to-present times unless "
    "they sit on a fixed refresh grid, k = 2 on MsPCLatency, MsInPresentAPI, "
    "MsRenderPresentLatency, msUntilRenderComplete, msGPUActive, MsUntilDisplayed); detected "
    "when MsPCLatency shows it, possible when only other columns do";

constexpr std::array kGenerationFigures = {
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
           .text =
               [](const CaptureReport& r) {
                   return estimated_prefix(r) + cadence_text(r.application);
               },
           .describe = [](const CaptureReport& r) -> std::string {
               if (r.application_estimated) {
                   return fmt::format(
                       "estimated: frame generation detected without FrameType; one present "
                       "in {} is the application's (which one is not known): interval = time "
                       "between presents at the peaks of {}'s cycles, inside the cycles only "
                       "({} of {} frames)",
                       r.generation.period, r.generation.evidence.front().column,
                       r.generation.estimated_frames, r.stats.frame_time.frames);
               }
               if (r.capture->app_interval_ns.empty()) {
                   return "FrameType Application; interval = time since the previous "
                          "application frame";
               }
               std::string d = fmt::format(
                   "{}interval = time between the app's frame starts ({}); FPS = frames / sum of "
                   "those intervals",
                   r.has_generated ? "FrameType Application; " : "",
                   r.capture->description.app_interval_column);
               // The same application frames as a present timeline rebuilt from the
               // application's presents, by another measure: say how the two differ.
               if (r.capture->leading_frames_without_time > 0 && r.timeline == Timeline::present) {
                   d += "; not the present timeline's times between the application's Present "
                        "calls: a frame start to the next, and the first frame counts (its "
                        "interval began before the file's first row), where the present "
                        "timeline has no time for it";
               }
               return d;
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
    cadence_figure<Cadence::application, kPercentiles>("app_p99_ms", "application percentiles"),
    cadence_figure<Cadence::application, kLows>("app_low1_avg_fps", "application lows"),
    cadence_figure<Cadence::application, kStutter>("app_stutter_time_share",
                                                   "application stutter time"),
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
    cadence_figure<Cadence::displayed, kPercentiles>("displayed_p99_ms", "displayed percentiles"),
    cadence_figure<Cadence::displayed, kLows>("displayed_low1_avg_fps", "displayed lows"),
    cadence_figure<Cadence::displayed, kStutter>("displayed_stutter_time_share",
                                                 "displayed stutter time"),
    // Without FrameType: the cycles frame generation leaves, with its evidence, or why it
    // cannot be told.
    Figure{.section = "Frame generation",
           .label = "frame generation",
           .definition = "no FrameType column: detected from per-frame cycles, or not detectable",
           .needs = kNeedsFrames | kNeedsGenerationExamined,
           .text = generation_verdict,
           .describe = [](const CaptureReport&) { return std::string(kGenerationRule); }},
    Figure{.key = "detected_generation_share",
           .section = "Frame generation",
           .definition = "no FrameType column, but a per-frame column repeats with frame "
                         "generation's cycles: share of its known frames inside the cycles",
           .needs = kNeedsFrames | kNeedsDetectedGeneration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return r.generation.evidence.front().share;
           }},
};

}  // namespace

std::string cadence_text(const CadenceFigures& c) {
    return fmt::format("{} frames, {} FPS, interval mean {} ms, p99 {} ms", c.frames,
                       fixed(c.average_fps, 2), fixed(c.interval.mean_ms, 3),
                       fixed(c.interval.p99_ms, 3));
}

// The verdict for a capture without FrameType: detected with its evidence, or not detectable.
std::string generation_verdict(const CaptureReport& r) {
    const GenerationDetection& g = r.generation;
    if (g.detected)
        return "detected: " + evidence_text(g.evidence.front());
    if (g.possible) {
        return "possible, not detected: " + evidence_text(g.evidence.front()) +
               "; only cycles of MsPCLatency are explained by frame generation alone (these can "
               "also come from displays waiting every other frame, an alternating present call "
               "or a frame cap's pattern), so the presents are analysed as they are";
    }
    if (!g.examined)
        return "not detectable from this capture (no per-frame column with enough known values)";
    const GenerationEvidence& e = g.evidence.front();
    return fmt::format(
        "not detectable from this capture (no column repeats with frame generation's cycles; the "
        "strongest, {}, covers {} of its frames, a detection needs {:.0f} %{})",
        e.column, percent(e.share), kGenerationMinShare * 100.0,
        e.on_refresh_grid ? ", and its cycles sit on the refresh grid" : "");
}

std::span<const Figure> generation_figures() {
    return kGenerationFigures;
}

}  // namespace loopscope::figure_parts
