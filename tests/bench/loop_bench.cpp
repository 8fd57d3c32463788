// Speed of the loop engine (replay throughput, records included) and of the recorder header
// (cost per recorded frame on the game's thread, next to the cost of the clock read it needs,
// and the background writer's CPU time per frame).
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
#include "tests/bench/thread_placement.hpp"

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

RecorderOptions bench_options() {
    RecorderOptions o;
    o.path = "/dev/null";
    o.capacity = 4096;
    o.flush_every = 1024;  // a ring of four blocks, handed to the writer every 1024 frames
    o.write_start_time = false;
    // The writer looks for blocks every 20 µs rather than 2 ms, so that catch_up's paused waits
    // stay short. The loop's thread does the same either way: a hand-over wakes nobody.
    o.writer_poll_us = 20;
    return o;
}

// The CPU time the writer thread used in all, read on that thread as it ends.
std::int64_t thread_cpu_ns() {
    return system_limiter_clock().thread_cpu_ns();  // the OS's per-thread CPU clock
}

// Spins (with timing paused) until the writer has written what it was handed: the loop's
// thread keeps its core and its caches, as a game's thread does (sleeping here would charge
// the benchmark's own wake-ups to the recorder). With `yield`, for a writer pinned to the loop's
// own CPU, it gives the CPU up at each look instead, or the writer would only get it when the
// scheduler ends the spin's time slice.
void catch_up(benchmark::State& state, const Recorder& rec, bool yield = false,
              std::atomic<int>* loop_cpu = nullptr) {
    state.PauseTiming();
    if (loop_cpu != nullptr)  // where the loop is as it hands over the next block
        loop_cpu->store(detail::current_cpu(), std::memory_order_relaxed);
    while (!rec.writer_caught_up()) {
        if (yield)
            std::this_thread::yield();
    }
    state.ResumeTiming();
}

// Where a benchmark's loop and its helper thread (the writer, a reader) run: the loop on the
// first CPU allowed, the helper on the second (`apart`) or the same. Pins this thread to the
// helper's CPU, so that a thread it starts starts there; the caller moves itself to
// `loop_cpu` once that thread has started. Empty, the benchmark skipped with the reason, when
// the machine allows too few CPUs or the OS refuses.
struct Placement {
    std::vector<int> allowed;  // given back to this thread when the benchmark ends
    int loop_cpu = -1;
    int helper_cpu = -1;
};
std::optional<Placement> place_helper(benchmark::State& state, bool apart) {
    std::vector<int> cpus = bench::allowed_cpus();
    if (cpus.size() < (apart ? 2u : 1u)) {
        state.SkipWithError("fewer CPUs allowed than the placement needs");
        return std::nullopt;
    }
    if (!bench::run_this_thread_on({apart ? cpus[1] : cpus[0]})) {
        state.SkipWithError("the OS refused to pin the thread");
        return std::nullopt;
    }
    const int loop_cpu = cpus[0];
    const int helper_cpu = apart ? cpus[1] : cpus[0];
    return Placement{std::move(cpus), loop_cpu, helper_cpu};
}

// One cache line passed back and forth between two threads: the loop's side stores odd values,
// the helper answers each with the next even one, each waiting for the other's store before it
// makes its own; -1 tells the helper to end.
struct alignas(64) TurnLine {
    std::atomic<std::int64_t> turn{0};
};

void answer_turns(TurnLine& line) {
    for (std::int64_t awaited = 1;; awaited += 2) {
        std::int64_t seen = 0;
        while ((seen = line.turn.load(std::memory_order_acquire)) != awaited) {
            if (seen < 0)
                return;
        }
        line.turn.store(awaited + 1, std::memory_order_release);
    }
}

// One round trip from the loop's side: `sent` (odd) out, the helper's answer back.
inline void round_trip(TurnLine& line, std::int64_t sent) {
    line.turn.store(sent, std::memory_order_release);
    while (line.turn.load(std::memory_order_acquire) != sent + 1) {
    }
}

