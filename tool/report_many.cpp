// `report PATH... --summary` and `report ... --history FILE.db [--fail-if-regressed F]`: many
// captures in one table, and runs stored in the history with the regression gate (see
// report_many.hpp).
#include "tool/report_many.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "core/regression.hpp"
#include "readers/summary_reading.hpp"
#include "stores/history.hpp"
#include "tool/option_values.hpp"
#include "tool/store_clickhouse.hpp"
#include "writers/summary_writer.hpp"

namespace loopscope {

void add_many_options(CLI::App& cmd, ManyArgs& args) {
    cmd.add_flag("--summary", args.summary,
                 "One row a capture with its headline figures: each FILE a capture or a folder "
                 "searched recursively (files that are not captures are skipped and counted)");
    cmd.add_option("--label", args.labels,
                   "A label KEY=VALUE for every capture of this command; may be repeated")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd.add_option("--run-label", args.run_labels,
                   "A label KEY=VALUE of this run alone (a build number, a commit): stored with "
                   "--history and --store, not part of the series the gate compares; may be "
                   "repeated")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd.add_option("--labels-from-path", args.labels_from_path,
                   "Labels from the folders below a folder given: game/config/... names the "
                   "first folder 'game', the second 'config'; '_' skips one");
    cmd.add_option("--group-by", args.group_by,
                   "With --summary: rows per group of this label (the mean of each figure); may "
                   "be repeated")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd.add_option("--history", args.history,
                   "Store each capture's figures and labels as a run in this SQLite database "
                   "(created if missing; see docs/history.md)");
    cmd.add_option("--machine", args.machine,
                   "With --history: the machine's context, from the JSON of `loopscope probe "
                   "--format json`");
    cmd.add_option("--fail-if-regressed", args.fail_if_regressed,
                   "With --history: exit 3 when FIGURE[:TOLERANCE] is worse than the baseline "
                   "runs of the same labels beyond the tolerance (in the figure's unit, or N%) "
                   "and beyond their run-to-run variation; may be repeated")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd.add_option("--baseline-runs", args.baseline_runs,
                   "Runs of the history the gate compares with, newest first")
        ->check(CLI::Range(2u, 1000u))
        ->capture_default_str();
    cmd.add_flag("--require-baseline", args.require_baseline,
                 "With --fail-if-regressed: fewer than 2 earlier runs to compare with is an error "
                 "(exit 2), not a note");
    cmd.add_option("--store", args.store,
                   "Send each capture's frames, figures and labels to ClickHouse, "
                   "clickhouse://HOST:PORT/DATABASE (tables created if missing; a capture stored "
                   "again is replaced; see docs/history.md)");
    cmd.add_option("--store-stall-timeout", args.store_stall_timeout_s,
                   "With --store: seconds a request to ClickHouse may go without a byte moving "
                   "before it fails (an upload that keeps moving is never cut)")
        ->check(CLI::Range(1L, 86400L))
        ->capture_default_str();
}

bool wants_summary(const ManyArgs& args) {
    return args.summary;
}

bool wants_history(const ManyArgs& args) {
    return !args.history.empty();
}

bool wants_store(const ManyArgs& args) {
    return !args.store.empty();
}

Labels command_line_labels(const ManyArgs& args) {
    Labels labels;
    for (const std::string& l : args.labels) {
        const auto [k, v] = parse_label(l);
        set_label(labels, k, v);
    }
    return labels;
}

Labels command_line_run_labels(const ManyArgs& args) {
    Labels labels;
    for (const std::string& l : args.run_labels) {
        const auto [k, v] = parse_label(l);
        set_label(labels, k, v);
    }
    std::sort(labels.begin(), labels.end());
    return labels;
}

void check_many_args(const ManyArgs& args) {
    command_line_labels(args);
    command_line_run_labels(args);
    if (!args.run_labels.empty() && args.history.empty() && args.store.empty())
        throw UsageError("--run-label is stored with a run: give --history FILE.db or --store");
    if (args.require_baseline && args.fail_if_regressed.empty())
        throw UsageError("--require-baseline goes with --fail-if-regressed");
    if (!args.labels_from_path.empty())
        parse_path_pattern(args.labels_from_path);
    if (!args.group_by.empty() && !args.summary)
        throw UsageError("--group-by groups the rows of --summary");
    if (args.history.empty()) {
        if (!args.fail_if_regressed.empty())
            throw UsageError("--fail-if-regressed compares with a history: give --history FILE.db");
        if (!args.machine.empty())
            throw UsageError("--machine goes with --history FILE.db");
    }
    for (const std::string& c : args.fail_if_regressed)
        parse_regression_check(c);
    if (!args.store.empty()) {
        parse_clickhouse_url("--store", args.store);
        if (!clickhouse_available())
            throw UsageError(
                "--store: this loopscope was built without libcurl: it cannot talk "
                "to ClickHouse");
    }
}

namespace {

// The "context" object of a probe's JSON, as compact text.
std::string machine_context(const std::string& path) {
    if (path.empty())
        return {};
    std::ifstream in(path);
    if (!in)
        throw InputError(path, "cannot open the machine's probe JSON");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(path, fmt::format("not JSON: {}", e.what()));
    }
    if (!j.is_object() || !j.contains("context") || !j["context"].is_object()) {
        throw InputError(path,
                         "no \"context\" object: expected the JSON of `loopscope probe "
                         "--format json`");
    }
    return j["context"].dump();
}

}  // namespace

namespace {

// "game=x gpu=y": labels for a line of text.
std::string labels_line(const Labels& labels) {
    std::string line;
    for (const auto& [k, v] : labels) {
        if (!line.empty())
            line += ' ';
        line.append(k).append("=").append(v);
    }
    return line;
}

}  // namespace

