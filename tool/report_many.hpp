// The options of `report` for many captures: --summary (one row a capture, files and folders),
// labels, groups, and the history with its regression gate (--history, --fail-if-regressed).
// Kept apart from cmd_report.cpp, which registers them and hands over.
#pragma once

#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/summary.hpp"
#include "readers/readers.hpp"
#include "stores/clickhouse.hpp"

namespace CLI {
class App;
}

namespace loopscope {

struct ManyArgs {
    bool summary = false;
    std::vector<std::string> labels;      // KEY=VALUE
    std::vector<std::string> run_labels;  // KEY=VALUE, not part of the series
    std::string labels_from_path;
    std::vector<std::string> group_by;
    std::string history;  // FILE.db
    std::string machine;  // probe JSON
    std::vector<std::string> fail_if_regressed;
    unsigned baseline_runs = 5;
    bool require_baseline = false;
    std::string store;  // clickhouse://HOST:PORT/DATABASE
    long store_stall_timeout_s = ClickHouseLimits{}.stall_timeout_s;
};

void add_many_options(CLI::App& cmd, ManyArgs& args);

// Throws UsageError for a malformed label, pattern or gate, a gate or --machine without a
// history, or --group-by without --summary: checked before any file is read.
void check_many_args(const ManyArgs& args);

// Whether any option asks for more than the one or two captures' report.
bool wants_summary(const ManyArgs& args);
bool wants_history(const ManyArgs& args);
bool wants_store(const ManyArgs& args);

// `report PATH... --summary`: the summary written, then the history stored when asked. Exit
// code: 3 a regression, 2 a file failed (or no baseline for the gate), else 0.
int run_report_summary(const std::vector<std::string>& inputs, const std::string& format,
                       const std::string& output, const ReadOptions& read,
                       const AnalysisOptions& analysis, unsigned threads, const ManyArgs& args);

// The one or two captures of a plain report into the history (and through the gate).
int store_reports_in_history(const std::vector<CaptureSummary>& rows, const ManyArgs& args);

Labels command_line_labels(const ManyArgs& args);
// The --run-label options, sorted by key.
Labels command_line_run_labels(const ManyArgs& args);

}  // namespace loopscope
