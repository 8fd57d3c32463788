// loopscope::FixedStep, the recorder header's loop helper, against loopscope's loop engine: the
// same clamp, timescale, accumulator and step cap, column for column over many frame times and
// knobs; and what it records is the row the engine would have written.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/loop_engine.hpp"
#include "recorder/trace_text.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

void expect_same(const LoopFrame& f, const FrameRecord& r, const std::string& where) {
    EXPECT_EQ(f.clamped_ns, r.clamped_ns) << where;
    EXPECT_EQ(f.consumed_ns, r.consumed_ns) << where;
    EXPECT_EQ(f.acc_before_ns, r.acc_before_ns) << where;
    EXPECT_EQ(f.steps, r.steps) << where;
    EXPECT_EQ(f.cap_dropped_ns, r.cap_dropped_ns) << where;
    EXPECT_EQ(f.acc_after_ns, r.acc_after_ns) << where;
    EXPECT_EQ(f.alpha, r.alpha) << where;  // the same division: bit-identical
}

TEST(FixedStep, AdvancesExactlyAsTheLoopEngineDoes) {
    std::mt19937_64 random(11);
    // Timescales whose products land on .5 exactly (llround rounds those up) and ones that do
    // not; clamps, caps and dt of several sizes; frame times from 0 to far beyond the clamp.
    const double timescales[] = {1.0, 0.5, 0.25, 1.5, 2.0, 0.3, 0.1, 3.7, 0.0};
    const std::int64_t dts[] = {10, 7, 16'666'667, 1'000'000};
    const std::int64_t clamps[] = {0, 25, 250'000'000};
    const std::int64_t caps[] = {0, 1, 3};
    int checked = 0;
    for (const double timescale : timescales) {
        for (const std::int64_t dt : dts) {
            for (const std::int64_t clamp : clamps) {
                for (const std::int64_t cap : caps) {
                    LoopConfig config;
                    config.dt_ns = dt;
                    config.clamp_ns = clamp;
                    config.max_steps = cap;
                    config.timescale = timescale;
                    LoopEngine engine(config);
                    FixedStep fixed(
                        {.dt_ns = dt, .clamp_ns = clamp, .max_steps = cap, .timescale = timescale});
                    std::uniform_int_distribution<std::int64_t> frame(0, 4 * dt + 2 * clamp + 9);
                    for (int i = 0; i < 300; ++i) {
                        const std::int64_t raw = i % 50 == 7 ? 5 * dt + 3 : frame(random);
                        const FrameRecord r = engine.advance(raw);
                        const LoopFrame f = fixed.advance_by(raw);
                        expect_same(f, r,
                                    "dt " + std::to_string(dt) + " clamp " + std::to_string(clamp) +
                                        " cap " + std::to_string(cap) + " timescale " +
                                        std::to_string(timescale) + " frame " + std::to_string(i) +
                                        " raw " + std::to_string(raw));
                        ++checked;
                    }
                    EXPECT_EQ(fixed.accumulator_ns(), engine.accumulator_ns());
                }
            }
        }
    }
    EXPECT_EQ(checked, 9 * 4 * 3 * 3 * 300);
}

TEST(FixedStep, RoundsTheScaledTimeHalfAwayFromZeroAsLlround) {
    // 5 x 0.5 = 2.5 -> 3 and 3 x 0.5 = 1.5 -> 2 (llround), not to even (2 and 2).
    FixedStep fixed({.dt_ns = 100, .clamp_ns = 0, .timescale = 0.5});
    EXPECT_EQ(fixed.advance_by(5).consumed_ns, 3);
    EXPECT_EQ(fixed.advance_by(3).consumed_ns, 2);
    EXPECT_EQ(fixed.advance_by(1).consumed_ns, 1);  // 0.5 -> 1
    EXPECT_EQ(fixed.advance_by(0).consumed_ns, 0);
}

TEST(FixedStep, KnobsOutOfRangeFallBackToTheDefaultsOrOff) {
    FixedStep fixed({.dt_ns = 0, .clamp_ns = -5, .max_steps = -1, .timescale = -2.0});
    EXPECT_EQ(fixed.dt_ns(), FixedStepConfig{}.dt_ns);
    EXPECT_EQ(fixed.config().clamp_ns, 0);
    EXPECT_EQ(fixed.config().max_steps, 0);
    EXPECT_EQ(fixed.config().timescale, 1.0);
}

std::int64_t fake_now = 0;
std::int64_t fake_clock() {
    return fake_now;
}

// The row's columns frame .. alpha (the loop's), without the phase times.
std::string loop_columns(const FrameRecord& r) {
    char text[trace_v1::kMaxRowChars];
    std::string row(text, trace_v1::format_row(text, r));
    std::size_t comma = 0;
    for (int i = 0; i < 11; ++i)
        comma = row.find(',', comma + 1);
    return row.substr(0, comma);
}

