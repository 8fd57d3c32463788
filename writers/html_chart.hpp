// The chart module of the HTML pages: interactive charts drawn by dygraphs (Debian's
// libjs-dygraphs 2.2.1, embedded in the program at build time) and the module's own script
// (writers/html_chart.js). Every page inlines both, with dygraphs' licence, so it opens offline
// and alone and loads nothing from the network.
//
// A page puts chart_page_head() in its <head> once, then one chart_html(chart) per chart. Each
// chart is a <figure> with a <div> the script draws into, its data as compact JSON (the x values
// and every series as base64 little-endian integers of the smallest width that holds them, in a
// unit stated beside them: values, steps from the value before, or only the rows that have a
// value, whichever is smallest) and the call that draws it at load. Zoom: drag; pan: shift-drag;
// reset: double-click. The script redoes the min/max per pixel column of every series on every
// zoom and pan, so a one-frame spike is drawn at every zoom and every row is drawn once there
// are fewer rows than pixel columns.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace loopscope {

// The dygraphs version the program carries, read from the library's own header comment.
std::string_view dygraphs_version();

// What a page's <head> holds for its charts: dygraphs' style sheet, the module's style, then one
// <script> with dygraphs' licence, the library and the chart module's script. Once per page.
std::string chart_page_head();

// A value a chart does not have at a row (a frame without a latency): a gap in its line.
inline constexpr double kChartNoValue = std::numeric_limits<double>::quiet_NaN();

enum class ChartDraw {
    line,    // points joined by straight lines
    steps,   // each value held level until the next x (frame times, histograms)
    points,  // dots only
    bars,    // a bar from 0 at each x (categories: runs, groups); series side by side
    hidden,  // not drawn; its value at the hovered row is shown in the legend
};

// What a chart's rows keep when there are many of them.
enum class ChartKeep {
    // Every row, whatever their number (the frame-time series of a report).
    every_row,
    // Every row up to kChartRowsKeptWhole rows; beyond, only the rows holding each series' min
    // and max in each of kChartKeptColumns equal slices of the x range (a secondary series of a
    // million-frame capture: its spikes stay, its hover values between them go).
    columns,
};
inline constexpr std::size_t kChartRowsKeptWhole = 250'000;
inline constexpr std::size_t kChartKeptColumns = 8'192;

struct ChartSeries {
    std::string label;
    std::vector<double> values;  // one per x value of the chart; kChartNoValue where none
    // The smallest difference the chart must keep, in the values' unit (1e-6 for ms kept to the
    // ns): the values are sent as integers of this unit, or of a power of ten times it when
    // their range needs more than 32 bits.
    double resolution = 1e-6;
    ChartDraw draw = ChartDraw::line;
    std::string colour;  // CSS colour; empty: the module's palette, in series order
    // Names for integer values in the hover legend (values[i] == k shows value_names[k]): a
    // displayed-or-not series holds 0 and 1 with {"no", "yes"}.
    std::vector<std::string> value_names;
    // On the second y axis (right), for a series of another unit.
    bool right_axis = false;
    // columns: this series' values only at the rows holding its min and max in each of
    // kChartKeptColumns equal slices of the x range when the chart has more than
    // kChartRowsKeptWhole rows (an application timeline beside a million-frame present one).
    ChartKeep keep = ChartKeep::every_row;
};

// A marked point (a hitch): a red ring at (x, y), its text in the legend when the hovered row
// is at x. id: a name the page's links zoom to (chart_zoom_link); empty when none.
struct ChartMark {
    double x = 0;
    double y = 0;
    std::string text;
    std::string id;
    double zoom_x0 = 0, zoom_x1 = 0;  // the x range a link to this mark zooms to
};

// A shaded span of x (the start-up segment), its label in the corner of the span.
struct ChartBand {
    double x0 = 0, x1 = 0;
    std::string label;
};

// A horizontal line at y (the frame-time budget), its label at the right.
struct ChartRule {
    double y = 0;
    std::string label;
};

// A vertical line at x (the loop's onset of trouble), its label at the top.
struct ChartEvent {
    double x = 0;
    std::string label;
};

struct Chart {
    std::string id;     // unique in the page: the DOM id of the chart's <div>
    std::string title;  // the caption, above the chart (plain text, escaped by the module)
    std::string x_label, y_label, y2_label;
    // The x value of each row, increasing (equal values allowed). With x_names, x holds
    // 0, 1, 2 ... and the axis and the legend show the names (runs, groups).
    std::vector<double> x;
    double x_resolution = 1e-9;  // as ChartSeries::resolution, for x (seconds kept to the ns)
    std::vector<std::string> x_names;
    // The legend's name for a row: "frame" shows "frame N" with N = row_number_base + the row's
    // index (frame numbers of a contiguous range); empty: none.
    std::string row_name;
    std::int64_t row_number_base = 0;
    std::vector<ChartSeries> series;
    ChartKeep keep = ChartKeep::every_row;  // the rows (x and every series) kept
    std::vector<ChartMark> marks;
    std::vector<ChartBand> bands;
    std::vector<ChartRule> rules;
    std::vector<ChartEvent> events;
    // Charts of a page with the same non-empty x_group zoom and pan together (a capture's
    // frame-time and latency charts, on one time axis).
    std::string x_group;
    // The y axis at load: [y_min, y_max] when y_max > y_min (a frame-time axis fitted to the
    // 99.9th percentile; the longer frames rise off the top), else fitted to the data.
    double y_min = 0, y_max = 0;
    bool y_log = false;
    int height_px = 300;
};

// The chart as HTML: <figure><figcaption>title</figcaption><div id=...></div> its data and the
// call that draws it when the page has loaded. Needs chart_page_head() in the page.
std::string chart_html(const Chart& chart);

// An onclick attribute for a link or a table row that zooms the chart `chart_id` to the x range
// of its mark `mark_id` and scrolls the chart into view.
std::string chart_zoom_link(std::string_view chart_id, std::string_view mark_id);

}  // namespace loopscope
