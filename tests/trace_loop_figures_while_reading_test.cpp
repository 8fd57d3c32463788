// A report over a whole loopscope trace computes the loop figures while reading the trace
// (ReadOptions::loop_figures_only) instead of keeping every frame's loop record, and its series
// views the capture's arrays instead of copying them. These tests check that the reports are
// byte for byte the ones the kept records give, in every format that goes that way, on the trace
// of tests/data, on one that states no loop configuration, and on a trace of every built-in
// scenario (guards that engage on every frame, spirals, saturation); and that what cannot be
// computed that way is not.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/output_file.hpp"
#include "core/analysis.hpp"
#include "core/loop_scenarios.hpp"
#include "readers/readers.hpp"
#include "test_support.hpp"
#include "writers/frame_spans.hpp"
#include "writers/trace_writer.hpp"
#include "writers/writer.hpp"

namespace loopscope {
namespace {

using test::make_temp_dir;
using test::read_text;
using test::test_data;
using test::write_text;

// The report of `path` in `format`, its loop columns read as records or as figures only.
std::string report_text(const std::string& path, const std::string& format, bool figures_only,
                        const std::string& dir) {
    ReadOptions read;
    read.loop_figures_only = figures_only;
    const Capture capture = read_capture(path, read);
    Report report;
    report.captures.push_back(analyse_capture(capture, {}));
    const std::string out_path = dir + "/report." + format;
    OutputFile out(out_path);
    make_writer(format, {})->write(report, out);
    out.commit();
    return read_text(out_path);
}

void expect_same_reports(const std::string& path, const std::string& dir) {
    for (const std::string format : {"terminal", "json", "md"}) {
        ASSERT_FALSE(writer_needs_loop_records(format)) << format;
        const std::string kept = report_text(path, format, false, dir);
        const std::string streamed = report_text(path, format, true, dir);
        EXPECT_FALSE(kept.empty()) << path << " " << format;
        EXPECT_EQ(streamed, kept) << path << " " << format;
    }
}

// A trace of a built-in scenario, as `run --clock virtual --scenario NAME -o` writes it.
std::string write_scenario_trace(const Scenario& s, const std::string& dir) {
    const std::string path = dir + "/" + s.name + ".trace";
    OutputFile out(path);
    TraceInfo info;
    info.clock = "virtual";
    info.config = s.config;
    {
        TraceWriter writer(out, info);
        run_virtual(s.model, s.config, s.frames, [&](const FrameRecord& r) { writer.write(r); });
        writer.finish();
    }
    out.commit();
    return path;
}

TEST(TraceLoopFiguresWhileReading, ReportsOfTheTestTraceEqualThoseOfTheKeptRecords) {
    const std::string dir = make_temp_dir("loopscope-streamed-figures");
    expect_same_reports(test_data("loopscope.trace"), dir);
    // Without a configuration the figures come from the recorded columns alone, which are known
    // to have an accumulator only once some record says so.
    expect_same_reports(test::write_unconfigured_trace(dir), dir);
}

TEST(TraceLoopFiguresWhileReading, ReportsOfEveryScenarioEqualThoseOfTheKeptRecords) {
    const std::string dir = make_temp_dir("loopscope-streamed-figures");
    std::vector<Scenario> scenarios = builtin_scenarios();
    // A loop the step cap holds engages it on every frame from the onset on: past the list.
    const Scenario* spiral = find_scenario("spiral-cap");
    ASSERT_NE(spiral, nullptr);
    scenarios.push_back(*spiral);
    scenarios.back().name += "-long";
    scenarios.back().frames = 5000;
    bool some_engaged_often = false;
    for (const Scenario& s : scenarios) {
        const std::string path = write_scenario_trace(s, dir);
        expect_same_reports(path, dir);
        ReadOptions read;
        read.loop_figures_only = true;
        const Capture c = read_capture(path, read);
        ASSERT_TRUE(c.loop_figures) << s.name;
        EXPECT_TRUE(c.loop.empty()) << s.name;
        some_engaged_often = some_engaged_often ||
                             c.loop_figures->engagement_frames > std::int64_t{kListedEngagements};
        // The list stops, the count does not.
        EXPECT_LE(c.loop_figures->engagements.size(), kListedEngagements) << s.name;
    }
    EXPECT_TRUE(some_engaged_often) << "no scenario's guards engage more often than the list "
                                       "holds: the limit is not exercised";
}

TEST(TraceLoopFiguresWhileReading, ALoopKeyAfterTheRowsIsReadWithTheRecords) {
    // The figures computed while reading follow the configuration stated before the rows; a
    // loop key after them (which no writer puts there) changes it, so the trace is read again
    // with its records and the report is the one they give.
    const std::string dir = make_temp_dir("loopscope-streamed-figures");
    const std::string path = dir + "/late_key.trace";
    write_text(path, read_text(test_data("loopscope.trace")) + "# max_steps: 1\n");
    ReadOptions read;
    read.loop_figures_only = true;
    const Capture c = read_capture(path, read);
    EXPECT_FALSE(c.loop.empty());
    EXPECT_FALSE(c.loop_figures);
    expect_same_reports(path, dir);
}

TEST(TraceLoopFiguresWhileReading, ARangeNeedsTheRecords) {
    ReadOptions read;
    read.loop_figures_only = true;
    const Capture c = read_capture(test_data("loopscope.trace"), read);
    AnalysisOptions range;
    range.from = RangeBound{RangeBound::Kind::frame, 5};
    EXPECT_THROW(analyse_capture(c, range), std::logic_error);
    EXPECT_NO_THROW(analyse_capture(c, {}));
}

TEST(TraceLoopFiguresWhileReading, TheSeriesViewsTheCaptureWhenItsFramesAreARun) {
    const Capture c = read_capture(test_data("loopscope.trace"));
    const CaptureReport r = analyse_capture(c, {});
    // Frame 0 of a trace is no frame time: the series is frames 1.. of the capture, not a copy.
    ASSERT_EQ(r.series.frame_ns.size(), c.frames() - 1);
    EXPECT_EQ(r.series.frame_ns.data(), c.frame_ns.data() + 1);
    EXPECT_EQ(r.series.start_ns.data(), c.start_ns.data() + 1);
    EXPECT_EQ(r.series.frame_number.front(), 1);
    EXPECT_EQ(r.series.frame_number.back(), static_cast<std::int64_t>(c.frames() - 1));
    EXPECT_FALSE(r.series.copies);
    // A copy of the report views the same frames.
    const CaptureReport copy = r;
    EXPECT_EQ(copy.series.frame_ns.data(), r.series.frame_ns.data());
}

TEST(TraceLoopFiguresWhileReading, TheDisplayTimelineKeepsItsOwnCopyAcrossReportCopies) {
    const Capture c = read_capture(test_data("presentmon1.csv"));
    AnalysisOptions display;
    display.timeline = Timeline::display;
    std::vector<CaptureReport> reports;
    {
        const CaptureReport r = analyse_capture(c, display);
        ASSERT_GT(r.dropped_in_range, 0u) << "the test capture should drop frames";
        ASSERT_TRUE(r.series.copies);
        reports.push_back(r);
    }
    // The original is gone; the copy's views still hold the displayed frames, in order.
    const Series& s = reports.front().series;
    ASSERT_EQ(s.frame_ns.size(), s.frame_number.size());
    std::size_t at = 0;
    // Every row is analysed, the stream's last present too (PresentMon 1.x writes it).
    for (std::size_t i = 0; i < c.frames(); ++i) {
        if (c.display_ns[i] < 0)
            continue;
        ASSERT_LT(at, s.frame_ns.size());
        EXPECT_EQ(s.frame_number[at], static_cast<std::int64_t>(i));
        EXPECT_EQ(s.frame_ns[at], c.display_ns[i]);
        EXPECT_EQ(s.start_ns[at], c.start_ns[i]);
        ++at;
    }
    EXPECT_EQ(at, s.frame_ns.size());
}

TEST(TraceLoopFiguresWhileReading, HitchSpansAreTheSpansOfAllFramesPickedOut) {
    // The hitch lists lay out only the frames they name; the spans must be those of the whole
    // layout, also after frames left out of the series (the display timeline's dropped ones).
    const Capture pm = read_capture(test_data("presentmon1.csv"));
    const Capture trace = read_capture(test_data("loopscope.trace"));
    AnalysisOptions display;
    display.timeline = Timeline::display;
    for (const CaptureReport& r :
         {analyse_capture(pm, {}), analyse_capture(pm, display), analyse_capture(trace, {})}) {
        const std::vector<FrameSpan> all = laid_out_frame_spans(r);
        ASSERT_EQ(all.size(), r.series.frame_ns.size());
        // Out of order and repeated, as a list sorted by length may name them.
        std::vector<std::size_t> at;
        for (std::size_t i = all.size(); i-- > 0;) {
            at.push_back(i);
            if (i % 3 == 0)
                at.push_back(i);
        }
        const std::vector<FrameSpan> picked = laid_out_frame_spans_at(r, at);
        ASSERT_EQ(picked.size(), at.size());
        for (std::size_t k = 0; k < at.size(); ++k) {
            EXPECT_EQ(picked[k].frame, all[at[k]].frame);
            EXPECT_EQ(picked[k].begin_ns, all[at[k]].begin_ns);
            EXPECT_EQ(picked[k].end_ns, all[at[k]].end_ns);
        }
        EXPECT_TRUE(laid_out_frame_spans_at(r, {}).empty());
    }
}

}  // namespace
}  // namespace loopscope
