// The clock probe's section of the probe output (tables, histograms, findings).
#include "probes/clock_report.hpp"

#include "core/duration.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/markdown_table.hpp"

namespace loopscope {

std::string format_ns(double ns) {
    if (ns < 0 || std::isnan(ns))
        return "n/a";
    if (ns < 10)
        return fmt::format("{:.2f} ns", ns);
    if (ns < 1e3)
        return fmt::format("{:.1f} ns", ns);
    if (ns < 1e6)
        return fmt::format("{:.2f} us", ns / 1e3);
    if (ns < 1e9)
        return fmt::format("{:.3f} ms", ns / 1e6);
    return fmt::format("{:.3f} s", ns / 1e9);
}

namespace {
std::string format_count(std::int64_t n) {
    if (n >= 10'000'000)
        return fmt::format("{:.0f}M", static_cast<double>(n) / 1e6);
    if (n >= 1'000'000)
        return fmt::format("{:.1f}M", static_cast<double>(n) / 1e6);
    if (n >= 10'000)
        return fmt::format("{:.0f}k", static_cast<double>(n) / 1e3);
    return fmt::format("{}", n);
}

std::string format_share(double share) {
    if (share > 0 && share < 0.001)
        return "<0.1%";
    return fmt::format("{:.1f}%", share * 100.0);
}

const ClockResult* find(const ClockProbeResult& r, const std::string& name) {
    for (const auto& c : r.clocks) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

// The results table, the table of what each clock is, and the delta histograms.
void add_clock_tables(TextSection& section, const ClockProbeResult& result) {
    MarkdownTable t;
    t.add_column("clock", MarkdownTable::Align::left);
    t.add_column("resolution");
    t.add_column("read cost");
    t.add_column("min step");
    t.add_column("median step");
    t.add_column("zero deltas");
    t.add_column("back (1 thread)");
    t.add_column("back (2 cores)");
    t.add_column("drift ppm");
    for (const auto& c : result.clocks) {
        std::string cross = c.cross_thread_checked
                                ? fmt::format("{} in {}", c.cross_thread_backward_steps,
                                              format_count(c.cross_thread_reads))
                                : "n/a";
        // The verdict is the ordered read's; the plain read's reordering follows in brackets.
        if (c.cross_thread_checked && c.cross_thread_unordered_backward_steps >= 0) {
            cross += fmt::format(" (plain: {} in {})", c.cross_thread_unordered_backward_steps,
                                 format_count(c.cross_thread_unordered_reads));
        }
        t.add_row({c.name, format_ns(c.resolution_ns), format_ns(c.read_cost_ns),
                   c.granularity.min_ticks > 0 ? format_ns(c.granularity_min_ns) : "none",
                   c.granularity.median_ticks > 0 ? format_ns(c.granularity_median_ns) : "none",
                   format_share(c.granularity.zero_delta_share),
                   fmt::format("{} in {}", c.granularity.backward_steps, format_count(c.reads)),
                   cross, fmt::format("{:+.2f} ± {:.2f}", c.drift_ppm, c.drift_uncertainty_ppm)});
    }
    section.add_table(std::move(t));

    MarkdownTable what;
    what.add_column("clock", MarkdownTable::Align::left);
    what.add_column("what it is", MarkdownTable::Align::left);
    what.add_column("backed by", MarkdownTable::Align::left);
    for (const auto& c : result.clocks)
        what.add_row({c.name, c.description, c.backing});
    section.add_table(std::move(what));

    section.add_paragraph(
        "Deltas between back-to-back reads (share of all deltas; rarer buckets folded):");
    std::vector<std::string> deltas;
    for (const auto& c : result.clocks) {
        std::string line = fmt::format("{}:", c.name);
        const double total = static_cast<double>(std::max<std::int64_t>(c.granularity.deltas, 1));
        std::int64_t rare = 0;
        std::int64_t rare_max_ns = 0;
        bool first = true;
        for (const auto& h : c.histogram) {
            const double share = static_cast<double>(h.count) / total;
            if (share < 0.001) {
                rare += h.count;
                rare_max_ns = h.max_ns;
                continue;
            }
            const std::string range = h.min_ns == h.max_ns
                                          ? fmt::format("{}", h.min_ns)
                                          : fmt::format("{}-{}", h.min_ns, h.max_ns);
            line += fmt::format("{} {} ns {}", first ? "" : ",", range, format_share(share));
            first = false;
        }
        if (rare > 0) {
            line += fmt::format("{} {} more up to {}", first ? "" : ";", rare,
                                format_ns(static_cast<double>(rare_max_ns)));
        }
        deltas.push_back(std::move(line));
    }
    section.add_bullets(std::move(deltas));
}

std::string cpus_text(const ClockResult& c) {
    std::string out =
        c.cross_thread_cpus.size() == 2
            ? fmt::format("CPUs {} and {}", c.cross_thread_cpus[0], c.cross_thread_cpus[1])
            : std::string("two CPUs");
    return c.cross_thread_pinned ? out : out + " (pinning refused: the OS placed the threads)";
}

std::string read_text(const ClockResult& c) {
    return c.cross_thread_read.empty() ? "reads"
                                       : fmt::format("ordered reads ({})", c.cross_thread_read);
}

bool near(double a, double b, double tolerance) {
    return std::abs(a - b) <= tolerance;
}

// What the coarse clock's steps were, measured while watching it against the finer clock it
// samples: step size against the kernel tick from clock_getres and from CONFIG_HZ, and whether
// several ticks at once came while the reader was watching (the clock jumped) or away.
std::string coarse_finding(const ClockResult& c, const ClockProbeResult& r) {
    const CoarseStepStats& s = c.steps;
    const double tick = static_cast<double>(r.kernel_tick_ns);
    const double median = static_cast<double>(s.median_step_ns);
    std::string sources =
        fmt::format("{} {}", platform_terms(r.platform).tick_call, format_ns(tick));
    bool tick_agrees = true;
    if (r.config_hz > 0) {
        const double period = 1e9 / r.config_hz;
        sources += fmt::format(", 1/CONFIG_HZ {} (CONFIG_HZ={}, {})", format_ns(period),
                               r.config_hz, r.config_hz_from);
        tick_agrees = near(period, tick, tick / 50);
    }
    const bool whole = s.steps > 0 && s.other == 0;
    std::string out = fmt::format(
        "{} {} ({}{}): watched for {} against the clock it samples, it made {} steps, median "
        "{}.",
        c.name,
        whole ? "moves only in whole kernel ticks" : "does not move in whole kernel ticks only",
        sources, tick_agrees ? "" : ", which disagree",
        format_ns(static_cast<double>(c.steps_watch_ns)), s.steps, format_ns(median));
    if (s.steps == 0)
        return out;
    if (s.multi_tick == 0) {
        out += fmt::format(" All {} whole-tick steps were one tick.", s.one_tick);
    } else {
        out += fmt::format(" {} steps of one tick, {} of 2 to {} ticks", s.one_tick, s.multi_tick,
                           s.max_ticks);
        if (s.multi_tick_watched > 0) {
            out += fmt::format(
                "; {} of these came between two reads at most {} apart (median gap between "
                "reads {}): the clock itself jumped several ticks at once (the kernel's "
                "timekeeping update ran late or skipped a tick and caught up in one go), not a "
                "reader that was away",
                s.multi_tick_watched,
                format_ns(static_cast<double>(s.multi_tick_watched_max_gap_ns)),
                format_ns(static_cast<double>(s.median_gap_ns)));
        }
        if (s.multi_tick > s.multi_tick_watched) {
            out += fmt::format(
                "; {} came after the reader was away half a tick or more "
                "(preempted) and missed the steps between",
                s.multi_tick - s.multi_tick_watched);
        }
        out += ".";
    }
    if (s.other > 0)
        out += fmt::format(" {} steps were not a whole number of ticks (within 2%).", s.other);
    return out;
}
}  // namespace

std::vector<std::string> clock_findings(const ClockProbeResult& result) {
    std::vector<std::string> f;
    for (const auto& c : result.clocks) {
        if (c.steps_watched && result.kernel_tick_ns > 0) {
            f.push_back(coarse_finding(c, result));
        } else if (c.whole_tick_share >= 0) {
            f.push_back(fmt::format(
                "{} advances in whole kernel ticks: {} of its {} steps are a whole number of "
                "ticks of {} (within 2%); smallest step {}, median {}.",
                c.name, format_share(c.whole_tick_share),
                c.granularity.deltas - c.granularity.zero_deltas - c.granularity.backward_steps,
                format_ns(static_cast<double>(result.kernel_tick_ns)),
                format_ns(c.granularity_min_ns), format_ns(c.granularity_median_ns)));
        }
    }
    const PlatformTerms& terms = platform_terms(result.platform);
    const ClockResult* mono = find(result, terms.wait_clock);
    for (const char* tsc : {"rdtsc", "rdtscp"}) {
        const ClockResult* t = find(result, tsc);
        if (!t || !mono || t->read_cost_ns <= 0 || mono->read_cost_ns <= 0)
            continue;
        const double ratio = mono->read_cost_ns / t->read_cost_ns;
        f.push_back(fmt::format(
            "{} costs {} a read, {} {} (medians of {} "
            "and {} timed batches): the TSC is {:.1f}x {} to read.",
            tsc, format_ns(t->read_cost_ns), terms.wait_clock_read, format_ns(mono->read_cost_ns),
            t->read_cost_batches, mono->read_cost_batches, ratio >= 1 ? ratio : 1 / ratio,
            ratio >= 1 ? "cheaper" : "dearer"));
    }
    // Across cores the verdict rests on ordered reads only; a plain read's reordering is
    // reported apart, as what it is.
    std::vector<std::string> held;
    std::int64_t held_reads = 0;
    const ClockResult* held_example = nullptr;
    for (const auto& c : result.clocks) {
        const std::int64_t one = c.granularity.backward_steps;
        const std::int64_t cross = c.cross_thread_checked ? c.cross_thread_backward_steps : 0;
        if (c.cross_thread_checked && cross == 0 && one == 0) {
            held.push_back(c.name);
            held_reads += c.cross_thread_reads;
            held_example = &c;
        }
        if (one + cross > 0) {
            const std::string evidence = fmt::format(
                "{} times in {} back-to-back reads of one thread and {} times in {} {} from "
                "two threads on {}",
                one, c.reads, cross, c.cross_thread_reads, read_text(c), cpus_text(c));
            if (c.claims_steady) {
                f.push_back(
                    fmt::format("{} promises never to go back but went back {}: do not "
                                "trust it for frame times on this machine.",
                                c.name, evidence));
            } else if (one == 0) {
                f.push_back(
                    fmt::format("{} went back {}: readings taken on different cores "
                                "cannot be used to order events.",
                                c.name, evidence));
            } else {
                f.push_back(
                    fmt::format("{} went back {}: it makes no promise to be monotonic; "
                                "do not time frames with it.",
                                c.name, evidence));
            }
        }
        if (c.cross_thread_unordered_backward_steps > 0) {
            f.push_back(fmt::format(
                "Plain {} read a value below one the other core had already published {} times "
                "in {} reads, where {} went back {} times in {}: RDTSC is not ordered against "
                "the load before it, so the CPU executed it early (out-of-order execution); the "
                "counter did not go back. Read it with {} or rdtscp where readings from two "
                "cores are compared.",
                c.name, c.cross_thread_unordered_backward_steps, c.cross_thread_unordered_reads,
                c.cross_thread_read, cross, c.cross_thread_reads, c.cross_thread_read));
        }
    }
    if (!held.empty()) {
        std::string names;
        for (const auto& n : held)
            names += (names.empty() ? "" : ", ") + n;
        f.push_back(fmt::format(
            "No step back within a thread or across cores for {}: {} reads from two threads on "
            "{} (the TSC with ordered reads), each checked against the largest reading either "
            "thread had published.",
            names, held_reads, cpus_text(*held_example)));
    }
    const ClockResult* hrc = find(result, "std::chrono::high_resolution_clock");
    if (hrc && !hrc->claims_steady) {
        f.push_back(fmt::format(
            "std::chrono::high_resolution_clock is not steady here ({}; {}): it can jump with "
            "the wall clock. Time frames with std::chrono::steady_clock.",
            hrc->description, hrc->backing));
    }
    return f;
}

TextSection clocks_section(const ClockProbeResult& r) {
    TextSection s;
    s.title = "Clock sources";
    s.add_heading("Clock sources");
    s.add_paragraph(fmt::format(
        "{} clocks in {}; at least {} back-to-back reads each; read cost = median of batches; "
        "drift against {}.",
        r.clocks.size(), format_duration(r.elapsed_ns), r.min_reads, r.reference_clock));
    add_clock_tables(s, r);
    auto findings = clock_findings(r);
    if (!findings.empty()) {
        s.add_heading("Findings");
        s.add_bullets(std::move(findings));
    }
    return s;
}

std::string clocks_section_markdown(const ClockProbeResult& r) {
    return render_markdown(clocks_section(r));
}

}  // namespace loopscope
