// The recorder's writing: rows handed to the background writer (or written on the loop's thread
// with background_writer = false) reach the file complete and in order across many flushes; a
// writer held busy makes the loop drop and count frames instead of waiting; close() and the
// destructor join the writer; no thread is left behind when the file cannot be opened; a sink
// that blocks (a FIFO nobody reads) never stops the game, and close() gives up on it in time.
// Exact behaviour only: the writer is paced by the test (wait_for_writer, a callback sink held
// closed), never by sleeping; the tests of when the writer is woken give it limits far from
// both sides.
#define LOOPSCOPE_RECORDER 1
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "loopscope/recorder.hpp"
#include "recorder/trace_text.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

std::vector<std::string> rows_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line[0] != '#' && line.rfind("frame,", 0) != 0)
            out.push_back(line);
    }
    return out;
}

std::int64_t frame_of(const std::string& row) {
    return std::stoll(row.substr(0, row.find(',')));
}

// Frame i begins at kStart + time_of(i); its loop state is derived from i, so that every row's
// text can be checked on its own, whatever frames around it were dropped.
constexpr std::int64_t kStart = 1'000'000;
std::int64_t time_of(std::int64_t i) {
    return 16 * (i + 1) + i % 5;
}
std::int64_t fake_now = 0;
std::int64_t fake_clock() {
    return fake_now;
}

std::string expected_row(std::int64_t i) {
    const std::int64_t raw = time_of(i) - (i == 0 ? 0 : time_of(i - 1));
    const std::int64_t wait = time_of(i + 1) - time_of(i);
    static const char* const kAlpha[] = {"0.000000", "0.250000", "0.500000", "0.750000"};
    const auto s = [](std::int64_t v) { return std::to_string(v); };
    return s(i) + "," + s(time_of(i)) + "," + s(raw) + "," + s(raw) + ",0," + s(raw) + "," +
           s(100 + i) + "," + s(i % 3) + ",0," + s(i) + "," + kAlpha[i % 4] + ",0,0," + s(wait);
}

RecorderOptions options_for(const std::string& path, bool background) {
    RecorderOptions o;
    o.path = path;
    o.clock_ns = &fake_clock;
    o.clock_name = "fake";
    o.write_start_time = false;
    o.background_writer = background;
    return o;
}

// Makes `f`, a callable the caller keeps alive, the callback sink.
template <class F>
void set_on_rows(RecorderOptions& o, F& f) {
    o.on_rows = [](void* user, const FrameRecord* rows, std::size_t count) {
        (*static_cast<F*>(user))(rows, count);
    };
    o.on_rows_user = &f;
}

// Records frames [from, to) at their times.
void record(Recorder& rec, std::int64_t from, std::int64_t to) {
    for (std::int64_t i = from; i < to; ++i) {
        rec.begin_frame(kStart + time_of(i));
        rec.loop({.acc_before_ns = 100 + i,
                  .steps = i % 3,
                  .acc_after_ns = i,
                  .alpha = static_cast<double>(i % 4) / 4.0});
    }
}

#if defined(__linux__)
std::size_t threads_in_process() {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& entry :
         std::filesystem::directory_iterator("/proc/self/task"))
        ++n;
    return n;
}

// The count before a recorder: after one thread has come and gone, so that helper threads a
// runtime starts with the first thread (ThreadSanitizer's) are already there.
std::size_t baseline_threads() {
    std::thread([] {}).join();
    return threads_in_process();
}

// A joined thread can stay listed for a moment after join() returns (the kernel wakes the
// joiner before it has removed the thread): poll until the count is `expected`, for at most 5 s.
std::size_t threads_after_join(std::size_t expected) {
    std::size_t n = threads_in_process();
    for (int i = 0; i < 5000 && n != expected; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        n = threads_in_process();
    }
    return n;
}
#endif

// A callback sink the test holds closed: the writer waits in it (at most 10 s, so that a
// failing test cannot hang) until the test opens it.
struct WriterGate {
    std::mutex mutex;
    std::condition_variable cv;
    bool open = false;
    int entered = 0;

