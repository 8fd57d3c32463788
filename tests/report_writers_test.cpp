// Every writer renders the same computed report: the JSON keys are the documented ones, the CSV
// has a row a frame, the Chrome trace parses as trace events, the HTML is self-contained, and
// sampled logs say that per-frame figures are not available instead of printing them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "common/errors.hpp"
#include "core/comparison.hpp"
#include "readers/readers.hpp"
#include "tests/chart_data.hpp"
#include "tests/test_support.hpp"
#include "writers/writer.hpp"

namespace loopscope {
namespace {

constexpr std::int64_t kMs = 1'000'000;

Capture stutter_capture() {
    Capture c;
    c.source = {"presentmon-2.4", "game.csv", "Game.exe", 42, "0x1234"};
    for (int i = 0; i < 300; ++i) {
        const std::int64_t f = (i == 150) ? 120 * kMs : (i % 2 ? 16 * kMs : 17 * kMs);
        c.frame_ns.push_back(f);
        // The PC latency alternates with the presents, as frame generation makes it.
        c.pc_latency_ns.push_back(i % 2 ? 40 * kMs : 30 * kMs);
    }
    std::int64_t t = 0;
    for (const std::int64_t f : c.frame_ns) {
        c.start_ns.push_back(t);
        t += f;
    }
    return c;
}

std::string render(const Report& report, const std::string& format) {
    const std::string dir = test::make_temp_dir("loopscope-writer");
    const std::string path = dir + "/out";
    {
        OutputFile out(path);
        make_writer(format, {})->write(report, out);
        out.commit();
    }
    std::string text = test::read_text(path);
    std::filesystem::remove_all(dir);
    return text;
}

Report single(const Capture& c) {
    Report r;
    r.captures.push_back(analyse_capture(c, {}));
    return r;
}

TEST(ReportWriters, JsonHasTheStableKeys) {
    const Capture c = stutter_capture();
    const auto j = nlohmann::json::parse(render(single(c), "json"));
    EXPECT_EQ(j["source"]["format"], "presentmon-2.4");
    EXPECT_EQ(j["source"]["process"], "Game.exe");
    EXPECT_EQ(j["frames"], 300);
    EXPECT_NEAR(j["duration_s"].get<double>(), (149 * 17 + 150 * 16 + 120) / 1000.0, 1e-12);
    for (const char* k : {"min", "mean", "stdev", "p50", "p90", "p95", "p99", "p999", "max"}) {
        EXPECT_TRUE(j["frame_time_ms"].contains(k)) << k;
    }
    for (const char* k : {"average", "p1_low", "p01_low", "low1_average", "low01_average"}) {
        EXPECT_TRUE(j["fps"].contains(k)) << k;
    }
    EXPECT_EQ(j["stutter"]["capframex_time_frames"], 1);
    ASSERT_EQ(j["stutter"]["hitches"].size(), 1u);
    EXPECT_EQ(j["stutter"]["hitches"][0]["frame"], 150);
    EXPECT_DOUBLE_EQ(j["stutter"]["hitches"][0]["frame_time_ms"].get<double>(), 120.0);
    EXPECT_TRUE(j["stutter"].contains("capframex_time_share"));
    EXPECT_TRUE(j.contains("variation_buckets"));
    EXPECT_TRUE(j["refresh"].contains("rate_hz"));
    EXPECT_TRUE(j["refresh"].contains("on_grid_share"));
    EXPECT_FALSE(j.contains("loop"));
}

TEST(ReportWriters, SampledLogsSayPerFrameFiguresCannotBeComputed) {
    Capture c = stutter_capture();
    c.per_frame = false;
    c.sample_kind = Capture::SampleKind::latest_frame;
    describe_as(c, "mangohud");
    const Report r = single(c);
    const auto j = nlohmann::json::parse(render(r, "json"));
    EXPECT_TRUE(j["frame_time_ms"].is_null());
    EXPECT_TRUE(j["stutter"].is_null());
    EXPECT_EQ(j["sampled"]["samples"], 300);
    const std::string text = render(r, "terminal");
    EXPECT_NE(text.find("cannot be computed"), std::string::npos);
    // The frames' rows are not there; the samples' are, named as such.
    EXPECT_EQ(text.find("\n  p99 "), std::string::npos);
    EXPECT_NE(text.find("sampled p99"), std::string::npos);
    EXPECT_EQ(text.find("1% low"), std::string::npos);
}

TEST(ReportWriters, TerminalAndMarkdownShowEachFigureWithItsDefinition) {
    const Capture c = stutter_capture();  // the report points into it
    const Report r = single(c);
    const std::string text = render(r, "terminal");
    EXPECT_EQ(text.find('\033'), std::string::npos);  // no colour unless asked
    EXPECT_NE(text.find("linear interpolation at h = p·(N-1)"), std::string::npos);
    EXPECT_NE(text.find("Hitches (longest 1 of 1)"), std::string::npos);
    EXPECT_NE(text.find("120.000"), std::string::npos);
    const std::string md = render(r, "md");
    EXPECT_NE(md.find("| section"), std::string::npos);
    EXPECT_NE(md.find("### Hitches (1)"), std::string::npos);
}

TEST(ReportWriters, CsvHasOneRowPerFrameWithTheDerivedFlags) {
    const std::string csv = render(single(stutter_capture()), "csv");
    std::size_t lines = 0;
    for (const char ch : csv)
        lines += ch == '\n';
    EXPECT_EQ(lines, 301u);
    EXPECT_EQ(csv.rfind("capture,frame,start_s,frame_time_ms", 0), 0u);
    // Frame 150: 120 ms, a CapFrameX stutter and an Unreal hitch.
    EXPECT_NE(csv.find("\nA,150,"), std::string::npos);
    const std::size_t at = csv.find("\nA,150,");
    const std::string row = csv.substr(at + 1, csv.find('\n', at + 1) - at - 1);
    EXPECT_NE(row.find(",120.0000,"), std::string::npos) << row;
    // Stutter, hitch, not start-up; the capture has no FrameType column, so `generated` is
    // empty; no column splits its frame time, so its hitch cause is `unexplained`.
    EXPECT_TRUE(row.ends_with(",1,1,0,,unexplained")) << row;
    // Off hitches the cause cell is empty.
    const std::size_t other = csv.find("\nA,149,");
    const std::string before = csv.substr(other + 1, csv.find('\n', other + 1) - other - 1);
    EXPECT_TRUE(before.ends_with(",0,0,0,,")) << before;
}

// The stutter capture as a loopscope trace of the fixed-interp policy: one step a frame, alpha
// as `alpha_of(frame)` gives it.
Capture loop_trace_capture(double (*alpha_of)(std::size_t) = nullptr) {
    Capture c = stutter_capture();
    describe_as(c, "loopscope-trace");
    for (std::size_t i = 0; i < c.frame_ns.size(); ++i) {
        FrameRecord rec;
        rec.frame = static_cast<std::int64_t>(i);
        rec.start_ns = c.start_ns[i];
        rec.raw_ns = rec.clamped_ns = rec.consumed_ns = c.frame_ns[i];
        rec.steps = 1;
        rec.alpha = alpha_of ? alpha_of(i) : 0.0;
        c.loop.push_back(rec);
    }
    c.metadata["policy"] = "fixed-interp";
    c.metadata["dt_ns"] = "16666667";
    return c;
}

TEST(ReportWriters, ChromeTraceHasASliceAFrameAndLoopCounters) {
    const Capture c = loop_trace_capture();
    const Report r = single(c);
    ASSERT_TRUE(r.captures[0].loop_figures.has_value());
    const auto j = nlohmann::json::parse(render(r, "chrome"));
    std::size_t slices = 0, counters = 0, hitches = 0;
    for (const auto& e : j["traceEvents"]) {
        if (e["ph"] == "X")
            ++slices;
        if (e["ph"] == "C")
            ++counters;
        if (e["ph"] == "X" && e["name"] == "hitch")
            ++hitches;
    }
    // Frame 0's raw_ns is not a frame time, so 299 frame times: each row's raw_ns is the
    // length of the frame before it. The loop's state is drawn at every frame's start.
    EXPECT_EQ(slices, 299u);
    EXPECT_EQ(counters, 900u);  // accumulator, steps, alpha
    EXPECT_EQ(hitches, 1u);
    const auto report_json = nlohmann::json::parse(render(r, "json"));
    EXPECT_EQ(report_json["loop"]["policy"], "fixed-interp");
    EXPECT_EQ(report_json["loop"]["steps"], r.captures[0].loop_figures->steps);
}

TEST(ReportWriters, HtmlIsSelfContainedWithInlinePlots) {
    // Frames on a 60 Hz grid (so there is a refresh budget to draw) with one hitch.
    Capture c = stutter_capture();  // the report points into it
    for (std::size_t i = 0; i < c.frame_ns.size(); ++i) {
        c.frame_ns[i] = i == 150 ? 7 * 16'666'667 : 16'666'667;
        c.start_ns[i] = i == 0 ? 0 : c.start_ns[i - 1] + c.frame_ns[i - 1];
    }
    // Display changes on the grid: a refresh rate needs display information.
    c.display_ns = c.frame_ns;
    c.pc_latency_ns.assign(c.frames(), 30 * kMs);
    const Report r = single(c);
    ASSERT_EQ(r.captures[0].stats.refresh.rate_hz, 60);
    const std::string html = render(r, "html");
    // The page's own text names no external resource (the inlined chart library's header
    // names its home page; no script of it loads anything: the render test checks).
    const std::string own = test::page_without_chart_library(html);
    EXPECT_NE(own.size(), html.size()) << "the page inlines the chart library";
    EXPECT_EQ(own.find("http:"), std::string::npos);
    EXPECT_EQ(own.find("https:"), std::string::npos);
    EXPECT_EQ(own.find("src="), std::string::npos);
    const auto charts = test::page_charts(html);
    ASSERT_GE(charts.size(), 4u);
    EXPECT_EQ(charts[0].json["marks"].size(), 1u);  // the 116.7 ms hitch
    EXPECT_EQ(charts[0].json["rules"].size(), 1u);  // the 60 Hz budget
    EXPECT_NE(charts[1].caption.find("Latency over time"), std::string::npos);
    EXPECT_NE(html.find("Percentile curve"), std::string::npos);
}

TEST(ReportWriters, HtmlShowsTheAlphaDistributionOfALoopTrace) {
    // Two tenths hold every frame.
    Capture c = loop_trace_capture([](std::size_t i) { return i % 3 == 0 ? 0.05 : 0.55; });
    const std::string html = render(single(c), "html");
    EXPECT_NE(html.find("Alpha at render"), std::string::npos);
    const auto charts = test::page_charts(html);
    const auto alpha = std::find_if(charts.begin(), charts.end(), [](const auto& chart) {
        return chart.caption.starts_with("Alpha at render");
    });
    ASSERT_NE(alpha, charts.end());
    ASSERT_EQ(alpha->series.size(), 1u);
    ASSERT_EQ(alpha->series[0].size(), 10u);
    EXPECT_EQ(alpha->json["series"][0]["draw"], "bars");
    std::size_t bars = 0;
    for (const double v : alpha->series[0])
        bars += v > 0 ? 1 : 0;
    EXPECT_EQ(bars, 2u);
    EXPECT_DOUBLE_EQ(alpha->series[0][0], 100.0);  // [0.0, 0.1)
    EXPECT_DOUBLE_EQ(alpha->series[0][5], 200.0);  // [0.5, 0.6)
    EXPECT_NEAR(alpha->x[5], 0.55, 1e-9);

    // The variable policy keeps no accumulator: no alpha plot.
    c.metadata["policy"] = "variable";
    EXPECT_EQ(render(single(c), "html").find("Alpha at render"), std::string::npos);
}

TEST(ReportWriters, HtmlStaysSmallForAMillionFrames) {
    Capture c;
    c.source = {"presentmon-2.4", "big.csv", "Big.exe", 1, ""};
    c.frame_ns.resize(1'000'000);
    c.start_ns.resize(c.frame_ns.size());
    std::int64_t t = 0;
    for (std::size_t i = 0; i < c.frame_ns.size(); ++i) {
        c.frame_ns[i] = (16 + static_cast<std::int64_t>(i * 2654435761u % 5)) * kMs;
        c.start_ns[i] = t;
        t += c.frame_ns[i];
    }
    const std::string html = render(single(c), "html");
    // Every frame is in the frame-time chart (base64 32-bit integers of the frame times and of
    // the steps between their beginnings: about 5.3 MB each), well within 20 MB.
    EXPECT_LT(html.size(), 20'000'000u);
    const auto charts = test::page_charts(html);
    ASSERT_FALSE(charts.empty());
    EXPECT_EQ(charts[0].json["n"].get<std::size_t>(), c.frame_ns.size());
    ASSERT_EQ(charts[0].series[0].size(), c.frame_ns.size());
    for (const std::size_t i : {std::size_t{0}, std::size_t{123'457}, c.frame_ns.size() - 1})
        EXPECT_DOUBLE_EQ(charts[0].series[0][i], static_cast<double>(c.frame_ns[i] / kMs)) << i;
}

TEST(ReportWriters, HtmlOfAMillionFramesWithEveryTimelineStaysUnder20Mb) {
    // The most a capture gives the frame-time chart: frame generation (every other frame
    // generated, drawn apart), frames never displayed, display and application intervals and
    // a latency per frame. Every present still kept, and the page under 20 MB.
    Capture c;
    c.source = {"presentmon-2.4", "big.csv", "Big.exe", 1, ""};
    const std::size_t n = 1'000'000;
    c.frame_ns.resize(n);
    c.start_ns.resize(n);
    c.generated.resize(n);
    c.dropped.resize(n);
    c.display_ns.resize(n);
    c.app_interval_ns.resize(n);
    c.pc_latency_ns.resize(n);
    std::int64_t t = 0;
    for (std::size_t i = 0; i < n; ++i) {
        c.frame_ns[i] = 8 * kMs + static_cast<std::int64_t>(i * 2654435761u % 997) * 1000;
        c.start_ns[i] = t;
        t += c.frame_ns[i];
        c.generated[i] = i % 2;
        c.dropped[i] = i % 11 == 0;
        c.display_ns[i] = c.dropped[i] ? -1 : c.frame_ns[i];
        c.app_interval_ns[i] = i % 2 ? 0 : 2 * c.frame_ns[i];
        c.pc_latency_ns[i] = 30 * kMs + static_cast<std::int64_t>(i % 1000) * 1000;
    }
    const std::string html = render(single(c), "html");
    EXPECT_LT(html.size(), 20'000'000u);
    const auto charts = test::page_charts(html);
    ASSERT_FALSE(charts.empty());
    const auto& ft = charts[0];
    ASSERT_EQ(ft.x.size(), n);
    ASSERT_GE(ft.labels.size(), 2u);
    EXPECT_EQ(ft.labels[1], "generated frames");
    // Each frame is in the application frames' series or the generated ones, with its time.
    for (const std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{500'001}, n - 1}) {
        const double v = ft.series[c.generated[i] ? 1 : 0][i];
        EXPECT_NEAR(v, static_cast<double>(c.frame_ns[i]) / 1e6, 1e-6) << i;
        EXPECT_TRUE(std::isnan(ft.series[c.generated[i] ? 0 : 1][i])) << i;
    }
}

TEST(ReportWriters, ComparisonOverlaysTwoPercentileCurves) {
    const Capture a = stutter_capture();
    Capture b = stutter_capture();
    for (auto& f : b.frame_ns)
        f += kMs;
    Report r;
    r.captures.push_back(analyse_capture(a, {}));
    r.captures.push_back(analyse_capture(b, {}));
    r.comparison = compare_captures(r.captures[0], r.captures[1], 50);
    const std::string html = render(r, "html");
    // The 16 / 17 ms alternation reads as frame generation's cycles on both: the estimated
    // application frames (pairs of presents, 33 and 35 ms) are what both have.
    EXPECT_NE(html.find("Percentile curves (application timeline): A (blue) and B (orange)"),
              std::string::npos);
    const auto charts = test::page_charts(html);
    const auto curves = std::find_if(charts.begin(), charts.end(), [](const auto& chart) {
        return chart.caption.starts_with("Percentile curves");
    });
    ASSERT_NE(curves, charts.end());
    ASSERT_EQ(curves->labels, (std::vector<std::string>{"A", "B"}));
    // B's frames are each 1 ms longer: its application frames (pairs) 2 ms at the median.
    const std::size_t median = curves->x.size() / 2;
    EXPECT_NEAR(curves->series[1][median] - curves->series[0][median], 2.0, 1e-6);
    const auto j = nlohmann::json::parse(render(r, "json"));
    EXPECT_EQ(j["captures"].size(), 2u);
    EXPECT_EQ(j["comparison"]["timeline"], "application");
    EXPECT_NEAR(j["comparison"]["figures"]["p50_ms"]["difference"].get<double>(), 2.0, 1e-9);
    EXPECT_EQ(j["comparison"]["figures"]["p50_ms"]["significant"], true);
    EXPECT_EQ(j["comparison"]["figures"]["p50_ms"]["verdict"], "worse");
    EXPECT_NE(render(r, "terminal").find("Comparison (B - A)"), std::string::npos);
}

TEST(ReportWriters, UnknownFormatIsAUsageError) {
    EXPECT_THROW(make_writer("pdf", {}), UsageError);
}

TEST(ReportWriters, AOneFrameStartUpSegmentIsNamedAsOneFrame) {
    // A 2 s loading frame, then an ordinary 60 Hz run: the segment is that one frame.
    Capture c = stutter_capture();  // the report points into it
    for (std::size_t i = 0; i < c.frame_ns.size(); ++i) {
        c.frame_ns[i] = i == 0 ? 2'000'000'000 : 16'666'667;
        c.start_ns[i] = i == 0 ? 0 : c.start_ns[i - 1] + c.frame_ns[i - 1];
    }
    const Report r = single(c);
    ASSERT_EQ(r.captures[0].startup.frames, 1u);
    const std::string md = render(r, "md");
    EXPECT_NE(md.find("Start-up segment: capture frame 0 ("), std::string::npos) << md;
    EXPECT_EQ(md.find("frames 0-0"), std::string::npos) << md.substr(0, 600);
}

}  // namespace
}  // namespace loopscope
