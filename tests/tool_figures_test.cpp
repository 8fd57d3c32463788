// Each tool's own figures (core/tool_figures.hpp). The rules are re-implemented here from the
// tools' sources, independently of the core code (frame times parsed from the capture's cells
// as the tool parses them, the tool's own arithmetic: doubles in ms, float32 for MangoHud), and
// checked against loopscope's figures on small series worked out by hand and on the real
// captures. FrameView's figures are also checked against the summaries FrameView itself wrote
// (frameview_set/FrameView_Summaries.csv), the only tool whose own output is at hand for them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "core/analysis.hpp"
#include "core/figures.hpp"
#include "core/tool_figures.hpp"
#include "readers/readers.hpp"
#include "tests/csv_table.hpp"
#include "tests/test_support.hpp"
#include "writers/writer.hpp"

namespace loopscope {
namespace {

constexpr std::int64_t kMs = 1'000'000;

// ---- Independent re-implementations -------------------------------------------------------

using test::read_table;
using test::Table;

std::vector<double> column_ms(const Table& t, const std::string& name) {
    const int c = t.column(name);
    std::vector<double> out;
    if (c < 0)
        return out;
    for (const auto& row : t.rows)
        out.push_back(std::strtod(row[static_cast<std::size_t>(c)].c_str(), nullptr));
    return out;
}

// FrameView: every row's MsBetweenPresents; k(x) = floor(N·x/100) + 1 frames, longest first.
struct FrameViewRule {
    std::map<std::string, double> figures;  // by FrameView's summary column name
};
FrameViewRule frameview_rule(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end(), std::greater<>());
    const double n = static_cast<double>(ms.size());
    const auto k = [&](double x) { return static_cast<std::size_t>(std::floor(n * x / 100)) + 1; };
    const auto low = [&](double x) {
        const std::size_t c = k(x);
        return 1000.0 / (std::accumulate(ms.begin(), ms.begin() + static_cast<long>(c), 0.0) /
                         static_cast<double>(c));
    };
    const auto at = [&](double x) { return 1000.0 / ms[k(x) - 1]; };
    FrameViewRule r;
    r.figures["Avg FPS"] = 1000.0 * n / std::accumulate(ms.begin(), ms.end(), 0.0);
    r.figures["1% Low FPS"] = low(1);
    r.figures["0.1% Low FPS"] = low(0.1);
    r.figures["1% FPS"] = at(1);
    r.figures["0.1% FPS"] = at(0.1);
    r.figures["5% FPS"] = at(5);
    r.figures["10% FPS"] = at(10);
    r.figures["Min FPS"] = 1000.0 / ms.front();
    r.figures["Max FPS"] = 1000.0 / ms.back();
    return r;
}

// MangoHud's fpsMetrics::calculate and writeSummary, in float32 as MangoHud computes them.
struct MangoHudRule {
    float avg = 0, min1 = 0, min01 = 0, p97 = 0;
};
MangoHudRule mangohud_rule(const std::vector<float>& frametimes) {
    std::vector<float> sorted = frametimes;
    std::sort(sorted.begin(), sorted.end(), std::greater<float>());
    const auto metric = [&](float val) -> float {
        const float position = val * static_cast<float>(sorted.size()) - 1;
        // Negative below p·N = 1: undefined in C++, 0 on x86 (truncation toward zero).
        const std::uint64_t idx = position < 0 ? 0 : static_cast<std::uint64_t>(position);
        return idx < sorted.size() ? 1000.f / sorted[idx] : 0.f;
    };
    MangoHudRule r;
    r.min01 = metric(0.001f);
    r.min1 = metric(0.01f);
    r.p97 = metric(0.97f);
    // writeSummary sums the rows sorted by FPS ascending: the longest frames first.
    std::vector<float> by_fps = frametimes;
    std::stable_sort(by_fps.begin(), by_fps.end(),
                     [](float a, float b) { return 1000.0 / a < 1000.0 / b; });
    float total = 0;
    for (const float f : by_fps)
        total = total + f;
    r.avg = 1000 / (total / static_cast<float>(by_fps.size()));
    return r;
}

// MathNet.Numerics Statistics.Quantile of unsorted values, as CapFrameX calls it.
double r8_quantile(std::vector<double> v, double tau) {
    std::sort(v.begin(), v.end());
    const double n = static_cast<double>(v.size());
    const double h = (n + 1.0 / 3.0) * tau + 1.0 / 3.0;
    const auto hf = static_cast<long>(std::floor(h));
    if (hf <= 0 || tau == 0)
        return v.front();
    if (hf >= static_cast<long>(v.size()) || tau == 1)
        return v.back();
    const double a = v[static_cast<std::size_t>(hf - 1)];
    const double b = v[static_cast<std::size_t>(hf)];
    return a + (h - static_cast<double>(hf)) * (b - a);
}
double capframex_p(const std::vector<double>& ms, double p) {
    std::vector<double> fps;
    for (const double m : ms)
        fps.push_back(1000.0 / m);
    return r8_quantile(fps, p);
}

// PresentMon's StatisticsTracker over ms values: GetPercentile, then SafeInvert(ms / 1000).
double presentmon_fps(std::vector<double> ms, double p) {
    std::sort(ms.begin(), ms.end());
    const double index = static_cast<double>(ms.size() - 1) * p;
    const auto lower = static_cast<std::size_t>(index);
    const double weight = index - static_cast<double>(lower);
    const double v = ms[lower] * (1 - weight) + ms[lower + 1] * weight;
    return 1.0 / (v / 1000.);
}

// OCAT's PrintSummary: rank (int)(p·N) of the ascending times; frames / last TimeInSeconds.
double ocat_percentile(std::vector<double> ms, double p) {
    std::sort(ms.begin(), ms.end(), std::less<double>());
    return ms[static_cast<std::size_t>(static_cast<int>(p * static_cast<double>(ms.size())))];
}

// ---- Helpers ------------------------------------------------------------------------------

Capture frames_capture(const std::vector<std::int64_t>& frame_ns) {
    Capture c;
    describe_as(c, "plain");
    c.source.file = "series";
    c.frame_ns = frame_ns;
    std::int64_t t = 0;
    for (const std::int64_t f : frame_ns) {
        c.start_ns.push_back(t);
        t += f;
    }
    return c;
}

double figure(const CaptureReport& r, const std::string& key) {
    const FigureValue v = figure_value(r, key);
    EXPECT_TRUE(v.has_value()) << key << ": " << v.reason;
    return v.has_value() ? *v : std::nan("");
}

// ---- Worked examples (docs/reports.md, "Each tool's own figures") -------------------------

// The ten frames of the worked example: nine of 10 ms and one of 40 ms, then the same with
// 200 frames (one 40 ms, one 30 ms, the rest 10 ms).
TEST(ToolFigures, WorkedExampleTenFrames) {
    std::vector<std::int64_t> ft(9, 10 * kMs);
    ft.push_back(40 * kMs);
    const Capture c = frames_capture(ft);
    const CaptureReport r = analyse_capture(c, {});
    // FrameView: k = floor(10/100) + 1 = 1: the longest frame alone.
    EXPECT_DOUBLE_EQ(figure(r, "frameview_low1_fps"), 25.0);
    EXPECT_DOUBLE_EQ(figure(r, "frameview_p1_fps"), 25.0);
    EXPECT_DOUBLE_EQ(figure(r, "frameview_avg_fps"), 1000.0 * 10 / 130);
    EXPECT_DOUBLE_EQ(figure(r, "frameview_p10_fps"), 100.0);  // k = 2: the second longest
    // MangoHud: 0.01·10 - 1 < 0, truncated to index 0 (the longest).
    EXPECT_FLOAT_EQ(static_cast<float>(figure(r, "mangohud_min1_fps")), 25.0f);
    EXPECT_FLOAT_EQ(static_cast<float>(figure(r, "mangohud_p97_fps")), 100.0f);  // index 8
    // PresentMon: h = 9·0.99 = 8.91 between 10 and 40 ms: 10·0.09 + 40·0.91 = 37.3 ms.
    EXPECT_NEAR(figure(r, "presentmon_p1_fps"), 1000.0 / 37.3, 1e-9);
    EXPECT_NEAR(figure(r, "p1_low_fps"), 1000.0 / 37.3, 1e-9);
    // CapFrameX P1: h = (10 + 1/3)·0.01 + 1/3 = 0.436, floor 0: the lowest FPS value.
    EXPECT_DOUBLE_EQ(figure(r, "capframex_p1_fps"), 25.0);
    // OCAT: rank (int)(0.99·10) = 9 of the ascending times: the 40 ms frame.
    EXPECT_DOUBLE_EQ(figure(r, "ocat_p99_ms"), 40.0);
}

TEST(ToolFigures, WorkedExampleTwoHundredFrames) {
    std::vector<std::int64_t> ft(198, 10 * kMs);
    ft.push_back(40 * kMs);
    ft.push_back(30 * kMs);
    const Capture c = frames_capture(ft);
    const CaptureReport r = analyse_capture(c, {});
    // FrameView: k = floor(200/100) + 1 = 3 longest: 40, 30, 10 ms, mean 26.667 ms.
    EXPECT_NEAR(figure(r, "frameview_low1_fps"), 1000.0 / (80.0 / 3), 1e-9);
    EXPECT_DOUBLE_EQ(figure(r, "frameview_p1_fps"), 100.0);  // the third longest: 10 ms
    // MangoHud: index 0.01·200 - 1 = 1: the second longest, 30 ms.
    EXPECT_FLOAT_EQ(static_cast<float>(figure(r, "mangohud_min1_fps")), 1000.0f / 30.0f);
    // CapFrameX's integral: the longest frames first reach 1 % of 2060 ms (20.6 ms) at 40 ms.
    EXPECT_DOUBLE_EQ(figure(r, "low1_integral_fps"), 25.0);
    // CapFrameX's low average: R-8 0.99 quantile at h = (200 + 1/3)·0.99 + 1/3 = 198.66,
    // between the 198th (10 ms) and 199th (30 ms) ascending: 23.27 ms; the frames at or above
    // it: 30 and 40 ms, mean 35 ms.
    EXPECT_NEAR(figure(r, "low1_avg_fps"), 1000.0 / 35.0, 1e-9);
    // CapFrameX P1: FPS values ascending 25, 33.3, 100...; h = 200.333·0.01 + 1/3 = 2.3367:
    // 33.333 + 0.3367·(100 - 33.333).
    const double h = (200 + 1.0 / 3) * 0.01 + 1.0 / 3;
    EXPECT_NEAR(figure(r, "capframex_p1_fps"), 1000.0 / 30 + (h - 2) * (100 - 1000.0 / 30), 1e-9);
    // PresentMon and loopscope's percentile: h = 199·0.99 = 197.01: 10 ms + 0.01·(30 - 10).
    EXPECT_NEAR(figure(r, "presentmon_p1_fps"), 1000.0 / 10.2, 1e-9);
    // OCAT: rank (int)(0.99·200) = 198 of the ascending times: 30 ms.
    EXPECT_DOUBLE_EQ(figure(r, "ocat_p99_ms"), 30.0);
}

// Every rule equals its independent re-implementation on a varied synthetic series, for many
// lengths (the rank rules change at every multiple of 10, 100, 1000 frames).
TEST(ToolFigures, EqualTheIndependentRulesOnManyLengths) {
    std::uint64_t x = 11;
    const auto next = [&] {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return x >> 33;
    };
    for (const std::size_t n :
         {1u, 2u, 3u, 9u, 10u, 11u, 99u, 100u, 101u, 999u, 1000u, 1001u, 2500u, 12345u}) {
        std::vector<std::int64_t> ft;
        std::vector<double> ms;
        for (std::size_t i = 0; i < n; ++i) {
            // Whole microseconds, as a capture's three-decimal ms cells give.
            std::int64_t f = (4000 + static_cast<std::int64_t>(next() % 30000)) * 1000;
            if (next() % 50 == 0)
                f += static_cast<std::int64_t>(next() % 100000) * 1000;
            ft.push_back(f);
            ms.push_back(static_cast<double>(f / 1000) / 1000.0);
        }
        const Capture c = frames_capture(ft);
        const CaptureReport r = analyse_capture(c, {});
        const FrameViewRule fv = frameview_rule(ms);
        const std::map<std::string, std::string> fv_keys = {
            {"Avg FPS", "frameview_avg_fps"},        {"1% Low FPS", "frameview_low1_fps"},
            {"0.1% Low FPS", "frameview_low01_fps"}, {"1% FPS", "frameview_p1_fps"},
            {"0.1% FPS", "frameview_p01_fps"},       {"5% FPS", "frameview_p5_fps"},
            {"10% FPS", "frameview_p10_fps"},        {"Min FPS", "frameview_min_fps"},
            {"Max FPS", "frameview_max_fps"}};
        for (const auto& [name, key] : fv_keys) {
            EXPECT_NEAR(figure(r, key), fv.figures.at(name), 1e-9 * fv.figures.at(name))
                << key << " n=" << n;
        }
        std::vector<float> mf;
        for (const double m : ms)
            mf.push_back(static_cast<float>(m));
        const MangoHudRule mh = mangohud_rule(mf);
        EXPECT_EQ(static_cast<float>(figure(r, "mangohud_avg_fps")), mh.avg) << n;
        EXPECT_EQ(static_cast<float>(figure(r, "mangohud_min1_fps")), mh.min1) << n;
        EXPECT_EQ(static_cast<float>(figure(r, "mangohud_min01_fps")), mh.min01) << n;
        EXPECT_EQ(static_cast<float>(figure(r, "mangohud_p97_fps")), mh.p97) << n;
        EXPECT_NEAR(figure(r, "capframex_p1_fps"), capframex_p(ms, 0.01), 1e-9) << n;
        EXPECT_NEAR(figure(r, "capframex_p01_fps"), capframex_p(ms, 0.001), 1e-9) << n;
        if (n > 1) {
            EXPECT_NEAR(figure(r, "presentmon_p1_fps"), presentmon_fps(ms, 0.99), 1e-9) << n;
            EXPECT_NEAR(figure(r, "presentmon_p5_fps"), presentmon_fps(ms, 0.95), 1e-9) << n;
        }
        EXPECT_DOUBLE_EQ(figure(r, "ocat_p95_ms"), ocat_percentile(ms, 0.95)) << n;
        EXPECT_DOUBLE_EQ(figure(r, "ocat_p99_ms"), ocat_percentile(ms, 0.99)) << n;
        EXPECT_DOUBLE_EQ(figure(r, "ocat_p999_ms"), ocat_percentile(ms, 0.999)) << n;
    }
}

// MangoHud's index for p·N < 1 is negative: x86 truncates it to 0, the longest frame; at p·N
// = 1 exactly it is 0 too, and the next frame only from p·N = 2 on.
TEST(ToolFigures, MangoHudIndexBelowOneFrameIsTheLongest) {
    for (const std::size_t n : {1u, 50u, 99u, 100u, 199u, 200u}) {
        std::vector<std::int64_t> ft(n, 10 * kMs);
        ft[0] = 50 * kMs;
        if (n > 1)
            ft[1] = 20 * kMs;
        const ToolFigures t = tool_figures(
            [&] {
                std::vector<std::int64_t> s = ft;
                std::sort(s.begin(), s.end());
                return s;
            }(),
            std::accumulate(ft.begin(), ft.end(), std::int64_t{0}));
        const float want = n >= 200 ? 50.0f : 20.0f;  // 1000 / 20 ms or 1000 / 50 ms
        EXPECT_FLOAT_EQ(static_cast<float>(t.mangohud_min1_fps), want) << n;
    }
}

// The table of the tools' 1 % lows names only catalogue keys, and every writer gets its rows.
TEST(ToolFigures, LowsTableNamesCatalogueKeys) {
    for (const LowsRow& row : lows_rows()) {
        for (const std::string_view key : {row.low1_key, row.low01_key}) {
            if (!key.empty()) {
                EXPECT_NE(find_figure(key), nullptr) << key;
            }
        }
        EXPECT_FALSE(row.rule.empty());
    }
    std::vector<std::int64_t> ft(300, 10 * kMs);
    ft[7] = 35 * kMs;
    const Capture c = frames_capture(ft);
    const CaptureReport r = analyse_capture(c, {});
    const std::vector<LowsTableRow> rows = lows_table_rows(r);
    ASSERT_EQ(rows.size(), lows_rows().size());
    for (const LowsTableRow& row : rows) {
        EXPECT_NE(row.low1, "n/a") << row.tool;
    }
}

// ---- Real captures ------------------------------------------------------------------------

// FrameView's own summary of each log: every frameview_* figure equals it within what the log's
// three-decimal frame times allow (FrameView computes from unrounded times): |difference| <=
// 0.0015 + 5e-7·F² FPS for a figure of F FPS. The independent rule is checked against every
// summary row; loopscope's figure against every log the reader accepts (a log it refuses is
// named in the output and left to the rule).
TEST(ToolFiguresGolden, FrameViewEqualsFrameViewsOwnSummaries) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string dir = test::captures_dir() + "/frameview_set";
    if (!std::filesystem::exists(dir + "/FrameView_Summaries.csv"))
        GTEST_SKIP() << dir << "/FrameView_Summaries.csv is not there";
    const Table summaries = read_table(dir + "/FrameView_Summaries.csv", "File");
    const std::map<std::string, std::string> keys = {
        {"Avg FPS", "frameview_avg_fps"},        {"1% Low FPS", "frameview_low1_fps"},
        {"0.1% Low FPS", "frameview_low01_fps"}, {"1% FPS", "frameview_p1_fps"},
        {"0.1% FPS", "frameview_p01_fps"},       {"5% FPS", "frameview_p5_fps"},
        {"10% FPS", "frameview_p10_fps"},        {"Min FPS", "frameview_min_fps"},
        {"Max FPS", "frameview_max_fps"}};
    const auto tolerance = [](double fps) { return 0.0015 + 5e-7 * fps * fps; };
    std::size_t rule_checked = 0, loopscope_checked = 0;
    std::vector<std::string> refused;
    for (const auto& row : summaries.rows) {
        const std::string file = row[static_cast<std::size_t>(summaries.column("File"))];
        const std::string path = dir + "/" + file;
        const FrameViewRule rule =
            frameview_rule(column_ms(read_table(path, "Application"), "MsBetweenPresents"));
        std::optional<CaptureReport> report;
        Capture capture;
        try {
            capture = read_capture(path);
            report = analyse_capture(capture, {});
        } catch (const InputError& e) {
            refused.push_back(file + ": " + e.what());
        }
        for (const auto& [column, key] : keys) {
            const int at = summaries.column(column);
            ASSERT_GE(at, 0) << column;
            const double theirs = std::strtod(row[static_cast<std::size_t>(at)].c_str(), nullptr);
            EXPECT_LE(std::fabs(rule.figures.at(column) - theirs), tolerance(theirs))
                << file << " " << column << ": the rule gives " << rule.figures.at(column)
                << ", FrameView " << theirs;
            ++rule_checked;
            if (report) {
                EXPECT_LE(std::fabs(figure(*report, key) - theirs), tolerance(theirs))
                    << file << " " << key << " = " << figure(*report, key) << ", FrameView "
                    << theirs;
                ++loopscope_checked;
            }
        }
    }
    EXPECT_EQ(rule_checked, 29u * keys.size());
    for (const std::string& why : refused)
        std::printf("[ note ] not compared, the reader refuses it: %s\n", why.c_str());
    std::printf("[ note ] %zu of %zu FrameView figures compared with loopscope's\n",
                loopscope_checked, rule_checked);
    EXPECT_GT(loopscope_checked, 0u);
}