    void hold() {
        std::unique_lock<std::mutex> lock(mutex);
        ++entered;
        cv.notify_all();
        cv.wait_for(lock, std::chrono::seconds(10), [&] { return open; });
    }
    void release() {
        {
            std::lock_guard<std::mutex> lock(mutex);
            open = true;
        }
        cv.notify_all();
    }
};

class RecorderWriter : public ::testing::TestWithParam<bool> {
  protected:
    void SetUp() override { dir_ = test::make_temp_dir("recorder-writer"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string dir_;
};

INSTANTIATE_TEST_SUITE_P(Modes, RecorderWriter, ::testing::Values(true, false),
                         [](const auto& info) {
                             return info.param ? "BackgroundWriter" : "LoopThreadWriter";
                         });

TEST_P(RecorderWriter, RowsWrittenAreTheRowsRecordedInOrderAcrossManyFlushes) {
    const std::string path = dir_ + "/t.csv";
    RecorderOptions o = options_for(path, GetParam());
    o.capacity = 64;
    o.flush_every = 7;  // 9 blocks of 7 rows in the ring
    constexpr std::int64_t kFrames = 2000;
    fake_now = kStart;
    {
        Recorder rec(o);
        EXPECT_EQ(rec.has_writer_thread(), GetParam());
        for (std::int64_t i = 0; i < kFrames; ++i) {
            record(rec, i, i + 1);
            // Explicit flushes of partial blocks, now and then.
            if (i % 97 == 5)
                rec.flush();
            // Pace the writer so that nothing is dropped: the test is about the data.
            rec.wait_for_writer();
        }
        rec.close(kStart + time_of(kFrames));
        EXPECT_TRUE(rec.ok());
        EXPECT_EQ(rec.frames(), kFrames);
        EXPECT_EQ(rec.recorded_frames(), kFrames);
        EXPECT_EQ(rec.dropped_frames(), 0);
    }
    const auto rows = rows_of(test::read_text(path));
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(kFrames));
    for (std::int64_t i = 0; i < kFrames; ++i)
        ASSERT_EQ(rows[static_cast<std::size_t>(i)], expected_row(i)) << "row " << i;
}

TEST_P(RecorderWriter, UnpacedTheRowsWrittenAreStillExactlyTheRowsRecorded) {
    // The loop runs as fast as it can: with the background writer some frames may be dropped
    // (how many depends on the machine), but every row written is the right one, in order,
    // and written + dropped = all frames.
    const std::string path = dir_ + "/t.csv";
    RecorderOptions o = options_for(path, GetParam());
    o.capacity = 32;
    o.flush_every = 8;
    constexpr std::int64_t kFrames = 20000;
    fake_now = kStart;
    std::int64_t recorded = 0, dropped = 0;
    {
        Recorder rec(o);
        record(rec, 0, kFrames);
        rec.close(kStart + time_of(kFrames));
        EXPECT_TRUE(rec.ok());
        recorded = rec.recorded_frames();
        dropped = rec.dropped_frames();
    }
    EXPECT_EQ(recorded + dropped, kFrames);
    if (!GetParam()) {
        EXPECT_EQ(dropped, 0);  // the loop's thread writes itself: it never has to drop
    }
    const auto rows = rows_of(test::read_text(path));
    ASSERT_EQ(static_cast<std::int64_t>(rows.size()), recorded);
    std::int64_t previous = -1;
    for (const auto& row : rows) {
        const std::int64_t frame = frame_of(row);
        ASSERT_GT(frame, previous);
        ASSERT_EQ(row, expected_row(frame));
        previous = frame;
    }
}

TEST_P(RecorderWriter, BlocksAreOnDiskOnceWrittenAndThePartialBlockIsHeld) {
    // What a crash would leave: the full blocks handed over, not the block being filled.
    const std::string path = dir_ + "/t.csv";
    RecorderOptions o = options_for(path, GetParam());
    o.capacity = 12;  // three blocks: the writer may be a block behind without a drop
    o.flush_every = 4;
    fake_now = kStart;
    Recorder rec(o);
    record(rec, 0, 10);  // nine frames complete: two blocks of four, frame 8 held
    rec.wait_for_writer();
    auto rows = rows_of(test::read_text(path));
    ASSERT_EQ(rows.size(), 8u);
    EXPECT_EQ(rows[7], expected_row(7));
    // flush() hands the held frame over too.
    rec.flush();
    rec.wait_for_writer();
    rows = rows_of(test::read_text(path));
    ASSERT_EQ(rows.size(), 9u);
    EXPECT_EQ(rows[8], expected_row(8));
    rec.close(kStart + time_of(10));
    EXPECT_EQ(rows_of(test::read_text(path)).size(), 10u);
}

TEST_P(RecorderWriter, CloseTwiceIsSafeAndTheDestructorAfterCloseDoesNothingMore) {
    const std::string path = dir_ + "/t.csv";
    RecorderOptions o = options_for(path, GetParam());
    o.flush_every = 4;
    fake_now = kStart;
    {
        Recorder rec(o);
        record(rec, 0, 6);
        rec.close(kStart + time_of(6));
        EXPECT_FALSE(rec.has_writer_thread());
        rec.close(kStart + time_of(9));
        rec.close();
        EXPECT_TRUE(rec.ok());
        EXPECT_EQ(rec.recorded_frames(), 6);
    }
    const auto rows = rows_of(test::read_text(path));
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_EQ(rows[5], expected_row(5));
}

TEST_P(RecorderWriter, FramesAfterCloseAreCountedAsDroppedAndNothingIsWritten) {
    // A game that keeps calling the recorder after close(): no crash, no write, every frame
    // counted, across more than a block's worth of frames and an explicit flush.
    const std::string path = dir_ + "/t.csv";
    RecorderOptions o = options_for(path, GetParam());
    o.flush_every = 4;
    fake_now = kStart;
    Recorder rec(o);
    record(rec, 0, 6);
    rec.close(kStart + time_of(6));
    const std::string closed = test::read_text(path);
    record(rec, 6, 20);
    rec.flush();
    rec.close();
    EXPECT_TRUE(rec.ok());
    EXPECT_EQ(rec.recorded_frames(), 6);
    EXPECT_EQ(rec.frames(), 20);
    EXPECT_EQ(rec.dropped_frames(), 13);  // frames 6..18 ended after close(); 19 never ended
    EXPECT_EQ(test::read_text(path), closed);
}

TEST_P(RecorderWriter, ACallbackAloneGetsEveryRowInOrderAndNoFileIsWritten) {
    // path "" = no file: the callback is the only sink. Its rows are the file's rows would be.
    RecorderOptions o = options_for("", GetParam());
    o.capacity = 16;
    o.flush_every = 4;
    std::string text;
    auto on_rows = [&](const FrameRecord* rows, std::size_t count) {
        char row[trace_v1::kMaxRowChars];
        for (std::size_t i = 0; i < count; ++i)
            text.append(row, trace_v1::format_row(row, rows[i]));
    };
    set_on_rows(o, on_rows);
    fake_now = kStart;
    std::int64_t recorded = 0;
    {
        Recorder rec(o);
        EXPECT_EQ(rec.has_writer_thread(), GetParam());
        for (std::int64_t i = 0; i < 50; ++i) {
            record(rec, i, i + 1);
            rec.wait_for_writer();
        }
        rec.close(kStart + time_of(50));
        EXPECT_TRUE(rec.ok());
        EXPECT_EQ(rec.dropped_frames(), 0);
        recorded = rec.recorded_frames();
    }
    EXPECT_EQ(recorded, 50);
    const auto rows = rows_of(text);
    ASSERT_EQ(rows.size(), 50u);
    for (std::int64_t i = 0; i < 50; ++i)
        EXPECT_EQ(rows[static_cast<std::size_t>(i)], expected_row(i));
    EXPECT_TRUE(std::filesystem::is_empty(dir_));
}

// The callback gets each hand-over's rows in order, whole, in one piece where they lie in one
// run of the ring and in two where they wrap round its end.
TEST_P(RecorderWriter, ACallbackGetsEachHandOverInOrderInPiecesOfWholeRows) {
    RecorderOptions o = options_for("", GetParam());
    o.capacity = 1000;
    o.flush_every = 300;
    std::string text;
    std::vector<std::size_t> pieces;
    auto on_rows = [&](const FrameRecord* rows, std::size_t count) {
        pieces.push_back(count);
        char row[trace_v1::kMaxRowChars];
        for (std::size_t i = 0; i < count; ++i)
            text.append(row, trace_v1::format_row(row, rows[i]));
    };
    set_on_rows(o, on_rows);
    fake_now = kStart;
    constexpr std::int64_t kFrames = 1300;
    {
        Recorder rec(o);
        for (std::int64_t i = 0; i < kFrames; ++i) {
            record(rec, i, i + 1);
            if (i == 450)
                rec.flush();  // mid-frame: frames 300-449 go; frame 450 is still open
            rec.wait_for_writer();
        }
        rec.close(kStart + time_of(kFrames));
        EXPECT_EQ(rec.dropped_frames(), 0);
    }
    // Hand-overs of 300, 150 (the flush), 300, 300 (rows 750-1049, which wrap round the ring's
    // end after row 999: two pieces) and 250 (close).
    const std::vector<std::size_t> expected_pieces = {300, 150, 300, 250, 50, 250};
    EXPECT_EQ(pieces, expected_pieces);
    const auto rows = rows_of(text);
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(kFrames));
    for (std::int64_t i = 0; i < kFrames; ++i)
        ASSERT_EQ(rows[static_cast<std::size_t>(i)], expected_row(i)) << "row " << i;
}

