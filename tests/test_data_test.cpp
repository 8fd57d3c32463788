// The synthetic captures of tests/data/: the generator still writes exactly the committed files
// (so the two never drift apart), and every reader finds in each file what the generator says
// it wrote (tests/data/expected_streams.json: streams, frame counts, sums, dropped and generated
// frames, first start), so that the readers are tested in any clone.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

#include "readers/readers.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The files the generator owns in tests/data/ (everything but the README and its own source).
std::set<std::string> generated_names(const std::string& dir) {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (name != "README.md" && name != "generate_test_data.cpp" && name != ".gitattributes")
            names.insert(name);
    }
    return names;
}

TEST(TestData, GeneratorWritesTheCommittedFilesByteForByte) {
    const std::string dir = test::make_temp_dir("loopscope-test-data");
    const std::string cmd =
        std::string("'") + LOOPSCOPE_TEST_DATA_GENERATOR + "' '" + dir + "' >/dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    const std::set<std::string> fresh = generated_names(dir);
    const std::set<std::string> committed = generated_names(test::test_data_dir());
    EXPECT_EQ(fresh, committed) << "regenerate with: cmake --build BUILD --target "
                                   "regenerate_test_data (tests/data/README.md)";
    EXPECT_GE(fresh.size(), 12u);
    for (const std::string& name : fresh) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(test::read_text(dir + "/" + name) == test::read_text(test::test_data(name)))
            << name << " differs from what the generator writes: regenerate with "
            << "cmake --build BUILD --target regenerate_test_data";
    }
    fs::remove_all(dir);
}

json expectations() {
    return json::parse(test::read_text(test::test_data("expected_streams.json")));
}

TEST(TestData, EveryCaptureIsListedInTheExpectations) {
    const json expected = expectations();
    const std::vector<std::string> names = test::test_data_captures();
    EXPECT_EQ(names.size(), expected.size());
    for (const std::string& name : names)
        EXPECT_TRUE(expected.contains(name)) << name;
}

TEST(TestData, EveryReaderFindsTheStreamsTheGeneratorWrote) {
    std::set<std::string> formats;
    const json expected = expectations();
    for (const auto& [name, file] : expected.items()) {
        SCOPED_TRACE(name);
        const std::string path = test::test_data(name);
        EXPECT_EQ(detect_format(path), file["format"].get<std::string>());
        formats.insert(file["format"].get<std::string>());
        const json& streams = file["streams"];
        const std::vector<CaptureStreamInfo> listed = list_capture_streams(path);
        ASSERT_EQ(listed.size(), streams.size());
        for (std::size_t i = 0; i < listed.size(); ++i) {
            const json& e = streams[i];
            SCOPED_TRACE(e.dump());
            EXPECT_EQ(listed[i].process, e["process"].get<std::string>());
            EXPECT_EQ(listed[i].process_id, e["process_id"].get<std::int64_t>());
            EXPECT_EQ(listed[i].swap_chain, e["swap_chain"].get<std::string>());
            EXPECT_EQ(listed[i].frames, e["frames"].get<std::size_t>());

            // Each stream by its swap chain (unique in these files), the only one otherwise.
            ReadOptions options;
            options.process = streams.size() > 1 ? e["swap_chain"].get<std::string>() : "";
            const Capture c = read_capture(path, options);
            EXPECT_EQ(c.source.format, file["format"].get<std::string>());
            EXPECT_EQ(c.source.swap_chain, e["swap_chain"].get<std::string>());
            EXPECT_EQ(c.per_frame, file["per_frame"].get<bool>());
            ASSERT_EQ(c.frames(), e["frames"].get<std::size_t>());
            EXPECT_EQ(std::accumulate(c.frame_ns.begin(), c.frame_ns.end(), std::int64_t{0}),
                      e["sum_ns"].get<std::int64_t>());
            EXPECT_EQ(*std::max_element(c.frame_ns.begin(), c.frame_ns.end()),
                      e["max_ns"].get<std::int64_t>());
            EXPECT_EQ(std::count(c.dropped.begin(), c.dropped.end(), 1), e["dropped"].get<long>());
            EXPECT_EQ(std::count(c.generated.begin(), c.generated.end(), 1),
                      e["generated"].get<long>());
            ASSERT_EQ(c.start_ns.size(), c.frames());
            EXPECT_EQ(c.start_ns.front(), 0);  // t = 0 at the first row
            EXPECT_EQ(c.clock_origin_ns, e["first_start_ns"].get<std::int64_t>());
            EXPECT_TRUE(std::is_sorted(c.start_ns.begin(), c.start_ns.end()));
            if (c.per_frame) {
                EXPECT_NEAR(listed[i].duration_s, e["sum_ns"].get<double>() / 1e9, 1e-9);
            }
        }
    }
    // Every layout the readers know is among the files.
    EXPECT_EQ(formats,
              (std::set<std::string>{"presentmon-1", "presentmon-2", "presentmon-2.4", "ocat",
                                     "frameview", "capframex-json", "capframex-csv", "mangohud",
                                     "afterburner", "plain", "loopscope-trace"}));
}