// The line's round trip between the loop's CPU and the helper's, in ns, read beside a two-CPU
// case (outside its timed loop) so that the case's own figures say where it ran: a host can move
// a virtual machine's two CPUs between near cores and far ones within minutes. The middle of
// three passes of 2000 trips. Leaves this thread on the loop's CPU.
double measured_round_trip_ns(const Placement& placement) {
    TurnLine line;
    bench::run_this_thread_on({placement.helper_cpu});
    std::thread helper([&] { answer_turns(line); });  // starts on the helper's CPU
    bench::run_this_thread_on({placement.loop_cpu});
    constexpr int kTrips = 2000;
    std::array<double, 3> passes_ns{};
    std::int64_t sent = 1;
    for (double& pass_ns : passes_ns) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < kTrips; ++i, sent += 2)
            round_trip(line, sent);
        const std::chrono::duration<double, std::nano> took =
            std::chrono::steady_clock::now() - start;
        pass_ns = took.count() / kTrips;
    }
    line.turn.store(-1, std::memory_order_release);
    helper.join();
    std::sort(passes_ns.begin(), passes_ns.end());
    return passes_ns[1];
}

// The counters of the round trips read before and after a two-CPU case.
void report_round_trips(benchmark::State& state, double before_ns, double after_ns) {
    state.counters["trip_before_ns"] = before_ns;
    state.counters["trip_after_ns"] = after_ns;
}

// Runs `frame(rec)` once per iteration with flushing on. The game thread's cost is the timed
// part (Google Benchmark's CPU time is this thread's alone). A loop this fast (tens of ns a
// frame, where a game takes milliseconds) would outrun any writer and measure dropped frames,
// which cost less; so timing pauses while the writer catches up. With `overlap` (range 0) false
// it pauses right after each hand-over until that block is written: the loop never runs beside
// a busy writer, as in a game whose frames are far longer than the writer's work on a block.
// With `overlap` true it waits only before the next hand-over: the writer formats and writes
// the previous block while the loop records the next one (on two cores, each slows the other).
// Range 1 picks the sink: 0 = the file (/dev/null; formatting and write calls as for a real
// file), 1 = a callback alone (no file). The writer's own CPU time per recorded frame is
// reported in the counter writer_cpu_ns (read by a callback that reads a column of every row:
// with the file it is a second sink, after the file; timing_callback = false leaves it out). The
// hand-overs are counted down here rather than asked of the recorder, so that the loop's
// bookkeeping is a decrement and a branch, as in the empty loops below.
template <class Frame, class Started = void (*)(Recorder&)>
void run_recorder_bench(
    benchmark::State& state, RecorderOptions o, Frame frame, Started started = [](Recorder&) {},
    bool yield_while_waiting = false, bool timing_callback = true) {
    const bool overlap = state.range(0) != 0;
    const bool callback_only = state.range(1) != 0;
    std::int64_t writer_ns = 0;
    std::int64_t called_rows = 0;
    // Where the OS put the writer: the blocks it took on another CPU than the loop's (read at
    // the loop's last pause before the hand-over), of those where both CPUs are known.
    std::atomic<int> loop_cpu{-1};
    std::int64_t placed_blocks = 0;
    std::int64_t apart_blocks = 0;
    if (callback_only)
        o.path = "";
    if (timing_callback) {
        o.on_rows = [&](const FrameRecord* rows, std::size_t count) {
            const int writer_cpu = detail::current_cpu();
            const int at = loop_cpu.load(std::memory_order_relaxed);
            if (writer_cpu >= 0 && at >= 0) {
                ++placed_blocks;
                apart_blocks += writer_cpu != at ? 1 : 0;
            }
            called_rows += static_cast<std::int64_t>(count);
            // A column of every row, as any callback that does something with its rows reads.
            std::int64_t sum_ns = 0;
            for (std::size_t i = 0; i < count; ++i)
                sum_ns += rows[i].raw_ns;
            benchmark::DoNotOptimize(sum_ns);
            writer_ns = thread_cpu_ns();
        };
    }
    Recorder rec(o);
    started(rec);
    loop_cpu.store(detail::current_cpu(), std::memory_order_relaxed);
    const auto block = static_cast<std::int64_t>(o.flush_every);
    // begin_frame of frame k commits frame k - 1: the block fills at k = block, 2 x block, ...
    std::int64_t to_hand_over = block + 1;
    for (auto _ : state) {
        frame(rec);
        if (--to_hand_over == 0) {  // a block was just handed over
            to_hand_over = block;
            if (!overlap)
                catch_up(state, rec, yield_while_waiting, &loop_cpu);
        } else if (overlap && to_hand_over == 1) {  // the next hand-over is near
            catch_up(state, rec, yield_while_waiting, &loop_cpu);
        }
    }
    rec.close();
    state.SetItemsProcessed(state.iterations());
    state.SetLabel(std::string(callback_only ? "callback sink" : "file sink") +
                   (overlap ? ", writer busy alongside" : ", writer idle"));
    state.counters["dropped"] = static_cast<double>(rec.dropped_frames());
    if (o.serve_port >= 0) {
        state.counters["live_sent"] = static_cast<double>(rec.live_stats().rows_sent);
        state.counters["live_dropped"] = static_cast<double>(rec.live_stats().rows_dropped);
    }
    if (!timing_callback)
        return;
    if (rec.recorded_frames() > 0 && o.background_writer) {
        state.counters["writer_cpu_ns"] =
            static_cast<double>(writer_ns) / static_cast<double>(rec.recorded_frames());
        if (placed_blocks > 0) {
            state.counters["writer_apart_pct"] =
                100.0 * static_cast<double>(apart_blocks) / static_cast<double>(placed_blocks);
        }
    }
    if (called_rows != rec.recorded_frames())
        state.SkipWithError("the callback did not see every recorded row");
}