TEST_P(RecorderWriter, StandardOutput) {
#if defined(__linux__)
    // "-" writes to stdout: send file descriptor 1 to a file for the recorder's lifetime.
    const std::string path = dir_ + "/stdout.txt";
    RecorderOptions o = options_for("-", GetParam());
    o.flush_every = 3;
    std::optional<test::StdoutToFile> redirect(std::in_place, path);
    ASSERT_TRUE(redirect->ok());
    bool ok = false;
    std::int64_t recorded = 0;
    fake_now = kStart;
    {
        Recorder rec(o);
        record(rec, 0, 11);
        rec.close(kStart + time_of(11));
        ok = rec.ok();
        recorded = rec.recorded_frames();
    }
    redirect.reset();
    EXPECT_TRUE(ok);
    EXPECT_EQ(recorded, 11);
    const std::string text = test::read_text(path);
    EXPECT_EQ(text.rfind("# loopscope-trace v2\n", 0), 0u) << text;
    const auto rows = rows_of(text);
    ASSERT_EQ(rows.size(), 11u);
    for (std::int64_t i = 0; i < 11; ++i)
        EXPECT_EQ(rows[static_cast<std::size_t>(i)], expected_row(i));
#else
    GTEST_SKIP() << "redirects file descriptor 1 (POSIX)";
#endif
}

