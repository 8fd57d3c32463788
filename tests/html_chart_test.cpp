// The chart module carries dygraphs whole, with its licence, in the program itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/test_support.hpp"
#include "writers/html_chart.hpp"

namespace loopscope {
namespace {

TEST(ChartModule, ThePageHeadCarriesDygraphsAndItsLicence) {
    const std::string head = chart_page_head();
    EXPECT_NE(dygraphs_version(), "unknown");
    EXPECT_NE(head.find("dygraphs " + std::string(dygraphs_version())), std::string::npos);
    EXPECT_NE(head.find("Permission is hereby granted"), std::string::npos);
    EXPECT_NE(head.find("window.loopscopeCharts"), std::string::npos);
    // No element of the page may end early: the library holds no closing script tag.
    EXPECT_EQ(head.find("</script>"), head.rfind("</script>"));
    const std::string installed = "/usr/share/javascript/dygraphs/dygraph.min.js";
    if (!std::filesystem::exists(installed))
        GTEST_SKIP() << installed << " is not installed here (the build took it from elsewhere)";
    EXPECT_NE(head.find(test::read_text(installed)), std::string::npos)
        << "the embedded library differs from the installed one";
}

}  // namespace
}  // namespace loopscope
