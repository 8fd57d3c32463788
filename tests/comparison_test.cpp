// The comparison of two captures: the timeline both share, the verdict of each figure by its
// direction, identical frames giving zero-width intervals, one recording in two layouts showing
// no change, and the writers' comparison (timeline named, verdicts, the HTML's order).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/block_bootstrap.hpp"
#include "core/comparison.hpp"
#include "core/figures.hpp"
#include "core/latency.hpp"
#include "readers/readers.hpp"
#include "tests/chart_data.hpp"
#include "tests/frames_capture.hpp"
#include "tests/test_support.hpp"
#include "writers/writer.hpp"

#include <nlohmann/json.hpp>

namespace loopscope {
namespace {

constexpr std::int64_t kMs = 1'000'000;

Capture make_capture(const std::vector<std::int64_t>& frame_ns) {
    return test::frames_capture(frame_ns, "presentmon-1");
}

// Noisy, autocorrelated frame times around `base` ms.
std::vector<std::int64_t> noisy(std::size_t n, std::int64_t base_ns, std::uint64_t seed) {
    std::vector<std::int64_t> f;
    std::uint64_t x = seed;
    for (std::size_t i = 0; i < n; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const auto noise = static_cast<std::int64_t>((x >> 33) % (4 * kMs));
        f.push_back(base_ns + noise + static_cast<std::int64_t>(i / 200 % 2) * kMs +
                    (i % 397 == 0 ? 70 * kMs : 0));
    }
    return f;
}

const FigureDifference* find(const Comparison& c, const std::string& key) {
    for (const auto* list : {&c.figures, &c.context}) {
        for (const FigureDifference& d : *list) {
            if (d.name == key)
                return &d;
        }
    }
    return nullptr;
}

TEST(ComparisonVerdict, IdenticalFramesGiveZeroWidthIntervals) {
    // Two captures of the very same frames (two files of one recording): every resample of B is
    // A's, so every difference and every interval is exactly 0.
    const std::vector<std::int64_t> frames = noisy(5000, 12 * kMs, 3);
    const Capture ca = make_capture(frames), cb = make_capture(frames);
    const CaptureReport a = analyse_capture(ca, {});
    const CaptureReport b = analyse_capture(cb, {});
    const Comparison c = compare_captures(a, b, 100);
    EXPECT_TRUE(c.paired);
    ASSERT_FALSE(c.figures.empty());
    for (const FigureDifference& d : c.figures) {
        SCOPED_TRACE(d.name);
        EXPECT_EQ(d.difference, 0.0);
        EXPECT_EQ(d.low, 0.0);
        EXPECT_EQ(d.high, 0.0);
        EXPECT_EQ(d.verdict, Verdict::no_significant_change);
    }
    for (const FigureDifference& d : c.context)
        EXPECT_EQ(d.verdict, Verdict::unchanged) << d.name;
    // Not the same frames (one frame apart): resampled apart, with intervals of some width.
    std::vector<std::int64_t> other = frames;
    other[10] += 1;
    const Capture cc = make_capture(other);
    const CaptureReport o = analyse_capture(cc, {});
    const Comparison apart = compare_captures(a, o, 100);
    EXPECT_FALSE(apart.paired);
    EXPECT_GT(find(apart, "p99_ms")->high - find(apart, "p99_ms")->low, 0.0);
}

TEST(ComparisonVerdict, BetterOrWorseByTheFiguresDirection) {
    const std::vector<std::int64_t> fa = noisy(4000, 12 * kMs, 5);
    std::vector<std::int64_t> fb = fa;
    for (std::int64_t& f : fb)
        f += 3 * kMs;  // B is slower on every frame
    fb.pop_back();     // and one frame shorter
    const Capture ca = make_capture(fa), cb = make_capture(fb);
    const CaptureReport a = analyse_capture(ca, {});
    const CaptureReport b = analyse_capture(cb, {});
    const Comparison slower = compare_captures(a, b, 100);
    EXPECT_EQ(slower.timeline, ComparedTimeline::present);
    EXPECT_EQ(find(slower, "mean_ms")->verdict, Verdict::worse);  // lower is better
    EXPECT_EQ(find(slower, "avg_fps")->verdict, Verdict::worse);  // higher is better
    EXPECT_EQ(find(slower, "p1_low_fps")->verdict, Verdict::worse);
    // The frames have no direction: compared by value, without an interval.
    const FigureDifference* frames = find(slower, "frames");
    ASSERT_NE(frames, nullptr);
    EXPECT_FALSE(frames->has_interval);
    EXPECT_EQ(frames->verdict, Verdict::changed);
    // The other way round, the same figures are better.
    const Comparison faster = compare_captures(b, a, 100);
    EXPECT_EQ(find(faster, "mean_ms")->verdict, Verdict::better);
    EXPECT_EQ(find(faster, "avg_fps")->verdict, Verdict::better);
    // Every verdict follows from the interval and the direction.
    for (const FigureDifference& d : slower.figures) {
        const Figure* f = find_figure(d.name);
        ASSERT_NE(f, nullptr) << d.name;
        if (!d.significant) {
            EXPECT_EQ(d.verdict, Verdict::no_significant_change) << d.name;
        } else if (figure_better(*f) == Better::unknown) {
            EXPECT_EQ(d.verdict, Verdict::changed) << d.name;
        } else {
            const bool up = d.low > 0;
            const bool good = figure_better(*f) == Better::higher ? up : !up;
            EXPECT_EQ(d.verdict, good ? Verdict::better : Verdict::worse) << d.name;
        }
    }
}

TEST(ComparisonVerdict, EveryComparedFigureHasADirectionAndCountsHaveNone) {
    // Frame times and FPS: an FPS figure is better higher, a time or a share of trouble lower;
    // where the time went has no direction (more GPU-bound frames is neither).
    for (const Figure* f : compared_figures()) {
        SCOPED_TRACE(std::string(f->key));
        const Better want = f->key.ends_with("_bound_share") ? Better::unknown
                            : f->unit == "FPS"               ? Better::higher
                                                             : Better::lower;
        EXPECT_EQ(figure_better(*f), want);
    }
    for (const char* key : {"frames", "duration_s", "refresh_hz", "samples"}) {
        const Figure* f = find_figure(key);
        ASSERT_NE(f, nullptr) << key;
        EXPECT_EQ(figure_better(*f), Better::unknown) << key;
    }
}

TEST(ComparisonTimeline, OneRecordingInTwoLayoutsShowsNoChange) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"presentmon_gold_test_case_5.csv", "presentmon_gold_test_case_5_v2.csv"},
        {"presentmon_gold_test_case_5.csv", "presentmon_gold_test_case_5_v1.csv"},
        {"IPMAuxTestData_test_case_9_v1.csv", "IPMAuxTestData_test_case_9_v2.csv"},
    };
    for (const auto& [first, second] : pairs) {
        SCOPED_TRACE(first + " / " + second);
        const Capture ca = read_capture(test::capture(first));
        const Capture cb = read_capture(test::capture(second));
        // As `report A B` compares them: over the presents both hold.
        AnalysisOptions cut_a, cut_b;
        if (const auto aligned = align_one_recording(ca, cb)) {
            cut_a.to = {RangeBound::Kind::frame, static_cast<std::int64_t>(aligned->frames_a)};
            cut_b.to = {RangeBound::Kind::frame, static_cast<std::int64_t>(aligned->frames_b)};
        }
        const CaptureReport a = analyse_capture(ca, cut_a);
        const CaptureReport b = analyse_capture(cb, cut_b);
        const Comparison c = compare_captures(a, b);
        EXPECT_FALSE(c.timeline_reason.empty());
        ASSERT_FALSE(c.figures.empty());
        for (const FigureDifference& d : c.figures) {
            EXPECT_FALSE(d.significant)
                << d.name << " " << d.a << " -> " << d.b << " [" << d.low << ", " << d.high
                << "] on the " << compared_timeline_name(c.timeline) << " timeline";
        }
    }
    // The layouts with the application's frame starts (2.x FrameTime, 2.4+ MsBetweenAppStart)
    // compare on them.
    const Capture c5 = read_capture(test::capture("presentmon_gold_test_case_5.csv"));
    const Capture c5v2 = read_capture(test::capture("presentmon_gold_test_case_5_v2.csv"));
    EXPECT_EQ(choose_timeline(analyse_capture(c5, {}), analyse_capture(c5v2, {})),
              ComparedTimeline::application);
}

