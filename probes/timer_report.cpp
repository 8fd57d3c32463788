// The timer probe's section of the probe output (its JSON is in probe_json.cpp). Numbers are
// printed, never computed, here.
#include "probes/timer_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/markdown_table.hpp"
#include "core/duration.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {

using Align = MarkdownTable::Align;

std::string dur(std::int64_t ns) {
    return format_duration(ns);
}
std::string dur(double ns) {
    return format_duration(std::llround(ns));
}

void add_summary_columns(MarkdownTable& t) {
    for (const char* c : {"min", "p50", "p99", "max"})
        t.add_column(c);
}

void append_summary(std::vector<TableCell>& cells, const SampleSummary& s) {
    cells.emplace_back(dur(s.min_ns));
    cells.emplace_back(dur(s.p50_ns));
    cells.emplace_back(dur(s.p99_ns));
    cells.emplace_back(dur(s.max_ns));
}

}  // namespace

TextSection timers_section(const TimerReport& r) {
    TextSection s;
    s.title = "Timers and waits";
    const PlatformTerms& terms = platform_terms(r.platform);
    // --only may leave any measurement out.
    if (!r.one_shot.empty()) {
        s.add_heading("One-shot sleep overshoot");
        s.add_paragraph(fmt::format(
            "overshoot = actual wait - requested wait on {}; p50/p99 interpolated "
            "at\nh = p*(N-1); histogram: one bar per bucket of a 1-2-5 scale, height by "
            "log(count),\nframed by the lowest and highest bucket edge in use.",
            terms.wait_clock));
        MarkdownTable t;
        t.add_column("method", Align::left);
        t.add_column("request");
        t.add_column("n");
        add_summary_columns(t);
        t.add_column("histogram", Align::left);
        t.add_column("verdict", Align::left);
        for (const auto& row : r.one_shot) {
            std::vector<TableCell> cells{row.method, dur(row.requested_ns),
                                         fmt::format("{}", row.overshoot.count)};
            append_summary(cells, row.overshoot);
            cells.emplace_back(sparkline_bars(row.histogram));
            cells.emplace_back(row.verdict);
            t.add_cells(std::move(cells));
        }
        s.add_table(std::move(t));
    }

    if (!r.periodic.empty()) {
        s.add_heading("Periodic wake-up latency (as cyclictest measures it)");
        s.add_paragraph(fmt::format(
            "latency = actual wake-up - intended absolute deadline, one deadline every {};\n"
            "overflows = wake-ups a whole interval or more late (cyclictest's histogram "
            "overflow).",
            dur(r.periodic.front().interval_ns)));
        MarkdownTable t;
        t.add_column("scheduling", Align::left);
        t.add_column("mlockall", Align::left);
        t.add_column("loops");
        t.add_column("min");
        t.add_column("avg");
        t.add_column("p50");
        t.add_column("p99");
        t.add_column("max");
        t.add_column("overflows");
        t.add_column("histogram", Align::left);
        t.add_column("verdict", Align::left);
        for (const auto& row : r.periodic) {
            if (row.latency.count == 0) {
                t.add_row({row.scheduling, "-", "0", "", "", "", "", "", "", "", row.verdict});
                continue;
            }
            t.add_cells({row.scheduling, row.memory_locked ? "yes" : "no",
                         fmt::format("{}", row.latency.count), dur(row.latency.min_ns),
                         dur(row.latency.mean_ns), dur(row.latency.p50_ns), dur(row.latency.p99_ns),
                         dur(row.latency.max_ns), fmt::format("{}", row.histogram.overflows()),
                         TableCell(sparkline_bars(row.log_histogram)), row.verdict});
        }
        s.add_table(std::move(t));
        for (const auto& row : r.periodic) {
            if (row.latency.count > 0 && !row.note.empty())
                s.add_paragraph(fmt::format("{}: {}", row.scheduling, row.note));
        }
    }

    if (!r.slack.empty() || !r.slack_note.empty())
        s.add_heading(terms.slack_heading);
    if (!r.slack.empty()) {
        MarkdownTable t;
        t.add_column("request");
        t.add_column("slack");
        t.add_column("n");
        add_summary_columns(t);
        t.add_column("histogram", Align::left);
        t.add_column("verdict", Align::left);
        for (const auto& row : r.slack) {
            std::vector<TableCell> cells{dur(row.requested_ns),
                                         dur(row.slack_ns) + (row.current ? " (as found)" : ""),
                                         fmt::format("{}", row.overshoot.count)};
            append_summary(cells, row.overshoot);
            cells.emplace_back(sparkline_bars(row.histogram));
            cells.emplace_back(row.verdict);
            t.add_cells(std::move(cells));
        }
        s.add_table(std::move(t));
    }
    if (!r.slack_note.empty()) {
        TextBlock& note = s.add_paragraph(fmt::format("Timer slack: {}.", r.slack_note));
        // With no table under the heading the terminal has always shown two blank lines here;
        // kept so that the output stays the same.
        if (r.slack.empty())
            note.blank_lines_before = 2;
    }

    if (!r.limiters.empty()) {
        s.add_heading("Frame limiters");
        s.add_paragraph(fmt::format(
            "error = achieved frame period - target period (no work in the frame); CPU = "
            "thread\nCPU time per frame ({}); the bound ({}) is checked "
            "against the\np99 of |error|.",
            terms.cpu_time_clock, dur(r.bound_ns)));
        MarkdownTable t;
        t.add_column("rate");
        t.add_column("limiter", Align::left);
        t.add_column("frames");
        add_summary_columns(t);
        t.add_column("p99 |error|");
        t.add_column("CPU/frame");
        t.add_column("histogram", Align::left);
        t.add_column("verdict", Align::left);
        for (const auto& row : r.limiters) {
            std::vector<TableCell> cells{fmt::format("{} Hz", row.rate_hz), row.limiter,
                                         fmt::format("{}", row.error.count)};
            append_summary(cells, row.error);
            cells.emplace_back(dur(row.abs_error_p99_ns));
            cells.emplace_back(dur(row.cpu.mean_ns));
            cells.emplace_back(sparkline_bars(row.histogram));
            cells.emplace_back(row.verdict);
            t.add_cells(std::move(cells));
        }
        s.add_table(std::move(t));
        s.add_paragraph(
            fmt::format("Recommended limiter (least mean CPU per frame with p99 |error| <= {}):",
                        dur(r.bound_ns)));
        std::vector<std::string> recommendations;
        for (const auto& rec : r.recommendations)
            recommendations.push_back(rec.text);
        // The list follows its paragraph directly.
        s.add_bullets(std::move(recommendations)).blank_lines_before = 0;
    }
    // A blank line before it even when nothing else was measured, as the terminal has always
    // shown it.
    s.add_paragraph(fmt::format("Measured in {:.1f} s{}.", ns_to_s(r.elapsed_ns),
                                r.quick ? " (--quick: few samples, rough percentiles)" : ""))
        .blank_lines_before = 1;
    return s;
}

std::string render_timer_markdown(const TimerReport& r) {
    return render_markdown(timers_section(r));
}

}  // namespace loopscope
