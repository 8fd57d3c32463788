// `probe compare`: the differences that matter on hand-written probe documents, sections that
// only one document has, and a one-line error with exit code 2 for every kind of bad input.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

#include "probes/probe_compare.hpp"
#include "probes/probe_json.hpp"
#include "tests/test_support.hpp"

using namespace loopscope;
using nlohmann::json;

namespace {
json clock(const std::string& name, double cost_ns, std::int64_t backward, double drift_ppm) {
    return {{"name", name},
            {"claims_steady", true},
            {"deltas", 1000},
            {"resolution_ns", 1.0},
            {"read_cost_ns", cost_ns},
            {"granularity_min_ns", 20.0},
            {"granularity_median_ns", 20.0},
            {"zero_delta_share", 0.0},
            {"backward_steps", backward},
            {"cross_thread", {{"backward_steps", 0}}},
            {"drift_ppm", drift_ppm},
            {"drift_uncertainty_ppm", 0.1},
            {"histogram", json::array()}};
}

json document(const std::string& clocksource, json clocks) {
    return {
        {"schema", "loopscope-probe/1"},
        {"context", {{"os", "Debian"}, {"clocksource", clocksource}, {"kernel_tick_ns", 4000000}}},
        {"clocks", std::move(clocks)}};
}

std::vector<CompareRow> compare_clocks_of(const json& a, const json& b);

// The hand-written documents above as the structs `probe compare` reads them into.
std::vector<ClockResult> clocks_of(const json& clocks) {
    return ProbeJson::parse(clocks.dump()).get<std::vector<ClockResult>>();
}

ProbeDocument document_of(const json& doc) {
    return ProbeJson::parse(doc.dump()).get<ProbeDocument>();
}

std::vector<CompareRow> compare_clocks_of(const json& a, const json& b) {
    return compare_clocks(clocks_of(a), clocks_of(b));
}

const CompareCell& cell(const std::vector<CompareRow>& rows, const std::string& item,
                        std::size_t figure) {
    const auto it =
        std::find_if(rows.begin(), rows.end(), [&](const CompareRow& r) { return r.item == item; });
    EXPECT_NE(it, rows.end()) << item;
    return it->cells.at(figure);
}

constexpr std::size_t kReadCost = 1, kMinStep = 2, kBackward = 4, kCross = 5, kReordered = 6,
                      kJumps = 7, kDrift = 8;
}  // namespace

TEST(ProbeCompare, MarksADearerClockANewBackwardStepAndADrift) {
    const json a =
        json::array({clock("CLOCK_MONOTONIC", 25.0, 0, 0.1), clock("tsc", 10.0, 0, 0.0)});
    const json b =
        json::array({clock("CLOCK_MONOTONIC", 60.0, 3, 30.1), clock("tsc", 10.5, 0, 0.05)});
    const auto rows = compare_clocks_of(a, b);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_TRUE(cell(rows, "CLOCK_MONOTONIC", kReadCost).matters);
    EXPECT_EQ(cell(rows, "CLOCK_MONOTONIC", kReadCost).why, "2.4x dearer in B");
    EXPECT_TRUE(cell(rows, "CLOCK_MONOTONIC", kBackward).matters);
    EXPECT_TRUE(cell(rows, "CLOCK_MONOTONIC", kDrift).matters);
    EXPECT_FALSE(cell(rows, "CLOCK_MONOTONIC", kMinStep).matters);
    // Half a nanosecond dearer and 0.05 ppm apart: noise, not a difference that matters.
    for (std::size_t f = 0; f < rows[1].cells.size(); ++f)
        EXPECT_FALSE(cell(rows, "tsc", f).matters) << f;
}

TEST(ProbeCompare, AClockInOneDocumentOnlyMatters) {
    const auto rows = compare_clocks_of(json::array({clock("rdtsc", 10, 0, 0)}),
                                        json::array({clock("QueryPerformanceCounter", 30, 0, 0)}));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(cell(rows, "rdtsc", 0).why, "this clock is in A only");
    EXPECT_EQ(cell(rows, "rdtsc", 0).b, "-");
    EXPECT_EQ(cell(rows, "QueryPerformanceCounter", 0).why, "this clock is in B only");
}