TEST(TestData, TheRealFilesQuirksAreThere) {
    // A byte-order mark, CRLF line ends, NA cells.
    EXPECT_EQ(test::read_text(test::test_data("presentmon1.csv")).rfind("\xEF\xBB\xBF", 0), 0u);
    EXPECT_NE(test::read_text(test::test_data("frameview_Log.csv")).find("\r\n"),
              std::string::npos);
    EXPECT_NE(test::read_text(test::test_data("capframex_legacy.csv")).find("\r\n"),
              std::string::npos);
    // A row whose frame time is NA is skipped and counted (the terminal's first present).
    const Capture terminal =
        read_capture(test::test_data("presentmon24.csv"), {.process = "WindowsTerminal"});
    EXPECT_EQ(terminal.metadata.at("rows_without_frame_time"), "1");
    // The QPC frequency is found from the file's times.
    for (const char* name : {"presentmon2.csv", "presentmon24_framegen.csv", "presentmon1.csv"}) {
        SCOPED_TRACE(name);
        const Capture c = read_capture(test::test_data(name));
        if (std::string(name) == "presentmon1.csv") {
            EXPECT_EQ(c.metadata.count("qpc_frequency_hz"), 0u);  // TimeInSeconds comes first
        } else {
            EXPECT_EQ(c.metadata.at("qpc_frequency_hz"), "10000000 (from the file's times)");
        }
    }
    // Metadata: OCAT's system columns (a quoted cell with a comma), CapFrameX's preamble and
    // Info, MangoHud's system block and version line.
    EXPECT_EQ(read_capture(test::test_data("ocat.csv")).metadata.at("Motherboard"),
              "Example Boards, Inc. B650 TEST");
    EXPECT_EQ(read_capture(test::test_data("capframex_legacy.csv")).metadata.at("GameName"),
              "game.exe");
    EXPECT_EQ(read_capture(test::test_data("capframex.json")).metadata.at("GPU"),
              "Example GPU 4070");
    const Capture mango = read_capture(test::test_data("mangohud_v1.csv"));
    EXPECT_EQ(mango.metadata.at("mangohud_version"), "0.8.1-1+");
    EXPECT_EQ(mango.metadata.at("cpu"), "Example CPU 8-Core Processor");
    // The trace carries its loop configuration and columns.
    const Capture trace = read_capture(test::test_data("loopscope.trace"));
    EXPECT_EQ(trace.metadata.at("policy"), "fixed-interp");
    ASSERT_EQ(trace.loop.size(), trace.frames());
    EXPECT_EQ(trace.loop[0].clamp_lost_ns, 100'000'000);  // the 350 ms loading frame
    EXPECT_TRUE(std::any_of(trace.loop.begin(), trace.loop.end(),
                            [](const auto& r) { return r.cap_dropped_ns > 0; }));
}

}  // namespace
}  // namespace loopscope
