#include <gtest/gtest.h>

#include "reports/markdown_html.hpp"

using loopscope::markdown_to_html;

TEST(MarkdownHtml, HeadingsParagraphsAndListsBecomeTheirElements) {
    EXPECT_EQ(markdown_to_html("## Clock sources\n\nfirst line\nsecond line\n\n- a `b`\n- c\n"),
              "<h2>Clock sources</h2>\n<p>first line second line</p>\n<ul>\n"
              "<li>a <code>b</code></li>\n<li>c</li>\n</ul>\n");
}

TEST(MarkdownHtml, PipeTablesLoseTheirSeparatorRowAndKeepHeaderCells) {
    EXPECT_EQ(markdown_to_html("| clock | cost |\n| ----- | ---: |\n| tsc   | 9 ns |\n"),
              "<table>\n<tr><th>clock</th><th>cost</th></tr>\n<tr><td>tsc</td><td>9 ns</td></tr>\n"
              "</table>\n");
}

TEST(MarkdownHtml, EscapesMarkupInText) {
    EXPECT_EQ(markdown_to_html("a < b & \"c\""), "<p>a &lt; b &amp; &quot;c&quot;</p>\n");
}
