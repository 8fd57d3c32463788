// Loading a page in headless Chromium and reading back what it did (see html_browser.hpp).
#include "tests/html_browser.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/test_support.hpp"

namespace loopscope::test {

namespace {

// Records errors from the first line of the page on; after load and a moment for charts drawn
// in a timer, writes its findings as JSON into <pre id="loopscope-probe">.
constexpr const char* kRecorder = R"(<script>
(function () {
  var errors = [];
  window.onerror = function (message, source, line, column) {
    errors.push(String(message) + ' at ' + source + ':' + line + ':' + column);
  };
  window.addEventListener('error', function (e) {
    if (e.target && e.target !== window)
      errors.push('failed to load ' + (e.target.src || e.target.href || e.target.tagName));
  }, true);
  window.addEventListener('unhandledrejection', function (e) {
    errors.push('unhandled rejection: ' + String(e.reason));
  });
  var consoleError = console.error;
  console.error = function () {
    errors.push('console.error: ' + Array.prototype.join.call(arguments, ' '));
    consoleError.apply(console, arguments);
  };
  function drawn(canvas) {
    if (!canvas.width || !canvas.height) return false;
    try {
      var pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (var i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
    } catch (e) {
      errors.push('reading a canvas: ' + e);
    }
    return false;
  }
  function before(a, b) {
    return (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  }
  window.addEventListener('load', function () {
    setTimeout(function () {
      var probe = '';
      if (typeof window.loopscopeTestProbe === 'function') {
        try {
          probe = String(window.loopscopeTestProbe());
        } catch (e) {
          errors.push('the test probe: ' + e);
        }
      }
      var canvases = Array.prototype.slice.call(document.querySelectorAll('canvas'));
      var tables = Array.prototype.slice.call(document.querySelectorAll('table'));
      var verdict = document.getElementById('verdict');
      var details = document.querySelector('details');
      var requests = performance.getEntriesByType('resource').map(function (e) { return e.name; });
      var result = {
        probe: probe,
        errors: errors,
        requests: requests,
        canvases: canvases.length,
        drawn: canvases.filter(drawn).length,
        charts: document.querySelectorAll('.lsc-chart, .bars').length,
        charts_drawn: Array.prototype.filter.call(document.querySelectorAll('.lsc-chart, .bars'),
          function (c) {
            return Array.prototype.some.call(c.querySelectorAll('canvas'), drawn);
          }).length,
        scroll_width: document.documentElement.scrollWidth,
        table_before_charts: tables.length > 0 && canvases.length > 0 && before(tables[0], canvases[0]),
        has_verdict: verdict !== null,
        verdict_first: verdict !== null && canvases.concat(tables).every(function (e) {
          return before(verdict, e);
        }),
        charts_before_details: details === null || (canvases.length > 0 && before(canvases[0], details))
      };
      var pre = document.createElement('pre');
      pre.id = 'loopscope-probe';
      pre.textContent = JSON.stringify(result);
      document.body.appendChild(pre);
    }, 500);
  });
})();
</script>
)";

std::string unescape_html(std::string text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '&') {
            out += text[i];
            continue;
        }
        const std::size_t end = text.find(';', i);
        const std::string entity = text.substr(i, end == std::string::npos ? 1 : end - i + 1);
        if (entity == "&amp;")
            out += '&';
        else if (entity == "&lt;")
            out += '<';
        else if (entity == "&gt;")
            out += '>';
        else if (entity == "&quot;")
            out += '"';
        else if (entity == "&nbsp;")
            out += "\u00a0";
        else {
            out += '&';
            continue;
        }
        i = end;
    }
    return out;
}

}  // namespace

bool have_chromium() {
    return std::filesystem::exists(kChromium);
}

PageInBrowser load_in_chromium(const std::string& html_path, const std::string& work_dir,
                               const std::string& probe_js) {
    PageInBrowser page;
    std::string html = read_text(html_path);
    const std::size_t head = html.find("<head>");
    if (head == std::string::npos) {
        page.failure = html_path + ": no <head>";
        return page;
    }
    html.insert(head + 6, kRecorder + (probe_js.empty() ? std::string()
                                                        : "<script>window.loopscopeTestProbe = " +
                                                              probe_js + ";</script>\n"));
    const std::string copy = work_dir + "/probed.html";
    write_text(copy, html);
    const std::string dom = work_dir + "/dom.html";
    const std::string log = work_dir + "/chromium.log";
    // A proxy that refuses every connection: any request fails at once, inside the machine.
    const std::string cmd =
        std::string(kChromium) +
        " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
        " --disable-background-networking --disable-component-update --disable-sync"
        " --proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>'"
        " --virtual-time-budget=5000 --window-size=1280,2000"
        " --enable-logging=stderr --v=0 --user-data-dir='" +
        work_dir + "/profile' --dump-dom 'file://" + copy + "' >'" + dom + "' 2>'" + log + "'";
    const int status = std::system(cmd.c_str());
    page.log = read_text(log);
    if (status != 0) {
        page.failure = "chromium exited with status " + std::to_string(status);
        return page;
    }
    const std::string out = read_text(dom);
    const std::string open = "<pre id=\"loopscope-probe\">";
    const std::size_t at = out.find(open);
    const std::size_t end = at == std::string::npos ? at : out.find("</pre>", at);
    if (at == std::string::npos || end == std::string::npos) {
        page.failure = "the page's recorder wrote nothing (the page did not finish loading)";
        return page;
    }
    const std::string text = unescape_html(out.substr(at + open.size(), end - at - open.size()));
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) {
        page.failure = "the recorder's JSON does not parse: " + text;
        return page;
    }
    page.probe = j.at("probe").get<std::string>();
    page.errors = j.at("errors").get<std::vector<std::string>>();
    page.requests = j.at("requests").get<std::vector<std::string>>();
    page.canvases = j.at("canvases").get<int>();
    page.drawn_canvases = j.at("drawn").get<int>();
    page.charts = j.at("charts").get<int>();
    page.drawn_charts = j.at("charts_drawn").get<int>();
    page.scroll_width_px = j.at("scroll_width").get<int>();
    page.table_before_charts = j.at("table_before_charts").get<bool>();
    page.has_verdict = j.at("has_verdict").get<bool>();
    page.verdict_first = j.at("verdict_first").get<bool>();
    page.charts_before_details = j.at("charts_before_details").get<bool>();
    return page;
}

}  // namespace loopscope::test
