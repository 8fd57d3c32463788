// The self-contained HTML report: one file with inline CSS, the chart module (dygraphs and its
// script, writers/html_chart.hpp) and the data of its charts, no external references, so it
// opens offline and from a CI artefact. Charts: frame time over time (every frame of the
// report's timeline, generated frames apart, the application's and display's intervals beside
// it, budget line at the refresh period or the loop's dt, hitches and the start-up segment
// marked), latency on the same time axis, the samples of a sampled log, the frame-time
// histogram, the percentile curve, the accumulator and steps per frame of a loopscope trace;
// then the hitch list, whose rows zoom the frame-time chart to their hitch. Two captures open
// with their comparison: its verdict, then both captures' frame times, histograms and percentile
// curves on shared axes, then every compared figure; each capture's own report follows.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <span>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/comparison.hpp"
#include "core/percentile.hpp"
#include "core/plot_decimation.hpp"
#include "core/units.hpp"
#include "writers/frame_spans.hpp"
#include "writers/html_chart.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

constexpr std::size_t kHitchRows = 500;
constexpr std::size_t kHitchMarks = 300;

// The laid-out spans of the hitches the plot marks and the table lists, in the hitches' order:
// one walk over the frames for both, and a span for those frames only (two spans for every
// frame were a third of the writer's time at 1M frames).
std::vector<FrameSpan> shown_hitch_spans(const CaptureReport& r) {
    const auto& hitches = r.stats.hitches.hitches;
    std::vector<std::size_t> at;
    for (std::size_t k = 0; k < hitches.size() && k < std::max(kHitchRows, kHitchMarks); ++k)
        at.push_back(hitches[k].index);
    return frame_spans_at(r, at);
}

// A round number (1, 2 or 5 × 10^k) at or above hi / count: an axis top rounded to it reads well.
double tick_step(double hi, int count) {
    if (!(hi > 0))
        return 1.0;
    const double raw = hi / count;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0})
        if (m * mag >= raw)
            return m * mag;
    return 10 * mag;
}

double round_up(double top, int count) {
    const double step = tick_step(top, count);
    return step > 0 ? std::ceil(top / step) * step : 1.0;
}

// The one label of the time axis of every chart of a capture over time (frame time, latency,
// samples, the loop's): the report's time axis (time_axis_line).
constexpr std::string_view kTimeAxis = "time since the first frame (s)";

// The page-unique name of a capture section's charts: two captures (A and B, or a diagnosis's
// scenarios) each have their own.
std::string chart_id(const CaptureReport& r, std::string_view prefix, std::string_view what) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    const auto mix = [&h](std::string_view s) {
        for (const char c : s)
            h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    };
    mix(prefix);
    mix(r.capture->source.file);
    mix(fmt::format("{}-{}", r.range.begin, r.range.end));
    return fmt::format("{}-{:08x}", what, static_cast<std::uint32_t>(h ^ (h >> 32)));
}

// The charts of one capture over time zoom and pan together: chart_id's hash names the group.
std::string time_group(const std::string& chart_id) {
    return "time" + chart_id.substr(chart_id.find('-'));
}

// The top of the frame-time axis: a little above the 99.9th percentile, so the frames a player
// sees fill the plot whatever the frame rate (a 240 fps capture is not squeezed into the bottom
// of a 40 ms axis), or the longest frame when that is not much more. Rounded up to a tick.
double frame_axis_top_ms(const FrameTimeSummary& ft) {
    double top = std::max(ft.p999_ms * 1.25, ft.p50_ms * 1.5);
    if (ft.max_ms <= top * 1.3)
        top = std::max(ft.max_ms * 1.05, top);
    return round_up(top, 5);
}

// The frame-time budget to draw: the loop's step for a trace that states one (its frames are
// paced by the loop, not a display), else the refresh period where a refresh rate was detected;
// none otherwise (a line at a rate the capture never had would be read as its target).
std::optional<std::pair<double, std::string>> frame_budget(const CaptureReport& r) {
    if (r.loop_config && r.loop_config->dt_ns > 0)
        return std::pair{ns_to_ms(r.loop_config->dt_ns), std::string("loop dt")};
    if (r.stats.refresh.rate_hz > 0) {
        return std::pair{1000.0 / r.stats.refresh.rate_hz,
                         fmt::format("{} Hz refresh", r.stats.refresh.rate_hz)};
    }
    return std::nullopt;
}

// Where each frame of the range begins on the time axis (core/segments.hpp, frame_begin_ns):
// where the hitch list, --from / --to and the viewer put it. Indexed by capture frame - begin.
std::vector<std::int64_t> range_begins_ns(const CaptureReport& r) {
    const Capture& c = *r.capture;
    std::vector<std::int64_t> begins(r.range.end - r.range.begin);
    FrameBegins walk(c.frame_ns, c.start_ns, c.start_ends_frame_time);
    for (std::size_t i = 0; i < begins.size(); ++i)
        begins[i] = walk.at(r.range.begin + i);
    return begins;
}

double ms_or_none(std::int64_t ns) {
    return ns >= 0 ? ns_to_ms(ns) : kChartNoValue;
}

