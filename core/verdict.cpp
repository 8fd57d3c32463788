#include "core/verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "core/figure_parts.hpp"
#include "core/figures.hpp"
#include "core/latency.hpp"
#include "core/units.hpp"

namespace loopscope {

using figure_parts::fixed;
using figure_parts::percent;

namespace {

VerdictLine new_line(std::string key, std::string label) {
    VerdictLine line;
    line.key = std::move(key);
    line.label = std::move(label);
    return line;
}

// Why the capture cannot have the catalogue figure `key` (its `needs`), or nullopt.
std::optional<std::string> missing_reason(const CaptureReport& r, std::string_view key) {
    const Figure* f = find_figure(key);
    return f ? figure_missing(*f, r) : std::nullopt;
}

std::string fps(double v) {
    return fixed(v, 2) + " FPS";
}

std::string one_decimal_ms(std::int64_t ns) {
    return fmt::format("{:.1f} ms", ns_to_ms(ns));
}

// The cadence stutter is judged on: what the player sees. A present timeline that mixes
// application and generated frames alternates short and long intervals by design, which
// CapFrameX's rule flags as stutter almost everywhere; the displayed frames (or else the
// application's) are the cadence that can stutter.
void judge_stutter(const CaptureReport& r, CaptureVerdict& v) {
    // Frames of 0 ms in all have no time to share out (the data quality says why).
    if (!r.capture->per_frame || r.stats.frame_time.total_ns <= 0)
        return;
    if (timeline_mixes_generated(r)) {
        if (r.displayed.frames > 1) {
            v.stutter_time_share = r.displayed.stutter.time_share;
            v.stutter_cadence = "the displayed frames";
        } else if (r.application.frames > 1) {
            v.stutter_time_share = r.application.stutter.time_share;
            v.stutter_cadence = "the application's frames";
        }
        return;
    }
    v.stutter_time_share = r.stats.stutter.time_share;
    v.stutter_cadence = fmt::format("the {} timeline", timeline_name(r.timeline));
}

const HitchCause& cause_of(const CaptureReport& r, std::size_t k, HitchCause& scratch) {
    if (k < r.hitch_causes.size())
        return r.hitch_causes[k];
    scratch = report_hitch_cause(r, r.stats.hitches.hitches[k]);
    return scratch;
}

VerdictLine smoothness_line(const CaptureReport& r, CaptureVerdict& v) {
    VerdictLine line = new_line("smoothness", "smooth?");
    line.evidence = fmt::format("smooth: no hitch, under {:.0f} % of the time in CapFrameX stutter",
                                kSmoothMaxStutterShare * 100.0);
    if (!v.hitch_count) {
        line.available = false;
        line.text = "cannot say: " + missing_reason(r, "hitch_count").value_or("no frames");
        return line;
    }
    const std::size_t hitches = *v.hitch_count;
    const std::string stutter =
        v.stutter_time_share
            ? fmt::format("{} of the time in stutter on {}", percent(*v.stutter_time_share),
                          v.stutter_cadence)
            : std::string(r.stats.frame_time.total_ns <= 0
                              ? "stutter not judged (the frame times add up to 0)"
                              : "stutter not judged (no cadence of the frames the player saw)");
    // A game loop's trouble shows in the motion even when its frames come evenly: a loop
    // behind real time runs in slow motion or drops time, and step aliasing shows no motion and
    // then double motion (core/loop_figures.hpp).
    std::string loop;
    if (r.loop_figures && r.loop_config) {
        const LoopFigures& f = *r.loop_figures;
        if (f.state != LoopState::ok)
            loop = "; the loop is " + verdict_brief(f);
        if (f.step_aliasing_share >= kStepAliasingFindingShare) {
            loop +=
                fmt::format("; step aliasing on {} of the frames", percent(f.step_aliasing_share));
        }
        line.evidence +=
            fmt::format(", a loop neither saturated nor in a spiral, step aliasing under {:.0f} %",
                        kStepAliasingFindingShare * 100.0);
    }
    if (hitches > 0 || !loop.empty() ||
        (v.stutter_time_share && *v.stutter_time_share >= kSmoothMaxStutterShare))
        v.smoothness = Smoothness::not_smooth;
    else if (v.stutter_time_share)
        v.smoothness = Smoothness::smooth;
    line.text = fmt::format("{}: {} hitch{}, {}{}", smoothness_name(v.smoothness), hitches,
                            hitches == 1 ? "" : "es", stutter, loop);
    return line;
}

VerdictLine hitches_line(const CaptureReport& r, CaptureVerdict& v) {
    VerdictLine line = new_line("hitches", "hitches");
    line.evidence =
        "Unreal's rule: > 60 ms and >= 1.5 x the frame before; causes from the "
        "capture's columns";
    if (!v.hitch_count) {
        line.available = false;
        line.text = missing_reason(r, "hitch_count").value_or("no frames");
        return line;
    }
    const UnrealHitches& h = r.stats.hitches;
    if (h.hitches.empty()) {
        line.text = "none";
        return line;
    }
    std::vector<std::size_t> order(h.hitches.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return h.hitches[a].frame_ns > h.hitches[b].frame_ns;
    });
    HitchCause scratch;
    for (std::size_t k = 0; k < std::min(order.size(), kVerdictHitches); ++k) {
        const Hitch& x = h.hitches[order[k]];
        const HitchCause& c = cause_of(r, order[k], scratch);
        v.longest_hitches.push_back({.hitch = order[k],
                                     .index = x.index,
                                     .length_ns = x.frame_ns,
                                     .cause_kind = c.kind,
                                     .cause = c.summary});
    }
    line.text = fmt::format("{} ({} per minute, {} in all)", h.hitches.size(),
                            fixed(h.per_minute, 2), one_decimal_ms(h.hitch_ns));
    // The part kind holding the most of the hitches' time, and its share: the catalogue's
    // figures (dominant_hitch_cause, hitch_<kind>_share), as the summary and the folder
    // summaries give them.
    if (const std::string kind = dominant_hitch_cause(r); !kind.empty()) {
        const FigureValue share = figure_value(r, fmt::format("hitch_{}_share", kind));
        line.text += fmt::format(", most of it {}", kind);
        if (share.has_value())
            line.text += fmt::format(" ({} of their time)", percent(*share));
    }
    return line;
}

VerdictLine fps_line(const CaptureReport& r, CaptureVerdict& v) {
    VerdictLine line = new_line("fps", "FPS");
    const FigureValue avg = figure_value(r, "avg_fps");
    const FigureValue low = figure_value(r, "p1_low_fps");
    line.evidence =
        "1% low = 1000 / the p99 frame time, PresentMon's rule; each tool's in \"Which 1% low\"";
    if (!avg.has_value()) {
        const FigureValue sampled = figure_value(r, "sampled_avg_fps");
        if (!sampled.has_value()) {
            line.available = false;
            line.text = avg.reason;
            return line;
        }
        // No low: it needs every frame, and the rows are not frames.
        line.text = fmt::format("average {} over the log's time, no lows ({})", fps(*sampled),
                                missing_reason(r, "p1_low_fps").value_or(avg.reason));
        line.evidence = "sampled_avg_fps: each sample's rate weighted by its row's interval";
        return line;
    }
    v.average_fps = *avg;
    line.text = "average " + fps(*avg);
    if (low.has_value() && *low > 0) {
        v.low1_fps = *low;
        line.text += ", 1% low " + fps(*low);
    } else {
        line.text += ", no 1% low: " + (low.has_value() ? std::string("no frames") : low.reason);
    }
    if (timeline_mixes_generated(r) && r.application.frames > 1) {
        line.text += fmt::format("; the application's {}{}, 1% low {}",
                                 r.application_estimated ? "estimated " : "",
                                 fps(r.application.average_fps), fps(r.application.fps.p1_low));
    }
    return line;
}

VerdictLine generation_line(const CaptureReport& r) {
    VerdictLine line = new_line("frame_generation", "frame generation");
    const GenerationDetection& g = r.generation;
    if (r.has_generated || r.generated_without_frame_time > 0) {
        line.evidence = "the capture's FrameType column";
        if (r.generated_without_frame_time > 0 && !r.has_generated) {
            line.text = fmt::format(
                "marked: {} generated frames, left out of the present timeline (this layout has "
                "no frame time for them)",
                r.generated_without_frame_time);
        } else {
            line.text = fmt::format("marked: {} application frames at {}, {} generated",
                                    r.application.frames, fps(r.application.average_fps),
                                    r.generated.frames);
        }
        return line;
    }
    if (r.generation_examinable) {
        line.evidence = "cycles in per-frame columns; only MsPCLatency's are decisive";
        if (g.detected || g.possible) {
            const GenerationEvidence& e = g.evidence.front();
            line.text = fmt::format("{}: {} repeats every {} frames on {} of its frames",
                                    g.detected ? "detected" : "possible, not detected", e.column,
                                    e.period, percent(e.share));
        } else if (g.examined) {
            line.text = "not detected: no per-frame column repeats with frame generation's cycles";
        } else {
            line.available = false;
            line.text = "not detectable: no per-frame column with enough known values";
        }
        return line;
    }
    if (r.capture->per_frame && !r.capture->generated.empty()) {
        // The display timeline: generated frames are displayed frames like the others there,
        // and the range's FrameType still says how many there are.
        const std::vector<std::uint8_t>& g = r.capture->generated;
        const std::size_t end = std::min(r.range.end, g.size());
        const std::size_t begin = std::min(r.range.begin, end);
        const auto marked = static_cast<std::size_t>(std::count_if(
            g.begin() + static_cast<std::ptrdiff_t>(begin),
            g.begin() + static_cast<std::ptrdiff_t>(end), [](std::uint8_t x) { return x != 0; }));
        if (marked > 0) {
            line.evidence = "the capture's FrameType column";
            line.text = fmt::format(
                "marked: {} of the range's {} frames generated; on the {} timeline they count "
                "as frames like the others",
                marked, r.range.size(), timeline_name(r.timeline));
            return line;
        }
        // A FrameType column that marks no frame of the range as generated.
        line.evidence = "the capture's FrameType column";
        line.text = "none: FrameType marks every frame as the application's";
        return line;
    }
    line.available = false;
    line.evidence = "the FrameType column, or cycles of per-frame columns";
    line.text = r.capture->per_frame
                    ? std::string(
                          "not detectable: the capture marks no generated frames and "
                          "has no per-frame column to detect them in")
                    : missing_reason(r, "hitch_count").value_or("no frames");
    return line;
}

VerdictLine display_line(const CaptureReport& r) {
    VerdictLine line = new_line("display", "display");
    const RefreshGuess& g = r.stats.refresh;
    if (!r.capture->per_frame || !has_display_information(*r.capture) ||
        g.absent == RefreshGuess::Absent::no_display) {
        line.available = false;
        line.evidence = "display-change, present-mode, sync-interval and tearing columns";
        line.text = r.capture->per_frame
                        ? std::string("no display information: the frame times are the game's")
                        : missing_reason(r, "hitch_count").value_or("no frames");
        return line;
    }
    switch (g.state) {
        case RefreshGuess::State::fixed:
            line.text = fmt::format("fixed refresh, {} Hz ({} of intervals on its grid)", g.rate_hz,
                                    percent(g.on_grid_share));
            line.evidence =
                fmt::format("the lowest rate whose grid explains 95 % of {}", r.refresh_column);
            break;
        case RefreshGuess::State::follows_presents:
            line.text = g.absent == RefreshGuess::Absent::tearing
                            ? fmt::format("no fixed refresh: tearing on {} of the frames",
                                          percent(g.tearing_share))
                            : fmt::format(
                                  "no fixed refresh: display changes follow the presents ({}; "
                                  "variable refresh or independent flip)",
                                  percent(g.follows_share));
            line.evidence =
                "SyncInterval 0 with AllowsTearing, or display changes within 1 ms of their "
                "presents";
            break;
        case RefreshGuess::State::unknown:
            line.text = fmt::format(
                "refresh unknown: no grid explains the display changes and they do not follow "
                "the presents");
            line.evidence = fmt::format("the intervals of {}", r.refresh_column);
            break;
    }
    if (r.display.available && r.display.dropped == 0) {
        line.text += "; every frame displayed";
    } else if (r.display.available) {
        line.text +=
            fmt::format("; never displayed: {} frame{} ({})", r.display.dropped,
                        r.display.dropped == 1 ? "" : "s", percent(r.display.dropped_share));
    }
    return line;
}

VerdictLine latency_line(const CaptureReport& r) {
    VerdictLine line = new_line("latency", "latency");
    constexpr std::array<std::pair<LatencyKind, const char*>, 5> kinds = {{
        {LatencyKind::pc, "PC latency"},
        {LatencyKind::click_to_photon, "click to photon"},
        {LatencyKind::all_input_to_photon, "all input to photon"},
        {LatencyKind::display, "display latency"},
        {LatencyKind::render_present, "render-present latency"},
    }};
    std::vector<std::string> texts, columns;
    for (const auto& [kind, name] : kinds) {
        const std::optional<LatencySummary>& s = r.latency.of(kind);
        if (!s || s->frames == 0)
            continue;
        // Two kinds make one screen line; the rest are in the Latency section.
        if (texts.size() == 2)
            break;
        texts.push_back(fmt::format("{} mean {} ms, p99 {} ms", name, fixed(s->mean_ms, 1),
                                    fixed(s->p99_ms, 1)));
        columns.emplace_back(latency_column(*r.capture, kind));
    }
    if (texts.empty()) {
        line.available = false;
        line.text = "the capture has no latency column with a value";
        line.evidence = "PC latency, click-, input- and display-latency columns";
        return line;
    }
    for (std::size_t i = 0; i < texts.size(); ++i)
        line.text += (i ? "; " : "") + texts[i];
    line.evidence = "the capture's own columns: ";
    for (std::size_t i = 0; i < columns.size(); ++i)
        line.evidence += (i ? ", " : "") + columns[i];
    return line;
}

VerdictLine data_line(const CaptureReport& r) {
    VerdictLine line = new_line("data_quality", "data");
    const DataQuality& q = r.capture->data_quality;
    line.evidence = "the reader's check of every cell and row; notes below";
    if (q.empty()) {
        line.text = "clean: every cell read, nothing odd about the rows";
        return line;
    }
    std::vector<std::string> parts;
    if (q.bad_cell_count() > 0) {
        std::vector<std::string> names;
        for (const BadCells& b : q.bad_cells) {
            if (std::find(names.begin(), names.end(), b.column) == names.end())
                names.push_back(b.column);
        }
        std::string cols;
        for (std::size_t i = 0; i < names.size(); ++i)
            cols += (i ? ", " : "") + names[i];
        parts.push_back(fmt::format("{} cells not read ({})", q.bad_cell_count(), cols));
    }
    for (const DataOddity& o : q.oddities) {
        std::string kind = o.kind;
        std::replace(kind.begin(), kind.end(), '_', ' ');
        parts.push_back(fmt::format("{} ({})", kind, o.count));
    }
    line.text = "read with reservations: ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        line.text += (i ? "; " : "") + parts[i];
    return line;
}

}  // namespace

