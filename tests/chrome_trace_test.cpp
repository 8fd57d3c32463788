// The Chrome trace as trace viewers expect it: each frame a slice over [frame start, frame end],
// slices on a track nested or disjoint (never partially overlapping), one slice per analysed
// frame, and hitches on the long frame itself, for a loopscope trace, PresentMon captures with
// hitches and a frame-generation capture.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"
#include "writers/writer.hpp"

namespace loopscope {
namespace {

struct Slice {
    std::string name;
    std::int64_t begin_ns = 0, end_ns = 0;  // back from the microseconds the trace states
    std::int64_t frame = 0;
    double frame_time_ms = 0;
};

struct ChromeTrace {
    std::map<std::pair<int, int>, std::vector<Slice>> tracks;  // (pid, tid) -> slices by time
};

std::int64_t us_to_ns(const nlohmann::json& v) {
    return std::llround(v.get<double>() * 1000.0);
}

ChromeTrace chrome_trace_of(const Report& report) {
    const std::string dir = test::make_temp_dir("loopscope-chrome");
    const std::string path = dir + "/trace.json";
    {
        OutputFile out(path);
        make_writer("chrome", {})->write(report, out);
        out.commit();
    }
    const auto j = nlohmann::json::parse(test::read_text(path));
    std::filesystem::remove_all(dir);
    ChromeTrace t;
    for (const auto& e : j.at("traceEvents")) {
        if (e.at("ph") != "X")
            continue;
        Slice s;
        s.name = e.at("name").get<std::string>();
        s.begin_ns = us_to_ns(e.at("ts"));
        s.end_ns = s.begin_ns + us_to_ns(e.at("dur"));
        s.frame = e.at("args").at("frame").get<std::int64_t>();
        s.frame_time_ms = e.at("args").at("frame_time_ms").get<double>();
        t.tracks[{e.at("pid").get<int>(), e.at("tid").get<int>()}].push_back(s);
    }
    for (auto& [track, slices] : t.tracks) {
        std::stable_sort(slices.begin(), slices.end(),
                         [](const Slice& a, const Slice& b) { return a.begin_ns < b.begin_ns; });
    }
    return t;
}

// Slices that begin inside another and end after it, on any track: what viewers cannot draw.
std::size_t partial_overlaps(const ChromeTrace& t) {
    std::size_t bad = 0;
    for (const auto& [track, slices] : t.tracks) {
        std::vector<std::int64_t> open_ends;  // ends of the slices enclosing the current one
        for (const Slice& s : slices) {
            while (!open_ends.empty() && open_ends.back() <= s.begin_ns)
                open_ends.pop_back();
            if (!open_ends.empty() && s.end_ns > open_ends.back())
                ++bad;
            open_ends.push_back(s.end_ns);
        }
    }
    return bad;
}

struct Checked {
    Capture capture;
    CaptureReport report;
    ChromeTrace trace;
};

// Reads, analyses and writes a capture, and checks what holds for every input.
void check_trace(const std::string& path, Checked& c) {
    c.capture = read_capture(path);
    c.report = analyse_capture(c.capture, {});
    Report r;
    r.captures.push_back(c.report);
    c.trace = chrome_trace_of(r);
    ASSERT_EQ(c.trace.tracks.size(), 1u) << path;
    const std::vector<Slice>& slices = c.trace.tracks.begin()->second;
    EXPECT_EQ(slices.size(), c.report.series.frame_ns.size()) << path;
    EXPECT_EQ(partial_overlaps(c.trace), 0u) << path;
    std::size_t hitches = 0;
    for (std::size_t i = 0; i < slices.size(); ++i) {
        hitches += slices[i].name == "hitch" ? 1 : 0;
        // A slice lasts its frame's time, to the microsecond its ends are rounded to.
        const double length_ms = static_cast<double>(slices[i].end_ns - slices[i].begin_ns) / 1e6;
        EXPECT_NEAR(length_ms, slices[i].frame_time_ms, 0.00105) << path << " slice " << i;
        if (i > 0) {
            EXPECT_GE(slices[i].begin_ns, slices[i - 1].end_ns) << path << " slice " << i;
        }
    }
    EXPECT_EQ(hitches, c.report.stats.hitches.hitches.size()) << path;
}

const Slice* slice_of_frame(const Checked& c, std::int64_t frame) {
    for (const Slice& s : c.trace.tracks.begin()->second) {
        if (s.frame == frame)
            return &s;
    }
    return nullptr;
}

TEST(ChromeTrace, ALoopscopeHitchIsTheLongFrameFromItsStart) {
    // Frame 120 of the scenario renders 200 ms longer; frame 121's start measures it.
    const std::string dir = test::make_temp_dir("loopscope-chrome-run");
    const std::string trace = dir + "/hitch.trace";
    const auto run =
        test::run_loopscope("run --scenario hitch-200ms --clock virtual -o '" + trace + "'");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    Checked c;
    check_trace(trace, c);
    std::filesystem::remove_all(dir);
    ASSERT_EQ(c.report.stats.hitches.hitches.size(), 1u);
    const Slice* hitch = slice_of_frame(c, 120);
    ASSERT_NE(hitch, nullptr);
    EXPECT_EQ(hitch->name, "hitch");
    const std::int64_t origin = c.capture.loop.front().start_ns;
    // Times are whole microseconds, rounded to the nearest.
    EXPECT_LE(std::abs(hitch->begin_ns - (c.capture.loop[120].start_ns - origin)), 500);
    EXPECT_LE(std::abs(hitch->end_ns - (c.capture.loop[121].start_ns - origin)), 500);
    EXPECT_GT(c.capture.loop[120].render_ns, 200'000'000);
    // The last row's frame has no later row to measure it: frames 0 .. 298 of 300 rows.
    EXPECT_EQ(c.trace.tracks.begin()->second.front().frame, 0);
    EXPECT_EQ(c.trace.tracks.begin()->second.back().frame, 298);
}

TEST(ChromeTrace, TheTestDataTraceHasNoPartialOverlap) {
    Checked c;
    check_trace(test::test_data("loopscope.trace"), c);
}

TEST(ChromeTrace, AFrameGenerationCaptureHasNoPartialOverlap) {
    Checked c;
    check_trace(test::test_data("presentmon24_framegen.csv"), c);
    EXPECT_FALSE(c.report.stats.hitches.hitches.empty());
}

// A present's frame time is the time since the previous present: the hitch slice is that frame,
// it begins where the frame before it ended, and the slices keep to the file's clock: laid end
// to end, each ends within 0.1 ms of its present where the file gives present times (measured:
// at most 0.027 ms, on the CapFrameX CSV, whose rounded frame times drift from its times).
TEST(ChromeTrace, PresentMonHitchesAreTheLongFrames) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const char* name :
         {"IPMAuxTestData_F01TimeSpyDemoFS2080_gold.csv", "IPMAuxTestData_test_case_9_v1.csv",
          "ocat_metro_exodus.csv", "frameview_police2.csv", "capframex_legacy_re2.csv"}) {
        Checked c;
        check_trace(test::capture(name), c);
        const std::vector<Slice>& slices = c.trace.tracks.begin()->second;
        // Slices are on the report's time axis: t = 0 at the first row's time stamp.
        const std::int64_t origin = 0;
        std::int64_t drift_ns = 0;  // the farthest a slice's end is from its present
        for (std::size_t i = 0; c.capture.start_ends_frame_time && i < slices.size(); ++i) {
            const auto frame = static_cast<std::size_t>(slices[i].frame);
            const std::int64_t present_ns = c.capture.start_ns[frame] - origin;
            drift_ns = std::max(drift_ns, std::abs(slices[i].end_ns - present_ns));
        }
        EXPECT_LE(drift_ns, 100'000) << name;
        for (const Hitch& h : c.report.stats.hitches.hitches) {
            const Slice& s = slices[h.index];
            EXPECT_EQ(s.frame, c.report.series.frame_number[h.index]) << name;
            EXPECT_EQ(s.name, "hitch") << name;
            EXPECT_NEAR(s.frame_time_ms, static_cast<double>(h.frame_ns) / 1e6, 0.00005) << name;
            if (h.index > 0) {
                EXPECT_EQ(s.begin_ns, slices[h.index - 1].end_ns) << name;
            }
        }
    }
}

TEST(ChromeTrace, EverySharedCaptureHasNoPartialOverlap) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const auto& entry : std::filesystem::directory_iterator(test::captures_dir())) {
        if (entry.path().extension() != ".csv")
            continue;
        // A sampled log's trace is a counter at its samples' times, no slices:
        // tests/sampled_logs_test.cpp.
        if (!read_capture(entry.path().string()).per_frame)
            continue;
        Checked c;
        check_trace(entry.path().string(), c);
    }
}

}  // namespace
}  // namespace loopscope