// The first of PC latency, display latency and render-present latency the capture has values of
// (core/latency.hpp), with its values per capture frame; none when it has none.
struct LatencyValues {
    LatencyKind kind = LatencyKind::pc;
    std::vector<std::int64_t> ns;
};
std::optional<LatencyValues> latency_values(const CaptureReport& r) {
    const Capture& c = *r.capture;
    if (c.start_ns.size() != c.frames())
        return std::nullopt;
    for (const LatencyKind kind :
         {LatencyKind::pc, LatencyKind::display, LatencyKind::render_present}) {
        const auto& summary = r.latency.of(kind);
        if (summary && summary->frames >= 2)
            return LatencyValues{kind, latency_per_frame(c, kind)};
    }
    return std::nullopt;
}

// The hitches marked on the frame-time chart (the first kHitchMarks), each with its cause and
// the window a click on its row zooms to: its length and ten times it either side, at least
// 0.25 s. x: the chart's rows' times.
std::vector<ChartMark> hitch_marks(const CaptureReport& r, const std::vector<FrameSpan>& spans,
                                   const std::vector<double>& x) {
    std::vector<ChartMark> marks;
    const std::size_t n = x.size();
    const auto& hitches = r.stats.hitches.hitches;
    for (std::size_t k = 0; k < hitches.size() && k < kHitchMarks; ++k) {
        const Hitch& h = hitches[k];
        const FrameSpan& span = spans[k];
        const std::string why = k < r.hitch_causes.size() ? r.hitch_causes[k].summary : "";
        const double at = x[std::min(h.index, n - 1)];
        const double length = ns_to_s(h.frame_ns);
        const double margin = std::max(0.25, 10 * length);
        marks.push_back(
            {.x = at,
             .y = ns_to_ms(h.frame_ns),
             .text = fmt::format("hitch {}: {:.3f} ms at {:.3f} s{}{}", span.frame,
                                 ns_to_ms(h.frame_ns), seconds_down_to_ms(span.begin_ns),
                                 why.empty() ? "" : "; ", why),
             .id = fmt::format("h{}", k),
             .zoom_x0 = at - margin,
             .zoom_x1 = at + length + margin});
    }
    return marks;
}

