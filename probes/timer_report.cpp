// Markdown and JSON writers for TimerReport. Numbers are printed, never computed, here.
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

void append_summary(std::vector<std::string>& cells, const SampleSummary& s) {
    cells.push_back(dur(s.min_ns));
    cells.push_back(dur(s.p50_ns));
    cells.push_back(dur(s.p99_ns));
    cells.push_back(dur(s.max_ns));
}

nlohmann::json summary_json(const SampleSummary& s) {
    return {{"min", s.min_ns},
            {"p50", s.p50_ns},
            {"p99", s.p99_ns},
            {"max", s.max_ns},
            {"mean", s.mean_ns}};
}

nlohmann::json histogram_json(const Histogram& h) {
    return {{"edges_ns", h.edges_ns}, {"counts", h.counts}};
}

}  // namespace

std::string render_timer_markdown(const TimerReport& r) {
    std::string out;

    // Sections are separated by a blank line; --only may leave any of them out.
    auto gap = [&out] { return out.empty() ? "" : "\n"; };
    if (!r.one_shot.empty()) {
        out +=
            "## One-shot sleep overshoot\n\n"
            "overshoot = actual wait - requested wait on CLOCK_MONOTONIC; p50/p99 interpolated "
            "at\nh = p*(N-1); histogram: one bar per bucket of a 1-2-5 scale, height by "
            "log(count),\nframed by the lowest and highest bucket edge in use.\n\n";
        MarkdownTable t;
        t.add_column("method", Align::left);
        t.add_column("request");
        t.add_column("n");
        add_summary_columns(t);
        t.add_column("histogram", Align::left);
        t.add_column("verdict", Align::left);
        for (const auto& row : r.one_shot) {
            std::vector<std::string> cells{row.method, dur(row.requested_ns),
                                           fmt::format("{}", row.overshoot.count)};
            append_summary(cells, row.overshoot);
            cells.push_back(sparkline(row.histogram));
            cells.push_back(row.verdict);
            t.add_row(std::move(cells));
        }
        out += t.render();
    }

    if (!r.periodic.empty()) {
        out += fmt::format(
            "{}## Periodic wake-up latency (as cyclictest measures it)\n\n"
            "latency = actual wake-up - intended absolute deadline, one deadline every {};\n"
            "overflows = wake-ups a whole interval or more late (cyclictest's histogram "
            "overflow).\n\n",
            gap(), dur(r.periodic.front().interval_ns));
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
            t.add_row({row.scheduling, row.memory_locked ? "yes" : "no",
                       fmt::format("{}", row.latency.count), dur(row.latency.min_ns),
                       dur(row.latency.mean_ns), dur(row.latency.p50_ns), dur(row.latency.p99_ns),
                       dur(row.latency.max_ns), fmt::format("{}", row.histogram.overflows()),
                       sparkline(row.log_histogram), row.verdict});
        }
        out += t.render();
        for (const auto& row : r.periodic) {
            if (row.latency.count > 0 && !row.note.empty()) {
                out += fmt::format("\n{}: {}\n", row.scheduling, row.note);
            }
        }
    }

    if (!r.slack.empty() || !r.slack_note.empty()) {
        out += std::string(gap()) +
               "## Timer slack (nanosleep, this thread's slack as found and at 1 ns)\n\n";
    }
    if (!r.slack.empty()) {
        MarkdownTable t;
        t.add_column("request");
        t.add_column("slack");
        t.add_column("n");
        add_summary_columns(t);
        t.add_column("histogram", Align::left);
        t.add_column("verdict", Align::left);
        for (const auto& row : r.slack) {
            std::vector<std::string> cells{dur(row.requested_ns),
                                           dur(row.slack_ns) + (row.current ? " (as found)" : ""),
                                           fmt::format("{}", row.overshoot.count)};
            append_summary(cells, row.overshoot);
            cells.push_back(sparkline(row.histogram));
            cells.push_back(row.verdict);
            t.add_row(std::move(cells));
        }
        out += t.render();
    }
    if (!r.slack_note.empty())
        out += fmt::format("\nTimer slack: {}.\n", r.slack_note);

    if (!r.limiters.empty()) {
        out += fmt::format(
            "{}## Frame limiters\n\n"
            "error = achieved frame period - target period (no work in the frame); CPU = thread\n"
            "CPU time per frame (CLOCK_THREAD_CPUTIME_ID); the bound ({}) is checked against the\n"
            "p99 of |error|.\n\n",
            gap(), dur(r.bound_ns));
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
            std::vector<std::string> cells{fmt::format("{} Hz", row.rate_hz), row.limiter,
                                           fmt::format("{}", row.error.count)};
            append_summary(cells, row.error);
            cells.push_back(dur(row.abs_error_p99_ns));
            cells.push_back(dur(row.cpu.mean_ns));
            cells.push_back(sparkline(row.histogram));
            cells.push_back(row.verdict);
            t.add_row(std::move(cells));
        }
        out += t.render();
        out += fmt::format(
            "\nRecommended limiter (least mean CPU per frame with p99 |error| <= {}):\n",
            dur(r.bound_ns));
        for (const auto& rec : r.recommendations)
            out += "- " + rec.text + "\n";
    }
    out += fmt::format("\nMeasured in {:.1f} s{}.\n", ns_to_s(r.elapsed_ns),
                       r.quick ? " (--quick: few samples, rough percentiles)" : "");
    return out;
}