// The file is opened by whichever thread writes (the writer's, or the loop's without one): a
// path that cannot be opened is reported by ok() once that thread has tried, every frame is
// counted as dropped, and no thread outlives close().
TEST_P(RecorderWriter, AFileThatCannotBeOpenedIsReportedAndLeavesNoThread) {
#if defined(__linux__)
    const std::size_t before = baseline_threads();
#endif
    {
        Recorder rec(options_for(dir_ + "/no-such-folder/t.csv", GetParam()));
        EXPECT_EQ(rec.has_writer_thread(), GetParam());
        record(rec, 0, 5);
        rec.close();
        EXPECT_FALSE(rec.has_writer_thread());
        EXPECT_FALSE(rec.ok());
        EXPECT_EQ(rec.recorded_frames(), 0);
        EXPECT_EQ(rec.dropped_frames(), 5);  // the fifth, still open at close(), too
    }
#if defined(__linux__)
    EXPECT_EQ(threads_after_join(before), before);
#endif
}

#if defined(__linux__)
TEST_P(RecorderWriter, AFailedWriteIsReportedByOk) {
    // /dev/full opens, and every write to it fails (no space left).
    Recorder rec(options_for("/dev/full", GetParam()));
    record(rec, 0, 5);
    rec.close();
    EXPECT_FALSE(rec.ok());
    EXPECT_EQ(rec.recorded_frames(), 0);
    // Every frame is accounted for, the one still open at close() too.
    EXPECT_EQ(rec.dropped_frames(), 5);
}
#endif