// Two layouts of one recording, one holding a present more at its end (PresentMon 1.x writes the
// swap chain's last present, 2.x never does): each report keeps all its frames, the comparison
// is over the presents both hold and says so. Captures that are not one recording are never cut.
TEST(ComparisonTimeline, TwoLayoutsOfOneRecordingAreComparedOverThePresentsBothHold) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string v1 = test::capture("presentmon_gold_test_case_5_v1.csv");
    const std::string v24 = test::capture("presentmon_gold_test_case_5.csv");
    const auto run = test::run_loopscope("report --format json '" + v1 + "' '" + v24 + "'");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto j = nlohmann::json::parse(run.out);
    EXPECT_EQ(j["captures"][0]["figures"]["frames"], 259);
    EXPECT_EQ(j["captures"][1]["figures"]["frames"], 258);
    const std::string reason = j["comparison"]["timeline_reason"];
    EXPECT_NE(reason.find("two layouts of one recording"), std::string::npos) << reason;
    EXPECT_NE(reason.find("over the 258 frames both hold: A's last present, after B's last"),
              std::string::npos)
        << reason;
    EXPECT_EQ(j["comparison"]["figures"]["frames"]["a"], 258);
    EXPECT_EQ(j["comparison"]["figures"]["frames"]["b"], 258);
    EXPECT_EQ(j["comparison"]["paired"], true);
    // Two different recordings are compared as they are.
    const Capture a = read_capture(v1);
    const Capture other = read_capture(test::capture("IPMAuxTestData_test_case_9_v1.csv"));
    EXPECT_FALSE(align_one_recording(a, other).has_value());
    // Equal lengths are not cut.
    EXPECT_FALSE(align_one_recording(a, a).has_value());
}

