// The terminal summary: the verdict first, then the figures grouped by section with their
// definitions, the worst hitches, and for two captures the comparison. Colour only when asked (a
// terminal without NO_COLOR); the text is the same either way.
#include <fmt/format.h>

#include <algorithm>

#include "core/units.hpp"
#include "writers/frame_spans.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

constexpr std::size_t kHitchesShown = 10;

class TerminalWriter final : public ReportWriter {
  public:
    explicit TerminalWriter(const WriterOptions& options) : colour_(options.colour) {}

    void write(const Report& report, OutputFile& out) const override {
        std::string text;
        // A comparison's answer first: its verdict, then each capture's report, then every
        // compared figure.
        if (report.comparison)
            write_comparison_verdict(*report.comparison, text);
        for (std::size_t i = 0; i < report.captures.size(); ++i) {
            if (i > 0 || report.comparison)
                text += "\n";
            if (report.captures.size() == 2)
                text += heading(i == 0 ? "A" : "B") + " ";
            write_capture(report.captures[i], text);
        }
        if (report.comparison)
            write_comparison(*report.comparison, text);
        out.write(text);
    }

  private:
    std::string heading(std::string_view s) const {
        return colour_ ? fmt::format("\033[1m{}\033[0m", s) : std::string(s);
    }
    std::string warn(std::string_view s) const {
        return colour_ ? fmt::format("\033[33m{}\033[0m", s) : std::string(s);
    }
    std::string dim(std::string_view s) const {
        return colour_ ? fmt::format("\033[2m{}\033[0m", s) : std::string(s);
    }

    void write_capture(const CaptureReport& r, std::string& text) const {
        const CaptureSource& src = r.capture->source;
        text += heading(capture_title(r)) + "\n";
        text += fmt::format("{} ({}), {} from {}, capture frames {}-{}\n", src.file, src.format,
                            timeline_label(r), r.frame_time_column, r.range.begin, r.range.end - 1);
        write_verdict(r, text);
        text.append("\n").append(dim(time_axis_line(r))).append("\n");
        if (const std::string system = system_line(r); !system.empty())
            text += "system: " + system + "\n";
        for (const std::string& note : capture_notes(r))
            text += warn("note: " + note) + "\n";
        const auto rows = summary_rows(r);
        std::size_t label_width = 0;
        std::size_t value_width = 0;
        for (const SummaryRow& row : rows) {
            label_width = std::max(label_width, row.label.size());
            // Long values (lists) would push every definition far right: they overflow instead.
            if (row.value.size() <= 24)
                value_width = std::max(value_width, row.value.size());
        }
        std::string section;
        for (const SummaryRow& row : rows) {
            if (row.section != section) {
                section = row.section;
                text += fmt::format("\n{}\n", heading(section));
            }
            text += fmt::format("  {:<{}}  {:>{}}  {}\n", row.label, label_width, row.value,
                                value_width, dim(row.definition));
        }
        write_lows_table(r, text);
        const auto& hitches = r.stats.hitches.hitches;
        if (r.capture->per_frame && !hitches.empty()) {
            // The longest hitches first: those are the ones to look at.
            std::vector<const Hitch*> worst;
            for (const Hitch& h : hitches)
                worst.push_back(&h);
            std::stable_sort(worst.begin(), worst.end(), [](const Hitch* a, const Hitch* b) {
                return a->frame_ns > b->frame_ns;
            });
            if (worst.size() > kHitchesShown)
                worst.resize(kHitchesShown);
            text += fmt::format("\n{}\n", heading(fmt::format("Hitches (longest {} of {})",
                                                              worst.size(), hitches.size())));
            text += fmt::format("  {:>8}  {:>10}  {:>10}  {:>10}  {:>10}  {}\n", "frame", "time s",
                                "length ms", "before ms", "after ms", "why (parts)");
            std::vector<std::size_t> at;
            for (const Hitch* h : worst)
                at.push_back(h->index);
            const std::vector<FrameSpan> spans = frame_spans_at(r, at);
            for (std::size_t k = 0; k < worst.size(); ++k) {
                const Hitch* h = worst[k];
                const FrameSpan& long_frame = spans[k];
                const HitchCause cause = report_hitch_cause(r, *h);
                text += fmt::format(
                    "  {:>8}  {:>10.3f}  {:>10}  {:>10.3f}  {:>10}  {}\n", long_frame.frame,
                    seconds_down_to_ms(long_frame.begin_ns),
                    warn(fmt::format("{:.3f}", ns_to_ms(h->frame_ns))), ns_to_ms(h->previous_ns),
                    h->next_ns >= 0 ? fmt::format("{:.3f}", ns_to_ms(h->next_ns)) : "-",
                    printable(cause.summary));
                text += fmt::format("  {:>8}  {}\n", "", "parts: " + hitch_parts_text(cause));
            }
        }
    }