// The loops the recorder's figures are compared with: the same iteration and bookkeeping (a
// countdown and a branch), no recorder; one passes the time along, one reads the clock.
// Range 0: every how many frames timing pauses and resumes at once, as the recorder's
// benchmarks pause for the writer (1024: catch_up once a block; 4095: the hot path's flush; 0:
// never, the countdown going below 0 at once). A pause and resume costs a few hundred ns of timed
// CPU (BM_PauseResume), which the benchmark charges to the frames around it, not to anything a
// game runs.
void BM_EmptyLoopGivenTime(benchmark::State& state) {
    const std::int64_t pause_every = state.range(0);
    std::int64_t now = 0;
    std::int64_t to_hand_over = 1025;
    std::int64_t to_pause = pause_every;
    for (auto _ : state) {
        now += 6'944'444;
        benchmark::DoNotOptimize(now);
        if (--to_hand_over == 0)
            to_hand_over = 1024;
        benchmark::DoNotOptimize(to_hand_over);
        if (--to_pause == 0) {
            to_pause = pause_every;
            state.PauseTiming();
            state.ResumeTiming();
        }
    }
}
BENCHMARK(BM_EmptyLoopGivenTime)->Arg(0)->Arg(1024)->Arg(4095);

// Range 0 as above: 1024 pauses as BM_RecorderFrameOwnClock does, once a block.
void BM_EmptyLoopOwnClock(benchmark::State& state) {
    const std::int64_t pause_every = state.range(0);
    std::int64_t to_hand_over = 1025;
    std::int64_t to_pause = pause_every;
    for (auto _ : state) {
        benchmark::DoNotOptimize(loopscope::now_ns());
        if (--to_hand_over == 0)
            to_hand_over = 1024;
        benchmark::DoNotOptimize(to_hand_over);
        if (--to_pause == 0) {
            to_pause = pause_every;
            state.PauseTiming();
            state.ResumeTiming();
        }
    }
}
BENCHMARK(BM_EmptyLoopOwnClock)->Arg(0)->Arg(1024);

// The hand-over alone: blocks of one row, so that every frame's commit hands its block to the
// writer. Per iteration: a frame, a hand-over and the pause/resume of catch_up, whose own cost
// BM_PauseResume measures. Range 0: the writer's poll period in µs (20: the hand-over wakes
// nobody; 0: it wakes the writer, a lock and a notify, as every hand-over did before the writer
// looked for blocks itself).
void BM_RecorderHandOver(benchmark::State& state) {
    RecorderOptions o = bench_options();
    o.flush_every = 1;
    o.writer_poll_us = state.range(0);
    std::int64_t writer_ns = 0;
    o.on_rows = [&](const FrameRecord*, std::size_t) { writer_ns = thread_cpu_ns(); };
    Recorder rec(o);
    std::int64_t now = 0;
    for (auto _ : state) {
        now += 6'944'444;
        rec.begin_frame(now);  // commits the previous frame: a full block, handed over
        catch_up(state, rec);
    }
    rec.close();
    state.counters["dropped"] = static_cast<double>(rec.dropped_frames());
}
BENCHMARK(BM_RecorderHandOver)->Arg(20)->Arg(0);

