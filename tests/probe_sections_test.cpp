// The probe results as sections of tables (common/markdown_table.hpp's TextSection), built by the
// pure functions the terminal's Markdown and the viewer's probe tab both use: what each section
// holds, cell by cell, and how a section is printed as Markdown. The bytes of each section's
// Markdown are checked against golden files in probe_sections_golden_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/markdown_table.hpp"
#include "probes/clock_report.hpp"
#include "probes/machine_load.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_report.hpp"
#include "probes/timer_stats.hpp"

using namespace loopscope;

namespace {

constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kMs = 1'000'000;

std::vector<const MarkdownTable*> tables_of(const TextSection& s) {
    std::vector<const MarkdownTable*> out;
    for (const TextBlock& b : s.blocks) {
        if (b.kind == TextBlock::Kind::table)
            out.push_back(&b.table);
    }
    return out;
}

std::vector<std::string> headings_of(const TextSection& s) {
    std::vector<std::string> out;
    for (const TextBlock& b : s.blocks) {
        if (b.kind == TextBlock::Kind::heading)
            out.push_back(b.text);
    }
    return out;
}

std::vector<std::string> column_titles(const MarkdownTable& t) {
    std::vector<std::string> out;
    for (const auto& c : t.columns())
        out.push_back(c.title);
    return out;
}

std::size_t column_index(const MarkdownTable& t, const std::string& title) {
    const auto titles = column_titles(t);
    return static_cast<std::size_t>(std::find(titles.begin(), titles.end(), title) -
                                    titles.begin());
}

}  // namespace

TEST(TextSection, MarkdownSeparatesBlocksByTheirBlankLines) {
    TextSection s;
    s.add_heading("Title");
    s.add_paragraph("first line\nsecond line");
    MarkdownTable t;
    t.add_column("a", MarkdownTable::Align::left);
    t.add_column("b");
    t.add_row({"x|y", "1"});
    s.add_table(t);
    s.add_paragraph("List:");
    s.add_bullets({"one", "two"}).blank_lines_before = 0;
    s.add_bullets({}).blank_lines_before = 2;  // an empty list prints only its blank lines
    EXPECT_EQ(s.blocks.front().blank_lines_before, 0);
    EXPECT_EQ(render_markdown(s),
              "## Title\n\nfirst line\nsecond line\n\n"
              "| a    |   b |\n| ---- | --: |\n| x\\|y |   1 |\n\n"
              "List:\n- one\n- two\n\n\n");
}

TEST(MarkdownTable, KeepsCellsAsWrittenAndEscapesOnlyInItsMarkdown) {
    MarkdownTable t;
    t.add_column("figure", MarkdownTable::Align::left);
    t.add_column("bars", MarkdownTable::Align::left);
    t.add_column("note", MarkdownTable::Align::left);
    t.add_cells({"|error|", TableCell(Sparkline{"1us", "1ms", {1, 8, 0, 3}})});
    ASSERT_EQ(t.rows().size(), 1u);
    const auto& row = t.rows()[0];
    ASSERT_EQ(row.size(), 3u);  // the missing cell is added, empty
    EXPECT_EQ(row[0].text, "|error|");
    EXPECT_FALSE(row[0].bars);
    ASSERT_TRUE(row[1].bars);
    EXPECT_EQ(row[1].text, "1us ▁█·▃ 1ms");
    EXPECT_EQ(row[2].text, "");
    EXPECT_NE(t.render().find("| \\|error\\| | 1us ▁█·▃ 1ms |"), std::string::npos) << t.render();
}

TEST(Sparkline, LevelsAreTheBarsTheTextShows) {
    EXPECT_EQ(sparkline_text(Sparkline{}), "(empty)");
    EXPECT_EQ(sparkline_text(Sparkline{"50us", "1ms", {1, 2, 3, 4, 5, 6, 7, 8, 0}}),
              "50us ▁▂▃▄▅▆▇█· 1ms");
    // The timer probe's histograms: the bars and the text come from the same buckets.
    const Histogram h =
        make_histogram({60 * kUs, 70 * kUs, 70 * kUs, 3 * kMs}, log_edges_ns(20 * kMs));
    const Sparkline bars = sparkline_bars(h);
    EXPECT_EQ(bars.left, "50us");
    EXPECT_EQ(bars.right, "5ms");
    ASSERT_FALSE(bars.levels.empty());
    EXPECT_EQ(bars.levels.front(), 8);  // the fullest bucket
    EXPECT_EQ(bars.levels[1], 0);       // 100-200 us: empty
    EXPECT_EQ(sparkline(h), sparkline_text(bars));
    EXPECT_TRUE(sparkline_bars(make_histogram({}, log_edges_ns(kMs))).levels.empty());
}

TEST(ProbeSections, ContextIsItsTableAndItsWarnings) {
    SystemContext c;
    c.os = "Example OS";
    c.hypervisor = true;
    c.hypervisor_name = "KVM";
    c.build_type = "Debug";
    const TextSection s = context_section(c);
    EXPECT_EQ(s.title, "Machine context");
    EXPECT_EQ(headings_of(s), std::vector<std::string>{"Context"});
    const auto tables = tables_of(s);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(column_titles(*tables[0]), (std::vector<std::string>{"context", "value"}));
    EXPECT_EQ(tables[0]->rows()[0][0].text, "OS");
    EXPECT_EQ(tables[0]->rows()[0][1].text, "Example OS");
    EXPECT_EQ(s.blocks.back().kind, TextBlock::Kind::bullets);
    EXPECT_EQ(s.blocks.back().items, context_warnings(c));
    EXPECT_EQ(s.blocks.back().items.size(), 2u);  // Debug, and the hypervisor
}

