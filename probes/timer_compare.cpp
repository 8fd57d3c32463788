// Side-by-side comparison of two timer results (see timer_compare.hpp). Reads only what the
// probe document carries (TimerReport read back by probe_json), so results from another machine
// or OS compare the same way.
#include "probes/timer_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include "core/duration.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {

// Rows keyed by what they measured, in A's order, then B's rows that A lacks.
template <class Row>
struct Paired {
    std::string item;
    const Row* a = nullptr;
    const Row* b = nullptr;
};

template <class Row>
std::vector<Paired<Row>> pair_rows(const std::vector<Row>& a, const std::vector<Row>& b,
                                   const std::function<std::string(const Row&)>& item_of) {
    std::vector<Paired<Row>> out;
    std::map<std::string, std::size_t> index;
    auto add = [&](const std::vector<Row>& rows, bool is_a) {
        for (const auto& row : rows) {
            const std::string item = item_of(row);
            auto [it, fresh] = index.emplace(item, out.size());
            if (fresh)
                out.push_back({item, nullptr, nullptr});
            (is_a ? out[it->second].a : out[it->second].b) = &row;
        }
    };
    add(a, true);
    add(b, false);
    return out;
}

template <class Row>
CompareCell lateness_cell(const Paired<Row>& p, const std::function<std::int64_t(const Row&)>& get,
                          std::int64_t floor_ns) {
    return compare_lateness(p.a ? std::optional(get(*p.a)) : std::nullopt,
                            p.b ? std::optional(get(*p.b)) : std::nullopt, floor_ns);
}

template <class Row>
CompareCell text_cell(const Paired<Row>& p, const std::function<std::string(const Row&)>& get) {
    return {p.a ? get(*p.a) : "-", p.b ? get(*p.b) : "-", false, {}};
}

// A row in one document only: the first cell says so (a method or limiter the other OS lacks).
template <class Row>
void mark_one_sided(const Paired<Row>& p, CompareRow& row) {
    if ((p.a && p.b) || row.cells.empty())
        return;
    row.cells[0].matters = true;
    row.cells[0].why = fmt::format("in {} only", p.a ? "A" : "B");
}

constexpr std::int64_t kNoiseFloorNs = 100 * kNsPerUs;

std::int64_t rounded(double ns) {
    return std::llround(ns);
}

}  // namespace

CompareCell compare_lateness(std::optional<std::int64_t> a_ns, std::optional<std::int64_t> b_ns,
                             std::int64_t floor_ns) {
    CompareCell c;
    c.a = a_ns ? format_duration(*a_ns) : "-";
    c.b = b_ns ? format_duration(*b_ns) : "-";
    if (!a_ns || !b_ns)
        return c;
    const std::int64_t x = *a_ns, y = *b_ns;
    const std::int64_t lo = std::min(x, y), hi = std::max(x, y);
    if (hi - lo >= floor_ns && hi >= 2 * std::max<std::int64_t>(lo, 1)) {
        c.matters = true;
        c.why = fmt::format(
            "{:.1f}x later in {}",
            static_cast<double>(hi) / static_cast<double>(std::max<std::int64_t>(lo, 1)),
            y > x ? "B" : "A");
    }
    return c;
}

std::string periodic_variant(const PeriodicRow& row) {
    const auto comma = row.scheduling.find(", ");
    return comma == std::string::npos ? std::string() : row.scheduling.substr(comma + 2);
}

