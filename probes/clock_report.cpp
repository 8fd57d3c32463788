// Markdown and findings for the clock probe.
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
}  // namespace

std::string clocks_markdown(const ClockProbeResult& result) {
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
        const std::string cross = c.cross_thread_checked
                                      ? fmt::format("{} in {}", c.cross_thread_backward_steps,
                                                    format_count(c.cross_thread_reads))
                                      : "n/a";
        t.add_row({c.name, format_ns(c.resolution_ns), format_ns(c.read_cost_ns),
                   c.granularity.min_ticks > 0 ? format_ns(c.granularity_min_ns) : "none",
                   c.granularity.median_ticks > 0 ? format_ns(c.granularity_median_ns) : "none",
                   format_share(c.granularity.zero_delta_share),
                   fmt::format("{} in {}", c.granularity.backward_steps, format_count(c.reads)),
                   cross, fmt::format("{:+.2f} ± {:.2f}", c.drift_ppm, c.drift_uncertainty_ppm)});
    }
    std::string out = t.render();

    out += "\n";
    MarkdownTable what;
    what.add_column("clock", MarkdownTable::Align::left);
    what.add_column("what it is", MarkdownTable::Align::left);
    what.add_column("backed by", MarkdownTable::Align::left);
    for (const auto& c : result.clocks)
        what.add_row({c.name, c.description, c.backing});
    out += what.render();

    out += "\nDeltas between back-to-back reads (share of all deltas; rarer buckets folded):\n\n";
    for (const auto& c : result.clocks) {
        std::string line = fmt::format("- {}:", c.name);
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
        out += line + "\n";
    }
    return out;
}

std::vector<std::string> clock_findings(const ClockProbeResult& result) {
    std::vector<std::string> f;
    for (const auto& c : result.clocks) {
        if (c.whole_tick_share >= 0) {
            f.push_back(fmt::format(
                "{} advances in whole kernel ticks: {} of its {} steps are a whole number of "
                "ticks (within 2%); smallest step {}, median {} (a reader that is preempted "
                "sees several ticks at once).",
                c.name, format_share(c.whole_tick_share),
                c.granularity.deltas - c.granularity.zero_deltas - c.granularity.backward_steps,
                format_ns(c.granularity_min_ns), format_ns(c.granularity_median_ns)));
        }
    }
    const ClockResult* mono = find(result, "CLOCK_MONOTONIC");
    for (const char* tsc : {"rdtsc", "rdtscp"}) {
        const ClockResult* t = find(result, tsc);
        if (!t || !mono || t->read_cost_ns <= 0 || mono->read_cost_ns <= 0)
            continue;
        const double ratio = mono->read_cost_ns / t->read_cost_ns;
        f.push_back(
            fmt::format("{} costs {} a read, clock_gettime(CLOCK_MONOTONIC) {}: the TSC is "
                        "{:.1f}x {} to read.",
                        tsc, format_ns(t->read_cost_ns), format_ns(mono->read_cost_ns),
                        ratio >= 1 ? ratio : 1 / ratio, ratio >= 1 ? "cheaper" : "dearer"));
    }
    for (const auto& c : result.clocks) {
        const std::int64_t one = c.granularity.backward_steps;
        const std::int64_t cross = c.cross_thread_backward_steps;
        if (one + cross == 0)
            continue;
        if (c.claims_steady) {
            f.push_back(fmt::format(
                "{} promises never to go back but went back {} times in one thread and {} times "
                "across cores: do not trust it for frame times on this machine.",
                c.name, one, cross));
        } else if (one == 0) {
            f.push_back(fmt::format(
                "{} went back {} times across cores (never within one thread): readings taken "
                "on different cores cannot be used to order events.",
                c.name, cross));
        } else {
            f.push_back(fmt::format(
                "{} went back {} times in one thread and {} times across cores: it makes no "
                "promise to be monotonic; do not time frames with it.",
                c.name, one, cross));
        }
    }
    const ClockResult* hrc = find(result, "std::chrono::high_resolution_clock");
    if (hrc && !hrc->claims_steady) {
        f.push_back(
            "std::chrono::high_resolution_clock is not steady here: it can jump with the wall "
            "clock. Time frames with std::chrono::steady_clock.");
    }
    return f;
}

std::string clocks_section_markdown(const ClockProbeResult& r) {
    std::string out = fmt::format(
        "## Clock sources\n\n{} clocks in {}; at least {} back-to-back reads each; read cost = "
        "median of batches; drift against {}.\n\n",
        r.clocks.size(), format_duration(r.elapsed_ns), r.min_reads, r.reference_clock);
    out += clocks_markdown(r);
    const auto findings = clock_findings(r);
    if (!findings.empty()) {
        out += "\n## Findings\n\n";
        for (const auto& f : findings)
            out += "- " + f + "\n";
    }
    return out;
}

}  // namespace loopscope
