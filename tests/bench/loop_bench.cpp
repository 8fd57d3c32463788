// Speed of the loop engine (replay throughput, records included) and of the recorder header
// (cost per recorded frame, next to the cost of the clock read it needs).
#define LOOPSCOPE_RECORDER 1
#include <benchmark/benchmark.h>

#include <chrono>
#include <vector>

#include "probes/loop_engine.hpp"
#include "probes/loop_scenarios.hpp"
#include "probes/loopscope_recorder.hpp"

namespace loopscope {
namespace {

// A million frames of a 144 Hz display with jitter: 0 and 1 steps, as a real capture gives.
const std::vector<std::int64_t>& frame_times() {
    static const std::vector<std::int64_t> frames = [] {
        std::vector<std::int64_t> out;
        SeededRandom random(7);
        for (int i = 0; i < 1'000'000; ++i)
            out.push_back(6'944'444 + random.symmetric(300'000));
        return out;
    }();
    return frames;
}

void BM_EngineReplayIntoRecords(benchmark::State& state) {
    const auto& frames = frame_times();
    std::vector<FrameRecord> records(frames.size());
    LoopConfig config;
    config.policy = static_cast<Policy>(state.range(0));
    config.max_steps = 5;
    for (auto _ : state) {
        LoopEngine engine(config);
        for (std::size_t i = 0; i < frames.size(); ++i)
            records[i] = engine.advance(frames[i]);
        benchmark::DoNotOptimize(records.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(frames.size()));
    state.SetLabel(std::string(policy_name(config.policy)));
}
BENCHMARK(BM_EngineReplayIntoRecords)
    ->Arg(static_cast<int>(Policy::fixed_interp))
    ->Arg(static_cast<int>(Policy::semi_fixed))
    ->Unit(benchmark::kMillisecond);

std::int64_t steady_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void BM_ClockReadSteady(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(steady_ns());
}
BENCHMARK(BM_ClockReadSteady);

RecorderOptions bench_options() {
    RecorderOptions o;
    o.path = "/dev/null";
    o.capacity = 4096;
    o.flush_every = 4096;  // formatting and writing included, amortised over 4096 frames
    o.write_start_time = false;
    return o;
}

// The per-frame path alone: rows into the preallocated buffer, the clock read by the game.
// The flush (formatting and writing 4096 rows) runs outside the timing.
void BM_RecorderFrameHotPath(benchmark::State& state) {
    RecorderOptions o = bench_options();
    o.flush_every = 0;
    Recorder rec(o);
    std::int64_t now = 0;
    std::size_t since_flush = 0;
    for (auto _ : state) {
        now += 6'944'444;
        rec.begin_frame(now);
        rec.loop(now & 1, 8'000'000, 1'000'000, 0.06);
        if (++since_flush == o.capacity - 1) {
            since_flush = 0;
            state.PauseTiming();
            rec.flush();
            state.ResumeTiming();
        }
    }
    rec.close();
    state.SetItemsProcessed(state.iterations());
    state.counters["dropped"] = static_cast<double>(rec.dropped_frames());
}
BENCHMARK(BM_RecorderFrameHotPath);

// The recorder reading the clock itself: one clock read per frame plus the recording.
void BM_RecorderFrameOwnClock(benchmark::State& state) {
    Recorder rec(bench_options());
    std::int64_t steps = 0;
    for (auto _ : state) {
        rec.begin_frame();
        rec.loop(++steps & 1, 8'000'000, 1'000'000, 0.06);
    }
    rec.close();
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecorderFrameOwnClock);

// The game passes its own clock reading: the recorder's cost beyond that read.
void BM_RecorderFrameGivenTime(benchmark::State& state) {
    Recorder rec(bench_options());
    std::int64_t now = 0;
    for (auto _ : state) {
        now += 6'944'444;
        rec.begin_frame(now);
        rec.loop(now & 1, 8'000'000, 1'000'000, 0.06);
    }
    rec.close();
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecorderFrameGivenTime);

// All three phase marks, each reading the clock (three reads a frame).
void BM_RecorderFrameWithPhases(benchmark::State& state) {
    Recorder rec(bench_options());
    for (auto _ : state) {
        rec.begin_frame();
        rec.loop(1, 8'000'000, 1'000'000, 0.06);
        rec.end_steps();
        rec.end_render();
    }
    rec.close();
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecorderFrameWithPhases);

}  // namespace
}  // namespace loopscope
