// The chart module of the HTML pages: interactive charts drawn by dygraphs (Debian's
// libjs-dygraphs 2.2.1, embedded in the program at build time) and the module's own script
// (writers/html_chart.js). Every page inlines both, with dygraphs' licence, so it opens offline
// and alone and loads nothing from the network.
#pragma once

#include <string>
#include <string_view>

namespace loopscope {

// The dygraphs version the program carries, read from the library's own header comment.
std::string_view dygraphs_version();

// What a page's <head> holds for its charts: dygraphs' style sheet, then one <script> with
// dygraphs' licence, the library and the chart module's script. Once per page.
std::string chart_page_head();

}  // namespace loopscope
