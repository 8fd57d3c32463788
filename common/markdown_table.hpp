// Tables and sections of results as plain data, and their Markdown. A writer builds a TextSection
// (headings, paragraphs, bullet lists and tables of cell strings); the terminal and the report
// files print it as Markdown (render_markdown, MarkdownTable::render: columns padded to line up,
// so it reads well on a terminal and pastes into a bug report unchanged), and the viewer draws
// the same data as its own widgets, without reading the Markdown back.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace loopscope {

// A cell's text made safe inside a table row: `|` and `\` are escaped with a backslash (GitHub
// Flavored Markdown would otherwise split the cell at `|ft_i - ft_(i-1)|`), line breaks become
// spaces.
std::string escape_markdown_cell(const std::string& text);

// A histogram in one cell: one bar per bucket, its level 0 (an empty bucket) to 8 (the fullest),
// between the labels of the lowest and highest bucket edge in use ("50us", "1ms").
struct Sparkline {
    std::string left, right;
    std::vector<int> levels;
    friend bool operator==(const Sparkline&, const Sparkline&) = default;
};

// The bars as text: "50us ▁█▃· 1ms" (block characters ▁ to █ for levels 1 to 8, "·" for 0);
// "(empty)" when there are no bars.
std::string sparkline_text(const Sparkline& bars);

// One cell: its text, and for a histogram the bars that text shows (text = sparkline_text(bars)),
// for a front end that draws them.
struct TableCell {
    TableCell() = default;
    TableCell(std::string text_) : text(std::move(text_)) {}
    TableCell(const char* text_) : text(text_) {}
    explicit TableCell(Sparkline bars_) : text(sparkline_text(bars_)), bars(std::move(bars_)) {}
    std::string text;
    std::optional<Sparkline> bars;
    friend bool operator==(const TableCell&, const TableCell&) = default;
};

// Cells and titles are kept as plain text; render() escapes them.
class MarkdownTable {
  public:
    enum class Align { left, right };
    struct Column {
        std::string title;
        Align align = Align::right;
        friend bool operator==(const Column&, const Column&) = default;
    };

    void add_column(std::string title, Align align = Align::right);
    // A row has one cell per column; missing cells are left empty, extra cells are dropped.
    void add_row(std::vector<std::string> cells);
    void add_cells(std::vector<TableCell> cells);
    std::string render() const;
    bool empty() const { return rows_.empty(); }

    const std::vector<Column>& columns() const { return columns_; }
    const std::vector<std::vector<TableCell>>& rows() const { return rows_; }
    friend bool operator==(const MarkdownTable&, const MarkdownTable&) = default;

  private:
    std::vector<Column> columns_;
    std::vector<std::vector<TableCell>> rows_;
};

// One block of a section.
struct TextBlock {
    enum class Kind { heading, paragraph, bullets, table };
    Kind kind = Kind::paragraph;
    // A heading ("## " in Markdown) or a paragraph. A paragraph's line breaks are where the
    // terminal's lines end; a front end that wraps text may join its lines.
    std::string text;
    std::vector<std::string> items;  // bullets, one "- " line each
    MarkdownTable table;
    // Blank lines before the block in the Markdown: TextSection's add functions give 0 to the
    // first block and 1 to the others; a list its paragraph introduces has 0.
    int blank_lines_before = 1;
    friend bool operator==(const TextBlock&, const TextBlock&) = default;
};

struct TextSection {
    // What the section is ("Clock sources"), for a front end's header; the Markdown prints only
    // the blocks, whose headings carry the titles.
    std::string title;
    std::vector<TextBlock> blocks;

    // Each appends a block and returns it (to adjust its spacing).
    TextBlock& add_heading(std::string text);
    TextBlock& add_paragraph(std::string text);
    TextBlock& add_bullets(std::vector<std::string> items);
    TextBlock& add_table(MarkdownTable table);
    friend bool operator==(const TextSection&, const TextSection&) = default;
};

std::string render_markdown(const TextSection& section);

// GitHub's anchor of a heading ("Clock sources" -> "clock-sources"): lower case, spaces to '-',
// other ASCII punctuation dropped, so a Markdown link to it works on GitHub and in the HTML.
std::string heading_anchor(std::string_view heading);

}  // namespace loopscope
