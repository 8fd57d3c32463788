// Speed of the loop engine (replay throughput, records included) and of the recorder: the game
// thread's mean cost per recorded frame with each sink, beside the same loop without a recorder
// in the same run (docs/loop-engine.md, "Speed").
#define LOOPSCOPE_RECORDER 1
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <ctime>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "core/loop_engine.hpp"
#include "core/loop_scenarios.hpp"
#include "loopscope/recorder.hpp"
#include "probes/timer_waits.hpp"
#include "tests/bench/stream_reader.hpp"

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
        engine.advance_into(frames, records);
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

// The same frames when only the totals are wanted (a sweep row, a verdict over a long replay):
// the records are not kept, so the engine's arithmetic alone is timed.
void BM_EngineReplaySummary(benchmark::State& state) {
    const auto& frames = frame_times();
    LoopConfig config;
    config.policy = static_cast<Policy>(state.range(0));
    config.max_steps = 5;
    for (auto _ : state) {
        LoopEngine engine(config);
        for (const std::int64_t frame_ns : frames)
            benchmark::DoNotOptimize(engine.advance(frame_ns).steps);
        benchmark::DoNotOptimize(engine.totals().sim_ns);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(frames.size()));
    state.SetLabel(std::string(policy_name(config.policy)));
}
BENCHMARK(BM_EngineReplaySummary)
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

// A frame's own work, the same with and without the recorder: enough that the writer, wherever
// the OS runs it, keeps up with the loop (about a microsecond), and the loop does not measure
// only the recorder.
std::uint64_t game_work(std::uint64_t x) {
    for (int i = 0; i < 400; ++i) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        benchmark::DoNotOptimize(x);
    }
    return x;
}

// The loop without a recorder: the frame's work and the frame's clock reading.
void BM_EmptyLoop(benchmark::State& state) {
    std::uint64_t x = 1;
    std::int64_t t = 0;
    for (auto _ : state) {
        t += 1'000'000;
        benchmark::DoNotOptimize(t);
        x = game_work(x);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EmptyLoop);

enum Sink { kFile = 0, kCallback = 1, kLive = 2 };

void count_rows(void* rows, const FrameRecord*, std::size_t n) {
    *static_cast<std::int64_t*>(rows) += static_cast<std::int64_t>(n);
}

// The same loop recording each frame (begin_frame with the time given, loop) into one sink:
// the file (on /dev/null: the writer's formatting and writes, not the disk), the callback, or
// the live stream with a client reading it. Its time per frame minus BM_EmptyLoop's is the
// recorder's cost on the game's thread; `dropped` is the share of frames the writer could not
// take in time (they cost less than a kept one: the figure is honest only when it is small).
void BM_RecorderFrame(benchmark::State& state) {
    const auto sink = static_cast<Sink>(state.range(0));
    RecorderOptions o;
    o.path = sink == kFile ? "/dev/null" : "";
    o.write_start_time = false;
    std::int64_t rows = 0;
    if (sink == kCallback) {
        o.on_rows = &count_rows;
        o.on_rows_user = &rows;
    }
    if (sink == kLive) {
        o.serve_port = 0;
        o.flush_every = 64;  // a live stream gets its rows often
    }
    Recorder rec(o);
    std::unique_ptr<bench::StreamReader> reader;
    if (sink == kLive)
        reader = std::make_unique<bench::StreamReader>(rec.serving_port());
    std::uint64_t x = 1;
    std::int64_t t = rec.start_ns();
    LoopFrame f;
    f.steps = 1;
    for (auto _ : state) {
        t += 1'000'000;
        rec.begin_frame(t);
        rec.loop(f);
        x = game_work(x);
    }
    rec.close(t + 1'000'000);
    if (reader)
        reader->finish();
    state.SetItemsProcessed(state.iterations());
    state.counters["dropped"] = static_cast<double>(rec.dropped_frames()) /
                                static_cast<double>(std::max<std::int64_t>(1, rec.frames()));
}
BENCHMARK(BM_RecorderFrame)->Arg(kFile)->Arg(kCallback)->Arg(kLive);

// The game's own words beside a phase end: a recorded loop, to a file, with one more call a
// frame: end_steps() (0), a ScopedZone (1: its begin and end), a mark (2) or nothing (3). Every
// call reads the recorder's clock, so the frames begin on it too; a call's cost is its time per
// frame minus that of /3.
enum Call { kEndSteps = 0, kZone = 1, kMark = 2, kNothing = 3 };

void BM_RecorderCall(benchmark::State& state) {
    const auto call = static_cast<Call>(state.range(0));
    RecorderOptions o;
    o.path = "/dev/null";
    o.write_start_time = false;
    Recorder rec(o);
    std::uint64_t x = 1;
    LoopFrame f;
    f.steps = 1;
    for (auto _ : state) {
        rec.begin_frame();
        rec.loop(f);
        if (call == kEndSteps) {
            rec.end_steps();
        } else if (call == kZone) {
            ScopedZone zone(rec, "asset load");
        } else if (call == kMark) {
            rec.mark("level 2 streamed in");
        }
        x = game_work(x);
    }
    benchmark::DoNotOptimize(x);
    rec.close();
    state.SetItemsProcessed(state.iterations());
    state.counters["dropped"] = static_cast<double>(rec.dropped_frames()) /
                                static_cast<double>(std::max<std::int64_t>(1, rec.frames()));
    state.counters["dropped_events"] = static_cast<double>(rec.dropped_events()) /
                                       static_cast<double>(std::max<std::int64_t>(1, rec.frames()));
}
BENCHMARK(BM_RecorderCall)->Arg(kEndSteps)->Arg(kZone)->Arg(kMark)->Arg(kNothing);

}  // namespace
}  // namespace loopscope
