// The fuzz targets' corpus as ordinary tests: every input a fuzzer ever found a problem with
// (tests/fuzz/corpus/, one file each), every seed (tests/fuzz/seeds/) and every synthetic capture
// (tests/data/) goes through every target. Under the sanitizer build a memory error or undefined behaviour fails the test;
// in any build an exception other than the promised InputError / UsageError does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_inputs.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> bytes_of(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void replay_folder(const fs::path& folder, std::size_t& inputs) {
    for (const auto& entry : fs::directory_iterator(folder)) {
        if (!entry.is_regular_file() || entry.path().filename() == "README.md")
            continue;
        const std::vector<std::uint8_t> bytes = bytes_of(entry.path());
        for (const std::string_view target : fuzz::target_names()) {
            EXPECT_NO_THROW(fuzz::run_target(target, bytes))
                << target << " on " << entry.path().string();
        }
        ++inputs;
    }
}

TEST(FuzzCorpus, EveryFoundInputAndSyntheticCaptureGoesThroughEveryTarget) {
    std::size_t inputs = 0;
    replay_folder(fs::path(LOOPSCOPE_SOURCE_DIR) / "tests" / "fuzz" / "corpus", inputs);
    replay_folder(fs::path(LOOPSCOPE_SOURCE_DIR) / "tests" / "fuzz" / "seeds", inputs);
    replay_folder(LOOPSCOPE_TEST_DATA_DIR, inputs);
    EXPECT_GE(inputs, 10u);  // the synthetic captures at least
    EXPECT_THROW(fuzz::run_target("no-such-target", {}), std::invalid_argument);
}

}  // namespace
}  // namespace loopscope
