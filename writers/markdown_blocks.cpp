// Splitting the probes' Markdown into blocks (see markdown_blocks.hpp).
#include "writers/markdown_blocks.hpp"

#include <algorithm>

#include "common/text.hpp"

namespace loopscope {

namespace {

// "| a | b \| c |" -> {"a", "b | c"}: cells split at the pipes that are not escaped, and the
// escapes common/markdown_table writes (`\|`, `\\`) undone.
std::vector<std::string> split_row(std::string_view line) {
    line = trim(line);
    if (!line.empty() && line.front() == '|') {
        line.remove_prefix(1);
    }
    std::vector<std::string> cells;
    std::string cell;
    bool open = false;  // text after the last pipe
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '\\' && i + 1 < line.size() && (line[i + 1] == '|' || line[i + 1] == '\\')) {
            cell += line[++i];
            open = true;
        } else if (c == '|') {
            cells.emplace_back(trim(cell));
            cell.clear();
            open = false;
        } else {
            cell += c;
            open = true;
        }
    }
    if (open || cells.empty()) {
        cells.emplace_back(trim(cell));
    }
    return cells;
}

// Every cell `:?-+:?` as GitHub has it: "| : |", "| -:- |" or an empty cell do not make a table.
bool is_separator_row(const std::vector<std::string>& cells) {
    for (std::string_view c : cells) {
        if (!c.empty() && c.front() == ':') {
            c.remove_prefix(1);
        }
        if (!c.empty() && c.back() == ':') {
            c.remove_suffix(1);
        }
        if (c.empty() || c.find_first_not_of('-') != std::string_view::npos) {
            return false;
        }
    }
    return !cells.empty();
}

bool is_table_line(std::string_view line) {
    line = trim(line);
    return line.size() >= 2 && line.front() == '|';
}

}  // namespace

std::vector<MarkdownBlock> parse_markdown_blocks(std::string_view markdown) {
    std::vector<MarkdownBlock> blocks;
    std::vector<std::string_view> lines;
    while (!markdown.empty()) {
        const auto nl = markdown.find('\n');
        lines.push_back(markdown.substr(0, nl));
        if (nl == std::string_view::npos) {
            break;
        }
        markdown.remove_prefix(nl + 1);
    }
    bool in_paragraph = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = trim(lines[i]);
        if (line.empty()) {
            in_paragraph = false;
            continue;
        }
        if (line.front() == '#') {
            const auto level = line.find_first_not_of('#');
            MarkdownBlock b;
            b.kind = MarkdownBlock::Kind::heading;
            b.level = static_cast<int>(level == std::string_view::npos ? line.size() : level);
            b.text = std::string(trim(line.substr(std::min(line.size(), level))));
            blocks.push_back(std::move(b));
            in_paragraph = false;
            continue;
        }
        if (is_table_line(line) && i + 1 < lines.size() && is_table_line(lines[i + 1]) &&
            is_separator_row(split_row(lines[i + 1]))) {
            MarkdownBlock b;
            b.kind = MarkdownBlock::Kind::table;
            b.header = split_row(line);
            for (const std::string& sep : split_row(lines[i + 1])) {
                b.right_aligned.push_back(sep.size() > 1 && sep.back() == ':' &&
                                          sep.front() != ':');
            }
            b.right_aligned.resize(b.header.size(), false);
            i += 2;
            for (; i < lines.size() && is_table_line(lines[i]); ++i) {
                auto cells = split_row(lines[i]);
                cells.resize(b.header.size());
                b.rows.push_back(std::move(cells));
            }
            --i;  // the loop's ++i moves past the table
            blocks.push_back(std::move(b));
            in_paragraph = false;
            continue;
        }
        if (line.size() >= 2 && line[0] == '-' && line[1] == ' ') {
            MarkdownBlock b;
            b.kind = MarkdownBlock::Kind::bullet;
            b.text = std::string(trim(line.substr(2)));
            blocks.push_back(std::move(b));
            in_paragraph = false;
            continue;
        }
        if (in_paragraph && !blocks.empty()) {
            blocks.back().text += ' ';
            blocks.back().text += line;
        } else {
            MarkdownBlock b;
            b.kind = MarkdownBlock::Kind::paragraph;
            b.text = std::string(line);
            blocks.push_back(std::move(b));
            in_paragraph = true;
        }
    }
    return blocks;
}

}  // namespace loopscope
