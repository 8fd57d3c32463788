// The writer factory and the summary rows that the human-readable writers share: the figure
// catalogue (core/figures.hpp) laid out by section, so terminal, Markdown and HTML print the
// same figures with the same definitions, and leave out those a capture cannot have.
#include "reports/writer.hpp"

#include <fmt/format.h>

#include <array>

#include "common/errors.hpp"
#include "core/figures.hpp"

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
            "PresentMon 2.x: the present timeline is the application frames' FrameTime (CPUBusy "
            "+ CPUWait, the time between the app's frame starts). {} generated frames have no "
            "frame time (FrameTime 0) and are counted, not analysed as 0 ms frames; the display "
            "timeline (--timeline display) shows them.",
            r.generated_without_frame_time));
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
    if (r.generation_suspicion.suspected) {
        const GenerationSuspicion& g = r.generation_suspicion;
        notes.push_back(fmt::format(
            "Frame generation suspected: the capture does not mark generated frames (no "
            "FrameType column), but {} of its present-to-present times alternate between a short "
            "and a long cluster (means {:.3f} ms and {:.3f} ms, {} runs), as frame generation "
            "makes them. The present timeline then mixes application and generated frames{}.",
            fmt::format("{:.2f} %", g.alternating_share * 100.0), g.short_mean_ms, g.long_mean_ms,
            g.runs,
            r.displayed.frames > 0 ? "; the displayed frames are also given on their own cadence"
                                   : ""));
    }
    return notes;
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

std::vector<ComparisonRow> comparison_rows(const Comparison& c) {
    std::vector<ComparisonRow> rows;
    for (const FigureDifference& d : c.figures) {
        ComparisonRow row;
        row.figure = d.name;
        row.a = format_figure(d.name, d.a);
        row.b = format_figure(d.name, d.b);
        row.difference =
            fmt::format("{}{}", d.difference >= 0 ? "+" : "", format_figure(d.name, d.difference));
        row.interval =
            fmt::format("[{}, {}]", format_figure(d.name, d.low), format_figure(d.name, d.high));
        row.verdict = d.significant ? "changed" : "within noise";
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string comparison_method(const Comparison& c) {
    std::string text = fmt::format(
        "B - A with a 95 % interval from a moving-block bootstrap ({} resamples, blocks of {} / "
        "{} consecutive frames, seed {}): \"changed\" when the interval excludes 0.",
        c.resamples, c.block_a, c.block_b, c.seed);
    // The per-cadence figures resample their cadence's own intervals.
    const auto cadence = [&](const char* name, std::size_t a, std::size_t b) {
        if (a > 0)
            text += fmt::format(
                " The {} figures resample that cadence's intervals, in blocks "
                "of {} / {}.",
                name, a, b);
    };
    cadence("application", c.block_application_a, c.block_application_b);
    cadence("displayed", c.block_displayed_a, c.block_displayed_b);
    return text;
}

}  // namespace loopscope
