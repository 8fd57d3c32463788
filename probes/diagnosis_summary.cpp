// The summary that opens a diagnosis: each rule picks from tables the report prints below it, so
// every line can be checked against its table.
#include "probes/diagnosis_summary.hpp"

#include <fmt/format.h>

#include <optional>

#include "common/markdown_table.hpp"
#include "core/duration.hpp"
#include "core/units.hpp"
#include "probes/clock_report.hpp"
#include "probes/platform_terms.hpp"

namespace loopscope {

namespace {

constexpr std::string_view kClocksHeading = "Clock sources";
constexpr std::string_view kOneShotHeading = "One-shot sleep overshoot";
constexpr std::string_view kLimitersHeading = "Frame limiters";
constexpr std::string_view kContextHeading = "Context";
constexpr std::string_view kLoadHeading = "Machine load during the run";

// A clock fit to time frames: it promises to be steady, never went back (one thread, and across
// cores where that was checked) and steps by at most 1 us (median), so frame times of a few ms
// keep three digits.
bool fit_for_frames(const ClockResult& c) {
    return c.claims_steady && c.granularity.backward_steps == 0 &&
           (!c.cross_thread_checked || c.cross_thread_backward_steps == 0) && c.read_cost_ns > 0 &&
           c.granularity_median_ns > 0 && c.granularity_median_ns <= 1000.0;
}

// The first fit clock in the probe's order (the language's and the OS's standard steady clock
// come first), unless another fit one reads at least 1.5 x cheaper: read costs within that are
// the same clock behind another name, or noise.
DiagnosisLine clock_line(const ClockProbeResult& r) {
    const ClockResult* first = nullptr;
    const ClockResult* cheapest = nullptr;
    for (const ClockResult& c : r.clocks) {
        if (!fit_for_frames(c))
            continue;
        if (!first)
            first = &c;
        if (!cheapest || c.read_cost_ns < cheapest->read_cost_ns)
            cheapest = &c;
    }
    const ClockResult* best =
        first && cheapest->read_cost_ns * 1.5 <= first->read_cost_ns ? cheapest : first;
    if (!best) {
        return {"Clock",
                "no clock promised to be steady, stayed steady and stepped by 1 us or less: see "
                "the findings before timing frames",
                std::string(kClocksHeading)};
    }
    std::string across = "not checked across cores";
    if (best->cross_thread_checked)
        across =
            fmt::format("never went back in {} reads across two cores", best->cross_thread_reads);
    std::string text =
        fmt::format("time frames with {}: {} a read, median step {}, {}", best->name,
                    format_ns(best->read_cost_ns), format_ns(best->granularity_median_ns), across);
    if (best != first) {
        text += fmt::format(" ({:.1f}x cheaper to read than {})",
                            first->read_cost_ns / best->read_cost_ns, first->name);
    }
    return {"Clock", std::move(text), std::string(kClocksHeading)};
}

// The one-shot request nearest `target_ns` that was measured.
std::optional<std::int64_t> nearest_request(const TimerReport& r, std::int64_t target_ns) {
    std::optional<std::int64_t> best;
    for (const OneShotRow& row : r.one_shot) {
        if (row.requested_ns <= 0)
            continue;
        const auto distance = [&](std::int64_t v) {
            return v > target_ns ? v - target_ns : target_ns - v;
        };
        if (!best || distance(row.requested_ns) < distance(*best))
            best = row.requested_ns;
    }
    return best;
}

// The sleep with the least p99 overshoot at that request; a p99 of 1 ms or more is too coarse
// to pace frames alone, and the line says to spin the rest.
std::optional<DiagnosisLine> wait_line(const TimerReport& r, std::int64_t target_ns) {
    const auto request = nearest_request(r, target_ns);
    if (!request)
        return std::nullopt;
    const OneShotRow* best = nullptr;
    for (const OneShotRow& row : r.one_shot) {
        if (row.requested_ns == *request && row.overshoot.count > 0 &&
            (!best || row.overshoot.p99_ns < best->overshoot.p99_ns))
            best = &row;
    }
    if (!best)
        return std::nullopt;
    std::string text = fmt::format("{}: {} late at p99, {} at most ({} sleeps)", best->method,
                                   format_duration(best->overshoot.p99_ns),
                                   format_duration(best->overshoot.max_ns), best->overshoot.count);
    if (best->overshoot.p99_ns >= kNsPerMs)
        text += "; too coarse to pace frames alone: sleep short and spin the rest (a limiter)";
    const std::string request_text =
        *request % kNsPerMs == 0   ? fmt::format("{} ms", *request / kNsPerMs)
        : *request % kNsPerUs == 0 ? fmt::format("{} us", *request / kNsPerUs)
                                   : format_duration(*request);
    return DiagnosisLine{fmt::format("Wait {}", request_text), std::move(text),
                         std::string(kOneShotHeading)};
}

// "both runs" for two, "all N runs" for more.
std::string runs_text(std::size_t runs) {
    return runs == 2 ? std::string("both runs") : fmt::format("all {} runs", runs);
}

DiagnosisLine limiters_line(const TimerReport& r) {
    std::string text;
    for (const LimiterRecommendation& rec : r.recommendations) {
        if (!text.empty())
            text += "; ";
        text += fmt::format("{} Hz: {}", rec.rate_hz,
                            rec.limiter ? *rec.limiter : "none met the bound");
        // What the advice rests on: the frames each limiter ran at this rate, over the runs.
        std::int64_t frames = 0;
        for (const LimiterRow& row : r.limiters) {
            if (row.rate_hz == rec.rate_hz)
                frames = std::max(frames, row.error.count);
        }
        std::vector<std::string> basis;
        if (frames > 0)
            basis.push_back(fmt::format("{} frames a limiter", frames));
        if (!rec.repeats.empty()) {
            bool same = true;
            for (const auto& repeat : rec.repeats)
                same = same && repeat == rec.limiter;
            basis.push_back(
                same ? fmt::format("the same in {}", runs_text(rec.repeats.size()))
                     : fmt::format("not stable: the {} runs differed", rec.repeats.size()));
        }
        for (std::size_t i = 0; i < basis.size(); ++i)
            text += (i == 0 ? " (" : ", ") + basis[i] + (i + 1 == basis.size() ? ")" : "");
    }
    return {"Limiter",
            fmt::format("{} (least CPU per frame with p99 |error| <= {})", text,
                        format_duration(r.bound_ns)),
            std::string(kLimitersHeading)};
}

std::optional<DiagnosisLine> slack_line(const ProbeResults& p) {
    if (const auto& res = p.context.timer_resolution; res && res->current_ns > 0) {
        std::string text =
            fmt::format("timer resolution {} when the run began (finest {}, coarsest {})",
                        format_duration(res->current_ns), format_duration(res->max_ns),
                        format_duration(res->min_ns));
        if (res->current_after_ns > 0 && res->current_after_ns != res->current_ns)
            text += fmt::format(", {} at its end", format_duration(res->current_after_ns));
        return DiagnosisLine{"Timer", std::move(text), std::string(kContextHeading)};
    }
    if (!p.timers)
        return std::nullopt;
    const PlatformTerms& terms = platform_terms(p.timers->platform);
    for (const SlackRow& row : p.timers->slack) {
        if (row.current) {
            return DiagnosisLine{
                "Timer",
                fmt::format("timer slack {} in force (this thread's, as found): a sleep of {} "
                            "overshot {} at p99",
                            format_duration(row.slack_ns), format_duration(row.requested_ns),
                            format_duration(row.overshoot.p99_ns)),
                terms.slack_heading};
        }
    }
    if (!p.timers->slack_note.empty())
        return DiagnosisLine{"Timer", p.timers->slack_note, terms.slack_heading};
    return std::nullopt;
}

DiagnosisLine load_line(const ProbeResults& p) {
    const MachineLoad& load = p.load;
    if (!load.measured)
        return {"Machine", "how busy the machine was could not be measured",
                std::string(kLoadHeading)};
    const LoadBusy busy = machine_load_busy(load, p.context.logical_cpus);
    std::string figures = fmt::format("other processes {:.0f} % of the CPU time, steal {:.0f} %",
                                      load.other_share * 100.0, load.steal_share * 100.0);
    if (load.after.load_1m >= 0)
        figures += fmt::format(", load average {:.2f} on {} CPUs", load.after.load_1m,
                               p.context.logical_cpus);
    return {"Machine",
            busy.any() ? fmt::format("busy during the run ({}): the timings above may be worse "
                                     "than on a quiet machine; run again when it is quiet",
                                     figures)
                       : fmt::format("quiet during the run ({})", figures),
            std::string(kLoadHeading)};
}

}  // namespace

std::vector<DiagnosisLine> diagnosis_summary(const ProbeResults& probes,
                                             std::span<const ScenarioVerdict> scenarios,
                                             std::string_view loops_heading) {
    std::vector<DiagnosisLine> lines;
    if (probes.clocks)
        lines.push_back(clock_line(*probes.clocks));
    if (probes.timers) {
        for (const std::int64_t target : {kNsPerMs, 100 * kNsPerUs}) {
            if (auto line = wait_line(*probes.timers, target);
                line && (lines.empty() || lines.back().topic != line->topic))
                lines.push_back(std::move(*line));
        }
        if (!probes.timers->recommendations.empty())
            lines.push_back(limiters_line(*probes.timers));
    }
    if (auto line = slack_line(probes))
        lines.push_back(std::move(*line));
    lines.push_back(load_line(probes));
    if (!scenarios.empty()) {
        std::string text;
        for (const ScenarioVerdict& s : scenarios)
            text += fmt::format("{}{}: {}", text.empty() ? "" : "; ", s.scenario, s.verdict);
        lines.push_back({"Loops", std::move(text), std::string(loops_heading)});
    }
    return lines;
}

TextSection diagnosis_summary_section(std::span<const DiagnosisLine> lines) {
    TextSection section;
    section.title = "What this means for a game on this machine";
    section.add_heading(section.title);
    std::vector<std::string> items;
    for (const DiagnosisLine& l : lines) {
        items.push_back(fmt::format("**{}**: {} ([{}](#{}))", l.topic, l.text, l.section,
                                    heading_anchor(l.section)));
    }
    section.add_bullets(std::move(items));
    return section;
}

std::string diagnosis_summary_markdown(std::span<const DiagnosisLine> lines) {
    return render_markdown(diagnosis_summary_section(lines));
}

}  // namespace loopscope
