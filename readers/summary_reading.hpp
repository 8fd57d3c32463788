// Reading many captures for a summary: the paths given (files, and folders searched
// recursively), each file read and analysed on its own thread among a few, one summary row a
// capture. A file in a folder whose format is not recognised is skipped and counted with the
// reason; a file named on the command line, or a recognised capture that fails to read, is a
// row with its error.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/summary.hpp"
#include "readers/readers.hpp"

namespace loopscope {

struct SummaryInput {
    std::string file;
    Labels labels;  // from the folder path
    bool found_in_folder = false;
};

// The files of the paths in a stable order (each folder's files sorted by path). Throws
// InputError for a path that does not exist.
std::vector<SummaryInput> find_summary_inputs(const std::vector<std::string>& paths,
                                              const std::vector<std::string>& path_pattern);

struct SummaryReading {
    std::vector<CaptureSummary> rows;  // in the order of the inputs
    std::vector<SkippedFile> skipped;
};

// Called on the reading thread with each capture read, its report and its row, while the
// capture is still there (to send its frames elsewhere: report --store); must not throw. Calls
// for different files may run at once.
using CaptureVisitor =
    std::function<void(const Capture&, const CaptureReport&, const CaptureSummary&)>;

// The text a file's row gives for the error that stopped it (the caller's words for the
// model's typed errors); empty: the error's what().
using ErrorText = std::function<std::string(const std::exception&)>;

// `labels` are added to every row (after the path's labels, so they win). threads: files read
// at once (0 = one per hardware thread); each file is read on one thread.
SummaryReading read_summaries(const std::vector<SummaryInput>& inputs, const Labels& labels,
                              const ReadOptions& read, const AnalysisOptions& analysis,
                              unsigned threads, const CaptureVisitor& visit = {},
                              const ErrorText& error_text = {});

}  // namespace loopscope
