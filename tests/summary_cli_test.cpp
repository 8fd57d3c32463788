// End to end: `report PATH... --summary` over folders of captures (tests/data and the real
// captures), labels and groups, every format; `--history` with the regression gate; `history`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

using test::quoted;

TEST(SummaryCli, TestDataFolderOneRowACaptureTheRestSkipped) {
    // Every capture of tests/data in a folder tree, with two files that are not captures.
    const std::string dir = test::make_temp_dir("summary");
    const std::vector<std::string> captures = test::test_data_captures();
    for (std::size_t i = 0; i < captures.size(); ++i) {
        const std::string sub = dir + "/in/" + (i % 2 == 0 ? "even" : "odd/deeper");
        fs::create_directories(sub);
        fs::copy_file(test::test_data(captures[i]), sub + "/" + captures[i]);
    }
    fs::copy_file(test::test_data("README.md"), dir + "/in/README.md");
    fs::copy_file(test::test_data("generate_test_data.cpp"), dir + "/in/odd/generate.cpp");
    const auto r = test::run_loopscope("report --summary --format json -o " +
                                       quoted(dir + "/s.json") + " " + quoted(dir + "/in"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Json j = Json::parse(test::read_text(dir + "/s.json"));
    ASSERT_TRUE(j.contains("rows"));
    EXPECT_FALSE(j.contains("captures"));
    EXPECT_EQ(j["rows"].size(), captures.size());
    for (const Json& row : j["rows"]) {
        EXPECT_TRUE(row["error"].is_null()) << row["file"];
        EXPECT_FALSE(row["format"].is_null());
        for (const auto& [key, value] : row["figures"].items()) {
            if (value.is_null()) {
                EXPECT_TRUE(row["absent"].contains(key)) << key;  // absent with a reason
            }
        }
    }
    // The README and the generator are not captures: skipped, each with the reason.
    ASSERT_EQ(j["skipped"].size(), 2u);
    for (const Json& s : j["skipped"])
        EXPECT_NE(s["reason"].get<std::string>().find("unknown format"), std::string::npos);
    fs::remove_all(dir);
}

TEST(SummaryCli, TwoFilesAreASummaryNotAComparisonAndAFileNamedIsARow) {
    const std::string a = quoted(test::test_data("presentmon2.csv"));
    const std::string b = quoted(test::test_data("ocat.csv"));
    const std::string bad = quoted(test::test_data("README.md"));
    auto r = test::run_loopscope("report --summary --format json " + a + " " + b);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    Json j = Json::parse(r.out);
    EXPECT_EQ(j["rows"].size(), 2u);
    EXPECT_FALSE(j.contains("comparison"));
    // A file named on the command line that is not a capture is a row with its error; the
    // others are still reported and the exit code says a file failed.
    r = test::run_loopscope("report --summary --format json " + a + " " + bad + " " + b);
    EXPECT_EQ(r.exit_code, 2);
    j = Json::parse(r.out);
    ASSERT_EQ(j["rows"].size(), 3u);
    EXPECT_TRUE(j["rows"][0]["error"].is_null());
    EXPECT_NE(j["rows"][1]["error"].get<std::string>().find("README.md"), std::string::npos);
    EXPECT_TRUE(j["rows"][2]["error"].is_null());
    EXPECT_NE(r.err.find("README.md"), std::string::npos);
    // Three files without --summary: one line saying what a report takes.
    r = test::run_loopscope("report " + a + " " + b + " " + a);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--summary"), std::string::npos);
}

TEST(SummaryCli, LabelsFromPathGroupsAndEveryFormat) {
    const std::string dir = test::make_temp_dir("summary");
    const std::string root = dir + "/in";
    fs::create_directories(root + "/doom/dlss");
    fs::create_directories(root + "/doom/native");
    fs::create_directories(root + "/quake/native");
    fs::copy_file(test::test_data("presentmon2.csv"), root + "/doom/dlss/1.csv");
    fs::copy_file(test::test_data("presentmon1.csv"), root + "/doom/dlss/2.csv");
    fs::copy_file(test::test_data("ocat.csv"), root + "/doom/native/1.csv");
    fs::copy_file(test::test_data("frameview_Log.csv"), root + "/quake/native/1.csv");
    const std::string common = "report --summary " + quoted(root) +
                               " --labels-from-path game/config --label rig=a --group-by game "
                               "--group-by config";
    auto r = test::run_loopscope(common + " --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Json j = Json::parse(r.out);
    ASSERT_EQ(j["rows"].size(), 4u);
    EXPECT_EQ(j["rows"][0]["labels"]["game"], "doom");
    EXPECT_EQ(j["rows"][0]["labels"]["config"], "dlss");
    EXPECT_EQ(j["rows"][0]["labels"]["rig"], "a");
    ASSERT_EQ(j["groups"].size(), 3u);
    EXPECT_EQ(j["groups"][0]["captures"], 2);
    const double mean = (j["rows"][0]["figures"]["avg_fps"].get<double>() +
                         j["rows"][1]["figures"]["avg_fps"].get<double>()) /
                        2;
    EXPECT_NEAR(j["groups"][0]["figures"]["avg_fps"].get<double>(), mean, 1e-9);

    r = test::run_loopscope(common);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("| game"), std::string::npos);
    EXPECT_NE(r.out.find("Per group of game, config"), std::string::npos);
    r = test::run_loopscope(common + " --format md");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run_loopscope(common + " --format csv");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("file,format,game,config,rig,frames,", 0), 0u) << r.out.substr(0, 200);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5);

    // JSONL: one line a capture and figure that it has, labels as parallel arrays.
    r = test::run_loopscope(common + " --format jsonl");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::size_t lines = 0;
    std::size_t with_value = 0;
    for (const Json& row : j["rows"]) {
        for (const auto& [k, v] : row["figures"].items())
            with_value += !v.is_null();
    }
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line); ++lines) {
        const Json l = Json::parse(line);
        EXPECT_TRUE(l["value"].is_number());
        EXPECT_EQ(l["label_keys"].size(), l["label_values"].size());
        EXPECT_TRUE(l.contains("unit"));
    }
    EXPECT_EQ(lines, with_value);

    // HTML: bar charts of average FPS and the lows, each group's mean then its runs.
    r = test::run_loopscope(common + " --format html -o " + quoted(dir + "/s.html"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string html = test::read_text(dir + "/s.html");
    EXPECT_NE(html.find("loopscopeBars.show("), std::string::npos);
    EXPECT_NE(html.find("game=doom, config=dlss (mean)"), std::string::npos);
    EXPECT_NE(html.find("avg_fps"), std::string::npos);
    fs::remove_all(dir);
}

TEST(SummaryCli, RealCapturesOneRowEachBadFilesAsRows) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const auto r =
        test::run_loopscope("report --summary --format json " + quoted(test::captures_dir()));
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 2) << r.err;
    const Json j = Json::parse(r.out);
    std::size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(test::captures_dir()))
        files += e.is_regular_file();
    EXPECT_EQ(j["rows"].size() + j["skipped"].size(), files);
    bool provenance_skipped = false;
    for (const Json& s : j["skipped"]) {
        provenance_skipped |= s["file"].get<std::string>().ends_with("PROVENANCE.md");
        EXPECT_FALSE(s["reason"].get<std::string>().empty());
    }
    EXPECT_TRUE(provenance_skipped);
    std::size_t failed = 0;
    for (const Json& row : j["rows"]) {
        if (row["error"].is_null()) {
            // Frames, or a sampled log's samples.
            const Json& f = row["figures"];
            EXPECT_TRUE(!f["frames"].is_null() || !f["samples"].is_null()) << row["file"];
        } else {
            ++failed;
            // The error names the file.
            EXPECT_NE(row["error"].get<std::string>().find(row["file"].get<std::string>()),
                      std::string::npos);
        }
    }
    EXPECT_EQ(r.exit_code, failed > 0 ? 2 : 0);
    EXPECT_GT(j["rows"].size() - failed, 20u);
}

