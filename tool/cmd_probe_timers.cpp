// `loopscope probe timers`: measures how late this machine's sleeps, periodic timers and frame
// limiters wake up (probes/timer_probe.hpp) and prints the tables, or writes them as JSON.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "common/terminal.hpp"
#include "core/duration.hpp"
#include "core/units.hpp"
#include "probes/probe_json.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_probe.hpp"
#include "probes/timer_report.hpp"
#include "tool/cli_text.hpp"
#include "tool/commands.hpp"
#include "tool/loop_options.hpp"
#include "tool/probe_print.hpp"

namespace loopscope {

namespace {

struct ProbeTimersOptions {
    bool quick = false;
    std::string json_path;
    int loops = 0;  // 0: the default of the chosen run length
    std::string interval = "1ms";
    std::string bound = "0.5ms";
    bool no_realtime = false;
    std::vector<std::string> only;  // measurement names; empty: all
};

TimerProbeConfig config_from(const ProbeTimersOptions& o) {
    TimerProbeConfig c = o.quick ? TimerProbeConfig::quick() : TimerProbeConfig::standard();
    c.periodic_interval_ns = parse_duration_option("--interval", o.interval);
    if (c.periodic_interval_ns < 10 * kNsPerUs || c.periodic_interval_ns > kNsPerS) {
        throw UsageError(
            fmt::format("--interval {}: expected a duration from 10us to 1s", o.interval));
    }
    if (o.loops != 0)
        c.periodic_loops = o.loops;
    c.bound_ns = parse_duration_option("--bound", o.bound);
    if (c.bound_ns <= 0)
        throw UsageError(fmt::format("--bound {}: expected a duration above 0", o.bound));
    c.periodic_realtime = !o.no_realtime;
    if (!o.only.empty()) {
        c.run_one_shot = c.run_periodic = c.run_slack = c.run_limiters = false;
        for (const auto& name : o.only) {
            if (name == "one-shot") {
                c.run_one_shot = true;
            } else if (name == "periodic") {
                c.run_periodic = true;
            } else if (name == "slack") {
                c.run_slack = true;
            } else if (name == "limiters") {
                c.run_limiters = true;
            } else {
                throw UsageError(
                    fmt::format("--only {}: expected one-shot, periodic, slack or limiters", name));
            }
        }
    }
    return c;
}

}  // namespace

void add_probe_timers_command(CLI::App& probe, int& exit_code) {
    auto options = std::make_shared<ProbeTimersOptions>();
    CLI::App* cmd = probe.add_subcommand(
        "timers",
        "Measure how late sleeps, periodic timers and frame limiters wake up, and what limiting\n"
        "a frame rate costs in CPU time (about 52 s; --quick about 14 s).");
    cmd->add_flag("--quick", options->quick, "A short run (about 2.5 s) with fewer samples");
    cmd->add_option("--json", options->json_path, "Write the results as JSON to FILE ('-': stdout)")
        ->type_name("FILE");
    cmd->add_option("--loops", options->loops,
                    "Wake-ups of the periodic probe (default 1000, --quick 200)")
        ->check(number_range(1, 1'000'000));
    cmd->add_option("--interval", options->interval,
                    "Interval of the periodic probe, e.g. 1ms or 500us (default 1ms)");
    cmd->add_option(
        "--bound", options->bound,
        "p99 |pacing error| a recommended frame limiter must stay under (default 0.5ms)");
    cmd->add_option("--only", options->only,
                    "Run only these measurements: one-shot, periodic, slack, limiters "
                    "(comma-separated)")
        ->delimiter(',')
        ->type_name("LIST");
    cmd->add_flag("--no-realtime", options->no_realtime,
                  "Do not try SCHED_FIFO and mlockall for the periodic probe");
    cmd->callback([options, &exit_code] {
        const TimerProbeConfig config = config_from(*options);
        // Open the output first: a bad path fails before a 13 s measurement, not after it.
        std::unique_ptr<OutputFile> json_out;
        if (!options->json_path.empty()) {
            json_out = std::make_unique<OutputFile>(options->json_path);
        }
        const bool markdown = !(json_out && json_out->is_stdout());
        ProbeRunOptions run;
        run.clocks = false;
        run.timer = config;
        run.quick = options->quick;
        const ProbeResults results = run_probes_and_print(run, "loopscope probe timers", markdown);
        if (json_out) {
            json_out->write(probe_results_to_json(results).dump(2) + "\n");
            json_out->commit();
        }
        exit_code = kExitOk;
    });
}

}  // namespace loopscope
