// Side-by-side comparison of two timer results (see timer_compare.hpp). Reads only the JSON the
// timer report writes, so results from another machine or OS compare the same way.
#include "probes/timer_compare.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <map>

#include "core/duration.hpp"
#include "core/units.hpp"
#include "probes/probe_json.hpp"

namespace loopscope {

namespace {

using nlohmann::json;

const json& member(const json& obj, const char* key, const std::string& path,
                   const std::string& where) {
    if (!obj.is_object() || !obj.contains(key))
        throw_schema_error(path, where + "." + key, "a value");
    return obj.at(key);
}

void need_int(const json& obj, const char* key, const std::string& path, const std::string& where) {
    if (!member(obj, key, path, where).is_number_integer())
        throw_schema_error(path, where + "." + key, "an integer");
}

void need_number(const json& obj, const char* key, const std::string& path,
                 const std::string& where) {
    if (!member(obj, key, path, where).is_number())
        throw_schema_error(path, where + "." + key, "a number");
}

void need_string(const json& obj, const char* key, const std::string& path,
                 const std::string& where) {
    if (!member(obj, key, path, where).is_string())
        throw_schema_error(path, where + "." + key, "a string");
}

void need_bool(const json& obj, const char* key, const std::string& path,
               const std::string& where) {
    if (!member(obj, key, path, where).is_boolean())
        throw_schema_error(path, where + "." + key, "true or false");
}

void need_summary(const json& obj, const char* key, const std::string& path,
                  const std::string& where) {
    const json& s = member(obj, key, path, where);
    for (const char* k : {"min", "p50", "p99", "max"})
        need_int(s, k, path, where + "." + key);
    need_number(s, "mean", path, where + "." + key);
}

void for_rows(const json& timers, const char* key, const std::string& path,
              const std::function<void(const json&, const std::string&)>& fn) {
    if (!timers.contains(key))
        return;
    const json& rows = timers.at(key);
    if (!rows.is_array())
        throw_schema_error(path, fmt::format("timers.{}", key), "an array");
    for (std::size_t i = 0; i < rows.size(); ++i)
        fn(rows[i], fmt::format("timers.{}[{}]", key, i));
}

const json& empty_array() {
    static const json a = json::array();
    return a;
}

const json& rows_of(const json& timers, const char* key) {
    return timers.is_object() && timers.contains(key) ? timers.at(key) : empty_array();
}

// Rows keyed by key_of, in A's order, then B's rows that A lacks.
struct Paired {
    std::string item;
    const json* a = nullptr;
    const json* b = nullptr;
};

std::vector<Paired> pair_rows(const json& a, const json& b, const char* key,
                              const std::function<std::string(const json&)>& item_of) {
    std::vector<Paired> out;
    std::map<std::string, std::size_t> index;
    auto add = [&](const json& rows, bool is_a) {
        for (const auto& row : rows) {
            const std::string item = item_of(row);
            auto [it, fresh] = index.emplace(item, out.size());
            if (fresh)
                out.push_back({item, nullptr, nullptr});
            (is_a ? out[it->second].a : out[it->second].b) = &row;
        }
    };
    add(rows_of(a, key), true);
    add(rows_of(b, key), false);
    return out;
}

std::int64_t ns_at(const json& row, const char* summary, const char* figure) {
    const json& v = row.at(summary).at(figure);
    return v.is_number_integer() ? v.get<std::int64_t>() : std::llround(v.get<double>());
}

// A lateness figure in both documents. It matters when the later one is at least twice the
// other and at least `floor_ns` more: below that, run-to-run noise on a busy machine.
CompareCell lateness_cell(const Paired& p, const std::function<std::int64_t(const json&)>& get,
                          std::int64_t floor_ns) {
    CompareCell c;
    c.a = p.a ? format_duration(get(*p.a)) : "-";
    c.b = p.b ? format_duration(get(*p.b)) : "-";
    if (!p.a || !p.b)
        return c;
    const std::int64_t x = get(*p.a), y = get(*p.b);
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

CompareCell text_cell(const Paired& p, const std::function<std::string(const json&)>& get) {
    return {p.a ? get(*p.a) : "-", p.b ? get(*p.b) : "-", false, {}};
}

// A row in one document only: the first cell says so (a method or limiter the other OS lacks).
void mark_one_sided(const Paired& p, CompareRow& row) {
    if ((p.a && p.b) || row.cells.empty())
        return;
    row.cells[0].matters = true;
    row.cells[0].why = fmt::format("in {} only", p.a ? "A" : "B");
}

constexpr std::int64_t kNoiseFloorNs = 100 * kNsPerUs;

}  // namespace

void validate_timers_section(const json& timers, const std::string& path) {
    if (!timers.is_object())
        throw_schema_error(path, "timers", "an object");
    for_rows(timers, "one_shot", path, [&](const json& r, const std::string& w) {
        need_string(r, "method", path, w);
        need_int(r, "requested_ns", path, w);
        need_summary(r, "overshoot_ns", path, w);
    });
    for_rows(timers, "periodic", path, [&](const json& r, const std::string& w) {
        need_string(r, "scheduling", path, w);
        need_bool(r, "realtime", path, w);
        if (r.contains("latency_ns")) {
            need_summary(r, "latency_ns", path, w);
            need_number(r.at("latency_ns"), "avg", path, w + ".latency_ns");
            need_int(r, "overflows", path, w);
        }
    });
    for_rows(timers, "timer_slack", path, [&](const json& r, const std::string& w) {
        need_int(r, "requested_ns", path, w);
        need_int(r, "slack_ns", path, w);
        need_bool(r, "as_found", path, w);
        need_summary(r, "overshoot_ns", path, w);
    });
    for_rows(timers, "limiters", path, [&](const json& r, const std::string& w) {
        need_string(r, "limiter", path, w);
        need_int(r, "rate_hz", path, w);
        need_int(r, "abs_error_p99_ns", path, w);
        need_bool(r, "meets_bound", path, w);
        need_summary(r, "error_ns", path, w);
        need_summary(r, "cpu_per_frame_ns", path, w);
    });
    for_rows(timers, "recommendations", path, [&](const json& r, const std::string& w) {
        need_int(r, "rate_hz", path, w);
        const json& l = member(r, "limiter", path, w);
        if (!l.is_string() && !l.is_null())
            throw_schema_error(path, w + ".limiter", "a string or null");
    });
}

std::vector<CompareRow> compare_timer_one_shot(const json& a, const json& b) {
    std::vector<CompareRow> rows;
    for (const auto& p : pair_rows(a, b, "one_shot", [](const json& r) {
             return fmt::format("{} {}", r.at("method").get<std::string>(),
                                format_duration(r.at("requested_ns").get<std::int64_t>()));
         })) {
        CompareRow row{p.item, {}};
        for (const char* figure : {"p50", "p99", "max"}) {
            row.cells.push_back(lateness_cell(
                p, [figure](const json& r) { return ns_at(r, "overshoot_ns", figure); },
                kNoiseFloorNs));
        }
        // The maximum is one sample: show it, but a single outlier is not a finding.
        row.cells[2].matters = false;
        row.cells[2].why.clear();
        mark_one_sided(p, row);
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<CompareRow> compare_timer_periodic(const json& a, const json& b) {
    std::vector<CompareRow> rows;
    for (const auto& p : pair_rows(a, b, "periodic", [](const json& r) {
             return std::string(r.at("realtime").get<bool>() ? "real-time" : "default scheduling");
         })) {
        // A real-time row that was refused has no figures: it compares as absent.
        const bool ran_a = p.a && p.a->contains("latency_ns");
        const bool ran_b = p.b && p.b->contains("latency_ns");
        const Paired ran{p.item, ran_a ? p.a : nullptr, ran_b ? p.b : nullptr};
        CompareRow row{p.item, {}};
        row.cells.push_back(
            text_cell(p, [](const json& r) { return r.at("scheduling").get<std::string>(); }));
        row.cells.push_back(lateness_cell(
            ran, [](const json& r) { return ns_at(r, "latency_ns", "avg"); }, 20 * kNsPerUs));
        row.cells.push_back(lateness_cell(
            ran, [](const json& r) { return ns_at(r, "latency_ns", "p99"); }, kNoiseFloorNs));
        row.cells.push_back(lateness_cell(
            ran, [](const json& r) { return ns_at(r, "latency_ns", "max"); }, kNsPerMs));
        row.cells[3].matters = false;
        row.cells[3].why.clear();
        CompareCell overflows = text_cell(ran, [](const json& r) {
            return fmt::format("{}", r.at("overflows").get<std::int64_t>());
        });
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

std::vector<CompareRow> compare_timer_slack(const json& a, const json& b) {
    std::vector<CompareRow> rows;
    for (const auto& p : pair_rows(a, b, "timer_slack", [](const json& r) {
             return fmt::format("{}, {}", format_duration(r.at("requested_ns").get<std::int64_t>()),
                                r.at("as_found").get<bool>() ? "slack as found" : "test slack");
         })) {
        CompareRow row{p.item, {}};
        row.cells.push_back(text_cell(p, [](const json& r) {
            return format_duration(r.at("slack_ns").get<std::int64_t>());
        }));
        if (p.a && p.b && row.cells[0].a != row.cells[0].b) {
            row.cells[0].matters = true;
            row.cells[0].why = "timer slack differs";
        }
        for (const char* figure : {"p50", "p99"}) {
            row.cells.push_back(lateness_cell(
                p, [figure](const json& r) { return ns_at(r, "overshoot_ns", figure); },
                kNoiseFloorNs));
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<CompareRow> compare_timer_limiters(const json& a, const json& b) {
    std::vector<CompareRow> rows;
    for (const auto& p : pair_rows(a, b, "limiters", [](const json& r) {
             return fmt::format("{} Hz {}", r.at("rate_hz").get<int>(),
                                r.at("limiter").get<std::string>());
         })) {
        CompareRow row{p.item, {}};
        row.cells.push_back(lateness_cell(
            p, [](const json& r) { return r.at("abs_error_p99_ns").get<std::int64_t>(); },
            kNoiseFloorNs));
        CompareCell bound = text_cell(p, [](const json& r) {
            return std::string(r.at("meets_bound").get<bool>() ? "yes" : "no");
        });
        if (p.a && p.b && bound.a != bound.b) {
            bound.matters = true;
            bound.why = fmt::format("within the bound in {} only", bound.a == "yes" ? "A" : "B");
        }
        row.cells.push_back(bound);
        row.cells.push_back(text_cell(p, [](const json& r) {
            return format_duration(std::llround(r.at("cpu_per_frame_ns").at("mean").get<double>()));
        }));
        mark_one_sided(p, row);
        rows.push_back(std::move(row));
    }
    for (const auto& p : pair_rows(a, b, "recommendations", [](const json& r) {
             return fmt::format("{} Hz recommended", r.at("rate_hz").get<int>());
         })) {
        auto name = [](const json& r) {
            const json& l = r.at("limiter");
            return l.is_string() ? l.get<std::string>() : std::string("none within the bound");
        };
        CompareCell rec = text_cell(p, name);
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
void no_check(const json&, const std::string&) {}
}  // namespace

std::vector<SectionSpec> timer_compare_sections() {
    return {
        {"timers",
         "Timers: one-shot sleep overshoot",
         {"p50", "p99", "max"},
         validate_timers_section,
         compare_timer_one_shot},
        {"timers",
         "Timers: periodic wake-up latency",
         {"scheduling", "avg", "p99", "max", "overflows"},
         no_check,
         compare_timer_periodic},
        {"timers",
         "Timers: timer slack (nanosleep overshoot)",
         {"slack", "p50", "p99"},
         no_check,
         compare_timer_slack},
        {"timers",
         "Timers: frame limiters",
         {"p99 |error|", "within bound", "CPU/frame"},
         no_check,
         compare_timer_limiters},
    };
}

}  // namespace loopscope
