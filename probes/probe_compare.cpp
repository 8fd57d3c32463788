// Comparing two probe documents section by section, on their structs; see probe_compare.hpp.
#include "probes/probe_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include "common/markdown_table.hpp"
#include "core/duration.hpp"
#include "probes/clock_report.hpp"
#include "probes/machine_load.hpp"
#include "probes/timer_compare.hpp"

namespace loopscope {

namespace {

using Number = std::optional<double>;

// The document's figures of a clock; all unknown for a clock the document does not have.
struct ClockFigures {
    bool steady = false;
    Number resolution_ns, read_cost_ns, min_step_ns, zero_delta_share, backward_steps,
        cross_backward_steps, drift_ppm;
    double drift_uncertainty_ppm = 0;
    double steps_seen = -1;  // positive deltas seen; -1 when unknown
    std::string cross_read;  // how the cross-core reads were taken ("" = the clock's own read)
    Number reordered;        // backward steps of the plain read across cores (TSC only)
    Number reordered_reads;
    Number jumps_watched;  // multi-tick steps of a coarse clock while watched
    Number steps_watched;  // its steps seen while watched
};

ClockFigures figures_of(const ClockResult* c) {
    ClockFigures f;
    if (!c)
        return f;
    const GranularityStats& g = c->granularity;
    f.steady = c->claims_steady;
    if (c->resolution_ns >= 0)
        f.resolution_ns = c->resolution_ns;
    f.read_cost_ns = c->read_cost_ns;
    if (g.min_ticks > 0)
        f.min_step_ns = c->granularity_min_ns;
    f.zero_delta_share = g.zero_delta_share;
    f.backward_steps = static_cast<double>(g.backward_steps);
    if (c->cross_thread_checked)
        f.cross_backward_steps = static_cast<double>(c->cross_thread_backward_steps);
    f.drift_ppm = c->drift_ppm;
    f.drift_uncertainty_ppm = c->drift_uncertainty_ppm;
    f.steps_seen = static_cast<double>(g.deltas - g.zero_deltas - g.backward_steps);
    f.cross_read = c->cross_thread_read;
    if (c->cross_thread_unordered_backward_steps >= 0) {
        f.reordered = static_cast<double>(c->cross_thread_unordered_backward_steps);
        f.reordered_reads = static_cast<double>(c->cross_thread_unordered_reads);
    }
    if (c->steps_watched) {
        f.jumps_watched = static_cast<double>(c->steps.multi_tick_watched);
        f.steps_watched = static_cast<double>(c->steps.steps);
    }
    return f;
}

CompareCell cell(std::string a, std::string b) {
    CompareCell c;
    c.a = std::move(a);
    c.b = std::move(b);
    return c;
}

std::string ns_text(Number v) {
    return v ? format_ns(*v) : "none";
}

// A figure that may be dearer or cheaper: matters past 25% and 5 ns (a coarse clock's 3-6 ns
// varies that much from run to run on one machine).
CompareCell cost_cell(Number x, Number y) {
    CompareCell c = cell(ns_text(x), ns_text(y));
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
CompareCell step_cell(Number x, Number y, double factor, const char* what) {
    CompareCell c = cell(ns_text(x), ns_text(y));
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

CompareCell share_cell(Number x, Number y) {
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
CompareCell backward_cell(Number x, Number y, const char* where, bool steady) {
    CompareCell c =
        cell(x ? fmt::format("{:.0f}", *x) : "n/a", y ? fmt::format("{:.0f}", *y) : "n/a");
    if (steady && x && y && ((*x > 0) != (*y > 0))) {
        c.matters = true;
        c.why = fmt::format("goes back {} in {} only", where, *x > 0 ? "A" : "B");
    }
    return c;
}

// The cross-core check of both runs, or a cell saying they were taken with different reads: a
// plain RDTSC's count is reordering, an ordered read's is the clock going back, and the two are
// not one figure (documents written before the ordered read have the plain one).
CompareCell cross_cell(const ClockFigures& a, const ClockFigures& b, bool steady) {
    CompareCell c =
        backward_cell(a.cross_backward_steps, b.cross_backward_steps, "across cores", steady);
    if (a.cross_backward_steps && b.cross_backward_steps && a.cross_read != b.cross_read) {
        const auto read = [](const std::string& r) { return r.empty() ? "own read" : r; };
        c.a += fmt::format(" ({})", read(a.cross_read));
        c.b += fmt::format(" ({})", read(b.cross_read));
        c.matters = false;
        c.why.clear();
    }
    return c;
}

// Shown, never marked: plain RDTSC's reordering against the load before it varies from run to
// run on one machine, and a coarse clock's jumps while watched are how the kernel updates it.
CompareCell count_of_cell(Number x, Number of_x, Number y, Number of_y) {
    const auto text = [](Number n, Number of) {
        return n ? fmt::format("{:.0f} of {:.0f}", *n, of.value_or(0.0)) : std::string("-");
    };
    return cell(text(x, of_x), text(y, of_y));
}

CompareCell drift_cell(const ClockFigures& a, const ClockFigures& b) {
    const Number x = a.drift_ppm, y = b.drift_ppm;
    CompareCell c =
        cell(x ? fmt::format("{:+.2f}", *x) : "-", y ? fmt::format("{:+.2f}", *y) : "-");
    // Past 10 ppm (about 1 ms a minute and a half) and past what the two runs can tell apart.
    if (x && y &&
        std::abs(*y - *x) > std::max(10.0, a.drift_uncertainty_ppm + b.drift_uncertainty_ppm)) {
        c.matters = true;
        c.why = fmt::format("drift differs by {:.1f} ppm", *y - *x);
    }
    return c;
}

std::vector<CompareCell> clock_cells(const ClockResult* ca, const ClockResult* cb) {
    const ClockFigures a = figures_of(ca), b = figures_of(cb);
    const bool steady = a.steady || b.steady;
    // A smallest step is only compared where it is not the lone outlier of a sub-microsecond
    // clock (a TSC pair one tick apart) and where both runs saw enough steps (a short run of a
    // coarse clock may see a handful, each spanning several ticks).
    CompareCell min_step = step_cell(a.min_step_ns, b.min_step_ns, 2.0, "smallest step");
    const double fine_ns = std::max(a.min_step_ns.value_or(0.0), b.min_step_ns.value_or(0.0));
    const double sa = a.steps_seen, sb = b.steps_seen;
    if (min_step.matters && (fine_ns < 1000.0 || (sa >= 0 && sa < 20) || (sb >= 0 && sb < 20))) {
        min_step.matters = false;
        min_step.why.clear();
    }
    return {step_cell(a.resolution_ns, b.resolution_ns, 1.5, "resolution"),
            cost_cell(a.read_cost_ns, b.read_cost_ns),
            // The smallest step, not the median: on a busy machine a preempted reader sees a
            // coarse clock take several ticks at once, which moves the median from run to run.
            min_step, share_cell(a.zero_delta_share, b.zero_delta_share),
            backward_cell(a.backward_steps, b.backward_steps, "in one thread", steady),
            cross_cell(a, b, steady),
            count_of_cell(a.reordered, a.reordered_reads, b.reordered, b.reordered_reads),
            count_of_cell(a.jumps_watched, a.steps_watched, b.jumps_watched, b.steps_watched),
            drift_cell(a, b)};
}

std::string text_or_unknown(const std::string& s) {
    return s.empty() ? "unknown" : s;
}

std::string list_text(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : ", ") + text_or_unknown(item);
    return out.empty() ? "none" : out;
}

std::string duration_or_unknown(std::int64_t ns, bool known) {
    return known ? format_duration(ns) : "unknown";
}

}  // namespace

std::vector<CompareRow> compare_context(const SystemContext& a, const SystemContext& b) {
    // One row a figure: its text in A and B, and whether the values differ. A row whose value
    // neither document knows is left out (a document written by hand may give a few).
    struct Figure {
        const char* label;
        bool matters;  // a difference here changes how clocks and timers behave
        std::function<std::string(const SystemContext&)> text;
        std::function<bool(const SystemContext&)> known;
    };
    const auto always = [](const SystemContext&) { return true; };
    const auto count = [](int n) { return n > 0 ? fmt::format("{}", n) : "unknown"; };
    const std::vector<Figure> figures = {
        {"OS", false, [](const SystemContext& c) { return text_or_unknown(c.os); },
         [](const SystemContext& c) { return !c.os.empty(); }},
        {"kernel", false, [](const SystemContext& c) { return text_or_unknown(c.kernel); },
         [](const SystemContext& c) { return !c.kernel.empty(); }},
        {"CPU", false, [](const SystemContext& c) { return text_or_unknown(c.cpu_model); },
         [](const SystemContext& c) { return !c.cpu_model.empty(); }},
        {"logical CPUs", false, [&](const SystemContext& c) { return count(c.logical_cpus); },
         [](const SystemContext& c) { return c.logical_cpus > 0; }},
        {"clocksource", true, [](const SystemContext& c) { return text_or_unknown(c.clocksource); },
         [](const SystemContext& c) { return !c.clocksource.empty(); }},
        {"kernel tick", true,
         [](const SystemContext& c) {
             return duration_or_unknown(c.kernel_tick_ns, c.kernel_tick_ns > 0);
         },
         [](const SystemContext& c) { return c.kernel_tick_ns > 0; }},
        {"timer slack", true,
         [](const SystemContext& c) {
             return duration_or_unknown(c.timer_slack_ns, c.timer_slack_ns >= 0);
         },
         [](const SystemContext& c) { return c.timer_slack_ns >= 0; }},
        {"hypervisor", true,
         [](const SystemContext& c) {
             return c.hypervisor ? text_or_unknown(c.hypervisor_name) : std::string("none");
         },
         always},
        {"invariant TSC", true,
         [](const SystemContext& c) { return std::string(c.invariant_tsc ? "yes" : "no"); },
         always},
        {"build", true, [](const SystemContext& c) { return text_or_unknown(c.build_type); },
         [](const SystemContext& c) { return !c.build_type.empty(); }},
        {"sanitizers", true, [](const SystemContext& c) { return list_text(c.sanitizers); },
         always},
    };
    std::vector<CompareRow> rows;
    for (const auto& f : figures) {
        if (!f.known(a) && !f.known(b))
            continue;
        CompareCell c = cell(f.text(a), f.text(b));
        if (f.matters && c.a != c.b) {
            c.matters = true;
            c.why = fmt::format("{} differs", f.label);
        }
        rows.push_back({f.label, {c}});
    }
    return rows;
}

std::vector<CompareRow> compare_clocks(const std::vector<ClockResult>& a,
                                       const std::vector<ClockResult>& b) {
    std::vector<CompareRow> rows;
    std::map<std::string, const ClockResult*> in_b;
    for (const auto& c : b)
        in_b[c.name] = &c;
    std::map<std::string, bool> seen;
    // A clock in one document only: its figures on its side, "-" on the other.
    const auto one_sided = [&rows](const ClockResult& c, bool in_a) {
        CompareRow r{c.name, in_a ? clock_cells(&c, nullptr) : clock_cells(nullptr, &c)};
        for (auto& cell : r.cells) {
            (in_a ? cell.b : cell.a) = "-";
            cell.matters = false;
            cell.why.clear();
        }
        r.cells[0].matters = true;
        r.cells[0].why = fmt::format("this clock is in {} only", in_a ? "A" : "B");
        rows.push_back(std::move(r));
    };
    for (const auto& ca : a) {
        seen[ca.name] = true;
        const auto it = in_b.find(ca.name);
        if (it == in_b.end())
            one_sided(ca, true);
        else
            rows.push_back({ca.name, clock_cells(&ca, it->second)});
    }
    for (const auto& cb : b) {
        if (!seen.count(cb.name))
            one_sided(cb, false);
    }
    return rows;
}

namespace {

// One document's side of the Linux/Windows equivalents: each facility's name on its platform and
// what the document measured of it (nullptr / nullopt: not measured).
struct EquivalentSide {
    std::string clock_name;
    const ClockResult* clock = nullptr;
    std::string sleep_name;       // the plain relative sleep a game calls
    std::string fine_sleep_name;  // the finest relative sleep
    std::string periodic_name;    // sleeping to absolute deadlines
    const PeriodicRow* periodic = nullptr;
    std::string grain_name;  // how late the OS lets a wake-up be on purpose
    std::optional<std::int64_t> grain_ns;
    std::string tick_name;  // the interrupt the coarse clocks and plain timers step with
    std::optional<std::int64_t> tick_ns;
    const TimerReport* timers = nullptr;
};

EquivalentSide equivalent_side(const ProbeDocument& d) {
    EquivalentSide s;
    const Platform platform = d.context ? d.context->platform : Platform::Linux;
    const bool windows = platform == Platform::Windows;
    s.clock_name = platform_terms(platform).wait_clock;
    s.sleep_name = windows ? "Sleep" : "nanosleep";
    s.fine_sleep_name = windows ? "waitable timer hi-res" : "clock_nanosleep rel";
    const std::string periodic_variant_name = windows ? "hi-res timer abs" : "";
    s.periodic_name = windows ? "hi-res waitable timer, absolute" : "clock_nanosleep, absolute";
    if (d.clocks) {
        for (const auto& c : d.clocks->clocks) {
            if (c.name == s.clock_name)
                s.clock = &c;
        }
    }
    if (d.timers) {
        s.timers = &*d.timers;
        for (const auto& r : d.timers->periodic) {
            if (!r.realtime && r.latency.count > 0 && periodic_variant(r) == periodic_variant_name)
                s.periodic = &r;
        }
    }
    if (d.context) {
        const SystemContext& c = *d.context;
        const bool resolution = windows && c.timer_resolution && c.timer_resolution->current_ns > 0;
        s.grain_name = windows ? "timer resolution" : "timer slack";
        if (resolution)
            s.grain_ns = c.timer_resolution->current_ns;
        else if (!windows && c.timer_slack_ns >= 0)
            s.grain_ns = c.timer_slack_ns;
        s.tick_name = windows ? "timer resolution" : "kernel tick";
        if (resolution)
            s.tick_ns = c.timer_resolution->current_ns;
        else if (!windows && c.kernel_tick_ns > 0)
            s.tick_ns = c.kernel_tick_ns;
    }
    return s;
}

// The overshoot of a one-shot method at a request, or nullopt.
std::optional<std::int64_t> overshoot_p99(const TimerReport* t, const std::string& method,
                                          std::int64_t requested_ns) {
    if (t == nullptr)
        return std::nullopt;
    for (const auto& r : t->one_shot) {
        if (r.method == method && r.requested_ns == requested_ns)
            return r.overshoot.p99_ns;
    }
    return std::nullopt;
}

bool different_platforms(const ProbeDocument& a, const ProbeDocument& b) {
    return a.context && b.context && a.context->platform != b.context->platform;
}

}  // namespace

std::vector<CompareRow> compare_equivalents(const ProbeDocument& a, const ProbeDocument& b) {
    std::vector<CompareRow> rows;
    if (!different_platforms(a, b))
        return rows;
    const EquivalentSide x = equivalent_side(a), y = equivalent_side(b);
    const auto add = [&rows](std::string item, const std::string& name_a, const std::string& name_b,
                             CompareCell value) {
        rows.push_back({std::move(item), {cell(name_a, name_b), std::move(value)}});
    };
    const ClockFigures cx = figures_of(x.clock), cy = figures_of(y.clock);
    add("monotonic clock: resolution", x.clock_name, y.clock_name,
        step_cell(cx.resolution_ns, cy.resolution_ns, 1.5, "resolution"));
    add("monotonic clock: read cost", x.clock_name, y.clock_name,
        cost_cell(cx.read_cost_ns, cy.read_cost_ns));
    add("monotonic clock: smallest step", x.clock_name, y.clock_name,
        step_cell(cx.min_step_ns, cy.min_step_ns, 2.0, "smallest step"));
    // Sleeps of 1 ms, what a frame limiter asks for most; p99, the tail a game feels.
    constexpr std::int64_t kOneMs = 1'000'000;
    constexpr std::int64_t kFloorNs = 100'000;  // as the timer tables: below, run-to-run noise
    add("relative sleep of 1 ms: p99 overshoot", x.sleep_name, y.sleep_name,
        compare_lateness(overshoot_p99(x.timers, x.sleep_name, kOneMs),
                         overshoot_p99(y.timers, y.sleep_name, kOneMs), kFloorNs));
    add("finest relative sleep of 1 ms: p99 overshoot", x.fine_sleep_name, y.fine_sleep_name,
        compare_lateness(overshoot_p99(x.timers, x.fine_sleep_name, kOneMs),
                         overshoot_p99(y.timers, y.fine_sleep_name, kOneMs), kFloorNs));
    const auto periodic = [](const EquivalentSide& s, bool p99) -> std::optional<std::int64_t> {
        if (s.periodic == nullptr)
            return std::nullopt;
        return p99 ? s.periodic->latency.p99_ns : s.periodic->latency.p50_ns;
    };
    add("absolute deadlines: p50 wake-up latency", x.periodic_name, y.periodic_name,
        compare_lateness(periodic(x, false), periodic(y, false), 20'000));
    add("absolute deadlines: p99 wake-up latency", x.periodic_name, y.periodic_name,
        compare_lateness(periodic(x, true), periodic(y, true), kFloorNs));
    // Both are how late the OS may deliver a wake-up by design: the slack on Linux, the
    // interrupt interval on Windows.
    add("built-in wake-up lateness", x.grain_name, y.grain_name,
        compare_lateness(x.grain_ns, y.grain_ns, kFloorNs));
    const auto as_number = [](std::optional<std::int64_t> v) -> Number {
        return v ? Number(static_cast<double>(*v)) : std::nullopt;
    };
    add("tick of the coarse clocks", x.tick_name, y.tick_name,
        step_cell(as_number(x.tick_ns), as_number(y.tick_ns), 1.5, "tick"));
    return rows;
}

std::vector<CompareRow> compare_load(const MachineLoad& a, int cpus_a, const MachineLoad& b,
                                     int cpus_b) {
    const LoadBusy busy_a = machine_load_busy(a, cpus_a), busy_b = machine_load_busy(b, cpus_b);
    const auto averages = [](const MachineLoad& m) {
        const auto one = [](const LoadSnapshot& s) {
            // Read back from a document, only the averages are set (not `valid`).
            return s.load_1m >= 0 ? fmt::format("{:.2f}", s.load_1m) : std::string("unknown");
        };
        return one(m.before) + " -> " + one(m.after);
    };
    const auto share = [](const MachineLoad& m, double v) {
        return m.measured ? fmt::format("{:.1f}%", v * 100.0) : std::string("not measured");
    };
    // A run that was busy when the other was not: its waits and read costs include time spent
    // waiting for a CPU, so a difference in them may be the load, not the machine.
    const auto row = [](const char* label, std::string x, std::string y, bool busy_x, bool busy_y,
                        const char* what) {
        CompareCell c = cell(std::move(x), std::move(y));
        if (busy_x != busy_y) {
            c.matters = true;
            c.why = fmt::format("{} in {} only: its timing figures include waiting for a CPU", what,
                                busy_x ? "A" : "B");
        }
        return CompareRow{label, {c}};
    };
    return {row("load average (1 min) before -> after", averages(a), averages(b), busy_a.queueing,
                busy_b.queueing, "more runnable threads than CPUs"),
            row("CPU time of other processes", share(a, a.other_share), share(b, b.other_share),
                busy_a.other, busy_b.other, "a busy machine"),
            row("steal time", share(a, a.steal_share), share(b, b.steal_share), busy_a.steal,
                busy_b.steal, "a host short of CPU for this guest")};
}

const std::vector<SectionSpec>& compare_sections() {
    static const std::vector<SectionSpec> sections = [] {
        std::vector<SectionSpec> all = {
            {"context",
             "Context",
             {"value"},
             [](const ProbeDocument& d) { return d.context.has_value(); },
             [](const ProbeDocument& a, const ProbeDocument& b) {
                 return compare_context(*a.context, *b.context);
             }},
            {"clocks",
             "Clock sources",
             {"resolution", "read cost", "min step", "zero deltas", "back (1 thread)",
              "back (2 cores)", "plain read reordered", "multi-tick jumps watched", "drift ppm"},
             [](const ProbeDocument& d) { return d.clocks.has_value(); },
             [](const ProbeDocument& a, const ProbeDocument& b) {
                 return compare_clocks(a.clocks->clocks, b.clocks->clocks);
             }},
        };
        for (auto& s : timer_compare_sections())
            all.push_back(std::move(s));
        all.push_back({"equivalents",
                       "Equivalent facilities (Linux and Windows)",
                       {"facility", "value"},
                       [](const ProbeDocument& d) { return d.context.has_value(); },
                       compare_equivalents,
                       different_platforms});
        all.push_back({"load",
                       "Machine load",
                       {"value"},
                       [](const ProbeDocument& d) { return d.load.has_value(); },
                       [](const ProbeDocument& a, const ProbeDocument& b) {
                           const auto cpus = [](const ProbeDocument& d) {
                               return d.context ? d.context->logical_cpus : 0;
                           };
                           return compare_load(*a.load, cpus(a), *b.load, cpus(b));
                       }});
        return all;
    }();
    return sections;
}

ProbeDocument load_probe_for_compare(const std::string& path) {
    return read_probe_results(path);
}

std::vector<CompareSection> compare_documents(const ProbeDocument& a, const ProbeDocument& b) {
    std::vector<CompareSection> out;
    for (const auto& s : compare_sections()) {
        CompareSection section{s.key, s.title, s.figures, {}, {}};
        const bool in_a = s.present(a), in_b = s.present(b);
        if ((!in_a && !in_b) || (s.applies && !s.applies(a, b)))
            continue;
        if (!in_a || !in_b) {
            section.skipped = fmt::format("only {} has this section", in_a ? "A" : "B");
        } else {
            section.rows = s.compare(a, b);
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
        // Sections of one text value a row (context, load) read left to right.
        const bool text_rows = s.key == "context" || s.key == "load" || s.key == "equivalents";
        t.add_column(text_rows ? "" : "name", MarkdownTable::Align::left);
        for (const auto& f : s.figures)
            t.add_column(f, text_rows ? MarkdownTable::Align::left : MarkdownTable::Align::right);
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
    // A run measured on a busy machine when the other was not is said first: every timing
    // difference after it may be the load rather than the machine or the change compared.
    const auto is_load = [](const std::string& m) { return m.rfind("Machine load, ", 0) == 0; };
    const std::size_t load_items =
        static_cast<std::size_t>(std::count_if(matters.begin(), matters.end(), is_load));
    std::stable_partition(matters.begin(), matters.end(), is_load);
    for (std::size_t i = 0; i < matters.size(); ++i) {
        out += "- " + matters[i] + "\n";
        if (i + 1 == load_items && load_items < matters.size())
            out +=
                "\nOne run was measured on a busy machine and the other was not: the timing "
                "differences below may come from that load. Compare runs taken on quiet "
                "machines.\n\n";
    }
    return out;
}

}  // namespace loopscope
