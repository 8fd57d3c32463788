// The probes write their results as Markdown (common/markdown_table.hpp) for the terminal and bug
// reports. The viewer shows that same text rather than a second rendering of the results: this
// splits it into headings, paragraphs, bullets and tables (markdown_view.hpp draws them). Pure
// text handling, no ImGui, so it is tested on its own.
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
// headings, '- ' bullets, pipe tables with a separator line, and paragraphs; blank lines end a
// paragraph.
std::vector<MarkdownBlock> parse_markdown_blocks(std::string_view markdown);

// A sparkline cell ("50us ▁█▃· 1ms") as its parts: the labels around it and one level per bar,
// 0 (an empty bucket, "·") to 8 ("█"). False when the text holds no bar characters.
struct Sparkline {
    std::string left, right;
    std::vector<int> levels;
};
bool parse_sparkline(std::string_view cell, Sparkline& out);

}  // namespace loopscope
