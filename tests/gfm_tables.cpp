// See gfm_tables.hpp.
#include "tests/gfm_tables.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include "tests/test_support.hpp"

namespace loopscope::test {

namespace {

bool is_table_line(const std::string& line) {
    return line.size() >= 2 && line.front() == '|' && line.back() == '|';
}

bool is_separator(const std::string& line) {
    return is_table_line(line) && line.find_first_not_of("|-: ") == std::string::npos;
}

}  // namespace

bool have_cmark_gfm() {
    return std::system("command -v cmark-gfm >/dev/null 2>&1") == 0;
}

std::vector<std::string> gfm_table_problems(const std::string& markdown) {
    // The marked copy: one more column on every table line.
    std::istringstream in(markdown);
    std::string marked;
    std::size_t source_rows = 0;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (is_separator(line)) {
            line += " --- |";
        } else if (is_table_line(line)) {
            line += " END |";
            ++source_rows;
        }
        marked += line + '\n';
    }
    const std::string dir = make_temp_dir("loopscope-gfm");
    write_text(dir + "/in.md", marked);
    const std::string command =
        fmt::format("cmark-gfm --extension table '{0}/in.md' > '{0}/out.html'", dir);
    std::vector<std::string> problems;
    if (std::system(command.c_str()) != 0) {
        problems.push_back("cmark-gfm failed");
        std::filesystem::remove_all(dir);
        return problems;
    }
    const std::string html = read_text(dir + "/out.html");
    std::filesystem::remove_all(dir);

    static const std::regex table_re(R"(<table>([\s\S]*?)</table>)");
    static const std::regex row_re(R"(<tr>([\s\S]*?)</tr>)");
    static const std::regex cell_re(R"(<t[hd][^>]*>([\s\S]*?)</t[hd]>)");
    std::size_t rendered_rows = 0;
    for (auto t = std::sregex_iterator(html.begin(), html.end(), table_re);
         t != std::sregex_iterator(); ++t) {
        const std::string table = (*t)[1];
        std::size_t header_cells = 0;
        for (auto r = std::sregex_iterator(table.begin(), table.end(), row_re);
             r != std::sregex_iterator(); ++r) {
            const std::string row = (*r)[1];
            std::vector<std::string> cells;
            for (auto c = std::sregex_iterator(row.begin(), row.end(), cell_re);
                 c != std::sregex_iterator(); ++c) {
                cells.push_back((*c)[1]);
            }
            if (header_cells == 0)
                header_cells = cells.size();
            ++rendered_rows;
            if (cells.empty() || cells.back() != "END" || cells.size() != header_cells) {
                std::string text;
                for (const std::string& c : cells)
                    text += c + " | ";
                problems.push_back(fmt::format("row of {} cells (header {}) not ending in END: {}",
                                               cells.size(), header_cells, text));
            }
        }
    }
    if (rendered_rows != source_rows) {
        problems.push_back(fmt::format("{} table rows in the Markdown, {} rendered in tables",
                                       source_rows, rendered_rows));
    }
    return problems;
}

}  // namespace loopscope::test
