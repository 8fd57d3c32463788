// The writer factory and the summary rows that the human-readable writers share: the figure
// catalogue (core/figures.hpp) laid out by section, so terminal, Markdown and HTML print the
// same figures with the same definitions, and leave out those a capture cannot have.
#include "writers/writer.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "core/figures.hpp"
#include "core/tool_figures.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {
constexpr std::array<const char*, 6> kFormats = {"terminal", "json", "md", "csv", "html", "chrome"};
}  // namespace

std::span<const char* const> writer_formats() {
    return kFormats;
}

bool writer_needs_loop_records(std::string_view format) {
    // The summary formats give the loop figures; every other format draws or lists the frames.
    return format != "terminal" && format != "json" && format != "md";
}

std::optional<std::string> writer_format_for_path(std::string_view path) {
    const std::size_t dot = path.rfind('.');
    const std::size_t slash = path.find_last_of("/\\");
    if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
        return std::nullopt;
    const std::string_view ext = path.substr(dot + 1);
    if (ext == "json" || ext == "md" || ext == "csv" || ext == "html")
        return std::string(ext);
    if (ext == "txt")
        return "terminal";
    return std::nullopt;
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

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f)
            out += fmt::format("\\x{:02x}", u);
        else
            out += c;
    }
    return out;
}

