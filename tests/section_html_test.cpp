// Sections, tables and the one DataTable of results written as HTML, CSV and JSON directly
// (writers/section_html.hpp, writers/data_table.hpp): no Markdown is parsed on the way.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/markdown_table.hpp"
#include "probes/clock_report.hpp"
#include "writers/data_table.hpp"
#include "writers/history_writer.hpp"
#include "writers/section_html.hpp"

using namespace loopscope;

TEST(SectionHtml, HeadingsParagraphsAndListsBecomeTheirElements) {
    TextSection s;
    s.add_heading("Clock sources");
    s.add_paragraph("first line\nsecond line");
    s.add_bullets({"a `b`", "c"});
    HtmlHeadingIds ids;
    EXPECT_EQ(html_section(s, TextMarkup::inline_markup, ids),
              "<h2 id=\"clock-sources\">Clock sources</h2>\n<p>first line second line</p>\n<ul>\n"
              "<li>a <code>b</code></li>\n<li>c</li>\n</ul>\n");
}

TEST(SectionHtml, HeadingsHaveGitHubAnchorsAndLinksReachThem) {
    EXPECT_EQ(heading_anchor("Timer slack (nanosleep, this thread's slack as found and at 1 ns)"),
              "timer-slack-nanosleep-this-threads-slack-as-found-and-at-1-ns");
    TextSection s;
    s.add_heading("Findings");
    s.add_bullets({"**Clock**: `steady_clock` is fine ([Clock sources](#clock-sources))"});
    s.add_heading("Findings");
    HtmlHeadingIds ids;
    const std::string html = html_section(s, TextMarkup::inline_markup, ids);
    EXPECT_NE(html.find("<h2 id=\"findings\">"), std::string::npos) << html;
    EXPECT_NE(html.find("<h2 id=\"findings-1\">"), std::string::npos) << html;
    EXPECT_NE(html.find("<li><strong>Clock</strong>: <code>steady_clock</code> is fine "
                        "(<a href=\"#clock-sources\">Clock sources</a>)</li>"),
              std::string::npos)
        << html;
    // Inside code nothing is a link or strong.
    EXPECT_EQ(html_inline("`**[a](#b)**`"), "<code>**[a](#b)**</code>");
}

// Data is shown as it is: a file name's backticks, pipes and markup are text, escaped once.
TEST(SectionHtml, PlainTextIsEscapedAndNeverMarkup) {
    MarkdownTable t;
    t.add_column("capture", MarkdownTable::Align::left);
    t.add_column("cost");
    t.add_row({"a|b `c` **d** <e> & \"f\"", "9 ns"});
    t.add_row({"C:\\Games\\x.exe"});  // a short row: its missing cell is empty
    EXPECT_EQ(html_table(t, TextMarkup::plain),
              "<table>\n<tr><th>capture</th><th>cost</th></tr>\n"
              "<tr><td>a|b `c` **d** &lt;e&gt; &amp; &quot;f&quot;</td><td>9 ns</td></tr>\n"
              "<tr><td>C:\\Games\\x.exe</td><td></td></tr>\n</table>\n");
}

// The clock probe's real section on a made-up result: every clock becomes a row of its table.
TEST(SectionHtml, ClockSectionGivesOneRowPerClock) {
    ClockProbeResult result;
    result.reference_clock = "CLOCK_MONOTONIC_RAW";
    for (const char* name : {"steady", "coarse", "tsc"}) {
        ClockResult c;
        c.name = name;
        c.description = "a clock";
        result.clocks.push_back(c);
    }
    HtmlHeadingIds ids;
    const std::string html = html_section(clocks_section(result), TextMarkup::inline_markup, ids);
    std::size_t tables = 0;
    for (std::size_t at = html.find("<table>"); at != std::string::npos;
         at = html.find("<table>", at + 1))
        ++tables;
    EXPECT_EQ(tables, 2u) << html;  // the results and what each clock is
    for (const char* name : {"steady", "coarse", "tsc"})
        EXPECT_NE(html.find(std::string("<td>") + name), std::string::npos) << name;
}

