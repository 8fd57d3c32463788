// A small CSV table read independently of the project's readers, for tests that re-compute a
// tool's figures from a capture's own cells (quotes dropped, a UTF-8 byte-order mark left out).
#pragma once

#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace loopscope::test {

struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    int column(const std::string& name) const {
        for (std::size_t i = 0; i < header.size(); ++i) {
            if (header[i] == name)
                return static_cast<int>(i);
        }
        return -1;
    }
    // The row's cell under `name`, empty when there is no such column.
    const std::string& cell(std::size_t row, const std::string& name) const {
        static const std::string none;
        const int c = column(name);
        return c < 0 ? none : rows[row][static_cast<std::size_t>(c)];
    }
};

// One CSV line split at commas outside double quotes (quotes dropped).
inline std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (const char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            out.emplace_back();
        else if (c != '\r')
            out.back() += c;
    }
    return out;
}

// The table whose header is the first row starting with the cell `first`; its rows are the rows
// after it with more than one cell.
inline Table read_table(const std::string& path, const std::string& first) {
    std::ifstream in(path);
    Table t;
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("\xEF\xBB\xBF"))
            line.erase(0, 3);
        auto cells = split_csv(line);
        if (t.header.empty()) {
            if (!cells.empty() && cells[0] == first)
                t.header = std::move(cells);
        } else if (cells.size() > 1) {
            t.rows.push_back(std::move(cells));
        }
    }
    return t;
}

}  // namespace loopscope::test
