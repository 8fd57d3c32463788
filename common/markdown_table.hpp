// A Markdown table whose columns are padded to line up, so that it reads well on a terminal and
// pastes into a bug report unchanged.
#pragma once

#include <string>
#include <vector>

namespace loopscope {

// A cell's text made safe inside a table row: `|` and `\` are escaped with a backslash (GitHub
// Flavored Markdown would otherwise split the cell at `|ft_i - ft_(i-1)|`), line breaks become
// spaces.
std::string escape_markdown_cell(const std::string& text);

// Cells and titles are given as plain text and escaped here.
class MarkdownTable {
  public:
    enum class Align { left, right };

    void add_column(std::string title, Align align = Align::right);
    // A row has one cell per column; missing cells are left empty, extra cells are dropped.
    void add_row(std::vector<std::string> cells);
    std::string render() const;
    bool empty() const { return rows_.empty(); }

  private:
    std::vector<std::string> titles_;
    std::vector<Align> aligns_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace loopscope
