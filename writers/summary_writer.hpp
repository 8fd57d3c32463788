// Writing the summary of many captures: one row a capture (or a failed file, with its error),
// rows per group, and the files skipped as not captures, in every output format (terminal,
// Markdown, CSV, JSON, HTML with bar charts, and JSONL: one line a capture and figure).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
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

// A line chart (SVG) of a figure over runs: one line a series, one point a run that has the
// figure, placed by the run's index among `runs`; a point ringed in red when `regressed`.
struct LinePoint {
    std::size_t index = 0;
    double value = 0;
    std::int64_t run = 0;
    bool regressed = false;
};
struct LineSeries {
    std::string name;
    std::vector<LinePoint> points;
};
std::string svg_line_chart(std::string_view figure, std::size_t runs,
                           std::span<const LineSeries> series);

}  // namespace loopscope