TEST(ComparisonTimeline, FrameGenerationAgainstNoneNamesTheTimeline) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    // Talos Principle 2 with DLSS frame generation (detected: FrameView has no FrameType) and
    // without it.
    const Capture cg = read_capture(
        test::capture("frameview_set/fv0606_talos-principle-2_unlimited-dlss-fg-old-driver-"
                      "performance.csv"));
    const Capture cn = read_capture(
        test::capture("frameview_set/fv0614_talos-principle-2_unlimited-fsr-performance.csv"));
    const CaptureReport g = analyse_capture(cg, {});
    const CaptureReport n = analyse_capture(cn, {});
    ASSERT_TRUE(g.generation.detected);
    ASSERT_FALSE(n.generation.detected);
    Report report;
    report.captures.push_back(g);
    report.captures.push_back(n);
    report.comparison = compare_captures(g, n, 50);
    // Not the mixed present timeline against plain presents: the frames both displayed.
    EXPECT_EQ(report.comparison->timeline, ComparedTimeline::display);
    const std::string dir = test::make_temp_dir("loopscope-comparison");
    const std::string path = dir + "/c.json";
    {
        OutputFile out(path);
        make_writer("json", {})->write(report, out);
        out.commit();
    }
    const auto j = nlohmann::json::parse(test::read_text(path));
    EXPECT_EQ(j["comparison"]["timeline"], "display");
    EXPECT_FALSE(j["comparison"]["timeline_reason"].get<std::string>().empty());
    EXPECT_TRUE(j["comparison"]["figures"]["frameview_avg_fps"].is_null());
    EXPECT_TRUE(j["comparison"]["absent"].contains("frameview_avg_fps"));
    EXPECT_TRUE(j["comparison"]["figures"]["avg_fps"]["verdict"].is_string());
    const std::string md = dir + "/c.md";
    {
        OutputFile out(md);
        make_writer("md", {})->write(report, out);
        out.commit();
    }
    EXPECT_NE(test::read_text(md).find("Compared on the display timeline"), std::string::npos);
}

