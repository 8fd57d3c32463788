// The writer factory and the summary rows that the human-readable writers share, so terminal,
// Markdown and HTML print the same figures with the same definitions.
#include "reports/writer.hpp"

#include <fmt/format.h>

#include <array>

#include "common/errors.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {
constexpr std::array<const char*, 6> kFormats = {"terminal", "json", "md", "csv", "html", "chrome"};

std::string fixed(double v, int digits) {
    return fmt::format("{:.{}f}", v, digits);
}
std::string percent(double share) {
    return fmt::format("{:.2f} %", share * 100.0);
}
}  // namespace

std::span<const char* const> writer_formats() {
    return kFormats;
}

std::unique_ptr<ReportWriter> make_writer(std::string_view format, const WriterOptions& options) {
    if (format == "terminal")
        return make_terminal_writer(options);
    if (format == "json")
        return make_json_writer();
    if (format == "md")
        return make_markdown_writer();
    if (format == "csv")
        return make_csv_writer();
    if (format == "html")
        return make_html_writer();
    if (format == "chrome")
        return make_chrome_writer();
    throw UsageError(
        fmt::format("unknown format '{}' (expected terminal, json, md, csv, html or "
                    "chrome)",
                    format));
}

std::string capture_title(const CaptureReport& r) {
    const CaptureSource& s = r.capture->source;
    if (s.process.empty())
        return s.file;
    std::string t = s.process;
    if (s.process_id >= 0)
        t += fmt::format(" (pid {}", s.process_id);
    if (!s.swap_chain.empty()) {
        t += s.process_id >= 0 ? ", " : " (";
        t += "swap chain " + s.swap_chain;
    }
    if (s.process_id >= 0 || !s.swap_chain.empty())
        t += ")";
    return t;
}

std::vector<std::string> capture_notes(const CaptureReport& r) {
    std::vector<std::string> notes = r.capture->warnings;
    if (!r.capture->per_frame) {
        notes.push_back(
            "This log is sampled (one row per interval, each an average over the frames in it), "
            "not one row per frame: percentiles, lows, stutter and hitches cannot be computed "
            "from it and are not shown.");
    }
    if (r.timeline == Timeline::display && r.dropped_in_range > 0) {
        notes.push_back(fmt::format(
            "Display timeline: {} frames were never displayed (dropped) and are counted as "
            "dropped, not as frame times.",
            r.dropped_in_range));
    }
    if (r.startup.frames > 0) {
        notes.push_back(fmt::format(
            "Start-up segment: capture frames {}-{} ({}). Figures are shown with it and "
            "without it.",
            r.series.frame_number.front(), r.series.frame_number[r.startup.frames - 1],
            r.startup.reason));
    }
    if (r.has_generated) {
        notes.push_back(
            "The capture marks generated frames (frame generation): application and generated "
            "frames are also given on their own cadence, since one number mixes the two.");
    }
    return notes;
}

