// A Markdown table whose columns are padded to line up, so that it reads well on a terminal and
// pastes into a bug report unchanged.
#pragma once

#include <string>
#include <vector>

namespace loopscope {

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