TEST(RecorderBackgroundWriter, TheDestructorJoinsTheWriterAndWritesTheRest) {
    const std::string dir = test::make_temp_dir("recorder-writer");
    const std::string path = dir + "/t.csv";
    RecorderOptions o = options_for(path, true);
    o.flush_every = 5;
#if defined(__linux__)
    const std::size_t before = baseline_threads();
#endif
    // The callback sink sees every block on the writer's thread, the last one (written by the
    // destructor's close) before join returns.
    std::vector<std::int64_t> called_frames;
    std::thread::id called_on;
    auto on_rows = [&](const FrameRecord* rows, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i)
            called_frames.push_back(rows[i].frame);
        called_on = std::this_thread::get_id();
    };
    set_on_rows(o, on_rows);
    fake_now = kStart;
    {
        Recorder rec(o);
        EXPECT_TRUE(rec.has_writer_thread());
#if defined(__linux__)
        EXPECT_EQ(threads_in_process(), before + 1);
#endif
        record(rec, 0, 13);               // two full blocks and three rows held: no close()
        fake_now = kStart + time_of(13);  // the destructor ends the last frame here
    }
    ASSERT_EQ(called_frames.size(), 13u);
    for (std::int64_t i = 0; i < 13; ++i)
        EXPECT_EQ(called_frames[static_cast<std::size_t>(i)], i);
    EXPECT_NE(called_on, std::this_thread::get_id());
    EXPECT_NE(called_on, std::thread::id());
#if defined(__linux__)
    EXPECT_EQ(threads_after_join(before), before);
#endif
    const auto rows = rows_of(test::read_text(path));
    ASSERT_EQ(rows.size(), 13u);
    for (std::int64_t i = 0; i < 13; ++i)
        EXPECT_EQ(rows[static_cast<std::size_t>(i)], expected_row(i));
    std::filesystem::remove_all(dir);
}

TEST(RecorderBackgroundWriter, ABusyWriterMakesTheLoopDropAndCountFramesNotWait) {
    const std::string dir = test::make_temp_dir("recorder-writer");
    const std::string path = dir + "/t.csv";
    WriterGate gate;
    RecorderOptions o = options_for(path, true);
    o.capacity = 4;
    o.flush_every = 2;  // a ring of two blocks of two rows
    // The callback sink held closed: the writer cannot finish a block.
    auto on_rows = [&](const FrameRecord*, std::size_t) { gate.hold(); };
    set_on_rows(o, on_rows);
    fake_now = kStart;
    {
        Recorder rec(o);
        // Opens the gate before the recorder's destructor joins, whatever happens below.
        struct Opener {
            WriterGate& gate;
            ~Opener() { gate.release(); }
        } opener{gate};

        // Frames 0-1 fill block 0 (handed over: the writer holds it in the gate), frames 2-3
        // fill block 1 (handed over), and frames 4-8 find block 0 still not written: dropped.
        // Frame 9 is still open.
        record(rec, 0, 10);
        EXPECT_EQ(rec.recorded_frames(), 4);
        EXPECT_EQ(rec.dropped_frames(), 5);
        EXPECT_EQ(rec.frames(), 10);
        EXPECT_FALSE(rec.writer_caught_up());

        gate.release();
        for (std::int64_t i = 10; i < 16; ++i) {  // frame 9 and on are recorded again
            rec.wait_for_writer();                // (paced: no further drops)
            record(rec, i, i + 1);
        }
        rec.wait_for_writer();
        EXPECT_TRUE(rec.writer_caught_up());
        rec.close(kStart + time_of(16));
        EXPECT_TRUE(rec.ok());
        EXPECT_EQ(rec.recorded_frames(), 11);
        EXPECT_EQ(rec.dropped_frames(), 5);
    }
    EXPECT_GE(gate.entered, 1);
    const auto rows = rows_of(test::read_text(path));
    std::vector<std::int64_t> frames;
    for (const auto& row : rows) {
        frames.push_back(frame_of(row));
        EXPECT_EQ(row, expected_row(frame_of(row)));
    }
    // The frame column shows the gap.
    EXPECT_EQ(frames, (std::vector<std::int64_t>{0, 1, 2, 3, 9, 10, 11, 12, 13, 14, 15}));
    std::filesystem::remove_all(dir);
}

