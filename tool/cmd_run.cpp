// `loopscope run`: a game loop under a chosen policy, on a real clock (busy work for the step and
// render costs, a real frame limiter) or on the virtual clock (bit-identical, instant), for one
// of the built-in scenarios. Writes the per-frame trace with -o and prints the loop figures.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "common/terminal.hpp"
#include "core/duration.hpp"
#include "core/loop_figures.hpp"
#include "core/loop_scenarios.hpp"
#include "core/units.hpp"
#include "probes/loop_runner.hpp"
#include "tool/commands.hpp"
#include "tool/loop_options.hpp"
#include "tool/loop_summary.hpp"
#include "writers/loop_json.hpp"
#include "writers/trace_writer.hpp"

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

// What to run, from the command line, every option checked.
struct RunPlan {
    const Scenario* scenario = nullptr;
    LoopConfig config;
    FrameModel model;
    std::int64_t frames = 0;                                    // 0: until duration_ns
    std::int64_t duration_ns = 0;                               // 0: until frames
    const RealClockSource* clock = nullptr;                     // nullptr: the virtual clock
    std::vector<std::pair<std::string, std::string>> metadata;  // the trace's
};

RunPlan plan_run(const RunArgs& args) {
    RunPlan plan;
    plan.scenario = find_scenario(args.scenario);
    if (!plan.scenario) {
        std::string names;
        for (const Scenario& s : builtin_scenarios())
            names += (names.empty() ? "" : ", ") + s.name;
        throw UsageError(
            fmt::format("invalid --scenario '{}': expected one of {}", args.scenario, names));
    }
    const Scenario& scenario = *plan.scenario;
    plan.config = loop_config(args.loop, scenario.config);
    plan.model = scenario.model;
    if (!args.seed.empty()) {
        plan.model.seed = static_cast<std::uint64_t>(parse_count("--seed", args.seed));
    }
    plan.frames = args.frames.empty() ? 0 : parse_count("--frames", args.frames);
    if (!args.seconds.empty()) {
        const double s = parse_decimal("--seconds", args.seconds);
        if (s <= 0 || s > 1e6) {
            throw UsageError(
                fmt::format("invalid --seconds '{}': expected a number of seconds "
                            "above 0 (up to 1000000)",
                            args.seconds));
        }
        plan.duration_ns = std::llround(s * 1e9);
    }
    if (!args.frames.empty() && plan.frames == 0) {
        throw UsageError("invalid --frames '0': expected at least 1 frame");
    }
    if (plan.frames == 0 && plan.duration_ns == 0)
        plan.frames = scenario.frames;

    if (args.clock != "virtual") {
        plan.clock = find_real_clock(args.clock);
        if (!plan.clock) {
            throw UsageError(
                fmt::format("invalid --clock '{}': expected one of {}", args.clock, clock_names()));
        }
    }
    plan.metadata = {{"scenario", scenario.name}, {"seed", fmt::format("{}", plan.model.seed)}};
    return plan;
}

// The run on the virtual clock, every frame into the summary and the trace (when asked for);
// returns the summary's header lines.
std::string run_on_virtual_clock(const RunPlan& plan, const std::string& output,
                                 LoopSummaryBuilder& summary, bool& froze) {
    std::optional<OutputFile> out;
    std::optional<TraceWriter> writer;
    if (!output.empty()) {
        out.emplace(output);
        writer.emplace(*out, TraceInfo{"virtual", plan.config, "", "", plan.metadata});
    }
    // The virtual run stops at the frame count or once the virtual time passes --seconds.
    const std::int64_t frames = plan.frames == 0 ? INT64_MAX : plan.frames;
    const VirtualRunResult result = run_virtual(
        plan.model, plan.config, frames,
        [&](const FrameRecord& r) {
            summary.add(r);
            if (writer)
                writer->write(r);
        },
        plan.duration_ns);
    if (writer) {
        writer->finish();
        out->commit();
    }
    std::string header = fmt::format("loopscope run: scenario {} on the virtual clock (seed {})\n",
                                     plan.scenario->name, plan.model.seed);
    froze = result.froze;
    if (result.froze) {
        header += fmt::format(
            "The loop froze: frame {} would have taken {} (over {}), so the run stopped.\n",
            result.frames, format_duration(result.frozen_frame_ns),
            format_duration(kFrozenFrameNs));
    }
    return header;
}