int store_reports_in_history(const std::vector<CaptureSummary>& rows, const ManyArgs& args) {
    check_many_args(args);
    std::vector<RegressionCheck> checks;
    for (const std::string& c : args.fail_if_regressed)
        checks.push_back(parse_regression_check(c));
    const std::string machine = machine_context(args.machine);
    History history(args.history, true);
    int exit_code = kExitOk;
    std::vector<HistoryRun> runs;
    for (const CaptureSummary& row : rows) {
        if (row.failed() || row.file == "-")
            continue;
        HistoryRun run;
        run.added_utc = utc_now_text();
        run.source_file = row.file;
        run.source_hash = capture_file_hash(row.file);
        run.format = row.format;
        run.labels = row.labels;
        std::sort(run.labels.begin(), run.labels.end());
        run.run_labels = command_line_run_labels(args);
        run.loopscope_version = LOOPSCOPE_VERSION;
        run.machine_json = machine;
        for (const SummaryFigure& f : row.figures) {
            if (f.value)
                run.figures.emplace_back(std::string(f.key), *f.value);
        }
        run.verdict = checks.empty() ? "stored" : "passed";
        std::vector<std::string> details;
        for (const RegressionCheck& check : checks) {
            const std::optional<double> value = row.figure(check.figure);
            if (!value) {
                // Not a number to compare (a per-frame figure of a sampled log): said, exit 2.
                std::string reason;
                for (const SummaryFigure& f : row.figures) {
                    if (f.key == check.figure)
                        reason = f.absent;
                }
                const std::string line = fmt::format("--fail-if-regressed '{}': {} has no {}: {}",
                                                     check.text, row.file, check.figure, reason);
                fmt::print(stderr, "loopscope: error: {}\n", line);
                details.push_back(line);
                exit_code = std::max<int>(exit_code, kExitBadInput);
                continue;
            }
            const std::vector<double> baseline =
                history.baseline(run.labels, check.figure, run.source_hash, args.baseline_runs);
            if (baseline.size() < 2) {
                // A new history (a new pipeline, new labels) has nothing to compare with: a note
                // and this run stored as the start of the baseline, unless asked to fail.
                const std::string line = fmt::format(
                    "nothing to compare with yet: {} of 2 runs of {} in {} with the labels '{}' "
                    "(the gate needs 2 to measure run-to-run variation)",
                    baseline.size(), check.figure, args.history, labels_line(run.labels));
                if (args.require_baseline) {
                    fmt::print(stderr,
                               "loopscope: error: {}: {}; store more runs without "
                               "--require-baseline first\n",
                               row.file, line);
                    exit_code = std::max<int>(exit_code, kExitBadInput);
                } else {
                    fmt::print(stderr, "loopscope: note: {}: {}\n", row.file, line);
                }
                details.push_back(line);
                if (run.verdict != "regressed")
                    run.verdict = "no-baseline";
                continue;
            }
            const RegressionResult result = test_regression(check, *value, baseline);
            details.push_back(result.message);
            if (result.regressed) {
                run.verdict = "regressed";
                fmt::print(stderr, "loopscope: gate failed: {}: {}\n", row.file, result.message);
                exit_code = kExitGateFailed;
            } else {
                fmt::print(stderr, "loopscope: {}: {}\n", row.file, result.message);
            }
        }
        run.verdict_detail = fmt::format("{}", fmt::join(details, "\n"));
        runs.push_back(std::move(run));
    }
    // Every run of this command in one transaction: all stored, or none.
    history.begin();
    for (const HistoryRun& run : runs)
        history.store(run);
    history.commit();
    return exit_code;
}

int run_report_summary(const std::vector<std::string>& inputs, const std::string& format,
                       const std::string& output, const ReadOptions& read,
                       const AnalysisOptions& analysis, unsigned threads, const ManyArgs& args) {
    check_summary_format(format);
    if (format == "html" && output == "-")
        throw UsageError("--format html writes a file: give it with -o FILE");
    check_many_args(args);
    const Labels labels = command_line_labels(args);
    const std::vector<std::string> pattern = args.labels_from_path.empty()
                                                 ? std::vector<std::string>{}
                                                 : parse_path_pattern(args.labels_from_path);
    const std::vector<SummaryInput> found = find_summary_inputs(inputs, pattern);
    // The captures go to ClickHouse as they are read (their frames are not kept for later);
    // they become visible at the end, once committed.
    std::optional<ClickHouseSink> sink;
    CaptureVisitor visit;
    if (wants_store(args)) {
        sink.emplace(args.store, ClickHouseLimits{.stall_timeout_s = args.store_stall_timeout_s},
                     command_line_run_labels(args));
        sink->open();
        visit = [&](const Capture& c, const CaptureReport& r, const CaptureSummary& row) {
            sink->add(c, r, row);
        };
    }
    SummaryReading reading =
        read_summaries(found, labels, read, analysis, threads, visit, command_line_error_text);
    SummaryDocument doc;
    doc.rows = std::move(reading.rows);
    doc.skipped = std::move(reading.skipped);
    doc.group_by = args.group_by;
    if (!doc.group_by.empty())
        doc.groups = group_summaries(doc.rows, doc.group_by);
    OutputFile out(output);
    write_summary(doc, format, out);
    out.commit();
    int exit_code = kExitOk;
    for (const CaptureSummary& r : doc.rows) {
        if (r.failed()) {
            fmt::print(stderr, "loopscope: error: {}\n", r.error);
            exit_code = kExitBadInput;
        }
    }
    if (!args.history.empty()) {
        const int stored = store_reports_in_history(doc.rows, args);
        exit_code = std::max(exit_code, stored);
    }
    if (sink)
        exit_code = std::max(exit_code, sink->finish());
    return exit_code;
}

}  // namespace loopscope
