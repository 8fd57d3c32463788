#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <random>
#include <sstream>
#include <thread>

#include "common/errors.hpp"
#include "common/markdown_table.hpp"
#include "common/output_file.hpp"
#include "common/terminal.hpp"
#include "common/text_position.hpp"
#include "core/duration.hpp"
#include "core/sort_ns.hpp"
#include "tests/test_support.hpp"

using namespace loopscope;

// The time left follows the rate of the last two seconds: a task whose first half took 1 s and
// whose second half runs at 5 % a second has about 8 s left at 60 %, not the 2 s the rate since
// the start gives; nothing is said before 1 s or while nothing moves.
TEST(TimeLeft, FollowsTheRecentRateNotTheOneSinceTheStart) {
    constexpr std::int64_t kMs = 1'000'000;
    TimeLeft left;
    std::string text;
    for (std::int64_t t = 0; t <= 1000; t += 50) {  // 0 to 50 % in the first second
        text = left.update(0.5 * static_cast<double>(t) / 1000.0, t * kMs);
        if (t < 1000) {
            EXPECT_EQ(text, "") << t;
        }
    }
    for (std::int64_t t = 1050; t <= 3000; t += 50)  // then 5 % a second
        text = left.update(0.5 + 0.05 * static_cast<double>(t - 1000) / 1000.0, t * kMs);
    EXPECT_EQ(text, "about 8 s left");
    // Stalled: the fraction has not moved over the window.
    TimeLeft stalled;
    stalled.update(0.2, 0);
    for (std::int64_t t = 100; t <= 5000; t += 100)
        text = stalled.update(0.3, t * kMs);
    EXPECT_EQ(text, "");
    // Near the end: less than a second, said so.
    TimeLeft steady;
    for (std::int64_t t = 0; t <= 9500; t += 100)
        text = steady.update(static_cast<double>(t) / 10000.0, t * kMs);
    EXPECT_EQ(text, "less than 1 s left");
}

