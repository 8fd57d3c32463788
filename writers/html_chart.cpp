#include "writers/html_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "writers/palette.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace embedded {
extern const std::string_view dygraphs_js;
extern const std::string_view dygraphs_css;
extern const std::string_view dygraphs_licence;
extern const std::string_view chart_js;
}  // namespace embedded

namespace {

constexpr std::string_view kChartStyle =
    ".lsc-fig{margin:1em 0}.lsc-fig figcaption{font-weight:600}"
    ".lsc-chart{width:100%;max-width:1100px}"
    ".lsc-legend{font-size:12px;min-height:2.6em;color:#333;max-width:1100px}"
    ".lsc-legend .lsc-mark{color:#c00;font-weight:600}"
    ".lsc-help{font-size:11px;color:#777}"
    "tr[onclick]{cursor:pointer}tr[onclick]:hover{background:#eef4fb}\n";

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64(const std::vector<unsigned char>& bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
        out += kBase64[(v >> 18) & 63];
        out += kBase64[(v >> 12) & 63];
        out += kBase64[(v >> 6) & 63];
        out += kBase64[v & 63];
    }
    if (i < bytes.size()) {
        const unsigned v = (bytes[i] << 16) | (i + 1 < bytes.size() ? bytes[i + 1] << 8 : 0);
        out += kBase64[(v >> 18) & 63];
        out += kBase64[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? kBase64[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

// Integers sent to the page: little-endian, of the smallest width (1, 2 or 4 bytes) whose range
// holds them; that width's lowest value means "no value".
struct PackedInts {
    int width = 1;
    std::string data;
};

constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min();

// The range of integers to send, and the smallest width that holds it beside its "no value"
// code (the width's lowest value).
struct IntRange {
    std::int64_t lo = 0, hi = 0;
    bool any = false;
    void add(std::int64_t v) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        any = true;
    }
    bool empty() const { return !any; }
    std::size_t width() const {
        return lo > -128 && hi < 128 ? 1 : lo > -32768 && hi < 32768 ? 2 : 4;
    }
};

int width_of(const std::vector<std::int64_t>& v) {
    IntRange r;
    for (const std::int64_t x : v)
        if (x != kNone)
            r.add(x);
    return static_cast<int>(r.width());
}

PackedInts pack(const std::vector<std::int64_t>& v) {
    PackedInts p;
    p.width = width_of(v);
    const std::int64_t none = p.width == 1 ? -128 : p.width == 2 ? -32768 : INT32_MIN;
    std::vector<unsigned char> bytes;
    bytes.reserve(v.size() * static_cast<std::size_t>(p.width));
    for (const std::int64_t x : v) {
        const auto u = static_cast<std::uint32_t>(static_cast<std::int32_t>(x == kNone ? none : x));
        for (int b = 0; b < p.width; ++b)
            bytes.push_back(static_cast<unsigned char>(u >> (8 * b)));
    }
    p.data = base64(bytes);
    return p;
}

// The values as integers of `unit` = resolution × 10^k, the smallest k whose integers fit in
// 32 bits (beside the "no value" code).
std::vector<std::int64_t> quantize(std::span<const double> values, double resolution,
                                   double& unit) {
    double top = 0;
    for (const double v : values)
        if (std::isfinite(v))
            top = std::max(top, std::abs(v));
    unit = resolution > 0 ? resolution : 1.0;
    while (top / unit > 2.0e9)
        unit *= 10;
    std::vector<std::int64_t> q(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        q[i] = std::isfinite(values[i]) ? std::llround(values[i] / unit) : kNone;
    return q;
}

// x as differences from the row before (the first from 0), so that a long capture's times,
// which pass 2^31 ns after two seconds, stay 32-bit integers of 1 ns; the unit grows tenfold
// when one difference does not fit (a gap of seconds between two rows).
std::vector<std::int64_t> x_steps(std::span<const double> x, double resolution, double& unit,
                                  std::int64_t& first) {
    unit = resolution > 0 ? resolution : 1.0;
    for (;;) {
        std::vector<std::int64_t> d(x.size());
        std::int64_t previous = x.empty() ? 0 : std::llround(x[0] / unit);
        first = previous;
        bool fits = true;
        for (std::size_t i = 0; i < x.size() && fits; ++i) {
            const std::int64_t q = std::llround(x[i] / unit);
            d[i] = q - previous;
            previous = q;
            fits = d[i] > INT32_MIN && d[i] <= INT32_MAX;
        }
        if (fits)
            return d;
        unit *= 10;
    }
}

// A series' values as JSON members: "unit", then the integers in the smallest of three forms:
// one a row ("d"); one a row as the step from the row's value before ("delta": frame numbers
// take a byte each); or only the rows with a value ("at": the steps between those rows), for a
// series with few values (generated frames apart from the others). `rows`, when given, are the
// only rows sent (the "at" form).
std::string series_data(std::span<const double> values, double resolution,
                        const std::vector<std::size_t>* rows) {
    double unit = 1;
    const std::vector<std::int64_t> q = quantize(values, resolution, unit);
    // The three forms' sizes first, from the ranges of what each would hold; then only the
    // chosen one is built (a million-frame series is 8 MB a copy).
    IntRange value_range, step_range, delta_range;
    std::size_t sent = 0;
    std::size_t previous_row = 0;
    std::int64_t start = 0;
    std::int64_t previous = 0;
    const auto visit = [&](std::size_t i) {
        step_range.add(static_cast<std::int64_t>(i - previous_row));
        previous_row = i;
        ++sent;
        if (q[i] == kNone)
            return;
        value_range.add(q[i]);
        if (sent == 1 || delta_range.empty())
            start = previous = q[i];
        delta_range.add(q[i] - previous);
        previous = q[i];
    };
    if (rows != nullptr) {
        for (const std::size_t i : *rows)
            visit(i);
    } else {
        for (std::size_t i = 0; i < q.size(); ++i)
            if (q[i] != kNone)
                visit(i);
    }
    const auto n = q.size();
    const std::size_t sparse_bytes = sent * (step_range.width() + value_range.width());
    const std::size_t dense_bytes = n * value_range.width();
    const std::size_t delta_bytes = n * delta_range.width();
    if (rows != nullptr || sparse_bytes < std::min(dense_bytes, delta_bytes)) {
        std::vector<std::int64_t> at_steps, at_values;
        at_steps.reserve(sent);
        at_values.reserve(sent);
        std::size_t last = 0;
        const auto take = [&](std::size_t i) {
            at_steps.push_back(static_cast<std::int64_t>(i - last));
            at_values.push_back(q[i]);
            last = i;
        };
        if (rows != nullptr) {
            for (const std::size_t i : *rows)
                take(i);
        } else {
            for (std::size_t i = 0; i < n; ++i)
                if (q[i] != kNone)
                    take(i);
        }
        const PackedInts v = pack(at_values);
        const PackedInts a = pack(at_steps);
        return fmt::format(R"("unit":{},"w":{},"d":"{}","at":{{"w":{},"d":"{}"}})", unit, v.width,
                           v.data, a.width, a.data);
    }
    if (delta_bytes < dense_bytes) {
        std::vector<std::int64_t> delta(n, kNone);
        std::int64_t last = start;
        for (std::size_t i = 0; i < n; ++i) {
            if (q[i] == kNone)
                continue;
            delta[i] = q[i] - last;
            last = q[i];
        }
        const PackedInts v = pack(delta);
        return fmt::format(R"("unit":{},"w":{},"d":"{}","delta":true,"first":{})", unit, v.width,
                           v.data, start);
    }
    const PackedInts v = pack(q);
    return fmt::format(R"("unit":{},"w":{},"d":"{}")", unit, v.width, v.data);
}

// The rows holding each series' min and max in each of `columns` equal slices of x, with the
// first and last row: what a min/max per pixel column drawing of those columns needs.
std::vector<std::size_t> column_rows(const std::vector<double>& x,
                                     const std::vector<const std::vector<double>*>& series,
                                     std::size_t columns) {
    const std::size_t n = x.size();
    std::vector<char> keep(n, 0);
    keep[0] = keep[n - 1] = 1;
    const double x0 = x.front();
    const double span = std::max(x.back() - x0, 1e-300);
    for (const std::vector<double>* v : series) {
        std::size_t i = 0;
        while (i < n) {
            const auto col =
                static_cast<std::size_t>(std::min((x[i] - x0) / span * static_cast<double>(columns),
                                                  static_cast<double>(columns - 1)));
            std::size_t lo = n, hi = n;
            std::size_t j = i;
            for (; j < n; ++j) {
                const auto c = static_cast<std::size_t>(
                    std::min((x[j] - x0) / span * static_cast<double>(columns),
                             static_cast<double>(columns - 1)));
                if (c != col)
                    break;
                const double y = (*v)[j];
                if (!std::isfinite(y))
                    continue;
                if (lo == n || y < (*v)[lo])
                    lo = j;
                if (hi == n || y > (*v)[hi])
                    hi = j;
            }
            if (lo != n)
                keep[lo] = keep[hi] = 1;
            i = j;
        }
    }
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < n; ++i)
        if (keep[i])
            rows.push_back(i);
    return rows;
}

std::string_view draw_name(ChartDraw d) {
    switch (d) {
        case ChartDraw::line:
            return "line";
        case ChartDraw::steps:
            return "steps";
        case ChartDraw::points:
            return "points";
        case ChartDraw::bars:
            return "bars";
        case ChartDraw::hidden:
            return "hidden";
    }
    return "line";
}

std::string number(double v) {
    return std::isfinite(v) ? fmt::format("{}", v) : "null";
}

std::string string_list(const std::vector<std::string>& names) {
    std::string s = "[";
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            s += ',';
        s += json_string(names[i]);
    }
    s += ']';
    return s;
}

// JSON inside <script>: "<" only occurs inside strings, where \u003c means the same and cannot
// close the element.
std::string script_safe(std::string json) {
    std::string out;
    out.reserve(json.size());
    for (const char c : json) {
        if (c == '<')
            out += "\\u003c";
        else
            out += c;
    }
    return out;
}

}  // namespace

std::string_view dygraphs_version() {
    // The library opens with "/*! @license https://github.com/danvk/dygraphs/blob/vX.Y.Z/...".
    const std::string_view js = embedded::dygraphs_js;
    const auto at = js.substr(0, 200).find("/blob/v");
    if (at == std::string_view::npos)
        return "unknown";
    const auto start = at + 7;
    const auto end = js.find('/', start);
    return end == std::string_view::npos ? "unknown" : js.substr(start, end - start);
}

std::string chart_page_head() {
    std::string head;
    head.reserve(embedded::dygraphs_css.size() + embedded::dygraphs_js.size() +
                 embedded::dygraphs_licence.size() + embedded::chart_js.size() + 256);
    head += "<style>\n";
    head += embedded::dygraphs_css;
    head += kChartStyle;
    head += "</style>\n<script>\n/*! dygraphs ";
    head += dygraphs_version();
    head += " (Debian libjs-dygraphs), its licence:\n";
    head += embedded::dygraphs_licence;
    head += "*/\n";
    head += embedded::dygraphs_js;
    head += "\n";
    head += embedded::chart_js;
    head += "</script>\n";
    return head;
}

std::string chart_html(const Chart& chart) {
    // The rows sent: all, or for a chart that keeps columns and has many rows, those holding
    // each series' extremes per column.
    const std::vector<double>* x = &chart.x;
    std::vector<const std::vector<double>*> values;
    for (const ChartSeries& s : chart.series)
        values.push_back(&s.values);
    std::vector<double> kept_x;
    std::vector<std::vector<double>> kept_values;
    if (chart.keep == ChartKeep::columns && chart.x.size() > kChartRowsKeptWhole) {
        const std::vector<std::size_t> rows = column_rows(chart.x, values, kChartKeptColumns);
        for (const std::size_t i : rows)
            kept_x.push_back(chart.x[i]);
        for (const std::vector<double>* v : values) {
            kept_values.emplace_back();
            for (const std::size_t i : rows)
                kept_values.back().push_back((*v)[i]);
        }
        x = &kept_x;
        for (std::size_t k = 0; k < values.size(); ++k)
            values[k] = &kept_values[k];
    }

    std::string j = "{";
    double x_unit = 1;
    std::int64_t x_first = 0;
    const PackedInts xs = pack(x_steps(*x, chart.x_resolution, x_unit, x_first));
    j += fmt::format(R"("n":{},"x":{{"unit":{},"first":{},"w":{},"d":"{}"}})", x->size(), x_unit,
                     x_first, xs.width, xs.data);
    if (!chart.x_names.empty())
        j += ",\"xNames\":" + string_list(chart.x_names);
    if (!chart.x_group.empty())
        j += ",\"group\":" + json_string(chart.x_group);
    if (!chart.row_name.empty())
        j += fmt::format(",\"rowName\":{},\"rowBase\":{}", json_string(chart.row_name),
                         chart.row_number_base);
    j += ",\"series\":[";
    for (std::size_t k = 0; k < chart.series.size(); ++k) {
        const ChartSeries& s = chart.series[k];
        const std::vector<double>& v = *values[k];
        std::vector<std::size_t> rows;
        if (s.keep == ChartKeep::columns && v.size() > kChartRowsKeptWhole)
            rows = column_rows(*x, {&v}, kChartKeptColumns);
        j += fmt::format(R"({}{{"label":{},{},"draw":"{}")", k ? "," : "", json_string(s.label),
                         series_data(v, s.resolution, rows.empty() ? nullptr : &rows),
                         draw_name(s.draw));
        j += ",\"colour\":" +
             json_string(s.colour.empty() ? std::string(series_colour(k)) : s.colour);
        if (!s.value_names.empty())
            j += ",\"names\":" + string_list(s.value_names);
        if (s.right_axis)
            j += ",\"right\":true";
        j += "}";
    }
    j += "],\"marks\":[";
    for (std::size_t k = 0; k < chart.marks.size(); ++k) {
        const ChartMark& m = chart.marks[k];
        j += fmt::format(R"({}{{"x":{},"y":{},"text":{},"id":{},"z0":{},"z1":{}}})", k ? "," : "",
                         number(m.x), number(m.y), json_string(m.text), json_string(m.id),
                         number(m.zoom_x0), number(m.zoom_x1));
    }
    j += "],\"bands\":[";
    for (std::size_t k = 0; k < chart.bands.size(); ++k) {
        const ChartBand& b = chart.bands[k];
        j += fmt::format(R"({}{{"x0":{},"x1":{},"label":{}}})", k ? "," : "", number(b.x0),
                         number(b.x1), json_string(b.label));
    }
    j += "],\"rules\":[";
    for (std::size_t k = 0; k < chart.rules.size(); ++k) {
        j += fmt::format(R"({}{{"y":{},"label":{}}})", k ? "," : "", number(chart.rules[k].y),
                         json_string(chart.rules[k].label));
    }
    j += "],\"events\":[";
    for (std::size_t k = 0; k < chart.events.size(); ++k) {
        j += fmt::format(R"({}{{"x":{},"label":{}}})", k ? "," : "", number(chart.events[k].x),
                         json_string(chart.events[k].label));
    }
    j += fmt::format(R"(],"xLabel":{},"yLabel":{},"y2Label":{},"yMin":{},"yMax":{},"yLog":{}}})",
                     json_string(chart.x_label), json_string(chart.y_label),
                     json_string(chart.y2_label), number(chart.y_min), number(chart.y_max),
                     chart.y_log ? "true" : "false");

    const std::string id = html_escape(chart.id);
    return fmt::format(
        "<figure class=\"lsc-fig\"><figcaption>{}</figcaption>\n"
        "<div id=\"{}\" class=\"lsc-chart\" style=\"height:{}px\"></div>"
        "<div id=\"{}-legend\" class=\"lsc-legend\"></div>\n"
        "<script type=\"application/json\" id=\"{}-data\">{}</script>\n"
        "<script>loopscopeCharts.draw({});</script></figure>\n",
        html_escape(chart.title), id, chart.height_px, id, id, script_safe(std::move(j)),
        script_safe(json_string(chart.id)));
}

std::string chart_zoom_link(std::string_view chart_id, std::string_view mark_id) {
    return fmt::format(" onclick=\"loopscopeCharts.zoomTo({}, {})\"",
                       html_escape(json_string(chart_id)), html_escape(json_string(mark_id)));
}

}  // namespace loopscope
