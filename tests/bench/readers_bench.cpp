// Reading a capture of hours: a generated PresentMon 1.x file of 1,000,000 presents (the game
// interleaved with dwm.exe, as in real captures, 21 columns like PresentMon 1.x writes) read with
// read_capture, with and without the frame statistics, against `wc -l` on the same file, which
// only counts line breaks: the floor for anything that looks at every byte; and the whole
// `loopscope report` process on it. tests/bench/ratios.sh prints the ratios. The file is written
// once to a temporary folder and removed at exit.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>

#include "common/platform.hpp"
#include "core/frame_stats.hpp"
#include "readers/readers.hpp"
#include "tests/bench/stream_reader.hpp"

namespace {

using namespace loopscope;

constexpr std::size_t kPresents = 1'000'000;

struct GeneratedCapture {
    std::string dir;
    std::string path;
    std::size_t bytes = 0;
    std::size_t game_frames = 0;

    // seed: of the frame-time jitter; name: the file's, in the benchmark's temporary folder;
    // narrow: the 15 columns of PresentMon 1.x before 1.6 (no msFlipDelay, GPU or QPC
    // columns, times to three decimals), whose rows are shorter, so that the reading of each
    // row weighs more against `wc -l`.
    explicit GeneratedCapture(std::uint64_t seed = 7, const char* name = "presentmon_1m.csv",
                              bool narrow = false) {
        dir = (std::filesystem::temp_directory_path() /
               fmt::format("loopscope-readers-bench-{}", current_process_id()))
                  .string();
        std::filesystem::create_directories(dir);
        path = dir + "/" + name;
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f)
            std::abort();
        std::string text =
            narrow ? "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,"
                     "AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,"
                     "MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,"
                     "MsUntilDisplayed\n"
                   : "\xEF\xBB\xBF"
                     "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,"
                     "Dropped,TimeInSeconds,msInPresentAPI,msBetweenPresents,AllowsTearing,"
                     "PresentMode,msUntilRenderComplete,msUntilDisplayed,msBetweenDisplayChange,"
                     "msFlipDelay,msUntilRenderStart,msGPUActive,msGPUVideoActive,msSinceInput,"
                     "QPCTime\n";
        std::mt19937_64 rng(seed);
        std::normal_distribution<double> jitter(0.0, 0.8);
        double t_s = 1.0;
        for (std::size_t i = 0; i < kPresents; ++i) {
            const bool dwm = i % 10 == 9;
            const double frame_ms = dwm ? 16.6667 : 10.4 + jitter(rng) + (i % 4999 == 0 ? 90.0 : 0);
            const bool dropped = !dwm && i % 7 == 0;
            t_s += frame_ms / 1e3 * (dwm ? 0.0 : 1.0);
            if (narrow) {
                text += fmt::format(
                    "{},{},{},DXGI,{},0,1,Hardware Composed: Independent Flip,{},{:.8f},{:.3f},"
                    "{:.3f},0.548,2.627,{:.3f}\n",
                    dwm ? "dwm.exe" : "Game-Win64-Shipping.exe", dwm ? 1592 : 10340,
                    dwm ? "0x0000000000000000" : "0x0000000071197740", dwm ? -1 : 0,
                    dropped ? 1 : 0, t_s, frame_ms, dropped ? 0.0 : frame_ms, dropped ? 0.0 : 3.9);
            } else {
                text += fmt::format(
                    "{},{},{},DXGI,{},0,{},{:.8f},0.54820000000000,{:.14f},1,Hardware Composed: "
                    "Independent Flip,2.62740000000000,3.90780000000000,{:.14f},0.00000000000000,"
                    "-12.11280000000000,12.27840000000000,0.00000000000000,0.00000000000000,{}\n",
                    dwm ? "dwm.exe" : "Game-Win64-Shipping.exe", dwm ? 1592 : 10340,
                    dwm ? "0x0000000000000000" : "0x0000000071197740", dwm ? -1 : 0,
                    dropped ? 1 : 0, t_s, frame_ms, dropped ? 0.0 : 8.3,
                    static_cast<long long>(t_s * 1e7));
            }
            if (!dwm)
                ++game_frames;
            if (text.size() > (1 << 20)) {
                std::fwrite(text.data(), 1, text.size(), f);
                bytes += text.size();
                text.clear();
            }
        }
        std::fwrite(text.data(), 1, text.size(), f);
        bytes += text.size();
        std::fclose(f);
    }
    // The last capture removed takes the folder, with the reports written into it.
    ~GeneratedCapture() {
        std::error_code ec;
        std::filesystem::remove(path, ec);
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            if (entry.path().extension() == ".csv")
                return;
        }
        std::filesystem::remove_all(dir, ec);
    }
};

