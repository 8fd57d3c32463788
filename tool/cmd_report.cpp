// `loopscope report INPUT [INPUT2]`: reads one capture (or two, to compare before and after),
// computes the frame-pacing report and writes it in the chosen format; --fail-if turns it into a
// CI gate (exit code 3 naming the figure).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/markdown_table.hpp"
#include "common/output_file.hpp"
#include "common/terminal.hpp"
#include "core/analysis.hpp"
#include "core/comparison.hpp"
#include "core/gate.hpp"
#include "core/summary.hpp"
#include "readers/readers.hpp"
#include "tool/cli_text.hpp"
#include "tool/commands.hpp"
#include "tool/loop_options.hpp"
#include "tool/option_values.hpp"
#include "tool/report_many.hpp"
#include "tool/store_clickhouse.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

// More threads than this only add thread starts and memory: a block of lines is cut into a few
// pieces a thread, and each piece may keep a few hundred streams of its own until the merge.
constexpr unsigned kMaxReadThreads = 64;

struct ReportArgs {
    std::vector<std::string> inputs;
    std::string format = "terminal";
    std::string output = "-";
    std::string process;
    std::string plain_unit = "ms";
    bool list = false;
    std::string timeline = "present";
    std::string from;
    std::string to;
    std::vector<std::string> fail_if;
    unsigned threads = 0;  // 0 = one per hardware thread
    bool strict = false;
    double target_fps = 0;  // 0: none given (the detected refresh rate, if any)
    ManyArgs many;          // --summary, labels, --history (tool/report_many.hpp)
};

void list_streams(const ReportArgs& args) {
    std::string text;
    for (const std::string& input : args.inputs) {
        ReadOptions read;
        read.plain_unit = args.plain_unit;
        read.threads = args.threads;
        read.map_large_files = true;
        const CaptureListing listing = list_capture(input, read);
        const std::vector<CaptureStreamInfo>& streams = listing.streams;
        text += fmt::format("{} ({}): {} stream{}, most frames first\n", input, listing.format,
                            streams.size(), streams.size() == 1 ? "" : "s");
        MarkdownTable t;
        t.add_column("process", MarkdownTable::Align::left);
        t.add_column("pid");
        t.add_column("swap chain", MarkdownTable::Align::left);
        t.add_column("frames");
        t.add_column("duration (s)");
        for (const CaptureStreamInfo& s : streams) {
            t.add_row({s.process.empty() ? "-" : printable(s.process),
                       s.process_id >= 0 ? std::to_string(s.process_id) : "-",
                       s.swap_chain.empty() ? "-" : printable(s.swap_chain),
                       std::to_string(s.frames), fmt::format("{:.3f}", s.duration_s)});
        }
        text += t.render() + "\n";
    }
    OutputFile out(args.output);
    out.write(text);
    out.commit();
}