const char* smoothness_name(Smoothness s) {
    switch (s) {
        case Smoothness::smooth:
            return "smooth";
        case Smoothness::not_smooth:
            return "not smooth";
        case Smoothness::unknown:
            break;
    }
    return "unknown";
}

const VerdictLine* CaptureVerdict::line(std::string_view key) const {
    const auto it = std::find_if(lines.begin(), lines.end(),
                                 [&](const VerdictLine& l) { return l.key == key; });
    return it == lines.end() ? nullptr : &*it;
}

CaptureVerdict capture_verdict(const CaptureReport& r) {
    CaptureVerdict v;
    if (r.capture->per_frame)
        v.hitch_count = r.stats.hitches.hitches.size();
    judge_stutter(r, v);
    v.lines.push_back(smoothness_line(r, v));
    v.lines.push_back(hitches_line(r, v));
    v.lines.push_back(fps_line(r, v));
    v.lines.push_back(generation_line(r));
    v.lines.push_back(display_line(r));
    v.lines.push_back(latency_line(r));
    v.lines.push_back(data_line(r));
    if (r.loop_figures) {
        VerdictLine loop = new_line("loop", "loop");
        if (r.loop_config) {
            const LoopFigures& f = *r.loop_figures;
            loop.text = verdict_brief(f);
            loop.evidence = f.cause.empty() ? std::string("the loop's records") : f.cause;
        } else {
            // The spiral and slow motion are judged against dt: without it there is no verdict.
            loop.available = false;
            loop.text = "no verdict: the trace's metadata states no loop configuration";
            loop.evidence = "the loop's records against the step dt";
        }
        v.lines.push_back(std::move(loop));
    }
    return v;
}