// flush() and close() do not wait for the writer's next look: they wake it.
TEST(RecorderBackgroundWriter, FlushWakesTheWriterAtOnce) {
    const std::string dir = test::make_temp_dir("recorder-writer");
    RecorderOptions o = options_for(dir + "/t.csv", true);
    o.flush_every = 4;
    o.writer_poll_us = 60'000'000;
    o.close_timeout_ms = 60'000;
    fake_now = kStart;
    const auto start = std::chrono::steady_clock::now();
    {
        Recorder rec(o);
        record(rec, 0, 3);
        rec.flush();
        EXPECT_EQ(rows_of(test::read_text(dir + "/t.csv")).size(), 2u);  // frame 2 is open
        record(rec, 3, 6);               // frames 2-4 handed over, frame 5 open
        rec.close(kStart + time_of(6));  // the rest handed over, and the writer stopped
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
    EXPECT_EQ(rows_of(test::read_text(dir + "/t.csv")).size(), 6u);
    std::filesystem::remove_all(dir);
}

// Whether the writer has written everything handed over before `limit` passes.
bool caught_up_within(const Recorder& rec, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!rec.writer_caught_up()) {
        if (std::chrono::steady_clock::now() > end)
            return false;
        std::this_thread::yield();
    }
    return true;
}

// The writer below looks once a minute, so only a wake-up can meet the limits: a hand-over that
// finds the ring more than half full wakes it. Blocks of 4 rows go over one at a time until the
// writer has caught up (a writer that starts late takes the first ones without a wake, so the
// test does not say which hand-over wakes it, only that one soon does).
TEST(RecorderBackgroundWriter, AHandOverIntoAHalfFullRingWakesTheWriter) {
    const std::string dir = test::make_temp_dir("recorder-writer");
    RecorderOptions o = options_for(dir + "/t.csv", true);
    o.capacity = 16;
    o.flush_every = 4;
    o.writer_poll_us = 60'000'000;
    fake_now = kStart;
    Recorder rec(o);
    // Time for the writer's thread to start and wait.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::int64_t frames = 1;
    record(rec, 0, 1);  // frame 0 open: each 4 frames below end with a hand-over
    bool caught_up = false;
    for (int block = 0; block < 8 && !caught_up; ++block) {
        record(rec, frames, frames + 4);
        frames += 4;
        caught_up = caught_up_within(rec, std::chrono::milliseconds(250));
    }
    EXPECT_TRUE(caught_up);
    EXPECT_EQ(rec.dropped_frames(), 0);
    rec.close(kStart + time_of(frames));
    EXPECT_EQ(rows_of(test::read_text(dir + "/t.csv")).size(), static_cast<std::size_t>(frames));
    std::filesystem::remove_all(dir);
}

// Without flush(), the writer finds what was handed over at its next look (a hand-over into a
// ring less than half full wakes nobody): a writer that has gone idle still looks at least
// every 50 ms.
TEST(RecorderBackgroundWriter, AnIdleWriterStillFindsTheNextHandOver) {
    const std::string dir = test::make_temp_dir("recorder-writer");
    RecorderOptions o = options_for(dir + "/t.csv", true);
    o.flush_every = 4;
    o.writer_poll_us = 1000;
    fake_now = kStart;
    Recorder rec(o);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // idle: looks back off
    record(rec, 0, 5);                                             // frames 0-3 handed over
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!rec.writer_caught_up() && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_TRUE(rec.writer_caught_up());
    EXPECT_EQ(rows_of(test::read_text(dir + "/t.csv")).size(), 4u);
    rec.close(kStart + time_of(5));
    std::filesystem::remove_all(dir);
}

TEST(RecorderBackgroundWriter, NoThreadWithoutStreamingOrWhenTurnedOff) {
    const std::string dir = test::make_temp_dir("recorder-writer");
    RecorderOptions o = options_for(dir + "/a.csv", true);
    o.flush_every = 0;  // everything at close(): nothing to hand over before
    {
        Recorder rec(o);
        EXPECT_FALSE(rec.has_writer_thread());
    }
    RecorderOptions off = options_for(dir + "/b.csv", false);
    {
        Recorder rec(off);
        EXPECT_FALSE(rec.has_writer_thread());
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
