// Writing the runs of a history (`loopscope history`): a table (terminal, Markdown), CSV, JSON
// ({"runs": [...]}) or HTML with each figure plotted over the runs of each label group. Every
// format prints the one DataTable of the runs (data_table.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/stored_runs.hpp"
#include "writers/data_table.hpp"

namespace loopscope {

struct HistoryListing {
    std::string database;              // the file, for the HTML's title
    std::vector<HistoryRun> runs;      // in the order stored
    std::vector<std::string> figures;  // the figure columns
    // JSON: every figure each run has instead of the figure columns (no figure was asked for).
    bool all_figures_in_json = false;
};

// The runs' table; its text columns are the terminal's, its CSV and JSON columns the files'.
DataTable history_table(const HistoryListing& listing);

// "terminal", "md", "csv", "json" or "html"; the caller checks the name.
std::string write_history(const HistoryListing& listing, std::string_view format);

}  // namespace loopscope
