// The figure catalogue (see figures.hpp): one entry a figure, the rule for when a capture has
// it, and the reasons given when it does not.
#include "core/figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "common/errors.hpp"
#include "core/bottleneck.hpp"
#include "core/hitch_cause.hpp"
#include "core/latency.hpp"
#include "core/near_name.hpp"
#include "core/percentile.hpp"
#include "core/tool_figures.hpp"
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
constexpr auto kStutterCountFrames = [](const FrameStats& s) { return s.stutter.above_mean; };
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

// An application cadence estimated from detected frame generation says so in every output.
std::string estimated_prefix(const CaptureReport& r) {
    return r.application_estimated ? "estimated: " : "";
}
template <const std::string_view& Definition>
std::string estimated_cadence_definition(const CaptureReport& r) {
    return r.application_estimated
               ? "estimated (see application frames): " + std::string(Definition)
               : std::string(Definition);
}

std::string stutter_text(const FrameStats& s) {
    return fmt::format("{} of time ({} frames)", percent(s.stutter.time_share),
                       s.stutter.frames.size());
}

// The grid frame times without display information sit on, named as what it is.
std::string cadence_grid_text(const RefreshGuess& g) {
    return g.best_rate_hz > 0 ? fmt::format("cadence grid {} Hz ({} of the intervals on it)",
                                            g.best_rate_hz, percent(g.best_on_grid_share))
                              : std::string("no cadence grid");
}

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

std::string as_above(const CaptureReport&) {
    return "as above";
}

// Each tool's own figures (core/tool_figures.hpp).
constexpr std::string_view kToolSection = "Each tool's own figures";
const ToolFigures& tools(const CaptureReport& r) {
    return r.stats.frame_time.tools;
}
constexpr auto kFvAvg = [](const FrameStats& s) { return s.frame_time.tools.frameview_avg_fps; };
constexpr auto kFvLow1 = [](const FrameStats& s) { return s.frame_time.tools.frameview_low1_fps; };
constexpr auto kFvLow01 = [](const FrameStats& s) {
    return s.frame_time.tools.frameview_low01_fps;
};
constexpr auto kFvP1 = [](const FrameStats& s) { return s.frame_time.tools.frameview_p1_fps; };
constexpr auto kFvP01 = [](const FrameStats& s) { return s.frame_time.tools.frameview_p01_fps; };
constexpr auto kFvP5 = [](const FrameStats& s) { return s.frame_time.tools.frameview_p5_fps; };
constexpr auto kFvP10 = [](const FrameStats& s) { return s.frame_time.tools.frameview_p10_fps; };
constexpr auto kFvMin = [](const FrameStats& s) { return s.frame_time.tools.frameview_min_fps; };
constexpr auto kFvMax = [](const FrameStats& s) { return s.frame_time.tools.frameview_max_fps; };
constexpr auto kMhAvg = [](const FrameStats& s) { return s.frame_time.tools.mangohud_avg_fps; };
constexpr auto kMhMin1 = [](const FrameStats& s) { return s.frame_time.tools.mangohud_min1_fps; };
constexpr auto kMhMin01 = [](const FrameStats& s) { return s.frame_time.tools.mangohud_min01_fps; };
constexpr auto kMhP97 = [](const FrameStats& s) { return s.frame_time.tools.mangohud_p97_fps; };
constexpr auto kCxP1 = [](const FrameStats& s) { return s.frame_time.tools.capframex_p1_fps; };
constexpr auto kCxP01 = [](const FrameStats& s) { return s.frame_time.tools.capframex_p01_fps; };
constexpr auto kPmAvg = [](const FrameStats& s) { return s.frame_time.tools.presentmon_avg_fps; };
constexpr auto kPmP1 = [](const FrameStats& s) { return s.frame_time.tools.presentmon_p1_fps; };
constexpr auto kPmP5 = [](const FrameStats& s) { return s.frame_time.tools.presentmon_p5_fps; };
constexpr auto kPmMin = [](const FrameStats& s) { return s.frame_time.tools.presentmon_min_fps; };
constexpr auto kPmMax = [](const FrameStats& s) { return s.frame_time.tools.presentmon_max_fps; };
constexpr auto kOcP95 = [](const FrameStats& s) { return s.frame_time.tools.ocat_p95_ms; };
constexpr auto kOcP99 = [](const FrameStats& s) { return s.frame_time.tools.ocat_p99_ms; };
constexpr auto kOcP999 = [](const FrameStats& s) { return s.frame_time.tools.ocat_p999_ms; };

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

// ---- Latency (core/latency.hpp) ----
std::string capture_label(const CaptureReport& r) {
    return fmt::format("'{}' ({})", r.capture->source.file, r.capture->source.format);
}
constexpr std::string_view kLatencySection = "Latency";
std::string_view latency_tools(LatencyKind kind) {
    switch (kind) {
        case LatencyKind::pc:
            return "MsPCLatency (FrameView, PresentMon 2.4+)";
        case LatencyKind::click_to_photon:
            return "ClickToPhotonLatency (PresentMon 2.x)";
        case LatencyKind::all_input_to_photon:
            return "AllInputToPhotonLatency (PresentMon 2.x)";
        case LatencyKind::display:
            return "DisplayLatency (PresentMon 2.x; 2.4+: TimeInQPC - CPUStartQPC + "
                   "MsUntilDisplayed)";
        case LatencyKind::render_present:
            break;
    }
    return "MsRenderPresentLatency (FrameView, PresentMon 2.4+)";
}
template <LatencyKind K>
std::optional<std::string> latency_missing(const CaptureReport& r) {
    const std::string_view column = latency_column(*r.capture, K);
    if (column.empty())
        return fmt::format("{} has no {} column", capture_label(r), latency_tools(K));
    const auto& s = r.latency.of(K);
    if (!s || s->frames == 0)
        return fmt::format("no frame of the range has a value in {} (every cell NA)", column);
    return std::nullopt;
}
enum class LatencyStat { mean, p50, p99, min, max };
template <LatencyKind K, LatencyStat S>
std::optional<double> latency_value(const CaptureReport& r) {
    const auto& s = r.latency.of(K);
    if (!s || s->frames == 0)
        return std::nullopt;
    switch (S) {
        case LatencyStat::mean:
            return s->mean_ms;
        case LatencyStat::p50:
            return s->p50_ms;
        case LatencyStat::p99:
            return s->p99_ms;
        case LatencyStat::min:
            return s->min_ms;
        case LatencyStat::max:
            break;
    }
    return s->max_ms;
}
// The latency cells of the range that are a time, in frame order, and a latency figure of any
// set of them: what the comparison resamples.
template <LatencyKind K>
std::vector<std::int64_t> latency_series(const CaptureReport& r) {
    const std::vector<std::int64_t> all = latency_per_frame(*r.capture, K);
    std::vector<std::int64_t> cells;
    for (std::size_t i = r.range.begin; i < r.range.end && i < all.size(); ++i) {
        if (all[i] >= 0)
            cells.push_back(all[i]);
    }
    return cells;
}
template <LatencyStat S>
std::optional<double> latency_of(const AscendingValues& v) {
    if (v.size() == 0)
        return std::nullopt;
    switch (S) {
        case LatencyStat::mean:
            return ns_to_ms(static_cast<double>(v.sum_from(0)) / static_cast<double>(v.size()));
        case LatencyStat::p50:
            return ns_to_ms(percentile_of(v, 0.50));
        case LatencyStat::p99:
            return ns_to_ms(percentile_of(v, 0.99));
        case LatencyStat::min:
            return ns_to_ms(v.front());
        case LatencyStat::max:
            break;
    }
    return ns_to_ms(v.back());
}
template <LatencyKind K>
std::string latency_text(const CaptureReport& r) {
    const LatencySummary& s = *r.latency.of(K);
    return fmt::format("mean {} ms, p50 {} ms, p99 {} ms, min {} ms, max {} ms ({} frames)",
                       fixed(s.mean_ms, 3), fixed(s.p50_ms, 3), fixed(s.p99_ms, 3),
                       fixed(s.min_ms, 3), fixed(s.max_ms, 3), s.frames);
}
template <LatencyKind K>
std::string latency_definition(const CaptureReport& r) {
    const std::string_view column = latency_column(*r.capture, K);
    return fmt::format(
        "over the frames of the range whose {} cell is a time (NA cells, and cells that are "
        "not a time >= 0, counted in the data quality, left out): mean, linear interpolation "
        "at h = p·(N-1), min, max",
        column.empty() ? latency_tools(K) : column);
}