TEST(ProbeSections, ClocksHaveARowPerClockInBothTablesAndFindingsOnlyWhenThereAreAny) {
    ClockProbeResult r;
    r.reference_clock = "CLOCK_MONOTONIC_RAW";
    for (const char* name : {"steady", "tsc"}) {
        ClockResult c;
        c.name = name;
        c.description = std::string("the ") + name + " clock";
        c.backing = "test";
        c.claims_steady = true;
        r.clocks.push_back(c);
    }
    TextSection s = clocks_section(r);
    EXPECT_EQ(s.title, "Clock sources");
    EXPECT_EQ(headings_of(s), std::vector<std::string>{"Clock sources"});
    auto tables = tables_of(s);
    ASSERT_EQ(tables.size(), 2u);
    for (const MarkdownTable* t : tables) {
        ASSERT_EQ(t->rows().size(), 2u);
        EXPECT_EQ(t->rows()[1][0].text, "tsc");
    }
    EXPECT_EQ(tables[1]->rows()[0][1].text, "the steady clock");
    // A clock that promises to be steady and went back is a finding.
    r.clocks[0].granularity.backward_steps = 3;
    s = clocks_section(r);
    EXPECT_EQ(headings_of(s), (std::vector<std::string>{"Clock sources", "Findings"}));
    EXPECT_EQ(s.blocks.back().items, clock_findings(r));
}

TEST(ProbeSections, TimerHistogramsAreBarsAndAPeriodicRunWithNoSamplesHasEmptyCells) {
    TimerReport r;
    r.bound_ns = 500 * kUs;
    OneShotRow o;
    o.method = "nanosleep";
    o.requested_ns = kMs;
    o.overshoot = summarize({60 * kUs, 70 * kUs});
    o.histogram = make_histogram({60 * kUs, 70 * kUs}, log_edges_ns(20 * kMs));
    o.verdict = "fair";
    r.one_shot.push_back(o);
    PeriodicRow ok, refused;
    ok.scheduling = "SCHED_OTHER";
    ok.interval_ns = kMs;
    ok.latency = summarize({50 * kUs, 2 * kMs});
    ok.log_histogram = make_histogram({50 * kUs, 2 * kMs}, log_edges_ns(20 * kMs));
    refused.scheduling = "SCHED_FIFO 80";
    refused.verdict = "refused";
    r.periodic = {ok, refused};

    const TextSection s = timers_section(r);
    EXPECT_EQ(s.title, "Timers and waits");
    EXPECT_EQ(headings_of(s),
              (std::vector<std::string>{"One-shot sleep overshoot",
                                        "Periodic wake-up latency (as cyclictest measures it)"}));
    const auto tables = tables_of(s);
    ASSERT_EQ(tables.size(), 2u);
    const MarkdownTable& one_shot = *tables[0];
    const auto& cell = one_shot.rows()[0][column_index(one_shot, "histogram")];
    ASSERT_TRUE(cell.bars);
    EXPECT_EQ(*cell.bars, sparkline_bars(o.histogram));
    EXPECT_EQ(cell.text, sparkline(o.histogram));
    EXPECT_EQ(one_shot.rows()[0][column_index(one_shot, "p50")].text, "65.000 us");

    const MarkdownTable& periodic = *tables[1];
    const std::size_t hist = column_index(periodic, "histogram");
    ASSERT_EQ(periodic.rows().size(), 2u);
    ASSERT_TRUE(periodic.rows()[0][hist].bars);
    EXPECT_EQ(*periodic.rows()[0][hist].bars, sparkline_bars(ok.log_histogram));
    EXPECT_FALSE(periodic.rows()[1][hist].bars);
    EXPECT_EQ(periodic.rows()[1][hist].text, "");
    EXPECT_EQ(periodic.rows()[1][column_index(periodic, "verdict")].text, "refused");
    // The run's length closes the section.
    EXPECT_EQ(s.blocks.back().text, "Measured in 0.0 s.");
}

TEST(ProbeSections, MachineLoadAddsTheTimerNoteOnlyOnABusyMachineThatRanTheTimers) {
    LoadSnapshot before, after;
    before.valid = after.valid = true;
    before.load_1m = after.load_1m = 0.5;
    after.cpu_total_ticks = 100;
    after.cpu_idle_ticks = 10;  // 90 % busy, all of it other processes
    after.from = "test";
    const MachineLoad busy = machine_load_between(before, after);
    const TextSection with_timers = machine_load_section(busy, 2, true);
    const TextSection clocks_only = machine_load_section(busy, 2, false);
    EXPECT_EQ(with_timers.title, "Machine load");
    ASSERT_EQ(with_timers.blocks.back().kind, TextBlock::Kind::bullets);
    EXPECT_EQ(with_timers.blocks.back().items.size(), clocks_only.blocks.back().items.size() + 1);
    EXPECT_EQ(clocks_only.blocks.back().items, machine_load_warnings(busy, 2));
    const auto tables = tables_of(with_timers);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0]->rows()[2][0].text, "CPU time of other processes");
    EXPECT_EQ(tables[0]->rows()[2][1].text, "90.0%");

    // A quiet machine: the table only.
    after.cpu_idle_ticks = 95;
    const TextSection quiet = machine_load_section(machine_load_between(before, after), 2, true);
    EXPECT_EQ(quiet.blocks.back().kind, TextBlock::Kind::table);
}
