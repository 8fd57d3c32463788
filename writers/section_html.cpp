// Sections and tables as HTML (see section_html.hpp).
#include "writers/section_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

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

std::string text_html(std::string_view text, TextMarkup markup) {
    return markup == TextMarkup::inline_markup ? html_inline(text) : html_escape(text);
}

void table_row(std::string& out, const std::vector<std::string>& cells, const char* tag,
               TextMarkup markup) {
    out += "<tr>";
    for (const std::string& cell : cells)
        out += fmt::format("<{0}>{1}</{0}>", tag, text_html(cell, markup));
    out += "</tr>\n";
}

// A paragraph's line breaks are where the terminal's lines end; in HTML the lines flow as one.
std::string joined_lines(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
}

}  // namespace

std::string HtmlHeadingIds::next(std::string_view heading) {
    std::string id = heading_anchor(heading);
    if (const int n = seen_[id]++; n > 0)
        id += fmt::format("-{}", n);
    return id;
}

// Escapes the text and renders `code` spans, **strong** and [links](#anchor) outside them;
// everything else stays as written.
std::string html_inline(std::string_view text) {
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

std::string html_heading(int level, std::string_view text, TextMarkup markup, HtmlHeadingIds& ids) {
    const std::string tag = fmt::format("h{}", std::clamp(level, 1, 6));
    return fmt::format("<{0} id=\"{2}\">{1}</{0}>\n", tag, text_html(text, markup),
                       html_escape(ids.next(text)));
}

std::string html_table(const MarkdownTable& table, TextMarkup markup) {
    std::vector<std::string> header;
    for (const MarkdownTable::Column& c : table.columns())
        header.push_back(c.title);
    std::string out = "<table>\n";
    table_row(out, header, "th", markup);
    for (const auto& row : table.rows()) {
        std::vector<std::string> cells;
        for (const TableCell& cell : row)
            cells.push_back(cell.text);
        table_row(out, cells, "td", markup);
    }
    return out + "</table>\n";
}

std::string html_section(const TextSection& section, TextMarkup markup, HtmlHeadingIds& ids,
                         int heading_level) {
    std::string out;
    for (const TextBlock& b : section.blocks) {
        switch (b.kind) {
            case TextBlock::Kind::heading:
                out += html_heading(heading_level, b.text, markup, ids);
                break;
            case TextBlock::Kind::paragraph:
                out += "<p>" + text_html(joined_lines(b.text), markup) + "</p>\n";
                break;
            case TextBlock::Kind::bullets:
                out += "<ul>\n";
                for (const std::string& item : b.items)
                    out += "<li>" + text_html(item, markup) + "</li>\n";
                out += "</ul>\n";
                break;
            case TextBlock::Kind::table:
                out += html_table(b.table, markup);
                break;
        }
    }
    return out;
}

}  // namespace loopscope