// ---- Where the time goes (core/bottleneck.hpp) ----
constexpr std::string_view kBoundSection = "Where the time goes";
std::optional<std::string> bound_missing(const CaptureReport& r) {
    if (auto why = bottleneck_missing(*r.capture))
        return why;
    if (r.bottleneck.classified == 0)
        return std::string(
            "no frame of the range could be classified (the busy and wait "
            "cells are NA, or every frame is generated)");
    return std::nullopt;
}
std::optional<std::string> steady_bound_missing(const CaptureReport& r) {
    if (auto why = bound_missing(r))
        return why;
    if (r.steady_bottleneck.classified == 0)
        return std::string("no frame after the start-up segment could be classified");
    return std::nullopt;
}
std::string bound_shares_text(const BottleneckShares& b) {
    return fmt::format("CPU {}, GPU {}, wait {} of {} frames", percent(b.cpu_share),
                       percent(b.gpu_share), percent(b.wait_share), b.classified);
}
std::string bound_definition(const CaptureReport& r) {
    if (bottleneck_rule(*r.capture) == BottleneckRule::render_complete) {
        return fmt::format(
            "per frame (T = its msBetweenPresents): GPU-bound when msUntilRenderComplete >= T; "
            "else wait-bound when msInPresentAPI >= {:.1f}·T; else CPU-bound",
            1.0 - kBusyShare);
    }
    return fmt::format(
        "per application frame (T = CPUBusy + CPUWait): bound by the busier of CPUBusy and "
        "GPUBusy when it is >= {:.1f}·T (GPU on a tie), else wait-bound; generated frames are "
        "not classified",
        kBusyShare);
}
template <Bound B>
std::optional<double> bound_share(const CaptureReport& r) {
    if (r.bottleneck.classified == 0)
        return std::nullopt;
    switch (B) {
        case Bound::cpu:
            return r.bottleneck.cpu_share;
        case Bound::gpu:
            return r.bottleneck.gpu_share;
        default:
            break;
    }
    return r.bottleneck.wait_share;
}

// Per classified frame of the range, where its time went (bound_code): the one column the three
// shares are resampled from, each share the count of its code over the frames.
std::int64_t bound_code(Bound bound) {
    return bound == Bound::cpu ? 0 : bound == Bound::gpu ? 1 : 2;
}
std::vector<std::int64_t> bound_series(const CaptureReport& r) {
    std::vector<std::int64_t> codes;
    if (bottleneck_rule(*r.capture) == BottleneckRule::none)
        return codes;
    for (std::size_t i = r.range.begin; i < r.range.end && i < r.capture->frames(); ++i) {
        const Bound bound = frame_bound(*r.capture, i);
        if (bound != Bound::unknown)
            codes.push_back(bound_code(bound));
    }
    return codes;
}
template <Bound B>
std::optional<double> share_of(const AscendingValues& codes) {
    if (codes.size() == 0)
        return std::nullopt;
    const std::int64_t code = bound_code(B);
    const std::size_t below = code == 0 ? 0 : codes.rank_above(code - 1);
    return static_cast<double>(codes.rank_above(code) - below) / static_cast<double>(codes.size());
}
// Two captures whose frames were classified by different rules (PresentMon 1.x's render
// completion against 2.x's busy times) have shares of different things.
std::optional<std::string> bound_unlike(const CaptureReport& a, const CaptureReport& b) {
    const auto rule = [](const CaptureReport& r) {
        return bottleneck_rule(*r.capture) == BottleneckRule::busy_wait
                   ? "the busy and wait columns"
                   : "msUntilRenderComplete";
    };
    if (bottleneck_rule(*a.capture) == bottleneck_rule(*b.capture))
        return std::nullopt;
    return fmt::format("A's frames are classified by {}, B's by {}: different rules", rule(a),
                       rule(b));
}

// ---- Why the hitches (core/hitch_cause.hpp) ----
constexpr std::string_view kHitchCauseSection = "Why the hitches";
// Each hitch's cause, in hitch order (worked out once by the analysis).
const std::vector<HitchCause>& hitch_causes(const CaptureReport& r) {
    return r.hitch_causes;
}
std::int64_t kind_ns(const HitchCause& cause, std::string_view kind) {
    std::int64_t ns = 0;
    for (const CausePart& p : cause.parts)
        ns += p.kind == kind ? p.ns : 0;
    return ns;
}
// Whether the capture's columns can give a part of this kind at all.
std::optional<std::string> part_kind_missing(const CaptureReport& r, std::string_view kind) {
    const Capture& c = *r.capture;
    const CauseRule rule = cause_rule(c);
    if (kind == kPartUnexplained)
        return std::nullopt;
    if (kind == kPartZone)
        return c.zones.empty()
                   ? std::optional<std::string>("the capture holds no zones of the game")
                   : std::nullopt;
    if (r.timeline != Timeline::present)
        return std::string(
            "the display timeline's intervals are not split by the present-side "
            "columns");
    const bool loop_kind =
        kind == kPartSteps || kind == kPartRender || kind == kPartWait || kind == kPartAfterSteps;
    if (loop_kind)
        return rule == CauseRule::loop_phases ? std::nullopt
                                              : std::optional<std::string>(
                                                    "the capture has no loop records (loopscope "
                                                    "traces: step_cost_ns, render_ns, wait_ns)");
    if (rule != CauseRule::present_call)
        return std::string("the capture has no Present-call column (MsInPresentAPI, CPUWait)");
    if (kind == kPartShaderCompile && c.time_column(TimeColumn::pso_compile).size() != c.frames())
        return std::string("the capture has no MsPsoCompileTime column (PresentMon 2.6+)");
    return std::nullopt;
}
template <std::size_t K>
std::optional<std::string> part_missing(const CaptureReport& r) {
    return part_kind_missing(r, kPartKinds[K]);
}
template <std::size_t K>
std::optional<double> part_ms(const CaptureReport& r) {
    std::int64_t ns = 0;
    for (const HitchCause& cause : hitch_causes(r))
        ns += kind_ns(cause, kPartKinds[K]);
    return ns_to_ms(ns);
}
template <std::size_t K>
std::optional<double> part_share(const CaptureReport& r) {
    std::int64_t ns = 0, total = 0;
    const std::vector<HitchCause>& causes = hitch_causes(r);
    for (const HitchCause& cause : causes) {
        ns += kind_ns(cause, kPartKinds[K]);
        total += cause.total_ns();
    }
    if (total <= 0)
        return std::nullopt;
    return static_cast<double>(ns) / static_cast<double>(total);
}
// Per frame of the series, the time of this kind in its hitch's cause (0 off hitches): the
// column the comparison resamples, in blocks, for the summed figure.
template <std::size_t K>
std::vector<std::int64_t> part_series(const CaptureReport& r) {
    std::vector<std::int64_t> out(r.series.frame_ns.size(), 0);
    const std::vector<HitchCause>& causes = hitch_causes(r);
    for (std::size_t k = 0; k < causes.size(); ++k) {
        const std::size_t at = r.stats.hitches.hitches[k].index;
        if (at < out.size())
            out[at] = kind_ns(causes[k], kPartKinds[K]);
    }
    return out;
}
std::optional<double> summed_ms(const AscendingValues& values) {
    return ns_to_ms(values.size() > 0 ? values.sum_from(0) : std::int64_t{0});
}
// Each part kind's two figures, one family: the kind's time in the hitches, summed (compared
// with an interval, its per-frame column resampled in blocks), and its share of the hitches'
// time (by value alone). Keys and definitions by kind, in kPartKinds' order, written out so that
// each key can be found.
constexpr std::string_view kPartMsKeys[] = {
    "hitch_present_ms", "hitch_cpu_ms",         "hitch_shader_compile_ms",
    "hitch_zone_ms",    "hitch_steps_ms",       "hitch_render_ms",
    "hitch_wait_ms",    "hitch_after_steps_ms", "hitch_unexplained_ms",
};
constexpr std::string_view kPartShareKeys[] = {
    "hitch_present_share", "hitch_cpu_share",         "hitch_shader_compile_share",
    "hitch_zone_share",    "hitch_steps_share",       "hitch_render_share",
    "hitch_wait_share",    "hitch_after_steps_share", "hitch_unexplained_share",
};
constexpr std::string_view kPartMsDefinitions[] = {
    "time of the hitches' `present` parts, summed",
    "time of the hitches' `cpu` parts, summed",
    "time of the hitches' `shader_compile` parts, summed",
    "time of the hitches' `zone` parts, summed",
    "time of the hitches' `steps` parts, summed",
    "time of the hitches' `render` parts, summed",
    "time of the hitches' `wait` parts, summed",
    "time of the hitches' `after_steps` parts, summed",
    "time of the hitches' `unexplained` parts, summed",
};
constexpr std::string_view kPartShareDefinitions[] = {
    "share of the hitches' time in `present` parts",
    "share of the hitches' time in `cpu` parts",
    "share of the hitches' time in `shader_compile` parts",
    "share of the hitches' time in `zone` parts",
    "share of the hitches' time in `steps` parts",
    "share of the hitches' time in `render` parts",
    "share of the hitches' time in `wait` parts",
    "share of the hitches' time in `after_steps` parts",
    "share of the hitches' time in `unexplained` parts",
};
static_assert(std::size(kPartMsKeys) == std::size(kPartKinds) &&
              std::size(kPartShareKeys) == std::size(kPartKinds) &&
              std::size(kPartMsDefinitions) == std::size(kPartKinds) &&
              std::size(kPartShareDefinitions) == std::size(kPartKinds));
