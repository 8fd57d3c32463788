// `loopscope probe`: measuring this machine. `probe clocks` measures every clock source,
// `probe compare A.json B.json` sets two saved results side by side. Each probe prints the machine
// context first (the same for every probe) and writes one section of the probe document
// (probe_json.hpp) with --json.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "common/terminal.hpp"
#include "core/duration.hpp"
#include "probes/clock_probe.hpp"
#include "probes/clock_report.hpp"
#include "probes/probe_compare.hpp"
#include "probes/probe_json.hpp"
#include "probes/system_info.hpp"
#include "tool/cmd_probe_timers.hpp"
#include "tool/commands.hpp"
#include "tool/loop_options.hpp"

namespace loopscope {

namespace {

struct ClocksArgs {
    std::string duration = "5s";
    std::int64_t min_reads = 1'000'000;
    std::string json_path;
};

ClockProbeResult run_clocks(const ClocksArgs& args, const SystemContext& context) {
    ClockProbeOptions options;
    options.duration_ns = parse_duration_option("--duration", args.duration);
    if (options.duration_ns <= 0)
        throw UsageError("--duration: expected a duration above 0");
    if (args.min_reads < 2)
        throw UsageError("--reads: expected at least 2");
    options.min_reads = args.min_reads;
    options.kernel_tick_ns = context.kernel_tick_ns;
    Progress progress("probe clocks");
    options.progress = [&](double fraction, std::string_view clock) {
        progress.update(fraction, clock);
    };
    ClockProbeResult result = run_clock_probe(options);
    progress.done();
    return result;
}

void add_clocks(CLI::App& probe, int& exit_code) {
    auto args = std::make_shared<ClocksArgs>();
    auto* cmd = probe.add_subcommand(
        "clocks",
        "Measure every clock source: resolution, read cost, granularity, backward steps (also "
        "across two cores) and drift against CLOCK_MONOTONIC_RAW. Prints Markdown tables.");
    cmd->add_option("--duration", args->duration,
                    "Time for the whole probe, split over the clocks; longer gives steadier "
                    "figures (e.g. 2s, 20s)")
        ->capture_default_str();
    cmd->add_option("--reads", args->min_reads,
                    "At least this many back-to-back reads per clock for the granularity")
        ->capture_default_str();
    cmd->add_option("--json", args->json_path,
                    "Also write the results as JSON to FILE ('-' for standard output, which "
                    "then carries only the JSON)");
    cmd->callback([args, &exit_code] {
        const SystemContext context = collect_system_context();
        // Open the output before measuring, so a bad path fails at once, not after the run.
        std::unique_ptr<OutputFile> json_out;
        if (!args->json_path.empty())
            json_out = std::make_unique<OutputFile>(args->json_path);
        const bool markdown = !(json_out && json_out->is_stdout());
        if (markdown) {
            fmt::print("# loopscope probe clocks\n\n{}\n", context_section_markdown(context));
            std::fflush(stdout);
        }
        const ClockProbeResult result = run_clocks(*args, context);
        if (markdown)
            fmt::print("\n{}", clocks_section_markdown(result));
        if (json_out) {
            nlohmann::json doc = make_probe_document(context);
            doc["clocks_run"] = clocks_run_to_json(result);
            doc["clocks"] = clocks_to_json(result);
            json_out->write(doc.dump(2) + "\n");
            json_out->commit();
        }
        exit_code = kExitOk;
    });
}

// `loopscope probe` with no subcommand: every probe, clocks then timers, under one context.
void run_all_probes(const std::string& json_path, bool quick) {
    const SystemContext context = collect_system_context();
    std::unique_ptr<OutputFile> json_out;
    if (!json_path.empty())
        json_out = std::make_unique<OutputFile>(json_path);
    const bool markdown = !(json_out && json_out->is_stdout());
    if (markdown) {
        fmt::print("# loopscope probe\n\n{}\n", context_section_markdown(context));
        std::fflush(stdout);
    }
    ClocksArgs clock_args;
    if (quick)
        clock_args.duration = "1s";
    const ClockProbeResult clocks = run_clocks(clock_args, context);
    if (markdown) {
        fmt::print("\n{}", clocks_section_markdown(clocks));
        std::fflush(stdout);
    }
    const TimersSection timers = run_timers_section(quick);
    if (markdown)
        fmt::print("\n{}", timers.markdown);
    if (json_out) {
        nlohmann::json doc = make_probe_document(context);
        doc["clocks_run"] = clocks_run_to_json(clocks);
        doc["clocks"] = clocks_to_json(clocks);
        doc["timers"] = timers.json;
        json_out->write(doc.dump(2) + "\n");
        json_out->commit();
    }
}

void add_compare(CLI::App& probe, int& exit_code) {
    auto paths = std::make_shared<std::vector<std::string>>();
    auto* cmd = probe.add_subcommand(
        "compare",
        "Show two probe results (--json files) side by side and mark the differences that "
        "matter: two machines, two OSes, before and after a kernel or BIOS change");
    cmd->add_option("FILE", *paths, "The two probe results (--json files): A, then B")
        ->required()
        ->expected(2);
    cmd->callback([paths, &exit_code] {
        const std::string& a_path = (*paths)[0];
        const std::string& b_path = (*paths)[1];
        const nlohmann::json a = load_probe_for_compare(a_path);
        const nlohmann::json b = load_probe_for_compare(b_path);
        const auto sections = compare_documents(a, b);
        fmt::print("# loopscope probe compare\n\n{}",
                   comparison_markdown(sections, a_path, b_path));
        exit_code = kExitOk;
    });
}

}  // namespace

void add_probe_command(CLI::App& app, int& exit_code) {
    auto* probe = app.add_subcommand(
        "probe",
        "Measure this machine: clock sources (probe clocks), timers and sleeps (probe timers); "
        "with no subcommand, both; compare two results (probe compare)");
    probe->require_subcommand(0, 1);
    add_clocks(*probe, exit_code);
    add_probe_timers_command(*probe, exit_code);
    add_compare(*probe, exit_code);
    auto all_json = std::make_shared<std::string>();
    auto all_quick = std::make_shared<bool>(false);
    probe->add_option("--json", *all_json,
                      "With no subcommand: write clocks and timers as JSON to FILE ('-' for "
                      "standard output only)");
    probe->add_flag("--quick", *all_quick,
                    "With no subcommand: a short run (clocks for 1 s, timers --quick)");
    // Checked as soon as `probe` is parsed, before a subcommand starts measuring.
    probe->parse_complete_callback([probe, all_json, all_quick] {
        if (!probe->get_subcommands().empty() && (!all_json->empty() || *all_quick))
            throw UsageError(
                "probe --json and --quick are for the run of every probe; give "
                "them after the subcommand instead");
    });
    probe->callback([probe, all_json, all_quick, &exit_code] {
        if (!probe->get_subcommands().empty())
            return;
        run_all_probes(*all_json, *all_quick);
        exit_code = kExitOk;
    });
}

}  // namespace loopscope