// MangoHud computes its summary from its log's rows (frametime in ms, float32 in memory).
TEST(ToolFiguresGolden, MangoHudEqualsFpsMetricsOnItsLogs) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const char* name : {"mangohud_overwatch.csv", "mangohud_v1_versioned.csv"}) {
        const std::string path = test::capture(name);
        const Table t = read_table(path, "fps");
        const int c = t.column("frametime");
        ASSERT_GE(c, 0) << name;
        std::vector<float> frametimes;
        for (const auto& row : t.rows)
            frametimes.push_back(std::strtof(row[static_cast<std::size_t>(c)].c_str(), nullptr));
        ASSERT_GT(frametimes.size(), 100u) << name;
        const MangoHudRule rule = mangohud_rule(frametimes);
        const Capture capture = read_capture(path);
        const CaptureReport r = analyse_capture(capture, {});
        EXPECT_FLOAT_EQ(static_cast<float>(figure(r, "mangohud_avg_fps")), rule.avg) << name;
        EXPECT_FLOAT_EQ(static_cast<float>(figure(r, "mangohud_min1_fps")), rule.min1) << name;
        EXPECT_FLOAT_EQ(static_cast<float>(figure(r, "mangohud_min01_fps")), rule.min01) << name;
        EXPECT_FLOAT_EQ(static_cast<float>(figure(r, "mangohud_p97_fps")), rule.p97) << name;
        // The per-frame tools' figures are not offered for MangoHud's samples.
        EXPECT_FALSE(figure_value(r, "frameview_low1_fps").has_value()) << name;
    }
}