template <std::size_t K>
Figure part_ms_figure() {
    return Figure{.key = kPartMsKeys[K],
                  .better = Better::lower,
                  .section = kHitchCauseSection,
                  .unit = "ms",
                  .definition = kPartMsDefinitions[K],
                  .needs = kNeedsFrames,
                  .value = part_ms<K>,
                  .compared = true,
                  .column_values = part_series<K>,
                  .column_value = summed_ms,
                  .missing = part_missing<K>};
}
template <std::size_t K>
Figure part_share_figure() {
    return Figure{.key = kPartShareKeys[K],
                  .section = kHitchCauseSection,
                  .definition = kPartShareDefinitions[K],
                  .needs = kNeedsFrames,
                  .value = part_share<K>,
                  .absent = "no hitch",
                  .missing = part_missing<K>};
}
std::string hitch_cause_text(const CaptureReport& r) {
    const std::vector<HitchCause>& causes = hitch_causes(r);
    std::int64_t total = 0;
    for (const HitchCause& cause : causes)
        total += cause.total_ns();
    std::string out;
    for (const char* kind : kPartKinds) {
        std::int64_t ns = 0;
        for (const HitchCause& cause : causes)
            ns += kind_ns(cause, kind);
        if (ns > 0)
            out += fmt::format("{}{} {:.1f} ms ({})", out.empty() ? "" : ", ", kind, ns_to_ms(ns),
                               percent(static_cast<double>(ns) / static_cast<double>(total)));
    }
    return out.empty() ? std::string("no hitch") : out;
}
std::optional<std::string> hitch_cause_missing(const CaptureReport& r) {
    if (r.stats.hitches.hitches.empty())
        return std::string("no hitch");
    return std::nullopt;
}
// The zones that took the most hitch time, largest first (at most five).
std::string top_zones_text(const CaptureReport& r) {
    std::vector<std::pair<std::string, std::pair<std::int64_t, std::size_t>>> zones;
    for (const HitchCause& cause : hitch_causes(r)) {
        for (const CausePart& p : cause.parts) {
            if (p.kind != kPartZone)
                continue;
            auto it = std::find_if(zones.begin(), zones.end(),
                                   [&](const auto& z) { return z.first == p.label; });
            if (it == zones.end())
                zones.push_back({p.label, {p.ns, 1}});
            else
                it->second.first += p.ns, ++it->second.second;
        }
    }
    std::stable_sort(zones.begin(), zones.end(),
                     [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
    std::string out;
    for (std::size_t k = 0; k < zones.size() && k < 5; ++k)
        out += fmt::format("{}\"{}\" {:.1f} ms in {} hitch{}", k == 0 ? "" : ", ", zones[k].first,
                           ns_to_ms(zones[k].second.first), zones[k].second.second,
                           zones[k].second.second == 1 ? "" : "es");
    return out.empty() ? std::string("no zone overlaps a hitch") : out;
}
std::optional<std::string> top_zones_missing(const CaptureReport& r) {
    if (auto why = hitch_cause_missing(r))
        return why;
    if (r.capture->zones.empty())
        return std::string("the capture holds no zones of the game");
    return std::nullopt;
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
std::optional<double> unreal_hitch_share(const CaptureReport& r) {
    if (ft(r).total_ns <= 0)
        return std::nullopt;
    std::int64_t hitch_ns = 0;
    for (const Hitch& h : r.stats.hitches.hitches)
        hitch_ns += h.frame_ns;
    return static_cast<double>(hitch_ns) / static_cast<double>(ft(r).total_ns);
}
// The target an Unreal missed-vsync share is judged against: --target-fps, else the detected
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
    return "no target frame rate: give report --target-fps, or a capture whose display "
           "changes show a fixed refresh rate (" +
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
template <std::size_t Index>
std::optional<double> capframex_threshold(const CaptureReport& r) {
    return static_cast<double>(r.fps_threshold_counts[Index]);
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
                         "time (CapFrameX \"1% low\")",
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
                         "the time (CapFrameX \"0.1% low\")",
           .needs = kNeedsFrames,
           .value = from_report<kLow01Integral>,
           .frame_value = from_stats<kLow01Integral>,
           .compared = true,
           .text = [](const CaptureReport& r) { return fixed(stats(r).fps.low01_integral, 2); }},
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
                         "x total seconds), max(0, V - frames) / V; the target is --target-fps, "
                         "else the detected refresh rate (FPerformanceTrackingChart::"
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
    // Latency: the capture's own latency columns over the range (core/latency.hpp).
    Figure{.section = kLatencySection,
           .label = "PC latency",
           .unit = "ms",
           .definition = "the frames whose latency cell is a time: mean, p50, p99, min, max",
           .needs = kNeedsFrames,
           .text = latency_text<LatencyKind::pc>,
           .describe = latency_definition<LatencyKind::pc>,
           .missing = latency_missing<LatencyKind::pc>},
    Figure{.key = "pc_latency_avg_ms",
           .better = Better::lower,
           .section = kLatencySection,
           .unit = "ms",
           .definition =
               "mean of PC latency over the frames whose cell is a time; FrameView's AvgPCLatency",
           .needs = kNeedsFrames,
           .value = latency_value<LatencyKind::pc, LatencyStat::mean>,
           .compared = true,
           .column_values = latency_series<LatencyKind::pc>,
           .column_value = latency_of<LatencyStat::mean>,
           .missing = latency_missing<LatencyKind::pc>},
    Figure{.key = "pc_latency_p50_ms",
           .better = Better::lower,
           .section = kLatencySection,
           .unit = "ms",
           .definition = "p50 (linear interpolation at h = p·(N-1)) of PC latency over the frames "
                         "whose cell is a time",
           .needs = kNeedsFrames,
           .value = latency_value<LatencyKind::pc, LatencyStat::p50>,
           .compared = true,
           .column_values = latency_series<LatencyKind::pc>,
           .column_value = latency_of<LatencyStat::p50>,
           .missing = latency_missing<LatencyKind::pc>},
    Figure{.key = "pc_latency_p99_ms",
           .better = Better::lower,
           .section = kLatencySection,
           .unit = "ms",
           .definition = "p99 (linear interpolation at h = p·(N-1)) of PC latency over the frames "
                         "whose cell is a time",
           .needs = kNeedsFrames,
           .value = latency_value<LatencyKind::pc, LatencyStat::p99>,
           .compared = true,
           .column_values = latency_series<LatencyKind::pc>,
           .column_value = latency_of<LatencyStat::p99>,
           .missing = latency_missing<LatencyKind::pc>},
    Figure{
        .key = "pc_latency_min_ms",
        .better = Better::lower,
        .section = kLatencySection,
        .unit = "ms",
        .definition =
            "shortest of PC latency over the frames whose cell is a time; FrameView's MinPCLatency",
        .needs = kNeedsFrames,
        .value = latency_value<LatencyKind::pc, LatencyStat::min>,
        .compared = true,
        .column_values = latency_series<LatencyKind::pc>,
        .column_value = latency_of<LatencyStat::min>,
        .missing = latency_missing<LatencyKind::pc>},
    Figure{
        .key = "pc_latency_max_ms",
        .better = Better::lower,
        .section = kLatencySection,
        .unit = "ms",
        .definition =
            "longest of PC latency over the frames whose cell is a time; FrameView's MaxPCLatency",
        .needs = kNeedsFrames,
        .value = latency_value<LatencyKind::pc, LatencyStat::max>,
        .compared = true,
        .column_values = latency_series<LatencyKind::pc>,
        .column_value = latency_of<LatencyStat::max>,
        .missing = latency_missing<LatencyKind::pc>},
    Figure{.section = kLatencySection,
           .label = "click to photon",
           .unit = "ms",
           .definition = "the frames whose latency cell is a time: mean, p50, p99, min, max",
           .needs = kNeedsFrames,
           .text = latency_text<LatencyKind::click_to_photon>,
           .describe = latency_definition<LatencyKind::click_to_photon>,
           .missing = latency_missing<LatencyKind::click_to_photon>},
    Figure{.key = "click_to_photon_avg_ms",
           .better = Better::lower,
           .section = kLatencySection,
           .unit = "ms",
           .definition = "mean of click to photon over the frames whose cell is a time",
           .needs = kNeedsFrames,
           .value = latency_value<LatencyKind::click_to_photon, LatencyStat::mean>,
           .compared = true,
           .column_values = latency_series<LatencyKind::click_to_photon>,
           .column_value = latency_of<LatencyStat::mean>,
           .missing = latency_missing<LatencyKind::click_to_photon>},
    Figure{.key = "click_to_photon_p99_ms",
           .better = Better::lower,
           .section = kLatencySection,
           .unit = "ms",
           .definition = "p99 (linear interpolation at h = p·(N-1)) of click to photon over the "
                         "frames whose cell is a time",
           .needs = kNeedsFrames,
           .value = latency_value<LatencyKind::click_to_photon, LatencyStat::p99>,
           .compared = true,
           .column_values = latency_series<LatencyKind::click_to_photon>,
           .column_value = latency_of<LatencyStat::p99>,
           .missing = latency_missing<LatencyKind::click_to_photon>},
    Figure{.section = kLatencySection,
           .label = "all input to photon",
           .unit = "ms",
           .definition = "the frames whose latency cell is a time: mean, p50, p99, min, max",
           .needs = kNeedsFrames,
           .text = latency_text<LatencyKind::all_input_to_photon>,
           .describe = latency_definition<LatencyKind::all_input_to_photon>,
           .missing = latency_missing<LatencyKind::all_input_to_photon>},
    Figure{.key = "all_input_to_photon_avg_ms",
           .better = Better::lower,
           .section = kLatencySection,
           .unit = "ms",
           .definition = "mean of all input to photon over the frames whose cell is a time",
           .needs = kNeedsFrames,
           .value = latency_value<LatencyKind::all_input_to_photon, LatencyStat::mean>,
           .compared = true,
           .column_values = latency_series<LatencyKind::all_input_to_photon>,
           .column_value = latency_of<LatencyStat::mean>,
           .missing = latency_missing<LatencyKind::all_input_to_photon>},
    Figure{.key = "all_input_to_photon_p99_ms",
           .better = Better::lower,
           .section = kLatencySection,
           .unit = "ms",
           .definition = "p99 (linear interpolation at h = p·(N-1)) of all input to photon over "
                         "the frames whose cell is a time",
           .needs = kNeedsFrames,
           .value = latency_value<LatencyKind::all_input_to_photon, LatencyStat::p99>,
           .compared = true,
           .column_values = latency_series<LatencyKind::all_input_to_photon>,
           .column_value = latency_of<LatencyStat::p99>,
           .missing = latency_missing<LatencyKind::all_input_to_photon>},
    Figure{.section = kLatencySection,
           .label = "display latency",
           .unit = "ms",
           .definition = "the frames whose latency cell is a time: mean, p50, p99, min, max",
           .needs = kNeedsFrames,
           .text = latency_text<LatencyKind::display>,
           .describe = latency_definition<LatencyKind::display>,
           .missing = latency_missing<LatencyKind::display>},
    Figure{.key = "display_latency_avg_ms",
           .better = Better::lower,
           .section = kLatencySection,
           .unit = "ms",
           .definition = "mean of display latency over the frames whose cell is a time",
           .needs = kNeedsFrames,
           .value = latency_value<LatencyKind::display, LatencyStat::mean>,
           .compared = true,
           .column_values = latency_series<LatencyKind::display>,
           .column_value = latency_of<LatencyStat::mean>,
           .missing = latency_missing<LatencyKind::display>},
    Figure{.key = "display_latency_p99_ms",
           .better = Better::lower,
           .section = kLatencySection,
           .unit = "ms",
           .definition = "p99 (linear interpolation at h = p·(N-1)) of display latency over the "
                         "frames whose cell is a time",
           .needs = kNeedsFrames,
           .value = latency_value<LatencyKind::display, LatencyStat::p99>,
           .compared = true,
           .column_values = latency_series<LatencyKind::display>,
           .column_value = latency_of<LatencyStat::p99>,
           .missing = latency_missing<LatencyKind::display>},
    Figure{.section = kLatencySection,
           .label = "render-present latency",
           .unit = "ms",
           .definition = "the frames whose latency cell is a time: mean, p50, p99, min, max",
           .needs = kNeedsFrames,
           .text = latency_text<LatencyKind::render_present>,
           .describe = latency_definition<LatencyKind::render_present>,
           .missing = latency_missing<LatencyKind::render_present>},
    Figure{.key = "render_present_latency_avg_ms",
           .better = Better::lower,
           .section = kLatencySection,
           .unit = "ms",
           .definition = "mean of render-present latency over the frames whose cell is a time; "
                         "FrameView's RenderPresentLatency",
           .needs = kNeedsFrames,
           .value = latency_value<LatencyKind::render_present, LatencyStat::mean>,
           .compared = true,
           .column_values = latency_series<LatencyKind::render_present>,
           .column_value = latency_of<LatencyStat::mean>,
           .missing = latency_missing<LatencyKind::render_present>},
    // Where the time goes (core/bottleneck.hpp). A shift between CPU- and GPU-bound frames is
    // neither better nor worse in itself, so the shares state no direction.
    Figure{.section = kBoundSection,
           .label = "bound by",
           .definition = "per frame from the busy and wait columns (docs/reports.md)",
           .needs = kNeedsFrames,
           .text = [](const CaptureReport& r) { return bound_shares_text(r.bottleneck); },
           .describe = bound_definition,
           .missing = bound_missing},
    Figure{.key = "cpu_bound_share",
           .section = kBoundSection,
           .definition = "share of the classified frames that were CPU-bound",
           .needs = kNeedsFrames,
           .value = bound_share<Bound::cpu>,
           .compared = true,
           .column_values = bound_series,
           .column_value = share_of<Bound::cpu>,
           .unlike = bound_unlike,
           .describe = bound_definition,
           .missing = bound_missing},
    Figure{.key = "gpu_bound_share",
           .section = kBoundSection,
           .definition = "share of the classified frames that were GPU-bound",
           .needs = kNeedsFrames,
           .value = bound_share<Bound::gpu>,
           .compared = true,
           .column_values = bound_series,
           .column_value = share_of<Bound::gpu>,
           .unlike = bound_unlike,
           .describe = bound_definition,
           .missing = bound_missing},
    Figure{.key = "wait_bound_share",
           .section = kBoundSection,
           .definition = "share of the classified frames that were wait-bound",
           .needs = kNeedsFrames,
           .value = bound_share<Bound::wait>,
           .compared = true,
           .column_values = bound_series,
           .column_value = share_of<Bound::wait>,
           .unlike = bound_unlike,
           .describe = bound_definition,
           .missing = bound_missing},
    // Why the hitches (core/hitch_cause.hpp): the hitches' time by the kind of part that
    // explains it; the ms are compared with intervals (their per-frame column resampled in
    // blocks), the shares by value alone.
    Figure{.section = kHitchCauseSection,
           .label = "hitch time by cause",
           .definition = "the Unreal hitches' time cut into disjoint parts from the capture's "
                         "columns (docs/reports.md, \"Why each hitch\"), summed by part kind",
           .needs = kNeedsFrames,
           .text = hitch_cause_text,
           .missing = hitch_cause_missing},
    Figure{.section = kHitchCauseSection,
           .label = "top zones in hitches",
           .definition = "the game's zones (ScopedZone) by their time inside hitches, largest "
                         "first (at most five)",
           .needs = kNeedsFrames,
           .text = top_zones_text,
           .missing = top_zones_missing},
    part_ms_figure<0>(),
    part_share_figure<0>(),
    part_ms_figure<1>(),
    part_share_figure<1>(),
    part_ms_figure<2>(),
    part_share_figure<2>(),
    part_ms_figure<3>(),
    part_share_figure<3>(),
    part_ms_figure<4>(),
    part_share_figure<4>(),
    part_ms_figure<5>(),
    part_share_figure<5>(),
    part_ms_figure<6>(),
    part_share_figure<6>(),
    part_ms_figure<7>(),
    part_share_figure<7>(),
    part_ms_figure<8>(),
    part_share_figure<8>(),
    Figure{.section = "Without start-up",
           .label = "bound by",
           .definition = "where the time goes, without the start-up segment",
           .needs = kNeedsFrames | kNeedsStartupSegment,
           .text = [](const CaptureReport& r) { return bound_shares_text(r.steady_bottleneck); },
           .describe = bound_definition,
           .missing = steady_bound_missing},
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
           .text =
               [](const CaptureReport& r) {
                   return estimated_prefix(r) + cadence_percentiles_text(r.application);
               },
           .describe = estimated_cadence_definition<kCadencePercentiles>},
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
           .text =
               [](const CaptureReport& r) {
                   return estimated_prefix(r) + cadence_lows_text(r.application);
               },
           .describe = estimated_cadence_definition<kCadenceLows>},
    Figure{.key = "app_stutter_time_share",
           .better = Better::lower,
           .section = "Application cadence",
           .label = "application stutter time",
           .definition = kCadenceStutter,
           .needs = kNeedsFrames | kNeedsApplicationCadence,
           .value = of_application<cadence_stutter_share>,
           .compared = true,
           .cadence = Cadence::application,
           .cadence_value = of_cadence<cadence_stutter_share>,
           .text =
               [](const CaptureReport& r) {
                   return estimated_prefix(r) + cadence_stutter_text(r.application);
               },
           .describe = estimated_cadence_definition<kCadenceStutter>},
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
    Figure{.key = "displayed_stutter_time_share",
           .better = Better::lower,
           .section = "Frame generation",
           .label = "displayed stutter time",
           .definition = kCadenceStutter,
           .needs = kNeedsFrames | kNeedsDisplayedCadence,
           .value = of_displayed<cadence_stutter_share>,
           .compared = true,
           .cadence = Cadence::displayed,
           .cadence_value = of_cadence<cadence_stutter_share>,
           .text = [](const CaptureReport& r) { return cadence_stutter_text(r.displayed); }},
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
    Figure{.key = "step_aliasing_share",
           .better = Better::lower,
           .section = "Loop",
           .label = "step aliasing",
           .definition = "share of the frames that ran 0 steps beside a frame that ran 2 or more, "
                         "or 2 or more beside 0, both between half and twice dt (a visible "
                         "stutter), counted in the windows of 30 frames where at least a quarter "
                         "of the frames do (steps and raw_ns columns)",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return loop(r).step_aliasing_share;
           },
           .text =
               [](const CaptureReport& r) {
                   const LoopFigures& f = loop(r);
                   return fmt::format("{:.1f} % ({} frames; {} frames flip steps in all)",
                                      100.0 * f.step_aliasing_share, f.step_aliasing_frames,
                                      f.step_flip_frames);
               }},
    Figure{.key = "loop_animation_error_mean_ms",
           .better = Better::lower,
           .section = "Loop",
           .label = "animation error (loop)",
           .unit = "ms",
           .definition = "frame to frame, the simulation time a frame shows (t + alpha dt with "
                         "interpolation or extrapolation, t without) moved minus the real time at "
                         "which it rendered (start_ns + step_cost_ns) moved x timescale: mean of "
                         "the absolute values over frames 1..",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               if (loop(r).animation_error_frames == 0)
                   return std::nullopt;
               return loop(r).animation_error_mean_ns / 1e6;
           },
           .text =
               [](const CaptureReport& r) {
                   const LoopFigures& f = loop(r);
                   return fmt::format("mean {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms",
                                      f.animation_error_mean_ns / 1e6,
                                      f.animation_error_p99_ns / 1e6,
                                      ns_to_ms(f.animation_error_max_ns));
               },
           .describe =
               [](const CaptureReport& r) {
                   return fmt::format(
                       "|change of the shown simulation time - change of the render instant x "
                       "timescale| frame to frame; {}",
                       loop(r).animation_error_expected);
               },
           .absent = "fewer than two frames"},
    Figure{.key = "loop_animation_error_p99_ms",
           .better = Better::lower,
           .section = "Loop",
           .unit = "ms",
           .definition = "99th percentile (nearest rank, to the microsecond) of the loop's "
                         "absolute animation error",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               if (loop(r).animation_error_frames == 0)
                   return std::nullopt;
               return loop(r).animation_error_p99_ns / 1e6;
           },
           .absent = "fewer than two frames"},
    Figure{.key = "loop_animation_error_max_ms",
           .better = Better::lower,
           .section = "Loop",
           .unit = "ms",
           .definition = "largest absolute animation error of the loop",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               if (loop(r).animation_error_frames == 0)
                   return std::nullopt;
               return ns_to_ms(loop(r).animation_error_max_ns);
           },
           .absent = "fewer than two frames"},
    Figure{.section = "Loop",
           .label = "findings",
           .definition = "step aliasing (on 5 % of the frames or more) and a first frame that "
                         "holds the game's initialisation, each with its cause and fix",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .text =
               [](const CaptureReport& r) {
                   const LoopFigures& f = loop(r);
                   std::string out;
                   for (const std::string& line : f.findings)
                       out += (out.empty() ? "" : "; ") + line;
                   return out.empty() ? std::string("none") : out;
               }},
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
    // Each tool's own figures: the number the tool itself prints for the same frames, by its
    // rule (core/tool_figures.hpp names the file and commit each was read from). One summary
    // row a tool; the keyed figures are in the JSON, --fail-if and the comparison.
    Figure{.section = kToolSection,
           .label = "FrameView",
           .unit = "FPS",
           .definition = "FrameView_Summary.csv's Avg, 1% / 0.1% Low, 1% / 0.1% / 5% / 10%, Min, "
                         "Max FPS by FrameView's rules over {} (frameview_* below)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .text =
               [](const CaptureReport& r) {
                   const ToolFigures& t = tools(r);
                   return fmt::format(
                       "avg {:.3f}, 1% low {:.3f}, 0.1% low {:.3f}, 1% {:.3f}, 0.1% {:.3f}, 5% "
                       "{:.3f}, 10% {:.3f}, min {:.3f}, max {:.3f}",
                       t.frameview_avg_fps, t.frameview_low1_fps, t.frameview_low01_fps,
                       t.frameview_p1_fps, t.frameview_p01_fps, t.frameview_p5_fps,
                       t.frameview_p10_fps, t.frameview_min_fps, t.frameview_max_fps);
               }},
    Figure{.section = kToolSection,
           .label = "MangoHud",
           .unit = "FPS",
           .definition = "MangoHud's log summary (Average, 1% Min, 0.1% Min, 97% Percentile FPS) "
                         "by its rules over {}, in float32 (mangohud_* below)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsSingleFrames,
           .text =
               [](const CaptureReport& r) {
                   const ToolFigures& t = tools(r);
                   return fmt::format("avg {:.1f}, 1% min {:.1f}, 0.1% min {:.1f}, 97% {:.1f}",
                                      t.mangohud_avg_fps, t.mangohud_min1_fps, t.mangohud_min01_fps,
                                      t.mangohud_p97_fps);
               }},
    Figure{.section = kToolSection,
           .label = "CapFrameX P1, P0.1",
           .unit = "FPS",
           .definition = "CapFrameX's P1 and P0.1: the 0.01 / 0.001 quantile (R-8) of the FPS "
                         "values 1000 / {} (capframex_p1_fps, capframex_p01_fps)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .text =
               [](const CaptureReport& r) {
                   const ToolFigures& t = tools(r);
                   return fmt::format("P1 {:.2f}, P0.1 {:.2f}", t.capframex_p1_fps,
                                      t.capframex_p01_fps);
               }},
    Figure{.section = kToolSection,
           .label = "PresentMon statistics",
           .unit = "FPS",
           .definition = "the -stats.csv PresentMon writes beside a capture: Average, 1st and 5th "
                         "Percentile, Minimum, Maximum FPS over {} (presentmon_* below)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .text =
               [](const CaptureReport& r) {
                   const ToolFigures& t = tools(r);
                   return fmt::format(
                       "avg {:.3f}, 1st percentile {:.3f}, 5th percentile {:.3f}, "
                       "min {:.3f}, max {:.3f}",
                       t.presentmon_avg_fps, t.presentmon_p1_fps, t.presentmon_p5_fps,
                       t.presentmon_min_fps, t.presentmon_max_fps);
               }},
    Figure{.section = kToolSection,
           .label = "OCAT perf_summary",
           .unit = "ms",
           .definition = "OCAT's perf_summary.csv: Average FPS and frame time over the recording's "
                         "clock, 95th / 99th / 99.9th-percentile frame time (ocat_* below)",
           .needs = kNeedsFrames,
           .text =
               [](const CaptureReport& r) {
                   const ToolFigures& t = tools(r);
                   const auto avg = ocat_averages_of(r);
                   const std::string head = avg ? fmt::format("avg {:.1f} FPS, {:.1f} ms; ",
                                                              avg->avg_fps, avg->avg_frame_time_ms)
                                                : std::string();
                   return head + fmt::format("p95 {:.1f}, p99 {:.1f}, p99.9 {:.1f} ms",
                                             t.ocat_p95_ms, t.ocat_p99_ms, t.ocat_p999_ms);
               }},
    Figure{.key = "frameview_avg_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "FrameView \"Avg FPS\": 1000·N / Σ {} over every frame (FrameView "
                         "counts every row: dropped, Error and generated frames included)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kFvAvg>,
           .frame_value = from_stats<kFvAvg>,
           .compared = true},
    Figure{.key = "frameview_low1_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "FrameView \"1% Low FPS\": 1000 / the mean of the floor(N/100) + 1 "
                         "longest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kFvLow1>,
           .frame_value = from_stats<kFvLow1>,
           .compared = true},
    Figure{.key = "frameview_low01_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "FrameView \"0.1% Low FPS\": 1000 / the mean of the floor(N/1000) + 1 "
                         "longest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kFvLow01>,
           .frame_value = from_stats<kFvLow01>,
           .compared = true},
    Figure{.key = "frameview_p1_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "FrameView \"1% FPS\": 1000 / the (floor(N/100) + 1)-th longest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kFvP1>,
           .frame_value = from_stats<kFvP1>,
           .compared = true},
    Figure{.key = "frameview_p01_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "FrameView \"0.1% FPS\": 1000 / the (floor(N/1000) + 1)-th longest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kFvP01>,
           .frame_value = from_stats<kFvP01>,
           .compared = true},
    Figure{.key = "frameview_p5_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "FrameView \"5% FPS\": 1000 / the (floor(N/20) + 1)-th longest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kFvP5>,
           .frame_value = from_stats<kFvP5>,
           .compared = true},
    Figure{.key = "frameview_p10_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "FrameView \"10% FPS\": 1000 / the (floor(N/10) + 1)-th longest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kFvP10>,
           .frame_value = from_stats<kFvP10>,
           .compared = true},
    Figure{.key = "frameview_min_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "FrameView \"Min FPS\": 1000 / the longest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kFvMin>,
           .frame_value = from_stats<kFvMin>,
           .compared = true},
    Figure{.key = "frameview_max_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "FrameView \"Max FPS\": 1000 / the shortest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kFvMax>,
           .frame_value = from_stats<kFvMax>,
           .compared = true},
    // MangoHud computes its summary from its log's rows (one frame's time every 100 ms), so
    // these exist for its sampled logs as for per-frame captures: no kNeedsFrames.
    Figure{.key = "mangohud_avg_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "MangoHud \"Average FPS\": 1000 / (Σ {} / N), the sum taken in float32 "
                         "longest first as MangoHud's writeSummary sums its rows",
           .column = FigureColumn::frame_time,
           .needs = kNeedsSingleFrames,
           .value = from_report<kMhAvg>,
           .frame_value = from_stats<kMhAvg>,
           .compared = true},
    Figure{.key = "mangohud_min1_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "MangoHud \"1% Min FPS\" (since 2024-08): {} as float32, longest first; "
                         "1000 / the one at index (uint64)(0.01·N - 1), index 0 where 0.01·N < 1 "
                         "(as x86 builds truncate the negative index). 2023-10 to 2024-08 it was "
                         "1000 / the mean of the ceil(0.01·N) longest",
           .column = FigureColumn::frame_time,
           .needs = kNeedsSingleFrames,
           .value = from_report<kMhMin1>,
           .frame_value = from_stats<kMhMin1>,
           .compared = true},
    Figure{.key = "mangohud_min01_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "MangoHud \"0.1% Min FPS\" (since 2024-08): {} as float32, longest "
                         "first; 1000 / the one at index (uint64)(0.001·N - 1), index 0 where "
                         "0.001·N < 1 (as x86 builds truncate the negative index). 2023-10 to "
                         "2024-08 it "
                         "was 1000 / the mean of the ceil(0.001·N) longest",
           .column = FigureColumn::frame_time,
           .needs = kNeedsSingleFrames,
           .value = from_report<kMhMin01>,
           .frame_value = from_stats<kMhMin01>,
           .compared = true},
    Figure{.key = "mangohud_p97_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "MangoHud \"97% Percentile FPS\" (since 2024-08): {} as float32, longest "
                         "first; 1000 / the one at index (uint64)(0.97·N - 1)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsSingleFrames,
           .value = from_report<kMhP97>,
           .frame_value = from_stats<kMhP97>,
           .compared = true},
    Figure{.key = "capframex_p1_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "CapFrameX \"P1\": the 0.01 quantile (MathNet R-8) of the FPS values "
                         "1000 / {}, interpolated between FPS values",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kCxP1>,
           .frame_value = from_stats<kCxP1>,
           .compared = true},
    Figure{.key = "capframex_p01_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "CapFrameX \"P0.1\": the 0.001 quantile (MathNet R-8) of the FPS values "
                         "1000 / {}, interpolated between FPS values",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kCxP01>,
           .frame_value = from_stats<kCxP01>,
           .compared = true},
    // PresentMon's statistics equal figures above (avg_fps, p1_low_fps, 1000 / max_ms ...) up
    // to rounding, so the comparison does not repeat them.
    Figure{.key = "presentmon_avg_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "PresentMon \"Average FPS\" (-stats.csv): 1 / (mean {} / 1000)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kPmAvg>,
           .frame_value = from_stats<kPmAvg>},
    Figure{.key = "presentmon_p1_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "PresentMon \"1st Percentile FPS\" (-stats.csv): 1000 / the 0.99 "
                         "percentile of {}, x[i]·(1 - w) + x[i+1]·w at i + w = (N - 1)·0.99",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kPmP1>,
           .frame_value = from_stats<kPmP1>},
    Figure{.key = "presentmon_p5_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "PresentMon \"5th Percentile FPS\" (-stats.csv): 1000 / the 0.95 "
                         "percentile of {}, x[i]·(1 - w) + x[i+1]·w at i + w = (N - 1)·0.95",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kPmP5>,
           .frame_value = from_stats<kPmP5>},
    Figure{.key = "presentmon_min_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "PresentMon \"Minimum FPS\" (-stats.csv): 1000 / the longest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kPmMin>,
           .frame_value = from_stats<kPmMin>},
    Figure{.key = "presentmon_max_fps",
           .section = kToolSection,
           .unit = "FPS",
           .definition = "PresentMon \"Maximum FPS\" (-stats.csv): 1000 / the shortest {}",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kPmMax>,
           .frame_value = from_stats<kPmMax>},
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
    Figure{.key = "ocat_p95_ms",
           .section = kToolSection,
           .unit = "ms",
           .definition = "OCAT \"95th-percentile frame time\" (perf_summary.csv): {} ascending, "
                         "the one at index (int)(0.95·N), not interpolated",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kOcP95>,
           .frame_value = from_stats<kOcP95>,
           .compared = true},
    Figure{.key = "ocat_p99_ms",
           .section = kToolSection,
           .unit = "ms",
           .definition = "OCAT \"99th-percentile frame time\" (perf_summary.csv): {} ascending, "
                         "the one at index (int)(0.99·N), not interpolated",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kOcP99>,
           .frame_value = from_stats<kOcP99>,
           .compared = true},
    Figure{.key = "ocat_p999_ms",
           .section = kToolSection,
           .unit = "ms",
           .definition = "OCAT \"99.9th-percentile frame time\" (perf_summary.csv): {} "
                         "ascending, the one at index (int)(0.999·N), not interpolated",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = from_report<kOcP999>,
           .frame_value = from_stats<kOcP999>,
           .compared = true},
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
    Figure{.key = "capframex_frames_below_240_fps",
           .better = Better::lower,
           .section = kToolSection,
           .unit = "frames",
           .definition = "frames whose 1000 / {} is below 240 FPS (CapFrameX "
                         "GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = capframex_threshold<0>},
    Figure{.key = "capframex_frames_below_144_fps",
           .better = Better::lower,
           .section = kToolSection,
           .unit = "frames",
           .definition = "frames whose 1000 / {} is below 144 FPS (CapFrameX "
                         "GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = capframex_threshold<1>},
    Figure{.key = "capframex_frames_below_120_fps",
           .better = Better::lower,
           .section = kToolSection,
           .unit = "frames",
           .definition = "frames whose 1000 / {} is below 120 FPS (CapFrameX "
                         "GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = capframex_threshold<2>},
    Figure{.key = "capframex_frames_below_90_fps",
           .better = Better::lower,
           .section = kToolSection,
           .unit = "frames",
           .definition = "frames whose 1000 / {} is below 90 FPS (CapFrameX "
                         "GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = capframex_threshold<3>},
    Figure{.key = "capframex_frames_below_75_fps",
           .better = Better::lower,
           .section = kToolSection,
           .unit = "frames",
           .definition = "frames whose 1000 / {} is below 75 FPS (CapFrameX "
                         "GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = capframex_threshold<4>},
    Figure{.key = "capframex_frames_below_60_fps",
           .better = Better::lower,
           .section = kToolSection,
           .unit = "frames",
           .definition = "frames whose 1000 / {} is below 60 FPS (CapFrameX "
                         "GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = capframex_threshold<5>},
    Figure{.key = "capframex_frames_below_45_fps",
           .better = Better::lower,
           .section = kToolSection,
           .unit = "frames",
           .definition = "frames whose 1000 / {} is below 45 FPS (CapFrameX "
                         "GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = capframex_threshold<6>},
    Figure{.key = "capframex_frames_below_30_fps",
           .better = Better::lower,
           .section = kToolSection,
           .unit = "frames",
           .definition = "frames whose 1000 / {} is below 30 FPS (CapFrameX "
                         "GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = capframex_threshold<7>},
    Figure{.key = "capframex_frames_below_15_fps",
           .better = Better::lower,
           .section = kToolSection,
           .unit = "frames",
           .definition = "frames whose 1000 / {} is below 15 FPS (CapFrameX "
                         "GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = capframex_threshold<8>},
    Figure{.key = "capframex_frames_below_10_fps",
           .better = Better::lower,
           .section = kToolSection,
           .unit = "frames",
           .definition = "frames whose 1000 / {} is below 10 FPS (CapFrameX "
                         "GetFpsThresholdCounts, CXWorld/CapFrameX 3ba66ff)",
           .column = FigureColumn::frame_time,
           .needs = kNeedsFrames,
           .value = capframex_threshold<9>},
    Figure{.key = "sampled_p50_ms",
           .section = "Samples",
           .label = "sampled p50",
           .unit = "ms",
           .needs = kNeedsSamples,
           .value = from_report<kP50>,
           .frame_value = from_stats<kP50>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).p50_ms); },
           .describe = sampled_percentile_definition},
    Figure{.key = "sampled_p95_ms",
           .section = "Samples",
           .label = "sampled p95",
           .unit = "ms",
           .needs = kNeedsSamples,
           .value = from_report<kP95>,
           .frame_value = from_stats<kP95>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).p95_ms); },
           .describe = sampled_percentile_definition},
    Figure{.key = "sampled_p99_ms",
           .section = "Samples",
           .label = "sampled p99",
           .unit = "ms",
           .needs = kNeedsSamples,
           .value = from_report<kP99>,
           .frame_value = from_stats<kP99>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).p99_ms); },
           .describe = sampled_percentile_definition},
    Figure{.key = "sampled_max_ms",
           .section = "Samples",
           .label = "sampled max",
           .unit = "ms",
           .needs = kNeedsSamples,
           .value = from_report<kMax>,
           .frame_value = from_stats<kMax>,
           .compared = true,
           .text = [](const CaptureReport& r) { return ms(ft(r).max_ms); },
           .describe = sampled_extreme_definition},
    Figure{.key = "sensor_frametime_p50_ms",
           .section = "Samples",
           .label = "Frametime sensor p50",
           .unit = "ms",
           .needs = kNeedsSamples,
           .value = sensor_percentile<500>,
           .text = [](const CaptureReport& r) { return ms(*sensor_percentile<500>(r)); },
           .describe = sensor_definition,
           .absent = "no Frametime sensor values (only MSI Afterburner logs have the sensor)"},
    Figure{.key = "sensor_frametime_p99_ms",
           .section = "Samples",
           .label = "Frametime sensor p99",
           .unit = "ms",
           .needs = kNeedsSamples,
           .value = sensor_percentile<990>,
           .text = [](const CaptureReport& r) { return ms(*sensor_percentile<990>(r)); },
           .describe = sensor_definition,
           .absent = "no Frametime sensor values (only MSI Afterburner logs have the sensor)"},
    Figure{.key = "sensor_frametime_max_ms",
           .section = "Samples",
           .label = "Frametime sensor max",
           .unit = "ms",
           .needs = kNeedsSamples,
           .value = sensor_percentile<1000>,
           .text = [](const CaptureReport& r) { return ms(*sensor_percentile<1000>(r)); },
           .describe = sensor_definition,
           .absent = "no Frametime sensor values (only MSI Afterburner logs have the sensor)"},
};