TEST(ProbeCompare, ACoarserClockMatters) {
    json a = clock("CLOCK_MONOTONIC_COARSE", 5, 0, 0);
    a["zero_delta_share"] = 0.9;  // 100 steps of 1000 deltas
    json b = a;
    b["granularity_min_ns"] = 10'000'000.0;
    a["granularity_min_ns"] = 4'000'000.0;
    const auto rows = compare_clocks_of(json::array({a}), json::array({b}));
    EXPECT_TRUE(cell(rows, "CLOCK_MONOTONIC_COARSE", kMinStep).matters);
    // Seen only 10 times in B: too few steps to tell its smallest step.
    b["zero_delta_share"] = 0.99;
    EXPECT_FALSE(compare_clocks_of(json::array({a}), json::array({b}))[0].cells[kMinStep].matters);
}

TEST(ProbeCompare, NoiseOfOneMachineDoesNotMatter) {
    // Seen on one machine between two runs: a coarse clock's read cost of 3.4 and 6.1 ns, a
    // TSC's smallest step of one tick in one run only, RDTSC going back across cores in one
    // run only (it does not promise to be steady).
    json a = clock("CLOCK_REALTIME_COARSE", 3.4, 0, 0);
    json b = clock("CLOCK_REALTIME_COARSE", 6.1, 0, 0);
    json ta = clock("rdtsc", 10.6, 0, 0);
    json tb = clock("rdtsc", 10.7, 0, 0);
    ta["claims_steady"] = tb["claims_steady"] = false;
    ta["granularity_min_ns"] = 10.0;
    tb["granularity_min_ns"] = 0.39;
    ta["cross_thread"]["backward_steps"] = 40483;
    const auto rows = compare_clocks_of(json::array({a, ta}), json::array({b, tb}));
    for (const auto& r : rows) {
        for (std::size_t f = 0; f < r.cells.size(); ++f) {
            EXPECT_FALSE(r.cells[f].matters) << r.item << " " << f << ": " << r.cells[f].why;
        }
    }
}

TEST(ProbeCompare, CrossCoreCountsTakenWithDifferentReadsAreNotComparedAsOne) {
    // A document from before the ordered read: the TSC's cross-core count is plain RDTSC's
    // reordering. The newer one checks with lfence;rdtsc and keeps the plain count apart.
    json a = clock("tsc", 10, 0, 0);
    a["cross_thread"] = {{"backward_steps", 40483}};
    json b = clock("tsc", 10, 0, 0);
    b["cross_thread"] = {{"backward_steps", 0},
                         {"read", "lfence;rdtsc"},
                         {"unordered", {{"reads", 1100000}, {"backward_steps", 682}}}};
    const auto rows = compare_clocks_of(json::array({a}), json::array({b}));
    const CompareCell& cross = cell(rows, "tsc", kCross);
    EXPECT_FALSE(cross.matters) << cross.why;
    EXPECT_EQ(cross.a, "40483 (own read)");
    EXPECT_EQ(cross.b, "0 (lfence;rdtsc)");
    const CompareCell& reordered = cell(rows, "tsc", kReordered);
    EXPECT_FALSE(reordered.matters);
    EXPECT_EQ(reordered.a, "-");
    EXPECT_EQ(reordered.b, "682 of 1100000");
    // Taken the same way, a steady clock that goes back in one run only still matters.
    a["cross_thread"] = {{"backward_steps", 3}, {"read", "lfence;rdtsc"}};
    EXPECT_TRUE(cell(compare_clocks_of(json::array({a}), json::array({b})), "tsc", kCross).matters);
}

TEST(ProbeCompare, ACoarseClocksJumpsWhileWatchedAreShownNotMarked) {
    json a = clock("CLOCK_MONOTONIC_COARSE", 5, 0, 0);
    json b = a;
    a["coarse_steps"] = {{"watch_ns", 200000000}, {"reads", 1000},   {"steps", 50},
                         {"one_tick", 50},        {"multi_tick", 0}, {"multi_tick_watched", 0}};
    b["coarse_steps"] = a["coarse_steps"];
    b["coarse_steps"]["multi_tick"] = 14;
    b["coarse_steps"]["multi_tick_watched"] = 11;
    const auto rows = compare_clocks_of(json::array({a}), json::array({b}));
    const CompareCell& jumps = cell(rows, "CLOCK_MONOTONIC_COARSE", kJumps);
    EXPECT_EQ(jumps.a, "0 of 50");
    EXPECT_EQ(jumps.b, "11 of 50");
    EXPECT_FALSE(jumps.matters);
}

