// `loopscope replay INPUT`: feeds the frame times of a trace or capture (read by the shared
// readers of readers/readers.hpp) through a chosen loop policy on the virtual clock, writes the
// per-frame records as a trace and prints the loop figures. --step-cost asks what a given cost
// per step would have done to this frame pattern; --sweep runs a grid of dt, step cap and clamp.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/errors.hpp"
#include "common/markdown_table.hpp"
#include "common/output_file.hpp"
#include "core/analysis.hpp"
#include "core/duration.hpp"
#include "core/loop_figures.hpp"
#include "core/loop_scenarios.hpp"
#include "readers/readers.hpp"
#include "tool/commands.hpp"
#include "tool/loop_options.hpp"
#include "tool/loop_summary.hpp"
#include "writers/loop_json.hpp"
#include "writers/trace_writer.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

struct ReplayArgs {
    std::string input;
    std::string unit = "ms";
    std::string process;
    std::string step_cost;
    bool sweep = false;
    bool strict = false;
    std::string sweep_dt = "1/30,1/60,1/120";
    std::string sweep_max_steps = "0,4,8";
    std::string sweep_clamp = "0,100ms,250ms";
    LoopOptions loop;
};

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        out.push_back(item);
    return out;
}

// The values of --sweep-dt, --sweep-max-steps and --sweep-clamp, parsed before anything is
// read or written, so a bad one leaves no trace file behind.
struct SweepGrid {
    std::vector<std::int64_t> dts;
    std::vector<std::int64_t> caps;
    std::vector<std::int64_t> clamps;
};

SweepGrid parse_sweep(const ReplayArgs& args) {
    std::vector<std::int64_t> dts;
    std::vector<std::int64_t> caps;
    std::vector<std::int64_t> clamps;
    for (const auto& s : split_list(args.sweep_dt)) {
        const std::int64_t dt_ns = parse_duration_option("--sweep-dt", s);
        if (dt_ns <= 0)
            throw UsageError(
                fmt::format("invalid --sweep-dt '{}': a step must be longer than 0", s));
        dts.push_back(dt_ns);
    }
    for (const auto& s : split_list(args.sweep_max_steps)) {
        caps.push_back(parse_count("--sweep-max-steps", s));
    }
    for (const auto& s : split_list(args.sweep_clamp))
        clamps.push_back(parse_duration_option("--sweep-clamp", s));
    if (dts.empty() || caps.empty() || clamps.empty()) {
        throw UsageError(
            "invalid sweep: --sweep-dt, --sweep-max-steps and --sweep-clamp each "
            "need at least one value");
    }
    return {std::move(dts), std::move(caps), std::move(clamps)};
}

std::string sweep_table(std::span<const std::int64_t> frames, const LoopConfig& base,
                        std::int64_t step_cost_ns, const SweepGrid& grid) {
    MarkdownTable table;
    table.add_column("dt");
    table.add_column("max steps");
    table.add_column("clamp");
    table.add_column("verdict", MarkdownTable::Align::left);
    table.add_column("largest steps/frame");
    table.add_column("lost to clamp (real)");
    table.add_column("dropped by cap (sim)");
    table.add_column("slow-motion factor");
    table.add_column("step aliasing");
    for (std::int64_t dt : grid.dts) {
        for (std::int64_t cap : grid.caps) {
            for (std::int64_t clamp : grid.clamps) {
                LoopConfig c = base;
                c.dt_ns = dt;
                c.max_steps = cap;
                c.clamp_ns = clamp;
                // Only the figures are kept, never the records: a grid over a long capture
                // costs the memory of one.
                LoopFiguresBuilder figures(c, kDefaultSpiralWindow, 0);
                const VirtualRunResult result = run_replay(
                    frames, c, step_cost_ns, [&](const FrameRecord& r) { figures.add(r); });
                const LoopFigures f = figures.figures();
                std::string onset = verdict_brief(f);
                if (result.froze)
                    onset += fmt::format(", froze at frame {}", result.frames);
                table.add_row(
                    {format_duration(dt), cap > 0 ? fmt::format("{}", cap) : "unlimited",
                     clamp > 0 ? format_duration(clamp) : "off", onset,
                     fmt::format("{}", f.max_steps_per_frame), format_duration(f.clamp_lost_ns),
                     format_duration(f.cap_dropped_ns),
                     f.slow_motion_factor ? fmt::format("{:.3f}", *f.slow_motion_factor) : "-",
                     fmt::format("{:.4f}", f.step_aliasing_share)});
            }
        }
    }
    return fmt::format(
        "Sweep ({} policy, timescale {}, step cost {}; verdict, onset, slow-motion factor and "
        "step aliasing (share of frames) as defined in the summary):\n{}",
        policy_name(base.policy), base.timescale, format_duration(step_cost_ns), table.render());
}