std::vector<CompareRow> compare_timer_one_shot(const TimerReport& a, const TimerReport& b) {
    std::vector<CompareRow> rows;
    for (const auto& p : pair_rows<OneShotRow>(a.one_shot, b.one_shot, [](const OneShotRow& r) {
             return fmt::format("{} {}", r.method, format_duration(r.requested_ns));
         })) {
        CompareRow row{p.item, {}};
        row.cells.push_back(lateness_cell<OneShotRow>(
            p, [](const OneShotRow& r) { return r.overshoot.p50_ns; }, kNoiseFloorNs));
        row.cells.push_back(lateness_cell<OneShotRow>(
            p, [](const OneShotRow& r) { return r.overshoot.p99_ns; }, kNoiseFloorNs));
        row.cells.push_back(lateness_cell<OneShotRow>(
            p, [](const OneShotRow& r) { return r.overshoot.max_ns; }, kNoiseFloorNs));
        // The maximum is one sample: show it, but a single outlier is not a finding.
        row.cells[2].matters = false;
        row.cells[2].why.clear();
        mark_one_sided(p, row);
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<CompareRow> compare_timer_periodic(const TimerReport& a, const TimerReport& b) {
    std::vector<CompareRow> rows;
    for (const auto& p : pair_rows<PeriodicRow>(a.periodic, b.periodic, [](const PeriodicRow& r) {
             // Windows' other ways to sleep to a deadline are rows of their own.
             const std::string variant = periodic_variant(r);
             return std::string(r.realtime ? "real-time" : "default scheduling") +
                    (variant.empty() ? "" : ", " + variant);
         })) {
        // A real-time row that was refused has no figures: it compares as absent.
        const bool ran_a = p.a && p.a->latency.count > 0;
        const bool ran_b = p.b && p.b->latency.count > 0;
        const Paired<PeriodicRow> ran{p.item, ran_a ? p.a : nullptr, ran_b ? p.b : nullptr};
        CompareRow row{p.item, {}};
        row.cells.push_back(
            text_cell<PeriodicRow>(p, [](const PeriodicRow& r) { return r.scheduling; }));
        row.cells.push_back(lateness_cell<PeriodicRow>(
            ran, [](const PeriodicRow& r) { return rounded(r.latency.mean_ns); }, 20 * kNsPerUs));
        row.cells.push_back(lateness_cell<PeriodicRow>(
            ran, [](const PeriodicRow& r) { return r.latency.p99_ns; }, kNoiseFloorNs));
        row.cells.push_back(lateness_cell<PeriodicRow>(
            ran, [](const PeriodicRow& r) { return r.latency.max_ns; }, kNsPerMs));
        row.cells[3].matters = false;
        row.cells[3].why.clear();
        CompareCell overflows = text_cell<PeriodicRow>(
            ran, [](const PeriodicRow& r) { return fmt::format("{}", r.histogram.overflows()); });
        if (ran.a && ran.b && (overflows.a == "0") != (overflows.b == "0")) {
            overflows.matters = true;
            overflows.why =
                fmt::format("whole periods missed in {} only", overflows.a == "0" ? "B" : "A");
        }
        row.cells.push_back(overflows);
        if (ran_a != ran_b && p.a && p.b) {
            row.cells[0].matters = true;
            row.cells[0].why = fmt::format("ran in {} only", ran_a ? "A" : "B");
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<CompareRow> compare_timer_slack(const TimerReport& a, const TimerReport& b) {
    std::vector<CompareRow> rows;
    for (const auto& p : pair_rows<SlackRow>(a.slack, b.slack, [](const SlackRow& r) {
             return fmt::format("{}, {}", format_duration(r.requested_ns),
                                r.current ? "slack as found" : "test slack");
         })) {
        CompareRow row{p.item, {}};
        row.cells.push_back(
            text_cell<SlackRow>(p, [](const SlackRow& r) { return format_duration(r.slack_ns); }));
        if (p.a && p.b && row.cells[0].a != row.cells[0].b) {
            row.cells[0].matters = true;
            row.cells[0].why = "timer slack differs";
        }
        row.cells.push_back(lateness_cell<SlackRow>(
            p, [](const SlackRow& r) { return r.overshoot.p50_ns; }, kNoiseFloorNs));
        row.cells.push_back(lateness_cell<SlackRow>(
            p, [](const SlackRow& r) { return r.overshoot.p99_ns; }, kNoiseFloorNs));
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<CompareRow> compare_timer_limiters(const TimerReport& a, const TimerReport& b) {
    std::vector<CompareRow> rows;
    for (const auto& p : pair_rows<LimiterRow>(a.limiters, b.limiters, [](const LimiterRow& r) {
             return fmt::format("{} Hz {}", r.rate_hz, r.limiter);
         })) {
        CompareRow row{p.item, {}};
        row.cells.push_back(lateness_cell<LimiterRow>(
            p, [](const LimiterRow& r) { return r.abs_error_p99_ns; }, kNoiseFloorNs));
        CompareCell bound = text_cell<LimiterRow>(
            p, [](const LimiterRow& r) { return std::string(r.meets_bound ? "yes" : "no"); });
        if (p.a && p.b && bound.a != bound.b) {
            bound.matters = true;
            bound.why = fmt::format("within the bound in {} only", bound.a == "yes" ? "A" : "B");
        }
        row.cells.push_back(bound);
        row.cells.push_back(text_cell<LimiterRow>(
            p, [](const LimiterRow& r) { return format_duration(rounded(r.cpu.mean_ns)); }));
        mark_one_sided(p, row);
        rows.push_back(std::move(row));
    }
    for (const auto& p : pair_rows<LimiterRecommendation>(
             a.recommendations, b.recommendations, [](const LimiterRecommendation& r) {
                 return fmt::format("{} Hz recommended", r.rate_hz);
             })) {
        CompareCell rec = text_cell<LimiterRecommendation>(p, [](const LimiterRecommendation& r) {
            return r.limiter.value_or("none within the bound");
        });
        if (p.a && p.b && rec.a != rec.b) {
            rec.matters = true;
            rec.why = "a different limiter is recommended";
        }
        // The recommendation spans the row's three figures in the first cell.
        rows.push_back(
            {p.item, {rec, CompareCell{"", "", false, {}}, CompareCell{"", "", false, {}}}});
    }
    return rows;
}

namespace {

bool has_timers(const ProbeDocument& d) {
    return d.timers.has_value();
}

// compare_sections() entries: each compares one table of the two documents' timer results.
template <std::vector<CompareRow> (*Compare)(const TimerReport&, const TimerReport&)>
std::vector<CompareRow> on_timers(const ProbeDocument& a, const ProbeDocument& b) {
    return Compare(*a.timers, *b.timers);
}

}  // namespace

std::vector<SectionSpec> timer_compare_sections() {
    return {
        {"timers",
         "Timers: one-shot sleep overshoot",
         {"p50", "p99", "max"},
         has_timers,
         on_timers<compare_timer_one_shot>},
        {"timers",
         "Timers: periodic wake-up latency",
         {"scheduling", "avg", "p99", "max", "overflows"},
         has_timers,
         on_timers<compare_timer_periodic>},
        {"timers",
         "Timers: timer slack (nanosleep overshoot)",
         {"slack", "p50", "p99"},
         has_timers,
         on_timers<compare_timer_slack>},
        {"timers",
         "Timers: frame limiters",
         {"p99 |error|", "within bound", "CPU/frame"},
         has_timers,
         on_timers<compare_timer_limiters>},
    };
}

}  // namespace loopscope
