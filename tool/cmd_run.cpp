// `loopscope run`: a game loop under a chosen policy, on a real clock (busy work for the step and
// render costs, a real frame limiter) or on the virtual clock (bit-identical, instant), for one
// of the built-in scenarios. Writes the per-frame trace with -o and prints the loop figures.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "core/duration.hpp"
#include "core/loop_figures.hpp"
#include "core/loop_scenarios.hpp"
#include "core/units.hpp"
#include "probes/loop_runner.hpp"
#include "reports/loop_json.hpp"
#include "reports/trace_writer.hpp"
#include "tool/commands.hpp"
#include "tool/loop_options.hpp"
#include "tool/loop_summary.hpp"

namespace loopscope {

namespace {

struct RunArgs {
    LoopOptions loop;
    std::string scenario = "steady-60";
    std::string clock = "steady_clock";
    std::string frames;
    std::string seconds;
    std::string seed;
    bool list = false;
};

std::string list_scenarios() {
    std::string out = "Scenarios (loopscope run --scenario NAME):\n";
    for (const Scenario& s : builtin_scenarios()) {
        out += fmt::format("  {:<20} {} frames; {}\n", s.name, s.frames, s.description);
        out += fmt::format("  {:<20} {}\n", "", format_loop_config(s.config));
    }
    out += "Clocks (--clock NAME): virtual (the frame-time model, bit-identical run to run)";
    for (const RealClockSource& c : real_clock_sources())
        out += fmt::format(", {}", c.name);
    out += "\n";
    return out;
}

// "virtual, steady_clock, monotonic, ...": the --clock values, for the help and the error.
std::string clock_names() {
    std::string names = "virtual";
    for (const RealClockSource& c : real_clock_sources())
        names += fmt::format(", {}", c.name);
    return names;
}

int run_command(const RunArgs& args) {
    if (args.list) {
        fmt::print("{}", list_scenarios());
        return kExitOk;
    }
    const Scenario* scenario = find_scenario(args.scenario);
    if (!scenario) {
        std::string names;
        for (const Scenario& s : builtin_scenarios())
            names += (names.empty() ? "" : ", ") + s.name;
        throw UsageError(
            fmt::format("invalid --scenario '{}': expected one of {}", args.scenario, names));
    }
    const LoopConfig config = loop_config(args.loop, scenario->config);
    FrameModel model = scenario->model;
    if (!args.seed.empty()) {
        model.seed = static_cast<std::uint64_t>(parse_count("--seed", args.seed));
    }
    std::int64_t frames = args.frames.empty() ? 0 : parse_count("--frames", args.frames);
    std::int64_t duration_ns = 0;
    if (!args.seconds.empty()) {
        const double s = parse_decimal("--seconds", args.seconds);
        if (s <= 0 || s > 1e6) {
            throw UsageError(
                fmt::format("invalid --seconds '{}': expected a number of seconds "
                            "above 0 (up to 1000000)",
                            args.seconds));
        }
        duration_ns = std::llround(s * 1e9);
    }
    if (!args.frames.empty() && frames == 0) {
        throw UsageError("invalid --frames '0': expected at least 1 frame");
    }
    if (frames == 0 && duration_ns == 0)
        frames = scenario->frames;

    const bool is_virtual = args.clock == "virtual";
    const RealClockSource* clock = is_virtual ? nullptr : find_real_clock(args.clock);
    if (!is_virtual && !clock) {
        throw UsageError(
            fmt::format("invalid --clock '{}': expected one of {}", args.clock, clock_names()));
    }
    // A trace or JSON on standard output moves the summary to standard error.
    std::FILE* summary_out = summary_stream(args.loop);
    std::optional<OutputFile> json_out;
    if (!args.loop.json.empty())
        json_out.emplace(args.loop.json);
    bool froze = false;

    LoopSummaryBuilder summary(config);
    std::string header;
    int exit_code = kExitOk;
    std::vector<std::pair<std::string, std::string>> metadata = {
        {"scenario", scenario->name}, {"seed", fmt::format("{}", model.seed)}};
    if (is_virtual) {
        std::optional<OutputFile> out;
        std::optional<TraceWriter> writer;
        if (!args.loop.output.empty()) {
            out.emplace(args.loop.output);
            writer.emplace(*out, TraceInfo{"virtual", config, "", "", metadata});
        }
        if (frames == 0)
            frames = INT64_MAX;  // until duration_ns of virtual time
        // The virtual run stops at the frame count or once the virtual time passes --seconds.
        const VirtualRunResult result = run_virtual(
            model, config, frames,
            [&](const FrameRecord& r) {
                summary.add(r);
                if (writer)
                    writer->write(r);
            },
            duration_ns);
        if (writer) {
            writer->finish();
            out->commit();
        }
        header = fmt::format("loopscope run: scenario {} on the virtual clock (seed {})\n",
                             scenario->name, model.seed);
        froze = result.froze;
        if (result.froze) {
            header += fmt::format(
                "The loop froze: frame {} would have taken {} (over {}), so the run stopped.\n",
                result.frames, format_duration(result.frozen_frame_ns),
                format_duration(kFrozenFrameNs));
        }
    } else {
        RealRunOptions ro;
        ro.model = model;
        ro.config = config;
        ro.frames = frames;
        ro.duration_ns = duration_ns;
        ro.clock = clock;
        ro.trace_path = args.loop.output;
        ro.metadata = metadata;
        ro.on_frame = [&](const FrameRecord& r) { summary.add(r); };
        const RealRunResult result = run_real(ro);
        header = fmt::format(
            "loopscope run: scenario {} on the real clock {} (busy work for step "
            "and render costs, a sleep+spin limiter)\n",
            scenario->name, clock->name);
        if (result.cut_short) {
            // The run's time limit cut a frame's steps. The loop froze only if nothing bounded
            // its frame time: a spiral with neither clamp nor step cap. Held by a guard, it was
            // still advancing, in slow motion.
            const LoopFigures f = summary.figures();
            froze = loop_froze(f, config);
            if (froze) {
                header += fmt::format(
                    "The loop froze: a frame's steps would have run past {}, so the run "
                    "stopped.\n",
                    format_duration(ro.hard_limit_ns));
            } else {
                header += fmt::format(
                    "The run reached its {} limit at frame {} and stopped; the loop was still "
                    "advancing{}.\n",
                    format_duration(ro.hard_limit_ns), summary.frames(),
                    f.slow_motion_factor
                        ? fmt::format(", in slow motion at {:.2f}x", *f.slow_motion_factor)
                        : std::string());
            }
        }
        if (result.dropped_frames > 0) {
            header += fmt::format("The recorder dropped {} frames.\n", result.dropped_frames);
        }
        if (!result.trace_ok) {
            fmt::print(stderr, "loopscope: failed: could not write the trace '{}'\n",
                       args.loop.output);
            exit_code = kExitFailure;
        }
    }
    if (!args.loop.output.empty() && args.loop.output != "-" && exit_code == kExitOk) {
        header += fmt::format("Trace: {} ({} frames)\n", args.loop.output, summary.frames());
    }
    if (json_out) {
        LoopRunSource source{
            "run",
            {{"scenario", scenario->name},
             {"clock", is_virtual ? std::string("virtual") : std::string(clock->name)},
             {"seed", fmt::format("{}", model.seed)}},
            froze};
        json_out->write(loop_run_json(source, config, summary.figures()));
        json_out->commit();
    }
    fmt::print(summary_out, "{}{}", header, summary.text());
    return exit_code;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<RunArgs>();
    CLI::App* cmd = app.add_subcommand(
        "run", "Run a game loop on a real or the virtual clock and print its loop figures");
    cmd->add_option("--scenario", args->scenario,
                    "Built-in scenario (default steady-60; see --list-scenarios)");
    cmd->add_flag("--list-scenarios", args->list, "List the scenarios and clocks, then exit");
    cmd->add_option("--clock", args->clock,
                    fmt::format("Clock to run on: {} (default steady_clock)", clock_names()));
    cmd->add_option("--frames", args->frames, "Frames to run (default: the scenario's)");
    cmd->add_option("--seconds", args->seconds, "Run for this many seconds instead");
    cmd->add_option("--seed", args->seed, "Seed of the scenario's jitter (default 1)");
    add_loop_options(*cmd, args->loop);
    cmd->callback([args, &exit_code] { exit_code = run_command(*args); });
}

}  // namespace loopscope