const char* comparison_outcome_name(ComparisonOutcome outcome) {
    switch (outcome) {
        case ComparisonOutcome::better:
            return "better";
        case ComparisonOutcome::worse:
            return "worse";
        case ComparisonOutcome::mixed:
            return "mixed";
        case ComparisonOutcome::no_significant_change:
            break;
    }
    return "no significant change";
}

ComparisonVerdict comparison_verdict(const Comparison& comparison) {
    ComparisonVerdict v;
    for (const FigureDifference& d : comparison.figures) {
        ++v.compared;
        switch (d.verdict) {
            case Verdict::better:
                ++v.better;
                break;
            case Verdict::worse:
                ++v.worse;
                break;
            case Verdict::changed:
                ++v.changed;
                break;
            case Verdict::no_significant_change:
            case Verdict::unchanged:
                ++v.no_significant_change;
                break;
        }
    }
    if (v.better > 0 && v.worse > 0)
        v.outcome = ComparisonOutcome::mixed;
    else if (v.better > 0)
        v.outcome = ComparisonOutcome::better;
    else if (v.worse > 0)
        v.outcome = ComparisonOutcome::worse;
    for (const std::string_view key : kComparisonHeadline) {
        const auto it = std::find_if(comparison.figures.begin(), comparison.figures.end(),
                                     [&](const FigureDifference& d) { return d.name == key; });
        if (it != comparison.figures.end())
            v.headline.push_back(&*it);
    }
    return v;
}

}  // namespace loopscope