TEST(ProbeCompare, ARunOnABusyMachineWhenTheOtherWasQuietMatters) {
    const auto load = [](double other, double load_1m) {
        return json{{"before", {{"load_1m", load_1m}, {"load_5m", 1.0}, {"load_15m", 1.0}}},
                    {"after", {{"load_1m", load_1m}, {"load_5m", 1.0}, {"load_15m", 1.0}}},
                    {"cpu_measured", true},
                    {"other_cpu_share", other},
                    {"self_cpu_share", 0.2},
                    {"steal_share", 0.0},
                    {"from", "/proc/stat"}};
    };
    json a = document("tsc", json::array({clock("CLOCK_MONOTONIC", 25, 0, 0)}));
    a["context"]["logical_cpus"] = 2;
    json b = a;
    a["load"] = load(0.05, 0.4);
    b["load"] = load(0.74, 7.2);
    const auto sections = compare_documents(document_of(a), document_of(b));
    const auto it = std::find_if(sections.begin(), sections.end(),
                                 [](const CompareSection& s) { return s.key == "load"; });
    ASSERT_NE(it, sections.end());
    const CompareCell& other = cell(it->rows, "CPU time of other processes", 0);
    EXPECT_TRUE(other.matters);
    EXPECT_EQ(other.a, "5.0%");
    EXPECT_EQ(other.b, "74.0%");
    EXPECT_NE(other.why.find("in B only"), std::string::npos) << other.why;
    const CompareCell& averages = cell(it->rows, "load average (1 min) before -> after", 0);
    EXPECT_TRUE(averages.matters);  // 7.2 runnable threads on 2 CPUs
    EXPECT_EQ(averages.b, "7.20 -> 7.20");
    EXPECT_FALSE(cell(it->rows, "steal time", 0).matters);
    // The load is said first, and that the timing differences after it may come from it.
    b["clocks"] = json::array({clock("CLOCK_MONOTONIC", 60, 0, 0)});
    const std::string md =
        comparison_markdown(compare_documents(document_of(a), document_of(b)), "a", "b");
    const auto load_line = md.find("- Machine load, CPU time of other processes");
    const auto caveat = md.find("may come from that load");
    const auto clock_line = md.find("- Clock sources, CLOCK_MONOTONIC, read cost");
    ASSERT_NE(load_line, std::string::npos) << md;
    ASSERT_NE(clock_line, std::string::npos) << md;
    EXPECT_LT(load_line, caveat);
    EXPECT_LT(caveat, clock_line);
    b["clocks"] = a["clocks"];
    // Both busy: the load is not a difference between the two runs.
    a["load"] = b["load"];
    EXPECT_EQ(differences_that_matter(compare_documents(document_of(a), document_of(b))), 0);
    // Only one document says how busy its machine was: the section is named and skipped.
    a.erase("load");
    const auto one = compare_documents(document_of(a), document_of(b));
    EXPECT_EQ(one.back().key, "load");
    EXPECT_EQ(one.back().skipped, "only B has this section");
}

TEST(ProbeCompare, AnotherClocksourceMattersAndSkippedSectionsAreSaid) {
    const json a = document("tsc", json::array({clock("CLOCK_MONOTONIC", 25, 0, 0)}));
    json b = document("hpet", json::array());
    b.erase("clocks");
    const auto sections = compare_documents(document_of(a), document_of(b));
    ASSERT_EQ(sections.size(), 2u);
    EXPECT_EQ(sections[0].key, "context");
    EXPECT_TRUE(cell(sections[0].rows, "clocksource", 0).matters);
    EXPECT_FALSE(cell(sections[0].rows, "OS", 0).matters);
    EXPECT_EQ(sections[1].key, "clocks");
    EXPECT_EQ(sections[1].skipped, "only A has this section");
    const std::string md = comparison_markdown(sections, "a.json", "b.json");
    EXPECT_NE(md.find("**tsc / hpet**"), std::string::npos) << md;
    EXPECT_NE(md.find("Not compared: only A has this section."), std::string::npos);
    EXPECT_NE(md.find("## Differences that matter (1)"), std::string::npos);
}

TEST(ProbeCompare, IdenticalDocumentsHaveNoDifferenceThatMatters) {
    const json a = document("tsc", json::array({clock("CLOCK_MONOTONIC", 25, 0, 0)}));
    const auto sections = compare_documents(document_of(a), document_of(a));
    EXPECT_EQ(differences_that_matter(sections), 0);
    EXPECT_NE(comparison_markdown(sections, "a", "a").find("None."), std::string::npos);
}

namespace {
struct Files {
    std::string dir = test::make_temp_dir("loopscope-compare");
    ~Files() { std::filesystem::remove_all(dir); }
    std::string write(const std::string& name, const std::string& text) const {
        const std::string path = dir + "/" + name;
        test::write_text(path, text);
        return path;
    }
};

void expect_one_line_error(const test::RunResult& r, const std::string& expected) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}
}  // namespace