namespace {

DataTable sample_table() {
    using F = DataColumn::Formats;
    DataTable t;
    t.add_column({"id", "run", MarkdownTable::Align::right, "", F::all});
    t.add_column({"file", "capture", MarkdownTable::Align::left, "", F::all});
    t.add_column({"", "", MarkdownTable::Align::left, "labels", F::json});
    t.add_column({"scene", "scene", MarkdownTable::Align::left, "labels", F::all});
    t.add_column({"p99_ms", "p99_ms", MarkdownTable::Align::right, "figures", F::all});
    t.add_column({"machine", "", MarkdownTable::Align::left, "", F::json});
    t.add_row({DataCell::of_integer(7), DataCell::of_text("a,\"b\".csv", "a,\"b\".csv"),
               DataCell::missing(), DataCell::of_text("x|y"), DataCell::of_number(16.5, "16.500"),
               DataCell::of_json(R"({"cpu":"z"})")});
    t.add_row({DataCell::of_integer(8), DataCell::of_text("c.csv"), DataCell::missing(),
               DataCell::missing(), DataCell::missing("-", DataCell::Kind::null),
               DataCell::missing("-", DataCell::Kind::null)});
    return t;
}

}  // namespace

TEST(DataTable, TextFormatsShowTheShownCellsOfTheTextColumns) {
    EXPECT_EQ(text_table(sample_table()).render(),
              "| run | capture   | scene | p99_ms |\n"
              "| --: | --------- | ----- | -----: |\n"
              "|   7 | a,\"b\".csv | x\\|y  | 16.500 |\n"
              "|   8 | c.csv     | -     |      - |\n");
}

TEST(DataTable, CsvQuotesFieldsAndLeavesMissingValuesEmpty) {
    EXPECT_EQ(csv_table(sample_table()),
              "id,file,scene,p99_ms\n7,\"a,\"\"b\"\".csv\",x|y,16.5\n8,c.csv,,\n");
}

TEST(DataTable, JsonNestsObjectsLeavesOutAbsentValuesAndWritesNulls) {
    EXPECT_EQ(json_table(sample_table()).dump(),
              R"([{"id":7,"file":"a,\"b\".csv","labels":{"scene":"x|y"},"figures":{"p99_ms":16.5},)"
              R"("machine":{"cpu":"z"}},{"id":8,"file":"c.csv","labels":{},"figures":)"
              R"({"p99_ms":null},"machine":null}])");
}

TEST(DataTable, CsvAndJsonFollowTheirOwnColumnOrder) {
    DataTable t = sample_table();
    t.csv_order = {4, 0};
    t.json_order = {5, 0};
    EXPECT_EQ(csv_table(t), "p99_ms,id\n16.5,7\n,8\n");
    EXPECT_EQ(json_table(t).dump(), R"([{"machine":{"cpu":"z"},"id":7},{"machine":null,"id":8}])");
}

// Runs store their figures in the catalogue's order; a run without some of them still lists its
// own in that order in JSON, whatever the first run held.
TEST(HistoryWriter, JsonListsEachRunsFiguresInTheirStoredOrder) {
    HistoryListing listing;
    HistoryRun a;
    a.id = 1;
    a.figures = {{"avg_fps", 60.0}, {"p99_ms", 20.0}};
    HistoryRun b;
    b.id = 2;
    b.figures = {{"avg_fps", 50.0}, {"frames", 10.0}, {"p99_ms", 25.0}};
    listing.runs = {a, b};
    listing.all_figures_in_json = true;
    const std::string json = write_history(listing, "json");
    const std::size_t second = json.find("\"run\": 2");
    ASSERT_NE(second, std::string::npos) << json;
    const std::size_t fps = json.find("\"avg_fps\"", second);
    const std::size_t frames = json.find("\"frames\"", second);
    const std::size_t p99 = json.find("\"p99_ms\"", second);
    EXPECT_LT(fps, frames) << json;
    EXPECT_LT(frames, p99) << json;
    // The first run has no "frames": left out, not null.
    EXPECT_EQ(json.substr(0, second).find("\"frames\""), std::string::npos) << json;
}
