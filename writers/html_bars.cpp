// Grouped bar charts of the HTML pages (see html_bars.hpp).
#include "writers/html_bars.hpp"

#include <fmt/format.h>

#include <string>

#include "writers/palette.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace embedded {
extern const std::string_view bars_js;
}  // namespace embedded

namespace {

constexpr std::string_view kBarsStyle =
    ".bars-fig{margin:1em 0}.bars-fig figcaption{font-weight:600}"
    ".bars{position:relative;max-width:1100px;margin:.3em 0 1em}"
    ".bars canvas{display:block}"
    ".bars-key{font-size:12px;margin:.2em 0}.bars-key span{margin-right:1.2em;white-space:nowrap}"
    ".bars-key i{display:inline-block;width:10px;height:10px;margin-right:4px}"
    ".bars-tip{position:absolute;display:none;background:#fff;border:1px solid #999;"
    "padding:2px 6px;font-size:12px;pointer-events:none;white-space:nowrap}";

std::string number(const std::optional<double>& v) {
    // JSON has no NaN or infinity: such a value is drawn as absent.
    if (!v || !(*v == *v) || *v > 1e300 || *v < -1e300)
        return "null";
    return fmt::format("{}", *v);
}

}  // namespace

std::string bars_page_head() {
    std::string head = fmt::format("<style>{}</style>\n<script>\n", kBarsStyle);
    head += embedded::bars_js;
    head += "</script>\n";
    return head;
}

std::string html_series_key(std::span<const std::string> names) {
    // Styled in place: a page with no bar chart has no bars_page_head().
    std::string key = "<div style=\"font-size:12px;margin:.2em 0 1em\">";
    for (std::size_t s = 0; s < names.size(); ++s) {
        key += fmt::format(
            "<span style=\"margin-right:1.2em;white-space:nowrap\"><i style=\"display:"
            "inline-block;width:10px;height:10px;margin-right:4px;background:{}\"></i>{}</span>",
            series_colour(s), html_escape(names[s]));
    }
    return key + "</div>\n";
}

std::string json_in_script(std::string_view json_text) {
    // '<' appears in JSON text only inside strings, where \u003c is the same character.
    std::string out;
    out.reserve(json_text.size());
    for (const char c : json_text) {
        if (c == '<')
            out += "\\u003c";
        else
            out += c;
    }
    return out;
}

std::string html_bar_chart(const BarChart& chart) {
    std::string data = "{\"unit\":" + json_string(chart.unit) + ",\"series\":[";
    std::string key;
    for (std::size_t s = 0; s < chart.series.size(); ++s) {
        data += fmt::format("{}{{\"name\":{},\"colour\":\"{}\"}}", s ? "," : "",
                            json_string(chart.series[s]), series_colour(s));
        key += fmt::format("<span><i style=\"background:{}\"></i>{}</span>", series_colour(s),
                           html_escape(chart.series[s]));
    }
    data += "],\"rows\":[";
    for (std::size_t r = 0; r < chart.rows.size(); ++r) {
        const BarRow& row = chart.rows[r];
        data += fmt::format("{}{{\"label\":{},\"emphasised\":{},\"values\":[", r ? "," : "",
                            json_string(row.label), row.emphasised ? "true" : "false");
        for (std::size_t s = 0; s < chart.series.size(); ++s) {
            data += s ? "," : "";
            data += number(s < row.values.size() ? row.values[s] : std::nullopt);
        }
        data += "]}";
    }
    data += "]}";
    const std::string id = html_escape(chart.id);
    return fmt::format(
        "<figure class=\"bars-fig\"><figcaption>{4}</figcaption>\n"
        "<div class=\"bars\" id=\"{0}\"><div class=\"bars-key\">{1}</div>"
        "<canvas role=\"img\" aria-label=\"{4}: bars; the values are in the table\"></canvas>"
        "<div class=\"bars-tip\"></div></div>\n"
        "<script type=\"application/json\" id=\"{0}-data\">{2}</script>\n"
        "<script>loopscopeBars.show({3});</script></figure>\n",
        id, key, json_in_script(data), json_in_script(json_string(chart.id)),
        html_escape(chart.title));
}

}  // namespace loopscope
