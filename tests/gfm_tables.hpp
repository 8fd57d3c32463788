// Checks Markdown tables the way a reader sees them: through cmark-gfm, the GitHub Flavored
// Markdown renderer. GFM silently drops the cells a row has beyond its header's, so a pipe left
// unescaped in a cell loses text without any error; these helpers make that visible.
#pragma once

#include <string>
#include <vector>

namespace loopscope::test {

// True when the `cmark-gfm` program is on the PATH (scripts/setup.sh installs it).
bool have_cmark_gfm();

// Renders `markdown` with cmark-gfm and returns one line per table row whose cells do not come
// out as written: every table gets an extra last column "END" before rendering, and each rendered
// row must end with that cell, at the header's column count. Also reports a table row of the
// source that was not rendered as part of a table. Empty when every table renders as written.
std::vector<std::string> gfm_table_problems(const std::string& markdown);

}  // namespace loopscope::test