// LOOPSCOPE_BENCH_THREADS: the reader's threads (ReadOptions::threads, report --threads), so
// that ratios.sh can set one thread against several in the same conditions; unset = the default,
// one per hardware thread.
unsigned bench_threads() {
    const char* text = std::getenv("LOOPSCOPE_BENCH_THREADS");
    return text && *text ? static_cast<unsigned>(std::strtoul(text, nullptr, 10)) : 0;
}

// LOOPSCOPE_BENCH_WAIT_IDLE=1: each run of a whole process (wc -l, loopscope report) starts
// once the machine's CPUs are nearly idle (at most 10 s of waiting, not timed), so that on a
// machine shared with other work (a build) the wall times measure the process, not the
// neighbours, and the ratios between processes stay comparable.
void wait_if_asked(benchmark::State& state) {
    static const bool asked = [] {
        const char* text = std::getenv("LOOPSCOPE_BENCH_WAIT_IDLE");
        return text && *text && std::string_view(text) != "0";
    }();
    if (!asked)
        return;
    state.PauseTiming();
    bench::wait_for_idle_cpus(0.9, 10.0);
    state.ResumeTiming();
}

ReadOptions bench_read_options() {
    ReadOptions read;
    read.threads = bench_threads();
    read.map_large_files = true;  // as `loopscope report` reads
    return read;
}

const GeneratedCapture& capture_file() {
    static const GeneratedCapture c;
    return c;
}

// A second capture of the same game, its jitter drawn anew: what a comparison is run on.
const GeneratedCapture& second_capture_file() {
    static const GeneratedCapture c(8, "presentmon_1m_b.csv");
    return c;
}

// The same presents in the narrow layout.
const GeneratedCapture& narrow_capture_file() {
    static const GeneratedCapture c(7, "presentmon_1m_narrow.csv", true);
    return c;
}

// User + system CPU seconds of the children waited for so far: the whole process's CPU time,
// every thread's, which a busy machine changes less than the wall time.
double children_cpu_s() {
    return static_cast<double>(bench::children_cpu_ns()) / 1e9;
}

void wc_l(benchmark::State& state, const GeneratedCapture& c) {
    const std::string cmd = "wc -l < '" + c.path + "' > /dev/null";
    const double cpu_before = children_cpu_s();
    for (auto _ : state) {
        wait_if_asked(state);
        if (std::system(cmd.c_str()) != 0)
            state.SkipWithError("wc -l failed");
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.bytes));
    state.counters["presents"] = kPresents;
    state.counters["process_cpu_s"] =
        (children_cpu_s() - cpu_before) / static_cast<double>(state.iterations());
}

void BM_WcL(benchmark::State& state) {
    wc_l(state, capture_file());
}

void BM_WcLNarrow(benchmark::State& state) {
    wc_l(state, narrow_capture_file());
}

// Arg 1: the file mapped (ReadOptions::map_large_files, as `loopscope report` reads), 0: read
// into blocks; process_cpu_s is the CPU time of every thread a read.
void BM_ReadCapture(benchmark::State& state) {
    const GeneratedCapture& c = capture_file();
    ReadOptions read = bench_read_options();
    read.map_large_files = state.range(0) != 0;
    double cpu_s = 0;
    for (auto _ : state) {
        const auto before = bench::process_cpu_ns();
        const Capture capture = read_capture(c.path, read);
        cpu_s += static_cast<double>(bench::process_cpu_ns() - before) / 1e9;
        if (capture.frames() != c.game_frames)
            state.SkipWithError("wrong frame count");
        benchmark::DoNotOptimize(capture.frame_ns.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.bytes));
    state.counters["presents"] = kPresents;
    state.counters["process_cpu_s"] = cpu_s / static_cast<double>(state.iterations());
}