TEST(Duration, ParsesEveryUnitToIntegerNanoseconds) {
    EXPECT_EQ(parse_duration_ns("250ns"), 250);
    EXPECT_EQ(parse_duration_ns("100us"), 100'000);
    EXPECT_EQ(parse_duration_ns("16.7ms"), 16'700'000);
    EXPECT_EQ(parse_duration_ns(" 2 s "), 2'000'000'000);
    EXPECT_EQ(parse_duration_ns("0"), 0);
}

TEST(Duration, FractionOfASecondRoundsOnceToTheNearestNanosecond) {
    EXPECT_EQ(parse_duration_ns("1/60"), 16'666'667);
    EXPECT_EQ(parse_duration_ns("1/144"), 6'944'444);
}

TEST(Duration, RefusesNumbersWithoutUnitsNegativesAndGarbage) {
    for (const char* bad : {"16", "-1ms", "ms", "", "1/0", "abc", "5 parsecs", "1e30s", "nan ms"}) {
        EXPECT_THROW(parse_duration_ns(bad), UsageError) << bad;
    }
}

TEST(Duration, FormatsWithTheLargestUnitThatKeepsTheValueAboveOne) {
    EXPECT_EQ(format_duration(16'666'667), "16.667 ms");
    EXPECT_EQ(format_duration(999), "999 ns");
    EXPECT_EQ(format_duration(1'500), "1.500 us");
    EXPECT_EQ(format_duration(2'000'000'000), "2.000 s");
    // The extremes have a magnitude too (negating INT64_MIN would be undefined).
    EXPECT_EQ(format_duration(INT64_MIN), "-9223372036.855 s");
    EXPECT_EQ(format_duration(-1'500), "-1.500 us");
}

TEST(SortNs, OrdersLikeStdSortAcrossSizesAndRanges) {
    std::mt19937_64 random(7);
    struct Case {
        std::size_t n;
        std::int64_t lo, hi;
    };
    const std::int64_t big = std::numeric_limits<std::int64_t>::max();
    const Case cases[] = {
        {10, 0, 100},                                                   // small: std::sort
        {5000, 16'000'000, 17'000'000},                                 // frame times, one pass
        {1024, 16'000'000, 17'000'000},                                 // the fewest by radix
        {1800, 60'000'000, 100'000'000},                                // latencies, 26 bits
        {100'000, 0, 2'000'000'000},                                    // up to 2 s: three passes
        {100'000, 5'000'000, 5'000'000 + (std::int64_t{1} << 27) - 1},  // 27 bits: 3 × 9
        {50'000, 0, (std::int64_t{1} << 34) - 1},                       // 34 bits: 4 × 9
        {100'000, -5'000, 5'000},                                       // negatives
        {20'000, 0, (std::int64_t{1} << 44) - 1},  // the most the radix passes cover
        {20'000, -big, big},                       // wider: std::sort
        {20'000, 42, 42},                          // all equal
    };
    for (const Case& c : cases) {
        std::uniform_int_distribution<std::int64_t> pick(c.lo, c.hi);
        std::vector<std::int64_t> v(c.n);
        for (auto& x : v)
            x = pick(random);
        if (c.n > 2) {
            v[0] = c.hi;  // the extremes present
            v[1] = c.lo;
        }
        std::vector<std::int64_t> expected = v;
        std::sort(expected.begin(), expected.end());
        sort_ns(v);
        EXPECT_EQ(v, expected) << c.n << " values in [" << c.lo << ", " << c.hi << "]";
    }
}

TEST(SortNs, ErasingAFewValuesGivesTheSortOfTheRest) {
    // As the start-up segment uses it: the first k frames set aside, the rest's sorted values
    // formed from the whole series' sorted values. Few distinct values, so the erased ones have
    // duplicates, and k from none to all.
    std::mt19937_64 random(8);
    for (const std::size_t k :
         {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{40}, std::size_t{500}}) {
        std::uniform_int_distribution<std::int64_t> pick(-3, 12);
        std::vector<std::int64_t> series(500);
        for (auto& x : series)
            x = pick(random);
        std::vector<std::int64_t> sorted = series;
        std::sort(sorted.begin(), sorted.end());
        std::vector<std::int64_t> expected(series.begin() + static_cast<std::ptrdiff_t>(k),
                                           series.end());
        std::sort(expected.begin(), expected.end());
        erase_sorted(sorted, std::span<const std::int64_t>(series).first(k));
        EXPECT_EQ(sorted, expected) << k << " erased";
    }
}

TEST(TextPosition, CountsLinesAndColumnsFromOne) {
    const std::string text = "ab\ncd\n\nxyz";
    auto at = [&](std::size_t offset) {
        std::istringstream in(text);
        const TextPosition p = text_position(in, offset);
        return std::pair(p.line, p.column);
    };
    using Pos = std::pair<std::int64_t, std::int64_t>;
    EXPECT_EQ(at(0), Pos(1, 1));   // 'a'
    EXPECT_EQ(at(2), Pos(1, 3));   // the first '\n'
    EXPECT_EQ(at(3), Pos(2, 1));   // 'c'
    EXPECT_EQ(at(7), Pos(4, 1));   // 'x'
    EXPECT_EQ(at(9), Pos(4, 3));   // 'z'
    EXPECT_EQ(at(99), Pos(4, 4));  // past the end
    std::istringstream in(text);
    const TextPosition json = json_error_position(in, 4);  // 4 bytes read: the 4th is 'c'
    EXPECT_EQ(json.line, 2);
    EXPECT_EQ(json.column, 1);
}

TEST(MarkdownTable, PadsColumnsSoTheyLineUp) {
    MarkdownTable t;
    t.add_column("clock", MarkdownTable::Align::left);
    t.add_column("cost");
    t.add_row({"steady_clock", "21 ns"});
    t.add_row({"tsc", "9 ns"});
    EXPECT_EQ(t.render(),
              "| clock        |  cost |\n"
              "| ------------ | ----: |\n"
              "| steady_clock | 21 ns |\n"
              "| tsc          |  9 ns |\n");
}

TEST(OutputFile, LeavesNothingBehindWhenNotCommitted) {
    const auto dir = test::make_temp_dir("loopscope-out");
    const auto path = dir + "/report.json";
    {
        OutputFile out(path);
        out.write("half");
    }
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_TRUE(std::filesystem::is_empty(dir));
    write_file_atomically(path, "whole");
    EXPECT_EQ(test::read_text(path), "whole");
    std::filesystem::remove_all(dir);
}

TEST(OutputFile, ReportsAFolderThatDoesNotExist) {
    EXPECT_THROW(OutputFile("/nonexistent-folder/x.json"), UsageError);
}

TEST(InputError, NamesFileLineAndColumn) {
    InputError e("cap.csv", 12, 7, "expected a number");
    EXPECT_STREQ(e.what(), "cap.csv:12:7: expected a number");
}

TEST(Program, PrintsVersionAndHelp) {
    auto v = test::run_loopscope("--version");
    EXPECT_EQ(v.exit_code, 0);
    EXPECT_NE(v.out.find("loopscope "), std::string::npos);
    auto h = test::run_loopscope("--help");
    EXPECT_EQ(h.exit_code, 0);
    EXPECT_NE(h.out.find("Exit codes"), std::string::npos);
}

TEST(Program, UnknownSubcommandIsAUsageError) {
    auto r = test::run_loopscope("frobnicate");
    EXPECT_EQ(r.exit_code, 2);
}