void BM_PauseResume(benchmark::State& state) {
    for (auto _ : state) {
        state.PauseTiming();
        state.ResumeTiming();
    }
}
BENCHMARK(BM_PauseResume);

// The per-frame path alone: rows into the preallocated buffer, the clock read by the game.
// The flush (formatting and writing 4096 rows) runs outside the timing. Range 0: 1 = the game's
// steps between begin_frame and loop(), as in a game (code the compiler cannot see through, so
// it cannot merge the two calls' stores into the row); 0 = the two calls back to back, as
// FixedStep makes them.
void BM_RecorderFrameHotPath(benchmark::State& state) {
    const bool steps_between = state.range(0) != 0;
    RecorderOptions o = bench_options();
    o.flush_every = 0;
    Recorder rec(o);
    std::int64_t now = 0;
    std::size_t since_flush = 0;
    for (auto _ : state) {
        now += 6'944'444;
        rec.begin_frame(now);
        if (steps_between)
            benchmark::ClobberMemory();  // the steps: may read or write any memory
        rec.loop({.acc_before_ns = 8'000'000,
                  .steps = now & 1,
                  .acc_after_ns = 1'000'000,
                  .alpha = 0.06});
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
BENCHMARK(BM_RecorderFrameHotPath)->Arg(0)->Arg(1);

// The new row's columns as the floor loops store them, each once, as begin_frame and loop() give
// them; the frame's wait is stored when the next begins.
inline void store_floor_row(detail::RingRow* r, std::int64_t now, std::int64_t raw_ns) {
    r->raw_ns = raw_ns;
    r->clamped_ns = raw_ns;
    r->consumed_ns = raw_ns;
    r->acc_before_ns = 8'000'000;
    r->steps = now & 1;
    r->cap_dropped_ns = 0;
    r->acc_after_ns = 1'000'000;
    r->alpha = 0.06;
    r->step_cost_ns = 0;
    r->render_ns = 0;
}

// The floor under the recorder's per-frame cost: one row of the ring's 11 columns stored a
// frame, each once, into a ring of 4096 rows, the row 32 on asked for as the recorder asks, and
// a countdown for the ring's end; no checks, no marks, no blocks. Range 0: 0 = the row pointer
// and the previous begin in registers; 1 = in a struct kept in memory (a compiler barrier each
// frame), as the Recorder's members are, since the writer thread holds its address. Each is
// read above BM_EmptyLoopGivenTime/0 (neither pauses); BM_RecorderFrameHotPath above /4095.
// Then /1 less /0 is what state in memory costs in a loop this tight, and the hot path less /1
// is the recorder's own work: its checks, marks, counts and the blocks.
struct FloorState {
    detail::RingRow* row = nullptr;
    std::int64_t previous_ns = 0;
    std::size_t left = 0;  // rows before the ring's end
};

template <bool kInMemory>
void row_stores_floor(benchmark::State& state) {
    constexpr std::size_t kRows = 4096;
    constexpr std::size_t kAhead = 32;
    std::vector<detail::RingRow> ring(kRows + kAhead);
    benchmark::DoNotOptimize(ring.data());  // the rows are stored, not optimised away
    FloorState s{ring.data(), 0, kRows - 1};
    if (kInMemory) {
        // Its address escapes, so every barrier (DoNotOptimize's too) sends it to memory.
        FloorState* const escaped = &s;
        benchmark::DoNotOptimize(escaped);
    }
    std::int64_t now = 0;
    for (auto _ : state) {
        now += 6'944'444;
        benchmark::DoNotOptimize(now);
        detail::RingRow* r = s.row;
        r->wait_ns = now - s.previous_ns;  // the frame before ends
        if (--s.left == 0) {
            s.left = kRows - 1;
            r = ring.data();
        } else {
            ++r;
        }
        detail::prefetch_row_for_write(r + kAhead);
        store_floor_row(r, now, now - s.previous_ns);
        s.row = r;
        s.previous_ns = now;
        if (kInMemory)
            benchmark::ClobberMemory();  // s is written to memory and read back every frame
    }
    state.SetItemsProcessed(state.iterations());
}
void BM_RowStoresFloor(benchmark::State& state) {
    if (state.range(0) != 0)
        row_stores_floor<true>(state);
    else
        row_stores_floor<false>(state);
}
BENCHMARK(BM_RowStoresFloor)->Arg(0)->Arg(1);

// The floor with the recorder's blocks and a reader, as its file sink has them: the same row
// stores (state in memory, as /1) into a ring of four blocks of 1024 rows with 4 KB after each,
// the row 32 on asked for as the recorder asks (round the ring from its last slot), each block
// handed over as it fills to a thread that looks every 20 µs, reads every column of every row
// and, on another CPU than the loop's, evicts the block's lines, as the writer does. Timing
// pauses as in the recorder's benchmarks (range 0: 0 = after each hand-over until the reader is
// done, 1 = before the next, the reader working alongside), so each is read above
// BM_EmptyLoopGivenTime/1024. Range 1: 0 = the reader on the loop's CPU, 1 = on another. With
// none of the recorder's checks, marks or counts, /x/1 less /x/0 is what the rows' lines cost
// the loop across two CPUs; a recorder case less its floor is the recorder's own work.
struct FloorBlocksState {
    detail::RingRow* row = nullptr;  // the row of the frame begun last
    std::int64_t previous_ns = 0;
    std::size_t left = 0;  // rows of the block not yet begun
    std::size_t slot = 0;
};

void BM_RowStoresFloorBlocks(benchmark::State& state) {
    constexpr std::size_t kBlock = 1024;
    constexpr std::size_t kSlots = 4;
    constexpr std::size_t kGap = (4096 + sizeof(detail::RingRow) - 1) / sizeof(detail::RingRow);
    constexpr std::size_t kStride = kBlock + kGap;
    constexpr std::size_t kRing = kSlots * kStride;
    constexpr std::size_t kAhead = 32;
    const bool overlap = state.range(0) != 0;
    const bool apart = state.range(1) != 0;
    const std::optional<Placement> placement = place_helper(state, apart);
    if (!placement)
        return;
    // One row before the ring for the first frame's "frame before", so that every frame's path
    // is the same.
    std::vector<detail::RingRow> storage(1 + kRing);
    detail::RingRow* const ring = storage.data() + 1;
    alignas(64) std::atomic<std::size_t> handed{0};
    alignas(64) std::atomic<std::size_t> read{0};
    std::atomic<bool> stop{false};
    const bool evict = apart && detail::has_clflushopt();
    double trip_before_ns = 0.0;
    if (apart) {
        trip_before_ns = measured_round_trip_ns(*placement);
        bench::run_this_thread_on({placement->helper_cpu});  // where the reader starts
    }
    std::thread reader([&] {  // starts on the CPU place_helper pinned this thread to
        std::size_t taken = 0;
        for (;;) {
            if (handed.load(std::memory_order_acquire) == taken) {
                if (stop.load(std::memory_order_acquire))
                    return;
                std::this_thread::sleep_for(std::chrono::microseconds(20));
                continue;
            }
            const detail::RingRow* rows = ring + (taken % kSlots) * kStride;
            std::int64_t sum = 0;
            double alpha_sum = 0.0;
            for (std::size_t i = 0; i < kBlock; ++i) {
                const detail::RingRow& r = rows[i];
                sum += r.raw_ns + r.clamped_ns + r.consumed_ns + r.acc_before_ns + r.steps +
                       r.cap_dropped_ns + r.acc_after_ns + r.step_cost_ns + r.render_ns + r.wait_ns;
                alpha_sum += r.alpha;
            }
            benchmark::DoNotOptimize(sum);
            benchmark::DoNotOptimize(alpha_sum);
            if (evict)
                detail::evict_lines(rows, kBlock * sizeof(detail::RingRow));
            read.store(++taken, std::memory_order_release);
        }
    });
    bench::run_this_thread_on({placement->loop_cpu});
    std::size_t blocks = 0;
    // Spins with timing paused until the reader has read every block handed over; on the
    // reader's own CPU it gives the CPU up at each look, or the reader would wait for the spin's
    // time slice to end.
    const auto wait_for_reader = [&] {
        state.PauseTiming();
        while (read.load(std::memory_order_acquire) != blocks) {
            if (!apart)
                std::this_thread::yield();
        }
        state.ResumeTiming();
    };
    FloorBlocksState s{storage.data(), 0, kBlock, 0};
    FloorBlocksState* const escaped = &s;  // in memory, as the Recorder's members are
    benchmark::DoNotOptimize(escaped);
    std::int64_t now = 0;
    for (auto _ : state) {
        now += 6'944'444;
        benchmark::DoNotOptimize(now);
        detail::RingRow* r = s.row;
        r->wait_ns = now - s.previous_ns;  // the frame before ends
        if (s.left == 0) {                 // it was its block's last: hand the block over
            handed.store(++blocks, std::memory_order_release);
            if (!overlap)
                wait_for_reader();
            s.slot = s.slot + 1 == kSlots ? 0 : s.slot + 1;
            s.left = kBlock;
            r = ring + s.slot * kStride;
        } else {
            ++r;
        }
        if (--s.left == 1 && overlap)
            wait_for_reader();  // the next hand-over is near
        detail::prefetch_row_for_write(
            s.left >= kAhead ? r + kAhead
                             : ring + detail::row_ahead(s.slot * kStride, kBlock - 1 - s.left,
                                                        kAhead, kBlock, kGap, kRing));
        store_floor_row(r, now, now - s.previous_ns);
        s.row = r;
        s.previous_ns = now;
        benchmark::ClobberMemory();  // s is written to memory and read back every frame
    }
    stop.store(true, std::memory_order_release);
    reader.join();
    if (apart)
        report_round_trips(state, trip_before_ns, measured_round_trip_ns(*placement));
    bench::run_this_thread_on(placement->allowed);
    state.SetItemsProcessed(state.iterations());
    state.SetLabel(std::string(overlap ? "reader busy alongside" : "reader idle") +
                   (apart ? ", on another CPU" : ", on the loop's CPU"));
}
BENCHMARK(BM_RowStoresFloorBlocks)->ArgsProduct({{0, 1}, {0, 1}});

// How far apart the two CPUs of the cases "on another CPU" are: the round trip of one cache
// line between the loop's CPU and the helper's, each thread waiting for the other's store before
// it makes its own. Two cores can share a level-3 cache or sit on different dies (a virtual
// machine's two CPUs can be either, and the host can move them from one minute to the next), so
// the figure says where a round's two-CPU cases mostly ran; each of those cases also reads it just
// before and after itself (measured_round_trip_ns). On the 2-core VM of docs/loop-engine.md
// ("Speed") the recorder's cases missed the aim with the two CPUs near as well as far.
void BM_CacheLineRoundTrip(benchmark::State& state) {
    const std::optional<Placement> placement = place_helper(state, true);
    if (!placement)
        return;
    TurnLine line;
    // Starts on the CPU place_helper pinned this thread to.
    std::thread helper([&] { answer_turns(line); });
    bench::run_this_thread_on({placement->loop_cpu});
    std::int64_t sent = 1;
    for (auto _ : state) {
        round_trip(line, sent);
        sent += 2;
    }
    line.turn.store(-1, std::memory_order_release);
    helper.join();
    bench::run_this_thread_on(placement->allowed);
    state.SetLabel("the loop's CPU and another");
}
BENCHMARK(BM_CacheLineRoundTrip);

// The recorder reading the clock itself: one clock read per frame plus the recording, with
// the background writer formatting and writing every 1024 frames.
void BM_RecorderFrameOwnClock(benchmark::State& state) {
    std::int64_t steps = 0;
    run_recorder_bench(state, bench_options(), [&](Recorder& rec) {
        rec.begin_frame();
        rec.loop({.acc_before_ns = 8'000'000,
                  .steps = ++steps & 1,
                  .acc_after_ns = 1'000'000,
                  .alpha = 0.06});
    });
}
BENCHMARK(BM_RecorderFrameOwnClock)->ArgsProduct({{0, 1}, {0, 1}});

// One frame of a game that passes its own clock reading (a 144 Hz frame later than the last).
auto given_time_frame(std::int64_t& now) {
    return [&now](Recorder& rec) {
        now += 6'944'444;
        rec.begin_frame(now);
        rec.loop({.acc_before_ns = 8'000'000,
                  .steps = now & 1,
                  .acc_after_ns = 1'000'000,
                  .alpha = 0.06});
    };
}

// The game passes its own clock reading: the recorder's cost beyond that read. The OS places
// the threads; `writer_apart_pct` says where it put the writer.
void BM_RecorderFrameGivenTime(benchmark::State& state) {
    std::int64_t now = 0;
    run_recorder_bench(state, bench_options(), given_time_frame(now));
}
BENCHMARK(BM_RecorderFrameGivenTime)->ArgsProduct({{0, 1}, {0, 1}});

// The same with the threads pinned (range 2: 0 = the writer on the loop's CPU, 1 = on another),
// so that where they run is the benchmark's choice, not the OS's. The writer starts with the
// CPUs of the thread that builds the Recorder: this thread is pinned to the writer's CPU while
// it builds it, then to the loop's.
void BM_RecorderFrameGivenTimePinned(benchmark::State& state) {
    const bool apart = state.range(2) != 0;
    const std::optional<Placement> placement = place_helper(state, apart);
    if (!placement)
        return;
    double trip_before_ns = 0.0;
    if (apart) {
        trip_before_ns = measured_round_trip_ns(*placement);
        bench::run_this_thread_on({placement->helper_cpu});  // where the writer starts
    }
    std::int64_t now = 0;
    run_recorder_bench(
        state, bench_options(), given_time_frame(now),
        [&](Recorder&) { bench::run_this_thread_on({placement->loop_cpu}); }, !apart);
    if (apart)
        report_round_trips(state, trip_before_ns, measured_round_trip_ns(*placement));
    bench::run_this_thread_on(placement->allowed);
    state.SetLabel(std::string(state.range(1) ? "callback sink" : "file sink") +
                   (state.range(0) ? ", writer busy alongside" : ", writer idle") +
                   (apart ? ", writer on another CPU" : ", writer on the loop's CPU"));
}
BENCHMARK(BM_RecorderFrameGivenTimePinned)->ArgsProduct({{0, 1}, {0, 1}, {0, 1}});

// Where in a block the loop's cost falls, with the file sink and the threads pinned to two CPUs
// (range 0 as above: the writer idle / busy alongside). The benchmark's CPU time cannot be split,
// so this reads the clock at four points after each hand-over and reports the time a frame, in
// ns, for frames 0-15, 16-63, 64-255 and 256-1023 of the block (`after_0_15` ...). Each stretch
// includes one clock read (about 20 ns here), spread over its frames, and is wall time, not CPU
// time. The first block is left out.
void BM_RecorderFrameAfterHandOver(benchmark::State& state) {
    const std::optional<Placement> placement = place_helper(state, true);
    if (!placement)
        return;
    const bool overlap = state.range(0) != 0;
    constexpr std::int64_t kEnds[] = {16, 64, 256, 1024};
    std::int64_t sums_ns[4] = {0, 0, 0, 0};
    std::int64_t blocks = 0;
    std::int64_t now = 0;
    const auto frame = given_time_frame(now);
    {
        Recorder rec(bench_options());
        bench::run_this_thread_on({placement->loop_cpu});
        std::int64_t in_block = -1;  // frames since the last hand-over; -1 = the first block
        std::size_t stretch = 0;
        std::int64_t mark_ns = 0;
        std::int64_t to_hand_over = 1025;
        for (auto _ : state) {
            if (in_block == 0)
                mark_ns = now_ns();
            frame(rec);
            if (in_block >= 0 && ++in_block == kEnds[stretch]) {
                const std::int64_t t = now_ns();
                sums_ns[stretch++] += t - mark_ns;
                mark_ns = t;
            }
            if (--to_hand_over == 0) {
                to_hand_over = 1024;
                blocks += in_block == 1024 ? 1 : 0;
                in_block = 0;
                stretch = 0;
                if (!overlap)
                    catch_up(state, rec);
            } else if (overlap && to_hand_over == 1) {
                const std::int64_t wait_from_ns = now_ns();
                catch_up(state, rec);
                mark_ns += now_ns() - wait_from_ns;  // the wait is not the frames'
            }
        }
        rec.close();
    }
    bench::run_this_thread_on(placement->allowed);
    std::int64_t begin = 0;
    for (std::size_t i = 0; i < 4 && blocks > 0; ++i) {
        const double frames = static_cast<double>(kEnds[i] - begin) * static_cast<double>(blocks);
        state.counters["after_" + std::to_string(begin) + "_" + std::to_string(kEnds[i] - 1)] =
            static_cast<double>(sums_ns[i]) / frames;
        begin = kEnds[i];
    }
    state.SetLabel(overlap ? "file sink, writer busy alongside, on another CPU"
                           : "file sink, writer idle, on another CPU");
}
BENCHMARK(BM_RecorderFrameAfterHandOver)->Arg(0)->Arg(1);

// The same with writer_poll_us = 0: the loop's thread wakes the writer at every hand-over (a
// system call every 1024 frames), as before the writer looked for blocks itself.
void BM_RecorderFrameGivenTimeWakeEachBlock(benchmark::State& state) {
    RecorderOptions o = bench_options();
    o.writer_poll_us = 0;
    std::int64_t now = 0;
    run_recorder_bench(state, o, given_time_frame(now));
}
BENCHMARK(BM_RecorderFrameGivenTimeWakeEachBlock)->ArgsProduct({{0, 1}, {0, 1}});

// The same with background_writer = false: formatting and writing on the loop's thread, as a
// game that cannot start a thread pays it.
void BM_RecorderFrameGivenTimeLoopThreadWriter(benchmark::State& state) {
    RecorderOptions o = bench_options();
    o.background_writer = false;
    std::int64_t now = 0;
    run_recorder_bench(state, o, given_time_frame(now));
}
BENCHMARK(BM_RecorderFrameGivenTimeLoopThreadWriter)->Args({0, 0});

// All three phase marks, each reading the clock (three reads a frame), background writer.
void BM_RecorderFrameWithPhases(benchmark::State& state) {
    run_recorder_bench(state, bench_options(), [](Recorder& rec) {
        rec.begin_frame();
        rec.loop(
            {.acc_before_ns = 8'000'000, .steps = 1, .acc_after_ns = 1'000'000, .alpha = 0.06});
        rec.end_steps();
        rec.end_render();
    });
}
BENCHMARK(BM_RecorderFrameWithPhases)->Args({0, 0})->Args({1, 0});

// The live sink: range 0 as above (writer idle / busy alongside); range 1: 1 = with the callback
// that reads the writer's CPU time, 0 = the live sink alone, as a game serving its frames has it
// (the callback reads every row, even when no client takes them); range 2: 0 = no client
// connected (the sender idle, the rows dropped and counted), 1 = a client reading everything
// (the sender busy shipping every row). Reports the bytes per frame on the wire and,
// with the callback, the sender's CPU time per row: the process's CPU time less that of the
// loop's thread, the writer and the reading client.
void BM_RecorderFrameGivenTimeLive(benchmark::State& state) {
    const bool client = state.range(2) != 0;
    const bool timing_callback = state.range(1) != 0;
    RecorderOptions o = bench_options();
    o.path = "";
    o.serve_port = 0;
    o.serve_stall_ms = 60'000;
    std::unique_ptr<bench::StreamReader> reader;
    std::int64_t now = 0;
    const std::int64_t process_start_ns = bench::process_cpu_ns();
    const std::int64_t loop_start_ns = thread_cpu_ns();
    std::int64_t bytes = 0, writer_cpu_ns = 0;
    run_recorder_bench(
        state, o, given_time_frame(now),
        [&](Recorder& rec) {
            if (!client)
                return;
            reader = std::make_unique<bench::StreamReader>(rec.serving_port());
            while (rec.live_stats().clients == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        },
        false, timing_callback);
    // run_recorder_bench closed the recorder: the client has everything.
    if (reader) {
        bytes = reader->finish();
        state.counters["bytes_per_frame"] =
            static_cast<double>(bytes) / std::max(1.0, state.counters["live_sent"].value);
    }
    // Without the callback the writer's CPU time is unknown: no sender figure.
    if (reader && timing_callback) {
        const std::int64_t other_ns = thread_cpu_ns() - loop_start_ns + reader->cpu_ns();
        writer_cpu_ns = static_cast<std::int64_t>(state.counters["writer_cpu_ns"].value *
                                                  static_cast<double>(state.iterations()));
        const double rows_sent = std::max(1.0, state.counters["live_sent"].value);
        const double sender_ns = static_cast<double>(bench::process_cpu_ns() - process_start_ns -
                                                     other_ns - writer_cpu_ns);
        state.counters["sender_cpu_ns"] = sender_ns / rows_sent;
    }
    state.SetLabel(std::string(client ? "live sink, client reading" : "live sink, no client") +
                   (state.range(0) ? ", writer busy alongside" : ", writer idle"));
}
BENCHMARK(BM_RecorderFrameGivenTimeLive)->ArgsProduct({{0, 1}, {0, 1}, {0, 1}});

}  // namespace
}  // namespace loopscope
