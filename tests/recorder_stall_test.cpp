// The recorder's promise when its writer stalls (a sink blocked, a starved thread): the game's
// loop keeps its pace and the frames the full ring cannot take are dropped and counted. Judged
// on counts, not on tail timings that a shared machine's interrupts would decide: the frames the
// loop completes in a second of pacing, and the calls that took over a millisecond, with the
// writer held against the same loop with the writer running.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace loopscope {
namespace {

// A callback sink the test can hold closed: the writer then waits in it (at most 10 s).
struct Gate {
    std::mutex mutex;
    std::condition_variable cv;
    bool open = true;
    int held = 0;  // calls that found the gate closed

    static void on_rows(void* user, const FrameRecord*, std::size_t) {
        auto& g = *static_cast<Gate*>(user);
        std::unique_lock<std::mutex> lock(g.mutex);
        if (!g.open)
            ++g.held;
        g.cv.wait_for(lock, std::chrono::seconds(10), [&] { return g.open; });
    }
    void set(bool value) {
        {
            std::lock_guard<std::mutex> lock(mutex);
            open = value;
        }
        cv.notify_all();
    }
};

struct Pace {
    int frames = 0;
    int slow_calls = 0;  // recorder calls of more than a millisecond
};

// A second of a 1 kHz loop paced on the real clock: each frame records itself with times
// counted on a virtual clock, then sleeps to its deadline.
Pace run_one_second(Recorder& rec, std::int64_t& virtual_ns) {
    Pace pace;
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    auto deadline = start;
    while (clock::now() - start < std::chrono::seconds(1)) {
        virtual_ns += 1'000'000;
        const auto t0 = clock::now();
        rec.begin_frame(virtual_ns);
        LoopFrame f;
        f.steps = 1;
        rec.loop(f);
        if (clock::now() - t0 > std::chrono::milliseconds(1))
            ++pace.slow_calls;
        ++pace.frames;
        deadline += std::chrono::milliseconds(1);
        std::this_thread::sleep_until(deadline);
    }
    return pace;
}

TEST(RecorderStall, AWriterHeldForASecondCostsTheLoopNoPaceAndItsFramesAreCounted) {
    Gate gate;
    RecorderOptions o;
    o.path = "";
    o.on_rows = &Gate::on_rows;
    o.on_rows_user = &gate;
    o.capacity = 128;  // a tenth of the held second: the ring fills, frames are dropped
    o.flush_every = 16;
    o.write_start_time = false;
    Recorder rec(o);
    std::int64_t virtual_ns = rec.start_ns();

    const Pace running = run_one_second(rec, virtual_ns);
    rec.wait_for_writer();
    const std::int64_t dropped_before = rec.dropped_frames();

    gate.set(false);  // the writer blocks at its next hand-over, for the second below
    const Pace held = run_one_second(rec, virtual_ns);
    const std::int64_t dropped_held = rec.dropped_frames() - dropped_before;
    gate.set(true);
    rec.close(virtual_ns + 1'000'000);

    // A loop that waited for the writer would complete a handful of frames in the held second.
    EXPECT_GE(held.frames, running.frames / 2) << "running " << running.frames;
    EXPECT_LE(held.slow_calls, running.slow_calls + 3);
    EXPECT_GE(gate.held, 1);
    // The ring held at most `capacity` of the held second's frames: the rest were dropped.
    EXPECT_GE(dropped_held, held.frames - static_cast<std::int64_t>(o.capacity));
    EXPECT_EQ(rec.recorded_frames() + rec.dropped_frames(), rec.frames());
}

}  // namespace
}  // namespace loopscope