// Where each knob of the replay's loop came from: the options, the trace's metadata or the
// engine's defaults. One line, printed after the summary's "Loop:" line.
std::string loop_sources(const LoopOptions& o, bool from_trace) {
    std::vector<std::string> given, rest;
    for (const auto& [option, knob] : {std::pair{&o.policy, "policy"},
                                       {&o.dt, "dt"},
                                       {&o.clamp, "clamp"},
                                       {&o.max_steps, "max steps"},
                                       {&o.timescale, "timescale"}}) {
        (option->empty() ? rest : given).push_back(knob);
    }
    const auto list = [](const std::vector<std::string>& knobs) {
        std::string out;
        for (std::size_t i = 0; i < knobs.size(); ++i)
            out += (i == 0 ? "" : ", ") + knobs[i];
        return out;
    };
    std::string text = "Loop settings from:";
    if (!given.empty())
        text += fmt::format(" the options ({})", list(given));
    if (!rest.empty()) {
        text += fmt::format(
            "{} {} ({})", given.empty() ? "" : ";",
            from_trace ? "the trace's metadata" : "the defaults, the input stating no loop",
            list(rest));
    }
    return text + "\n";
}

int replay_command(const ReplayArgs& args) {
    check_plain_unit("--unit", args.unit);
    // Checked before anything is read, so a bad option leaves no file behind; the trace's own
    // loop, once read, is the base the options then change.
    LoopConfig config = loop_config(args.loop);
    std::FILE* summary_out = summary_stream(args.loop);
    std::int64_t step_cost_ns = 0;
    if (!args.step_cost.empty()) {
        step_cost_ns = parse_duration_option("--step-cost", args.step_cost);
    }
    std::optional<SweepGrid> sweep;
    if (args.sweep)
        sweep = parse_sweep(args);
    refuse_output_over_input(args.loop.output, std::span(&args.input, 1));
    refuse_output_over_input(args.loop.json, std::span(&args.input, 1));
    ReadOptions read_options;
    read_options.plain_unit = args.unit;
    read_options.process = args.process;
    read_options.frame_times_only = true;  // the replay makes its own loop columns
    read_options.map_large_files = true;
    read_options.strict = args.strict;
    const Capture capture = read_capture(args.input, read_options);
    for (const std::string& w : capture.warnings)
        fmt::print(stderr, "loopscope: warning: {}\n", w);
    for (const std::string& w : data_quality_notes(capture.data_quality))
        fmt::print(stderr, "loopscope: {}: {}\n", args.input, w);
    // A trace states the loop it ran: that loop, not the engine's defaults, is what a replay
    // without options reproduces.
    const std::optional<LoopConfig> stated = loop_config_from_metadata(capture);
    if (stated)
        config = loop_config(args.loop, *stated);

    // The records stream into the trace and the summary; none is kept.
    std::optional<OutputFile> out;
    std::optional<TraceWriter> writer;
    if (!args.loop.output.empty()) {
        out.emplace(args.loop.output);
        std::vector<std::pair<std::string, std::string>> metadata = {
            {"replay_of", args.input}, {"replay_format", capture.source.format}};
        if (!capture.source.process.empty()) {
            metadata.emplace_back("process", capture.source.process);
        }
        metadata.emplace_back("step_cost_ns", fmt::format("{}", step_cost_ns));
        writer.emplace(*out, TraceInfo{"virtual (replay)", config, "", "", metadata});
    }
    LoopSummaryBuilder summary(config);
    const VirtualRunResult result =
        run_replay(capture.frame_ns, config, step_cost_ns, [&](const FrameRecord& r) {
            summary.add(r);
            if (writer)
                writer->write(r);
        });
    if (writer) {
        writer->finish();
        out->commit();
    }

    std::string text = fmt::format(
        "loopscope replay: {} ({}{}), {} frames", args.input, capture.source.format,
        capture.source.process.empty() ? "" : fmt::format(", process {}", capture.source.process),
        capture.frames());
    text += step_cost_ns > 0 ? fmt::format(", modelled step cost {} fed into the next frame\n",
                                           format_duration(step_cost_ns))
                             : "\n";
    if (!capture.per_frame) {
        text +=
            "Note: this capture holds one sample per logging interval (one frame's time, or an "
            "interval's frame rate), not one row per frame; the replay treats each sample as a "
            "frame, so steps per frame and alpha describe the samples, not the game's frames.\n";
    }
    if (result.froze) {
        text += fmt::format(
            "The loop froze: frame {} would have taken {} (over {}), so the replay stopped.\n",
            result.frames, format_duration(result.frozen_frame_ns),
            format_duration(kFrozenFrameNs));
    }
    if (!args.loop.output.empty() && args.loop.output != "-") {
        text += fmt::format("Trace: {} ({} frames)\n", args.loop.output, summary.frames());
    }
    // The summary begins with its "Loop:" line; where each setting came from follows it.
    std::string summary_text = summary.text();
    const std::size_t loop_line_end = summary_text.find('\n');
    summary_text.insert(
        loop_line_end == std::string::npos ? summary_text.size() : loop_line_end + 1,
        loop_sources(args.loop, stated.has_value()));
    text += summary_text;
    if (!args.loop.json.empty()) {
        LoopRunSource source{"replay",
                             {{"input", args.input},
                              {"format", capture.source.format},
                              {"process", capture.source.process},
                              {"step_cost_ns", fmt::format("{}", step_cost_ns)}},
                             result.froze};
        write_file_atomically(args.loop.json, loop_run_json(source, config, summary.figures()));
    }
    if (sweep)
        text += sweep_table(capture.frame_ns, config, step_cost_ns, *sweep);
    fmt::print(summary_out, "{}", text);
    return kExitOk;
}

}  // namespace