// Frame time over time: the report's timeline every frame (steps: a frame's time held level
// for as long as it lasted), generated frames apart, the application's and the display's
// intervals beside it where the capture has them, hitches marked; the hover shows the frame,
// whether it was displayed and its latency. spans: shown_hitch_spans(r).
std::string frame_time_plot(const CaptureReport& r, const std::vector<FrameSpan>& spans,
                            const std::vector<std::int64_t>& begins,
                            const std::optional<LatencyValues>& latency, const std::string& id) {
    const Series& s = r.series;
    const Capture& c = *r.capture;
    const std::size_t n = s.frame_ns.size();
    Chart chart;
    chart.id = id;
    chart.x_label = kTimeAxis;
    chart.x_group = time_group(id);
    chart.y_label = "frame time (ms)";
    chart.x.resize(n);
    bool contiguous = true;
    for (std::size_t i = 0; i < n; ++i) {
        chart.x[i] = ns_to_s(begins[static_cast<std::size_t>(s.frame_number[i]) - r.range.begin]);
        contiguous =
            contiguous && s.frame_number[i] == s.frame_number[0] + static_cast<std::int64_t>(i);
    }
    const auto capture_frame = [&](std::size_t i) {
        return static_cast<std::size_t>(s.frame_number[i]);
    };
    ChartSeries present;
    present.label = fmt::format("{} ({})", timeline_label(r), r.frame_time_column);
    present.draw = ChartDraw::steps;
    present.values.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        present.values[i] = ns_to_ms(s.frame_ns[i]);
    // Generated frames (frame generation) apart: their times are the generator's pacing, not
    // the game's.
    std::size_t generated = 0;
    ChartSeries gen;
    gen.label = "generated frames";
    gen.draw = ChartDraw::points;
    gen.colour = "#9467bd";
    if (!c.generated.empty()) {
        gen.values.assign(n, kChartNoValue);
        for (std::size_t i = 0; i < n; ++i) {
            if (c.generated[capture_frame(i)] == 0)
                continue;
            gen.values[i] = present.values[i];
            present.values[i] = kChartNoValue;
            ++generated;
        }
    }
    chart.series.push_back(std::move(present));
    if (generated > 0)
        chart.series.push_back(std::move(gen));
    // The other timelines of the same frames, where the capture has them.
    if (r.timeline == Timeline::present) {
        const auto add = [&](const std::vector<std::int64_t>& v, std::string label,
                             std::string colour) {
            if (v.size() != c.frames())
                return;
            ChartSeries other;
            other.label = std::move(label);
            other.draw = ChartDraw::steps;
            other.colour = std::move(colour);
            other.keep = ChartKeep::columns;
            other.values.resize(n);
            bool any = false;
            for (std::size_t i = 0; i < n; ++i) {
                const std::int64_t ns = v[capture_frame(i)];
                other.values[i] = ns > 0 ? ns_to_ms(ns) : kChartNoValue;
                any = any || ns > 0;
            }
            if (any)
                chart.series.push_back(std::move(other));
        };
        add(c.app_interval_ns, "application intervals", "rgba(44,160,44,0.55)");
        add(c.display_ns, "display intervals", "rgba(224,113,28,0.55)");
    }
    if (!c.dropped.empty()) {
        ChartSeries shown;
        shown.label = "displayed";
        shown.resolution = 1;
        shown.draw = ChartDraw::hidden;
        shown.value_names = {"no", "yes"};
        shown.values.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            shown.values[i] = c.dropped[capture_frame(i)] ? 0 : 1;
        chart.series.push_back(std::move(shown));
    }
    if (latency) {
        ChartSeries lat;
        lat.label = fmt::format("latency (ms, {})", latency_column(c, latency->kind));
        lat.draw = ChartDraw::hidden;
        lat.keep = ChartKeep::columns;
        lat.values.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            lat.values[i] = ms_or_none(latency->ns[capture_frame(i)]);
        chart.series.push_back(std::move(lat));
    }
    if (contiguous && n > 0) {
        chart.row_name = "frame";
        chart.row_number_base = s.frame_number[0];
    } else {
        ChartSeries number;
        number.label = "frame";
        number.resolution = 1;
        number.draw = ChartDraw::hidden;
        number.values.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            number.values[i] = static_cast<double>(s.frame_number[i]);
        chart.series.push_back(std::move(number));
    }
    const double y_max = frame_axis_top_ms(r.stats.frame_time);
    chart.y_max = y_max;
    std::size_t clipped = 0;
    for (const std::int64_t ns : s.frame_ns)
        clipped += ns_to_ms(ns) > y_max ? 1 : 0;
    const auto budget = frame_budget(r);
    std::string caption =
        fmt::format("Frame time ({}, {})", timeline_label(r), r.frame_time_column);
    if (budget) {
        caption += fmt::format("; dashed: {:.3f} ms budget ({})", budget->first, budget->second);
        chart.rules.push_back(
            {budget->first, fmt::format("budget {:.3f} ms ({})", budget->first, budget->second)});
    }
    if (generated > 0)
        caption += fmt::format("; dots: {} generated frames", generated);
    caption += "; red rings: Unreal hitches (click one in the table to zoom to it)";
    if (clipped > 0) {
        caption += fmt::format(
            "; {} frame{} above {:g} ms (longest {:.1f} ms) rise off the top (drag up or "
            "down to zoom the axis)",
            clipped, clipped == 1 ? "" : "s", y_max, r.stats.frame_time.max_ms);
    }
    chart.title = std::move(caption);
    if (r.startup.frames > 0 && r.startup.frames <= n) {
        const std::size_t last = r.startup.frames - 1;
        chart.bands.push_back(
            {chart.x.front(), chart.x[last] + ns_to_s(s.frame_ns[last]), "start-up segment"});
    }
    chart.marks = hitch_marks(r, spans, chart.x);
    return chart_html(chart);
}

// The capture's latency over time, under the frame-time chart and on its time axis: at each
// frame's beginning, over the frames of the range that have a value (core/latency.hpp).
std::string latency_plot(const CaptureReport& r, const std::vector<std::int64_t>& begins,
                         const std::optional<LatencyValues>& latency, const std::string& id) {
    if (!latency)
        return {};
    const auto& summary = r.latency.of(latency->kind);
    Chart chart;
    chart.id = id;
    chart.x_label = kTimeAxis;
    chart.x_group = time_group(id);
    chart.y_label = "latency (ms)";
    chart.keep = ChartKeep::columns;
    ChartSeries v;
    v.label = std::string(latency_column(*r.capture, latency->kind));
    v.draw = ChartDraw::steps;
    v.colour = "#e0711c";
    for (std::size_t i = r.range.begin; i < r.range.end && i < latency->ns.size(); ++i) {
        if (latency->ns[i] < 0)
            continue;
        const double t = ns_to_s(begins[i - r.range.begin]);
        // A time stamp out of order (PresentMon rows a reader kept as they came) would fold
        // the line back: the chart keeps time moving forward.
        if (!chart.x.empty() && t < chart.x.back())
            continue;
        chart.x.push_back(t);
        v.values.push_back(ns_to_ms(latency->ns[i]));
    }
    if (chart.x.size() < 2)
        return {};
    double top = std::max(summary->p99_ms * 1.25, summary->p50_ms * 1.5);
    if (summary->max_ms <= top * 1.3)
        top = std::max(summary->max_ms * 1.05, top);
    chart.y_max = round_up(top, 5);
    chart.title =
        fmt::format("Latency over time ({}, {} frames with a value; mean {:.3f} ms, p99 {:.3f} ms)",
                    v.label, summary->frames, summary->mean_ms, summary->p99_ms);
    if (summary->max_ms > chart.y_max)
        chart.title += fmt::format("; values above {:g} ms (longest {:.1f} ms) rise off the top",
                                   chart.y_max, summary->max_ms);
    chart.series.push_back(std::move(v));
    return chart_html(chart);
}

