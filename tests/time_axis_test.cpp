// One time axis: every time a report gives (hitch lists, Chrome trace, HTML, CSV) or takes
// (--from / --to) is seconds since the time stamp of the stream's first row, so a hitch's time
// typed back as --from / --to selects that hitch, on real captures of every layout.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/segments.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"
#include "writers/frame_spans.hpp"

using namespace loopscope;

namespace {

// Real captures of several layouts: PresentMon 1.x (present times), 2.4+ (CPU start in ms),
// OCAT, CapFrameX CSV, FrameView (whose clock counts from long before the capture).
const std::vector<std::string> kCaptures = {
    "IPMAuxTestData_test_case_9_v1.csv",
    "IPMAuxTestData_F01TimeSpyDemoFS2080_gold.csv",
    "IPMAuxTestData_test_case_8.csv",
    "ocat_metro_exodus.csv",
    "capframex_legacy_re2.csv",
    "frameview_police2.csv",
    "frameview_set/fv0066_cyberpunk-no-rt_30fps-xess-quality.csv",
    "frameview_set/fv0441_remnant-ii_unlimited-fsr-fg-performance.csv"};

RangeBound time_bound(std::int64_t ns) {
    return {RangeBound::Kind::time, ns};
}

}  // namespace

// The reader takes the first row's time stamp off every start: t = 0 there, and the capture's
// own clock kept once.
TEST(TimeAxis, StartsAtTheFirstRowAndKeepsTheCapturesClock) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    bool some_clock_far_from_zero = false;
    for (const std::string& name : kCaptures) {
        SCOPED_TRACE(name);
        const Capture c = read_capture(test::capture(name));
        ASSERT_FALSE(c.start_ns.empty());
        EXPECT_EQ(c.start_ns.front(), 0);
        some_clock_far_from_zero |= c.clock_origin_ns > 10'000'000'000;
    }
    EXPECT_TRUE(some_clock_far_from_zero);  // FrameView's clock: hundreds of seconds
}

// Every hitch's time, as the hitch lists give it, used as --from and --to (to its end) selects
// that very frame first; rounded down to the millisecond (as the text reports print it) it
// still does.
TEST(TimeAxis, AHitchsTimeAsFromAndToSelectsThatHitch) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    std::size_t checked = 0;
    for (const std::string& name : kCaptures) {
        SCOPED_TRACE(name);
        const Capture c = read_capture(test::capture(name));
        const CaptureReport r = analyse_capture(c, {});
        std::vector<std::size_t> at;
        for (const Hitch& h : r.stats.hitches.hitches)
            at.push_back(h.index);
        const std::vector<FrameSpan> spans = frame_spans_at(r, at);
        for (std::size_t k = 0; k < at.size() && k < 8; ++k) {
            const std::int64_t row = r.series.frame_number[at[k]];
            const std::int64_t begin = spans[k].begin_ns;
            const std::int64_t end = spans[k].end_ns;
            AnalysisOptions o;
            o.from = time_bound(begin);
            o.to = time_bound(end);
            const CaptureReport one = analyse_capture(c, o);
            EXPECT_EQ(static_cast<std::int64_t>(one.range.begin), row) << "hitch " << k;
            EXPECT_EQ(one.series.frame_number.front(), row) << "hitch " << k;
            // As printed: rounded down to the millisecond, and a window of 2 s around it.
            const auto printed_ns =
                static_cast<std::int64_t>(std::llround(seconds_down_to_ms(begin) * 1e9));
            o.from = time_bound(printed_ns);
            o.to = time_bound(printed_ns + 2'000'000'000);
            const CaptureReport around = analyse_capture(c, o);
            EXPECT_LE(static_cast<std::int64_t>(around.range.begin), row) << "hitch " << k;
            EXPECT_GT(static_cast<std::int64_t>(around.range.end), row) << "hitch " << k;
            ++checked;
        }
    }
    EXPECT_GT(checked, 10u);
}

