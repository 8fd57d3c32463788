// The probes write their results as Markdown (common/markdown_table.hpp) for the terminal and bug
// reports. The HTML report (markdown_html.hpp) and the viewer's probe tab (markdown_view.hpp) show
// that same text rather than a second rendering of the results: this is the one parser both use,
// splitting it into headings, paragraphs, bullets and tables. Pure text handling, no ImGui.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace loopscope {

struct MarkdownBlock {
    enum class Kind { heading, paragraph, bullet, table };
    Kind kind = Kind::paragraph;
    int level = 0;     // headings: the number of '#'
    std::string text;  // heading, paragraph (lines joined by spaces) or bullet text
    // Tables: the header, which columns are right-aligned ("---:"), and the rows (each has as
    // many cells as the header; missing cells are empty).
    std::vector<std::string> header;
    std::vector<bool> right_aligned;
    std::vector<std::vector<std::string>> rows;
};

// Splits the Markdown the probes write into blocks. Only what they use is recognised: '#'
// headings, '- ' bullets (one block each), pipe tables, and paragraphs; blank lines end a
// paragraph. As on GitHub, a table is a header row followed by a separator row whose every cell is
// `:?-+:?` ("---", ":--", "--:", ":-:"); its rows run to the first line not starting with '|'.
std::vector<MarkdownBlock> parse_markdown_blocks(std::string_view markdown);

// A sparkline cell ("50us ▁█▃· 1ms") as its parts: the labels around it and one level per bar,
// 0 (an empty bucket, "·") to 8 ("█"). False when the text holds no bar characters.
struct Sparkline {
    std::string left, right;
    std::vector<int> levels;
};
bool parse_sparkline(std::string_view cell, Sparkline& out);

}  // namespace loopscope
