// The self-contained HTML report: one file with inline CSS and inline SVG plots, no scripts and
// no external references, so it opens offline, with scripts disabled, and from a CI artefact.
// Plots: frame time over time (min/max per pixel column drawn as steps, so a long frame is a
// plateau as long as it lasted; the axis fitted to the data with the frames above it marked;
// budget lines at the refresh period or the loop's dt; hitches and the start-up segment marked),
// the samples of a sampled log, the frame-time histogram, the percentile curve, the accumulator
// and steps per frame of a loopscope trace; then the hitch list. Two captures open with their
// comparison: its table, then both captures' frame times, histograms and percentile curves
// overlaid on shared axes; each capture's own report follows.
// Long captures stay small: every time plot has at most kColumns columns whatever the frames.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/comparison.hpp"
#include "core/percentile.hpp"
#include "core/plot_decimation.hpp"
#include "core/units.hpp"
#include "writers/frame_spans.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

constexpr std::size_t kColumns = 900;  // pixel columns of a time plot
constexpr double kWidth = 1000, kHeight = 260;
constexpr double kLeft = 60, kRight = 20, kTop = 20, kBottom = 40;
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

// Tick values 1, 2 or 5 × 10^k apart, about `count` of them over [0, hi].
std::vector<double> ticks(double hi, int count) {
    std::vector<double> out;
    if (!(hi > 0))
        return {0.0};
    const double raw = hi / count;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * mag;
        if (step >= raw)
            break;
    }
    for (double v = 0; v <= hi * 1.0001; v += step)
        out.push_back(v);
    return out;
}

// A plot frame: maps data to pixels and draws the axes.
struct Axes {
    double x0, x1, y0, y1;
    double px(double x) const { return kLeft + (x - x0) / (x1 - x0) * (kWidth - kLeft - kRight); }
    double py(double y) const {
        const double t = std::clamp((y - y0) / (y1 - y0), 0.0, 1.0);
        return kHeight - kBottom - t * (kHeight - kTop - kBottom);
    }
};

std::string svg_open(std::string_view title) {
    return fmt::format(
        "<figure><figcaption>{}</figcaption><svg "
        "viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\"><title>{}</title>\n",
        html_escape(title), kWidth, kHeight, kWidth, kHeight, html_escape(title));
}

std::string axes_svg(const Axes& a, std::string_view x_label, std::string_view y_label) {
    std::string s;
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"plot\"/>\n", kLeft,
                     kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
    for (const double y : ticks(a.y1 - a.y0, 5)) {
        const double v = a.y0 + y;
        s += fmt::format(
            "<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\" class=\"grid\"/>"
            "<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"yt\">{:g}</text>\n",
            kLeft, kWidth - kRight, a.py(v), a.py(v), kLeft - 4, a.py(v) + 4, v);
    }
    // x ticks on round values of x itself (a capture may begin at 2.37 s). Counted by index,
    // not by adding the step to v: far from 0 a tiny step (a span of 1 us at 100000 s) is below
    // v's precision, and v += step would never reach the end. The count is an integer: past 2^53
    // (a span of 1 us at 8·10^9 s) the index k itself no longer grows by one, and the ticks that
    // double cannot tell apart are drawn once.
    const std::vector<double> xt = ticks(a.x1 - a.x0, 8);
    const double step = xt.size() > 1 ? xt[1] : a.x1 - a.x0;
    if (step > 0 && std::isfinite(a.x0 / step) && std::isfinite(a.x1 / step)) {
        const double first = std::ceil(a.x0 / step);
        const double last = std::floor(a.x1 / step + 1e-6);
        for (int i = 0; i < 20; ++i) {
            const double k = first + i;
            if (k > last || (i > 0 && !(k > first + (i - 1))))
                break;
            const double v = k * step;
            s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"xt\">{:g}</text>\n", a.px(v),
                             kHeight - kBottom + 14, v);
        }
    }
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"xl\">{}</text>\n", kWidth / 2, kHeight - 6,
                     html_escape(x_label));
    s += fmt::format(
        "<text x=\"14\" y=\"{}\" class=\"yl\" transform=\"rotate(-90 14 {})\">{}</text>\n",
        kHeight / 2, kHeight / 2, html_escape(y_label));
    return s;
}