// A sampled log: each row is one frame's time at the logging instant (MangoHud) or a polling
// interval's frame rate as a frame time (MSI Afterburner), so the chart is of those samples at
// their times, and says so; no frame is marked, since none is known.
std::string sampled_plot(const CaptureReport& r, const std::string& id) {
    const Series& s = r.series;
    if (s.start_ns.size() < 2)
        return {};
    Chart chart;
    chart.id = id;
    chart.title = fmt::format("Sampled frame time ({}: {}, not every frame)", r.frame_time_column,
                              r.capture->sample_kind == Capture::SampleKind::latest_frame
                                  ? "each row one frame's time at the logging instant"
                                  : "each row a polling interval's frame rate as a frame time");
    chart.x_label = "time since the first sample (s)";
    chart.y_label = "sampled frame time (ms)";
    ChartSeries v;
    v.label = "sampled frame time (ms)";
    v.draw = ChartDraw::line;
    for (std::size_t i = 0; i < s.start_ns.size(); ++i) {
        chart.x.push_back(ns_to_s(s.start_ns[i]));
        v.values.push_back(ns_to_ms(s.frame_ns[i]));
    }
    chart.series.push_back(std::move(v));
    return chart_html(chart);
}

// Frames per bin as bars at the bins' middles, the bins `counts.size()` equal parts of [0, hi].
template <typename Count>
std::string frame_count_bars(const std::string& id, std::string title, std::string x_label,
                             double hi, std::span<const Count> counts, std::string colour,
                             int height_px) {
    Chart chart;
    chart.id = id;
    chart.title = std::move(title);
    chart.x_label = std::move(x_label);
    chart.y_label = "frames";
    chart.x_resolution = 1e-6;
    ChartSeries v;
    v.label = "frames";
    v.resolution = 1;
    v.draw = ChartDraw::bars;
    v.colour = std::move(colour);
    const auto bins = static_cast<double>(counts.size());
    for (std::size_t b = 0; b < counts.size(); ++b) {
        chart.x.push_back(hi * (static_cast<double>(b) + 0.5) / bins);
        v.values.push_back(static_cast<double>(counts[b]));
    }
    chart.series.push_back(std::move(v));
    chart.height_px = height_px;
    return chart_html(chart);
}

std::string histogram_plot(const CaptureReport& r, const std::string& id) {
    const double hi_ms = std::max(r.stats.frame_time.p999_ms * 1.2, r.stats.frame_time.p50_ms * 2);
    constexpr std::size_t kBins = 80;
    const auto counts = histogram_counts(r.series.frame_ns, 0.0, hi_ms * 1e6, kBins, false);
    if (counts.empty())
        return {};
    return frame_count_bars(
        id,
        fmt::format("Histogram of frame times ({} bins of {:.3f} ms, at their middles; longer "
                    "frames in the last bin)",
                    kBins, hi_ms / kBins),
        "frame time (ms)", hi_ms, std::span<const std::size_t>(counts), "", 240);
}

// Frame time at each percentile 0..100 (the same interpolation as the figures).
std::string percentile_plot(const CaptureReport& r, const std::string& id) {
    const std::vector<double>& curve = r.percentile_curve_ms;
    if (curve.empty())
        return {};
    Chart chart;
    chart.id = id;
    chart.title = "Percentile curve: frame time at each percentile";
    chart.x_label = "percentile";
    chart.y_label = "frame time (ms)";
    chart.x_resolution = 1e-6;
    ChartSeries v;
    v.label = "frame time (ms)";
    v.draw = ChartDraw::line;
    for (std::size_t i = 0; i < curve.size(); ++i) {
        chart.x.push_back(100.0 * static_cast<double>(i) / kPercentileCurveSteps);
        v.values.push_back(curve[i]);
    }
    chart.series.push_back(std::move(v));
    chart.y_max = round_up(std::max(r.stats.frame_time.p999_ms * 1.2, 1e-3), 5);
    chart.height_px = 240;
    return chart_html(chart);
}

