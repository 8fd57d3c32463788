// The README and docs name programs by their path under build/ (`build/release/tool/loopscope`,
// `build/test/tests/loopscope_bench`); each such path must be one that the commands the README
// gives produce: its folder is the build folder of scripts/diagnose.sh or scripts/test.sh, the
// file exists in this (complete) build, and a file under diagnose.sh's folder is one of the
// targets diagnose.sh builds. Under scripts/fuzz.sh's folder (the CI's fuzz stage): only the
// folders that script makes; under scripts/build-windows.sh's (a cross build, not made here): only
// what that script or scripts/test-windows.sh names.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "tests/test_support.hpp"

using namespace loopscope::test;
namespace fs = std::filesystem;

namespace {

// "build/release" from `preset=release` (or `preset=${1:-test}`, the default) and
// `build_dir=build/$preset` in the script: every preset of CMakePresets.json builds in
// build/NAME.
std::string script_build_dir(const std::string& script) {
    static const std::regex preset_re(R"(\bpreset=(\$\{1:-)?([a-z]+))");
    std::smatch m;
    const std::string text = read_text(std::string(LOOPSCOPE_SOURCE_DIR) + "/scripts/" + script);
    if (!std::regex_search(text, m, preset_re) ||
        text.find("build_dir=build/$preset") == std::string::npos)
        return std::string();
    const std::string presets = read_text(std::string(LOOPSCOPE_SOURCE_DIR) + "/CMakePresets.json");
    if (presets.find(R"("binaryDir": "${sourceDir}/build/${presetName}")") == std::string::npos ||
        presets.find("\"name\": \"" + m[2].str() + "\"") == std::string::npos)
        return std::string();
    return "build/" + m[2].str();
}

std::set<std::string> diagnose_targets() {
    static const std::regex re(R"(--target ([A-Za-z0-9_ ]+))");
    std::smatch m;
    const std::string text = read_text(std::string(LOOPSCOPE_SOURCE_DIR) + "/scripts/diagnose.sh");
    std::set<std::string> targets;
    if (std::regex_search(text, m, re)) {
        std::istringstream words(m[1].str());
        for (std::string w; words >> w;)
            targets.insert(w);
    }
    return targets;
}

}  // namespace

TEST(DocsPaths, EveryBuildPathTheDocsNameIsMadeByTheReadmeCommands) {
    const fs::path source = LOOPSCOPE_SOURCE_DIR;
    // This build: the folder above tool/loopscope.
    const fs::path this_build = fs::path(LOOPSCOPE_EXE).parent_path().parent_path();
    const std::string release = script_build_dir("diagnose.sh");
    const std::string test = script_build_dir("test.sh");
    ASSERT_EQ(release, "build/release");
    ASSERT_EQ(test, "build/test");
    const std::string fuzz = script_build_dir("fuzz.sh");
    ASSERT_EQ(fuzz, "build/fuzz");
    const std::string fuzz_script =
        read_text(std::string(LOOPSCOPE_SOURCE_DIR) + "/scripts/fuzz.sh");
    const std::set<std::string> targets = diagnose_targets();
    ASSERT_TRUE(targets.count("loopscope"));
    const std::string windows = script_build_dir("build-windows.sh");
    ASSERT_EQ(windows, "build/windows");
    const std::string windows_scripts =
        read_text(std::string(LOOPSCOPE_SOURCE_DIR) + "/scripts/build-windows.sh") +
        read_text(std::string(LOOPSCOPE_SOURCE_DIR) + "/scripts/test-windows.sh");

    std::vector<fs::path> pages = {source / "README.md"};
    for (const auto& entry : fs::directory_iterator(source / "docs")) {
        if (entry.path().extension() == ".md")
            pages.push_back(entry.path());
    }
    static const std::regex path_re(R"((^|[^A-Za-z0-9_/.-])(build/[A-Za-z0-9_./-]*[A-Za-z0-9_]))");
    std::size_t checked = 0;
    for (const fs::path& page : pages) {
        const std::string text = read_text(page.string());
        for (auto it = std::sregex_iterator(text.begin(), text.end(), path_re);
             it != std::sregex_iterator(); ++it) {
            const std::string path = (*it)[2];
            const std::string where = page.filename().string() + ": " + path;
            std::string rest;
            bool from_diagnose = false;
            if (path.rfind(release + "/", 0) == 0) {
                rest = path.substr(release.size() + 1);
                from_diagnose = true;
            } else if (path.rfind(test + "/", 0) == 0) {
                rest = path.substr(test.size() + 1);
            } else if (path == release || path == test || path == fuzz || path == windows) {
                continue;  // the folder itself
            } else if (path.rfind(windows + "/", 0) == 0) {
                const std::string named = "$build_dir/" + path.substr(windows.size() + 1);
                EXPECT_NE(windows_scripts.find(named), std::string::npos)
                    << where << ": scripts/build-windows.sh and test-windows.sh name no " << named;
                ++checked;
                continue;
            } else if (path.rfind(fuzz + "/", 0) == 0) {
                // scripts/fuzz.sh's build (not a README command): a folder the script makes.
                const std::string first =
                    path.substr(fuzz.size() + 1).substr(0, path.substr(fuzz.size() + 1).find('/'));
                EXPECT_NE(fuzz_script.find("$build_dir/" + first), std::string::npos)
                    << where << ": scripts/fuzz.sh makes no " << first;
                ++checked;
                continue;
            } else {
                ADD_FAILURE() << where << " is not under " << release << ", " << test << ", "
                              << fuzz << " or " << windows;
                continue;
            }
            ++checked;
            EXPECT_TRUE(fs::exists(this_build / rest)) << where << ": no " << rest << " in a build";
            if (from_diagnose) {
                EXPECT_TRUE(targets.count(fs::path(rest).filename().string()))
                    << where << ": scripts/diagnose.sh does not build "
                    << fs::path(rest).filename();
            }
        }
    }
    EXPECT_GT(checked, 0u);
}
