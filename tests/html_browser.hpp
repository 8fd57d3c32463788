// Loading an HTML page of loopscope in headless Chromium (Debian's) and reading back what the
// page did: the script errors it raised, the canvases its charts drew, what it asked of the
// network, and the order of its verdict, charts and tables. A recorder script is put into a copy
// of the page, at the top of its <head>, and writes its findings into the DOM, which Chromium's
// --dump-dom prints once the page has loaded and its timers have run (virtual time).
#pragma once

#include <string>
#include <vector>

namespace loopscope::test {

// Where Chromium is; tests skip, saying so, when it is not installed (scripts/setup.sh
// installs it).
inline constexpr const char* kChromium = "/usr/bin/chromium";
bool have_chromium();

struct PageInBrowser {
    std::string failure;                // why the page could not be loaded and read; else empty
    std::string probe;                  // what the test's probe function returned, as text
    std::string log;                    // Chromium's own output (its stderr), for failure messages
    std::vector<std::string> errors;    // script errors, failed loads and console.error calls
    std::vector<std::string> requests;  // every resource the page asked for (none expected)
    int canvases = 0;                   // <canvas> elements
    int drawn_canvases = 0;             // of those, the ones with a pixel drawn
    // The charts (a chart module's chart or a bar chart) and those with a drawn canvas in them.
    int charts = 0;
    int drawn_charts = 0;
    // The page's width: more than the window's 1,280 px when the page scrolls sideways.
    int scroll_width_px = 0;
    bool has_verdict = false;  // an element id="verdict"
    // The verdict comes before every canvas and table (false when there is no verdict).
    bool verdict_first = false;
    // The first table comes before the first canvas (a comparison's table of verdicts).
    bool table_before_charts = false;
    // The first canvas comes before the first <details> (true when there is no <details>).
    bool charts_before_details = true;
};

// Loads `html_path` (a copy of it with the recorder, in `work_dir`) in a window 1,280 px wide,
// with no network: a proxy that refuses every connection, so a request shows as a failed load and
// never leaves the machine.
// probe_js: a JavaScript function (its text) run after the charts are drawn, before the
// recorder reads the page; what it returns is `probe`.
PageInBrowser load_in_chromium(const std::string& html_path, const std::string& work_dir,
                               const std::string& probe_js = "");

}  // namespace loopscope::test