void add_replay_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ReplayArgs>();
    CLI::App* cmd = app.add_subcommand(
        "replay",
        "Feed a trace's or capture's frame times through a loop policy and print the loop figures");
    cmd->add_option("FILE", args->input,
                    "A loopscope trace, PresentMon/OCAT/FrameView/CapFrameX/MangoHud capture, or a "
                    "plain list of frame times (one a line); - reads standard input")
        ->required();
    cmd->add_option("--unit", args->unit, "Unit of a plain list: ns, us, ms or s (default ms)");
    cmd->add_flag("--strict", args->strict,
                  "Refuse a capture holding cells that are not the numbers their column holds, "
                  "naming file, line and column (by default they are counted and said)");
    cmd->add_option("--process", args->process,
                    "Stream of a capture to replay: process name, process ID or swap chain "
                    "(default: the one with the most frames)");
    cmd->add_option("--step-cost", args->step_cost,
                    "Modelled real cost of one simulation step, added to the next frame's time");
    CLI::Option* sweep = cmd->add_flag(
        "--sweep", args->sweep,
        "Also replay a grid of dt x max steps x clamp and print one row per combination");
    cmd->add_option("--sweep-dt", args->sweep_dt, "Sweep values of dt (default 1/30,1/60,1/120)")
        ->needs(sweep);
    cmd->add_option("--sweep-max-steps", args->sweep_max_steps,
                    "Sweep values of max steps (default 0,4,8)")
        ->needs(sweep);
    cmd->add_option("--sweep-clamp", args->sweep_clamp,
                    "Sweep values of the clamp (default 0,100ms,250ms)")
        ->needs(sweep);
    add_loop_options(*cmd, args->loop);
    cmd->callback([args, &exit_code] { exit_code = replay_command(*args); });
}

}  // namespace loopscope
