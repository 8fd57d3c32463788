// `loopscope probe`: measuring this machine. `probe clocks` measures every clock source,
// `probe compare A.json B.json` sets two saved results side by side. Each probe prints the machine
// context first (the same for every probe) and writes one section of the probe document
// (probe_json.hpp) with --json.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>
#include <string>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "common/terminal.hpp"
#include "core/duration.hpp"
#include "probes/clock_probe.hpp"
#include "probes/clock_report.hpp"
#include "probes/probe_compare.hpp"
#include "probes/probe_json.hpp"
#include "probes/probe_run.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_report.hpp"
#include "tool/commands.hpp"
#include "tool/loop_options.hpp"
#include "tool/probe_print.hpp"

namespace loopscope {

namespace {

struct ClocksArgs {
    std::string duration = "5s";
    std::int64_t min_reads = 1'000'000;
    std::string json_path;
};

// The clock probe's options from the command line.
ClockProbeOptions clock_options(const ClocksArgs& args) {
    ClockProbeOptions options;
    options.duration_ns = parse_duration_option("--duration", args.duration);
    if (options.duration_ns <= 0)
        throw UsageError("--duration: expected a duration above 0");
    if (args.min_reads < 2)
        throw UsageError("--reads: expected at least 2");
    options.min_reads = args.min_reads;
    return options;
}

void add_clocks(CLI::App& probe, int& exit_code) {
    auto args = std::make_shared<ClocksArgs>();
    auto* cmd = probe.add_subcommand(
        "clocks",
        fmt::format("Measure every clock source: resolution, read cost, granularity, backward "
                    "steps (also across two cores) and drift against {}. Prints Markdown tables.",
                    reference_clock_name()));
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
        ProbeRunOptions options;
        options.clock = clock_options(*args);
        options.timers = false;
        // Open the output before measuring, so a bad path fails at once, not after the run.
        std::unique_ptr<OutputFile> json_out;
        if (!args->json_path.empty())
            json_out = std::make_unique<OutputFile>(args->json_path);
        const bool markdown = !(json_out && json_out->is_stdout());
        const ProbeResults results =
            run_probes_and_print(options, "loopscope probe clocks", markdown);
        if (json_out) {
            json_out->write(probe_results_to_json(results).dump(2) + "\n");
            json_out->commit();
        }
        exit_code = kExitOk;
    });
}

// `loopscope probe` with no subcommand: every probe, clocks then timers, under one context.
void run_all_probes(const std::string& json_path, bool quick) {
    ProbeRunOptions options;
    ClocksArgs clock_args;
    if (quick)
        clock_args.duration = "1s";
    options.clock = clock_options(clock_args);
    options.timer = quick ? TimerProbeConfig::quick() : TimerProbeConfig::standard();
    options.quick = quick;
    std::unique_ptr<OutputFile> json_out;
    if (!json_path.empty())
        json_out = std::make_unique<OutputFile>(json_path);
    const bool markdown = !(json_out && json_out->is_stdout());
    const ProbeResults results = run_probes_and_print(options, "loopscope probe", markdown);
    if (json_out) {
        json_out->write(probe_results_to_json(results).dump(2) + "\n");
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
        const ProbeDocument a = load_probe_for_compare(a_path);
        const ProbeDocument b = load_probe_for_compare(b_path);
        const auto sections = compare_documents(a, b);
        fmt::print("# loopscope probe compare\n\n{}",
                   comparison_markdown(sections, a_path, b_path));
        exit_code = kExitOk;
    });
}

}  // namespace

ProbeResults run_probes_and_print(const ProbeRunOptions& options, std::string_view title,
                                  bool markdown, const ProbeProgressLabels& labels) {
    std::optional<Progress> progress;
    ProbeRunCallbacks callbacks;
    callbacks.stage_started = [&](ProbeStage stage) {
        if (stage == ProbeStage::clocks)
            progress.emplace(labels.clocks);
        else if (stage == ProbeStage::timers)
            progress.emplace(labels.timers);
    };
    callbacks.progress = [&](double fraction, std::string_view what) {
        if (progress)
            progress->update(fraction, what);
    };
    callbacks.stage_done = [&](ProbeStage stage, const ProbeResults& r) {
        if (progress) {
            progress->done();
            progress.reset();
        }
        if (!markdown)
            return;
        if (stage == ProbeStage::context)
            fmt::print("# {}\n\n{}\n", title, context_section_markdown(r.context));
        else if (stage == ProbeStage::clocks)
            fmt::print("\n{}", clocks_section_markdown(*r.clocks));
        else  // `probe timers` has always printed its tables right under the context
            fmt::print("{}{}", options.clocks ? "\n" : "", render_timer_markdown(*r.timers));
        std::fflush(stdout);
    };
    ProbeResults results = run_probes(options, callbacks);
    if (markdown) {
        fmt::print("\n{}", machine_load_markdown(results.load, results.context.logical_cpus,
                                                 results.timers.has_value()));
        std::fflush(stdout);
    }
    return results;
}

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
