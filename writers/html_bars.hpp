// Grouped bar charts of the HTML pages (the summary's runs, the fleet's groups): one block of
// bars a row, one bar a series, drawn on a canvas by the page's own script (writers/html_bars.js,
// embedded in the program like the chart module's), beside the dygraphs charts of
// writers/html_chart.hpp. The values travel as JSON in the page; nothing is loaded from anywhere.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopscope {

// One block of bars: a run or a group, one value a series (none: drawn as "absent").
struct BarRow {
    std::string label;
    std::vector<std::optional<double>> values;  // one a series
    bool emphasised = false;                    // a group's mean among its runs
};

struct BarChart {
    std::string id;                   // the element's id, unique in the page
    std::string title;                // the caption above the chart
    std::string unit;                 // of every value, for the hover text
    std::vector<std::string> series;  // the series' names, in the legend and the hover text
    std::vector<BarRow> rows;
};

// The style and script the bar charts need: once per page, before the first chart.
std::string bars_page_head();

// A chart as a <figure>: its caption, legend and canvas, its data, and the call that draws it at
// load. The canvas tells screen readers the values are in the page's table: a page with bars has
// the table of their values.
std::string html_bar_chart(const BarChart& chart);

// A key of coloured series names, for a chart of the chart module (whose legend shows values only
// under the pointer): each name in series_colour(i) of writers/palette.hpp, in order; the chart's
// series take the same colours.
std::string html_series_key(std::span<const std::string> names);

// Text for a JSON document inside a page's <script> element: every '<' written \u003c (the same
// string to JSON), so no value can close the element or open a comment in it.
std::string json_in_script(std::string_view json_text);

}  // namespace loopscope
