// Reading back the charts of an HTML page (writers/html_chart.hpp): each chart's JSON, its x
// values and series decoded as the page's script decodes them, so tests check what is drawn.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "writers/html_chart.hpp"

namespace loopscope::test {

inline std::vector<std::int64_t> chart_ints(int width, std::string_view b64) {
    std::vector<unsigned char> bytes;
    unsigned buffer = 0;
    int bits = 0;
    for (const char c : b64) {
        int v = -1;
        if (c >= 'A' && c <= 'Z')
            v = c - 'A';
        else if (c >= 'a' && c <= 'z')
            v = c - 'a' + 26;
        else if (c >= '0' && c <= '9')
            v = c - '0' + 52;
        else if (c == '+')
            v = 62;
        else if (c == '/')
            v = 63;
        if (v < 0)
            continue;
        buffer = (buffer << 6) | static_cast<unsigned>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.push_back(static_cast<unsigned char>((buffer >> bits) & 0xff));
        }
    }
    std::vector<std::int64_t> out;
    const auto w = static_cast<std::size_t>(width);
    for (std::size_t i = 0; i + w <= bytes.size(); i += w) {
        std::uint32_t u = 0;
        for (std::size_t b = 0; b < w; ++b)
            u |= static_cast<std::uint32_t>(bytes[i + b]) << (8 * b);
        const int shift = 32 - 8 * width;
        out.push_back(static_cast<std::int32_t>(u << shift) >> shift);
    }
    return out;
}

struct ChartData {
    nlohmann::json json;
    std::string caption;
    std::vector<double> x;
    std::vector<std::vector<double>> series;  // NaN where a series has no value
    std::vector<std::string> labels;
    std::size_t json_chars = 0;
};

// Every chart of the page, in page order.
inline std::vector<ChartData> page_charts(const std::string& page) {
    std::vector<ChartData> out;
    const std::string open = "<script type=\"application/json\" id=\"";
    for (std::size_t at = page.find(open); at != std::string::npos; at = page.find(open, at + 1)) {
        ChartData c;
        const auto fig = page.rfind("<figcaption>", at);
        if (fig != std::string::npos) {
            const auto end = page.find("</figcaption>", fig);
            c.caption = page.substr(fig + 12, end - fig - 12);
        }
        const auto body = page.find('>', at) + 1;
        const auto end = page.find("</script>", body);
        c.json_chars = end - body;
        c.json = nlohmann::json::parse(page.substr(body, end - body));
        const auto& jx = c.json["x"];
        const double unit = jx["unit"].get<double>();
        std::int64_t q = jx["first"].get<std::int64_t>();
        for (const std::int64_t step : chart_ints(jx["w"].get<int>(), jx["d"].get<std::string>())) {
            q += step;
            c.x.push_back(static_cast<double>(q) * unit);
        }
        const std::size_t n = c.json["n"].get<std::size_t>();
        for (const auto& s : c.json["series"]) {
            const int w = s["w"].get<int>();
            const std::int64_t none = w == 1 ? -128 : w == 2 ? -32768 : INT32_MIN;
            const double u = s["unit"].get<double>();
            const auto raw = chart_ints(w, s["d"].get<std::string>());
            std::vector<double> v(n, std::numeric_limits<double>::quiet_NaN());
            if (s.contains("at")) {
                std::size_t i = 0;
                const auto at_steps =
                    chart_ints(s["at"]["w"].get<int>(), s["at"]["d"].get<std::string>());
                for (std::size_t k = 0; k < at_steps.size() && k < raw.size(); ++k) {
                    i += static_cast<std::size_t>(at_steps[k]);
                    if (raw[k] != none)
                        v[i] = static_cast<double>(raw[k]) * u;
                }
            } else {
                const bool delta = s.value("delta", false);
                std::int64_t q = delta ? s["first"].get<std::int64_t>() : 0;
                for (std::size_t i = 0; i < n && i < raw.size(); ++i) {
                    if (raw[i] == none)
                        continue;
                    q = delta ? q + raw[i] : raw[i];
                    v[i] = static_cast<double>(q) * u;
                }
            }
            c.series.push_back(std::move(v));
            c.labels.push_back(s["label"].get<std::string>());
        }
        out.push_back(std::move(c));
    }
    return out;
}

// The page without the chart library it inlines (chart_page_head(): dygraphs, whose header
// names its home page, and the module's script): what is left is the page's own text, which
// must name no external resource.
inline std::string page_without_chart_library(std::string page) {
    const std::string head = chart_page_head();
    const auto at = page.find(head);
    if (at != std::string::npos)
        page.erase(at, head.size());
    return page;
}

}  // namespace loopscope::test
