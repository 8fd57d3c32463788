// The drop-in recorder header with recording on: exact rows on a fake clock, flushing every N
// frames (what a crash leaves behind), dropped frames, and the same text as the trace writer.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "core/capture.hpp"
#include "core/loop_engine.hpp"
#include "readers/readers.hpp"
#include "recorder/trace_text.hpp"
#include "tests/test_support.hpp"
#include "writers/trace_writer.hpp"

namespace loopscope {
namespace {

std::int64_t fake_now = 0;
std::int64_t fake_clock() {
    return fake_now;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

std::vector<std::string> rows_of(const std::string& text) {
    std::vector<std::string> out;
    for (auto& line : lines_of(text)) {
        if (!line.empty() && line[0] != '#' && line.rfind("frame,", 0) != 0)
            out.push_back(line);
    }
    return out;
}

RecorderOptions fake_options(const std::string& path) {
    RecorderOptions o;
    o.path = path;
    o.clock_ns = &fake_clock;
    o.clock_name = "fake";
    o.policy = "fixed-interp";
    o.dt_ns = 10;
    o.clamp_ns = 250;
    o.write_start_time = false;
    return o;
}

// Rows to `got` through the callback, in blocks of `flush_every`, written on the loop's thread so
// that every row is kept.
RecorderOptions collecting_options(std::vector<FrameRecord>& got, std::size_t capacity,
                                   std::size_t flush_every) {
    RecorderOptions o = fake_options("");
    o.on_rows = [](void* user, const FrameRecord* rows, std::size_t n) {
        auto& out = *static_cast<std::vector<FrameRecord>*>(user);
        out.insert(out.end(), rows, rows + n);
    };
    o.on_rows_user = &got;
    o.capacity = capacity;
    o.flush_every = flush_every;
    o.background_writer = false;
    return o;
}

TEST(Recorder, WritesTheTraceFormatWithExactTimesFromTheClock) {
    const std::string dir = test::make_temp_dir("recorder");
    const std::string path = dir + "/t.csv";
    fake_now = 1000;
    {
        Recorder rec(fake_options(path));
        fake_now = 1016;
        rec.begin_frame();
        rec.loop({.acc_before_ns = 16, .steps = 1, .acc_after_ns = 6, .alpha = 0.6});
        fake_now = 1019;
        rec.end_steps();
        fake_now = 1024;
        rec.end_render();
        fake_now = 1033;  // wait of 9
        rec.begin_frame(fake_now);
        // A clamp at 17 (the raw frame time is 17 too: nothing lost).
        rec.loop({.clamped_ns = 17,
                  .consumed_ns = 17,
                  .acc_before_ns = 23,
                  .steps = 1,
                  .acc_after_ns = 3,
                  .alpha = 0.3});
        rec.add_times({.step_cost_ns = 2, .render_ns = 3, .wait_ns = 4});
        fake_now = 1050;
        rec.close();
        EXPECT_EQ(rec.recorded_frames(), 2);
        EXPECT_EQ(rec.dropped_frames(), 0);
        EXPECT_TRUE(rec.ok());
    }
    const auto lines = lines_of(test::read_text(path));
    ASSERT_GE(lines.size(), 4u);
    EXPECT_EQ(lines[0], "# loopscope-trace v2");
    EXPECT_EQ(lines[1], "# clock: fake");
    EXPECT_EQ(lines[2], "# policy: fixed-interp");
    EXPECT_EQ(lines[3], "# dt_ns: 10");
    const auto rows = rows_of(test::read_text(path));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0], "0,16,16,16,0,16,16,1,0,6,0.600000,3,5,9");
    EXPECT_EQ(rows[1], "1,33,17,17,0,17,23,1,0,3,0.300000,2,3,4");
    std::filesystem::remove_all(dir);
}

TEST(Recorder, FlushEveryNFramesLeavesAReadableTraceBeforeClose) {
    const std::string dir = test::make_temp_dir("recorder");
    const std::string path = dir + "/t.csv";
    RecorderOptions o = fake_options(path);
    o.capacity = 12;  // a ring of three blocks of four
    o.flush_every = 4;
    fake_now = 0;
    Recorder rec(o);
    for (int i = 0; i < 10; ++i) {
        fake_now += 16;
        rec.begin_frame();
    }
    // Nine frames are complete (the tenth is still open): two blocks of four are handed over,
    // and once the writer has written them they are on disk, as a crash would leave them.
    rec.wait_for_writer();
    const auto rows = rows_of(test::read_text(path));
    ASSERT_EQ(rows.size(), 8u);
    EXPECT_EQ(rows[7].substr(0, 6), "7,128,");
    rec.close();
    EXPECT_EQ(rows_of(test::read_text(path)).size(), 10u);
    std::filesystem::remove_all(dir);
}

TEST(Recorder, WithoutFlushingFramesBeyondTheBufferAreDroppedAndCounted) {
    const std::string dir = test::make_temp_dir("recorder");
    const std::string path = dir + "/t.csv";
    RecorderOptions o = fake_options(path);
    o.capacity = 5;
    o.flush_every = 0;
    fake_now = 0;
    {
        Recorder rec(o);
        for (int i = 0; i < 12; ++i) {
            fake_now += 16;
            rec.begin_frame();
        }
        EXPECT_EQ(rows_of(test::read_text(path)).size(), 0u);  // nothing written yet
        rec.close();
        EXPECT_EQ(rec.frames(), 12);
        EXPECT_EQ(rec.recorded_frames(), 5);
        EXPECT_EQ(rec.dropped_frames(), 7);
    }
    EXPECT_EQ(rows_of(test::read_text(path)).size(), 5u);
    std::filesystem::remove_all(dir);
}

TEST(Recorder, AnUnwritablePathIsReportedNotACrash) {
    RecorderOptions o = fake_options("/nonexistent-folder/x/t.csv");
    Recorder rec(o);
    rec.begin_frame();
    rec.begin_frame();
    rec.close();
    EXPECT_FALSE(rec.ok());
    EXPECT_EQ(rec.recorded_frames(), 0);
    EXPECT_EQ(rec.dropped_frames(), 2);  // both: the one still open at close() is lost too
}

TEST(Recorder, RowsAreTheSameTextAsTheTraceWriters) {
    const std::string dir = test::make_temp_dir("recorder");
    LoopConfig config;
    config.dt_ns = 10;
    LoopEngine engine(config);
    std::vector<FrameRecord> records;
    for (std::int64_t raw : {0, 16, 3, 40, 9, 300, 7})
        records.push_back(engine.advance(raw));
    records[3].step_cost_ns = 11;
    records[4].render_ns = 12;

    OutputFile out(dir + "/w.csv");
    TraceWriter writer(out, TraceInfo{"virtual", config, "", "", {}});
    for (const auto& r : records)
        writer.write(r);
    writer.finish();
    out.commit();

    fake_now = 0;
    {
        Recorder rec(fake_options(dir + "/r.csv"));
        for (const auto& r : records) {
            fake_now += r.raw_ns;
            rec.begin_frame();
            rec.loop(LoopFrame::of(r));
            rec.add_times(
                {.step_cost_ns = r.step_cost_ns, .render_ns = r.render_ns, .wait_ns = r.wait_ns});
        }
    }
    // The recorder's last frame measures its wait up to close(); the others are identical.
    auto written = rows_of(test::read_text(dir + "/w.csv"));
    auto recorded = rows_of(test::read_text(dir + "/r.csv"));
    ASSERT_EQ(written.size(), records.size());
    ASSERT_EQ(recorded.size(), records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
        EXPECT_EQ(written[i], recorded[i]) << i;
    std::filesystem::remove_all(dir);
}

// A clock that goes back 200 ns between two frames (and once inside a frame): no negative time
// is written, the time counts on from the latest reading, the trace ends by saying so, and the
// reader accepts it and reports it.
TEST(Recorder, AClockThatGoesBackIsRecordedAsZeroAndReported) {
    const std::string dir = test::make_temp_dir("recorder");
    const std::string path = dir + "/t.csv";
    fake_now = 1000;
    Recorder rec(fake_options(path));
    fake_now = 2000;
    rec.begin_frame();  // frame 0: 1000 ns
    fake_now = 1800;
    rec.begin_frame();  // frame 1: the clock went back 200 ns
    fake_now = 2500;
    rec.end_steps();  // 500 ns of steps, from the latest reading (2000)
    fake_now = 2400;
    rec.end_render();  // back 100 ns: no render time
    fake_now = 3000;
    rec.begin_frame();  // frame 2: 1000 ns after 2000
    fake_now = 3100;
    rec.close();
    EXPECT_EQ(rec.clock_backward_steps(), 2);
    EXPECT_EQ(rec.largest_clock_backward_ns(), 200);
    const std::vector<std::string> rows = rows_of(test::read_text(path));
    ASSERT_EQ(rows.size(), 3u);
    for (const std::string& row : rows)
        EXPECT_EQ(row.find('-'), std::string::npos) << row;
    const std::vector<std::string> lines = lines_of(test::read_text(path));
    EXPECT_EQ(lines.back(), "# clock_went_back: 2 times, by up to 200 ns, first at frame 1");

    const Capture c = read_capture(path);
    ASSERT_EQ(c.frames(), 3u);
    EXPECT_EQ(c.frame_ns[1], 0);
    EXPECT_EQ(c.loop[1].step_cost_ns, 500);
    EXPECT_EQ(c.loop[1].render_ns, 0);
    EXPECT_EQ(c.frame_ns[2], 1000);
    EXPECT_EQ(c.clock_origin_ns + c.start_ns[2], 2000);
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_NE(c.warnings[0].find("the game's clock went back while recording (2 times, by up to "
                                 "200 ns, first at frame 1)"),
              std::string::npos)
        << c.warnings[0];
    std::filesystem::remove_all(dir);
}

// The first reading that goes back is inside frame 2 (its end_steps): the trailer names frame 2,
// the frame that was open, not the next one.
TEST(Recorder, AClockGoingBackInsideAFrameNamesThatFrame) {
    const std::string dir = test::make_temp_dir("recorder");
    const std::string path = dir + "/t.csv";
    fake_now = 1000;
    {
        Recorder rec(fake_options(path));
        for (int i = 0; i < 3; ++i) {
            fake_now += 100;
            rec.begin_frame();
        }
        fake_now -= 30;
        rec.end_steps();
        EXPECT_EQ(rec.clock_backward_steps(), 1);
        fake_now += 100;
        rec.close();
    }
    const std::vector<std::string> lines = lines_of(test::read_text(path));
    EXPECT_EQ(lines.back(), "# clock_went_back: 1 times, by up to 30 ns, first at frame 2");
    std::filesystem::remove_all(dir);
}

// The game's own wait (add_times) is the row's wait_ns whatever the slot held a ring lap before,
// and two calls in one frame add up; frames without add_times measure their wait. A ring of two
// blocks of two rows goes round 25 times.
TEST(Recorder, TheGamesOwnWaitIsExactInSlotsUsedBefore) {
    const std::string dir = test::make_temp_dir("recorder");
    const std::string path = dir + "/t.csv";
    fake_now = 0;
    {
        RecorderOptions o = fake_options(path);
        o.capacity = 4;
        o.flush_every = 2;
        o.background_writer = false;  // every row is kept: the loop's thread writes each block
        Recorder rec(o);
        for (std::int64_t i = 0; i < 100; ++i) {
            fake_now += 1000;
            rec.begin_frame();
            fake_now += 10;
            if (i % 3 == 0) {
                rec.add_times({.wait_ns = i});
            } else if (i % 3 == 1) {
                rec.add_times({.wait_ns = i});
                rec.add_times({.wait_ns = 1});
            }  // i % 3 == 2: measured, from the begin (the mark) to the next begin_frame
        }
        fake_now += 1000;
        rec.close();
        EXPECT_EQ(rec.recorded_frames(), 100);
    }
    const std::vector<std::string> rows = rows_of(test::read_text(path));
    ASSERT_EQ(rows.size(), 100u);
    for (std::int64_t i = 0; i < 100; ++i) {
        const std::string wait = rows[static_cast<std::size_t>(i)].substr(
            rows[static_cast<std::size_t>(i)].rfind(',') + 1);
        const std::int64_t expected = i % 3 == 0 ? i : i % 3 == 1 ? i + 1 : 1010;
        EXPECT_EQ(wait, std::to_string(expected)) << "frame " << i;
    }
    std::filesystem::remove_all(dir);
}

// A frame without loop() gets the loop columns of LoopFrame{} (its time all simulated, no
// accumulator) when it ends, whatever the slot held the lap before, including where flush()
// moved the open frame out of its slot before loop() or before its end.
TEST(Recorder, AFrameWithoutLoopHasTheDefaultColumnsInSlotsUsedBefore) {
    std::vector<FrameRecord> got;
    fake_now = 0;
    {
        Recorder rec(collecting_options(got, 4, 2));
        for (std::int64_t i = 0; i < 100; ++i) {
            fake_now += 100 + i;
            rec.begin_frame();
            if (i % 7 == 5)
                rec.flush();  // before loop(): the open frame moves to the spare row
            if (i % 3 == 0) {
                rec.loop({.clamped_ns = 50,
                          .consumed_ns = 40,
                          .acc_before_ns = 30 + i,
                          .steps = 3,
                          .cap_dropped_ns = 20,
                          .acc_after_ns = 5,
                          .alpha = 0.5});
            }
            if (i % 5 == 4)
                rec.flush();  // after it
        }
        rec.close();
        EXPECT_EQ(rec.recorded_frames(), 100);
    }
    ASSERT_EQ(got.size(), 100u);
    for (std::int64_t i = 0; i < 100; ++i) {
        const FrameRecord& r = got[static_cast<std::size_t>(i)];
        SCOPED_TRACE("frame " + std::to_string(i));
        EXPECT_EQ(r.frame, i);
        EXPECT_EQ(r.raw_ns, 100 + i);
        // With loop(): what it was given; without: LoopFrame{}'s columns for this frame time.
        const LoopFrame want = i % 3 == 0 ? LoopFrame{50, 40, 30 + i, 3, 20, 5, 0.5}
                                          : LoopFrame{100 + i, 100 + i, 0, 0, 0, 0, 0.0};
        EXPECT_EQ(r.clamped_ns, want.clamped_ns);
        EXPECT_EQ(r.clamp_lost_ns, r.raw_ns - want.clamped_ns);
        EXPECT_EQ(r.consumed_ns, want.consumed_ns);
        EXPECT_EQ(r.acc_before_ns, want.acc_before_ns);
        EXPECT_EQ(r.steps, want.steps);
        EXPECT_EQ(r.cap_dropped_ns, want.cap_dropped_ns);
        EXPECT_EQ(r.acc_after_ns, want.acc_after_ns);
        EXPECT_EQ(r.alpha, want.alpha);
    }
}

// One scripted recording of 3000 frames, replayed with blocks of 4 to 1024 rows and with one
// block for everything (flush_every = 0). Blocks of 35 rows or more have frames in their middle
// that begin_frame() records on its short path (35: one a block); blocks of 4 and 34 have none.
// Every block size must give the same rows, and those rows must be what the script did: loop()
// now and then, phases, the game's own waits (once or twice a frame), flush() before and after
// loop(), and a clock that goes back at a frame's begin and inside a frame.
struct ScriptedFrame {
    std::int64_t raw_ns = 0, step_cost_ns = 0, render_ns = 0, wait_ns = 0;
    bool has_loop = false;
};

struct ScriptedRun {
    std::vector<FrameRecord> rows;
    std::vector<ScriptedFrame> expected;  // what the script did, frame by frame
    std::int64_t backward_steps = 0, expected_backward_steps = 0;
    std::int64_t recorded = 0, dropped = 0;
};

ScriptedRun run_script(std::size_t flush_every, bool background_writer) {
    constexpr std::int64_t kFrames = 3000;
    ScriptedRun run;
    RecorderOptions o = collecting_options(run.rows, 4096, flush_every);
    o.background_writer = background_writer;
    std::uint32_t state = 12345;  // the same script for every block size
    const auto next = [&] {
        state = state * 1664525u + 1013904223u;
        return state >> 8;
    };
    fake_now = 1'000'000;
    // The model: every reading is held to the latest one (mark); a frame's wait runs from the
    // mark to the next begin, unless the game gave its own.
    std::int64_t mark = fake_now, previous = fake_now;
    const auto held = [&](std::int64_t now) {
        if (now < mark) {
            ++run.expected_backward_steps;
            return mark;
        }
        return now;
    };
    bool explicit_wait = false;
    {
        Recorder rec(o);
        for (std::int64_t i = 0; i < kFrames; ++i) {
            fake_now += 1000 + next() % 500;
            if (i % 97 == 13)
                fake_now -= 2000;  // back past the last reading, at the begin
            const std::int64_t begin = held(fake_now);
            if (i > 0 && !explicit_wait)
                run.expected.back().wait_ns = begin - mark;
            explicit_wait = false;
            run.expected.push_back({.raw_ns = begin - previous});
            ScriptedFrame& f = run.expected.back();
            previous = mark = begin;
            rec.begin_frame();
            if (i % 211 == 100)
                rec.flush();  // before loop(): the open frame moves out of its slot
            const std::uint32_t pick = next();
            if (pick % 4 == 0) {
                rec.loop({.clamped_ns = 7, .consumed_ns = 6, .acc_before_ns = i, .steps = 2});
                f.has_loop = true;
            }
            if (pick % 5 == 0) {
                fake_now += 100;
                if (i % 89 == 7)
                    fake_now -= 300;  // back inside the frame
                const std::int64_t t = held(fake_now);
                f.step_cost_ns += t - mark;
                mark = t;
                rec.end_steps();
            }
            if (pick % 6 == 0) {
                fake_now += 200;
                const std::int64_t t = held(fake_now);
                f.render_ns += t - mark;
                mark = t;
                rec.end_render();
            }
            if (pick % 9 == 0) {
                rec.add_times({.step_cost_ns = 3, .wait_ns = 50});
                f.step_cost_ns += 3;
                f.wait_ns = 50;
                if (pick % 27 == 0) {
                    rec.add_times({.wait_ns = 5});
                    f.wait_ns += 5;
                }
                explicit_wait = true;
            }
            if (i % 307 == 200)
                rec.flush();  // after it
            if (background_writer)
                rec.wait_for_writer();  // paced: the test is about the rows, not drops
        }
        fake_now += 1000;
        const std::int64_t end = held(fake_now);
        if (!explicit_wait)
            run.expected.back().wait_ns = end - mark;
        rec.close();
        run.backward_steps = rec.clock_backward_steps();
        run.recorded = rec.recorded_frames();
        run.dropped = rec.dropped_frames();
    }
    return run;
}

TEST(Recorder, EveryBlockSizeRecordsTheSameRowsTheScriptMade) {
    for (const bool background : {false, true}) {
        const ScriptedRun reference = run_script(4, background);
        for (const std::size_t flush_every : {4, 34, 35, 64, 100, 1024, 0}) {
            if (flush_every == 0 && background)
                continue;  // no writer thread without streaming: the case above
            SCOPED_TRACE("flush_every " + std::to_string(flush_every) +
                         (background ? ", background writer" : ", loop's thread writes"));
            const ScriptedRun run =
                flush_every == 4 ? reference : run_script(flush_every, background);
            EXPECT_EQ(run.recorded, 3000);
            EXPECT_EQ(run.dropped, 0);
            EXPECT_EQ(run.backward_steps, run.expected_backward_steps);
            EXPECT_GT(run.backward_steps, 3000 / 97);  // every 97th begin, and more
            ASSERT_EQ(run.rows.size(), 3000u);
            ASSERT_EQ(run.expected.size(), 3000u);
            std::int64_t start = 0;
            for (std::size_t i = 0; i < run.rows.size(); ++i) {
                const FrameRecord& r = run.rows[i];
                const FrameRecord& ref = reference.rows[i];
                const ScriptedFrame& want = run.expected[i];
                SCOPED_TRACE("frame " + std::to_string(i));
                ASSERT_EQ(r.frame, static_cast<std::int64_t>(i));
                start += r.raw_ns;  // a frame starts at its begin_frame, raw_ns after the last
                EXPECT_EQ(r.start_ns, start);
                EXPECT_EQ(r.raw_ns, want.raw_ns);
                EXPECT_EQ(r.step_cost_ns, want.step_cost_ns);
                EXPECT_EQ(r.render_ns, want.render_ns);
                EXPECT_EQ(r.wait_ns, want.wait_ns);
                EXPECT_EQ(r.clamped_ns, want.has_loop ? 7 : r.raw_ns);
                EXPECT_EQ(r.consumed_ns, want.has_loop ? 6 : r.raw_ns);
                EXPECT_EQ(r.acc_before_ns, want.has_loop ? static_cast<std::int64_t>(i) : 0);
                EXPECT_EQ(r.steps, want.has_loop ? 2 : 0);
                // And field by field the same as with blocks of 4 rows.
                EXPECT_EQ(r.start_ns, ref.start_ns);
                EXPECT_EQ(r.clamp_lost_ns, ref.clamp_lost_ns);
                EXPECT_EQ(r.cap_dropped_ns, ref.cap_dropped_ns);
                EXPECT_EQ(r.acc_after_ns, ref.acc_after_ns);
                EXPECT_EQ(r.alpha, ref.alpha);
                EXPECT_EQ(r.wait_ns, ref.wait_ns);
                if (::testing::Test::HasFailure())
                    return;  // the first frame that differs says enough
            }
        }
    }
}

// loop() before the first begin_frame() describes no frame: the first frame, without a loop() of
// its own, still gets LoopFrame{}'s columns. Blocks of 64 rows, so that frames 2-31 of each take
// begin_frame()'s short path.
TEST(Recorder, ALoopBeforeTheFirstFrameIsForNoFrame) {
    std::vector<FrameRecord> got;
    fake_now = 0;
    {
        Recorder rec(collecting_options(got, 128, 64));
        rec.loop({.clamped_ns = 1, .consumed_ns = 2, .acc_before_ns = 3, .steps = 4});
        for (std::int64_t i = 0; i < 100; ++i) {
            fake_now += 10;
            rec.begin_frame();
            if (i % 2 == 1)
                rec.loop({.acc_before_ns = i, .steps = 1});
        }
        rec.close();
    }
    ASSERT_EQ(got.size(), 100u);
    for (std::int64_t i = 0; i < 100; ++i) {
        const FrameRecord& r = got[static_cast<std::size_t>(i)];
        SCOPED_TRACE("frame " + std::to_string(i));
        EXPECT_EQ(r.clamped_ns, 10);
        EXPECT_EQ(r.consumed_ns, 10);
        EXPECT_EQ(r.acc_before_ns, i % 2 == 1 ? i : 0);
        EXPECT_EQ(r.steps, i % 2 == 1 ? 1 : 0);
    }
}

// clamped_ns and consumed_ns left at kSameAsRaw: the raw time, or what an earlier loop() call
// in the same frame gave; consumed_ns given alone leaves clamped_ns at the raw time, and
// clamped_ns given alone is consumed too. Blocks of 64 rows, so that most frames begin on the
// short path and the rest on the long one.
TEST(Recorder, ALoopColumnLeftAtSameAsRawKeepsTheRawTimeOrAnEarlierCall) {
    std::vector<FrameRecord> got;
    fake_now = 0;
    {
        Recorder rec(collecting_options(got, 256, 64));
        for (std::int64_t i = 0; i < 200; ++i) {
            fake_now += 10 + i;
            rec.begin_frame();
            switch (i % 6) {
                case 0:
                    rec.loop({.steps = 1});
                    break;
                case 1:
                    rec.loop({.clamped_ns = 5, .steps = 1});
                    break;
                case 2:
                    rec.loop({.consumed_ns = 4, .steps = 1});
                    break;
                case 3:
                    rec.loop({.clamped_ns = 5, .consumed_ns = 4});
                    rec.loop({.steps = 2});
                    break;
                case 4:
                    rec.loop({.clamped_ns = 5});
                    rec.loop({.consumed_ns = 3, .steps = 2});
                    break;
                default:
                    break;  // no loop(): both columns hold the raw time
            }
        }
        rec.close();
    }
    ASSERT_EQ(got.size(), 200u);
    for (std::int64_t i = 0; i < 200; ++i) {
        const FrameRecord& r = got[static_cast<std::size_t>(i)];
        SCOPED_TRACE("frame " + std::to_string(i));
        const std::int64_t raw = 10 + i;
        ASSERT_EQ(r.raw_ns, raw);
        const std::int64_t want_clamped[6] = {raw, 5, raw, 5, 5, raw};
        const std::int64_t want_consumed[6] = {raw, 5, 4, 4, 3, raw};
        const std::int64_t want_steps[6] = {1, 1, 1, 2, 2, 0};
        EXPECT_EQ(r.clamped_ns, want_clamped[i % 6]);
        EXPECT_EQ(r.clamp_lost_ns, raw - want_clamped[i % 6]);
        EXPECT_EQ(r.consumed_ns, want_consumed[i % 6]);
        EXPECT_EQ(r.steps, want_steps[i % 6]);
    }
}

TEST(Recorder, ItsTraceReadsBackThroughTheCaptureReaders) {
    const std::string dir = test::make_temp_dir("recorder");
    const std::string path = dir + "/t.csv";
    fake_now = 0;
    {
        Recorder rec(fake_options(path));
        for (int i = 0; i < 6; ++i) {
            fake_now += 16 + i;
            rec.begin_frame();
            rec.loop(
                {.acc_before_ns = 10 + i, .steps = i % 2, .acc_after_ns = i, .alpha = i / 10.0});
        }
    }
    const Capture c = read_capture(path);
    EXPECT_EQ(c.source.format, "loopscope-trace");
    ASSERT_EQ(c.frames(), 6u);
    ASSERT_EQ(c.loop.size(), 6u);
    EXPECT_EQ(c.frame_ns[3], 19);
    EXPECT_EQ(c.loop[5].steps, 1);
    EXPECT_EQ(c.loop[5].acc_before_ns, 15);
    EXPECT_DOUBLE_EQ(c.loop[4].alpha, 0.4);
    EXPECT_EQ(c.metadata.at("policy"), "fixed-interp");
    std::filesystem::remove_all(dir);
}

// What a crash during a write leaves: the rows flushed before it, and maybe the start of one
// more row without its line break. The reader takes the whole rows and leaves that last piece
// out with a warning (or keeps it, with a note, when it parses whole); a malformed row anywhere
// else is still an error naming file:line:column.
class CutTrace : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = test::make_temp_dir("recorder-cut");
        whole_ = dir_ + "/whole.csv";
        fake_now = 0;
        Recorder rec(fake_options(whole_));
        for (int i = 0; i < 6; ++i) {
            fake_now += 16 + i;
            rec.begin_frame();
            rec.loop(
                {.acc_before_ns = 10 + i, .steps = i % 2, .acc_after_ns = i, .alpha = i / 10.0});
        }
        rec.close();
        text_ = test::read_text(whole_);
        rows_ = rows_of(text_);
        ASSERT_EQ(rows_.size(), 6u);
        last_row_line_ = static_cast<std::int64_t>(lines_of(text_).size());
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // The trace cut `chars` characters into its last row.
    std::string cut_in_last_row(std::size_t chars) {
        const std::string path = dir_ + "/cut" + std::to_string(chars) + ".csv";
        const std::size_t last_row_at = text_.size() - rows_.back().size() - 1;
        test::write_text(path, text_.substr(0, last_row_at + chars));
        return path;
    }

    std::string dir_, whole_, text_;
    std::vector<std::string> rows_;
    std::int64_t last_row_line_ = 0;
};

TEST_F(CutTrace, ALastRowCutMidWriteIsLeftOutWithAWarning) {
    // Cut after 1 character and mid-number: the piece does not parse as a row.
    for (std::size_t chars : {std::size_t{1}, std::size_t{9}}) {
        const std::string path = cut_in_last_row(chars);
        const Capture c = read_capture(path);
        ASSERT_EQ(c.frames(), 5u) << chars;
        EXPECT_EQ(c.loop[4].frame, 4);
        EXPECT_EQ(c.frame_ns[4], 20);
        ASSERT_EQ(c.warnings.size(), 1u) << chars;
        const std::string& w = c.warnings[0];
        EXPECT_EQ(w.rfind(path + ":" + std::to_string(last_row_line_) + ":", 0), 0u) << w;
        EXPECT_NE(w.find("expected 14 comma-separated columns"), std::string::npos) << w;
        EXPECT_NE(w.find("the row is left out"), std::string::npos) << w;
    }
    // The whole trace reads without a warning.
    const Capture whole = read_capture(whole_);
    EXPECT_EQ(whole.frames(), 6u);
    EXPECT_TRUE(whole.warnings.empty());
}

TEST_F(CutTrace, ALastRowThatParsesIsKeptWithANote) {
    // Only the line break missing (a file saved without a final one): the row parses, so it
    // is kept, with a note that its last number may be short (a cut inside a number of
    // several digits would look the same).
    for (std::size_t chars : {rows_.back().size()}) {
        const std::string path = cut_in_last_row(chars);
        const Capture c = read_capture(path);
        ASSERT_EQ(c.frames(), 6u) << chars;
        EXPECT_EQ(c.loop[5].frame, 5);
        ASSERT_EQ(c.warnings.size(), 1u) << chars;
        EXPECT_NE(c.warnings[0].find("the last row has no line break; it is kept"),
                  std::string::npos)
            << c.warnings[0];
    }
}

TEST_F(CutTrace, TheReportCommandReadsACutTraceAndSaysSo) {
    const std::string path = cut_in_last_row(12);
    // The terminal report shows the warning among its notes ...
    auto r = test::run_loopscope("report '" + path + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("the row is left out"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("capture frames 0-4\n"), std::string::npos) << r.out;
    // ... so does the JSON report, in "notes" ...
    r = test::run_loopscope("report '" + path + "' --format json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto notes = nlohmann::json::parse(r.out)["notes"];
    ASSERT_TRUE(notes.is_array()) << r.out;
    ASSERT_FALSE(notes.empty());
    EXPECT_NE(notes[0].get<std::string>().find("the row is left out"), std::string::npos);
    // ... and a CSV report, which has no notes, leaves it on standard error.
    r = test::run_loopscope("report '" + path + "' --format csv");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("loopscope: warning: " + path), std::string::npos) << r.err;
}

TEST_F(CutTrace, AMalformedRowBeforeTheLastIsStillAnError) {
    // A cut row followed by more rows is not a crash's trace: an error at its line and column.
    const std::string path = dir_ + "/middle.csv";
    const std::size_t last_row_at = text_.size() - rows_.back().size() - 1;
    const std::string cut_row = rows_[3].substr(0, 9);
    std::string text = text_.substr(0, last_row_at);
    text += cut_row + "\n" + rows_.back() + "\n";
    test::write_text(path, text);
    const std::int64_t cut_line = last_row_line_;  // the cut row took the last row's line
    try {
        read_capture(path);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.line(), cut_line) << e.what();
        EXPECT_EQ(e.column(), static_cast<std::int64_t>(cut_row.size()) + 1) << e.what();
        EXPECT_NE(std::string(e.what()).find("expected 14 comma-separated columns"),
                  std::string::npos)
            << e.what();
    }
    // The same cut row as the last line, but with its line break: also an error.
    const std::string ended = dir_ + "/ended.csv";
    test::write_text(ended, text_.substr(0, last_row_at) + cut_row + "\n");
    EXPECT_THROW(read_capture(ended), InputError);
}

TEST(TraceFormat, AlphaIsTruncatedToSixDecimalsAndNeverPrintsAsOne) {
    char buf[64];
    auto text = [&](double a) { return std::string(buf, trace_v1::put_alpha(buf, a)); };
    EXPECT_EQ(text(0.0), "0.000000");
    EXPECT_EQ(text(0.5), "0.500000");
    EXPECT_EQ(text(0.9999999999), "0.999999");
    EXPECT_EQ(text(0.1234567), "0.123456");
    EXPECT_EQ(text(2.25), "2.250000");
    char ibuf[32];
    EXPECT_EQ(std::string(ibuf, trace_v1::put_int(ibuf, INT64_MIN)), "-9223372036854775808");
    EXPECT_EQ(std::string(ibuf, trace_v1::put_int(ibuf, 0)), "0");
}

}  // namespace
}  // namespace loopscope