    // The answer first: the verdict's lines within the first screen (docs/reports.md, "The
    // verdict"), each with the evidence it rests on; the longest hitches under their line.
    void write_verdict(const CaptureReport& r, std::string& text) const {
        const CaptureVerdict v = capture_verdict(r);
        std::size_t width = 0;
        for (const VerdictLine& line : v.lines)
            width = std::max(width, line.label.size());
        text += heading("Verdict") + "\n";
        for (const VerdictLine& line : v.lines) {
            const std::string answer =
                line.key == "smoothness" && v.smoothness == Smoothness::not_smooth ? warn(line.text)
                                                                                   : line.text;
            text += fmt::format("  {:<{}}  {}  {}\n", line.label, width, answer,
                                dim(fmt::format("({})", line.evidence)));
            if (line.key != "hitches")
                continue;
            for (const VerdictHitchRow& row : verdict_hitch_rows(r, v))
                text += fmt::format("  {:<{}}    {}\n", "", width, row.text);
        }
    }

    // Each tool's 1 % and 0.1 % low side by side, with its rule.
    void write_lows_table(const CaptureReport& r, std::string& text) const {
        const std::vector<LowsTableRow> rows = lows_table_rows(r);
        if (rows.empty())
            return;
        std::size_t width = 4;
        for (const LowsTableRow& row : rows)
            width = std::max(width, row.tool.size());
        text.append("\n").append(heading(kLowsTableTitle)).append("\n");
        text += fmt::format("  {:<{}}  {:>9}  {:>9}  {}\n", "tool", width, "1% low", "0.1% low",
                            dim("rule (x = 1% or 0.1%)"));
        for (const LowsTableRow& row : rows) {
            text += fmt::format("  {:<{}}  {:>9}  {:>9}  {}\n", row.tool, width, row.low1,
                                row.low01, dim(row.rule));
        }
    }

    void write_comparison_verdict(const Comparison& c, std::string& text) const {
        const ComparisonVerdict v = comparison_verdict(c);
        text += heading("Comparison verdict (B - A)") + "\n";
        text += comparison_verdict_text(c, v) + "\n";
        if (!v.headline.empty())
            write_comparison_rows(comparison_headline_rows(v), text);
    }

    void write_comparison_rows(const std::vector<ComparisonRow>& rows, std::string& text) const {
        // The name column fits the longest name (displayed_low1_avg_fps), at least 16 wide.
        std::size_t width = 16;
        for (const ComparisonRow& row : rows)
            width = std::max(width, row.figure.size());
        text += fmt::format("  {:<{}} {:>12} {:>12} {:>12}  {:<26} {}\n", "figure", width, "A", "B",
                            "B - A", "95 % interval", "verdict");
        for (const ComparisonRow& row : rows) {
            text += fmt::format("  {:<{}} {:>12} {:>12} {:>12}  {:<26} {}\n", row.figure, width,
                                row.a, row.b, row.difference, row.interval, verdict(row));
        }
    }

    void write_comparison(const Comparison& c, std::string& text) const {
        text += fmt::format("\n{}\n", heading("Comparison (B - A)"));
        text += comparison_timeline(c) + "\n";
        text += dim(comparison_method(c)) + "\n";
        write_comparison_rows(comparison_rows(c), text);
        const std::vector<std::string> absent = comparison_absent(c);
        if (!absent.empty()) {
            text += "  Not compared:\n";
            for (const std::string& line : absent)
                text += "    " + dim(line) + "\n";
        }
    }

    // Better in green, worse in red, a change without a direction in yellow.
    std::string verdict(const ComparisonRow& row) const {
        if (!colour_)
            return row.verdict;
        switch (row.kind) {
            case Verdict::better:
                return fmt::format("\033[32m{}\033[0m", row.verdict);
            case Verdict::worse:
                return fmt::format("\033[31m{}\033[0m", row.verdict);
            case Verdict::changed:
                return warn(row.verdict);
            default:
                return row.verdict;
        }
    }

    bool colour_;
};

}  // namespace

std::unique_ptr<ReportWriter> make_terminal_writer(const WriterOptions& options) {
    return std::make_unique<TerminalWriter>(options);
}

}  // namespace loopscope
