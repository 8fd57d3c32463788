// The one parser of the probes' Markdown (writers/markdown_blocks.hpp) and the HTML made from it.
// The viewer draws the same blocks; it has no parser of its own, so these tests cover it too and
// run in every build, with or without the viewer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/markdown_table.hpp"
#include "probes/clock_report.hpp"
#include "writers/markdown_blocks.hpp"
#include "writers/markdown_html.hpp"

using namespace loopscope;

// The probe panel shows the probes' own Markdown as tables: the split must keep every cell.
TEST(MarkdownBlocks, SplitsHeadingsParagraphsBulletsAndTables) {
    const std::string md =
        "## Clock sources\n\n"
        "2 clocks in 1 s; at least\nten reads each.\n\n"
        "| clock | read cost | note |\n"
        "| ----- | --------: | :--- |\n"
        "| a     |    1.0 ns | x    |\n"
        "| b     |    2.0 ns |\n"
        "\n- first finding\n- second finding\n";
    const auto blocks = parse_markdown_blocks(md);
    ASSERT_EQ(blocks.size(), 5u);
    EXPECT_EQ(blocks[0].kind, MarkdownBlock::Kind::heading);
    EXPECT_EQ(blocks[0].level, 2);
    EXPECT_EQ(blocks[0].text, "Clock sources");
    EXPECT_EQ(blocks[1].kind, MarkdownBlock::Kind::paragraph);
    EXPECT_EQ(blocks[1].text, "2 clocks in 1 s; at least ten reads each.");
    ASSERT_EQ(blocks[2].kind, MarkdownBlock::Kind::table);
    EXPECT_EQ(blocks[2].header, (std::vector<std::string>{"clock", "read cost", "note"}));
    EXPECT_EQ(blocks[2].right_aligned, (std::vector<bool>{false, true, false}));
    ASSERT_EQ(blocks[2].rows.size(), 2u);
    EXPECT_EQ(blocks[2].rows[0], (std::vector<std::string>{"a", "1.0 ns", "x"}));
    EXPECT_EQ(blocks[2].rows[1], (std::vector<std::string>{"b", "2.0 ns", ""}));  // padded
    EXPECT_EQ(blocks[3].kind, MarkdownBlock::Kind::bullet);
    EXPECT_EQ(blocks[4].text, "second finding");
}

// The separator row as GitHub has it: every cell `:?-+:?`. Anything else under a row of pipes
// leaves the lines as text.
TEST(MarkdownBlocks, SeparatorCellsAreDashesWithOptionalColons) {
    const auto table_under = [](const std::string& separator) {
        const auto blocks = parse_markdown_blocks("| a | b |\n" + separator + "\n| 1 | 2 |\n");
        return !blocks.empty() && blocks[0].kind == MarkdownBlock::Kind::table;
    };
    EXPECT_TRUE(table_under("| --- | --- |"));
    EXPECT_TRUE(table_under("|:-|-:|"));
    EXPECT_TRUE(table_under("| :-: | - |"));
    EXPECT_FALSE(table_under("| --- |  |"));      // an empty cell
    EXPECT_FALSE(table_under("| : | --- |"));     // no dash
    EXPECT_FALSE(table_under("| -:- | --- |"));   // a colon inside
    EXPECT_FALSE(table_under("| --- | -x- |"));   // other text
    EXPECT_FALSE(table_under("| ::-- | --- |"));  // two colons

    const auto blocks = parse_markdown_blocks("| a | b |\n| : | -:- |\n");
    ASSERT_EQ(blocks.size(), 1u);
    EXPECT_EQ(blocks[0].kind, MarkdownBlock::Kind::paragraph);
    EXPECT_EQ(blocks[0].text, "| a | b | | : | -:- |");
}

// The clock probe's real Markdown writer on a made-up result: every clock becomes a table row.
TEST(MarkdownBlocks, ClockSectionGivesOneRowPerClock) {
    ClockProbeResult result;
    result.reference_clock = "CLOCK_MONOTONIC_RAW";
    for (const char* name : {"steady", "coarse", "tsc"}) {
        ClockResult c;
        c.name = name;
        c.description = "a clock";
        result.clocks.push_back(c);
    }
    std::size_t tables = 0;
    for (const auto& b : parse_markdown_blocks(clocks_section_markdown(result))) {
        if (b.kind == MarkdownBlock::Kind::table) {
            ++tables;
            ASSERT_EQ(b.rows.size(), 3u);
            EXPECT_EQ(b.rows[2][0], "tsc");
            EXPECT_EQ(b.header[0], "clock");
        }
    }
    EXPECT_EQ(tables, 2u);  // the results and what each clock is
}

TEST(MarkdownHtml, HeadingsParagraphsAndListsBecomeTheirElements) {
    EXPECT_EQ(markdown_to_html("## Clock sources\n\nfirst line\nsecond line\n\n- a `b`\n- c\n"),
              "<h2 id=\"clock-sources\">Clock sources</h2>\n<p>first line second line</p>\n<ul>\n"
              "<li>a <code>b</code></li>\n<li>c</li>\n</ul>\n");
}

TEST(MarkdownHtml, HeadingsHaveGitHubAnchorsAndLinksReachThem) {
    EXPECT_EQ(heading_anchor("Timer slack (nanosleep, this thread's slack as found and at 1 ns)"),
              "timer-slack-nanosleep-this-threads-slack-as-found-and-at-1-ns");
    const std::string html = markdown_to_html(
        "## Findings\n\n- **Clock**: `steady_clock` is fine ([Clock sources](#clock-sources))\n\n"
        "## Findings\n");
    EXPECT_NE(html.find("<h2 id=\"findings\">"), std::string::npos) << html;
    EXPECT_NE(html.find("<h2 id=\"findings-1\">"), std::string::npos) << html;
    EXPECT_NE(html.find("<li><strong>Clock</strong>: <code>steady_clock</code> is fine "
                        "(<a href=\"#clock-sources\">Clock sources</a>)</li>"),
              std::string::npos)
        << html;
    // Inside code nothing is a link or strong.
    EXPECT_EQ(markdown_to_html("`**[a](#b)**`"), "<p><code>**[a](#b)**</code></p>\n");
}

TEST(MarkdownHtml, PipeTablesLoseTheirSeparatorRowAndKeepHeaderCells) {
    EXPECT_EQ(markdown_to_html("| clock | cost |\n| ----- | ---: |\n| tsc   | 9 ns |\n"),
              "<table>\n<tr><th>clock</th><th>cost</th></tr>\n<tr><td>tsc</td><td>9 ns</td></tr>\n"
              "</table>\n");
}

// The HTML shows the same table the viewer does: short rows padded to the header's width.
TEST(MarkdownHtml, ShortTableRowsArePaddedToTheHeader) {
    EXPECT_EQ(markdown_to_html("| a | b |\n|---|---|\n| 1 |\n"),
              "<table>\n<tr><th>a</th><th>b</th></tr>\n<tr><td>1</td><td></td></tr>\n</table>\n");
}

TEST(MarkdownHtml, EscapesMarkupInText) {
    EXPECT_EQ(markdown_to_html("a < b & \"c\""), "<p>a &lt; b &amp; &quot;c&quot;</p>\n");
}
