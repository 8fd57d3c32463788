// docs/reports.md lists every key of the figure catalogue, so that a reader finds each figure by
// its key although families of figures are declared from tables: the list and the catalogue
// must agree, key for key and in order, with each key's section and unit.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/figures.hpp"

namespace {

constexpr std::string_view kHeading = "### Every figure key";

struct KeyRow {
    std::string key, section, unit;
    bool operator==(const KeyRow&) const = default;
};

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(' ');
    const auto e = s.find_last_not_of(' ');
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// The rows "| `key` | section | unit |" under the heading, up to the next heading.
std::vector<KeyRow> documented_keys(std::istream& in) {
    std::vector<KeyRow> rows;
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.starts_with("#")) {
            inside = line == kHeading;
            continue;
        }
        if (!inside || !line.starts_with("| `"))
            continue;
        std::vector<std::string> cells;
        std::istringstream cells_in(line.substr(1));
        std::string cell;
        while (std::getline(cells_in, cell, '|'))
            cells.push_back(trim(cell));
        if (cells.size() < 3)
            continue;
        std::string key = cells[0];
        if (key.size() >= 2 && key.front() == '`' && key.back() == '`')
            key = key.substr(1, key.size() - 2);
        rows.push_back({key, cells[1], cells[2]});
    }
    return rows;
}

std::string as_markdown(const KeyRow& r) {
    return "| `" + r.key + "` | " + r.section + " | " + r.unit + " |";
}

TEST(FigureKeysDocs, ReportsMdListsEveryCatalogueKeyInOrder) {
    std::vector<KeyRow> catalogue;
    for (const loopscope::Figure& f : loopscope::figure_catalogue()) {
        if (!f.key.empty())
            catalogue.push_back({std::string(f.key), std::string(f.section), std::string(f.unit)});
    }
    ASSERT_GT(catalogue.size(), 100u);
    std::ifstream in(std::string(LOOPSCOPE_SOURCE_DIR) + "/docs/reports.md");
    ASSERT_TRUE(in) << "docs/reports.md not found";
    const std::vector<KeyRow> documented = documented_keys(in);
    if (documented != catalogue) {
        // The list as it should read, to paste under the heading.
        std::string expected;
        for (const KeyRow& r : catalogue)
            expected += as_markdown(r) + "\n";
        for (std::size_t i = 0; i < std::max(documented.size(), catalogue.size()); ++i) {
            const std::string doc = i < documented.size() ? as_markdown(documented[i]) : "(none)";
            const std::string cat = i < catalogue.size() ? as_markdown(catalogue[i]) : "(none)";
            if (doc != cat) {
                ADD_FAILURE() << "docs/reports.md, " << kHeading << ", row " << i + 1 << ": " << doc
                              << "\nthe catalogue: " << cat;
                break;
            }
        }
        ADD_FAILURE() << "the rows the catalogue gives:\n" << expected;
    }
}

}  // namespace
