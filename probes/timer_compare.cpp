// Side-by-side comparison of two timer results (see timer_compare.hpp). Reads only the JSON the
// timer report writes, so results from another machine or OS compare the same way.
#include "probes/timer_compare.hpp"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <optional>

#include "common/duration.hpp"
#include "common/errors.hpp"
#include "common/markdown_table.hpp"

namespace loopscope {

namespace {

using nlohmann::json;
using Align = MarkdownTable::Align;

[[noreturn]] void bad(const std::string& path, const std::string& where, const std::string& what) {
    throw InputError(path, fmt::format("{}: expected {}", where, what));
}

const json& member(const json& obj, const char* key, const std::string& path,
                   const std::string& where) {
    if (!obj.is_object() || !obj.contains(key))
        bad(path, where + "." + key, "a value");
    return obj.at(key);
}

void need_int(const json& obj, const char* key, const std::string& path, const std::string& where) {
    if (!member(obj, key, path, where).is_number_integer()) {
        bad(path, where + "." + key, "an integer");
    }
}

void need_number(const json& obj, const char* key, const std::string& path,
                 const std::string& where) {
    if (!member(obj, key, path, where).is_number())
        bad(path, where + "." + key, "a number");
}

void need_string(const json& obj, const char* key, const std::string& path,
                 const std::string& where) {
    if (!member(obj, key, path, where).is_string())
        bad(path, where + "." + key, "a string");
}

void need_summary(const json& obj, const char* key, const std::string& path,
                  const std::string& where) {
    const json& s = member(obj, key, path, where);
    for (const char* k : {"min", "p50", "p99", "max"})
        need_int(s, k, path, where + "." + key);
    need_number(s, "mean", path, where + "." + key);
}

// Each row of an optional array section, with its JSON path for messages.
void for_rows(const json& timers, const char* key, const std::string& path,
              const std::function<void(const json&, const std::string&)>& fn) {
    if (!timers.contains(key))
        return;
    const json& rows = timers.at(key);
    if (!rows.is_array())
        bad(path, fmt::format("timers.{}", key), "an array");
    for (std::size_t i = 0; i < rows.size(); ++i)
        fn(rows[i], fmt::format("timers.{}[{}]", key, i));
}

std::string dur(const json& v) {
    return format_duration(v.get<std::int64_t>());
}

std::string diff(const json& a, const json& b) {
    const std::int64_t d = b.get<std::int64_t>() - a.get<std::int64_t>();
    return (d > 0 ? "+" : "") + format_duration(d);
}

// Rows keyed by `key_of`, in the order A lists them, then B's rows that A lacks.
struct Paired {
    std::string key;
    const json* a = nullptr;
    const json* b = nullptr;
};

std::vector<Paired> pair_rows(const json& a, const json& b, const char* section,
                              const std::function<std::string(const json&)>& key_of) {
    std::vector<Paired> out;
    std::map<std::string, std::size_t> index;
    auto add = [&](const json& rows, bool is_a) {
        if (!rows.contains(section))
            return;
        for (const auto& row : rows.at(section)) {
            const std::string k = key_of(row);
            auto it = index.find(k);
            if (it == index.end()) {
                index.emplace(k, out.size());
                out.push_back({k, nullptr, nullptr});
                it = index.find(k);
            }
            (is_a ? out[it->second].a : out[it->second].b) = &row;
        }
    };
    add(a, true);
    add(b, false);
    return out;
}

// Cells of one figure for A, B and B - A; "-" where a side lacks the row.
void figure_cells(std::vector<std::string>& cells, const json* a, const json* b,
                  const std::function<const json&(const json&)>& get) {
    cells.push_back(a ? dur(get(*a)) : "-");
    cells.push_back(b ? dur(get(*b)) : "-");
    cells.push_back(a && b ? diff(get(*a), get(*b)) : "-");
}

void figure_columns(MarkdownTable& t, const std::string& figure) {
    t.add_column(figure + " A");
    t.add_column(figure + " B");
    t.add_column("B - A");
}

}  // namespace

void check_timers_section(const json& timers, const std::string& path) {
    if (!timers.is_object())
        bad(path, "timers", "an object");
    for_rows(timers, "one_shot", path, [&](const json& r, const std::string& w) {
        need_string(r, "method", path, w);
        need_int(r, "requested_ns", path, w);
        need_summary(r, "overshoot_ns", path, w);
    });
    for_rows(timers, "periodic", path, [&](const json& r, const std::string& w) {
        need_string(r, "scheduling", path, w);
        if (!member(r, "realtime", path, w).is_boolean())
            bad(path, w + ".realtime", "true or false");
        if (r.contains("latency_ns")) {
            need_summary(r, "latency_ns", path, w);
            need_number(r.at("latency_ns"), "avg", path, w + ".latency_ns");
            need_int(r, "overflows", path, w);
        }
    });
    for_rows(timers, "timer_slack", path, [&](const json& r, const std::string& w) {
        need_int(r, "requested_ns", path, w);
        need_int(r, "slack_ns", path, w);
        if (!member(r, "as_found", path, w).is_boolean())
            bad(path, w + ".as_found", "true or false");
        need_summary(r, "overshoot_ns", path, w);
    });
    for_rows(timers, "limiters", path, [&](const json& r, const std::string& w) {
        need_string(r, "limiter", path, w);
        need_int(r, "rate_hz", path, w);
        need_int(r, "abs_error_p99_ns", path, w);
        need_summary(r, "error_ns", path, w);
        need_summary(r, "cpu_per_frame_ns", path, w);
    });
    for_rows(timers, "recommendations", path, [&](const json& r, const std::string& w) {
        need_int(r, "rate_hz", path, w);
        const json& l = member(r, "limiter", path, w);
        if (!l.is_string() && !l.is_null())
            bad(path, w + ".limiter", "a string or null");
    });
}

std::string compare_timers_markdown(const json& a, const std::string& a_label, const json& b,
                                    const std::string& b_label) {
    std::string out;
    const std::string legend = fmt::format("A = {}, B = {}.\n\n", a_label, b_label);

    auto one_shot = pair_rows(a, b, "one_shot", [](const json& r) {
        return fmt::format("{}\x1f{}", r.at("method").get<std::string>(),
                           r.at("requested_ns").get<std::int64_t>());
    });
    if (!one_shot.empty()) {
        out += "## One-shot sleep overshoot (A vs B)\n\n" + legend;
        MarkdownTable t;
        t.add_column("method", Align::left);
        t.add_column("request");
        figure_columns(t, "p50");
        figure_columns(t, "p99");
        for (const auto& p : one_shot) {
            const json& any = p.a ? *p.a : *p.b;
            std::vector<std::string> cells{any.at("method").get<std::string>(),
                                           dur(any.at("requested_ns"))};
            figure_cells(cells, p.a, p.b, [](const json& r) -> const json& {
                return r.at("overshoot_ns").at("p50");
            });
            figure_cells(cells, p.a, p.b, [](const json& r) -> const json& {
                return r.at("overshoot_ns").at("p99");
            });
            t.add_row(std::move(cells));
        }
        out += t.render();
    }

    // Periodic rows pair by kind of scheduling; a row that did not run has no latency.
    auto periodic = pair_rows(a, b, "periodic", [](const json& r) {
        return std::string(r.at("realtime").get<bool>() ? "real-time" : "default");
    });
    if (!periodic.empty()) {
        out += "\n## Periodic wake-up latency (A vs B)\n\n" + legend;
        MarkdownTable t;
        t.add_column("scheduling", Align::left);
        t.add_column("avg A");
        t.add_column("avg B");
        figure_columns(t, "p99");
        figure_columns(t, "max");
        auto ran = [](const json* r) { return r && r->contains("latency_ns") ? r : nullptr; };
        auto avg = [](const json* r) {
            return r ? format_duration(static_cast<std::int64_t>(
                           r->at("latency_ns").at("avg").get<double>() + 0.5))
                     : std::string("-");
        };
        for (const auto& p : periodic) {
            const json* ra = ran(p.a);
            const json* rb = ran(p.b);
            std::vector<std::string> cells{
                fmt::format("{} / {}", p.a ? p.a->at("scheduling").get<std::string>() : "-",
                            p.b ? p.b->at("scheduling").get<std::string>() : "-"),
                avg(ra), avg(rb)};
            figure_cells(cells, ra, rb,
                         [](const json& r) -> const json& { return r.at("latency_ns").at("p99"); });
            figure_cells(cells, ra, rb,
                         [](const json& r) -> const json& { return r.at("latency_ns").at("max"); });
            t.add_row(std::move(cells));
        }
        out += t.render();
    }

    auto slack = pair_rows(a, b, "timer_slack", [](const json& r) {
        return fmt::format("{}\x1f{}", r.at("requested_ns").get<std::int64_t>(),
                           r.at("as_found").get<bool>());
    });
    if (!slack.empty()) {
        out += "\n## Timer slack (A vs B)\n\n" + legend;
        MarkdownTable t;
        t.add_column("request");
        t.add_column("slack A");
        t.add_column("slack B");
        figure_columns(t, "p50");
        figure_columns(t, "p99");
        for (const auto& p : slack) {
            const json& any = p.a ? *p.a : *p.b;
            std::vector<std::string> cells{dur(any.at("requested_ns")),
                                           p.a ? dur(p.a->at("slack_ns")) : "-",
                                           p.b ? dur(p.b->at("slack_ns")) : "-"};
            figure_cells(cells, p.a, p.b, [](const json& r) -> const json& {
                return r.at("overshoot_ns").at("p50");
            });
            figure_cells(cells, p.a, p.b, [](const json& r) -> const json& {
                return r.at("overshoot_ns").at("p99");
            });
            t.add_row(std::move(cells));
        }
        out += t.render();
    }

    auto limiters = pair_rows(a, b, "limiters", [](const json& r) {
        return fmt::format("{}\x1f{}", r.at("rate_hz").get<int>(),
                           r.at("limiter").get<std::string>());
    });
    if (!limiters.empty()) {
        out += "\n## Frame limiters (A vs B)\n\n" + legend;
        MarkdownTable t;
        t.add_column("rate");
        t.add_column("limiter", Align::left);
        figure_columns(t, "p99 |error|");
        t.add_column("CPU/frame A");
        t.add_column("CPU/frame B");
        auto cpu = [](const json* r) {
            return r ? format_duration(static_cast<std::int64_t>(
                           r->at("cpu_per_frame_ns").at("mean").get<double>() + 0.5))
                     : std::string("-");
        };
        for (const auto& p : limiters) {
            const json& any = p.a ? *p.a : *p.b;
            std::vector<std::string> cells{fmt::format("{} Hz", any.at("rate_hz").get<int>()),
                                           any.at("limiter").get<std::string>()};
            figure_cells(cells, p.a, p.b,
                         [](const json& r) -> const json& { return r.at("abs_error_p99_ns"); });
            cells.push_back(cpu(p.a));
            cells.push_back(cpu(p.b));
            t.add_row(std::move(cells));
        }
        out += t.render();
    }

    auto recs = pair_rows(a, b, "recommendations", [](const json& r) {
        return fmt::format("{}", r.at("rate_hz").get<int>());
    });
    if (!recs.empty()) {
        out += "\nRecommended limiter:\n";
        auto name = [](const json* r) {
            if (!r)
                return std::string("-");
            const json& l = r->at("limiter");
            return l.is_string() ? l.get<std::string>() : std::string("none within the bound");
        };
        for (const auto& p : recs) {
            const json& any = p.a ? *p.a : *p.b;
            out += fmt::format("- {} Hz: A {}, B {}\n", any.at("rate_hz").get<int>(), name(p.a),
                               name(p.b));
        }
    }
    return out;
}

}  // namespace loopscope