std::string json_string(std::string_view text) {
    return nlohmann::json(std::string(text))
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string capture_title(const CaptureReport& r) {
    const CaptureSource& s = r.capture->source;
    if (s.process.empty())
        return printable(s.file);
    std::string t = printable(s.process);
    if (s.process_id >= 0)
        t += fmt::format(" (pid {}", s.process_id);
    if (!s.swap_chain.empty()) {
        t += s.process_id >= 0 ? ", " : " (";
        t += "swap chain " + printable(s.swap_chain);
    }
    if (s.process_id >= 0 || !s.swap_chain.empty())
        t += ")";
    return t;
}

std::vector<std::string> data_quality_notes(const DataQuality& q) {
    std::vector<std::string> notes;
    for (const BadCells& b : q.bad_cells) {
        // A JSON capture's cells have no line: its first entry is named instead.
        const std::string first = b.first_line > 0
                                      ? fmt::format("line {}, column {}, `{}`", b.first_line,
                                                    b.first_column, b.first_text)
                                      : fmt::format("`{}{}`", b.column, b.first_text);
        notes.push_back(printable(
            fmt::format("data quality: {} cell{} of `{}` {} {} (first: {}); treated as: {}.",
                        b.count, b.count == 1 ? "" : "s", b.column, b.count == 1 ? "is" : "are",
                        b.kind, first, b.treated_as)));
    }
    for (const DataOddity& o : q.oddities)
        notes.push_back(printable("data quality: " + o.note));
    return notes;
}

std::string time_axis_line(const CaptureReport& r) {
    const Capture& c = *r.capture;
    if (c.clock_origin_ns == 0 && c.source.format == "plain")
        return "times in seconds since the first frame began (t = 0; the list has no clock)";
    return fmt::format(
        "times in seconds since the first {}'s time stamp (t = 0), {:.6f} s on "
        "the capture's own clock",
        c.per_frame ? "frame" : "sample", ns_to_s(c.clock_origin_ns));
}

std::vector<std::string> capture_notes(const CaptureReport& r) {
    std::vector<std::string> notes = r.capture->warnings;
    for (std::string& note : data_quality_notes(r.capture->data_quality))
        notes.push_back(std::move(note));
    if (r.capture->sample_kind == Capture::SampleKind::latest_frame) {
        notes.push_back(
            "This log is sampled: each row holds the time of one frame, the latest when the row "
            "was logged, not every frame. Its figures are of those samples (section "
            "\"Samples\"); per-frame percentiles, lows, stutter and hitches cannot be computed "
            "from it and are not shown, and no per-frame cause of a hitch exists in it.");
    } else if (!r.capture->per_frame) {
        notes.push_back(
            "This log is sampled: each row holds a polling interval's frame rate, not one row "
            "per frame. Its figures are of those intervals (section \"Samples\"); per-frame "
            "percentiles, lows, stutter and hitches cannot be computed from it and are not "
            "shown, and no per-frame cause of a hitch exists in it.");
    }
    // The range's first frames without a frame time: counted (every command gives the capture's
    // rows as its frames), said here once, left out of the frame-time figures.
    if (r.capture->per_frame && r.range.size() > 0) {
        const Capture& c = *r.capture;
        std::size_t without = 0;
        std::string why;
        if (!first_frame_is_frame_time(c) && r.range.begin == 0) {
            without = 1;
            why = "a trace's frame 0 has no frame before it";
        } else if (c.leading_frames_without_time > r.range.begin) {
            without = c.leading_frames_without_time - r.range.begin;
            why = "the first present has no earlier one in the file";
        }
        if (without > 0 && without < r.range.size()) {
            notes.push_back(fmt::format(
                "Capture frames {}-{} are {} frames; the first {} no frame time ({}), so the "
                "frame-time figures leave {} out.",
                r.range.begin, r.range.end - 1, r.range.size(),
                without == 1 ? std::string("has") : fmt::format("{} have", without), why,
                without == 1 ? "it" : "them"));
        }
    }
    if (r.timeline == Timeline::display && r.dropped_in_range > 0) {
        notes.push_back(fmt::format(
            "Display timeline: {} frames were never displayed (dropped) and are counted as "
            "dropped, not as frame times.",
            r.dropped_in_range));
    }
    if (r.startup.frames > 0) {
        const auto first = r.series.frame_number.front();
        const auto last = r.series.frame_number[r.startup.frames - 1];
        notes.push_back(
            fmt::format("Start-up segment: {} ({}). Figures are shown with it and without it.",
                        first == last ? fmt::format("capture frame {}", first)
                                      : fmt::format("capture frames {}-{}", first, last),
                        r.startup.reason));
    }
    if (r.generated_without_frame_time > 0) {
        notes.push_back(fmt::format(
            "PresentMon 2.x: this layout has no present time for generated frames, so its "
            "present timeline holds the application frames only ({}). {} generated frames are "
            "counted, not analysed as 0 ms frames; the display timeline (--timeline display) "
            "shows them.",
            r.frame_time_column, r.generated_without_frame_time));
    }
    if (r.has_generated) {
        notes.push_back(fmt::format(
            "The capture marks generated frames (frame generation){}: the application frames "
            "and the displayed frames are also given on their own cadence, with their "
            "percentiles, lows and stutter (section \"Frame generation\").",
            timeline_mixes_generated(r)
                ? ", so the present timeline mixes application and generated frames"
                : ""));
    }
    if (r.generation.detected) {
        const GenerationEvidence& e = r.generation.evidence.front();
        notes.push_back(fmt::format(
            "Frame generation detected: the capture does not mark generated frames (no FrameType "
            "column), but {} repeats every {} frames on {:.2f} % of its frames, as frame "
            "generation makes it. The present timeline mixes application and generated frames; "
            "the application frames' figures are estimated (one present in {} timed as the "
            "application's){}.",
            e.column, e.period, e.share * 100.0, e.period,
            r.displayed.frames > 0 ? "; the displayed frames are also given on their own cadence"
                                   : ""));
    }
    return notes;
}

std::vector<std::pair<std::string, std::string>> system_lines(const CaptureReport& r) {
    // The system block MangoHud writes (os,cpu,gpu,ram,kernel,driver,cpuscheduler) and
    // Afterburner's 01 GPU line, as the readers keep them.
    static constexpr std::array<std::pair<const char*, const char*>, 6> kLines = {{
        {"cpu", "CPU"},
        {"gpu", "GPU"},
        {"os", "OS"},
        {"kernel", "kernel"},
        {"driver", "driver"},
        {"cpuscheduler", "CPU scheduler"},
    }};
    std::vector<std::pair<std::string, std::string>> out;
    const auto& m = r.capture->metadata;
    const std::string_view format = r.capture->source.format;
    if (format != "mangohud" && format != "afterburner")
        return out;
    for (const auto& [key, name] : kLines) {
        const auto it = m.find(key);
        if (it != m.end() && !trim(it->second).empty())
            out.emplace_back(name, printable(trim(it->second)));
    }
    return out;
}

std::string system_line(const CaptureReport& r) {
    std::string out;
    for (const auto& [name, value] : system_lines(r))
        out += (out.empty() ? "" : "; ") + name + " " + value;
    return out;
}

std::vector<SummaryRow> summary_rows(const CaptureReport& r) {
    std::vector<SummaryRow> rows;
    for (const Figure* f : summary_figures()) {
        if (!figure_missing(*f, r)) {
            rows.push_back({std::string(f->section), std::string(f->label), f->text(r),
                            figure_definition(*f, &r)});
        }
    }
    return rows;
}

std::string hitch_parts_text(const HitchCause& cause) {
    std::vector<const CausePart*> order;
    for (const CausePart& p : cause.parts)
        order.push_back(&p);
    std::stable_sort(order.begin(), order.end(),
                     [](const CausePart* a, const CausePart* b) { return a->ns > b->ns; });
    std::string out;
    for (const CausePart* p : order) {
        out += out.empty() ? "" : ", ";
        out += p->kind;
        if (!p->label.empty())
            out += " \"" + printable(p->label) + "\"";
        out += fmt::format(" {:.1f} ms", ns_to_ms(p->ns));
        if (p->frame >= 0)
            out += fmt::format(" (frame {})", p->frame);
    }
    return out;
}

std::vector<LowsTableRow> lows_table_rows(const CaptureReport& r) {
    std::vector<LowsTableRow> rows;
    bool any = false;
    std::size_t with_value = 0;
    const auto cell = [&](std::string_view key, bool ms) -> std::string {
        if (key.empty())
            return "-";
        const Figure* f = find_figure(key);
        if (!f || figure_missing(*f, r))
            return "n/a";
        const double v = *f->value(r);
        any = true;
        if (ms)
            return v > 0 ? fmt::format("{:.2f}", 1000.0 / v) : std::string("n/a");
        return fmt::format("{:.2f}", v);
    };
    for (const LowsRow& row : lows_rows()) {
        any = false;
        rows.push_back({std::string(row.tool), cell(row.low1_key, row.keys_are_ms),
                        cell(row.low01_key, row.keys_are_ms), std::string(row.rule)});
        with_value += any ? 1 : 0;
    }
    // One tool's figures alone (MangoHud's, on its sampled log) are nothing to set side by side:
    // they are in the summary.
    if (with_value < 2)
        rows.clear();
    return rows;
}

ComparisonRow comparison_row(const FigureDifference& d) {
    ComparisonRow row;
    row.figure = d.name;
    row.a = format_figure(d.name, d.a);
    row.b = format_figure(d.name, d.b);
    row.difference =
        fmt::format("{}{}", d.difference >= 0 ? "+" : "", format_figure(d.name, d.difference));
    row.interval = d.has_interval ? fmt::format("[{}, {}]", format_figure(d.name, d.low),
                                                format_figure(d.name, d.high))
                                  : std::string("-");
    row.verdict = verdict_name(d.verdict);
    row.kind = d.verdict;
    return row;
}

std::vector<ComparisonRow> comparison_rows(const Comparison& c) {
    std::vector<ComparisonRow> rows;
    for (const FigureDifference& d : c.context)
        rows.push_back(comparison_row(d));
    for (const FigureDifference& d : c.figures)
        rows.push_back(comparison_row(d));
    return rows;
}

std::string comparison_verdict_text(const Comparison& c, const ComparisonVerdict& v) {
    std::string text = fmt::format(
        "B against A on the {} timeline: {}. Worse on {}, better on {}, no significant change on "
        "{}",
        compared_timeline_name(c.timeline), comparison_outcome_name(v.outcome), v.worse, v.better,
        v.no_significant_change);
    if (v.changed > 0)
        text += fmt::format(", changed (a figure without a direction) on {}", v.changed);
    text += fmt::format(" of the {} figures compared (95 % intervals from a block bootstrap).",
                        v.compared);
    return text;
}

std::vector<ComparisonRow> comparison_headline_rows(const ComparisonVerdict& v) {
    std::vector<ComparisonRow> rows;
    for (const FigureDifference* d : v.headline)
        rows.push_back(comparison_row(*d));
    return rows;
}

std::string comparison_timeline(const Comparison& c) {
    return fmt::format("Compared on the {} timeline: {}.", compared_timeline_name(c.timeline),
                       c.timeline_reason);
}

std::string comparison_method(const Comparison& c) {
    std::string text = fmt::format(
        "B - A with a 95 % interval from a block bootstrap ({} resamples; each capture cut into "
        "blocks of about {} / {} consecutive intervals of that timeline, or samples of a sampled "
        "log, as many drawn with replacement, an end block as a piece weighted as the moving-block "
        "bootstrap weighs it; seed {}; a latency or busy column is resampled the same way on its "
        "own). "
        "\"better\" or \"worse\" when the interval excludes 0, by the figure's direction "
        "(\"changed\" for a figure with none); \"no significant change\" when it holds 0. "
        "Frames, duration and refresh rate are compared by value: \"changed\" or "
        "\"unchanged\".",
        c.resamples, c.block_a, c.block_b, c.seed);
    if (c.paired)
        text +=
            " A and B hold the same intervals in the same order: both are resampled alike, "
            "so every interval is [0, 0].";
    return text;
}

std::vector<std::string> comparison_absent(const Comparison& c) {
    // Figures left out for one reason share a line.
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < c.absent.size();) {
        std::string names = c.absent[i].name;
        std::size_t j = i + 1;
        for (; j < c.absent.size() && c.absent[j].reason == c.absent[i].reason; ++j)
            names += ", " + c.absent[j].name;
        lines.push_back(fmt::format("{}: {}", names, c.absent[i].reason));
        i = j;
    }
    return lines;
}

}  // namespace loopscope
