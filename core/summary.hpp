// Many captures in one table: a summary row of each capture's figures (every keyed figure of the
// catalogue, so figures added there appear here), its labels (KEY=VALUE pairs from the command
// line or the folder path), and rows per group of a label. Pure: the reading of the files and
// their errors is the caller's (readers/summary_reading.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/analysis.hpp"

namespace loopscope {

// KEY=VALUE pairs in the order given; a key appears once.
using Labels = std::vector<std::pair<std::string, std::string>>;

// Sets key to value, replacing an earlier value of the same key.
void set_label(Labels& labels, const std::string& key, const std::string& value);
const std::string* find_label(const Labels& labels, std::string_view key);
// The labels as one canonical text, sorted by key ("config=dlss\ngame=doom\n"): two runs have
// the same labels when their texts are equal.
std::string labels_text(const Labels& labels);

// Labels from a file's folders below the folder it was found in: the pattern's names
// {"game", "config", "..."} name the first folder `game` and the second `config`; "_" skips a
// folder and "..." (last) ignores the rest. Folders beyond a pattern without "..." are ignored
// as well; a file with fewer folders than the pattern names gets only the labels it has folders
// for.
Labels labels_from_path(const std::vector<std::string>& pattern,
                        const std::vector<std::string>& folders);

// A file among the paths given that is not a capture, and why (the summary lists them).
struct SkippedFile {
    std::string file;
    std::string reason;
};

struct SummaryFigure {
    std::string_view key;         // a key of figure_catalogue()
    std::optional<double> value;  // nullopt: the capture cannot have it, or has no value
    std::string absent;           // why, when value is nullopt
};

// One capture (or one file that failed).
struct CaptureSummary {
    std::string file;    // as given, or as found below a folder
    std::string format;  // detect_format's name; "" when it was not recognised
    Labels labels;
    std::string error;  // why the file could not be read; empty for a capture
    // Every keyed figure of the catalogue in catalogue order (empty for a failed file).
    std::vector<SummaryFigure> figures;
    // The part kind that holds the most of the capture's hitch time (core/hitch_cause.hpp):
    // "present", "cpu", ...; "" without hitches (or for a failed file).
    std::string hitch_cause;

    bool failed() const { return !error.empty(); }
    std::optional<double> figure(std::string_view key) const;
};

CaptureSummary summarise_capture(const CaptureReport& report, std::string file, std::string format,
                                 Labels labels);

// One group: the captures whose labels have the same values of the grouping labels. Each
// figure is the mean over the group's captures that have it (runs averaged, as reviewers
// publish them), with the number of captures that had it.
struct SummaryGroup {
    Labels labels;  // the grouping labels' values ("" for a capture without the label)
    std::size_t captures = 0;
    std::size_t failed = 0;
    struct Mean {
        std::string_view key;
        std::optional<double> value;
        std::size_t captures = 0;
    };
    std::vector<Mean> figures;  // catalogue order
    std::optional<double> figure(std::string_view key) const;
};
// Groups in order of first appearance among the rows.
std::vector<SummaryGroup> group_summaries(const std::vector<CaptureSummary>& rows,
                                          const std::vector<std::string>& group_by);

// The figures the tables with one column a figure show (terminal, Markdown, HTML): frames,
// duration, average FPS, each tool's 1 % low, p99, stutter, hitches, frame generation, refresh
// and the data-quality counts, in catalogue order, those that exist in the catalogue and that at
// least one row has. CSV, JSON and JSONL carry every figure.
std::vector<std::string_view> headline_keys(const std::vector<CaptureSummary>& rows);
// Every key at least one row has a value of, in catalogue order.
std::vector<std::string_view> present_keys(const std::vector<CaptureSummary>& rows);

}  // namespace loopscope
