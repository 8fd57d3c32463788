#include "writers/html_chart.hpp"

#include <string>

namespace loopscope {

namespace embedded {
extern const std::string_view dygraphs_js;
extern const std::string_view dygraphs_css;
extern const std::string_view dygraphs_licence;
extern const std::string_view chart_js;
}  // namespace embedded

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

}  // namespace loopscope