// End to end through the command: the JSON hitch time typed back as --from / --to.
TEST(TimeAxis, TheReportCommandSelectsTheHitchItLists) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const char* name : {"IPMAuxTestData_test_case_9_v1.csv",
                             "frameview_set/fv0066_cyberpunk-no-rt_30fps-xess-quality.csv"}) {
        SCOPED_TRACE(name);
        const std::string path = test::capture(name);
        const auto all = test::run_loopscope("report --format json '" + path + "'");
        ASSERT_EQ(all.exit_code, 0) << all.err;
        const auto j = nlohmann::json::parse(all.out);
        const auto& hitches = j["stutter"]["hitches"];
        ASSERT_FALSE(hitches.empty());
        // The longest, which the terminal lists too.
        auto h = hitches[0];
        for (const auto& x : hitches) {
            if (x["frame_time_ms"].get<double>() > h["frame_time_ms"].get<double>())
                h = x;
        }
        const double t = h["time_s"].get<double>();
        const double len_s = h["frame_time_ms"].get<double>() / 1e3;
        EXPECT_LT(t, j["duration_s"].get<double>());  // on the axis, not the capture's clock
        EXPECT_GT(j["source"]["clock_origin_s"].get<double>(), 0.0);
        const auto one = test::run_loopscope(fmt::format(
            "report --format json --from {:.9f}s --to {:.9f}s '{}'", t, t + len_s, path));
        ASSERT_EQ(one.exit_code, 0) << one.err;
        const auto k = nlohmann::json::parse(one.out);
        EXPECT_EQ(k["range"]["first_frame"], h["frame"]) << one.out.substr(0, 400);
        // The terminal's printed time (3 decimals) lands on it too.
        const auto text = test::run_loopscope("report '" + path + "'");
        ASSERT_EQ(text.exit_code, 0) << text.err;
        const std::regex row(
            fmt::format(R"(\n\s+{}\s+(-?[0-9]+\.[0-9]{{3}})\s)", h["frame"].get<std::int64_t>()));
        std::smatch m;
        ASSERT_TRUE(std::regex_search(text.out, m, row)) << text.out;
        const double printed = std::stod(m[1]);
        EXPECT_LE(printed, t);
        EXPECT_GT(printed, t - 0.001);
        EXPECT_NE(text.out.find("on the capture's own clock"), std::string::npos);
    }
}

// The Chrome trace and the HTML report put each hitch where the report's hitch list does.
TEST(TimeAxis, ChromeTraceAndHtmlGiveTheReportsTimes) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string dir = test::make_temp_dir("loopscope-time-axis");
    for (const char* name : {"IPMAuxTestData_test_case_9_v1.csv", "IPMAuxTestData_test_case_8.csv",
                             "IPMAuxTestData_F01TimeSpyDemoFS2080_gold.csv",
                             "frameview_set/fv0066_cyberpunk-no-rt_30fps-xess-quality.csv"}) {
        SCOPED_TRACE(name);
        const std::string path = test::capture(name);
        const auto all = test::run_loopscope("report --format json '" + path + "'");
        ASSERT_EQ(all.exit_code, 0) << all.err;
        const auto hitches = nlohmann::json::parse(all.out)["stutter"]["hitches"];
        ASSERT_FALSE(hitches.empty());

        const auto chrome = test::run_loopscope("report --format chrome '" + path + "'");
        ASSERT_EQ(chrome.exit_code, 0) << chrome.err;
        const auto trace = nlohmann::json::parse(chrome.out);
        for (const auto& h : hitches) {
            bool found = false;
            for (const auto& e : trace["traceEvents"]) {
                if (e.value("name", "") != "hitch" || e["args"]["frame"] != h["frame"])
                    continue;
                found = true;
                // Whole microseconds, frames laid end to end: within 0.1 ms.
                EXPECT_NEAR(e["ts"].get<double>() / 1e6, h["time_s"].get<double>(), 1e-4);
            }
            EXPECT_TRUE(found) << h.dump();
        }

        const std::string html_path = dir + "/r.html";
        const auto html =
            test::run_loopscope("report --format html -o '" + html_path + "' '" + path + "'");
        ASSERT_EQ(html.exit_code, 0) << html.err;
        const std::string page = test::read_text(html_path);
        EXPECT_NE(page.find("time since the first frame (s)"), std::string::npos);
        const auto& h = hitches[0];
        const std::string cell =
            fmt::format("><td>{}</td><td>{:.3f}</td>", h["frame"].get<std::int64_t>(),
                        std::floor(h["time_s"].get<double>() * 1e3 + 1e-9) / 1e3);
        EXPECT_NE(page.find(cell), std::string::npos) << cell;
    }
    std::filesystem::remove_all(dir);
}
