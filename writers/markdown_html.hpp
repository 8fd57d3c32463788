// Turns the Markdown that loopscope's own text output is made of (headings, paragraphs, "- "
// lists, pipe tables, `code`) into HTML, so that one text serves the terminal, a bug report and
// the HTML report alike. It is not a general Markdown parser: it knows only those forms.
#pragma once

#include <string>
#include <string_view>

namespace loopscope {

std::string markdown_to_html(std::string_view markdown);

}  // namespace loopscope