// A series over time as one step path: per pixel column a vertical stroke over its values from
// min to max, then level at the column's last value until the next value starts. No spike
// disappears however many frames share a column, a one-frame spike is a spike (not a ramp into
// its neighbours), and a long frame stays level across the columns it spans.
std::string decimated_path(std::span<const std::int64_t> x_ns, std::span<const std::int64_t> v,
                           const Axes& a, double value_scale, std::string_view css_class) {
    MinMaxPyramid pyramid;
    pyramid.update(v);
    std::vector<PlotColumn> cols;
    decimate_columns(x_ns, v, pyramid, a.x0 * 1e9, a.x1 * 1e9, kColumns, cols);
    std::string d;
    bool started = false;
    const double col_w = (kWidth - kLeft - kRight) / static_cast<double>(kColumns);
    for (std::size_t c = 0; c < cols.size(); ++c) {
        if (cols[c].empty())
            continue;
        const double x = kLeft + static_cast<double>(c) * col_w;
        const auto y = [&](std::int64_t val) {
            return a.py(static_cast<double>(val) * value_scale);
        };
        // From the last column: level to here, then down or up to this column's first value.
        d += started ? fmt::format("H{:.1f}V{:.1f}", x, y(cols[c].first_value))
                     : fmt::format("M{:.1f} {:.1f}", x, y(cols[c].first_value));
        if (cols[c].min != cols[c].max) {
            d += fmt::format("V{:.1f}V{:.1f}V{:.1f}", y(cols[c].min), y(cols[c].max),
                             y(cols[c].last_value));
        }
        d += fmt::format("H{:.1f}", x + col_w);
        started = true;
    }
    return fmt::format("<path d=\"{}\" class=\"{}\"/>\n", d, css_class);
}

