// The HTML report renders in headless Chromium: a screenshot is written, the console shows no
// errors, and the page asks for nothing from the network: its own text (without the inlined
// chart library, whose header names its home page) has no http(s) or src references, and
// Chromium's net log holds no request made for the page. Skipped when Chromium is not installed
// (scripts/setup.sh installs it).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/chart_data.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

namespace fs = std::filesystem;
constexpr const char* kChromium = "/usr/bin/chromium";

TEST(ReportHtmlRender, RendersInHeadlessChromiumWithoutErrorsOrNetwork) {
    if (!fs::exists(kChromium))
        GTEST_SKIP() << "chromium is not installed";
    const std::string dir = test::make_temp_dir("loopscope-html");
    const std::string html = dir + "/report.html";
    const auto r = test::run_loopscope("report --format html -o '" + html + "' '" +
                                       test::test_data("presentmon1.csv") + "' '" +
                                       test::test_data("presentmon2.csv") + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string page = test::page_without_chart_library(test::read_text(html));
    EXPECT_EQ(page.find("http:"), std::string::npos);
    EXPECT_EQ(page.find("https:"), std::string::npos);
    EXPECT_EQ(page.find("src="), std::string::npos);
    EXPECT_EQ(page.find("url("), std::string::npos);

    const std::string png = dir + "/shot.png";
    const std::string log = dir + "/chromium.log";
    const std::string net_log = dir + "/net.json";
    const std::string cmd =
        std::string(kChromium) +
        " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
        " --disable-background-networking --disable-component-update --disable-sync"
        " --enable-logging=stderr --v=0 --log-net-log='" +
        net_log + "' --user-data-dir='" + dir + "/profile' --screenshot='" + png +
        "' --window-size=1280,2000 'file://" + html + "' >'" + log + "' 2>&1";
    const int status = std::system(cmd.c_str());
    const std::string out = test::read_text(log);
    ASSERT_EQ(status, 0) << out;
    ASSERT_TRUE(fs::exists(png)) << out;
    EXPECT_GT(fs::file_size(png), 10'000u);
    // Console messages from the page come through as CONSOLE lines; errors of loading as
    // net:: codes.
    EXPECT_EQ(out.find("CONSOLE"), std::string::npos) << out;
    EXPECT_EQ(out.find("Uncaught"), std::string::npos) << out;
    EXPECT_EQ(out.find("net::ERR"), std::string::npos) << out;
    EXPECT_EQ(out.find("http://"), std::string::npos) << out;
    EXPECT_EQ(out.find("https://"), std::string::npos) << out;
    // The net log holds every request, the browser's own (updates, accounts) among them; those
    // made for the page carry the file's origin in their isolation key.
    const auto events = nlohmann::json::parse(test::read_text(net_log))["events"];
    for (const auto& e : events) {
        if (!e.contains("params") || !e["params"].contains("url"))
            continue;
        const std::string key = e["params"].value("network_isolation_key", "");
        EXPECT_EQ(key.find("file://"), std::string::npos) << e["params"]["url"];
    }
    EXPECT_GT(events.size(), 0u);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
