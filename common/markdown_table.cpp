// Tables and sections as Markdown (see markdown_table.hpp).
#include "common/markdown_table.hpp"

#include <algorithm>
#include <cctype>

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

std::string sparkline_text(const Sparkline& bars) {
    static const char* const kBars[] = {"·", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    if (bars.levels.empty())
        return "(empty)";
    std::string out = bars.left + " ";
    for (const int level : bars.levels)
        out += kBars[std::clamp(level, 0, 8)];
    return out + " " + bars.right;
}

void MarkdownTable::add_column(std::string title, Align align) {
    columns_.push_back({std::move(title), align});
}

void MarkdownTable::add_row(std::vector<std::string> cells) {
    std::vector<TableCell> row;
    row.reserve(cells.size());
    for (std::string& cell : cells)
        row.emplace_back(std::move(cell));
    add_cells(std::move(row));
}

void MarkdownTable::add_cells(std::vector<TableCell> cells) {
    cells.resize(columns_.size());
    rows_.push_back(std::move(cells));
}

std::string MarkdownTable::render() const {
    const std::size_t n = columns_.size();
    std::vector<std::string> titles;
    for (const Column& c : columns_)
        titles.push_back(escape_markdown_cell(c.title));
    std::vector<std::vector<std::string>> rows;
    for (const auto& row : rows_) {
        std::vector<std::string> cells;
        for (const TableCell& cell : row)
            cells.push_back(escape_markdown_cell(cell.text));
        rows.push_back(std::move(cells));
    }
    std::vector<std::size_t> widths(n, 3);
    for (std::size_t c = 0; c < n; ++c) {
        widths[c] = std::max(widths[c], width_of(titles[c]));
        for (const auto& row : rows)
            widths[c] = std::max(widths[c], width_of(row[c]));
    }
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        out += '|';
        for (std::size_t c = 0; c < cells.size(); ++c) {
            out += ' ';
            out += pad(cells[c], widths[c], columns_[c].align);
            out += " |";
        }
        out += '\n';
    };
    line(titles);
    out += '|';
    for (std::size_t c = 0; c < n; ++c) {
        out += columns_[c].align == Align::left ? ' ' + std::string(widths[c], '-') + " |"
                                                : ' ' + std::string(widths[c] - 1, '-') + ": |";
    }
    out += '\n';
    for (const auto& row : rows)
        line(row);
    return out;
}

namespace {
TextBlock& add_block(TextSection& s, TextBlock b) {
    b.blank_lines_before = s.blocks.empty() ? 0 : 1;
    s.blocks.push_back(std::move(b));
    return s.blocks.back();
}
}  // namespace

TextBlock& TextSection::add_heading(std::string text) {
    TextBlock b;
    b.kind = TextBlock::Kind::heading;
    b.text = std::move(text);
    return add_block(*this, std::move(b));
}

TextBlock& TextSection::add_paragraph(std::string text) {
    TextBlock b;
    b.kind = TextBlock::Kind::paragraph;
    b.text = std::move(text);
    return add_block(*this, std::move(b));
}

TextBlock& TextSection::add_bullets(std::vector<std::string> items) {
    TextBlock b;
    b.kind = TextBlock::Kind::bullets;
    b.items = std::move(items);
    return add_block(*this, std::move(b));
}

TextBlock& TextSection::add_table(MarkdownTable table) {
    TextBlock b;
    b.kind = TextBlock::Kind::table;
    b.table = std::move(table);
    return add_block(*this, std::move(b));
}

std::string render_markdown(const TextSection& section) {
    std::string out;
    for (const TextBlock& b : section.blocks) {
        out.append(static_cast<std::size_t>(std::max(b.blank_lines_before, 0)), '\n');
        switch (b.kind) {
            case TextBlock::Kind::heading:
                out += "## " + b.text + "\n";
                break;
            case TextBlock::Kind::paragraph:
                out += b.text + "\n";
                break;
            case TextBlock::Kind::bullets:
                for (const std::string& item : b.items)
                    out += "- " + item + "\n";
                break;
            case TextBlock::Kind::table:
                out += b.table.render();
                break;
        }
    }
    return out;
}

std::string heading_anchor(std::string_view heading) {
    std::string out;
    for (const char ch : heading) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || c >= 0x80 || ch == '-' || ch == '_')
            out += static_cast<char>(c < 0x80 ? std::tolower(c) : c);
        else if (ch == ' ')
            out += '-';
    }
    return out;
}

}  // namespace loopscope
