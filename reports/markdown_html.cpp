#include "reports/markdown_html.hpp"

#include <vector>

#include "reports/writer.hpp"

namespace loopscope {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// Escapes the text and renders `code` spans; everything else stays as written.
std::string inline_html(std::string_view text) {
    std::string out;
    bool in_code = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == '`') {
            out += html_escape(text.substr(start, i - start));
            if (i < text.size())
                out += in_code ? "</code>" : "<code>";
            in_code = i < text.size() ? !in_code : in_code;
            start = i + 1;
        }
    }
    if (in_code)
        out += "</code>";
    return out;
}

std::vector<std::string_view> table_cells(std::string_view line) {
    line = trim(line);
    if (!line.empty() && line.front() == '|')
        line.remove_prefix(1);
    if (!line.empty() && line.back() == '|')
        line.remove_suffix(1);
    std::vector<std::string_view> cells;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= line.size(); ++i) {
        if (i == line.size() || line[i] == '|') {
            cells.push_back(trim(line.substr(start, i - start)));
            start = i + 1;
        }
    }
    return cells;
}

bool is_separator_row(std::string_view line) {
    for (char c : line) {
        if (c != '|' && c != '-' && c != ':' && c != ' ')
            return false;
    }
    return true;
}

}  // namespace

std::string markdown_to_html(std::string_view markdown) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start <= markdown.size()) {
        std::size_t end = markdown.find('\n', start);
        if (end == std::string_view::npos)
            end = markdown.size();
        lines.push_back(markdown.substr(start, end - start));
        start = end + 1;
    }

    std::string out;
    std::string paragraph;
    auto flush_paragraph = [&] {
        if (!paragraph.empty())
            out += "<p>" + paragraph + "</p>\n";
        paragraph.clear();
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = trim(lines[i]);
        if (line.empty()) {
            flush_paragraph();
        } else if (line.front() == '#') {
            flush_paragraph();
            std::size_t level = 0;
            while (level < line.size() && line[level] == '#')
                ++level;
            const auto text = trim(line.substr(level));
            const auto tag = "h" + std::to_string(level > 6 ? 6 : level);
            out += "<" + tag + ">" + inline_html(text) + "</" + tag + ">\n";
        } else if (line.starts_with("- ")) {
            flush_paragraph();
            out += "<ul>\n";
            for (; i < lines.size() && trim(lines[i]).starts_with("- "); ++i) {
                out += "<li>" + inline_html(trim(lines[i]).substr(2)) + "</li>\n";
            }
            --i;
            out += "</ul>\n";
        } else if (line.front() == '|') {
            flush_paragraph();
            out += "<table>\n";
            bool header = true;
            for (; i < lines.size() && trim(lines[i]).starts_with("|"); ++i) {
                const auto row = trim(lines[i]);
                if (is_separator_row(row))
                    continue;
                const char* cell_tag = header ? "th" : "td";
                out += "<tr>";
                for (auto cell : table_cells(row)) {
                    out += std::string("<") + cell_tag + ">" + inline_html(cell) + "</" + cell_tag +
                           ">";
                }
                out += "</tr>\n";
                header = false;
            }
            --i;
            out += "</table>\n";
        } else {
            if (!paragraph.empty())
                paragraph += ' ';
            paragraph += inline_html(line);
        }
    }
    flush_paragraph();
    return out;
}

}  // namespace loopscope