TEST(FixedStep, RecordsEachFrameAsTheEngineWouldHaveWrittenIt) {
    const std::string dir = test::make_temp_dir("fixed-step");
    const std::string path = dir + "/t.csv";
    const FixedStepConfig knobs{.dt_ns = 10, .clamp_ns = 40, .max_steps = 2, .timescale = 1.5};
    LoopConfig config;
    config.dt_ns = knobs.dt_ns;
    config.clamp_ns = knobs.clamp_ns;
    config.max_steps = knobs.max_steps;
    config.timescale = knobs.timescale;
    LoopEngine engine(config);
    std::vector<FrameRecord> expected;
    const std::int64_t frame_times[] = {3, 16, 7, 100, 9, 11, 0, 45};
    fake_now = 500;
    {
        RecorderOptions o{.path = path, .clock_ns = &fake_clock, .write_start_time = false};
        o.describe_loop(knobs, "fixed");
        Recorder rec(o);  // starts at 500
        FixedStep fixed(knobs, rec);
        for (const std::int64_t raw : frame_times) {
            fake_now += raw;
            const LoopFrame f = fixed.advance();  // reads the recorder's clock
            // The clock starts at the first advance(): frame 0 feeds nothing to the loop. Its
            // row still measures the time since the recorder started, with consumed_ns 0.
            const bool first = expected.empty();
            expected.push_back(engine.advance(first ? 0 : raw));
            expect_same(f, expected.back(), "raw " + std::to_string(raw));
        }
        expected[0].raw_ns = expected[0].clamped_ns = frame_times[0];
        // A clock reading earlier than the latest: a frame time of 0 for both.
        const LoopFrame back = fixed.advance(fake_now - 4);
        expected.push_back(engine.advance(0));
        expect_same(back, expected.back(), "clock went back");
        rec.close(fake_now);
        EXPECT_EQ(rec.recorded_frames(), static_cast<std::int64_t>(expected.size()));
        EXPECT_EQ(rec.clock_backward_steps(), 1);
    }
    const std::string text = test::read_text(path);
    EXPECT_NE(text.find("# policy: fixed\n# dt_ns: 10\n# clamp_ns: 40\n# max_steps: 2\n"
                        "# timescale: 1.5\n"),
              std::string::npos)
        << text;
    const auto rows = test::trace_data_rows(text);
    ASSERT_EQ(rows.size(), expected.size());
    for (FrameRecord& r : expected)
        r.start_ns += frame_times[0];  // the recorder counts from its start, 3 ns before
    for (std::size_t i = 0; i < rows.size(); ++i)
        EXPECT_EQ(rows[i].substr(0, loop_columns(expected[i]).size()), loop_columns(expected[i]))
            << i;
    std::filesystem::remove_all(dir);
}

// A game that loads between constructing the recorder and its first frame: FixedStep's clock
// starts at the first advance(), so the load reaches neither the accumulator nor the steps,
// recording on as off; the trace's frame 0 shows the load as measured, consumed_ns 0, and the
// loop figures raise no first-frame finding.
TEST(FixedStep, TheClockStartsAtTheFirstAdvanceNotAtConstruction) {
    const std::string dir = test::make_temp_dir("fixed-step-start");
    const std::string path = dir + "/t.csv";
    const FixedStepConfig knobs{.dt_ns = 16'666'667, .clamp_ns = 250'000'000};
    fake_now = 1'000'000'000;
    {
        RecorderOptions o{.path = path, .clock_ns = &fake_clock, .write_start_time = false};
        Recorder rec(o);
        FixedStep fixed(knobs, rec);
        fake_now += 1'840'000'000;  // loading
        const LoopFrame first = fixed.advance();
        EXPECT_EQ(first.steps, 0);
        EXPECT_EQ(first.consumed_ns, 0);
        EXPECT_EQ(fixed.accumulator_ns(), 0);
        fake_now += 16'666'667;
        EXPECT_EQ(fixed.advance().steps, 1);
        rec.close(fake_now);
    }
    const auto cells = test::trace_cells(test::read_text(path));
    ASSERT_EQ(cells.size(), 2u);
    EXPECT_EQ(cells[0][2], "1840000000");  // raw_ns: the load, measured
    EXPECT_EQ(cells[0][3], "1840000000");  // clamped_ns: the clamp never saw it
    EXPECT_EQ(cells[0][4], "0");           // clamp_lost_ns
    EXPECT_EQ(cells[0][5], "0");           // consumed_ns: none of it fed
    EXPECT_EQ(cells[0][7], "0");           // steps
    // Without a recorder the same.
    detail::BasicFixedStep<Recorder> alone(knobs);
    EXPECT_EQ(alone.advance(5'000'000'000).steps, 0);
    EXPECT_EQ(alone.advance(5'016'666'667).steps, 1);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
