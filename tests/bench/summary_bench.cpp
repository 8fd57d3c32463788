// The summary of a folder of real logs in one process: the 30 FrameView logs of the shared set
// copied 20 times (600 files) read by `report FOLDER --summary` as a whole process and by the
// library (find_summary_inputs + read_summaries), against one `wc -l` over the same files, the
// floor for anything that reads every byte. Skipped when the shared captures are not there
// (LOOPSCOPE_CAPTURES_DIR). The folder is written once to a temporary folder and removed at exit.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "common/output_file.hpp"
#include "common/platform.hpp"
#include "readers/summary_reading.hpp"
#include "writers/summary_writer.hpp"

namespace {

using namespace loopscope;
namespace fs = std::filesystem;

constexpr int kCopies = 20;

struct Folder {
    std::string dir;
    std::size_t files = 0;
    std::uintmax_t bytes = 0;
    std::string skip_reason;

    Folder() {
        const char* env = std::getenv("LOOPSCOPE_CAPTURES_DIR");
        const fs::path source =
            fs::path(env && *env ? env : LOOPSCOPE_CAPTURES_DIR) / "frameview_set";
        std::error_code ec;
        if (!fs::is_directory(source, ec)) {
            skip_reason = "no " + source.string() + " (set LOOPSCOPE_CAPTURES_DIR)";
            return;
        }
        dir = (fs::temp_directory_path() /
               fmt::format("loopscope-summary-bench-{}", current_process_id()))
                  .string();
        for (int c = 0; c < kCopies; ++c) {
            const fs::path copy = fs::path(dir) / fmt::format("copy{:02}", c);
            fs::create_directories(copy);
            for (const auto& e : fs::directory_iterator(source)) {
                const std::string name = e.path().filename().string();
                if (!name.starts_with("fv") || e.path().extension() != ".csv")
                    continue;  // the set's own summary table and its provenance note
                fs::copy_file(e.path(), copy / name);
                ++files;
                bytes += e.file_size();
            }
        }
    }
    ~Folder() {
        if (!dir.empty())
            fs::remove_all(dir);
    }
};

const Folder& folder() {
    static const Folder f;
    return f;
}

void count(benchmark::State& state, const Folder& f) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.bytes));
    state.counters["files"] = static_cast<double>(f.files);
}

void BM_SummaryWcL(benchmark::State& state) {
    const Folder& f = folder();
    if (!f.skip_reason.empty()) {
        state.SkipWithError(f.skip_reason.c_str());
        return;
    }
    const std::string cmd = "wc -l '" + f.dir + "'/*/*.csv > /dev/null";
    for (auto _ : state) {
        if (std::system(cmd.c_str()) != 0)
            state.SkipWithError("wc -l failed");
    }
    count(state, f);
}

// The whole `loopscope report FOLDER --summary --format json -o OUT` process.
void BM_SummaryProcess(benchmark::State& state) {
    const Folder& f = folder();
    if (!f.skip_reason.empty()) {
        state.SkipWithError(f.skip_reason.c_str());
        return;
    }
    const std::string cmd = fmt::format(
        "'{}' report '{}' --summary --format json -o '{}/summary.json' 2>/dev/null; "
        "test $? -le 2",
        LOOPSCOPE_BIN, f.dir, fs::temp_directory_path().string());
    for (auto _ : state) {
        // Exit 2: some logs of the set are refused, as rows with their error; a full summary.
        if (std::system(cmd.c_str()) != 0)
            state.SkipWithError("loopscope report --summary failed");
    }
    count(state, f);
}

void BM_SummaryInProcess(benchmark::State& state) {
    const Folder& f = folder();
    if (!f.skip_reason.empty()) {
        state.SkipWithError(f.skip_reason.c_str());
        return;
    }
    for (auto _ : state) {
        const auto inputs = find_summary_inputs({f.dir}, {});
        const SummaryReading reading = read_summaries(inputs, {}, {}, {}, 0);
        if (reading.rows.size() != f.files)
            state.SkipWithError("wrong number of rows");
        benchmark::DoNotOptimize(reading.rows.data());
    }
    count(state, f);
}

// The JSON text of the folder's summary alone, from rows read once (what the process writes
// after it has read every file, on one thread).
void BM_SummaryWriteJson(benchmark::State& state) {
    const Folder& f = folder();
    if (!f.skip_reason.empty()) {
        state.SkipWithError(f.skip_reason.c_str());
        return;
    }
    SummaryDocument doc;
    doc.rows = read_summaries(find_summary_inputs({f.dir}, {}), {}, {}, {}, 0).rows;
    const std::string path = (fs::temp_directory_path() /
                              fmt::format("loopscope-summary-bench-{}.json", current_process_id()))
                                 .string();
    for (auto _ : state) {
        OutputFile out(path);
        write_summary(doc, "json", out);
        out.commit();
    }
    fs::remove(path);
    state.counters["rows"] = static_cast<double>(doc.rows.size());
}

BENCHMARK(BM_SummaryWcL)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();
BENCHMARK(BM_SummaryProcess)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();
BENCHMARK(BM_SummaryInProcess)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();
BENCHMARK(BM_SummaryWriteJson)->Unit(benchmark::kMillisecond)->Iterations(20)->UseRealTime();

}  // namespace
