// Malformed inputs to the capture readers: each one is an InputError naming the file and, where
// there is one, the 1-based line and column of the problem, with what was expected. Never a
// crash, a hang or a silently wrong capture. A cell that is not the number its column holds is
// not malformed structure: it is counted (Capture::data_quality) and refused only with
// ReadOptions::strict, at the same place.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "common/errors.hpp"
#include "core/trace_record.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

const char* const kPm1Header =
    "Application,ProcessID,SwapChainAddress,Runtime,Dropped,TimeInSeconds,msBetweenPresents,"
    "msBetweenDisplayChange\n";
const char* const kPm1Row = "game.exe,42,0x1,DXGI,0,0.5,16.6,16.7\n";

class ReadersMalformed : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::make_temp_dir("loopscope-malformed"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string write(const std::string& text) {
        const std::string path = dir_ + "/capture" + std::to_string(++count_) + ".csv";
        test::write_text(path, text);
        return path;
    }

    // Reads `path`, expects InputError at line:column (0 = none) whose message holds `expected`.
    void expect_error(const std::string& path, std::int64_t line, std::int64_t column,
                      const std::string& expected) {
        try {
            read_capture(path);
            ADD_FAILURE() << "no error for " << path;
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_EQ(e.file(), path) << what;
            EXPECT_EQ(e.line(), line) << what;
            EXPECT_EQ(e.column(), column) << what;
            EXPECT_NE(what.find(expected), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << "one line: " << what;
            if (line > 0 && column > 0) {
                const std::string place =
                    path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
                EXPECT_EQ(what.rfind(place, 0), 0u) << what;
            }
        }
    }

    // `path` reads, with one bad cell of `column` (`kind`) first at line:column among its data
    // quality, and with ReadOptions::strict is an InputError at that place naming the cell.
    void expect_bad_cell(const std::string& path, std::int64_t line, std::int64_t column,
                         const std::string& column_name, const std::string& kind) {
        try {
            const Capture c = read_capture(path);
            ASSERT_FALSE(c.data_quality.bad_cells.empty()) << path;
            const BadCells& b = c.data_quality.bad_cells.front();
            EXPECT_EQ(b.column, column_name);
            EXPECT_EQ(b.kind.rfind(kind, 0), 0u) << b.kind;
            EXPECT_EQ(b.first_line, line);
            EXPECT_EQ(b.first_column, column);
        } catch (const InputError& e) {
            ADD_FAILURE() << "refused without --strict: " << e.what();
        }
        ReadOptions strict;
        strict.strict = true;
        try {
            read_capture(path, strict);
            ADD_FAILURE() << "no error with strict for " << path;
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_EQ(e.line(), line) << what;
            EXPECT_EQ(e.column(), column) << what;
            EXPECT_NE(what.find(column_name), std::string::npos) << what;
            EXPECT_NE(what.find(kind), std::string::npos) << what;
            EXPECT_NE(what.find("--strict"), std::string::npos) << what;
        }
    }

    std::string dir_;
    int count_ = 0;
};

// OCAT may leave its info columns (Motherboard ...) out after the first row, but a row without a
// column the reader needs is an error; before, its frame time was the previous row's cell.
TEST_F(ReadersMalformed, AnOcatRowShorterThanTheColumnsItNeedsIsAnError) {
    const std::string header =
        "Application,ProcessID,SwapChainAddress,Motherboard,msBetweenPresents\n";
    expect_error(write(header + "game.exe,1,0x1\n"), 2, 15,
                 "expected 5 comma-separated columns as in the header, found 3");
    expect_error(write(header + "game.exe,1,0x1,mb,16.6\ngame.exe,1,0x1,mb,16.6\ngame.exe,1,0x1\n"),
                 4, 15, "found 3");
}

// A trace's loop metadata is checked on its own line: the error names the line and the column
// of the value, and what was expected.
TEST_F(ReadersMalformed, BadLoopMetadataNamesItsLineAndColumn) {
    const std::string top = "# loopscope-trace v1\n# clock: virtual\n";
    expect_error(write(top + "# policy: weird\n# dt_ns: 16666667\n"), 3, 11,
                 "metadata 'policy: weird': expected a policy: ");
    expect_error(write(top + "# policy: fixed\n# dt_ns: 0\n"), 4, 10,
                 "metadata 'dt_ns: 0': expected a whole number above 0 (found '0')");
    expect_error(write(top + "# policy: fixed\n# dt_ns: 100\n#   timescale:  -1\n"), 5, 17,
                 "metadata 'timescale: -1': expected a number of 0 or more");
}

// A row per new stream would cost about 1 KB a row: past 4096 streams the file is refused at
// the row that opens one more.
TEST_F(ReadersMalformed, MoreStreamsThanTheLimitAreRefusedAtTheRowThatOpensOneMore) {
    std::string text = kPm1Header;
    for (int i = 0; i < 4100; ++i)
        text += "game.exe," + std::to_string(i) + ",0x1,DXGI,0,0.5,16.6,16.7\n";
    expect_error(write(text), 4098, 1, "more than 4096 streams");
    // Many rows of few streams are fine.
    std::string few = kPm1Header;
    for (int i = 0; i < 5000; ++i)
        few += "game.exe," + std::to_string(i % 3) + ",0x1,DXGI,0," + std::to_string(i) +
               ",16.6,16.7\n";
    EXPECT_EQ(list_capture_streams(write(few)).size(), 3u);
}

// The metadata lines go to every stream, so their total is bounded.
TEST_F(ReadersMalformed, MetadataPastItsLimitIsRefused) {
    const std::string big_value(40 * 1024, 'x');
    expect_error(write("//A=" + big_value + "\n//B=" + big_value + "\n" + kPm1Header + kPm1Row), 2,
                 1, "the //Key=Value lines pass 64 KiB");
    expect_error(write("# loopscope-trace v1\n# a: " + big_value + "\n# b: " + big_value + "\n"), 3,
                 1, "the '# key: value' lines pass 64 KiB");
}

TEST_F(ReadersMalformed, MangoHudFrameTimesAddingUpPastTheInt64RangeAreRefused) {
    // Each frame time is under 292 years, their running sum is not: refused at the row that
    // passes it instead of wrapping.
    const std::string path = write(
        "fps,frametime,cpu_load,elapsed\n"
        "60,16.6,10,0\n"
        "0,5000000000000,10,100000000\n"
        "0,5000000000000,10,200000000\n");
    expect_error(path, 4, 3, "the frame times add up to more than 292 years");
}

TEST_F(ReadersMalformed, PresentMonQpcTimesOutOfOrderPastTheInt64RangeAreRefusedAtTheirColumn) {
    // The tick rate comes from the first and last QPC times of a stream against its frame
    // times: a time far outside that span converts past the int64 range (it used to round to
    // INT64_MIN and overflow where frames are laid out).
    const std::string path = write(
        "Application,ProcessID,SwapChainAddress,msBetweenPresents,QPCTime\n"
        "game.exe,1,0x1,16.6,0\n"
        "game.exe,1,0x1,16.6,1000000000000000\n"
        "game.exe,1,0x1,16.6,10\n");
    expect_error(path, 1, 58,
                 "a time of column 'QPCTime' lies 1000000000000000 ticks after the earliest, more "
                 "than 292 years at the 301 ticks a second that the times of column "
                 "'msBetweenPresents' give them");
    // In order, the same times are a capture.
    const std::string in_order = write(
        "Application,ProcessID,SwapChainAddress,msBetweenPresents,QPCTime\n"
        "game.exe,1,0x1,16.6,0\n"
        "game.exe,1,0x1,16.6,10\n"
        "game.exe,1,0x1,16.6,1000000000000000\n");
    EXPECT_EQ(read_capture(in_order).frames(), 3u);
}

// A trace's loop columns are added up over the frames by the loop figures: a fixed-step frame of
// 5555555555555555551 steps of 16666667 ns simulates past the int64 range, which overflowed the
// figures' product (core/loop_figures.cpp, found by the report fuzz target). The reader refuses
// it at the row's steps cell, whether the records are kept or only the figures; and a column
// whose total passes the range (two waits of 5·10^18 ns) at the row where it does.
TEST_F(ReadersMalformed, TraceLoopColumnsAddingUpPastTheInt64RangeAreRefusedAtTheirCell) {
    const std::string top = std::string(kTraceMagic) +
                            "\n# clock: virtual\n# policy: fixed-interp\n# dt_ns: 16666667\n" +
                            kTraceColumns + "\n";
    const auto row = [](const std::string& frame, const std::string& steps,
                        const std::string& wait) {
        return frame + ",0,16666667,16666667,0,16666667,16666667," + steps + ",0,0,0.5,0,0," +
               wait + "\n";
    };
    const std::string first = row("0", "1", "0");
    const std::string huge = row("1", "5555555555555555551", "0");
    const auto steps_column = static_cast<std::int64_t>(huge.find("5555")) + 1;
    const std::string steps_path = write(top + first + huge);
    expect_error(steps_path, 7, steps_column,
                 "the frames' steps times dt_ns 16666667 (the time simulated) add up past the "
                 "int64 range by this row");
    ReadOptions figures_only;
    figures_only.loop_figures_only = true;
    try {
        read_capture(steps_path, figures_only);
        ADD_FAILURE() << "no error with the figures only";
    } catch (const InputError& e) {
        EXPECT_EQ(e.line(), 7) << e.what();
        EXPECT_EQ(e.column(), steps_column) << e.what();
    }
    const std::string wait = row("1", "1", "5000000000000000000");
    const std::string wait_path = write(top + wait + wait);
    expect_error(wait_path, 7, static_cast<std::int64_t>(wait.rfind(',')) + 2,
                 "the frames' wait_ns add up past the int64 range by this row");
    // Without a dt_ns (a garbled key) the figures of the recorded columns step with the
    // default dt, and the same frame passes the range with it.
    const std::string no_dt = std::string(kTraceMagic) +
                              "\n# clock: virtual\n# policy: fixed-interp\n# dt_\ts: 16666667\n" +
                              kTraceColumns + "\n";
    expect_error(write(no_dt + first + huge), 7, steps_column,
                 "the frames' steps times dt_ns 16666667 (the time simulated)");
    // A dt_ns after the rows (no writer puts one there) is the one the figures take: the time
    // simulated is checked again with it, at its line.
    const std::string one_ns = std::string(kTraceMagic) +
                               "\n# clock: virtual\n# policy: fixed-interp\n# dt_ns: 1\n" +
                               kTraceColumns + "\n";
    const std::string late_dt = write(one_ns + first + huge + "# dt_ns: 16666667\n");
    expect_error(late_dt, 8, 1, "metadata 'dt_ns: 16666667' after the rows: the frames' steps");
    try {
        read_capture(late_dt, figures_only);
        ADD_FAILURE() << "no error with the figures only";
    } catch (const InputError& e) {
        EXPECT_EQ(e.line(), 8) << e.what();
    }
    // The same traces with sane values are read.
    const Capture sane = read_capture(write(top + first + row("1", "555", "5000000000")));
    EXPECT_EQ(sane.frames(), 2u);
    EXPECT_EQ(sane.loop.at(1).steps, 555);
}

// Format detection skips blank lines before a trace's magic line, and so does the trace reader:
// before, such a file was detected as a trace and then refused at line 1. Another first line is
// named, and only one that starts like the magic line suggests a newer version.
TEST_F(ReadersMalformed, ATraceAfterBlankLinesIsReadAndAWrongMagicLineIsNamed) {
    const std::string rows = std::string(kTraceColumns) + "\n" +
                             "0,0,16666667,16666667,0,16666667,0,1,0,0,0.5,0,0,0\n" +
                             "1,16666667,16666667,16666667,0,16666667,0,1,0,0,0.5,0,0,0\n";
    const std::string trace = std::string(kTraceMagic) + "\n# clock: virtual\n" + rows;
    const Capture plain = read_capture(write(trace));
    const Capture after_blanks = read_capture(write("\n  \r\n" + trace));
    EXPECT_EQ(after_blanks.source.format, "loopscope-trace");
    EXPECT_EQ(after_blanks.frame_ns, plain.frame_ns);
    EXPECT_EQ(after_blanks.metadata, plain.metadata);
    expect_error(write("\n# loopscope-trace v3\n" + rows), 2, 1,
                 "expected '# loopscope-trace v1' or '# loopscope-trace v2' as the first line "
                 "that is not blank, found '# loopscope-trace v3' (a newer trace version?)");
}

// Trace format v2: the game's zones and marks as records of their own. A version 1 trace has
// none (such a line is a malformed row, as before), and a malformed record is named by line and
// column.
TEST_F(ReadersMalformed, TraceV2ZonesAndMarksAreReadAndAMalformedOneIsNamed) {
    const std::string rows = std::string(kTraceColumns) + "\n" +
                             "0,16666667,16666667,16666667,0,16666667,0,1,0,0,0.5,0,0,0\n" +
                             "1,33333334,16666667,16666667,0,16666667,0,1,0,0,0.5,0,0,0\n";
    const std::string zone = "zone,0,20000000,30000000,0,0,asset load, part 1\n";
    const std::string mark = "mark,1,31000000,level 2 streamed in\n";
    const Capture c = read_capture(write(std::string(kTraceMagicV2) + "\n" + rows + zone + mark));
    ASSERT_EQ(c.zones.size(), 1u);
    EXPECT_EQ(c.zones[0].label, "asset load, part 1");  // the rest of the line, commas and all
    // Placed as the rows are, from the first row's time stamp (16666667 in the file).
    EXPECT_EQ(c.zones[0].begin_ns, 20'000'000 - 16'666'667);
    EXPECT_EQ(c.zones[0].end_ns, 30'000'000 - 16'666'667);
    EXPECT_EQ(c.zones[0].frame, 0);
    EXPECT_EQ(c.zones[0].depth, 0u);
    ASSERT_EQ(c.marks.size(), 1u);
    EXPECT_EQ(c.marks[0].label, "level 2 streamed in");
    EXPECT_EQ(c.marks[0].t_ns, 31'000'000 - 16'666'667);
    EXPECT_EQ(c.marks[0].frame, 1);
    EXPECT_EQ(c.frames(), 2u);
    // Version 1 reads exactly as before: such a line is a row with the wrong columns.
    expect_error(write(std::string(kTraceMagic) + "\n" + rows + zone), 5, 48,
                 "expected 14 comma-separated columns as in the header, found 8");
    const std::string v2 = std::string(kTraceMagicV2) + "\n" + rows;
    expect_error(write(v2 + "zone,0,x,30000000,0,0,a\n"), 5, 8,
                 "zone record: expected begin_ns as a whole number >= 0 followed by a comma, "
                 "found 'x'");
    expect_error(write(v2 + "zone,0,30000000,20000000,0,0,a\n"), 5, 1,
                 "zone record: ends at 20000000 ns, before it begins (30000000 ns)");
    expect_error(write(v2 + "mark,1,-5,a\n"), 5, 8,
                 "mark record: expected t_ns as a whole number >= 0 followed by a comma, found "
                 "'-5'");
    expect_error(write(v2 + "mark,1,5\n"), 5, 8,
                 "mark record: expected t_ns as a whole number >= 0 followed by a comma, found "
                 "'5'");
}

TEST_F(ReadersMalformed, MissingFile) {
    expect_error(dir_ + "/no-such-file.csv", 0, 0, "cannot open: No such file or directory");
}

TEST_F(ReadersMalformed, FolderInsteadOfAFile) {
    expect_error(dir_, 0, 0, "cannot read: Is a directory");
}

TEST_F(ReadersMalformed, EmptyFile) {
    expect_error(write(""), 0, 0, "empty file");
    expect_error(write("\n\n  \n"), 0, 0, "empty file (blank lines only)");
}

TEST_F(ReadersMalformed, HeaderOnly) {
    expect_error(write(kPm1Header), 1, 0, "header only");
    expect_error(write(std::string(kTraceMagic) + "\n" + kTraceColumns + "\n"), 2, 0,
                 "header only");
    expect_error(write("os,cpu\nLinux,x\nfps,frametime,elapsed\n"), 3, 0, "header only");
}

TEST_F(ReadersMalformed, TruncatedLine) {
    // The file ends in the middle of row 3: 4 of 8 columns.
    expect_error(write(std::string(kPm1Header) + kPm1Row + "game.exe,42,0x1,DX"), 3, 19,
                 "expected 8 comma-separated columns as in the header, found 4 (the file ends "
                 "mid-line)");
}

TEST_F(ReadersMalformed, WrongDelimiter) {
    expect_error(write("Application;ProcessID;SwapChainAddress;msBetweenPresents\n"
                       "game.exe;42;0x1;16.6\n"),
                 1, 12, "found ';' between columns: expected comma-separated values");
    // A comma header with semicolon rows.
    expect_error(write(std::string(kPm1Header) + "game.exe;42;0x1;DXGI;0;0.5;16.6;16.7\n"), 2, 37,
                 "expected 8 comma-separated columns");
}

TEST_F(ReadersMalformed, TextInANumberCell) {
    // msBetweenPresents is the 7th cell; it starts at character 29 of the row.
    expect_bad_cell(
        write(std::string(kPm1Header) + kPm1Row + "game.exe,42,0x1,DXGI,0,0.52,fast,16.7\n"), 3, 29,
        "msBetweenPresents", "not a number");
    expect_error(write("16.6\n16.7\n16,8\n"), 3, 1, "expected one frame time a line");
    expect_bad_cell(write("16.6\n16.7ms\n"), 2, 1, "frame time", "not a number");
    // No row with a frame time left: refused at the first bad cell.
    expect_error(write(std::string(kPm1Header) + "game.exe,42,0x1,DXGI,0,0.52,fast,16.7\n"), 2, 29,
                 "no row has a frame time: column 'msBetweenPresents' holds 'fast', not a number");
}

TEST_F(ReadersMalformed, NotANumber) {
    expect_bad_cell(
        write(std::string(kPm1Header) + kPm1Row + "game.exe,42,0x1,DXGI,0,0.5,nan,16.7\n"), 3, 28,
        "msBetweenPresents", "not a finite number");
    expect_bad_cell(write("16.6\nNaN\n"), 2, 1, "frame time", "not a finite number");
}

// A frame without a start time is placed after the frame before: an empty cell is a bad cell,
// NA is the tools' "no value" and is not counted.
TEST_F(ReadersMalformed, AMissingStartTimeIsPlacedAfterThePreviousFrame) {
    expect_bad_cell(
        write(std::string(kPm1Header) + kPm1Row + "game.exe,42,0x1,DXGI,0,,16.6,16.7\n"), 3, 24,
        "TimeInSeconds", "empty");
    expect_bad_cell(
        write(std::string(kPm1Header) + kPm1Row + "game.exe,42,0x1,DXGI,0, ,16.6,16.7\n"), 3, 24,
        "TimeInSeconds", "empty");
    const Capture na = read_capture(
        write(std::string(kPm1Header) + kPm1Row + "game.exe,42,0x1,DXGI,0,NA,16.6,16.7\n"));
    EXPECT_TRUE(na.data_quality.bad_cells.empty());
    ASSERT_EQ(na.start_ns.size(), 2u);
    EXPECT_EQ(na.start_ns[1] - na.start_ns[0], 16'600'000);  // a present's time ends its frame
}

TEST_F(ReadersMalformed, Infinity) {
    expect_bad_cell(write(std::string(kPm1Header) + "game.exe,42,0x1,DXGI,0,inf,16.6,16.7\n"), 2,
                    24, "TimeInSeconds", "not a finite number");
    expect_bad_cell(write("16.6\n-infinity\n"), 2, 1, "frame time", "not a finite number");
    // Finite in text, out of range as nanoseconds.
    expect_bad_cell(write("16.6\n1e300\n"), 2, 1, "frame time", "2^63 ns or more");
}

// A time cell is taken up to the int64 range of nanoseconds (2^63 ns, 292 years) and refused
// from there with a message that names that limit: 9.2·10^18 ns (291.5 years) reads, 9.3·10^18
// does not (the conversion at the edge itself: Units.RoundToInt64RoundsHalfAwayFromZero).
TEST_F(ReadersMalformed, TimeCellsAreTakenUpToTheInt64RangeAndRefusedPastIt) {
    const Capture read = read_capture(write("16.6\n9200000000000\n"));
    ASSERT_EQ(read.frame_ns.size(), 2u);
    EXPECT_EQ(read.frame_ns[1], 9'200'000'000'000'000'000);
    expect_bad_cell(write("16.6\n9300000000000\n"), 2, 1, "frame time", "2^63 ns or more");
    expect_bad_cell(write(std::string(kPm1Header) + "game.exe,42,0x1,DXGI,0,0.5,16.6,16.7\n" +
                          "game.exe,42,0x1,DXGI,0,9300000000,16.6,16.7\n"),
                    3, 24, "TimeInSeconds", "2^63 ns or more");
    const Capture json = read_capture(
        write("{\"Runs\": [{\"CaptureData\": {\"MsBetweenPresents\": [16.6, 9200000000000]}}]}"));
    ASSERT_EQ(json.frame_ns.size(), 2u);
    EXPECT_EQ(json.frame_ns[1], 9'200'000'000'000'000'000);
    expect_bad_cell(
        write("{\"Runs\": [{\"CaptureData\": {\"MsBetweenPresents\": [16.6, 9300000000000]}}]}"), 0,
        0, "Runs[0].CaptureData.MsBetweenPresents", "2^63 ns or more");
}

TEST_F(ReadersMalformed, NegativeTimes) {
    expect_bad_cell(
        write(std::string(kPm1Header) + kPm1Row + "game.exe,42,0x1,DXGI,0,0.5,-16.6,16.7\n"), 3, 28,
        "msBetweenPresents", "negative");
    expect_bad_cell(write("16.6\n-1\n"), 2, 1, "frame time", "negative");
    expect_bad_cell(write(std::string(kTraceMagic) + "\n" + kTraceColumns +
                          "\n0,0,0,0,0,0,0,0,0,0,0.0,0,0,0\n1,0,-5,0,0,0,0,0,0,0,0.0,0,0,0\n"),
                    4, 5, "raw_ns", "negative");
    expect_error(write(std::string(kTraceMagic) + "\n" + kTraceColumns +
                       "\n0,0,-5,0,0,0,0,0,0,0,0.0,0,0,0\n"),
                 2, 0, "no row whose cells are all numbers");
}

TEST_F(ReadersMalformed, UnknownFormat) {
    expect_error(write("hello world\nthis is not a capture\n"), 1, 1,
                 "unknown format: the first line is 'hello world'; expected a loopscope trace");
}

TEST_F(ReadersMalformed, BinaryGarbage) {
    std::string bytes = "PK\x03\x04";
    bytes += std::string("\x00\x01\xff\xfe", 4);
    expect_error(write(bytes), 1, 3, "binary data (byte 0x03): expected a text capture");
    expect_error(write(std::string("16.6\n17\x00", 8)), 2, 3, "binary data (byte 0x00)");
    expect_error(write("\xEF\xBB\xBF"
                       "ab\x01"),
                 1, 3, "binary data (byte 0x01)");
}

TEST_F(ReadersMalformed, ChangedColumnLayoutListsFoundAndExpected) {
    // A renamed frame-time column, as PresentMon did between versions.
    expect_error(write("Application,ProcessID,SwapChainAddress,MsBetweenPresent,Dropped\n"
                       "game.exe,1,0x1,16.6,0\n"),
                 1, 1,
                 "unknown PresentMon column layout: found 5 columns (Application, ProcessID, "
                 "SwapChainAddress, MsBetweenPresent, Dropped); expected Application, ProcessID, "
                 "SwapChainAddress and a frame-time column: msBetweenPresents");
    expect_error(write("Application,SwapChainAddress,msBetweenPresents\ngame.exe,0x1,16.6\n"), 1, 1,
                 "presentmon-1 layout without ProcessID: found 3 columns");
    expect_error(write(std::string(kTraceMagic) + "\nframe,raw_ns,start_ns\n0,1,2\n"), 2, 1,
                 "unknown trace column layout: found 'frame,raw_ns,start_ns'; expected the "
                 "columns 'frame,start_ns,raw_ns");
    expect_error(write("# loopscope-trace v3\n"), 1, 1, "expected '# loopscope-trace v1'");
}

TEST_F(ReadersMalformed, QuoteNeverClosed) {
    expect_error(write(std::string(kPm1Header) + "\"game.exe,42,0x1,DXGI,0,0.5,16.6,16.7\n"), 2, 1,
                 "quoted field is never closed");
}

TEST_F(ReadersMalformed, BadProcessIdAndDroppedCells) {
    expect_bad_cell(write(std::string(kPm1Header) + "game.exe,forty,0x1,DXGI,0,0.5,16.6,16.7\n"), 2,
                    10, "ProcessID", "not a number");
    expect_bad_cell(write(std::string(kPm1Header) + "game.exe,42,0x1,DXGI,yes,0.5,16.6,16.7\n"), 2,
                    22, "Dropped", "not a number");
}

TEST_F(ReadersMalformed, CapFrameXJson) {
    expect_error(
        write("{\n  \"Runs\": [\n    {\"CaptureData\": {\"MsBetweenPresents\": [16.6,, 17]}}\n"
              "  ]\n}\n"),
        3, 49, "malformed JSON");
    expect_bad_cell(
        write("{\"Runs\": [{\"CaptureData\": {\"MsBetweenPresents\": [16.6, \"x\"]}}]}"), 0, 0,
        "Runs[0].CaptureData.MsBetweenPresents", "not a number");
    expect_error(write("{\"Runs\": [{\"CaptureData\": {\"TimeInSeconds\": [0]}}]}"), 0, 0,
                 "Runs[0].CaptureData has no MsBetweenPresents array");
    expect_bad_cell(write("{\"Runs\": [{\"CaptureData\": {\"MsBetweenPresents\": [16.6, -1]}}]}"),
                    0, 0, "Runs[0].CaptureData.MsBetweenPresents", "negative");
    expect_error(write("{\"Runs\": []}"), 0, 0, "no frames");
    expect_error(write("{\"Runs\": [{\"CaptureData\": {\"MsBetweenPresents\": [1, 2], "
                       "\"TimeInSeconds\": [0]}}]}"),
                 0, 0, "TimeInSeconds has 1 entries, MsBetweenPresents 2");
}

TEST_F(ReadersMalformed, ErrorsNameTheFileEvenForListing) {
    const std::string path = write("garbage\n");
    EXPECT_THROW(list_capture_streams(path), InputError);
    EXPECT_THROW(detect_format(path), InputError);
}

// Damaged copies of the synthetic captures, one of every layout (cut anywhere, a byte overwritten
// with a delimiter, a quote, a NUL, a line break or a letter) either read or give an InputError:
// never another exception, a crash or a hang. Run under the sanitizer build too.
TEST_F(ReadersMalformed, DamagedCapturesReadOrGiveInputError) {
    const std::vector<std::string> files = test::test_data_captures();
    ASSERT_GE(files.size(), 12u);
    const char damage[] = {',', '"', '\0', '\n', 'x', '-', ';', '\r', '.'};
    std::mt19937 rng(11);
    int read_ok = 0, input_errors = 0;
    for (const std::string& name : files) {
        const std::string text = test::read_text(test::test_data(name));
        ASSERT_FALSE(text.empty()) << name;
        for (int trial = 0; trial < 40; ++trial) {
            std::string damaged = text;
            const std::size_t at = rng() % damaged.size();
            if (trial % 3 == 0) {
                damaged.resize(at);
            } else {
                // Mostly near the start, where the header and the format are decided.
                const std::size_t where = trial % 3 == 1 ? at % 400 : at;
                damaged[where] = damage[rng() % sizeof damage];
            }
            const std::string path = write(damaged);
            try {
                const Capture c = read_capture(path);
                EXPECT_GT(c.frames(), 0u);
                ++read_ok;
            } catch (const InputError& e) {
                EXPECT_EQ(e.file(), path);
                EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
                ++input_errors;
            }
            std::filesystem::remove(path);
        }
    }
    // Both outcomes occur: the damage is sometimes harmless (a cut after a whole row) and
    // sometimes not.
    EXPECT_GT(read_ok, 0);
    EXPECT_GT(input_errors, 0);
}

}  // namespace
}  // namespace loopscope
