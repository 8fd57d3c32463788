// Read cost of the clocks a game most often times frames with, measured by Google Benchmark, to
// check the clock probe's own read-cost figures against an independent harness:
//   build/tests/loopscope_bench --benchmark_filter=ClockRead --benchmark_repetitions=5
//   build/tool/loopscope probe clocks
#include <benchmark/benchmark.h>
#include <time.h>

#include <chrono>

namespace {

void ClockRead_steady_clock(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(std::chrono::steady_clock::now());
}
BENCHMARK(ClockRead_steady_clock);

void ClockRead_CLOCK_MONOTONIC(benchmark::State& state) {
    struct timespec ts;
    for (auto _ : state) {
        ::clock_gettime(CLOCK_MONOTONIC, &ts);
        benchmark::DoNotOptimize(ts);
    }
}
BENCHMARK(ClockRead_CLOCK_MONOTONIC);

void ClockRead_CLOCK_MONOTONIC_COARSE(benchmark::State& state) {
    struct timespec ts;
    for (auto _ : state) {
        ::clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
        benchmark::DoNotOptimize(ts);
    }
}
BENCHMARK(ClockRead_CLOCK_MONOTONIC_COARSE);

}  // namespace