// A plain list of frame times: `frames` around `mean_ms` with a deterministic jitter.
void write_run(const std::string& path, double mean_ms, std::uint32_t seed, double scale = 1.0) {
    std::mt19937 gen(seed);
    std::normal_distribution<double> jitter(0.0, 0.6);
    std::string text;
    for (int i = 0; i < 3000; ++i) {
        double ms = mean_ms + jitter(gen);
        if (i % 200 == 0)
            ms += 8.0;  // a spike now and then, as real runs have
        text += std::to_string(std::max(1.0, ms) * scale) + "\n";
    }
    test::write_text(path, text);
}

TEST(SummaryCli, HistoryRegressionGateAgainstFiveRuns) {
    const std::string dir = test::make_temp_dir("history");
    const std::string db = quoted(dir + "/h.db");
    const std::string labels = " --label scene=city --label gpu=a";
    // An empty history (a new pipeline): nothing to compare with, exit 0 with one note; the
    // run is stored all the same. --require-baseline makes it an error (exit 2), stored too.
    write_run(dir + "/run0.txt", 16.6, 100);
    auto r = test::run_loopscope("report -o /dev/null --history " + db + labels +
                                 " --fail-if-regressed p99_ms --require-baseline " +
                                 quoted(dir + "/run0.txt"));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("error: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing to compare with yet: 0 of 2 runs"), std::string::npos) << r.err;
    r = test::run_loopscope("report -o /dev/null --history " + db + labels +
                            " --run-label build=0 --fail-if-regressed p99_ms " +
                            quoted(dir + "/run0.txt"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("note: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing to compare with yet: 0 of 2 runs"), std::string::npos) << r.err;
    // Each run labelled with its build (a run label, not of the series): the gate still finds
    // its baseline among the runs of the same --label values.
    for (int i = 1; i <= 5; ++i) {
        const std::string run = dir + "/run" + std::to_string(i) + ".txt";
        write_run(run, 16.6, 100 + static_cast<std::uint32_t>(i));
        r = test::run_loopscope("report -o /dev/null --history " + db + labels +
                                " --run-label build=" + std::to_string(i) + " " + quoted(run));
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    // A run 25 % slower (every frame time): exit 3 naming the figure and the numbers.
    write_run(dir + "/slow.txt", 16.6, 200, 1.25);
    r = test::run_loopscope("report -o /dev/null --history " + db + labels +
                            " --run-label build=6 --run-label commit=abc --fail-if-regressed "
                            "p99_ms:2% --fail-if-regressed avg_fps:5% " +
                            quoted(dir + "/slow.txt"));
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("p99_ms regressed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("avg_fps regressed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("95 % interval"), std::string::npos) << r.err;
    // A baseline capture again: its own earlier run is left out of the baseline, and it is
    // within 2 % of the others, exit 0. (Without a tolerance any run outside the others'
    // prediction interval fails, a real but maybe unimportant difference.)
    r = test::run_loopscope("report -o /dev/null --history " + db + labels +
                            " --fail-if-regressed p99_ms:2% " + quoted(dir + "/run3.txt"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("within the baseline"), std::string::npos) << r.err;
    // Other labels: nothing to compare with.
    r = test::run_loopscope("report -o /dev/null --history " + db +
                            " --label scene=forest --fail-if-regressed p99_ms " +
                            quoted(dir + "/run3.txt"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("nothing to compare with yet: 0 of 2 runs"), std::string::npos) << r.err;

    // The listing: every run stored, with its verdict; run3 stored once (replaced).
    r = test::run_loopscope("history " + db + " --format json --label scene=city");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Json j = Json::parse(r.out);
    ASSERT_EQ(j["runs"].size(), 7u);
    EXPECT_EQ(j["runs"][0]["verdict"], "no-baseline");
    EXPECT_EQ(j["runs"][5]["verdict"], "regressed");
    EXPECT_EQ(j["runs"][6]["verdict"], "passed");
    EXPECT_TRUE(j["runs"][6]["file"].get<std::string>().ends_with("run3.txt"));
    EXPECT_EQ(j["runs"][6]["labels"]["gpu"], "a");
    EXPECT_TRUE(j["runs"][6]["figures"]["p99_ms"].is_number());
    // Run labels: listed apart from the labels, and a filter of their own.
    EXPECT_EQ(j["runs"][5]["run_labels"]["build"], "6");
    EXPECT_EQ(j["runs"][5]["run_labels"]["commit"], "abc");
    EXPECT_FALSE(j["runs"][5]["labels"].contains("build"));
    EXPECT_TRUE(j["runs"][6]["run_labels"].empty());
    r = test::run_loopscope("history " + db + " --format json --run-label build=6");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(Json::parse(r.out)["runs"].size(), 1u) << r.out;
    EXPECT_TRUE(Json::parse(r.out)["runs"][0]["file"].get<std::string>().ends_with("slow.txt"));
    r = test::run_loopscope("history " + db + " --format csv --run-label build=2");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("run:build"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2) << r.out;
    r = test::run_loopscope("history " + db + " --figure p99_ms --format html -o " +
                            quoted(dir + "/h.html"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(test::read_text(dir + "/h.html").find("loopscopeCharts.draw("), std::string::npos);
    r = test::run_loopscope("history " + db);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("8 runs"), std::string::npos) << r.out;
    r = test::run_loopscope("history " + quoted(dir + "/missing.db"));
    EXPECT_EQ(r.exit_code, 2);
    // A figure the capture cannot have is not gated: one line with the reason, exit 2.
    r = test::run_loopscope("report -o /dev/null --history " + db + " --fail-if-regressed p99_ms " +
                            quoted(test::test_data("mangohud.csv")));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("has no p99_ms"), std::string::npos) << r.err;
    // The gate needs a history, and a figure with a direction.
    r = test::run_loopscope("report -o /dev/null --fail-if-regressed p99_ms " +
                            quoted(dir + "/run3.txt"));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--history"), std::string::npos) << r.err;
    r = test::run_loopscope("report -o /dev/null --history " + db + " --fail-if-regressed frames " +
                            quoted(dir + "/run3.txt"));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no better direction"), std::string::npos) << r.err;
    fs::remove_all(dir);
}

}  // namespace
}  // namespace loopscope

namespace loopscope {
namespace {

TEST(SummaryCli, HistoryKeepsTheMachinesContextAndRefusesAnotherJson) {
    const std::string dir = test::make_temp_dir("history");
    const std::string db = "'" + dir + "/h.db'";
    const std::string capture = quoted(test::test_data("presentmon2.csv"));
    test::write_text(dir + "/probe.json",
                     R"({"context": {"cpu": "Test CPU", "os": "Linux"}, "clocks": []})");
    test::write_text(dir + "/other.json", R"({"rows": []})");
    auto r = test::run_loopscope("report -o /dev/null --history " + db + " --machine '" + dir +
                                 "/probe.json' " + capture);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run_loopscope("history " + db + " --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["runs"].size(), 1u);
    EXPECT_EQ(j["runs"][0]["machine"]["cpu"], "Test CPU");
    EXPECT_EQ(j["runs"][0]["format"], "presentmon-2");
    EXPECT_EQ(j["runs"][0]["verdict"], "stored");
    r = test::run_loopscope("report -o /dev/null --history " + db + " --machine '" + dir +
                            "/other.json' " + capture);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("context"), std::string::npos) << r.err;
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope

namespace loopscope {
namespace {

TEST(SummaryCli, JsonThatIsNotACaptureIsSkippedInAFolder) {
    // tests/data holds expected_streams.json, the readers' expectations: JSON, not a capture.
    const auto r =
        test::run_loopscope("report " + quoted(test::test_data_dir()) + " --summary --format json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    bool skipped = false;
    for (const auto& s : j["skipped"]) {
        if (s["file"].get<std::string>().ends_with("expected_streams.json")) {
            skipped = true;
            EXPECT_NE(s["reason"].get<std::string>().find("not a CapFrameX session"),
                      std::string::npos)
                << s;
        }
    }
    EXPECT_TRUE(skipped) << r.out;
    bool capframex = false;
    for (const auto& row : j["rows"]) {
        EXPECT_FALSE(row["file"].get<std::string>().ends_with("expected_streams.json"));
        capframex = capframex || row["file"].get<std::string>().ends_with("capframex.json");
    }
    EXPECT_TRUE(capframex) << r.out;
    // Given by name, the same file is an error naming it.
    const auto one =
        test::run_loopscope("report " + quoted(test::test_data("expected_streams.json")));
    EXPECT_EQ(one.exit_code, 2);
    EXPECT_NE(one.err.find("expected_streams.json"), std::string::npos) << one.err;
    EXPECT_NE(one.err.find("not a CapFrameX session"), std::string::npos) << one.err;
}

}  // namespace
}  // namespace loopscope