// CapFrameX's P1 / P0.1, PresentMon's statistics and OCAT's perf_summary figures on real
// per-frame captures of one stream, from the cells as each tool reads them.
TEST(ToolFiguresGolden, CapFrameXPresentMonAndOcatOnRealCaptures) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const char* name : {"ocat_metro_exodus.csv", "frameview_police2.csv"}) {
        const std::string path = test::capture(name);
        const Table t = read_table(path, "Application");
        const std::vector<double> ms = column_ms(t, "MsBetweenPresents");
        ASSERT_GT(ms.size(), 100u) << name;
        const Capture capture = read_capture(path);
        const CaptureReport r = analyse_capture(capture, {});
        ASSERT_EQ(r.series.frame_ns.size(), ms.size()) << name;
        EXPECT_NEAR(figure(r, "capframex_p1_fps"), capframex_p(ms, 0.01), 1e-9) << name;
        EXPECT_NEAR(figure(r, "capframex_p01_fps"), capframex_p(ms, 0.001), 1e-9) << name;
        EXPECT_NEAR(figure(r, "presentmon_p1_fps"), presentmon_fps(ms, 0.99), 1e-9) << name;
        EXPECT_NEAR(figure(r, "presentmon_p5_fps"), presentmon_fps(ms, 0.95), 1e-9) << name;
        const double mean =
            std::accumulate(ms.begin(), ms.end(), 0.0) / static_cast<double>(ms.size());
        EXPECT_NEAR(figure(r, "presentmon_avg_fps"), 1.0 / (mean / 1000.), 1e-9) << name;
        EXPECT_DOUBLE_EQ(figure(r, "ocat_p99_ms"), ocat_percentile(ms, 0.99)) << name;
        EXPECT_DOUBLE_EQ(figure(r, "ocat_p999_ms"), ocat_percentile(ms, 0.999)) << name;
        // OCAT: frames over the last present's TimeInSeconds, which counts from the start of
        // the recording in OCAT's own files; another tool's clock (FrameView's) starts elsewhere,
        // so there the time runs from the present before the first frame.
        const std::vector<double> seconds = column_ms(t, "TimeInSeconds");
        const bool ocat = std::string(name).starts_with("ocat");
        const double elapsed_s =
            ocat ? seconds.back() : seconds.back() - seconds.front() + ms.front() / 1000.0;
        EXPECT_NEAR(figure(r, "ocat_avg_fps"), static_cast<double>(ms.size()) / elapsed_s, 1e-6)
            << name;
        EXPECT_NEAR(figure(r, "ocat_avg_frame_time_ms"),
                    elapsed_s * 1000.0 / static_cast<double>(ms.size()), 1e-9)
            << name;
    }
}

}  // namespace
}  // namespace loopscope
