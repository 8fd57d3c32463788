// Folder walking and parallel reading for the summary of many captures (see
// summary_reading.hpp).
#include "readers/summary_reading.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <optional>
#include <thread>

#include "common/errors.hpp"
#include "common/parallel_for.hpp"

namespace loopscope {

namespace fs = std::filesystem;

std::vector<SummaryInput> find_summary_inputs(const std::vector<std::string>& paths,
                                              const std::vector<std::string>& path_pattern) {
    std::vector<SummaryInput> inputs;
    for (const std::string& path : paths) {
        std::error_code ec;
        if (path != "-" && fs::is_directory(path, ec)) {
            std::vector<fs::path> files;
            for (auto it = fs::recursive_directory_iterator(path, ec);
                 !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
                if (it->is_regular_file(ec))
                    files.push_back(it->path());
            }
            if (ec)
                throw InputError(path, fmt::format("cannot list the folder: {}", ec.message()));
            std::sort(files.begin(), files.end());
            for (const fs::path& f : files) {
                SummaryInput in;
                in.file = f.generic_string();
                in.found_in_folder = true;
                std::vector<std::string> folders;
                for (const fs::path& part : f.lexically_relative(path).parent_path())
                    folders.push_back(part.generic_string());
                in.labels = labels_from_path(path_pattern, folders);
                inputs.push_back(std::move(in));
            }
        } else {
            if (path != "-" && !fs::exists(path, ec))
                throw InputError(path, "no such file or folder");
            inputs.push_back({path, {}, false});
        }
    }
    return inputs;
}

namespace {

struct Outcome {
    std::optional<CaptureSummary> row;
    std::optional<SkippedFile> skipped;
};

Outcome read_one(const SummaryInput& in, const Labels& labels, const ReadOptions& read,
                 const AnalysisOptions& analysis, const CaptureVisitor& visit,
                 const ErrorText& error_text) {
    Labels all = in.labels;
    for (const auto& [k, v] : labels)
        set_label(all, k, v);
    std::string format;
    try {
        format = in.file == "-" ? std::string() : detect_format(in.file);
    } catch (const InputError& e) {
        if (in.found_in_folder)
            return {std::nullopt, SkippedFile{in.file, e.message()}};
        CaptureSummary row;
        row.file = in.file;
        row.labels = std::move(all);
        row.error = e.what();
        return {std::move(row), std::nullopt};
    }
    try {
        const Capture capture = read_capture(in.file, read);
        if (format.empty())
            format = capture.source.format;
        const CaptureReport report = analyse_capture(capture, analysis);
        CaptureSummary row = summarise_capture(report, in.file, format, std::move(all));
        if (visit)
            visit(capture, report, row);
        return {std::move(row), std::nullopt};
    } catch (const std::exception& e) {
        // InputError and UsageError (a --process no stream matches) alike: this file's row.
        CaptureSummary row;
        row.file = in.file;
        row.format = format;
        row.labels = std::move(all);
        row.error = error_text ? error_text(e) : std::string(e.what());
        return {std::move(row), std::nullopt};
    }
}

}  // namespace

SummaryReading read_summaries(const std::vector<SummaryInput>& inputs, const Labels& labels,
                              const ReadOptions& read, const AnalysisOptions& analysis,
                              unsigned threads, const CaptureVisitor& visit,
                              const ErrorText& error_text) {
    ReadOptions one = read;
    one.threads = 1;  // the files are the pieces shared among the threads
    one.map_large_files = false;
    AnalysisOptions analysis_one = analysis;
    analysis_one.threads = 1;
    std::vector<Outcome> outcomes(inputs.size());
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    parallel_for(inputs.size(), threads, [&](std::size_t i, unsigned) {
        outcomes[i] = read_one(inputs[i], labels, one, analysis_one, visit, error_text);
    });
    SummaryReading reading;
    for (Outcome& o : outcomes) {
        if (o.row)
            reading.rows.push_back(std::move(*o.row));
        if (o.skipped)
            reading.skipped.push_back(std::move(*o.skipped));
    }
    return reading;
}

}  // namespace loopscope