// The loop's charts: the accumulator after stepping with the time the guards threw away (the
// step cap's dropped simulation time, the clamp's cut), and the simulation steps per frame; a
// vertical line where the loop verdict puts the onset of trouble (saturated or spiral).
std::string loop_plots(const CaptureReport& r, std::string_view prefix) {
    if (r.loop.empty())
        return {};
    std::vector<double> x;
    for (const FrameRecord& f : r.loop)
        x.push_back(ns_to_s(f.start_ns));
    // The onset on the chart, short; the verdict's cause in the captions.
    std::vector<ChartEvent> onset;
    std::string onset_caption;
    if (r.loop_figures && r.loop_figures->onset_frame && r.loop_figures->onset_ns) {
        const LoopFigures& f = *r.loop_figures;
        onset.push_back({ns_to_s(*f.onset_ns),
                         fmt::format("{} from frame {} at {:.3f} s", loop_state_name(f.state),
                                     *f.onset_frame, ns_to_s(*f.onset_ns))});
        onset_caption = fmt::format("; dashed line: {}: {}", onset.back().label, f.cause);
    }
    Chart acc;
    acc.id = chart_id(r, prefix, "acc");
    acc.x_label = kTimeAxis;
    acc.x_group = time_group(acc.id);
    acc.y_label = "ms";
    acc.x = x;
    acc.events = onset;
    ChartSeries after;
    after.label = "accumulator after stepping (acc_after_ns, ms)";
    after.draw = ChartDraw::steps;
    ChartSeries cap;
    cap.label = "simulation time the step cap dropped (ms)";
    cap.draw = ChartDraw::points;
    cap.colour = "#d00";
    cap.keep = ChartKeep::columns;
    ChartSeries clamp;
    clamp.label = "frame time the clamp cut (ms)";
    clamp.draw = ChartDraw::points;
    clamp.colour = "#e90";
    clamp.keep = ChartKeep::columns;
    std::size_t cap_frames = 0, clamp_frames = 0;
    for (const FrameRecord& f : r.loop) {
        after.values.push_back(ns_to_ms(f.acc_after_ns));
        cap.values.push_back(f.cap_dropped_ns > 0 ? ns_to_ms(f.cap_dropped_ns) : kChartNoValue);
        clamp.values.push_back(f.clamp_lost_ns > 0 ? ns_to_ms(f.clamp_lost_ns) : kChartNoValue);
        cap_frames += f.cap_dropped_ns > 0 ? 1 : 0;
        clamp_frames += f.clamp_lost_ns > 0 ? 1 : 0;
    }
    acc.title = "Accumulator after stepping (acc_after_ns)" + onset_caption;
    acc.series.push_back(std::move(after));
    if (cap_frames + clamp_frames > 0) {
        acc.title += fmt::format(
            "; guards: the step cap dropped simulation time on {} frames (red dots), the clamp "
            "cut {} frames (orange dots)",
            cap_frames, clamp_frames);
        if (cap_frames > 0)
            acc.series.push_back(std::move(cap));
        if (clamp_frames > 0)
            acc.series.push_back(std::move(clamp));
    }
    Chart steps;
    steps.id = chart_id(r, prefix, "steps");
    steps.title = "Simulation steps per frame (steps)" + onset_caption;
    steps.x_label = kTimeAxis;
    steps.x_group = time_group(steps.id);
    steps.y_label = "steps";
    steps.x = std::move(x);
    steps.events = std::move(onset);
    ChartSeries v;
    v.label = "steps";
    v.resolution = 1;
    v.draw = ChartDraw::steps;
    v.colour = "#e0711c";
    for (const FrameRecord& f : r.loop)
        v.values.push_back(static_cast<double>(f.steps));
    steps.series.push_back(std::move(v));
    steps.height_px = 200;
    return chart_html(acc) + chart_html(steps);
}

// Where alpha fell at render, per tenth, from the loop figures (the same bins as the summary):
// an even spread is what interpolation smooths; a few spikes mean frames and steps beat against
// each other (144 Hz frames over 60 Hz steps, for one).
std::string alpha_plot(const CaptureReport& r, const std::string& id) {
    if (!r.loop_figures || !r.loop_figures->has_accumulator || r.loop_figures->frames == 0)
        return {};
    return frame_count_bars(
        id,
        "Alpha at render (acc_after / dt; the blend between the last two simulation states): "
        "frames per tenth, at the tenth's middle",
        "alpha", 1.0, std::span<const std::int64_t>(r.loop_figures->alpha_bins), "#2a9d8f", 200);
}

// A capture's charts, in reading order: frame time, latency on the same time axis, histogram,
// percentile curve, then a trace's loop charts.
std::string capture_charts(const CaptureReport& r, std::string_view prefix,
                           const std::vector<FrameSpan>& spans, const std::string& frame_chart) {
    const std::vector<std::int64_t> begins = range_begins_ns(r);
    const std::optional<LatencyValues> latency = latency_values(r);
    std::string h = frame_time_plot(r, spans, begins, latency, frame_chart);
    h += latency_plot(r, begins, latency, chart_id(r, prefix, "lat"));
    h += histogram_plot(r, chart_id(r, prefix, "hist"));
    h += percentile_plot(r, chart_id(r, prefix, "pct"));
    h += loop_plots(r, prefix);
    h += alpha_plot(r, chart_id(r, prefix, "alpha"));
    return h;
}

