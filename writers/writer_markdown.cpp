// The Markdown report: the same figures as the terminal summary, as tables that paste into a
// bug report or a pull request unchanged.
#include <fmt/format.h>

#include "common/markdown_table.hpp"
#include "core/units.hpp"
#include "writers/frame_spans.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

MarkdownTable comparison_table(const std::vector<ComparisonRow>& rows) {
    MarkdownTable t;
    t.add_column("figure", MarkdownTable::Align::left);
    t.add_column("A");
    t.add_column("B");
    t.add_column("B - A");
    t.add_column("95 % interval");
    t.add_column("verdict", MarkdownTable::Align::left);
    for (const ComparisonRow& row : rows)
        t.add_row({row.figure, row.a, row.b, row.difference, row.interval, row.verdict});
    return t;
}

// A comparison's answer first: its verdict and the headline figures.
void write_comparison_verdict(const Comparison& c, std::string& text) {
    const ComparisonVerdict v = comparison_verdict(c);
    text += "\n## Comparison verdict (B - A)\n\n" + comparison_verdict_text(c, v) + "\n\n";
    if (!v.headline.empty())
        text += comparison_table(comparison_headline_rows(v)).render();
}

// The answer first: the verdict as a table of its lines with their evidence, the longest
// hitches as a list under it.
void write_verdict(const CaptureReport& r, std::string& text) {
    const CaptureVerdict v = capture_verdict(r);
    MarkdownTable t;
    t.add_column("verdict", MarkdownTable::Align::left);
    t.add_column("answer", MarkdownTable::Align::left);
    t.add_column("evidence", MarkdownTable::Align::left);
    for (const VerdictLine& line : v.lines) {
        // Bold for the answer itself, italics for a line the capture cannot give.
        const char* mark = !line.available ? "*" : (line.key == "smoothness" ? "**" : "");
        const std::string answer = fmt::format("{0}{1}{0}", mark, line.text);
        t.add_row({line.label, answer, line.evidence});
    }
    text += '\n';
    text += t.render();
    const std::vector<VerdictHitchRow> rows = verdict_hitch_rows(r, v);
    if (!rows.empty()) {
        text += "\nThe longest hitches:\n\n";
        for (const VerdictHitchRow& row : rows)
            text.append("- ").append(row.text).append("\n");
    }
}

class MarkdownWriter final : public ReportWriter {
  public:
    void write(const Report& report, OutputFile& out) const override {
        std::string text = "# loopscope frame-pacing report\n";
        if (report.comparison)
            write_comparison_verdict(*report.comparison, text);
        for (std::size_t i = 0; i < report.captures.size(); ++i) {
            const CaptureReport& r = report.captures[i];
            const std::string prefix =
                report.captures.size() == 2 ? (i == 0 ? "A: " : "B: ") : std::string();
            text += fmt::format("\n## {}{}\n\n", prefix, capture_title(r));
            text += fmt::format("`{}` ({}), {} from `{}`, capture frames {}-{}.\n",
                                r.capture->source.file, r.capture->source.format, timeline_label(r),
                                r.frame_time_column, r.range.begin, r.range.end - 1);
            write_verdict(r, text);
            text += fmt::format("\nThe {}.\n", time_axis_line(r));
            if (const std::string system = system_line(r); !system.empty())
                text += fmt::format("System: {}.\n", system);
            for (const std::string& note : capture_notes(r))
                text += "\n> " + note + "\n";
            MarkdownTable t;
            t.add_column("section", MarkdownTable::Align::left);
            t.add_column("figure", MarkdownTable::Align::left);
            t.add_column("value");
            t.add_column("definition", MarkdownTable::Align::left);
            for (const SummaryRow& row : summary_rows(r)) {
                t.add_row({row.section, row.label, row.value, row.definition});
            }
            text += '\n';
            text += t.render();
            if (const auto lows = lows_table_rows(r); !lows.empty()) {
                MarkdownTable w;
                w.add_column("tool", MarkdownTable::Align::left);
                w.add_column("1% low");
                w.add_column("0.1% low");
                w.add_column("rule (x = 1% or 0.1%)", MarkdownTable::Align::left);
                for (const LowsTableRow& row : lows)
                    w.add_row({row.tool, row.low1, row.low01, row.rule});
                text += fmt::format("\n### {}\n\n", kLowsTableTitle) + w.render();
            }
            const auto& hitches = r.stats.hitches.hitches;
            if (r.capture->per_frame && !hitches.empty()) {
                MarkdownTable h;
                for (const char* c :
                     {"frame", "time (s)", "length (ms)", "before (ms)", "after (ms)"}) {
                    h.add_column(c);
                }
                h.add_column("why", MarkdownTable::Align::left);
                h.add_column("parts", MarkdownTable::Align::left);
                std::vector<std::size_t> at;
                for (const Hitch& x : hitches)
                    at.push_back(x.index);
                const std::vector<FrameSpan> spans = frame_spans_at(r, at);
                for (std::size_t k = 0; k < hitches.size(); ++k) {
                    const Hitch& x = hitches[k];
                    const FrameSpan& long_frame = spans[k];
                    std::vector<std::string> row = {
                        fmt::format("{}", long_frame.frame),
                        fmt::format("{:.3f}", seconds_down_to_ms(long_frame.begin_ns)),
                        fmt::format("{:.3f}", ns_to_ms(x.frame_ns)),
                        fmt::format("{:.3f}", ns_to_ms(x.previous_ns)),
                        x.next_ns >= 0 ? fmt::format("{:.3f}", ns_to_ms(x.next_ns)) : "-"};
                    const HitchCause cause = report_hitch_cause(r, x);
                    row.push_back(printable(cause.summary));
                    row.push_back(hitch_parts_text(cause));
                    h.add_row(row);
                }
                text += fmt::format("\n### Hitches ({})\n\n", hitches.size()) + h.render();
            }
        }
        if (report.comparison) {
            text += "\n## Comparison\n\n" + comparison_timeline(*report.comparison) + " " +
                    comparison_method(*report.comparison) + "\n\n";
            text += comparison_table(comparison_rows(*report.comparison)).render();
            const std::vector<std::string> absent = comparison_absent(*report.comparison);
            if (!absent.empty()) {
                text += "\nNot compared:\n\n";
                for (const std::string& line : absent)
                    text += "- " + line + "\n";
            }
        }
        out.write(text);
    }
};

}  // namespace

std::unique_ptr<ReportWriter> make_markdown_writer() {
    return std::make_unique<MarkdownWriter>();
}

}  // namespace loopscope