TEST(ProbeCompareCommand, ComparesTwoFiles) {
    Files f;
    const auto a = f.write(
        "a.json", document("tsc", json::array({clock("CLOCK_MONOTONIC", 25, 0, 0)})).dump());
    const auto b = f.write(
        "b.json", document("tsc", json::array({clock("CLOCK_MONOTONIC", 80, 0, 0)})).dump());
    const auto r = test::run_loopscope("probe compare '" + a + "' '" + b + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("**25.0 ns / 80.0 ns**"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("3.2x dearer in B"), std::string::npos) << r.out;
}

TEST(ProbeCompareCommand, AMissingFileIsAOneLineError) {
    Files f;
    const auto b = f.write("b.json", document("tsc", json::array()).dump());
    expect_one_line_error(
        test::run_loopscope("probe compare '" + f.dir + "/none.json' '" + b + "'"),
        "none.json: cannot open");
}

TEST(ProbeCompareCommand, TextThatIsNotJsonIsAOneLineErrorWithLineAndColumn) {
    Files f;
    const auto a = f.write("a.json", "{\n  \"schema\": loopscope\n}\n");
    const auto b = f.write("b.json", document("tsc", json::array()).dump());
    expect_one_line_error(test::run_loopscope("probe compare '" + a + "' '" + b + "'"),
                          "a.json:2:13: not JSON");
}

TEST(ProbeCompareCommand, AnotherSchemaIsAOneLineError) {
    Files f;
    const auto a = f.write("a.json", document("tsc", json::array()).dump());
    const auto b = f.write("b.json", R"({"schema": "something-else/2", "clocks": []})");
    expect_one_line_error(test::run_loopscope("probe compare '" + a + "' '" + b + "'"),
                          "b.json: \"schema\": expected \"loopscope-probe/1\"");
    const auto c = f.write("c.json", "[1, 2, 3]");
    expect_one_line_error(test::run_loopscope("probe compare '" + a + "' '" + c + "'"),
                          "c.json: top level: expected a JSON object");
}

TEST(ProbeCompareCommand, AMalformedClockIsAOneLineErrorNamingTheField) {
    Files f;
    const auto a = f.write("a.json", document("tsc", json::array()).dump());
    json bad = clock("CLOCK_MONOTONIC", 25, 0, 0);
    bad["read_cost_ns"] = "fast";
    const auto b =
        f.write("b.json", document("tsc", json::array({clock("x", 1, 0, 0), bad})).dump());
    expect_one_line_error(test::run_loopscope("probe compare '" + a + "' '" + b + "'"),
                          "b.json: clocks[1].read_cost_ns: expected a number");
    const auto c = f.write("c.json", R"({"schema": "loopscope-probe/1", "clocks": {}})");
    expect_one_line_error(test::run_loopscope("probe compare '" + a + "' '" + c + "'"),
                          "c.json: clocks: expected an array");
}

TEST(ProbeCompareCommand, BinaryDataAndADeviceAreRefusedWithoutReadingThemWhole) {
    Files f;
    const auto a = f.write("a.json", document("tsc", json::array()).dump());
    // /dev/zero never ends: the first byte is already not JSON text.
    expect_one_line_error(test::run_loopscope("probe compare '" + a + "' /dev/zero"),
                          "/dev/zero:1:1: binary data (byte 0x00)");
    const auto b = f.write("b.json", std::string("{\"schema\": \"loopscope-probe/1\"\x01}"));
    expect_one_line_error(test::run_loopscope("probe compare '" + a + "' '" + b + "'"),
                          "b.json:1:31: binary data (byte 0x01)");
}

TEST(ProbeCompareCommand, ADocumentOverTheSizeLimitIsRefused) {
    Files f;
    const auto a = f.write("a.json", document("tsc", json::array()).dump());
    // Valid JSON text, only too long: blanks after the object.
    const auto big = f.write("big.json", document("tsc", json::array()).dump() +
                                             std::string(kMaxProbeDocumentBytes, ' '));
    expect_one_line_error(
        test::run_loopscope("probe compare '" + a + "' '" + big + "'"),
        fmt::format("big.json: larger than {} MiB", kMaxProbeDocumentBytes >> 20));
}

TEST(ProbeCompareCommand, NeedsTwoFiles) {
    const auto r = test::run_loopscope("probe compare only-one.json");
    EXPECT_EQ(r.exit_code, 2);
}