nlohmann::json timer_report_to_json(const TimerReport& r) {
    nlohmann::json j;
    j["quick"] = r.quick;
    j["elapsed_ns"] = r.elapsed_ns;
    j["bound_ns"] = r.bound_ns;

    auto& one_shot = j["one_shot"] = nlohmann::json::array();
    for (const auto& row : r.one_shot) {
        one_shot.push_back({{"method", row.method},
                            {"requested_ns", row.requested_ns},
                            {"waited_ns", row.waited_ns},
                            {"samples", row.overshoot.count},
                            {"overshoot_ns", summary_json(row.overshoot)},
                            {"histogram", histogram_json(row.histogram)},
                            {"verdict", row.verdict}});
    }

    auto& periodic = j["periodic"] = nlohmann::json::array();
    for (const auto& row : r.periodic) {
        nlohmann::json p{{"scheduling", row.scheduling},
                         {"realtime", row.realtime},
                         {"mlockall", row.memory_locked},
                         {"ran", row.latency.count > 0},
                         {"interval_ns", row.interval_ns},
                         {"loops", row.latency.count},
                         {"note", row.note},
                         {"verdict", row.verdict}};
        if (row.latency.count > 0) {
            p["latency_ns"] = summary_json(row.latency);
            p["latency_ns"]["avg"] = row.latency.mean_ns;
            p["halves_p99_ns"] = {row.first_half.p99_ns, row.second_half.p99_ns};
            p["histogram"] = histogram_json(row.histogram);
            p["overflows"] = row.histogram.overflows();
            p["missed_periods"] = row.missed_periods;
        }
        periodic.push_back(std::move(p));
    }

    auto& slack = j["timer_slack"] = nlohmann::json::array();
    for (const auto& row : r.slack) {
        slack.push_back({{"method", "nanosleep"},
                         {"requested_ns", row.requested_ns},
                         {"slack_ns", row.slack_ns},
                         {"as_found", row.current},
                         {"samples", row.overshoot.count},
                         {"overshoot_ns", summary_json(row.overshoot)},
                         {"histogram", histogram_json(row.histogram)},
                         {"verdict", row.verdict}});
    }
    j["timer_slack_note"] = r.slack_note;

    auto& limiters = j["limiters"] = nlohmann::json::array();
    for (const auto& row : r.limiters) {
        limiters.push_back({{"limiter", row.limiter},
                            {"rate_hz", row.rate_hz},
                            {"period_ns", row.period_ns},
                            {"frames", row.error.count},
                            {"error_ns", summary_json(row.error)},
                            {"abs_error_p99_ns", row.abs_error_p99_ns},
                            {"cpu_per_frame_ns", summary_json(row.cpu)},
                            {"resyncs", row.resyncs},
                            {"histogram", histogram_json(row.histogram)},
                            {"meets_bound", row.meets_bound},
                            {"verdict", row.verdict}});
    }
    auto& recs = j["recommendations"] = nlohmann::json::array();
    for (const auto& rec : r.recommendations) {
        nlohmann::json halves = nlohmann::json::array();
        for (const auto& h : rec.halves)
            halves.push_back(h ? nlohmann::json(*h) : nlohmann::json());
        recs.push_back({{"rate_hz", rec.rate_hz},
                        {"limiter", rec.limiter ? nlohmann::json(*rec.limiter) : nlohmann::json()},
                        {"text", rec.text},
                        {"halves", rec.halves.empty() ? nlohmann::json() : halves}});
    }
    return j;
}

}  // namespace loopscope
