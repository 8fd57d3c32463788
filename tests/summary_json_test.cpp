// The summary's JSON text, written without building a JSON tree, against the JSON library's own
// pretty text of the same document built as a tree: the same bytes for numbers of every shape,
// strings that need escapes or are not UTF-8, labels, groups, failed rows and skipped files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "common/output_file.hpp"
#include "tests/test_support.hpp"
#include "writers/summary_writer.hpp"

namespace loopscope {
namespace {

using Json = nlohmann::ordered_json;

// The document as a tree, filled key by key, and the library's text of it (dump(2), invalid
// UTF-8 replaced by U+FFFD).
std::string library_text(const SummaryDocument& doc) {
    const auto labels_json = [](const Labels& labels) {
        Json j = Json::object();
        for (const auto& [k, v] : labels)
            j[k] = v;
        return j;
    };
    const auto number = [](const std::optional<double>& v) { return v ? Json(*v) : Json(); };
    Json rows = Json::array();
    for (const CaptureSummary& r : doc.rows) {
        Json row;
        row["file"] = r.file;
        row["format"] = r.format.empty() ? Json(nullptr) : Json(r.format);
        row["labels"] = labels_json(r.labels);
        row["error"] = r.failed() ? Json(r.error) : Json(nullptr);
        row["hitch_cause"] = r.hitch_cause.empty() ? Json(nullptr) : Json(r.hitch_cause);
        Json figures = Json::object();
        Json absent = Json::object();
        for (const SummaryFigure& f : r.figures) {
            figures[std::string(f.key)] = number(f.value);
            if (!f.value)
                absent[std::string(f.key)] = f.absent;
        }
        row["figures"] = figures;
        row["absent"] = absent;
        rows.push_back(row);
    }
    Json j;
    j["rows"] = rows;
    if (!doc.group_by.empty()) {
        Json groups = Json::array();
        for (const SummaryGroup& g : doc.groups) {
            Json group;
            group["labels"] = labels_json(g.labels);
            group["captures"] = g.captures;
            group["failed"] = g.failed;
            Json figures = Json::object();
            for (const SummaryGroup::Mean& m : g.figures)
                figures[std::string(m.key)] = number(m.value);
            group["figures"] = figures;
            groups.push_back(group);
        }
        j["groups"] = groups;
    }
    Json skipped = Json::array();
    for (const SkippedFile& s : doc.skipped)
        skipped.push_back({{"file", s.file}, {"reason", s.reason}});
    j["skipped"] = skipped;
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string written_text(const SummaryDocument& doc, const std::string& dir) {
    const std::string path = dir + "/summary.json";
    OutputFile out(path);
    write_summary(doc, "json", out);
    out.commit();
    return test::read_text(path);
}

TEST(SummaryJson, SameTextAsTheLibrarysTreeOfTheDocument) {
    const std::string dir = test::make_temp_dir("summary-json");
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<std::optional<double>> values = {
        900.0, 30.000535,    1.0 / 3.0, 0.1 + 0.2,         1e-7,
        1e21,  1e15,         1e16,      123456789.125,     -0.0,
        -2.5,  5e-324,       1.7e308,   std::nan(""),      inf,
        -inf,  std::nullopt, 0.0,       29.999465009540664};
    // Reasons with every kind of byte at every place around the eight-byte words: quotes,
    // backslashes, control bytes, DEL, UTF-8 and bytes that are not UTF-8.
    const std::vector<std::string> specials = {
        "\"",   "\\",  "\n", "\t", "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xf0\x9f\x8e\xae",
        "\xff", "\xc3"};
    std::vector<std::string> reasons;
    for (const std::string& special : specials) {
        for (std::size_t at = 0; at <= 17; ++at)
            reasons.push_back(std::string(at, 'a') + special + std::string(17 - at, 'b'));
    }
    reasons.push_back("");
    reasons.push_back("no frame-start column (PresentMon 2.x FrameTime or MsBetweenAppStart)");
    // Keys that outlive the rows (a row's keys are the catalogue's, which are static).
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < values.size() + reasons.size(); ++i)
        keys.push_back("figure_" + std::to_string(i));

    SummaryDocument doc;
    for (int r = 0; r < 3; ++r) {
        CaptureSummary row;
        row.file =
            r == 1 ? "runs/caf\xc3\xa9 \"quoted\"\\x.csv" : "runs/a" + std::to_string(r) + ".csv";
        row.format = r == 2 ? "" : "frameview";
        row.labels =
            r == 0 ? Labels{} : Labels{{"game", "doom"}, {"config", "\xff"}, {"game", "quake"}};
        std::size_t k = 0;
        for (const std::optional<double>& v : values)
            row.figures.push_back({keys[k++], v, v ? "" : "no such column"});
        for (const std::string& reason : reasons)
            row.figures.push_back({keys[k++], std::nullopt, reason});
        doc.rows.push_back(row);
    }
    CaptureSummary failed;
    failed.file = "runs/bad.csv";
    failed.error = "runs/bad.csv:3:7: \"Error\" is not a number";
    doc.rows.push_back(failed);
    doc.group_by = {"game", "game"};
    SummaryGroup group;
    group.labels = {{"game", "doom"}, {"game", ""}};
    group.captures = 2;
    group.failed = 1;
    for (std::size_t i = 0; i < values.size(); ++i)
        group.figures.push_back({keys[i], values[i], i});
    doc.groups.push_back(group);
    doc.groups.push_back(SummaryGroup{});
    doc.skipped.push_back({"runs/notes.txt", "unknown format: the first line is 'hello'"});
    doc.skipped.push_back({"runs/\x01.csv", "\xfe"});

    EXPECT_EQ(written_text(doc, dir), library_text(doc));

    // Nothing at all: empty arrays, no groups.
    EXPECT_EQ(written_text(SummaryDocument{}, dir), library_text(SummaryDocument{}));
    // Rows without figures and labels, no skipped files.
    SummaryDocument bare;
    bare.rows.push_back(CaptureSummary{});
    bare.rows.back().file = "x.csv";
    EXPECT_EQ(written_text(bare, dir), library_text(bare));
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
