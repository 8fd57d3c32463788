// Every Markdown table loopscope writes renders, through a real GitHub Flavored Markdown renderer
// (cmark-gfm), with each cell in its own column: a `|` inside a cell (`|ft_i - ft_(i-1)|`,
// `|error|`) is escaped instead of splitting the row. Skipped, with the reason, where cmark-gfm
// is not installed (scripts/setup.sh installs it).
#include <gtest/gtest.h>

#include <filesystem>

#include "common/markdown_table.hpp"
#include "tests/gfm_tables.hpp"
#include "tests/test_support.hpp"
#include "writers/section_html.hpp"

using namespace loopscope;
using namespace loopscope::test;

namespace {

#define REQUIRE_CMARK_GFM()                                                                    \
    if (!have_cmark_gfm())                                                                     \
    GTEST_SKIP() << "cmark-gfm is not installed (apt-get install cmark-gfm); the Markdown is " \
                    "not rendered"

std::string join(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines)
        out += l + '\n';
    return out;
}

}  // namespace

TEST(MarkdownTable, EscapesPipesAndBackslashesInCells) {
    MarkdownTable t;
    t.add_column("figure", MarkdownTable::Align::left);
    t.add_column("definition", MarkdownTable::Align::left);
    t.add_row({"change", "|ft_i - ft_(i-1)|"});
    t.add_row({"path", "C:\\Games\\x.exe"});
    const std::string md = t.render();
    EXPECT_NE(md.find("\\|ft_i - ft_(i-1)\\|"), std::string::npos) << md;
    EXPECT_NE(md.find("C:\\\\Games\\\\x.exe"), std::string::npos) << md;
    // The HTML, written from the same table without reading the Markdown back, keeps them too.
    const std::string html = html_table(t, TextMarkup::plain);
    EXPECT_NE(html.find("<td>|ft_i - ft_(i-1)|</td>"), std::string::npos) << html;
    EXPECT_NE(html.find("<td>C:\\Games\\x.exe</td>"), std::string::npos) << html;
}

TEST(MarkdownRender, TheCheckFindsACellSplitByAnUnescapedPipe) {
    REQUIRE_CMARK_GFM();
    const std::string broken = "| a | b |\n| - | - |\n| 1 | |x| |\n";
    EXPECT_FALSE(gfm_table_problems(broken).empty());
    MarkdownTable t;
    t.add_column("a");
    t.add_column("b");
    t.add_row({"1", "|x|"});
    EXPECT_EQ(join(gfm_table_problems(t.render())), "");
}

TEST(MarkdownRender, ReportTablesKeepEveryCellInItsColumn) {
    REQUIRE_CMARK_GFM();
    const std::string dir = make_temp_dir("loopscope-md");
    const std::string trace = dir + "/hitch.csv";
    ASSERT_EQ(
        run_loopscope("run --clock virtual --scenario hitch-200ms --frames 300 -o '" + trace + "'")
            .exit_code,
        0);
    const RunResult md = run_loopscope("report '" + trace + "' --format md");
    ASSERT_EQ(md.exit_code, 0) << md.err;
    ASSERT_NE(md.out.find("ft_(i-1)"), std::string::npos);  // the cell this test is about
    EXPECT_EQ(join(gfm_table_problems(md.out)), "");
    // A comparison of two captures is a table too.
    const RunResult cmp = run_loopscope("report '" + trace + "' '" + trace + "' --format md");
    ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
    EXPECT_EQ(join(gfm_table_problems(cmp.out)), "");
    std::filesystem::remove_all(dir);
}

TEST(MarkdownRender, ProbeTablesKeepEveryCellInItsColumn) {
    REQUIRE_CMARK_GFM();
    const RunResult clocks = run_loopscope("probe clocks --duration 200ms");
    ASSERT_EQ(clocks.exit_code, 0) << clocks.err;
    EXPECT_EQ(join(gfm_table_problems(clocks.out)), "");
}