// spans: shown_hitch_spans(r). A row, clicked, zooms the frame-time chart to its hitch.
std::string hitch_table(const CaptureReport& r, const std::vector<FrameSpan>& spans,
                        const std::string& frame_chart) {
    const auto& hitches = r.stats.hitches.hitches;
    std::string s = fmt::format(
        "<h3>Hitches ({}; Unreal rule: &gt; 60 ms and &ge; 1.5 &times; the "
        "previous frame)</h3>\n",
        hitches.size());
    if (hitches.empty())
        return s + "<p>None.</p>\n";
    s += "<table><tr><th>frame</th><th>time (s)</th><th>length (ms)</th><th>before (ms)</th>"
         "<th>after (ms)</th><th>why</th><th>parts</th></tr>\n";
    const std::size_t rows = std::min(hitches.size(), kHitchRows);
    for (std::size_t i = 0; i < rows; ++i) {
        const Hitch& h = hitches[i];
        const FrameSpan& long_frame = spans[i];
        const HitchCause cause = report_hitch_cause(r, h);
        s += fmt::format(
            "<tr{}><td>{}</td><td>{:.3f}</td><td>{:.3f}</td><td>{:.3f}</td><td>{}</td><td>{}</td>"
            "<td>{}</td></tr>\n",
            i < kHitchMarks ? chart_zoom_link(frame_chart, fmt::format("h{}", i)) : std::string(),
            long_frame.frame, seconds_down_to_ms(long_frame.begin_ns), ns_to_ms(h.frame_ns),
            ns_to_ms(h.previous_ns),
            h.next_ns >= 0 ? fmt::format("{:.3f}", ns_to_ms(h.next_ns)) : "-",
            html_escape(cause.summary), html_escape(hitch_parts_text(cause)));
    }
    s += "</table>\n";
    if (hitches.size() > kHitchRows) {
        s += fmt::format("<p>The first {} of {} hitches are listed; the JSON report has all.</p>\n",
                         kHitchRows, hitches.size());
    }
    return s;
}

