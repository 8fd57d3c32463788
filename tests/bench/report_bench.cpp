// The analysis and writing half of `loopscope report` on a capture of 1,000,000 frames: the full
// report model (statistics, display side, start-up segment, figures without it), then the JSON
// and HTML writers, on a Capture built in memory. The reading half, against `wc -l` on a
// generated PresentMon file, is readers_bench.cpp; read + analyse together is the goal of 10x
// `wc -l`:
//   build/tests/loopscope_bench --benchmark_filter='BM_WcL|BM_ReadCapture|BM_Report'
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <random>
#include <string>

#include "core/analysis.hpp"
#include "core/comparison.hpp"
#include "core/sort_ns.hpp"
#include "writers/writer.hpp"

namespace {

using namespace loopscope;

constexpr std::size_t kFrames = 1'000'000;

// std::clock is the CPU time of the whole process, every thread's, on Linux and the BSDs (on
// Windows it is wall time, and the counter below then says nothing new).
double process_cpu_seconds() {
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

const Capture& million_frames() {
    static const Capture capture = [] {
        Capture c;
        c.source = {"presentmon-1", "generated.csv", "Game.exe", 1, "0x1"};
        std::mt19937_64 rng(11);
        std::normal_distribution<double> jitter(0.0, 0.8e6);
        std::int64_t t = 0;
        for (std::size_t i = 0; i < kFrames; ++i) {
            const auto ft =
                static_cast<std::int64_t>(10.4e6 + jitter(rng)) + (i % 4999 == 0 ? 90'000'000 : 0);
            c.frame_ns.push_back(ft);
            c.start_ns.push_back(t);
            c.display_ns.push_back(i % 7 == 0 ? -1 : 8'333'333 * (1 + static_cast<int>(i % 2)));
            c.dropped.push_back(i % 7 == 0 ? 1 : 0);
            t += ft;
        }
        return c;
    }();
    return capture;
}

void BM_ReportAnalyse(benchmark::State& state) {
    const Capture& c = million_frames();
    for (auto _ : state) {
        const CaptureReport r = analyse_capture(c, {});
        benchmark::DoNotOptimize(&r);
    }
    state.counters["frames"] = kFrames;
}

void write_format(benchmark::State& state, const char* format) {
    const Capture& c = million_frames();
    Report report;
    report.captures.push_back(analyse_capture(c, {}));
    const std::string path =
        (std::filesystem::temp_directory_path() / ("loopscope-report-bench." + std::string(format)))
            .string();
    const auto writer = make_writer(format, {});
    for (auto _ : state) {
        OutputFile out(path);
        writer->write(report, out);
        out.commit();
    }
    state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(path));
    std::filesystem::remove(path);
}

void BM_ReportWriteJson(benchmark::State& state) {
    write_format(state, "json");
}
void BM_ReportWriteHtml(benchmark::State& state) {
    write_format(state, "html");
}
void BM_ReportWriteCsv(benchmark::State& state) {
    write_format(state, "csv");
}
void BM_ReportWriteChrome(benchmark::State& state) {
    write_format(state, "chrome");
}

// One bootstrap comparison of two 100,000-frame stretches (200 resamples each).
void BM_ReportCompare100k(benchmark::State& state) {
    const Capture& c = million_frames();
    AnalysisOptions a, b;
    a.to = {RangeBound::Kind::frame, 100'000};
    b.from = {RangeBound::Kind::frame, 100'000};
    b.to = {RangeBound::Kind::frame, 200'000};
    const CaptureReport ra = analyse_capture(c, a);
    const CaptureReport rb = analyse_capture(c, b);
    for (auto _ : state) {
        const Comparison cmp = compare_captures(ra, rb);
        benchmark::DoNotOptimize(&cmp);
    }
}

// The comparison as `loopscope report A B` runs it on two captures of a million frames each.
void BM_ReportCompare1M(benchmark::State& state) {
    const Capture& c = million_frames();
    AnalysisOptions b;
    b.from = {RangeBound::Kind::frame, 1};  // not the very same frames
    const CaptureReport ra = analyse_capture(c, {});
    const CaptureReport rb = analyse_capture(c, b);
    // The benchmark's own CPU time is the calling thread's; the resamples run on every core, so
    // the process's CPU time over the comparison is reported beside it (seconds).
    double process_cpu_s = 0;
    for (auto _ : state) {
        const double before = process_cpu_seconds();
        const Comparison cmp = compare_captures(ra, rb);
        benchmark::DoNotOptimize(&cmp);
        process_cpu_s += process_cpu_seconds() - before;
    }
    state.counters["process_cpu_s"] =
        benchmark::Counter(process_cpu_s, benchmark::Counter::kAvgIterations);
}

// Sorting the million frame times, the step every percentile needs: sort_ns against std::sort.
void BM_SortFrameTimes(benchmark::State& state, bool radix) {
    const std::vector<std::int64_t>& frames = million_frames().frame_ns;
    std::vector<std::int64_t> v;
    for (auto _ : state) {
        state.PauseTiming();  // the copy is not the sort
        v = frames;
        state.ResumeTiming();
        if (radix)
            sort_ns(v);
        else
            std::sort(v.begin(), v.end());
        benchmark::DoNotOptimize(v.data());
    }
}
BENCHMARK_CAPTURE(BM_SortFrameTimes, sort_ns, true)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK_CAPTURE(BM_SortFrameTimes, std_sort, false)->Unit(benchmark::kMillisecond)->Iterations(5);

BENCHMARK(BM_ReportAnalyse)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();
BENCHMARK(BM_ReportWriteJson)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_ReportWriteHtml)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_ReportWriteCsv)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_ReportWriteChrome)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_ReportCompare100k)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_ReportCompare1M)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

}  // namespace
