// The pure parts of many captures: labels and their path patterns, summary rows from the
// catalogue, groups, and the regression gate's statistic.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/errors.hpp"
#include "core/analysis.hpp"
#include "core/figures.hpp"
#include "core/regression.hpp"
#include "core/summary.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"
#include "tool/option_values.hpp"

namespace loopscope {
namespace {

TEST(SummaryLabels, ParseSetAndCanonicalText) {
    EXPECT_EQ(parse_label("game=doom"), (std::pair<std::string, std::string>{"game", "doom"}));
    EXPECT_EQ(parse_label("note=a=b").second, "a=b");
    EXPECT_EQ(parse_label("empty=").second, "");
    EXPECT_THROW(parse_label("novalue"), UsageError);
    EXPECT_THROW(parse_label("=x"), UsageError);
    Labels l;
    set_label(l, "b", "1");
    set_label(l, "a", "2");
    set_label(l, "b", "3");
    ASSERT_EQ(l.size(), 2u);
    EXPECT_EQ(*find_label(l, "b"), "3");
    EXPECT_EQ(find_label(l, "c"), nullptr);
    EXPECT_EQ(labels_text(l), "a=2\nb=3\n");
}

TEST(SummaryLabels, FromPathPattern) {
    const auto p = parse_path_pattern("game/_/config/...");
    ASSERT_EQ(p.size(), 4u);
    const Labels l = labels_from_path(p, {"doom", "skipped", "dlss", "more", "deeper"});
    ASSERT_EQ(l.size(), 2u);
    EXPECT_EQ(*find_label(l, "game"), "doom");
    EXPECT_EQ(*find_label(l, "config"), "dlss");
    // Fewer folders than names: only the labels there are folders for.
    EXPECT_EQ(labels_from_path(p, {"doom"}).size(), 1u);
    EXPECT_TRUE(labels_from_path(p, {}).empty());
    EXPECT_THROW(parse_path_pattern("game//config"), UsageError);
    EXPECT_THROW(parse_path_pattern(".../game"), UsageError);
    EXPECT_THROW(parse_path_pattern(""), UsageError);
}

CaptureSummary row_of(const std::string& file, Labels labels) {
    const Capture capture = read_capture(test::test_data(file));
    const CaptureReport report = analyse_capture(capture, {});
    return summarise_capture(report, file, capture.source.format, std::move(labels));
}

TEST(SummaryRows, EveryKeyedFigureOfTheCatalogueWithItsValueOrReason) {
    const CaptureSummary row = row_of("presentmon2.csv", {{"game", "x"}});
    std::size_t keyed = 0;
    for (const Figure& f : figure_catalogue())
        keyed += !f.key.empty() && f.value != nullptr;
    EXPECT_EQ(row.figures.size(), keyed);
    const Capture capture = read_capture(test::test_data("presentmon2.csv"));
    const CaptureReport report = analyse_capture(capture, {});
    for (const SummaryFigure& f : row.figures) {
        const FigureValue v = figure_value(report, f.key);
        EXPECT_EQ(f.value.has_value(), v.has_value()) << f.key;
        if (f.value) {
            EXPECT_EQ(*f.value, *v) << f.key;
        } else {
            EXPECT_FALSE(f.absent.empty()) << f.key;
        }
    }
    // A sampled log has no per-frame figures: absent, with the reason, never 0.
    const CaptureSummary sampled = row_of("mangohud.csv", {});
    EXPECT_FALSE(sampled.figure("p99_ms").has_value());
    EXPECT_TRUE(sampled.figure("sampled_avg_fps").has_value());
    const std::vector<CaptureSummary> rows{row, sampled};
    const auto headline = headline_keys(rows);
    EXPECT_NE(std::find(headline.begin(), headline.end(), "p99_ms"), headline.end());
    EXPECT_NE(std::find(headline.begin(), headline.end(), "avg_fps"), headline.end());
    EXPECT_EQ(std::find(headline.begin(), headline.end(), "p90_ms"), headline.end());
    const auto all = present_keys(rows);
    EXPECT_NE(std::find(all.begin(), all.end(), "p90_ms"), all.end());
}

TEST(SummaryGroups, MeanOfTheGroupsCapturesAndFailedCounted) {
    std::vector<CaptureSummary> rows;
    rows.push_back(row_of("presentmon2.csv", {{"game", "a"}}));
    rows.push_back(row_of("presentmon1.csv", {{"game", "a"}}));
    rows.push_back(row_of("ocat.csv", {{"game", "b"}}));
    CaptureSummary bad;
    bad.file = "bad.csv";
    bad.labels = {{"game", "b"}};
    bad.error = "bad.csv:3:1: broken";
    rows.push_back(bad);
    rows.push_back(row_of("plain.txt", {}));
    const auto groups = group_summaries(rows, {"game"});
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(*find_label(groups[0].labels, "game"), "a");
    EXPECT_EQ(groups[0].captures, 2u);
    EXPECT_EQ(groups[0].failed, 0u);
    const double mean = (*rows[0].figure("avg_fps") + *rows[1].figure("avg_fps")) / 2;
    EXPECT_DOUBLE_EQ(*groups[0].figure("avg_fps"), mean);
    EXPECT_EQ(groups[1].captures, 2u);
    EXPECT_EQ(groups[1].failed, 1u);
    EXPECT_DOUBLE_EQ(*groups[1].figure("avg_fps"), *rows[2].figure("avg_fps"));
    EXPECT_EQ(*find_label(groups[2].labels, "game"), "");  // a capture without the label
}

TEST(FigureDirection, EveryFpsHigherEveryMsLowerCountsUnknown) {
    for (const Figure& f : figure_catalogue()) {
        if (f.key.empty())
            continue;
        if (f.unit == "FPS") {
            EXPECT_EQ(figure_better(f), Better::higher) << f.key;
        }
        if (f.unit == "ms" && f.key != "headroom_ms") {
            EXPECT_EQ(figure_better(f), Better::lower) << f.key;
        }
    }
    EXPECT_EQ(figure_better(*find_figure("frames")), Better::unknown);
    EXPECT_EQ(figure_better(*find_figure("refresh_hz")), Better::unknown);
    EXPECT_EQ(figure_better(*find_figure("stutter_time_share")), Better::lower);
    EXPECT_EQ(figure_better(*find_figure("headroom_ms")), Better::higher);
}

TEST(RegressionGate, ParsesFigureAndTolerance) {
    const RegressionCheck a = parse_regression_check("p99_ms");
    EXPECT_EQ(a.figure, "p99_ms");
    EXPECT_EQ(a.tolerance, 0);
    const RegressionCheck b = parse_regression_check("avg_fps:3%");
    EXPECT_TRUE(b.relative);
    EXPECT_DOUBLE_EQ(b.tolerance, 0.03);
    const RegressionCheck c = parse_regression_check("p99_ms:0.5");
    EXPECT_FALSE(c.relative);
    EXPECT_DOUBLE_EQ(c.tolerance, 0.5);
    EXPECT_THROW(parse_regression_check("p98_ms"), UsageError);
    EXPECT_THROW(parse_regression_check("frames"), UsageError);  // no direction
    EXPECT_THROW(parse_regression_check("p99_ms:"), UsageError);
    EXPECT_THROW(parse_regression_check("p99_ms:-1"), UsageError);
    EXPECT_THROW(parse_regression_check("p99_ms:1x"), UsageError);
}

TEST(RegressionGate, StudentQuantiles) {
    EXPECT_NEAR(student_t_975(1), 12.706, 1e-3);
    EXPECT_NEAR(student_t_975(4), 2.776, 1e-3);
    EXPECT_NEAR(student_t_975(30), 2.042, 1e-3);
    EXPECT_NEAR(student_t_975(40), 2.0211, 2e-4);
    EXPECT_NEAR(student_t_975(120), 1.9799, 2e-4);
    EXPECT_NEAR(student_t_975(100000), 1.95998, 1e-4);
}

TEST(RegressionGate, PredictionIntervalOfOneNewRun) {
    const std::vector<double> base{16.0, 16.4, 15.8, 16.2, 16.1};  // mean 16.1
    const RegressionCheck p99 = parse_regression_check("p99_ms");
    // The interval by hand: sd of the five, t(0.975, 4) sqrt(1 + 1/5).
    double ss = 0;
    for (const double v : base)
        ss += (v - 16.1) * (v - 16.1);
    const double sd = std::sqrt(ss / 4);
    const double half = 2.7764 * sd * std::sqrt(1.2);
    const RegressionResult slow = test_regression(p99, 16.1 * 1.25, base);
    EXPECT_NEAR(slow.baseline_mean, 16.1, 1e-12);
    EXPECT_NEAR(slow.baseline_sd, sd, 1e-12);
    EXPECT_NEAR(slow.change, 16.1 * 0.25, 1e-9);
    EXPECT_NEAR(slow.change_high - slow.change_low, 2 * half, 1e-9);
    EXPECT_TRUE(slow.regressed);
    EXPECT_NE(slow.message.find("regressed"), std::string::npos);
    // Within the runs' own spread: not significant, not a regression.
    EXPECT_FALSE(test_regression(p99, 16.5, base).regressed);
    // Better (lower) is never a regression.
    EXPECT_FALSE(test_regression(p99, 12.0, base).regressed);
    // Significant but within a tolerance of 30 %: not a regression.
    EXPECT_FALSE(
        test_regression(parse_regression_check("p99_ms:30%"), 16.1 * 1.25, base).regressed);
    // Higher is better for FPS: a drop regresses, a rise does not.
    const std::vector<double> fps{60.0, 61.0, 59.5, 60.5, 60.0};
    const RegressionCheck avg = parse_regression_check("avg_fps");
    EXPECT_TRUE(test_regression(avg, 48.0, fps).regressed);
    EXPECT_FALSE(test_regression(avg, 75.0, fps).regressed);
    // Noisier runs widen the interval: the same change is no longer significant.
    const std::vector<double> noisy{12.0, 20.0, 14.0, 19.0, 15.5};
    EXPECT_FALSE(test_regression(p99, 20.1, noisy).regressed);
}

}  // namespace
}  // namespace loopscope