constexpr const char* kStyle = R"(body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}
td.v{text-align:right;font-variant-numeric:tabular-nums}.note{background:#fff6d6;padding:.5em}
figure{margin:1em 0}figcaption{font-weight:600}
.changed{color:#a60;font-weight:600}.better{color:#080;font-weight:600}.worse{color:#b00;font-weight:600})";

// The id of a capture section's verdict: "verdict" for a lone capture, else "verdict-" and the
// heading's prefix in lower case, letters and digits kept and other runs made one '-'
// ("verdict-a" for "A: ", "verdict-steady-60" for a diagnosis's "steady-60: "), so that the
// sections of one page have distinct ids.
std::string verdict_id(std::string_view prefix) {
    std::string id = "verdict";
    bool dash = true;
    for (const char c : prefix) {
        const bool keep =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (keep) {
            if (dash)
                id += '-';
            id += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        }
        dash = !keep;
    }
    return id;
}

// One capture: heading, the verdict (core/verdict.hpp), notes, the plots and the hitches, then
// the reference (every figure with its definition, each tool's lows) folded in a <details>.
std::string capture_section(const CaptureReport& r, std::string_view prefix) {
    std::string h = fmt::format(
        "<h2>{}{}</h2>\n<p><code>{}</code> ({}), {} from <code>{}"
        "</code>, capture frames {}-{}.</p>\n",
        html_escape(prefix), html_escape(capture_title(r)), html_escape(r.capture->source.file),
        html_escape(r.capture->source.format), html_escape(timeline_label(r)),
        html_escape(r.frame_time_column), r.range.begin, r.range.end - 1);
    h += verdict_html(r, capture_verdict(r), verdict_id(prefix));
    h += "<p>The " + html_escape(time_axis_line(r)) + ".</p>\n";
    if (const std::string system = system_line(r); !system.empty())
        h += "<p>System: " + html_escape(system) + ".</p>\n";
    for (const std::string& note : capture_notes(r)) {
        h += "<p class=\"note\">" + html_escape(note) + "</p>\n";
    }
    if (r.capture->per_frame) {
        const std::vector<FrameSpan> spans = shown_hitch_spans(r);
        const std::string frame_chart = chart_id(r, prefix, "ft");
        h += capture_charts(r, prefix, spans, frame_chart);
        h += hitch_table(r, spans, frame_chart);
    } else {
        h += sampled_plot(r, chart_id(r, prefix, "samples"));
    }
    h += "<details class=\"reference\"><summary>Every figure with its definition</summary>\n";
    h += "<table><tr><th>section</th><th>figure</th><th>value</th><th>definition</th></"
         "tr>\n";
    for (const SummaryRow& row : summary_rows(r)) {
        h += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"v\">{}</td><td>{}</td></tr>\n",
                         html_escape(row.section), html_escape(row.label), html_escape(row.value),
                         html_escape(row.definition));
    }
    h += "</table>\n";
    if (const auto lows = lows_table_rows(r); !lows.empty()) {
        h += fmt::format("<h3>{}</h3>\n", html_escape(kLowsTableTitle));
        h += "<table><tr><th>tool</th><th>1% low</th><th>0.1% low</th><th>rule (x = 1% or "
             "0.1%)</th></tr>\n";
        for (const LowsTableRow& row : lows) {
            h += fmt::format(
                "<tr><td>{}</td><td class=\"v\">{}</td><td class=\"v\">{}</td><td>{}</td></tr>\n",
                html_escape(row.tool), html_escape(row.low1), html_escape(row.low01),
                html_escape(row.rule));
        }
        h += "</table>\n";
    }
    h += "</details>\n";
    return h;
}

// The comparison's charts: both captures' intervals on the timeline compared, on shared axes
// (A blue, B orange). The frame-time chart puts each at its time since its own first interval,
// so two captures line up at their starts.
struct ComparedPlotSeries {
    std::vector<std::int64_t> ns;        // the timeline's intervals
    std::vector<std::int64_t> start_ns;  // each one's start: the sum of those before it
    std::vector<double> curve_ms;        // frame time at each percentile step
    double p999_ms = 0, p50_ms = 0;
};

ComparedPlotSeries compared_plot_series(const CaptureReport& r, ComparedTimeline timeline) {
    ComparedPlotSeries s;
    const TimelineSeries t = timeline_series(r, timeline);
    s.ns.assign(t.ns.begin(), t.ns.end());
    s.start_ns.reserve(s.ns.size());
    std::int64_t at = 0;
    for (const std::int64_t v : s.ns) {
        s.start_ns.push_back(at);
        at += v;
    }
    if (timeline == ComparedTimeline::present) {  // the report's own curve: no second sort
        s.curve_ms = r.percentile_curve_ms;
        s.p999_ms = r.stats.frame_time.p999_ms;
        s.p50_ms = r.stats.frame_time.p50_ms;
        return s;
    }
    std::vector<std::int64_t> sorted = s.ns;
    std::sort(sorted.begin(), sorted.end());
    if (!sorted.empty()) {
        for (int i = 0; i <= kPercentileCurveSteps; ++i) {
            s.curve_ms.push_back(ns_to_ms(
                percentile_sorted(sorted, i / static_cast<double>(kPercentileCurveSteps))));
        }
        s.p999_ms = ns_to_ms(percentile_sorted(sorted, 0.999));
        s.p50_ms = ns_to_ms(percentile_sorted(sorted, 0.5));
    }
    return s;
}

std::string comparison_plots(const Comparison& c, const CaptureReport& ra,
                             const CaptureReport& rb) {
    const std::array<ComparedPlotSeries, 2> s{compared_plot_series(ra, c.timeline),
                                              compared_plot_series(rb, c.timeline)};
    if (s[0].ns.empty() || s[1].ns.empty())
        return {};
    const std::string what = fmt::format("{} timeline", compared_timeline_name(c.timeline));
    const double y_top = round_up(std::max(std::max(s[0].p999_ms * 1.25, s[0].p50_ms * 1.5),
                                           std::max(s[1].p999_ms * 1.25, s[1].p50_ms * 1.5)),
                                  5);
    const std::array<std::string, 2> names{"A", "B"};
    std::string h;

    // Frame times over time: the rows of both, merged in time order, each series holding its
    // own capture's values.
    Chart ft;
    ft.id = "cmp-ft";
    ft.title = fmt::format(
        "Frame time ({}): A (blue) and B (orange) from their first frames; longer frames rise "
        "off the top",
        what);
    ft.x_label = "time since the capture's first frame (s)";
    ft.y_label = "frame time (ms)";
    ft.y_max = y_top;
    ft.keep = ChartKeep::columns;
    const std::size_t rows = s[0].ns.size() + s[1].ns.size();
    ft.x.reserve(rows);
    std::array<ChartSeries, 2> fs;
    for (std::size_t k = 0; k < 2; ++k) {
        fs[k].label = names[k];
        fs[k].draw = ChartDraw::steps;
        fs[k].values.reserve(rows);
    }
    for (std::size_t i = 0, j = 0; i < s[0].ns.size() || j < s[1].ns.size();) {
        const bool take_a =
            j == s[1].ns.size() || (i < s[0].ns.size() && s[0].start_ns[i] <= s[1].start_ns[j]);
        if (take_a) {
            ft.x.push_back(ns_to_s(s[0].start_ns[i]));
            fs[0].values.push_back(ns_to_ms(s[0].ns[i++]));
            fs[1].values.push_back(kChartNoValue);
        } else {
            ft.x.push_back(ns_to_s(s[1].start_ns[j]));
            fs[0].values.push_back(kChartNoValue);
            fs[1].values.push_back(ns_to_ms(s[1].ns[j++]));
        }
    }
    ft.series.assign(fs.begin(), fs.end());
    h += chart_html(ft);

    // Histograms: each capture's share of its frames per bin, so captures of different lengths
    // share the axis.
    constexpr std::size_t kBins = 80;
    std::array<std::vector<std::size_t>, 2> counts;
    for (std::size_t i = 0; i < s.size(); ++i)
        counts[i] = histogram_counts(s[i].ns, 0.0, y_top * 1e6, kBins, false);
    if (!counts[0].empty() && !counts[1].empty()) {
        Chart hist;
        hist.id = "cmp-hist";
        hist.title = fmt::format(
            "Histogram of frame times ({}): A (blue) and B (orange), % of each capture's frames "
            "in {} bins of {:.3f} ms, at their middles; longer frames in the last bin",
            what, kBins, y_top / kBins);
        hist.x_label = "frame time (ms)";
        hist.y_label = "% of frames";
        hist.x_resolution = 1e-6;
        for (std::size_t b = 0; b < kBins; ++b)
            hist.x.push_back(y_top * (static_cast<double>(b) + 0.5) / kBins);
        for (std::size_t i = 0; i < s.size(); ++i) {
            ChartSeries v;
            v.label = names[i];
            v.draw = ChartDraw::bars;
            for (const std::size_t n : counts[i])
                v.values.push_back(100.0 * static_cast<double>(n) /
                                   static_cast<double>(s[i].ns.size()));
            hist.series.push_back(std::move(v));
        }
        hist.height_px = 240;
        h += chart_html(hist);
    }

    // Percentile curves.
    Chart pc;
    pc.id = "cmp-pct";
    pc.title = fmt::format("Percentile curves ({}): A (blue) and B (orange)", what);
    pc.x_label = "percentile";
    pc.y_label = "frame time (ms)";
    pc.x_resolution = 1e-6;
    pc.y_max = y_top;
    const std::size_t steps = std::max(s[0].curve_ms.size(), s[1].curve_ms.size());
    for (std::size_t k = 0; k < steps; ++k)
        pc.x.push_back(100.0 * static_cast<double>(k) / kPercentileCurveSteps);
    for (std::size_t i = 0; i < s.size(); ++i) {
        ChartSeries v;
        v.label = names[i];
        v.draw = ChartDraw::line;
        v.values.assign(steps, kChartNoValue);
        std::copy(s[i].curve_ms.begin(), s[i].curve_ms.end(), v.values.begin());
        pc.series.push_back(std::move(v));
    }
    pc.height_px = 240;
    h += chart_html(pc);
    return h;
}

// Rows of the comparison as a table, better in green and worse in red.
std::string comparison_table_html(const std::vector<ComparisonRow>& rows) {
    std::string h =
        "<table><tr><th>figure</th><th>A</th><th>B</th><th>B &minus; A</th>"
        "<th>95 % interval</th><th>verdict</th></tr>\n";
    for (const ComparisonRow& row : rows) {
        const char* css = row.kind == Verdict::better    ? " class=\"better\""
                          : row.kind == Verdict::worse   ? " class=\"worse\""
                          : row.kind == Verdict::changed ? " class=\"changed\""
                                                         : "";
        h += fmt::format(
            "<tr><td>{}</td><td class=\"v\">{}</td><td class=\"v\">{}</td>"
            "<td class=\"v\">{}</td><td>{}</td><td{}>{}</td></tr>\n",
            row.figure, row.a, row.b, row.difference, row.interval, css, row.verdict);
    }
    return h + "</table>\n";
}

// The comparison: its verdict first (the page's <section id="verdict">: the outcome with the
// counts it rests on and the headline figures), then both captures' charts on shared axes, then
// every compared figure folded in a <details>; each capture's own report follows.
std::string comparison_section(const Report& report) {
    const Comparison& c = *report.comparison;
    const ComparisonVerdict v = comparison_verdict(c);
    std::string h = "<section id=\"verdict\">\n<h2>Comparison (B &minus; A)</h2>\n<p><strong>" +
                    html_escape(comparison_verdict_text(c, v)) + "</strong></p>\n<p>" +
                    html_escape(comparison_timeline(c)) + "</p>\n";
    if (!v.headline.empty())
        h += comparison_table_html(comparison_headline_rows(v));
    h += "</section>\n";
    if (report.captures.size() == 2 && report.captures[0].capture->per_frame &&
        report.captures[1].capture->per_frame) {
        h += comparison_plots(c, report.captures[0], report.captures[1]);
    }
    const std::vector<ComparisonRow> rows = comparison_rows(c);
    h += fmt::format(
        "<details class=\"reference\"><summary>Every compared figure ({}) with its 95 % "
        "interval</summary>\n<p>{}</p>\n",
        rows.size(), html_escape(comparison_method(c)));
    h += comparison_table_html(rows);
    const std::vector<std::string> absent = comparison_absent(c);
    if (!absent.empty()) {
        h += "<p>Not compared:</p>\n<ul>\n";
        for (const std::string& line : absent)
            h += "<li>" + html_escape(line) + "</li>\n";
        h += "</ul>\n";
    }
    return h + "</details>\n";
}

class HtmlWriter final : public ReportWriter {
  public:
    void write(const Report& report, OutputFile& out) const override {
        std::string h = html_document_start("loopscope frame-pacing report");
        h += "<h1>loopscope frame-pacing report</h1>\n";
        if (report.comparison)
            h += comparison_section(report);
        for (std::size_t i = 0; i < report.captures.size(); ++i) {
            const std::string prefix =
                report.captures.size() == 2 ? (i == 0 ? "A: " : "B: ") : std::string();
            h += capture_section(report.captures[i], prefix);
            out.write(h);
            h.clear();
        }
        h += "</body></html>\n";
        out.write(h);
    }
};

}  // namespace

std::string html_escape(std::string_view s) {
    std::string out;
    for (const char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string html_document_start(std::string_view title) {
    return fmt::format(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>{}</title><style>{}</style>\n{}</head><body>\n",
        html_escape(title), kStyle, chart_page_head());
}

std::string html_capture_section(const CaptureReport& report, std::string_view heading_prefix) {
    return capture_section(report, heading_prefix);
}

std::unique_ptr<ReportWriter> make_html_writer() {
    return std::make_unique<HtmlWriter>();
}

}  // namespace loopscope
