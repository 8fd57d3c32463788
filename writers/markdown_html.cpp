// Markdown blocks (markdown_blocks.hpp, the parser the viewer uses too) as HTML.
#include "writers/markdown_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "common/markdown_table.hpp"
#include "writers/markdown_blocks.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

// Outside code: **strong** and links to a heading of the same page, [text](#anchor).
std::string inline_plain_html(std::string_view text) {
    std::string out;
    bool strong = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size();) {
        if (text.compare(i, 2, "**") == 0) {
            out += html_escape(text.substr(start, i - start));
            out += strong ? "</strong>" : "<strong>";
            strong = !strong;
            i += 2;
            start = i;
            continue;
        }
        if (text[i] == '[') {
            const std::size_t close = text.find("](#", i);
            const std::size_t end = close == std::string_view::npos ? close : text.find(')', close);
            if (end != std::string_view::npos && text.find('[', i + 1) > close) {
                out += html_escape(text.substr(start, i - start));
                out += fmt::format("<a href=\"#{}\">{}</a>",
                                   html_escape(text.substr(close + 3, end - close - 3)),
                                   html_escape(text.substr(i + 1, close - i - 1)));
                i = end + 1;
                start = i;
                continue;
            }
        }
        ++i;
    }
    out += html_escape(text.substr(start));
    if (strong)
        out += "</strong>";
    return out;
}

// Escapes the text and renders `code` spans, **strong** and [links](#anchor) outside them;
// everything else stays as written.
std::string inline_html(std::string_view text) {
    std::string out;
    bool in_code = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == '`') {
            const std::string_view part = text.substr(start, i - start);
            out += in_code ? html_escape(part) : inline_plain_html(part);
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

void table_row(std::string& out, const std::vector<std::string>& cells, const char* tag) {
    out += "<tr>";
    for (const std::string& cell : cells) {
        out += std::string("<") + tag + ">" + inline_html(cell) + "</" + tag + ">";
    }
    out += "</tr>\n";
}

}  // namespace

std::string markdown_to_html(std::string_view markdown) {
    const std::vector<MarkdownBlock> blocks = parse_markdown_blocks(markdown);
    std::string out;
    // Each heading's id is GitHub's anchor, with "-1", "-2" ... after a repeated one.
    std::map<std::string, int> anchors_seen;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const MarkdownBlock& b = blocks[i];
        switch (b.kind) {
            case MarkdownBlock::Kind::heading: {
                const auto tag = fmt::format("h{}", std::clamp(b.level, 1, 6));
                std::string id = heading_anchor(b.text);
                if (const int n = anchors_seen[id]++; n > 0)
                    id += fmt::format("-{}", n);
                out += fmt::format("<{0} id=\"{2}\">{1}</{0}>\n", tag, inline_html(b.text),
                                   html_escape(id));
                break;
            }
            case MarkdownBlock::Kind::paragraph:
                out += "<p>" + inline_html(b.text) + "</p>\n";
                break;
            case MarkdownBlock::Kind::bullet:
                // Bullets next to each other are one list.
                out += "<ul>\n";
                for (; i < blocks.size() && blocks[i].kind == MarkdownBlock::Kind::bullet; ++i) {
                    out += "<li>" + inline_html(blocks[i].text) + "</li>\n";
                }
                --i;  // the loop's ++i moves past the list
                out += "</ul>\n";
                break;
            case MarkdownBlock::Kind::table:
                out += "<table>\n";
                table_row(out, b.header, "th");
                for (const auto& row : b.rows) {
                    table_row(out, row, "td");
                }
                out += "</table>\n";
                break;
        }
    }
    return out;
}

}  // namespace loopscope
