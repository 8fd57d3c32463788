// Golden tests: for every shared capture, the figures of `loopscope report --format json` equal
// the ones tests/golden/golden_figures.py computed independently (Python standard library only)
// and stored in tests/golden/expected_figures.json. Counts must match exactly, real numbers to
// a relative 1e-9 (the two programs sum in different orders). The captures are not in the
// repository: without them (LOOPSCOPE_CAPTURES_DIR) these tests are skipped, saying so.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

using nlohmann::json;

void expect_matches(const json& expected, const json& actual, const std::string& path) {
    if (expected.is_object()) {
        ASSERT_TRUE(actual.is_object()) << path << ": expected an object, got " << actual.dump();
        for (const auto& [key, value] : expected.items()) {
            ASSERT_TRUE(actual.contains(key)) << path << "." << key << " is missing";
            expect_matches(value, actual[key], path + "." + key);
        }
    } else if (expected.is_array()) {
        ASSERT_TRUE(actual.is_array()) << path;
        ASSERT_EQ(expected.size(), actual.size()) << path;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            expect_matches(expected[i], actual[i], path + "[" + std::to_string(i) + "]");
        }
    } else if (expected.is_number_float()) {
        ASSERT_TRUE(actual.is_number()) << path << ": " << actual.dump();
        const double e = expected.get<double>();
        const double a = actual.get<double>();
        EXPECT_LE(std::fabs(e - a), std::max(1e-9, 1e-9 * std::fabs(e)))
            << path << ": expected " << e << ", got " << a;
    } else {
        EXPECT_EQ(expected, actual) << path;
    }
}

json expected_figures() {
    return json::parse(
        test::read_text(std::string(LOOPSCOPE_SOURCE_DIR) + "/tests/golden/expected_figures.json"));
}

TEST(ReportGolden, EveryCaptureHasExpectedFigures) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const json expected = expected_figures();
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(test::captures_dir())) {
        if (entry.path().extension() == ".csv")
            names.insert(entry.path().filename().string());
    }
    ASSERT_FALSE(names.empty());
    for (const std::string& name : names) {
        EXPECT_TRUE(expected.contains(name)) << name << " has no expected figures: rerun "
                                             << "tests/golden/golden_figures.py";
    }
}

TEST(ReportGolden, FiguresMatchTheIndependentComputation) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const json expected = expected_figures();
    for (const auto& [name, figures] : expected.items()) {
        SCOPED_TRACE(name);
        const auto r = test::run_loopscope("report --format json '" + test::capture(name) + "'");
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const json actual = json::parse(r.out);
        expect_matches(figures, actual, name);
    }
}

// The PresentMon 1.x layouts among the synthetic captures (tests/data), every row a frame: the
// same independent computation (expected_figures_test_data.json), CapFrameX's figures included.
TEST(ReportGolden, TestDataPresentMon1xFiguresMatchTheIndependentComputation) {
    const json expected = json::parse(test::read_text(
        std::string(LOOPSCOPE_SOURCE_DIR) + "/tests/golden/expected_figures_test_data.json"));
    ASSERT_EQ(expected.size(), 3u);
    EXPECT_EQ(expected.at("presentmon1.csv").at("frames"), 420);
    for (const auto& [name, figures] : expected.items()) {
        SCOPED_TRACE(name);
        const auto r = test::run_loopscope("report --format json '" + test::test_data(name) + "'");
        ASSERT_EQ(r.exit_code, 0) << r.err;
        expect_matches(figures, json::parse(r.out), name);
    }
}

}  // namespace
}  // namespace loopscope
