// The chart module's script in a real browser (Debian's headless Chromium): a report of 300,000
// frames with two one-frame hitches draws its frame-time chart from the min and max per pixel
// column, both hitches among them; a click on the first hitch's row zooms to it and then every
// frame of the window is drawn; a pan redraws the new window; a double-click zooms out whole,
// the y axis as at load, both hitches back.
// Skipped when Chromium is not installed (scripts/setup.sh installs it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

namespace fs = std::filesystem;
constexpr const char* kChromium = "/usr/bin/chromium";

// Run in the page after its charts are drawn; the results go to <html data-result>, and every
// script error to <html data-errors>.
constexpr const char* kErrorRecorder =
    "<script>window.onerror=function(m,u,l,c){var d=document.documentElement.dataset;"
    "d.errors=(d.errors||'')+m+' @'+l+':'+c+' | ';};</script>";
constexpr const char* kProbe = R"(<script>
(function () {
  const out = {}, spikes = [100000, 250000];
  const el = document.querySelector('.lsc-chart');
  const c = loopscopeCharts.charts[el.id];
  const has = (i) => c.rows.indexOf(i) >= 0;
  const drawnIn = (r) => c.rows.filter((i) => c.x[i] >= r[0] && c.x[i] <= r[1]).length;
  const rowsIn = (r) => { let n = 0; for (let i = 0; i < c.x.length; ++i) if (c.x[i] >= r[0] && c.x[i] <= r[1]) ++n; return n; };
  out.rows = c.x.length; out.columns = c.columns(); out.drawnAtLoad = c.rows.length;
  out.spikesAtLoad = spikes.map(has);
  document.querySelector('tr[onclick]').click();
  const z = c.g.xAxisRange();
  out.zoom = z; out.rowsInZoom = rowsIn(z); out.drawnInZoom = drawnIn(z); out.spikeInZoom = has(spikes[0]);
  out.spikeX = c.x[spikes[0]];
  const w = [z[0] + 30, z[1] + 30];
  c.g.updateOptions({ dateWindow: w });
  out.yAtLoad = c.g.yAxisRange();
  setTimeout(function () {
    out.rowsInPan = rowsIn(w); out.drawnInPan = drawnIn(w);
    c.g.updateOptions({ valueRange: [10, 20] });
    const canvases = el.querySelectorAll('canvas'), top = canvases[canvases.length - 1];
    const b = top.getBoundingClientRect();
    top.dispatchEvent(new MouseEvent('dblclick', { clientX: b.left + b.width / 2, clientY: b.top + b.height / 2, bubbles: true }));
    setTimeout(function () {
      out.drawnAfterReset = c.rows.length; out.spikesAfterReset = spikes.map(has);
      out.yAfterReset = c.g.yAxisRange(); out.xAfterReset = c.g.xAxisRange();
      out.canvases = document.querySelectorAll('canvas').length;
      document.documentElement.dataset.result = JSON.stringify(out);
    }, 300);
  }, 300);
})();
</script>)";

std::string unescape_attribute(std::string s) {
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"&quot;", "\""},
                                   {"&lt;", "<"},
                                   {"&gt;", ">"},
                                   {"&amp;", "&"}}) {
        for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
            s.replace(at, from.size(), to);
    }
    return s;
}

std::string attribute(const std::string& dom, const std::string& name) {
    const std::string key = name + "=\"";
    const auto at = dom.find(key);
    if (at == std::string::npos || at > dom.find("<head"))
        return {};
    const auto end = dom.find('"', at + key.size());
    return unescape_attribute(dom.substr(at + key.size(), end - at - key.size()));
}

TEST(ChartBrowser, ZoomAndPanRedrawEveryFrameAndEveryHitchStaysVisible) {
    if (!fs::exists(kChromium))
        GTEST_SKIP() << "chromium is not installed";
    const std::string dir = test::make_temp_dir("loopscope-chart-browser");
    std::string list;
    for (int i = 0; i < 300'000; ++i)
        list += i == 100'000 || i == 250'000 ? "120\n" : i % 2 ? "16.5\n" : "16.8\n";
    test::write_text(dir + "/frames.txt", list);
    const std::string html = dir + "/report.html";
    const auto r =
        test::run_loopscope("report --format html -o '" + html + "' '" + dir + "/frames.txt'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string page = test::read_text(html);
    page.insert(page.find("<head>") + 6, kErrorRecorder);
    page.insert(page.rfind("</body>"), kProbe);
    test::write_text(dir + "/probe.html", page);

    const std::string dom_file = dir + "/dom.html";
    const std::string cmd =
        std::string(kChromium) +
        " --headless=new --no-sandbox --disable-gpu --no-first-run"
        " --disable-background-networking --disable-component-update"
        " --window-size=1280,1000 --virtual-time-budget=5000 --user-data-dir='" +
        dir + "/profile' --dump-dom 'file://" + dir + "/probe.html' >'" + dom_file +
        "' 2>/dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    const std::string dom = test::read_text(dom_file);
    EXPECT_EQ(attribute(dom, "data-errors"), "");
    const std::string result = attribute(dom, "data-result");
    ASSERT_FALSE(result.empty()) << dom.substr(0, 400);
    const auto j = nlohmann::json::parse(result);
    const auto columns = j["columns"].get<std::size_t>();
    EXPECT_EQ(j["rows"], 300'000);
    // Zoomed out: a min and a max per pixel column at most (one drawn series), both hitches.
    EXPECT_LE(j["drawnAtLoad"].get<std::size_t>(), 2 * columns + 4) << result;
    EXPECT_EQ(j["spikesAtLoad"], nlohmann::json::array({true, true})) << result;
    // The hitch's row zoomed to it: a window of a few seconds around it, every frame drawn.
    EXPECT_LT(j["zoom"][0].get<double>(), j["spikeX"].get<double>());
    EXPECT_GT(j["zoom"][1].get<double>(), j["spikeX"].get<double>());
    EXPECT_LT(j["rowsInZoom"].get<std::size_t>(), 2 * columns);
    EXPECT_EQ(j["drawnInZoom"], j["rowsInZoom"]) << result;
    EXPECT_TRUE(j["spikeInZoom"].get<bool>());
    // Panned 30 s on: the new window's frames are drawn, all of them.
    EXPECT_GT(j["rowsInPan"].get<std::size_t>(), 0u);
    EXPECT_EQ(j["drawnInPan"], j["rowsInPan"]) << result;
    // A double-click zooms out whole, the y axis back to the one at load: decimated, both
    // hitches back.
    EXPECT_EQ(j["yAfterReset"], j["yAtLoad"]) << result;
    EXPECT_LE(j["xAfterReset"][0].get<double>(), 0.0);
    EXPECT_GE(j["xAfterReset"][1].get<double>(), 299'999 * 0.01665) << result;
    EXPECT_LE(j["drawnAfterReset"].get<std::size_t>(), 2 * columns + 4) << result;
    EXPECT_EQ(j["spikesAfterReset"], nlohmann::json::array({true, true})) << result;
    EXPECT_GE(j["canvases"].get<int>(), 4);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