void BM_ReadAndAnalyse(benchmark::State& state) {
    const GeneratedCapture& c = capture_file();
    for (auto _ : state) {
        const Capture capture = read_capture(c.path, bench_read_options());
        const FrameStats stats =
            compute_frame_stats(capture.frame_ns, capture.start_ns, true, {}, bench_threads());
        benchmark::DoNotOptimize(&stats);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.bytes));
    state.counters["presents"] = kPresents;
}

// The whole `loopscope report FILE --format json -o OUT` process on the same file: start-up,
// reading, analysis and the JSON writer, as a user runs it (LOOPSCOPE_BIN: the CLI built beside
// this benchmark).
// process_cpu_s: the process's CPU time (user + system, all threads) a run, beside its wall time.
// terminal: the terminal report to /dev/null instead (`loopscope report FILE > /dev/null`).
void report_process(benchmark::State& state, const GeneratedCapture& c, bool terminal = false) {
    const std::string out = c.dir + "/report.json";
    const std::string cmd =
        terminal ? fmt::format("'{}' report '{}' --threads {} > /dev/null 2>&1", LOOPSCOPE_BIN,
                               c.path, bench_threads())
                 : fmt::format("'{}' report '{}' --format json -o '{}' --threads {} 2>/dev/null",
                               LOOPSCOPE_BIN, c.path, out, bench_threads());
    const double cpu_before = children_cpu_s();
    for (auto _ : state) {
        wait_if_asked(state);
        if (std::system(cmd.c_str()) != 0)
            state.SkipWithError("loopscope report failed");
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.bytes));
    state.counters["presents"] = kPresents;
    state.counters["process_cpu_s"] =
        (children_cpu_s() - cpu_before) / static_cast<double>(state.iterations());
}

void BM_ReportProcess(benchmark::State& state) {
    report_process(state, capture_file());
}

// The whole process on the narrow layout: what a user of an older PresentMon waits for.
void BM_ReportProcessNarrow(benchmark::State& state) {
    report_process(state, narrow_capture_file());
}

// The same, the terminal report written to /dev/null.
void BM_ReportProcessNarrowTerminal(benchmark::State& state) {
    report_process(state, narrow_capture_file(), true);
}

// The whole `loopscope report FILE FILE_B --format json -o OUT` process: both captures read and
// analysed, then compared with the block bootstrap (200 resamples); the goal is at most twice
// BM_ReportProcess.
void BM_CompareProcess(benchmark::State& state) {
    const GeneratedCapture& a = capture_file();
    const GeneratedCapture& b = second_capture_file();
    const std::string out = a.dir + "/comparison.json";
    const std::string cmd =
        fmt::format("'{}' report '{}' '{}' --format json -o '{}' --threads {} 2>/dev/null",
                    LOOPSCOPE_BIN, a.path, b.path, out, bench_threads());
    for (auto _ : state) {
        if (std::system(cmd.c_str()) != 0)
            state.SkipWithError("loopscope report A B failed");
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * (a.bytes + b.bytes)));
    state.counters["presents"] = 2 * kPresents;
}

BENCHMARK(BM_WcL)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();
BENCHMARK(BM_ReportProcess)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();
BENCHMARK(BM_WcLNarrow)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();
BENCHMARK(BM_ReportProcessNarrow)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();
BENCHMARK(BM_ReportProcessNarrowTerminal)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5)
    ->UseRealTime();
BENCHMARK(BM_CompareProcess)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_ReadCapture)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5)
    ->UseRealTime();
BENCHMARK(BM_ReadAndAnalyse)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();

}  // namespace