// The latency figures are compared on their own column: the cells of the range that are a time,
// resampled in blocks of their own. Re-computed here the plain way — the column read again, one
// generator stream seeded as the comparison seeds its first column, each resample joined and
// sorted — the intervals are the comparison's to the bit.
TEST(ComparisonColumns, LatencyIsResampledOnItsOwnCells) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture ca = read_capture(test::capture(
        "frameview_set/fv0026_alan-wake-2-no-rt-dlss-3-5-10_unlimited-dlaa-second-run-4k-"
        "3840x2160.csv"));
    const Capture cb = read_capture(
        test::capture("frameview_set/fv0030_alan-wake-2-no-rt-dlss-3-5-10_unlimited-dlaa-"
                      "3840x2160.csv"));
    const CaptureReport a = analyse_capture(ca, {});
    const CaptureReport b = analyse_capture(cb, {});
    constexpr std::size_t kResamples = 60;
    const Comparison c = compare_captures(a, b, kResamples, kBootstrapSeed, {}, 2);
    const auto cells = [](const Capture& capture, const CaptureReport& r) {
        std::vector<std::int64_t> v;
        const std::vector<std::int64_t> all = latency_per_frame(capture, LatencyKind::pc);
        for (std::size_t i = r.range.begin; i < r.range.end; ++i) {
            if (all[i] >= 0)
                v.push_back(all[i]);
        }
        return v;
    };
    const std::vector<std::int64_t> va = cells(ca, a), vb = cells(cb, b);
    ASSERT_GT(va.size(), 1000u);
    // The first column compared is PC latency's (the catalogue's first such figure).
    std::uint64_t column_seed = kBootstrapSeed + 0x9e3779b97f4a7c15ULL;
    std::uint64_t state = next_random(column_seed);
    std::map<std::string, std::vector<double>> diffs;
    for (std::size_t k = 0; k < kResamples; ++k) {
        std::vector<std::int64_t> ra = block_resample(va, bootstrap_block_frames(va.size()), state);
        std::vector<std::int64_t> rb = block_resample(vb, bootstrap_block_frames(vb.size()), state);
        std::sort(ra.begin(), ra.end());
        std::sort(rb.begin(), rb.end());
        const auto mean = [](const std::vector<std::int64_t>& v) {
            return ns_to_ms(
                static_cast<double>(std::accumulate(v.begin(), v.end(), std::int64_t{0})) /
                static_cast<double>(v.size()));
        };
        diffs["pc_latency_avg_ms"].push_back(mean(rb) - mean(ra));
        diffs["pc_latency_p50_ms"].push_back(ns_to_ms(percentile_sorted(rb, 0.5)) -
                                             ns_to_ms(percentile_sorted(ra, 0.5)));
        diffs["pc_latency_p99_ms"].push_back(ns_to_ms(percentile_sorted(rb, 0.99)) -
                                             ns_to_ms(percentile_sorted(ra, 0.99)));
        diffs["pc_latency_min_ms"].push_back(ns_to_ms(rb.front()) - ns_to_ms(ra.front()));
        diffs["pc_latency_max_ms"].push_back(ns_to_ms(rb.back()) - ns_to_ms(ra.back()));
    }
    int checked = 0;
    for (auto& [key, d] : diffs) {
        SCOPED_TRACE(key);
        const auto it = std::find_if(c.figures.begin(), c.figures.end(),
                                     [&](const FigureDifference& f) { return f.name == key; });
        ASSERT_NE(it, c.figures.end());
        EXPECT_EQ(it->a, *find_figure(key)->value(a));
        EXPECT_EQ(it->b, *find_figure(key)->value(b));
        std::sort(d.begin(), d.end());
        const auto at = [&](double p) {
            const double h = p * static_cast<double>(d.size() - 1);
            const auto i = static_cast<std::size_t>(h);
            return d[i] + (h - static_cast<double>(i)) * (d[i + 1] - d[i]);
        };
        EXPECT_EQ(it->low, at(0.025));
        EXPECT_EQ(it->high, at(0.975));
        EXPECT_LT(it->low, it->high);
        ++checked;
    }
    EXPECT_EQ(checked, 5);
    // FrameView's render-present latency is a column of its own, compared too.
    EXPECT_TRUE(std::any_of(c.figures.begin(), c.figures.end(), [](const FigureDifference& f) {
        return f.name == "render_present_latency_avg_ms" && f.has_interval;
    }));

    // A capture against itself: one column, resampled alike on both sides.
    const Comparison same = compare_captures(a, a, 40);
    for (const FigureDifference& d : same.figures) {
        if (d.name.starts_with("pc_latency")) {
            EXPECT_EQ(d.low, 0.0) << d.name;
            EXPECT_EQ(d.high, 0.0) << d.name;
        }
    }
}