// The run on a real clock, the recorder writing the trace; returns the summary's header lines
// and sets trace_ok and froze.
std::string run_on_real_clock(const RunPlan& plan, const std::string& output,
                              LoopSummaryBuilder& summary, bool& trace_ok, bool& froze) {
    RealRunOptions ro;
    ro.model = plan.model;
    ro.config = plan.config;
    ro.frames = plan.frames;
    ro.duration_ns = plan.duration_ns;
    ro.clock = plan.clock;
    ro.trace_path = output;
    ro.metadata = plan.metadata;
    // A real-clock run takes as long as its frames (up to a minute): show how far it is.
    Progress progress(fmt::format("run {}", plan.scenario->name));
    ro.on_frame = [&](const FrameRecord& r) {
        summary.add(r);
        const double done =
            plan.duration_ns > 0
                ? static_cast<double>(r.start_ns + r.raw_ns) / static_cast<double>(plan.duration_ns)
                : static_cast<double>(r.frame + 1) /
                      static_cast<double>(std::max<std::int64_t>(plan.frames, 1));
        progress.update(done);
    };
    const RealRunResult result = run_real(ro);
    progress.done();
    std::string header = fmt::format(
        "loopscope run: scenario {} on the real clock {} (busy work for step "
        "and render costs, a sleep+spin limiter)\n",
        plan.scenario->name, plan.clock->name);
    if (result.cut_short) {
        // The run's time limit cut a frame's steps. The loop froze only if nothing bounded its
        // frame time: a spiral with neither clamp nor step cap. Held by a guard, it was still
        // advancing, in slow motion.
        const LoopFigures f = summary.figures();
        froze = loop_froze(f, plan.config);
        if (froze) {
            header += fmt::format(
                "The loop froze: a frame's steps would have run past {}, so the run stopped.\n",
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
    trace_ok = result.trace_ok;
    return header;
}

int run_command(const RunArgs& args) {
    if (args.list) {
        fmt::print("{}", list_scenarios());
        return kExitOk;
    }
    const RunPlan plan = plan_run(args);
    const std::string& output = args.loop.output;
    // A trace or JSON on standard output moves the summary to standard error.
    std::FILE* summary_out = summary_stream(args.loop);
    std::optional<OutputFile> json_out;
    if (!args.loop.json.empty())
        json_out.emplace(args.loop.json);
    bool froze = false;

    LoopSummaryBuilder summary(plan.config);
    int exit_code = kExitOk;
    std::string header;
    if (!plan.clock) {
        header = run_on_virtual_clock(plan, output, summary, froze);
    } else {
        // The recorder opens the trace itself once the loop runs; a trace that cannot be
        // created is refused first, with the reason, as on the virtual clock.
        // (A device or a pipe is left alone: opening a FIFO twice would end its reader's input.)
        std::error_code ec;
        const auto status = std::filesystem::status(output, ec);
        if (!output.empty() && output != "-" &&
            (!std::filesystem::exists(status) || std::filesystem::is_regular_file(status)))
            OutputFile{output};
        bool trace_ok = true;
        header = run_on_real_clock(plan, output, summary, trace_ok, froze);
        if (!trace_ok) {
            fmt::print(stderr, "loopscope: failed: could not write the trace '{}'\n", output);
            exit_code = kExitFailure;
        }
    }
    if (!output.empty() && output != "-" && exit_code == kExitOk) {
        header += fmt::format("Trace: {} ({} frames)\n", output, summary.frames());
    }
    if (json_out) {
        LoopRunSource source{
            "run",
            {{"scenario", plan.scenario->name},
             {"clock", plan.clock ? std::string(plan.clock->name) : std::string("virtual")},
             {"seed", fmt::format("{}", plan.model.seed)}},
            froze};
        json_out->write(loop_run_json(source, plan.config, summary.figures()));
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
