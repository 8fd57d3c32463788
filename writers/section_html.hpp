// Sections and tables of results (common/markdown_table.hpp) written as HTML directly: a heading
// becomes <hN id="its GitHub anchor">, a paragraph <p> (its lines joined), bullets a <ul>, a table
// a <table> whose first row holds the header cells. Every text is escaped with html_escape.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "common/markdown_table.hpp"

namespace loopscope {

// What the texts of a section are. The probes' sections are written for Markdown readers and mark
// `code`, **strong** and links to a heading of the same page ([text](#anchor)): with
// `inline_markup` those become <code>, <strong> and <a href="#anchor">. Data (file names, labels,
// figures) is `plain`: shown exactly as it is.
enum class TextMarkup { plain, inline_markup };

// The ids of one page's headings: GitHub's anchor (heading_anchor), with "-1", "-2" ... after a
// repeated one, as GitHub does.
class HtmlHeadingIds {
  public:
    std::string next(std::string_view heading);

  private:
    std::map<std::string, int> seen_;
};

// `text` escaped, with the inline marks rendered (TextMarkup::inline_markup).
std::string html_inline(std::string_view text);

std::string html_heading(int level, std::string_view text, TextMarkup markup, HtmlHeadingIds& ids);
std::string html_table(const MarkdownTable& table, TextMarkup markup);
// A section's headings are level `heading_level` (its Markdown's "## ").
std::string html_section(const TextSection& section, TextMarkup markup, HtmlHeadingIds& ids,
                         int heading_level = 2);

}  // namespace loopscope