// Where the time went is compared where both captures classify their frames by the same rule;
// the one recording in PresentMon 1.x and 2.x layouts is classified by two rules, so its shares
// are left out with the reason.
TEST(ComparisonColumns, BoundSharesNeedTheSameRule) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture v1 = read_capture(test::capture("IPMAuxTestData_test_case_9_v1.csv"));
    const Capture v2 = read_capture(test::capture("IPMAuxTestData_test_case_9_v2.csv"));
    const Comparison unlike =
        compare_captures(analyse_capture(v1, {}), analyse_capture(v2, {}), 20);
    for (const char* key : {"cpu_bound_share", "gpu_bound_share", "wait_bound_share"}) {
        SCOPED_TRACE(key);
        EXPECT_TRUE(std::none_of(unlike.figures.begin(), unlike.figures.end(),
                                 [&](const FigureDifference& f) { return f.name == key; }));
        const auto it = std::find_if(unlike.absent.begin(), unlike.absent.end(),
                                     [&](const AbsentDifference& d) { return d.name == key; });
        ASSERT_NE(it, unlike.absent.end());
        EXPECT_NE(it->reason.find("different rules"), std::string::npos) << it->reason;
    }
    // Two captures with the busy columns: compared, with an interval, and no direction.
    const Capture g = read_capture(test::capture("presentmon_gold_test_case_5.csv"));
    const Capture t8 = read_capture(test::capture("IPMAuxTestData_test_case_8.csv"));
    const CaptureReport rg = analyse_capture(g, {}), r8 = analyse_capture(t8, {});
    const Comparison alike = compare_captures(rg, r8, 40);
    const auto cpu =
        std::find_if(alike.figures.begin(), alike.figures.end(),
                     [](const FigureDifference& f) { return f.name == "cpu_bound_share"; });
    ASSERT_NE(cpu, alike.figures.end());
    EXPECT_TRUE(cpu->has_interval);
    EXPECT_EQ(cpu->a, rg.bottleneck.cpu_share);
    EXPECT_EQ(cpu->b, r8.bottleneck.cpu_share);
    EXPECT_TRUE(cpu->verdict == Verdict::changed || cpu->verdict == Verdict::no_significant_change);
}

