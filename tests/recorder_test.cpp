// The drop-in recorder header with recording on: exact rows on a fake clock, flushing every N
// frames (what a crash leaves behind), dropped frames, and the same text as the trace writer.
#define LOOPSCOPE_RECORDER 1
#include "probes/loopscope_recorder.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "common/output_file.hpp"
#include "probes/loop_engine.hpp"
#include "probes/trace_writer.hpp"
#include "reports/capture.hpp"
#include "reports/readers.hpp"
#include "tests/test_support.hpp"

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

TEST(Recorder, WritesTheTraceFormatWithExactTimesFromTheClock) {
    const std::string dir = test::make_temp_dir("recorder");
    const std::string path = dir + "/t.csv";
    fake_now = 1000;
    {
        Recorder rec(fake_options(path));
        fake_now = 1016;
        rec.begin_frame();
        rec.loop(1, 16, 6, 0.6);
        fake_now = 1019;
        rec.end_steps();
        fake_now = 1024;
        rec.end_render();
        fake_now = 1033;  // wait of 9
        rec.begin_frame(fake_now);
        rec.loop(1, 23, 3, 0.3);
        rec.guards(17, 17, 0);  // pretend a clamp at 17
        rec.add_times(2, 3, 4);
        fake_now = 1050;
        rec.close();
        EXPECT_EQ(rec.recorded_frames(), 2);
        EXPECT_EQ(rec.dropped_frames(), 0);
        EXPECT_TRUE(rec.ok());
    }
    const auto lines = lines_of(test::read_text(path));
    ASSERT_GE(lines.size(), 4u);
    EXPECT_EQ(lines[0], "# loopscope-trace v1");
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
    o.capacity = 8;
    o.flush_every = 4;
    fake_now = 0;
    Recorder rec(o);
    for (int i = 0; i < 10; ++i) {
        fake_now += 16;
        rec.begin_frame();
    }
    // Nine frames are complete (the tenth is still open): two flushes of four are on disk,
    // as a crash at this point would leave them.
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
    EXPECT_EQ(rec.dropped_frames(), 1);
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
            rec.loop(r.steps, r.acc_before_ns, r.acc_after_ns, r.alpha);
            rec.guards(r.clamped_ns, r.consumed_ns, r.cap_dropped_ns);
            rec.add_times(r.step_cost_ns, r.render_ns, r.wait_ns);
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

TEST(Recorder, ItsTraceReadsBackThroughTheCaptureReaders) {
    const std::string dir = test::make_temp_dir("recorder");
    const std::string path = dir + "/t.csv";
    fake_now = 0;
    {
        Recorder rec(fake_options(path));
        for (int i = 0; i < 6; ++i) {
            fake_now += 16 + i;
            rec.begin_frame();
            rec.loop(i % 2, 10 + i, i, i / 10.0);
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