// The top of the frame-time axis: a little above the 99.9th percentile, so the frames a player
// sees fill the plot whatever the frame rate (a 240 fps capture is not squeezed into the bottom
// of a 40 ms axis), or the longest frame when that is not much more. Rounded up to a tick.
double frame_axis_top_ms(const FrameTimeSummary& ft) {
    double top = std::max(ft.p999_ms * 1.25, ft.p50_ms * 1.5);
    if (ft.max_ms <= top * 1.3)
        top = std::max(ft.max_ms * 1.05, top);
    const std::vector<double> t = ticks(top, 5);
    const double step = t.size() > 1 ? t[1] : top;
    return step > 0 ? std::ceil(top / step) * step : 1.0;
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

// Where the loop's guards threw time away, as a strip along the bottom of the frame-time plot:
// per pixel column, red where the step cap dropped simulation time, orange where the clamp cut
// a frame (a column with both shows the cap). Empty for captures without loop records.
std::string guard_strip(const CaptureReport& r, const Axes& a) {
    if (r.loop.empty())
        return {};
    std::vector<unsigned char> kind(kColumns, 0);  // 0 none, 1 clamp, 2 cap
    std::size_t cap_frames = 0;
    std::size_t clamp_frames = 0;
    const double span = a.x1 - a.x0;
    for (const FrameRecord& f : r.loop) {
        const unsigned char k = f.cap_dropped_ns > 0 ? 2 : f.clamp_lost_ns > 0 ? 1 : 0;
        if (k == 0)
            continue;
        (k == 2 ? cap_frames : clamp_frames) += 1;
        const double t = (ns_to_s(f.start_ns) - a.x0) / span;
        const auto c = static_cast<std::size_t>(
            std::clamp(t * static_cast<double>(kColumns), 0.0, static_cast<double>(kColumns - 1)));
        kind[c] = std::max(kind[c], k);
    }
    if (cap_frames + clamp_frames == 0)
        return {};
    const double col_w = (kWidth - kLeft - kRight) / static_cast<double>(kColumns);
    std::string svg = fmt::format(
        "<g><title>guards: the step cap dropped simulation time on {} frames (red), the clamp "
        "cut {} frames (orange)</title>\n",
        cap_frames, clamp_frames);
    for (std::size_t c = 0; c < kColumns; ++c) {
        if (kind[c] == 0)
            continue;
        svg += fmt::format(
            "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"5\" "
            "class=\"{}\"/>",
            kLeft + static_cast<double>(c) * col_w, kHeight - kBottom - 5, std::max(col_w, 1.0),
            kind[c] == 2 ? "capdrop" : "clampcut");
    }
    return svg + "</g>\n";
}

// spans: shown_hitch_spans(r).
std::string frame_time_plot(const CaptureReport& r, const std::vector<FrameSpan>& spans) {
    const Series& s = r.series;
    // Each frame at the time it began (core/segments.hpp, frame_begin_ns): where the hitch
    // list, --from / --to and the viewer put it.
    std::vector<std::int64_t> begins(s.frame_ns.size());
    FrameBegins walk(r.capture->frame_ns, r.capture->start_ns, r.capture->start_ends_frame_time);
    for (std::size_t i = 0; i < begins.size(); ++i)
        begins[i] = walk.at(static_cast<std::size_t>(s.frame_number[i]));
    const double t0 = ns_to_s(begins.front());
    const double t1 = std::max(ns_to_s(begins.back() + s.frame_ns.back()), t0 + 1e-6);
    const double y_max = frame_axis_top_ms(r.stats.frame_time);
    const Axes a{t0, t1, 0, y_max};
    std::size_t clipped = 0;
    for (const std::int64_t ns : s.frame_ns)
        clipped += ns_to_ms(ns) > y_max ? 1 : 0;
    const auto budget = frame_budget(r);
    std::string caption =
        fmt::format("Frame time ({}, {})", timeline_label(r), r.frame_time_column);
    if (budget)
        caption += fmt::format("; dashed: {:.3f} ms budget ({})", budget->first, budget->second);
    caption += "; red: Unreal hitches";
    if (!r.loop.empty())
        caption +=
            "; strip at the bottom: frames where the step cap (red) or clamp (orange) "
            "threw time away";
    if (clipped > 0) {
        caption += fmt::format(
            "; {} frame{} above {:g} ms (longest {:.1f} ms) drawn at the top, "
            "marked \u25B2",
            clipped, clipped == 1 ? "" : "s", y_max, r.stats.frame_time.max_ms);
    }
    std::string svg = svg_open(caption);
    svg += axes_svg(a, "time since the first frame (s)", "frame time (ms)");
    if (r.startup.frames > 0) {
        const double end = ns_to_s(begins[r.startup.frames - 1] + s.frame_ns[r.startup.frames - 1]);
        svg += fmt::format(
            "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" class=\"startup\"><title>"
            "start-up segment</title></rect>\n",
            a.px(t0), kTop, a.px(end) - a.px(t0), kHeight - kTop - kBottom);
    }
    if (budget && budget->first <= y_max) {
        svg += fmt::format(
            "<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" class=\"budget\"/>"
            "<text x=\"{}\" y=\"{:.1f}\" class=\"bt\">budget (dashed) {:.3f} ms</text>\n",
            kLeft, kWidth - kRight, a.py(budget->first), a.py(budget->first), kWidth - kRight,
            kTop - 5.0, budget->first);
    }
    svg += decimated_path(begins, s.frame_ns, a, 1e-6, "line0");
    svg += guard_strip(r, a);
    // The frames above the axis, each a small triangle at the top where it starts.
    std::size_t clip_marks = 0;
    for (std::size_t i = 0; i < s.frame_ns.size() && clip_marks < kHitchMarks; ++i) {
        const double ms = ns_to_ms(s.frame_ns[i]);
        if (ms <= y_max)
            continue;
        ++clip_marks;
        const double x = a.px(ns_to_s(begins[i]));
        svg += fmt::format(
            "<path d=\"M{:.1f} {:.1f}l-4 7h8z\" class=\"clip\"><title>frame {}: {:.3f} ms at "
            "{:.3f} s (above the axis)</title></path>\n",
            x, kTop, s.frame_number[i], ms, seconds_down_to_ms(begins[i]));
    }
    const auto& hitches = r.stats.hitches.hitches;
    const std::size_t marks = std::min(hitches.size(), kHitchMarks);
    for (std::size_t k = 0; k < marks; ++k) {
        const Hitch& h = hitches[k];
        const double ms = ns_to_ms(h.frame_ns);
        const FrameSpan& long_frame = spans[k];
        svg += fmt::format(
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" class=\"hitch\"><title>frame {}: {:.3f} "
            "ms at {:.3f} s</title></circle>\n",
            a.px(ns_to_s(long_frame.begin_ns)), a.py(std::min(ms, y_max)), long_frame.frame, ms,
            seconds_down_to_ms(long_frame.begin_ns));
    }
    svg += "</svg></figure>\n";
    return svg;
}

// The capture's latency over time, under the frame-time plot: the first of PC latency, display
// latency and render-present latency the capture has values of, at each frame's start, over the
// frames of the range that have a value (core/latency.hpp).
std::string latency_plot(const CaptureReport& r) {
    const Capture& c = *r.capture;
    if (c.start_ns.size() != c.frames())
        return {};
    for (const LatencyKind kind :
         {LatencyKind::pc, LatencyKind::display, LatencyKind::render_present}) {
        const auto& summary = r.latency.of(kind);
        if (!summary || summary->frames < 2)
            continue;
        const std::vector<std::int64_t> all = latency_per_frame(c, kind);
        std::vector<std::int64_t> x, v;
        for (std::size_t i = r.range.begin; i < r.range.end && i < all.size(); ++i) {
            if (all[i] < 0)
                continue;
            // A time stamp out of order (PresentMon rows a reader kept as they came) would
            // fold the path back: the plot keeps time moving forward.
            if (!x.empty() && c.start_ns[i] < x.back())
                continue;
            x.push_back(c.start_ns[i]);
            v.push_back(all[i]);
        }
        if (x.size() < 2)
            continue;
        const double t0 = ns_to_s(x.front());
        const double t1 = std::max(ns_to_s(x.back()), t0 + 1e-6);
        double top = std::max(summary->p99_ms * 1.25, summary->p50_ms * 1.5);
        if (summary->max_ms <= top * 1.3)
            top = std::max(summary->max_ms * 1.05, top);
        const std::vector<double> t = ticks(top, 5);
        const double step = t.size() > 1 ? t[1] : top;
        const Axes a{t0, t1, 0, step > 0 ? std::ceil(top / step) * step : 1.0};
        const std::string_view column = latency_column(c, kind);
        std::string caption = fmt::format(
            "Latency over time ({}, {} frames with a value; mean {:.3f} ms, p99 {:.3f} ms)", column,
            summary->frames, summary->mean_ms, summary->p99_ms);
        if (summary->max_ms > a.y1)
            caption += fmt::format("; values above {:g} ms (longest {:.1f} ms) drawn at the top",
                                   a.y1, summary->max_ms);
        std::string svg = svg_open(caption);
        svg += axes_svg(a, "time since the capture began (s)", "latency (ms)");
        svg += decimated_path(x, v, a, 1e-6, "line1");
        svg += "</svg></figure>\n";
        return svg;
    }
    return {};
}

// A sampled log: each row is one frame's time at the logging instant (MangoHud) or a polling
// interval's frame rate as a frame time (MSI Afterburner), so the plot is of those samples at
// their times, and says so; no frame is marked, since none is known.
std::string sampled_plot(const CaptureReport& r) {
    const Series& s = r.series;
    if (s.start_ns.size() < 2)
        return {};
    const double t0 = ns_to_s(s.start_ns.front());
    const double t1 = std::max(ns_to_s(s.start_ns.back()), t0 + 1e-6);
    const auto [lo, hi] = std::minmax_element(s.frame_ns.begin(), s.frame_ns.end());
    (void)lo;
    const std::vector<double> t = ticks(ns_to_ms(*hi) * 1.1, 5);
    const double step = t.size() > 1 ? t[1] : 1.0;
    const Axes a{t0, t1, 0, std::max(std::ceil(ns_to_ms(*hi) * 1.1 / step) * step, step)};
    std::string svg =
        svg_open(fmt::format("Sampled frame time ({}: {}, not every frame)", r.frame_time_column,
                             r.capture->sample_kind == Capture::SampleKind::latest_frame
                                 ? "each row one frame's time at the logging instant"
                                 : "each row a polling interval's frame rate as a frame time"));
    svg += axes_svg(a, "time since the first sample (s)", "sampled frame time (ms)");
    svg += decimated_path(s.start_ns, s.frame_ns, a, 1e-6, "line0");
    svg += "</svg></figure>\n";
    return svg;
}

std::string histogram_plot(const CaptureReport& r) {
    const double hi_ms = std::max(r.stats.frame_time.p999_ms * 1.2, r.stats.frame_time.p50_ms * 2);
    constexpr std::size_t kBins = 80;
    const auto counts = histogram_counts(r.series.frame_ns, 0.0, hi_ms * 1e6, kBins, false);
    if (counts.empty())
        return {};
    const double top = static_cast<double>(*std::max_element(counts.begin(), counts.end()));
    const Axes a{0, hi_ms, 0, top * 1.05};
    std::string svg =
        svg_open(fmt::format("Histogram of frame times ({} bins of {:.3f} ms; longer "
                             "frames in the last bin)",
                             kBins, hi_ms / kBins));
    svg += axes_svg(a, "frame time (ms)", "frames");
    for (std::size_t b = 0; b < counts.size(); ++b) {
        if (counts[b] == 0)
            continue;
        const double x0 = a.px(hi_ms * static_cast<double>(b) / kBins);
        const double x1 = a.px(hi_ms * static_cast<double>(b + 1) / kBins);
        const double y = a.py(static_cast<double>(counts[b]));
        svg += fmt::format(
            "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
            "class=\"bar\"><title>{}</title></rect>\n",
            x0, y, std::max(x1 - x0 - 1, 0.5), kHeight - kBottom - y, counts[b]);
    }
    svg += "</svg></figure>\n";
    return svg;
}

// Frame time at each percentile 0..100 (the same interpolation as the figures), one or two
// captures overlaid.
std::string percentile_plot(const std::vector<const CaptureReport*>& reports) {
    double y_max = 0;
    for (const CaptureReport* r : reports)
        y_max = std::max(y_max, r->stats.frame_time.p999_ms * 1.2);
    const Axes a{0, 100, 0, std::max(y_max, 1.0)};
    std::string svg =
        svg_open(reports.size() == 2 ? "Percentile curves: A (blue) and B (orange)"
                                     : "Percentile curve: frame time at each percentile");
    svg += axes_svg(a, "percentile", "frame time (ms)");
    for (std::size_t c = 0; c < reports.size(); ++c) {
        const std::vector<double>& curve = reports[c]->percentile_curve_ms;
        std::string d;
        for (std::size_t i = 0; i < curve.size(); ++i) {
            d += fmt::format("{}{:.1f} {:.1f}", i ? "L" : "M",
                             a.px(100.0 * static_cast<double>(i) / kPercentileCurveSteps),
                             a.py(std::min(curve[i], a.y1)));
        }
        svg += fmt::format("<path d=\"{}\" class=\"line{}\"/>\n", d, c);
    }
    svg += "</svg></figure>\n";
    return svg;
}

// A vertical line where the loop verdict puts the onset of the trouble (saturated or spiral),
// with the verdict as its tooltip. Styled inline: captures without an onset stay unchanged.
std::string onset_marker(const CaptureReport& r, const Axes& a) {
    if (!r.loop_figures || !r.loop_figures->onset_frame || !r.loop_figures->onset_ns)
        return {};
    const LoopFigures& f = *r.loop_figures;
    const double x = a.px(ns_to_s(*f.onset_ns));
    return fmt::format(
        "<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{}\" y2=\"{}\" "
        "style=\"stroke:#c0c;stroke-width:1.5;stroke-dasharray:4 3\"><title>{} from frame {} "
        "at {:.3f} s: {}</title></line>\n",
        x, x, kTop, kHeight - kBottom, loop_state_name(f.state), *f.onset_frame,
        ns_to_s(*f.onset_ns), html_escape(f.cause));
}

std::string loop_plots(const CaptureReport& r) {
    if (r.loop.empty())
        return {};
    std::vector<std::int64_t> x, acc, steps;
    for (const FrameRecord& f : r.loop) {
        x.push_back(f.start_ns);
        acc.push_back(f.acc_after_ns);
        steps.push_back(f.steps);
    }
    const double t0 = ns_to_s(x.front());
    const double t1 = std::max(ns_to_s(x.back() + r.loop.back().raw_ns), t0 + 1e-6);
    std::string out;
    const auto acc_max = static_cast<double>(*std::max_element(acc.begin(), acc.end())) / 1e6;
    const Axes a{t0, t1, 0, std::max(acc_max * 1.1, 1.0)};
    out += svg_open("Accumulator after stepping (acc_after_ns)");
    out += axes_svg(a, "time (s)", "accumulator (ms)");
    out += decimated_path(x, acc, a, 1e-6, "line0");
    out += onset_marker(r, a);
    out += "</svg></figure>\n";
    const auto steps_max = static_cast<double>(*std::max_element(steps.begin(), steps.end()));
    const Axes b{t0, t1, 0, std::max(steps_max + 1, 2.0)};
    out += svg_open("Simulation steps per frame (steps)");
    out += axes_svg(b, "time (s)", "steps");
    out += decimated_path(x, steps, b, 1.0, "line1");
    out += onset_marker(r, b);
    out += "</svg></figure>\n";
    return out;
}

// Where alpha fell at render, per tenth, from the loop figures (the same bins as the summary):
// an even spread is what interpolation smooths; a few spikes mean frames and steps beat against
// each other (144 Hz frames over 60 Hz steps, for one).
std::string alpha_plot(const CaptureReport& r) {
    if (!r.loop_figures || !r.loop_figures->has_accumulator || r.loop_figures->frames == 0)
        return {};
    const auto& bins = r.loop_figures->alpha_bins;
    const auto top = static_cast<double>(*std::max_element(bins.begin(), bins.end()));
    const Axes a{0, 1, 0, std::max(top * 1.05, 1.0)};
    std::string svg = svg_open(
        "Alpha at render (acc_after / dt; the blend between the last two simulation states): "
        "frames per tenth");
    svg += axes_svg(a, "alpha", "frames");
    for (std::size_t b = 0; b < bins.size(); ++b) {
        if (bins[b] == 0)
            continue;
        const double x0 = a.px(static_cast<double>(b) / static_cast<double>(bins.size()));
        const double x1 = a.px(static_cast<double>(b + 1) / static_cast<double>(bins.size()));
        const double y = a.py(static_cast<double>(bins[b]));
        svg += fmt::format(
            "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
            "class=\"bar alpha\"><title>[{:.1f}, {:.1f}): {} frames</title></rect>\n",
            x0, y, std::max(x1 - x0 - 2, 0.5), kHeight - kBottom - y, static_cast<double>(b) / 10.0,
            static_cast<double>(b + 1) / 10.0, bins[b]);
    }
    svg += "</svg></figure>\n";
    return svg;
}

// spans: shown_hitch_spans(r).
std::string hitch_table(const CaptureReport& r, const std::vector<FrameSpan>& spans) {
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
            "<tr><td>{}</td><td>{:.3f}</td><td>{:.3f}</td><td>{:.3f}</td><td>{}</td><td>{}</td>"
            "<td>{}</td></tr>\n",
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
figure{margin:1em 0}figcaption{font-weight:600}.plot{fill:#fafafa;stroke:#999}
.grid{stroke:#e4e4e4}.yt{font-size:11px;text-anchor:end}.xt{font-size:11px;text-anchor:middle}
.xl,.yl{font-size:12px;text-anchor:middle}.budget{stroke:#2a2;stroke-dasharray:6 4}.bt{font-size:11px;fill:#2a2;text-anchor:end}
.line0{fill:none;stroke:#1f6fb4;stroke-width:1}.line1{fill:none;stroke:#e0711c;stroke-width:1}
.hitch{fill:none;stroke:#d00;stroke-width:1.5}.bar{fill:#1f6fb4}.alpha{fill:#2a9d8f}.startup{fill:#999;opacity:.18}.clip{fill:#d00}.capdrop{fill:#d00}.clampcut{fill:#e90}
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
        h += frame_time_plot(r, spans);
        h += latency_plot(r);
        h += histogram_plot(r);
        h += percentile_plot({&r});
        h += loop_plots(r);
        h += alpha_plot(r);
        h += hitch_table(r, spans);
    } else {
        h += sampled_plot(r);
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

// The comparison's plots: both captures' intervals on the timeline compared, overlaid on shared
// axes (A blue, B orange). The frame-time plot puts each at its time since its own first
// interval, so two captures line up at their starts.
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
    const double y_max = std::max(std::max(s[0].p999_ms * 1.25, s[0].p50_ms * 1.5),
                                  std::max(s[1].p999_ms * 1.25, s[1].p50_ms * 1.5));
    const std::vector<double> yt = ticks(y_max, 5);
    const double y_step = yt.size() > 1 ? yt[1] : y_max;
    const double y_top = y_step > 0 ? std::ceil(y_max / y_step) * y_step : 1.0;
    std::string h;

    // Frame times over time.
    double span_s = 1e-6;
    for (const ComparedPlotSeries& x : s)
        span_s = std::max(span_s, ns_to_s(x.start_ns.back() + x.ns.back()));
    const Axes a{0, span_s, 0, y_top};
    h +=
        svg_open(fmt::format("Frame time ({}): A (blue) and B (orange) from their first frames; "
                             "longer frames drawn at the top",
                             what));
    h += axes_svg(a, "time since the first frame (s)", "frame time (ms)");
    for (std::size_t i = 0; i < s.size(); ++i)
        h += decimated_path(s[i].start_ns, s[i].ns, a, 1e-6, i == 0 ? "line0" : "line1");
    h += "</svg></figure>\n";

    // Histograms: each capture's share of its frames per bin, so captures of different lengths
    // share the axis.
    constexpr std::size_t kBins = 80;
    std::array<std::vector<std::size_t>, 2> counts;
    double top = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        counts[i] = histogram_counts(s[i].ns, 0.0, y_top * 1e6, kBins, false);
        for (const std::size_t n : counts[i])
            top = std::max(top, static_cast<double>(n) / static_cast<double>(s[i].ns.size()));
    }
    if (!counts[0].empty() && !counts[1].empty()) {
        const Axes ha{0, y_top, 0, std::max(top * 105.0, 1e-9)};
        h +=
            svg_open(fmt::format("Histogram of frame times ({}): A (blue) and B (orange), % of "
                                 "each capture's frames in {} bins of {:.3f} ms; longer frames "
                                 "in the last bin",
                                 what, kBins, y_top / kBins));
        h += axes_svg(ha, "frame time (ms)", "% of frames");
        for (std::size_t i = 0; i < s.size(); ++i) {
            std::string d;
            for (std::size_t b = 0; b < counts[i].size(); ++b) {
                const double share =
                    100.0 * static_cast<double>(counts[i][b]) / static_cast<double>(s[i].ns.size());
                const double x0 = ha.px(y_top * static_cast<double>(b) / kBins);
                const double x1 = ha.px(y_top * static_cast<double>(b + 1) / kBins);
                d += fmt::format("{}{:.1f} {:.1f}H{:.1f}", b ? "L" : "M", x0, ha.py(share), x1);
            }
            h += fmt::format("<path d=\"{}\" class=\"line{}\"/>\n", d, i);
        }
        h += "</svg></figure>\n";
    }

    // Percentile curves.
    const Axes pa{0, 100, 0, y_top};
    h += svg_open(fmt::format("Percentile curves ({}): A (blue) and B (orange)", what));
    h += axes_svg(pa, "percentile", "frame time (ms)");
    for (std::size_t i = 0; i < s.size(); ++i) {
        std::string d;
        for (std::size_t k = 0; k < s[i].curve_ms.size(); ++k) {
            d += fmt::format("{}{:.1f} {:.1f}", k ? "L" : "M",
                             pa.px(100.0 * static_cast<double>(k) / kPercentileCurveSteps),
                             pa.py(std::min(s[i].curve_ms[k], pa.y1)));
        }
        h += fmt::format("<path d=\"{}\" class=\"line{}\"/>\n", d, i);
    }
    h += "</svg></figure>\n";
    return h;
}

// The comparison: what a reader of two captures came for, before either capture's own report.
std::string comparison_section(const Report& report) {
    const Comparison& c = *report.comparison;
    std::string h = "<h2>Comparison (B &minus; A)</h2>\n<p><strong>" +
                    html_escape(comparison_timeline(c)) + "</strong></p>\n<p>" +
                    html_escape(comparison_method(c)) + "</p>\n";
    h += "<table><tr><th>figure</th><th>A</th><th>B</th><th>B &minus; A</th>"
         "<th>95 % interval</th><th>verdict</th></tr>\n";
    for (const ComparisonRow& row : comparison_rows(c)) {
        const char* css = row.kind == Verdict::better    ? " class=\"better\""
                          : row.kind == Verdict::worse   ? " class=\"worse\""
                          : row.kind == Verdict::changed ? " class=\"changed\""
                                                         : "";
        h += fmt::format(
            "<tr><td>{}</td><td class=\"v\">{}</td><td class=\"v\">{}</td>"
            "<td class=\"v\">{}</td><td>{}</td><td{}>{}</td></tr>\n",
            row.figure, row.a, row.b, row.difference, row.interval, css, row.verdict);
    }
    h += "</table>\n";
    const std::vector<std::string> absent = comparison_absent(c);
    if (!absent.empty()) {
        h += "<p>Not compared:</p>\n<ul>\n";
        for (const std::string& line : absent)
            h += "<li>" + html_escape(line) + "</li>\n";
        h += "</ul>\n";
    }
    if (report.captures.size() == 2 && report.captures[0].capture->per_frame &&
        report.captures[1].capture->per_frame) {
        h += comparison_plots(c, report.captures[0], report.captures[1]);
    }
    return h;
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
        "<title>{}</title><style>{}</style></head><body>\n",
        html_escape(title), kStyle);
}

std::string html_capture_section(const CaptureReport& report, std::string_view heading_prefix) {
    return capture_section(report, heading_prefix);
}

std::unique_ptr<ReportWriter> make_html_writer() {
    return std::make_unique<HtmlWriter>();
}

}  // namespace loopscope
