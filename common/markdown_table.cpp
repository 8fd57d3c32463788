// Padded Markdown tables (see markdown_table.hpp).
#include "common/markdown_table.hpp"

#include <algorithm>

namespace loopscope {

std::string escape_markdown_cell(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        if (c == '|' || c == '\\')
            out += '\\';
        // A line break would end the row; a cell is one line.
        out += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return out;
}

namespace {
// Display width, counting UTF-8 code points rather than bytes (µ, ±, → appear in cells).
std::size_t width_of(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) {
        if ((c & 0xC0) != 0x80)
            ++n;
    }
    return n;
}

std::string pad(const std::string& s, std::size_t width, MarkdownTable::Align align) {
    const std::size_t w = width_of(s);
    const std::string fill(width > w ? width - w : 0, ' ');
    return align == MarkdownTable::Align::left ? s + fill : fill + s;
}
}  // namespace

void MarkdownTable::add_column(std::string title, Align align) {
    titles_.push_back(escape_markdown_cell(title));
    aligns_.push_back(align);
}

void MarkdownTable::add_row(std::vector<std::string> cells) {
    cells.resize(titles_.size());
    for (std::string& cell : cells)
        cell = escape_markdown_cell(cell);
    rows_.push_back(std::move(cells));
}

std::string MarkdownTable::render() const {
    std::vector<std::size_t> widths(titles_.size(), 3);
    for (std::size_t c = 0; c < titles_.size(); ++c) {
        widths[c] = std::max(widths[c], width_of(titles_[c]));
        for (const auto& row : rows_)
            widths[c] = std::max(widths[c], width_of(row[c]));
    }
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        out += '|';
        for (std::size_t c = 0; c < cells.size(); ++c) {
            out += ' ';
            out += pad(cells[c], widths[c], aligns_[c]);
            out += " |";
        }
        out += '\n';
    };
    line(titles_);
    out += '|';
    for (std::size_t c = 0; c < titles_.size(); ++c) {
        out += aligns_[c] == Align::left ? ' ' + std::string(widths[c], '-') + " |"
                                         : ' ' + std::string(widths[c] - 1, '-') + ": |";
    }
    out += '\n';
    for (const auto& row : rows_)
        line(row);
    return out;
}

}  // namespace loopscope