// "MangoHud" rather than the reader's format name, so reasons read as a user names the tool.
std::string format_display_name(const Capture& c) {
    if (!c.description.tool_name.empty())
        return std::string(c.description.tool_name);
    return c.source.format;
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

// Why neither marked nor detected frame generation splits the cadences, with the evidence.
std::string generation_absence(const CaptureReport& r) {
    if (r.timeline == Timeline::display)
        return "the display timeline does not split generated frames";
    if (r.capture->generated.size() == r.capture->frames())
        return "no generated frames among the frames analysed";
    if (r.loop_figures)
        return "a loopscope trace records the game's own loop, which never sees the frames a "
               "driver generates";
    return "no generated frames marked (no FrameType column) and frame generation " +
           generation_verdict(r);
}

std::string need_reason(FigureNeed need, const CaptureReport& r) {
    const Capture& c = *r.capture;
    switch (need) {
        case kNeedsFrames:
            return fmt::format("{} rows are {}, not frames", format_display_name(c),
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
            if (!r.has_generated && !r.generation.detected)
                return generation_absence(r);
            return fmt::format("{} has no display-change column", capture_name(r));
        case kNeedsDetectedGeneration:
        case kNeedsGenerationExamined:
            if (r.has_generated || c.generated.size() == c.frames())
                return "the capture has a FrameType column: generated frames are marked there, not "
                       "detected";
            return generation_absence(r);
        case kNeedsSingleFrames:
            return fmt::format(
                "{} rows are {}, each a rate over an interval, not the time of one "
                "frame",
                format_display_name(c), sample_spacing(c));
        case kNeedsApplicationCadence:
            if (r.timeline == Timeline::display)
                return "the display timeline does not split the application's frames";
            if (c.generated.size() == c.frames())
                return "no generated frames among the frames analysed";
            if (!c.description.application_cadence_absent_reason.empty())
                return std::string(c.description.application_cadence_absent_reason) + "; " +
                       generation_absence(r);
            return fmt::format(
                "{} has no application frame-start column (PresentMon 2.x FrameTime "
                "or MsBetweenAppStart); {}",
                capture_name(r), generation_absence(r));
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
            return r.stats.refresh.state == RefreshGuess::State::fixed;
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
        case kNeedsDetectedGeneration:
            return r.generation.detected;
        case kNeedsApplicationCadence:
            // marked, estimated, or the application's own frame-start column (2.x layouts)
            return r.has_generated || r.application_estimated || r.application.frames > 0;
        case kNeedsGenerationExamined:
            return r.generation_examinable && !r.has_generated;
        case kNeedsSingleFrames:
            return c.per_frame || c.sample_kind == Capture::SampleKind::latest_frame;
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

namespace {

// Keys that named more than one rule, and what replaced them (docs/reports.md, "Renamed keys").
struct RenamedKey {
    std::string_view old_key;
    std::string_view replaced_by;
};
constexpr RenamedKey kRenamedKeys[] = {
    {"stutter_count",
     "stutter_time_frames (the time rule's frames) or stutter_count_frames (the "
     "count rule's frames)"},
    {"stutter_share", "stutter_time_share"},
    {"app_stutter_share", "app_stutter_time_share"},
    {"displayed_stutter_share", "displayed_stutter_time_share"},
};

}  // namespace

std::string unknown_figure_text(std::string_view key) {
    for (const RenamedKey& r : kRenamedKeys) {
        if (r.old_key == key)
            return fmt::format("figure '{}' was renamed: use {}", key, r.replaced_by);
    }
    std::vector<std::string_view> keys;
    for (const Figure& f : kCatalogue) {
        if (!f.key.empty())
            keys.push_back(f.key);
    }
    // A likely meant name, as the options' messages give, instead of every name.
    if (const auto meant = likely_meant_name(key, keys))
        return fmt::format("unknown figure '{}' (did you mean '{}'?)", key, *meant);
    return fmt::format("unknown figure '{}'; valid figures: {}", key, figure_keys());
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
    // Frames of 0 ms in all (a capture whose every frame time is 0) have no frame rate.
    if (f.unit == "FPS" && r.stats.frame_time.frames > 0 && r.stats.frame_time.total_ns == 0)
        return std::string("every frame time is 0: no frame rate");
    if (f.missing) {
        if (auto why = f.missing(r))
            return why;
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

std::vector<HitchCause> report_hitch_causes(const CaptureReport& r) {
    return hitch_causes(r);
}

std::string dominant_hitch_cause(const CaptureReport& r) {
    const std::vector<HitchCause>& causes = hitch_causes(r);
    std::string best;
    std::int64_t best_ns = 0;
    for (const char* kind : kPartKinds) {
        std::int64_t ns = 0;
        for (const HitchCause& cause : causes)
            ns += kind_ns(cause, kind);
        if (ns > best_ns)
            best = kind, best_ns = ns;
    }
    return best;
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