// A figure the comparison resamples from frame statistics is the report's own figure: on every
// shared capture, its value from the frame statistics equals the report's (to the last bits:
// CapFrameX's low-FPS time is summed in double ms by its rule and in integer ns for resamples).
TEST(ComparisonColumns, ResampledFiguresAreTheReportsFigures) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    int checked = 0;
    for (const char* name : {"IPMAuxTestData_test_case_9_v1.csv", "presentmon_gold_test_case_5.csv",
                             "frameview_police2.csv", "ocat_metro_exodus.csv",
                             "IPMAuxTestData_F01TimeSpyDemoFS2080_gold.csv"}) {
        SCOPED_TRACE(name);
        const Capture capture = read_capture(test::capture(name));
        const CaptureReport r = analyse_capture(capture, {});
        for (const Figure* f : compared_figures()) {
            if (!f->frame_value || !f->value || figure_missing(*f, r))
                continue;
            const std::optional<double> report = f->value(r), frames = f->frame_value(r.stats);
            ASSERT_TRUE(report && frames) << f->key;
            EXPECT_NEAR(*frames, *report, 1e-12 * std::max(1.0, std::abs(*report))) << f->key;
            ++checked;
        }
    }
    EXPECT_GT(checked, 100);
}

// The intervals keep the widths of the moving-block bootstrap the comparison used before
// (tests/golden/comparison_widths.json: its widths on 23 pairs of shared captures, recorded with
// that release). Resampling alone moves a width by about 10 % either way (the old method with A
// and B swapped: new/old widths 0.89-1.19 from the 10th to the 90th percentile), so the test
// holds the median over every figure to 5 % and each pair's median to 20 %.
TEST(ComparisonColumns, IntervalWidthsMatchTheMovingBlockBootstrap) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    std::ifstream in(std::string(LOOPSCOPE_SOURCE_DIR) + "/tests/golden/comparison_widths.json");
    ASSERT_TRUE(in) << "tests/golden/comparison_widths.json";
    const nlohmann::json golden = nlohmann::json::parse(in);
    std::vector<double> all;
    int pairs = 0, possible = 0;
    for (const auto& pair : golden.at("pairs")) {
        const std::string a_name = pair.at("a"), b_name = pair.at("b");
        SCOPED_TRACE(a_name + " / " + b_name);
        const Capture ca = read_capture(test::capture(a_name));
        const Capture cb = read_capture(test::capture(b_name));
        // As `report A B` compares them: two layouts of one recording over the presents both
        // hold.
        AnalysisOptions cut_a, cut_b;
        if (const auto aligned = align_one_recording(ca, cb)) {
            cut_a.to = {RangeBound::Kind::frame, static_cast<std::int64_t>(aligned->frames_a)};
            cut_b.to = {RangeBound::Kind::frame, static_cast<std::int64_t>(aligned->frames_b)};
        }
        const CaptureReport ra = analyse_capture(ca, cut_a), rb = analyse_capture(cb, cut_b);
        // The widths were recorded when cycles of columns other than MsPCLatency counted as
        // detected frame generation and such a capture was compared on its estimated
        // application cadence; "possible" now estimates nothing, so its timeline is another.
        if (ra.generation.possible || rb.generation.possible) {
            ++possible;
            continue;
        }
        const Comparison c = compare_captures(ra, rb);
        std::vector<double> ratios;
        for (const FigureDifference& d : c.figures) {
            const auto old = pair.at("widths").find(d.name);
            if (old == pair.at("widths").end() || !d.has_interval || old->get<double>() <= 0)
                continue;
            ratios.push_back((d.high - d.low) / old->get<double>());
        }
        if (ratios.empty()) {
            // One recording in two layouts: resampled alike before and now, every width 0.
            for (const FigureDifference& d : c.figures)
                EXPECT_EQ(d.high - d.low, 0.0) << d.name;
            continue;
        }
        std::sort(ratios.begin(), ratios.end());
        const double median = ratios[ratios.size() / 2];
        EXPECT_GT(median, 0.8);
        EXPECT_LT(median, 1.2);
        all.insert(all.end(), ratios.begin(), ratios.end());
        ++pairs;
    }
    EXPECT_EQ(possible, 6);  // fv0275/0287, 0403/0433, 0441, 0627, test_case_8/9_v1, 9_v1/v2
    EXPECT_GE(pairs, 13);    // with an interval of some width
    std::sort(all.begin(), all.end());
    const double median = all[all.size() / 2];
    EXPECT_GT(median, 0.95);
    EXPECT_LT(median, 1.05);
}

