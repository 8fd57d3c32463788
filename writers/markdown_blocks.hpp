// The probes write their results as Markdown (common/markdown_table.hpp) for the terminal and bug
// reports. The HTML of `loopscope diagnose` (markdown_html.hpp) shows that same text rather than a
// second rendering of the results: this parser splits it into headings, paragraphs, bullets and
// tables. Pure text handling. (The viewer's probe tab draws the probes' TextSections directly.)
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

}  // namespace loopscope