std::vector<SummaryRow> summary_rows(const CaptureReport& r) {
    std::vector<SummaryRow> rows;
    const FrameStats& s = r.stats;
    const FrameTimeSummary& t = s.frame_time;
    const std::string col = r.frame_time_column;
    auto add = [&](const char* section, std::string label, std::string value, std::string def) {
        rows.push_back({section, std::move(label), std::move(value), std::move(def)});
    };
    if (!r.capture->per_frame) {
        add("Samples", "samples", fmt::format("{}", t.frames), "rows in the log");
        add("Samples", "mean sampled frame time", fixed(t.mean_ms, 3) + " ms",
            "mean of the " + col + " column (each row an interval average)");
        return rows;
    }
    add("Frames", "frames", fmt::format("{}", t.frames), "frames analysed");
    add("Frames", "duration", fixed(ns_to_s(t.total_ns), 3) + " s", "sum of " + col);
    add("FPS", "average FPS", fixed(s.fps.average, 2), "frames / total frame time (CapFrameX)");
    add("FPS", "1% low", fixed(s.fps.p1_low, 2), "1000 / p99 frame time");
    add("FPS", "0.1% low", fixed(s.fps.p01_low, 2), "1000 / p99.9 frame time");
    add("FPS", "1% low average", fixed(s.fps.low1_average, 2),
        "1000 / mean(frame times >= p99) (CapFrameX)");
    add("FPS", "0.1% low average", fixed(s.fps.low01_average, 2),
        "1000 / mean(frame times >= p99.9) (CapFrameX)");
    const std::string pdef = "linear interpolation at h = p·(N-1) over " + col;
    add("Frame time", "min", fixed(t.min_ms, 3) + " ms", "shortest " + col);
    add("Frame time", "mean", fixed(t.mean_ms, 3) + " ms", "mean of " + col);
    add("Frame time", "stdev", fixed(t.stdev_ms, 3) + " ms", "sample standard deviation (N-1)");
    add("Frame time", "CV", fixed(t.cv, 4), "stdev / mean");
    add("Frame time", "p50", fixed(t.p50_ms, 3) + " ms", pdef);
    add("Frame time", "p90", fixed(t.p90_ms, 3) + " ms", pdef);
    add("Frame time", "p95", fixed(t.p95_ms, 3) + " ms", pdef);
    add("Frame time", "p99", fixed(t.p99_ms, 3) + " ms", pdef);
    add("Frame time", "p99.9", fixed(t.p999_ms, 3) + " ms", pdef);
    add("Frame time", "max", fixed(t.max_ms, 3) + " ms", "longest " + col);
    add("Stutter", "CapFrameX stutter",
        fmt::format("{} frames, {} of time", s.stutter.frames.size(),
                    percent(s.stutter.time_share)),
        fmt::format("frame time > 2.5 x moving average of the {} preceding frames "
                    "(round(10·sqrt(mean ms))); a sample > 3 x its predecessor enters the "
                    "average as the predecessor",
                    s.stutter.window));
    add("Stutter", "Unreal hitches",
        fmt::format("{} ({:.2f} per minute)", s.hitches.hitches.size(), s.hitches.per_minute),
        "frame time > 60 ms and >= 1.5 x the previous frame");
    static constexpr std::array<const char*, 5> kBucketNames = {"< 2 ms", "< 4 ms", "< 8 ms",
                                                                "< 12 ms", ">= 12 ms"};
    for (std::size_t b = 0; b < 5; ++b) {
        add("Variation", fmt::format("change {}", kBucketNames[b]),
            fmt::format("{} ({})", s.variation.counts[b], percent(s.variation.share(b))),
            "|ft_i - ft_(i-1)| between consecutive frames (CapFrameX)");
    }
    if (s.refresh.rate_hz > 0) {
        add("Display", "refresh rate", fmt::format("{} Hz", s.refresh.rate_hz),
            "the candidate grid with the most frames beyond chance, from " + r.refresh_column);
        add("Display", "on grid", percent(s.refresh.on_grid_share),
            "frames within 0.5 ms of a whole number of refresh periods");
    } else {
        add("Display", "refresh rate", "none detected",
            "no candidate grid (50-360 Hz) holds 20 % more frames than chance, from " +
                r.refresh_column);
    }
    if (r.display.available) {
        add("Display", "displayed frames", fmt::format("{}", r.display.displayed),
            "frames with a display change");
        add("Display", "dropped frames",
            fmt::format("{} ({})", r.display.dropped, percent(r.display.dropped_share)),
            "frames never displayed");
        add("Display", "between display changes",
            fmt::format("mean {} ms, p99 {} ms",
                        fixed(r.display.between_display_changes.mean_ms, 3),
                        fixed(r.display.between_display_changes.p99_ms, 3)),
            "time between display changes of the displayed frames (" +
                std::string(r.timeline == Timeline::display ? r.frame_time_column
                                                            : r.refresh_column) +
                ")");
        if (r.display.has_animation_error) {
            add("Display", "animation error",
                fmt::format("mean |e| {} ms, p99 {} ms, max {} ms",
                            fixed(r.display.animation_error_mean_abs_ms, 3),
                            fixed(r.display.animation_error_p99_abs_ms, 3),
                            fixed(r.display.animation_error_max_abs_ms, 3)),
                "absolute AnimationError (PresentMon)");
        }
    }
    if (r.has_generated) {
        for (const auto* c : {&r.application, &r.generated}) {
            const bool gen = c == &r.generated;
            add("Frame generation", gen ? "generated frames" : "application frames",
                fmt::format("{} frames, {} FPS, interval mean {} ms, p99 {} ms", c->frames,
                            fixed(c->average_fps, 2), fixed(c->interval.mean_ms, 3),
                            fixed(c->interval.p99_ms, 3)),
                gen ? "FrameType other than Application; interval = time since the previous "
                      "generated frame"
                    : "FrameType Application; interval = time since the previous application "
                      "frame");
        }
    }
    if (r.loop_figures) {
        const LoopFigures& f = *r.loop_figures;
        const std::string policy(policy_name(r.loop_config.policy));
        add("Loop", "policy",
            fmt::format("{}, dt {:.3f} ms", policy, ns_to_ms(r.loop_config.dt_ns)),
            "from the trace's metadata");
        std::string hist;
        for (const auto& [steps, frames] : f.steps_histogram) {
            hist += fmt::format("{}{}: {}", hist.empty() ? "" : ", ", steps, frames);
        }
        add("Loop", "steps per frame", hist, "frames by simulation steps run (steps column)");
        if (f.has_accumulator) {
            add("Loop", "accumulator",
                fmt::format("{:.3f} - {:.3f} ms", ns_to_ms(f.acc_min_ns), ns_to_ms(f.acc_max_ns)),
                "range of acc_after_ns");
            add("Loop", "alpha",
                fmt::format("mean {:.3f}, {:.3f} - {:.3f}", f.alpha_mean, f.alpha_min, f.alpha_max),
                "acc_after / dt");
        }
        add("Loop", "time lost to guards",
            fmt::format("clamp {:.3f} ms in {} frames, step cap {:.3f} ms in {} frames",
                        ns_to_ms(f.clamp_lost_ns), f.clamp_frames, ns_to_ms(f.cap_dropped_ns),
                        f.cap_frames),
            "clamp_lost_ns (real time) and cap_dropped_ns (simulation time)");
        add("Loop", "spiral onset",
            f.onset_frame ? fmt::format("frame {} at {:.3f} s", *f.onset_frame,
                                        ns_to_s(f.onset_ns.value_or(0)))
                          : std::string(f.has_step_costs ? "none" : "unknown (no step costs)"),
            fmt::format("first frame of the first {}-frame window where the backlog grows and "
                        "the mean step cost exceeds dt / timescale",
                        f.window));
        if (f.slow_motion_factor) {
            add("Loop", "slow-motion factor", fmt::format("{:.3f}", *f.slow_motion_factor),
                "simulation time / real time from the onset on");
        }
        if (f.headroom_ns) {
            add("Loop", "headroom", fmt::format("{:.3f} ms", *f.headroom_ns / 1e6),
                "dt / timescale minus the highest window-mean step cost before the onset");
        }
    }
    if (r.startup.frames > 0) {
        const FrameStats& w = r.steady;
        add("Without start-up", "frames", fmt::format("{}", w.frame_time.frames),
            fmt::format("after the first {} frames", r.startup.frames));
        add("Without start-up", "average FPS", fixed(w.fps.average, 2), "as above");
        add("Without start-up", "p99", fixed(w.frame_time.p99_ms, 3) + " ms", "as above");
        add("Without start-up", "1% low average", fixed(w.fps.low1_average, 2), "as above");
        add("Without start-up", "CapFrameX stutter",
            fmt::format("{} frames, {} of time", w.stutter.frames.size(),
                        percent(w.stutter.time_share)),
            "as above");
        add("Without start-up", "Unreal hitches", fmt::format("{}", w.hitches.hitches.size()),
            "as above");
    }
    return rows;
}