TEST(ComparisonWriters, HtmlOpensWithTheComparisonAndOverlaidPlots) {
    const std::vector<std::int64_t> fa = noisy(3000, 12 * kMs, 7);
    std::vector<std::int64_t> fb = noisy(2500, 14 * kMs, 8);
    const Capture ca = make_capture(fa), cb = make_capture(fb);
    Report report;
    report.captures.push_back(analyse_capture(ca, {}));
    report.captures.push_back(analyse_capture(cb, {}));
    report.comparison = compare_captures(report.captures[0], report.captures[1], 50);
    const std::string dir = test::make_temp_dir("loopscope-comparison-html");
    const std::string path = dir + "/c.html";
    {
        OutputFile out(path);
        make_writer("html", {})->write(report, out);
        out.commit();
    }
    const std::string html = test::read_text(path);
    const auto comparison = html.find("<h2>Comparison");
    const auto capture_a = html.find("<h2>A: ");
    ASSERT_NE(comparison, std::string::npos);
    ASSERT_NE(capture_a, std::string::npos);
    EXPECT_LT(comparison, capture_a);
    // The table, then the three overlaid charts (each with A's and B's series), before A's own
    // report.
    const std::string head = html.substr(comparison, capture_a - comparison);
    EXPECT_NE(head.find("<th>verdict</th>"), std::string::npos);
    EXPECT_NE(head.find("class=\"worse\""), std::string::npos);  // B is slower
    EXPECT_NE(head.find("Frame time (present timeline): A (blue) and B (orange)"),
              std::string::npos);
    EXPECT_NE(head.find("Histogram of frame times (present timeline)"), std::string::npos);
    EXPECT_NE(head.find("Percentile curves (present timeline)"), std::string::npos);
    const auto charts = test::page_charts(head);
    ASSERT_EQ(charts.size(), 3u);
    for (const auto& chart : charts)
        EXPECT_EQ(chart.labels, (std::vector<std::string>{"A", "B"})) << chart.caption;
}

TEST(ComparisonWriters, TerminalColoursBetterAndWorse) {
    const std::vector<std::int64_t> fa = noisy(3000, 12 * kMs, 7);
    std::vector<std::int64_t> fb = fa;
    for (std::int64_t& f : fb)
        f += 2 * kMs;
    const Capture ca = make_capture(fa), cb = make_capture(fb);
    Report report;
    report.captures.push_back(analyse_capture(ca, {}));
    report.captures.push_back(analyse_capture(cb, {}));
    report.comparison = compare_captures(report.captures[0], report.captures[1], 50);
    const std::string dir = test::make_temp_dir("loopscope-comparison-term");
    for (const bool colour : {false, true}) {
        const std::string path = dir + (colour ? "/colour.txt" : "/plain.txt");
        WriterOptions options;
        options.colour = colour;
        {
            OutputFile out(path);
            make_writer("terminal", options)->write(report, out);
            out.commit();
        }
        const std::string text = test::read_text(path);
        EXPECT_NE(text.find("Compared on the present timeline"), std::string::npos);
        EXPECT_NE(text.find("worse"), std::string::npos);
        EXPECT_EQ(text.find("\033[31mworse\033[0m") != std::string::npos, colour);
    }
}

}  // namespace
}  // namespace loopscope
