// The chart module carries dygraphs whole, with its licence, in the program itself, and writes
// each chart's data compactly and exactly: read back as the page's script reads it, every value
// is the one given (to the series' resolution), and a chart that keeps columns keeps every spike.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/chart_data.hpp"
#include "tests/test_support.hpp"
#include "writers/html_chart.hpp"

namespace loopscope {
namespace {

TEST(ChartModule, ThePageHeadCarriesDygraphsAndItsLicence) {
    const std::string head = chart_page_head();
    EXPECT_NE(dygraphs_version(), "unknown");
    EXPECT_NE(head.find("dygraphs " + std::string(dygraphs_version())), std::string::npos);
    EXPECT_NE(head.find("Permission is hereby granted"), std::string::npos);
    EXPECT_NE(head.find("window.loopscopeCharts"), std::string::npos);
    // No element of the page may end early: the library holds no closing script tag.
    EXPECT_EQ(head.find("</script>"), head.rfind("</script>"));
    const std::string installed = "/usr/share/javascript/dygraphs/dygraph.min.js";
    if (!std::filesystem::exists(installed))
        GTEST_SKIP() << installed << " is not installed here (the build took it from elsewhere)";
    EXPECT_NE(head.find(test::read_text(installed)), std::string::npos)
        << "the embedded library differs from the installed one";
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

TEST(ChartModule, ValuesReadBackAsGivenInTheSmallestWidth) {
    Chart chart;
    chart.id = "c";
    chart.title = "t";
    for (int i = 0; i < 1000; ++i)
        chart.x.push_back(1.5 + i * 0.016666667);
    ChartSeries ms;
    ms.label = "ms";
    ChartSeries flag;
    flag.label = "flag";
    flag.resolution = 1;
    flag.value_names = {"no", "yes"};
    for (int i = 0; i < 1000; ++i) {
        ms.values.push_back(i == 7 ? kChartNoValue : 16.666667 + (i % 13) * 0.001234567);
        flag.values.push_back(i % 3 == 0 ? 0 : 1);
    }
    chart.series = {ms, flag};
    const auto charts = test::page_charts(chart_html(chart));
    ASSERT_EQ(charts.size(), 1u);
    const auto& c = charts[0];
    ASSERT_EQ(c.x.size(), 1000u);
    for (std::size_t i = 0; i < 1000; ++i) {
        EXPECT_NEAR(c.x[i], chart.x[i], 0.5e-9) << i;
        if (i == 7)
            EXPECT_TRUE(std::isnan(c.series[0][i]));
        else
            EXPECT_NEAR(c.series[0][i], ms.values[i], 0.5e-6) << i;
        EXPECT_EQ(c.series[1][i], flag.values[i]) << i;
    }
    // Steps of at most 13 × 1,235 ns between neighbours: two bytes each.
    EXPECT_EQ(c.json["series"][0]["w"], 2);
    EXPECT_EQ(c.json["series"][0].value("delta", false), true);
    EXPECT_EQ(c.json["series"][1]["w"], 1);  // 0 and 1 fit a byte
    EXPECT_EQ(c.json["series"][1]["names"][1], "yes");
}

TEST(ChartModule, EachSeriesTakesItsSmallestForm) {
    // Frame numbers with gaps: steps of 1 or 2, a byte each. A series with a value on every
    // tenth row: those rows only. Frame times: one 32-bit integer a row.
    Chart chart;
    chart.id = "forms";
    ChartSeries numbers, sparse, times;
    numbers.label = "frame";
    numbers.resolution = 1;
    sparse.label = "sparse";
    times.label = "times";
    for (int i = 0; i < 5000; ++i) {
        chart.x.push_back(i * 0.01);
        numbers.values.push_back(1'000'000 + i + i / 3);
        sparse.values.push_back(i % 10 == 0 ? 20.0 + i % 7 : kChartNoValue);
        times.values.push_back(10.0 + (i * 7919 % 1000) * 0.001);
    }
    chart.series = {numbers, sparse, times};
    const auto c = test::page_charts(chart_html(chart)).at(0);
    EXPECT_EQ(c.json["series"][0].value("delta", false), true);
    EXPECT_EQ(c.json["series"][0]["w"], 1);
    EXPECT_TRUE(c.json["series"][1].contains("at"));
    EXPECT_FALSE(c.json["series"][2].contains("at"));
    EXPECT_EQ(c.json["series"][2].value("delta", false), false);
    for (std::size_t k = 0; k < 3; ++k) {
        for (std::size_t i = 0; i < 5000; ++i) {
            const double want = chart.series[k].values[i];
            if (std::isnan(want))
                EXPECT_TRUE(std::isnan(c.series[k][i])) << k << " " << i;
            else
                EXPECT_NEAR(c.series[k][i], want, 0.5e-6) << k << " " << i;
        }
    }
}

TEST(ChartModule, AGapOfSecondsCoarsensTheXUnitOnly) {
    Chart chart;
    chart.id = "gap";
    chart.x = {0.0, 0.016, 5.016, 5.032};  // 5 s between two rows: past 2^31 ns
    ChartSeries v;
    v.label = "v";
    v.values = {16, 5000, 16, 16};
    chart.series = {v};
    const auto c = test::page_charts(chart_html(chart)).at(0);
    EXPECT_DOUBLE_EQ(c.json["x"]["unit"].get<double>(), 1e-8);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_NEAR(c.x[i], chart.x[i], 0.5e-8);
        EXPECT_NEAR(c.series[0][i], v.values[i], 0.5e-6);
    }
}

TEST(ChartModule, KeepingColumnsKeepsEverySpike) {
    // 400,000 rows, past kChartRowsKeptWhole: a series that keeps columns sends its min and max
    // per column only, and each one-row spike (up or down) is among them.
    const std::size_t n = 400'000;
    Chart chart;
    chart.id = "big";
    ChartSeries whole;
    whole.label = "whole";
    ChartSeries cols;
    cols.label = "columns";
    cols.keep = ChartKeep::columns;
    const std::vector<std::size_t> spikes = {3, 77'777, 200'001, 399'998};
    for (std::size_t i = 0; i < n; ++i) {
        chart.x.push_back(static_cast<double>(i) * 0.004);
        whole.values.push_back(4.0 + static_cast<double>(i % 7) * 0.01);
        cols.values.push_back(whole.values.back());
    }
    for (const std::size_t i : spikes)
        cols.values[i] = i % 2 ? 0.5 : 90.0;
    chart.series = {whole, cols};
    const std::string html = chart_html(chart);
    const auto c = test::page_charts(html).at(0);
    ASSERT_EQ(c.series[0].size(), n);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < n; ++i) {
        EXPECT_NEAR(c.series[0][i], whole.values[i], 0.5e-6);
        if (!std::isnan(c.series[1][i])) {
            ++kept;
            EXPECT_NEAR(c.series[1][i], cols.values[i], 0.5e-6);
        }
    }
    for (const std::size_t i : spikes)
        EXPECT_NEAR(c.series[1][i], cols.values[i], 0.5e-6) << i;
    EXPECT_LE(kept, 2 * kChartKeptColumns + 2);
    EXPECT_GE(kept, kChartKeptColumns);

    // A chart that keeps columns sends only those rows, x and all.
    chart.keep = ChartKeep::columns;
    chart.series = {cols};
    const auto r = test::page_charts(chart_html(chart)).at(0);
    EXPECT_LE(r.x.size(), 2 * kChartKeptColumns + 2);
    for (const std::size_t i : spikes) {
        const auto at = std::find_if(r.x.begin(), r.x.end(),
                                     [&](double x) { return std::abs(x - chart.x[i]) < 1e-9; });
        ASSERT_NE(at, r.x.end()) << i;
        EXPECT_NEAR(r.series[0][static_cast<std::size_t>(at - r.x.begin())], cols.values[i],
                    0.5e-6);
    }
}

TEST(ChartModule, TextCannotCloseTheDataElement) {
    Chart chart;
    chart.id = "x\"y";
    chart.title = "a <b> & </script>";
    chart.x = {0, 1};
    ChartSeries v;
    v.label = "</script><script>alert(1)</script>";
    v.values = {1, 2};
    chart.series = {v};
    ChartMark m;
    m.text = "</SCRIPT>";
    chart.marks = {m};
    const std::string html = chart_html(chart);
    // The data element and the call that draws: two scripts, two closing tags.
    EXPECT_EQ(count_of(html, "</script>"), 2u) << html;
    EXPECT_EQ(count_of(html, "</SCRIPT>"), 0u);
    EXPECT_NE(html.find("<figcaption>a &lt;b&gt; &amp; &lt;/script&gt;</figcaption>"),
              std::string::npos);
    const auto c = test::page_charts(html).at(0);
    EXPECT_EQ(c.labels[0], v.label);
    EXPECT_EQ(c.json["marks"][0]["text"], "</SCRIPT>");
    EXPECT_EQ(chart_zoom_link("a", "h1"),
              " onclick=\"loopscopeCharts.zoomTo(&quot;a&quot;, &quot;h1&quot;)\"");
}

}  // namespace
}  // namespace loopscope