std::string format_figure(std::string_view name, double value) {
    const bool is_count = name == "frames" || name == "stutter_count" || name == "hitch_count" ||
                          name == "refresh_hz";
    if (is_count)
        return fmt::format("{:.0f}", value);
    const bool is_share = name.find("share") != std::string_view::npos || name == "cv";
    if (is_share)
        return fmt::format("{:.4f}", value);
    return fmt::format("{:.3f}", value);
}

std::vector<ComparisonRow> comparison_rows(const Comparison& c) {
    std::vector<ComparisonRow> rows;
    for (const FigureDifference& d : c.figures) {
        ComparisonRow row;
        row.figure = d.name;
        row.a = format_figure(d.name, d.a);
        row.b = format_figure(d.name, d.b);
        row.difference = (d.difference >= 0 ? "+" : "") + format_figure(d.name, d.difference);
        row.interval =
            fmt::format("[{}, {}]", format_figure(d.name, d.low), format_figure(d.name, d.high));
        row.verdict = d.significant ? "changed" : "within noise";
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string comparison_method(const Comparison& c) {
    return fmt::format(
        "B - A with a 95 % interval from a moving-block bootstrap ({} resamples, blocks of {} / "
        "{} consecutive frames, seed {}): \"changed\" when the interval excludes 0.",
        c.resamples, c.block_a, c.block_b, c.seed);
}

}  // namespace loopscope
