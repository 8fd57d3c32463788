// Comparing two probe documents section by section; see probe_compare.hpp.
#include "probes/probe_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/markdown_table.hpp"
#include "core/duration.hpp"
#include "probes/clock_report.hpp"
#include "probes/probe_json.hpp"
#include "probes/timer_compare.hpp"

namespace loopscope {

using nlohmann::json;

namespace {

const json kNull = nullptr;

const json& field(const json& object, const char* key) {
    if (!object.is_object())
        return kNull;
    const auto it = object.find(key);
    return it == object.end() ? kNull : *it;
}

std::string scalar_text(const json& v) {
    if (v.is_null())
        return "unknown";
    if (v.is_string())
        return v.get<std::string>().empty() ? "unknown" : v.get<std::string>();
    if (v.is_boolean())
        return v.get<bool>() ? "yes" : "no";
    if (v.is_number_integer())
        return fmt::format("{}", v.get<std::int64_t>());
    if (v.is_number())
        return fmt::format("{:g}", v.get<double>());
    if (v.is_array()) {
        std::string out;
        for (const auto& item : v)
            out += (out.empty() ? "" : ", ") + scalar_text(item);
        return out.empty() ? "none" : out;
    }
    return v.dump();
}

std::optional<double> number(const json& v) {
    if (v.is_number())
        return v.get<double>();
    return std::nullopt;
}

CompareCell cell(std::string a, std::string b) {
    CompareCell c;
    c.a = std::move(a);
    c.b = std::move(b);
    return c;
}

std::string ns_text(const json& v) {
    const auto n = number(v);
    return n ? format_ns(*n) : "none";
}

// A figure that may be dearer or cheaper: matters past 25% and 5 ns (a coarse clock's 3-6 ns
// varies that much from run to run on one machine).
CompareCell cost_cell(const json& a, const json& b) {
    CompareCell c = cell(ns_text(a), ns_text(b));
    const auto x = number(a), y = number(b);
    if (x && y && *x > 0 && *y > 0) {
        const double ratio = *y / *x;
        if ((ratio >= 1.25 || ratio <= 0.8) && std::abs(*y - *x) >= 5.0) {
            c.matters = true;
            c.why = ratio > 1 ? fmt::format("{:.1f}x dearer in B", ratio)
                              : fmt::format("{:.1f}x cheaper in B", 1 / ratio);
        }
    }
    return c;
}

// A step size (resolution, granularity): matters when it changes by half or more, or one side
// has none.
CompareCell step_cell(const json& a, const json& b, double factor, const char* what) {
    CompareCell c = cell(ns_text(a), ns_text(b));
    const auto x = number(a), y = number(b);
    if (x.has_value() != y.has_value()) {
        c.matters = true;
        c.why = fmt::format("{} known in {} only", what, x ? "A" : "B");
    } else if (x && y && *x > 0 && *y > 0) {
        const double ratio = *y / *x;
        if ((ratio >= factor || ratio <= 1 / factor) && std::abs(*y - *x) >= 1.0) {
            c.matters = true;
            c.why = fmt::format("{} {:.3g}x {} in B", what, ratio >= 1 ? ratio : 1 / ratio,
                                ratio >= 1 ? "coarser" : "finer");
        }
    }
    return c;
}

CompareCell share_cell(const json& a, const json& b) {
    const auto x = number(a), y = number(b);
    CompareCell c = cell(x ? fmt::format("{:.1f}%", *x * 100) : "-",
                         y ? fmt::format("{:.1f}%", *y * 100) : "-");
    if (x && y && std::abs(*y - *x) >= 0.10) {
        c.matters = true;
        c.why = fmt::format("zero deltas {:+.0f} points in B", (*y - *x) * 100);
    }
    return c;
}

// Backward steps: what matters is whether a clock that promises to be steady has any (the TSC
// read with RDTSC goes back across cores in some runs and not in others).
CompareCell backward_cell(const json& a, const json& b, const char* where, bool steady) {
    const auto x = number(a), y = number(b);
    CompareCell c =
        cell(x ? fmt::format("{:.0f}", *x) : "n/a", y ? fmt::format("{:.0f}", *y) : "n/a");
    if (steady && x && y && ((*x > 0) != (*y > 0))) {
        c.matters = true;
        c.why = fmt::format("goes back {} in {} only", where, *x > 0 ? "A" : "B");
    }
    return c;
}

CompareCell drift_cell(const json& ca, const json& cb) {
    const auto x = number(field(ca, "drift_ppm")), y = number(field(cb, "drift_ppm"));
    const double ua = number(field(ca, "drift_uncertainty_ppm")).value_or(0.0);
    const double ub = number(field(cb, "drift_uncertainty_ppm")).value_or(0.0);
    CompareCell c =
        cell(x ? fmt::format("{:+.2f}", *x) : "-", y ? fmt::format("{:+.2f}", *y) : "-");
    // Past 10 ppm (about 1 ms a minute and a half) and past what the two runs can tell apart.
    if (x && y && std::abs(*y - *x) > std::max(10.0, ua + ub)) {
        c.matters = true;
        c.why = fmt::format("drift differs by {:.1f} ppm", *y - *x);
    }
    return c;
}

const json& cross_backward(const json& clock) {
    return field(field(clock, "cross_thread"), "backward_steps");
}

// Steps (positive deltas) a document saw; -1 when it does not say.
double steps_seen(const json& clock) {
    const auto deltas = number(field(clock, "deltas"));
    const auto zero = number(field(clock, "zero_delta_share"));
    const auto back = number(field(clock, "backward_steps"));
    if (!deltas || !zero || !back)
        return -1;
    return *deltas - std::round(*zero * *deltas) - *back;
}

std::vector<CompareCell> clock_cells(const json& a, const json& b) {
    const bool steady = field(a, "claims_steady") == true || field(b, "claims_steady") == true;
    // A smallest step is only compared where it is not the lone outlier of a sub-microsecond
    // clock (a TSC pair one tick apart) and where both runs saw enough steps (a short run of a
    // coarse clock may see a handful, each spanning several ticks).
    CompareCell min_step = step_cell(field(a, "granularity_min_ns"), field(b, "granularity_min_ns"),
                                     2.0, "smallest step");
    const double fine_ns = std::max(number(field(a, "granularity_min_ns")).value_or(0.0),
                                    number(field(b, "granularity_min_ns")).value_or(0.0));
    const double sa = steps_seen(a), sb = steps_seen(b);
    if (min_step.matters && (fine_ns < 1000.0 || (sa >= 0 && sa < 20) || (sb >= 0 && sb < 20))) {
        min_step.matters = false;
        min_step.why.clear();
    }
    return {step_cell(field(a, "resolution_ns"), field(b, "resolution_ns"), 1.5, "resolution"),
            cost_cell(field(a, "read_cost_ns"), field(b, "read_cost_ns")),
            // The smallest step, not the median: on a busy machine a preempted reader sees a
            // coarse clock take several ticks at once, which moves the median from run to run.
            min_step, share_cell(field(a, "zero_delta_share"), field(b, "zero_delta_share")),
            backward_cell(field(a, "backward_steps"), field(b, "backward_steps"), "in one thread",
                          steady),
            backward_cell(cross_backward(a), cross_backward(b), "across cores", steady),
            drift_cell(a, b)};
}

void check_number(const json& object, const char* key, bool nullable, const std::string& where,
                  const std::string& path) {
    const auto it = object.find(key);
    const std::string at = fmt::format("{}.{}", where, key);
    if (it == object.end())
        throw_schema_error(path, at, nullable ? "a number or null" : "a number");
    if (it->is_number() || (nullable && it->is_null()))
        return;
    throw_schema_error(path, at, nullable ? "a number or null" : "a number");
}

}  // namespace

void validate_context_section(const json& context, const std::string& path) {
    if (!context.is_object())
        throw_schema_error(path, "context", "an object");
}

void validate_clocks_section(const json& clocks, const std::string& path) {
    if (!clocks.is_array())
        throw_schema_error(path, "clocks", "an array of clock objects");
    for (std::size_t i = 0; i < clocks.size(); ++i) {
        const json& c = clocks[i];
        const std::string where = fmt::format("clocks[{}]", i);
        if (!c.is_object())
            throw_schema_error(path, where, "a clock object");
        const auto name = c.find("name");
        if (name == c.end() || !name->is_string() || name->get<std::string>().empty()) {
            throw_schema_error(path, where + ".name", "a clock name");
        }
        check_number(c, "resolution_ns", true, where, path);
        check_number(c, "read_cost_ns", false, where, path);
        check_number(c, "granularity_min_ns", true, where, path);
        check_number(c, "granularity_median_ns", true, where, path);
        check_number(c, "zero_delta_share", false, where, path);
        check_number(c, "backward_steps", false, where, path);
        check_number(c, "drift_ppm", false, where, path);
        const auto h = c.find("histogram");
        if (h == c.end() || !h->is_array()) {
            throw_schema_error(path, where + ".histogram", "an array of buckets");
        }
        const auto cross = c.find("cross_thread");
        if (cross != c.end() && !cross->is_null()) {
            if (!cross->is_object())
                throw_schema_error(path, where + ".cross_thread", "an object or null");
            check_number(*cross, "backward_steps", false, where + ".cross_thread", path);
        }
    }
}

std::vector<CompareRow> compare_context(const json& a, const json& b) {
    struct Key {
        const char* key;
        const char* label;
        bool matters;  // a difference here changes how clocks and timers behave
    };
    static const Key keys[] = {
        {"os", "OS", false},
        {"kernel", "kernel", false},
        {"cpu_model", "CPU", false},
        {"logical_cpus", "logical CPUs", false},
        {"clocksource", "clocksource", true},
        {"kernel_tick_ns", "kernel tick", true},
        {"timer_slack_ns", "timer slack", true},
        {"hypervisor", "hypervisor", true},
        {"invariant_tsc", "invariant TSC", true},
        {"build_type", "build", true},
        {"sanitizers", "sanitizers", true},
    };
    std::vector<CompareRow> rows;
    for (const auto& k : keys) {
        const json& x = field(a, k.key);
        const json& y = field(b, k.key);
        if (x.is_null() && y.is_null() && !a.contains(k.key) && !b.contains(k.key))
            continue;
        CompareCell c;
        const bool as_duration = std::string(k.key).ends_with("_ns");
        c.a =
            as_duration && x.is_number() ? format_duration(x.get<std::int64_t>()) : scalar_text(x);
        c.b =
            as_duration && y.is_number() ? format_duration(y.get<std::int64_t>()) : scalar_text(y);
        if (std::string(k.key) == "hypervisor") {
            if (x.is_null())
                c.a = "none";
            if (y.is_null())
                c.b = "none";
        }
        if (k.matters && x != y) {
            c.matters = true;
            c.why = fmt::format("{} differs", k.label);
        }
        rows.push_back({k.label, {c}});
    }
    return rows;
}

std::vector<CompareRow> compare_clocks(const json& a, const json& b) {
    std::vector<CompareRow> rows;
    std::map<std::string, const json*> in_b;
    for (const auto& c : b)
        in_b[c.at("name").get<std::string>()] = &c;
    std::map<std::string, bool> seen;
    const std::size_t figures = 7;
    for (const auto& ca : a) {
        const std::string name = ca.at("name").get<std::string>();
        seen[name] = true;
        const auto it = in_b.find(name);
        if (it == in_b.end()) {
            CompareRow r{name, clock_cells(ca, json::object())};
            for (auto& c : r.cells) {
                c.b = "-";
                c.matters = false;
                c.why.clear();
            }
            r.cells[0].matters = true;
            r.cells[0].why = "this clock is in A only";
            rows.push_back(r);
            continue;
        }
        rows.push_back({name, clock_cells(ca, *it->second)});
    }
    for (const auto& cb : b) {
        const std::string name = cb.at("name").get<std::string>();
        if (seen.count(name))
            continue;
        CompareRow r{name, clock_cells(json::object(), cb)};
        for (auto& c : r.cells) {
            c.a = "-";
            c.matters = false;
            c.why.clear();
        }
        r.cells[0].matters = true;
        r.cells[0].why = "this clock is in B only";
        rows.push_back(r);
    }
    for (auto& r : rows)
        r.cells.resize(figures);
    return rows;
}

const std::vector<SectionSpec>& compare_sections() {
    static const std::vector<SectionSpec> sections = [] {
        std::vector<SectionSpec> all = {
            {"context", "Context", {"value"}, validate_context_section, compare_context},
            {"clocks",
             "Clock sources",
             {"resolution", "read cost", "min step", "zero deltas", "back (1 thread)",
              "back (2 cores)", "drift ppm"},
             validate_clocks_section,
             compare_clocks},
        };
        for (auto& s : timer_compare_sections())
            all.push_back(std::move(s));
        return all;
    }();
    return sections;
}

json load_probe_for_compare(const std::string& path) {
    json doc = read_probe_document(path);
    for (const auto& s : compare_sections()) {
        const auto it = doc.find(s.key);
        if (it != doc.end())
            s.validate(*it, path);
    }
    return doc;
}

std::vector<CompareSection> compare_documents(const json& a, const json& b) {
    std::vector<CompareSection> out;
    for (const auto& s : compare_sections()) {
        CompareSection section{s.key, s.title, s.figures, {}, {}};
        const bool in_a = a.contains(s.key), in_b = b.contains(s.key);
        if (!in_a && !in_b)
            continue;
        if (!in_a || !in_b) {
            section.skipped = fmt::format("only {} has this section", in_a ? "A" : "B");
        } else {
            section.rows = s.compare(a.at(s.key), b.at(s.key));
        }
        out.push_back(std::move(section));
    }
    return out;
}

int differences_that_matter(const std::vector<CompareSection>& sections) {
    int n = 0;
    for (const auto& s : sections) {
        for (const auto& r : s.rows) {
            for (const auto& c : r.cells)
                n += c.matters ? 1 : 0;
        }
    }
    return n;
}

std::string comparison_markdown(const std::vector<CompareSection>& sections,
                                const std::string& name_a, const std::string& name_b) {
    std::string out = fmt::format(
        "A: {}\nB: {}\n\nCells show A / B (one value when both agree); "
        "differences that matter are in bold.\n",
        name_a, name_b);
    std::vector<std::string> matters;
    for (const auto& s : sections) {
        out += fmt::format("\n## {}\n\n", s.title);
        if (!s.skipped.empty()) {
            out += fmt::format("Not compared: {}.\n", s.skipped);
            continue;
        }
        MarkdownTable t;
        t.add_column(s.key == "context" ? "" : "name", MarkdownTable::Align::left);
        for (const auto& f : s.figures)
            t.add_column(
                f, s.key == "context" ? MarkdownTable::Align::left : MarkdownTable::Align::right);
        for (const auto& r : s.rows) {
            std::vector<std::string> cells{r.item};
            for (std::size_t i = 0; i < r.cells.size(); ++i) {
                const auto& c = r.cells[i];
                std::string text = c.a == c.b ? c.a : c.a + " / " + c.b;
                if (c.matters) {
                    text = "**" + text + "**";
                    matters.push_back(fmt::format("{}, {}, {}: {} -> {}: {}", s.title, r.item,
                                                  i < s.figures.size() ? s.figures[i] : "", c.a,
                                                  c.b, c.why));
                }
                cells.push_back(text);
            }
            t.add_row(cells);
        }
        out += t.render();
    }
    out += fmt::format("\n## Differences that matter ({})\n\n", matters.size());
    if (matters.empty())
        out += "None.\n";
    for (const auto& m : matters)
        out += "- " + m + "\n";
    return out;
}

}  // namespace loopscope
