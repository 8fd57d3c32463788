// One interface for every report format: a writer renders a computed Report into an output
// file. Each format lives in its own writers/writer_<format>.cpp; make_writer picks by name.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/output_file.hpp"
#include "core/analysis.hpp"
#include "core/figures.hpp"
#include "core/hitch_cause.hpp"
#include "core/verdict.hpp"

namespace loopscope {

struct WriterOptions {
    bool colour = false;  // terminal only: ANSI colours
};

class ReportWriter {
  public:
    virtual ~ReportWriter() = default;
    virtual void write(const Report& report, OutputFile& out) const = 0;
};

// "terminal", "json", "md", "csv", "html", "chrome". Throws UsageError for another name.
std::unique_ptr<ReportWriter> make_writer(std::string_view format, const WriterOptions& options);
std::span<const char* const> writer_formats();
// Whether a format writes a loopscope trace's loop columns frame by frame (csv, html, chrome), so
// that the trace's loop records must be kept; the others need only its loop figures
// (ReadOptions::loop_figures_only).
bool writer_needs_loop_records(std::string_view format);
// The format a file name asks for by its extension: .json json, .md md, .csv csv, .html html,
// .txt terminal; nullopt for another (the caller asks for --format).
std::optional<std::string> writer_format_for_path(std::string_view path);

std::unique_ptr<ReportWriter> make_terminal_writer(const WriterOptions& options);
std::unique_ptr<ReportWriter> make_json_writer();
std::unique_ptr<ReportWriter> make_markdown_writer();
std::unique_ptr<ReportWriter> make_csv_writer();
std::unique_ptr<ReportWriter> make_html_writer();
std::unique_ptr<ReportWriter> make_chrome_writer();

// The summary the human-readable writers (terminal, Markdown, HTML) share: one row for each
// figure of the catalogue that has a label and that this capture has, grouped by section, with
// its value as text and the definition it follows.
struct SummaryRow {
    std::string section;  // "Frame time", "FPS", "Stutter", ...
    std::string label;
    std::string value;
    std::string definition;
};
std::vector<SummaryRow> summary_rows(const CaptureReport& report);

// The "which 1 % low" table (core/tool_figures.hpp, lows_rows): each tool's 1 % and 0.1 % low
// for this capture with the rule in one line; "-" where the tool has no such figure, "n/a" where
// the capture cannot have it. Empty when fewer than two rows have a value (a sampled log, where
// only MangoHud's rule applies).
struct LowsTableRow {
    std::string tool, low1, low01, rule;
};
std::vector<LowsTableRow> lows_table_rows(const CaptureReport& report);
inline constexpr std::string_view kLowsTableTitle = "Which 1% low";
// Why a hitch took as long as it did: report_hitch_cause (core/analysis.hpp). Every writer that
// lists hitches shows its summary and parts.
// The parts as one line, largest first: "present 75.4 ms (frame 1615), cpu 30.7 ms (frame
// 1616)"; a zone's label in quotes.
std::string hitch_parts_text(const HitchCause& cause);
// "F1_24.exe (pid 6508, swap chain 0x22F3D290B80)" or the file name when there is no process.
// The text with control bytes (NUL, ESC, ...) written as \xNN: a name from a capture must not
// reach a terminal as an escape sequence or cut a line.
std::string printable(std::string_view text);
std::string capture_title(const CaptureReport& report);
// The system a sampled log was recorded on, as its tool wrote it (MangoHud's system block,
// Afterburner's GPU line): ("CPU", "AMD Ryzen 7 ..."), ("GPU", ...), ("kernel", ...) in that
// order, those present; and the same as one line "CPU ...; GPU ...; kernel ..." ("" for none).
std::vector<std::pair<std::string, std::string>> system_lines(const CaptureReport& report);
std::string system_line(const CaptureReport& report);
// The one sentence on the time axis every time of the report is on: seconds since the time
// stamp of the stream's first frame (t = 0), and where that lies on the capture's own clock.
std::string time_axis_line(const CaptureReport& report);
// One paragraph of notes a reader must see: sampled logs, the start-up segment, dropped frames.
std::vector<std::string> capture_notes(const CaptureReport& report);
// The notes on a capture's data quality (Capture::data_quality): one for each column and kind
// of bad cell, one for each oddity; among capture_notes, and on standard error where a report
// has no notes (CSV, a file written).
std::vector<std::string> data_quality_notes(const DataQuality& quality);

// The verdict's longest hitches (core/verdict.hpp) as the hitch tables place and name them
// (frame_spans_at): the capture frame, its time on the report's axis in seconds rounded down
// to the millisecond, its length and its cause's summary. One line each for the text reports:
// "11.911 s, frame 2485, 433.5 ms: 433.5 ms of application work in frame 2486".
struct VerdictHitchRow {
    std::int64_t frame = 0;
    double time_s = 0;
    double length_ms = 0;
    std::string cause;
    std::string text;
};
std::vector<VerdictHitchRow> verdict_hitch_rows(const CaptureReport& report,
                                                const CaptureVerdict& verdict);
// The verdict as the HTML report's first section, <section id="..."> (writers/verdict_html.cpp).
std::string verdict_html(const CaptureReport& report, const CaptureVerdict& verdict,
                         std::string_view id);

// The comparison as text cells: figure, A, B, B - A, 95 % interval, verdict; the figures
// compared by value alone (frames, duration, refresh) first, with "-" for the interval.
struct ComparisonRow {
    std::string figure, a, b, difference, interval, verdict;
    Verdict kind = Verdict::no_significant_change;  // for the colour: better, worse, ...
};
std::vector<ComparisonRow> comparison_rows(const Comparison& comparison);
// The comparison's verdict (core/verdict.hpp) as every report opens a comparison with it: one
// sentence (the outcome and the counts it rests on), then the headline figures' rows.
std::string comparison_verdict_text(const Comparison& comparison, const ComparisonVerdict& verdict);
std::vector<ComparisonRow> comparison_headline_rows(const ComparisonVerdict& verdict);
// The timeline compared and why, in one sentence.
std::string comparison_timeline(const Comparison& comparison);
std::string comparison_method(const Comparison& comparison);
// The figures left out with their reasons: "key, key: reason", one line for each reason.
std::vector<std::string> comparison_absent(const Comparison& comparison);

// A string as JSON text, quotes included, escaped by the JSON library (the one JSON escaping of
// the writers): control characters and quotes escaped, bytes that are not UTF-8 become U+FFFD.
std::string json_string(std::string_view text);

// The pieces of the HTML report, for documents that embed a capture's report among other
// sections (the machine diagnosis): the document head with the report's style sheet, and one
// capture's section (summary table, plots, hitch list). The caller closes with </body></html>.
std::string html_escape(std::string_view text);
std::string html_document_start(std::string_view title);
std::string html_capture_section(const CaptureReport& report, std::string_view heading_prefix);

}  // namespace loopscope
