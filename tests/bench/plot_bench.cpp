// Preparing the frame-time graph of ten million frames for one screen frame: the per-column
// min/max the viewer draws, over a 1920-pixel-wide plot (goal: at most 2 ms), and the one-off
// cost of building the min/max pyramid when a capture is opened.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/plot_decimation.hpp"

namespace {

using namespace loopscope;

constexpr std::size_t kFrames = 10'000'000;
constexpr std::size_t kColumns = 1920;

struct Series {
    std::vector<std::int64_t> frame_ns;
    std::vector<std::int64_t> start_ns;
    MinMaxPyramid pyramid;
};

const Series& series() {
    static const Series s = [] {
        Series out;
        std::mt19937_64 rng(42);
        std::normal_distribution<double> jitter(0.0, 400'000.0);
        out.frame_ns.resize(kFrames);
        for (std::size_t i = 0; i < kFrames; ++i) {
            out.frame_ns[i] = 16'666'667 + static_cast<std::int64_t>(jitter(rng)) +
                              (i % 9973 == 0 ? 80'000'000 : 0);
        }
        out.start_ns = running_start_ns(out.frame_ns);
        out.pyramid.update(out.frame_ns);
        return out;
    }();
    return s;
}

// The whole capture on screen: every column covers about 5200 frames.
void BM_GraphColumnsWholeCapture(benchmark::State& state) {
    const Series& s = series();
    std::vector<PlotColumn> cols;
    const double end = static_cast<double>(s.start_ns.back() + s.frame_ns.back());
    for (auto _ : state) {
        decimate_columns(s.start_ns, s.frame_ns, s.pyramid, 0.0, end, kColumns, cols);
        benchmark::DoNotOptimize(cols.data());
    }
    state.counters["frames"] = static_cast<double>(kFrames);
}
BENCHMARK(BM_GraphColumnsWholeCapture)->Unit(benchmark::kMicrosecond);

// Zoomed to 10 s in the middle: a few hundred frames, most columns hold zero or one frame.
void BM_GraphColumnsZoomedIn(benchmark::State& state) {
    const Series& s = series();
    std::vector<PlotColumn> cols;
    const double mid = static_cast<double>(s.start_ns[kFrames / 2]);
    for (auto _ : state) {
        decimate_columns(s.start_ns, s.frame_ns, s.pyramid, mid, mid + 10e9, kColumns, cols);
        benchmark::DoNotOptimize(cols.data());
    }
}
BENCHMARK(BM_GraphColumnsZoomedIn)->Unit(benchmark::kMicrosecond);

// Once per opened capture (or incrementally per frame in live mode).
void BM_PyramidBuild(benchmark::State& state) {
    const Series& s = series();
    for (auto _ : state) {
        MinMaxPyramid p;
        p.update(s.frame_ns);
        benchmark::DoNotOptimize(&p);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kFrames));
}
BENCHMARK(BM_PyramidBuild)->Unit(benchmark::kMillisecond);

}  // namespace
