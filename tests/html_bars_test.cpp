// The grouped bars of the HTML pages (writers/html_bars.*): what a chart's box carries.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "writers/html_bars.hpp"

namespace loopscope {
namespace {

TEST(HtmlBars, NoValueCanCloseTheScriptElement) {
    const std::string text = json_in_script(R"({"label":"</script><!-- a"})");
    EXPECT_EQ(text.find('<'), std::string::npos) << text;
    EXPECT_EQ(text, R"({"label":"\u003c/script>\u003c!-- a"})");
}

TEST(HtmlBars, AbsentAndNonFiniteValuesTravelAsNull) {
    BarChart chart{"fps-bars", "Average FPS </b>", "FPS", {"average FPS", "1 % low"}, {}};
    chart.rows.push_back({"run </script>", {60.5, std::nullopt}, false});
    chart.rows.push_back({"group (mean)", {std::numeric_limits<double>::infinity()}, true});
    const std::string html = html_bar_chart(chart);
    EXPECT_NE(html.find("\"values\":[60.5,null]"), std::string::npos) << html;
    // A row with fewer values than series: the missing ones are absent too.
    EXPECT_NE(html.find("\"emphasised\":true,\"values\":[null,null]"), std::string::npos) << html;
    EXPECT_EQ(html.find("run </script>"), std::string::npos) << html;
    EXPECT_NE(html.find("<figcaption>Average FPS &lt;/b&gt;</figcaption>"), std::string::npos);
    EXPECT_NE(html.find("loopscopeBars.show(\"fps-bars\")"), std::string::npos) << html;
    EXPECT_NE(html.find("id=\"fps-bars-data\""), std::string::npos) << html;
}

TEST(HtmlBars, TheSeriesKeyNamesEachSeriesInThePalettesColour) {
    const std::vector<std::string> names = {"steady-60", "<hitch>"};
    const std::string key = html_series_key(names);
    EXPECT_NE(key.find("background:#4e79a7\"></i>steady-60</span>"), std::string::npos) << key;
    EXPECT_NE(key.find("background:#f28e2b\"></i>&lt;hitch&gt;</span>"), std::string::npos) << key;
}

TEST(HtmlBars, ThePageHeadCarriesTheScriptOnce) {
    const std::string head = bars_page_head();
    EXPECT_NE(head.find("window.loopscopeBars"), std::string::npos);
    EXPECT_EQ(head.find("http"), std::string::npos);
}

}  // namespace
}  // namespace loopscope
