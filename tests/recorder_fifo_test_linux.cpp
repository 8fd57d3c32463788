// A trace path that blocks (Linux: a FIFO): the game's calls never wait for the sink.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

// A trace path that is a FIFO nobody reads: opening it would block until a reader comes. The
// writer opens it without blocking and, with no reader after close_timeout_ms, counts the sink
// as failed; the game's calls never wait for it: the constructor returns at once, frames go on
// and are dropped and counted.
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
    std::filesystem::remove_all(dir);
}

// The writer's open() of a FIFO without a reader ends: the sink fails within close_timeout_ms of
// the start (bounded here by 10 s for a loaded machine), before any flush or close asks, and the
// writer thread is free (close() then finds it ended, with no wait left to give up).
TEST(RecorderBackgroundWriter, AFifoWithoutAReaderFailsTheSinkInsteadOfBlockingTheWriter) {
    const std::string dir = test::make_temp_dir("recorder-fifo-open");
    const std::string path = dir + "/fifo";
    ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
    RecorderOptions o;
    o.path = path;
    o.write_start_time = false;
    o.capacity = 64;
    o.flush_every = 8;
    o.close_timeout_ms = 200;
    Recorder rec(o);
    ASSERT_TRUE(rec.has_writer_thread());
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (rec.ok() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_FALSE(rec.ok()) << "the writer still waits in open()";
    for (std::int64_t i = 0; i < 100; ++i)
        rec.begin_frame(rec.start_ns() + i * 1'000'000);
    const auto closing = std::chrono::steady_clock::now();
    rec.close(rec.start_ns() + 100 * 1'000'000);
    // The writer had ended its open(): close() joins it rather than waiting out its 200 ms.
    EXPECT_LT(std::chrono::steady_clock::now() - closing, std::chrono::milliseconds(200));
    EXPECT_EQ(rec.recorded_frames(), 0);
    EXPECT_EQ(rec.dropped_frames(), 100);
    std::filesystem::remove_all(dir);
}

// A FIFO with a reader gets the trace as a file would: the open without blocking finds the
// reader, and the writes block again as they should.
TEST(RecorderBackgroundWriter, AFifoWithAReaderGetsTheWholeTrace) {
    const std::string dir = test::make_temp_dir("recorder-fifo-read");
    const std::string path = dir + "/fifo";
    ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
    const int reader = open(path.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    std::string text;
    std::atomic<bool> done{false};
    std::thread drain([&] {
        char chunk[4096];
        for (;;) {
            const auto n = read(reader, chunk, sizeof chunk);
            if (n > 0)
                text.append(chunk, static_cast<std::size_t>(n));
            else if (n == 0 && done.load())
                break;
            else
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    });
    {
        RecorderOptions o;
        o.path = path;
        o.write_start_time = false;
        o.capacity = 4096;
        o.flush_every = 8;
        Recorder rec(o);
        for (std::int64_t i = 0; i < 2000; ++i)
            rec.begin_frame(rec.start_ns() + (i + 1) * 1'000'000);
        rec.close(rec.start_ns() + 2001 * 1'000'000);
        EXPECT_TRUE(rec.ok());
        EXPECT_EQ(rec.dropped_frames(), 0);
    }
    done = true;
    drain.join();
    close(reader);
    EXPECT_EQ(test::trace_cells(text).size(), 2000u);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
