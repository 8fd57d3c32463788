// Writing the summary of many captures: one row a capture (or a failed file, with its error),
// rows per group, and the files skipped as not captures, in every output format (terminal,
// Markdown, CSV, JSON, HTML with grouped bars, and JSONL: one line a capture and figure).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/output_file.hpp"
#include "core/summary.hpp"
#include "writers/data_table.hpp"

namespace loopscope {

struct SummaryDocument {
    std::vector<CaptureSummary> rows;
    std::vector<std::string> group_by;  // empty: no groups
    std::vector<SummaryGroup> groups;
    std::vector<SkippedFile> skipped;
};

// "terminal", "md", "csv", "json", "html", "jsonl"; throws UsageError for another.
void check_summary_format(std::string_view format);
void write_summary(const SummaryDocument& doc, std::string_view format, OutputFile& out);

}  // namespace loopscope