int run_report(const ReportArgs& args) {
    // Everything a user can get wrong on the command line is checked before any file is read.
    // JSONL is one line a capture and figure: the summary's rows, written long.
    const bool summary = wants_summary(args.many) || args.format == "jsonl";
    check_many_args(args.many);
    if (!summary) {
        const auto writer_check = make_writer(args.format, {});
        if (args.inputs.size() > 2) {
            throw UsageError(fmt::format(
                "{} captures: a report takes one, or two to compare; --summary takes any number",
                args.inputs.size()));
        }
    } else if (!args.fail_if.empty()) {
        throw UsageError(
            "--fail-if gates one capture's report; with --summary use "
            "--history FILE.db --fail-if-regressed FIGURE");
    }
    if (args.format == "html" && args.output == "-") {
        throw UsageError("--format html writes a file: give it with -o FILE");
    }
    if (args.timeline != "present" && args.timeline != "display") {
        throw UsageError(
            fmt::format("--timeline '{}': expected present or display", args.timeline));
    }
    check_plain_unit("--unit", args.plain_unit);
    refuse_output_over_input(args.output, args.inputs);
    AnalysisOptions analysis;
    analysis.timeline = args.timeline == "display" ? Timeline::display : Timeline::present;
    analysis.threads = args.threads;
    if (args.target_fps > 0)
        analysis.target_fps = args.target_fps;
    if (!args.from.empty())
        analysis.from = parse_range_bound("--from", args.from);
    if (!args.to.empty())
        analysis.to = parse_range_bound("--to", args.to);
    std::vector<GateCondition> gate;
    for (const std::string& c : args.fail_if)
        gate.push_back(parse_gate_condition(c));

    if (args.list) {
        list_streams(args);
        return kExitOk;
    }

    ReadOptions read;
    read.process = args.process;
    read.plain_unit = args.plain_unit;
    read.threads = args.threads;
    read.map_large_files = true;  // this program's SIGBUS handler explains a file cut short
    read.strict = args.strict;
    // A report over a whole trace that lists no frame's loop columns needs only the loop
    // figures: computed while reading, they take constant memory instead of 112 bytes a frame.
    // --store sends the loop columns of every frame.
    read.loop_figures_only = args.from.empty() && args.to.empty() &&
                             !writer_needs_loop_records(args.format) && !wants_store(args.many);
    if (summary) {
        return run_report_summary(args.inputs, args.format, args.output, read, analysis,
                                  args.threads, args.many);
    }
    std::vector<std::unique_ptr<Capture>> captures;
    Report report;
    for (const std::string& input : args.inputs) {
        captures.push_back(std::make_unique<Capture>(read_capture(input, read)));
        // The terminal, Markdown and JSON reports carry the reader's warnings among their
        // notes; when the report goes to a file, or in a format without notes, say them here.
        const bool notes_shown =
            args.output == "-" &&
            (args.format == "terminal" || args.format == "md" || args.format == "json");
        if (!notes_shown) {
            for (const std::string& w : captures.back()->warnings)
                fmt::print(stderr, "loopscope: warning: {}\n", w);
            for (const std::string& w : data_quality_notes(captures.back()->data_quality))
                fmt::print(stderr, "loopscope: {}: {}\n", input, w);
        }
        report.captures.push_back(analyse_capture(*captures.back(), analysis));
    }
    if (report.captures.size() == 2) {
        // Two layouts of one recording are compared over the presents both hold; each report
        // keeps all of its own. A range the user gave is the range compared.
        const std::optional<RecordingAlignment> aligned =
            args.from.empty() && args.to.empty() ? align_one_recording(*captures[0], *captures[1])
                                                 : std::nullopt;
        std::optional<CaptureReport> aligned_a, aligned_b;
        if (aligned) {
            AnalysisOptions cut = analysis;
            cut.to =
                RangeBound{RangeBound::Kind::frame, static_cast<std::int64_t>(aligned->frames_a)};
            aligned_a = analyse_capture(*captures[0], cut);
            cut.to.value = static_cast<std::int64_t>(aligned->frames_b);
            aligned_b = analyse_capture(*captures[1], cut);
        }
        // A million frames a side takes seconds: show how far the resamples are.
        Progress progress("comparing (block bootstrap)");
        report.comparison =
            compare_captures(aligned_a ? *aligned_a : report.captures[0],
                             aligned_b ? *aligned_b : report.captures[1], kBootstrapResamples,
                             kBootstrapSeed, [&](double done) { progress.update(done); });
        progress.done();
        if (aligned)
            report.comparison->timeline_reason += aligned->note;
    }
    const std::vector<GateFailure> failures = evaluate_gate(gate, report.captures.back());

    WriterOptions options;
    options.colour = args.output == "-" && use_colour();
    const auto writer = make_writer(args.format, options);
    OutputFile out(args.output);
    writer->write(report, out);
    out.commit();

    int stored = kExitOk;
    if (wants_history(args.many)) {
        std::vector<CaptureSummary> rows;
        for (std::size_t i = 0; i < report.captures.size(); ++i) {
            rows.push_back(summarise_capture(report.captures[i], args.inputs[i],
                                             captures[i]->source.format,
                                             command_line_labels(args.many)));
        }
        stored = store_reports_in_history(rows, args.many);
    }
    if (wants_store(args.many)) {
        ClickHouseSink sink(args.many.store,
                            ClickHouseLimits{.stall_timeout_s = args.many.store_stall_timeout_s},
                            command_line_run_labels(args.many));
        sink.open();
        for (std::size_t i = 0; i < report.captures.size(); ++i) {
            sink.add(*captures[i], report.captures[i],
                     summarise_capture(report.captures[i], args.inputs[i],
                                       captures[i]->source.format, command_line_labels(args.many)));
        }
        stored = std::max(stored, sink.finish());
    }
    if (!failures.empty()) {
        for (const GateFailure& f : failures) {
            fmt::print(stderr, "loopscope: gate failed: {}\n", f.message);
        }
        return kExitGateFailed;
    }
    return stored;
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ReportArgs>();
    CLI::App* cmd = app.add_subcommand(
        "report",
        "Frame-pacing report of a capture (loopscope trace, PresentMon, OCAT, FrameView, "
        "CapFrameX, MangoHud, MSI Afterburner, plain list), or of two captures side by side "
        "(A then B) with the difference in each figure and a bootstrap interval for it.");
    cmd->add_option("FILE", args->inputs,
                    "A capture, or two to compare (A before, B after); - reads standard input. "
                    "With --summary, any number of captures and folders")
        ->required()
        ->expected(1, -1);
    CLI::Option* format =
        cmd->add_option("--format", args->format,
                        "Output format: terminal, json, md, csv, html or chrome; with --summary "
                        "terminal, json, md, csv, html or jsonl (one line a capture and figure). "
                        "Default: from -o's extension (.json, .md, .csv, .html, .txt), else "
                        "terminal")
            ->capture_default_str();
    cmd->add_option("-o,--output", args->output,
                    "Output file; '-' is standard output, the default (html needs a file)")
        ->capture_default_str();
    cmd->add_option("--process", args->process,
                    "Process name, process ID or swap chain to analyse (default: the one with "
                    "the most frames)");
    cmd->add_flag("--list", args->list, "List the processes and swap chains a capture holds");
    cmd->add_option("--timeline", args->timeline,
                    "Which frame times: present (between presents) or display (between display "
                    "changes, dropped frames counted as dropped)")
        ->capture_default_str();
    cmd->add_option("--from", args->from,
                    "First frame: a frame number (1200) or a time with a unit (12.5s) since "
                    "the first frame's time stamp, as the hitch list gives it");
    cmd->add_option("--to", args->to, "End of the range (not included), as --from");
    cmd->add_option("--fail-if", args->fail_if,
                    "Fail (exit code 3) when a condition holds, e.g. p99_ms>20 or "
                    "stutter_time_share>0.01; may be repeated")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--target-fps", args->target_fps,
                    "Judge Unreal's missed-vsync share (unreal_mvp_share) against this frame rate "
                    "(default: the detected fixed refresh rate)")
        ->check(CLI::Range(1.0, 10000.0));
    cmd->add_flag("--strict", args->strict,
                  "Refuse a capture holding cells that are not the numbers their column holds "
                  "('Error', an empty cell, a negative or wrapped time), naming file, line and "
                  "column (exit 2); by default they are counted, reported under data quality "
                  "and the rows read without them. NA cells are never refused");
    cmd->add_option("--unit", args->plain_unit,
                    "Unit of a plain list of frame times: ns, us, ms or s")
        ->capture_default_str();
    cmd->add_option("--threads", args->threads,
                    "Threads that parse a large capture in pieces and compute its figures, "
                    "with the output of one thread; 0 = one per hardware thread (files under "
                    "1 MiB are read on one thread)")
        ->check(number_range(0, kMaxReadThreads))
        ->capture_default_str();
    add_many_options(*cmd, args->many);
    cmd->callback([args, format, &exit_code] {
        // `-o r.html` alone writes HTML, not the terminal's text into a file named .html.
        if (format->count() == 0) {
            if (const auto from_path = writer_format_for_path(args->output))
                args->format = *from_path;
        }
        exit_code = run_report(*args);
    });
}

}  // namespace loopscope
