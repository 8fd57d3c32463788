// A trace path that blocks (Linux: a FIFO): the game's calls never wait for the sink.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

// A trace path that is a FIFO nobody reads: opening it blocks until a reader comes, and a
// reader that stops blocks each write. The game's calls never wait for it: the constructor
// returns at once, frames go on (dropped and counted once the ring is full), and close() gives
// up after close_timeout_ms, counting the rows not written as dropped.
TEST(RecorderBackgroundWriter, AFifoNobodyReadsNeverStopsTheGame) {
    const std::string dir = test::make_temp_dir("recorder-writer");
    const std::string path = dir + "/fifo";
    ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
    RecorderOptions o;
    o.path = path;
    o.write_start_time = false;
    o.capacity = 64;
    o.flush_every = 8;
    o.close_timeout_ms = 300;
    const auto start = std::chrono::steady_clock::now();
    std::int64_t recorded = 0, dropped = 0;
    bool ok = true;
    {
        Recorder rec(o);
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
        for (std::int64_t i = 0; i < 1000; ++i)
            rec.begin_frame(rec.start_ns() + i * 1'000'000);
        rec.flush();  // waits for the writer: at most close_timeout_ms
        rec.close(rec.start_ns() + 1000 * 1'000'000);
        recorded = rec.recorded_frames();
        dropped = rec.dropped_frames();
        ok = rec.ok();
    }
    // Two bounded waits (flush, close) and the frames: far less than a blocked writer's
    // forever, with room for a loaded machine.
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    EXPECT_FALSE(ok);
    EXPECT_EQ(recorded, 0);
    EXPECT_EQ(dropped, 1000);  // every frame: none reached the FIFO
    // The writer left behind still waits in its open(); a reader lets it finish. Opening the
    // FIFO for reading without blocking, then draining it, ends that thread's wait.
    const int reader = open(path.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    close(reader);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
