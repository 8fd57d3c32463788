// Reading a capture in pieces on several threads gives what one thread gives, byte for byte:
// every report format of every test-data capture and every shared real capture is the same for
// 1, 2 and 8 threads, with the blocks copied or mapped (ReadOptions::map_large_files), and with
// blocks small enough that every file is cut into many of them; and a bad row in a later block,
// or the file's last row, is the same error whichever thread met it.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "core/analysis.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"
#include "writers/writer.hpp"

namespace loopscope {
namespace {

// Small blocks, so that even the test-data files of a few kB are read in many blocks of up to
// eight pieces each.
constexpr std::size_t kTestChunkBytes = 4096;
// How a capture is read: on how many threads, and whether its blocks are mapped or copied.
struct Reading {
    unsigned threads = 1;
    bool mapped = false;
};
// The first, line by line, is what the others are held to; one thread reads mapped blocks in
// pieces too, one after another.
const Reading kReadings[] = {{1, false}, {2, false}, {8, false}, {1, true}, {2, true}, {8, true}};

std::ostream& operator<<(std::ostream& os, const Reading& r) {
    return os << r.threads << " threads" << (r.mapped ? ", mapped" : "");
}

struct Outputs {
    std::vector<std::string> texts;  // one per report format, then the stream list
    std::vector<std::string> warnings;
};

// Everything `loopscope report` makes of a capture, as files, plus the stream list.
Outputs report_outputs(const std::string& path, Reading how, const std::string& dir,
                       std::size_t chunk_bytes = kTestChunkBytes) {
    const unsigned threads = how.threads;
    Outputs out;
    for (const char* const format : writer_formats()) {
        ReadOptions read;
        read.threads = threads;
        read.map_large_files = how.mapped;
        read.chunk_bytes = chunk_bytes;
        read.loop_figures_only = !writer_needs_loop_records(format);
        const auto capture = std::make_unique<Capture>(read_capture(path, read));
        Report report;
        AnalysisOptions analysis;
        analysis.threads = threads;
        report.captures.push_back(analyse_capture(*capture, analysis));
        const std::string file = dir + "/out." + format;
        {
            OutputFile o(file);
            make_writer(format, {})->write(report, o);
            o.commit();
        }
        out.texts.push_back(test::read_text(file));
        out.warnings = capture->warnings;
    }
    ReadOptions read;
    read.threads = threads;
    read.map_large_files = how.mapped;
    read.chunk_bytes = chunk_bytes;
    std::string list;
    for (const CaptureStreamInfo& s : list_capture_streams(path, read)) {
        list += s.process + "|" + std::to_string(s.process_id) + "|" + s.swap_chain + "|" +
                std::to_string(s.frames) + "|" + std::to_string(s.duration_s) + "\n";
    }
    out.texts.push_back(list);
    return out;
}

void expect_same_for_every_thread_count(const std::string& path,
                                        std::size_t chunk_bytes = kTestChunkBytes) {
    SCOPED_TRACE(path);
    const std::string dir = test::make_temp_dir("loopscope-pieces");
    const Outputs one = report_outputs(path, {}, dir, chunk_bytes);
    ASSERT_FALSE(one.texts.front().empty());
    for (const Reading how : kReadings) {
        SCOPED_TRACE(::testing::PrintToString(how));
        const Outputs many = report_outputs(path, how, dir, chunk_bytes);
        ASSERT_EQ(many.texts.size(), one.texts.size());
        for (std::size_t i = 0; i < one.texts.size(); ++i) {
            // Compared as booleans first: a mismatch of two HTML reports would print megabytes.
            EXPECT_TRUE(many.texts[i] == one.texts[i])
                << "output " << i << " differs from one thread's (" << many.texts[i].size()
                << " against " << one.texts[i].size() << " bytes)";
        }
        EXPECT_EQ(many.warnings, one.warnings);
    }
    std::filesystem::remove_all(dir);
}

TEST(ReadInPieces, TestDataCapturesGiveTheOutputOfOneThread) {
    const std::vector<std::string> names = test::test_data_captures();
    ASSERT_FALSE(names.empty());
    for (const std::string& name : names)
        expect_same_for_every_thread_count(test::test_data(name));
}

TEST(ReadInPieces, RealCapturesGiveTheOutputOfOneThread) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    std::set<std::string> paths;
    for (const auto& entry : std::filesystem::directory_iterator(test::captures_dir())) {
        if (entry.path().extension() == ".csv" || entry.path().extension() == ".json")
            paths.insert(entry.path().string());
    }
    ASSERT_FALSE(paths.empty());
    for (const std::string& path : paths)
        expect_same_for_every_thread_count(path);
}

// The error message (file:line:column: what) reading `path` read as `how` says, with
// ReadOptions::strict (a bad cell is an error at its place, counted across the pieces).
std::string error_of(const std::string& path, Reading how,
                     std::size_t chunk_bytes = kTestChunkBytes) {
    ReadOptions read;
    read.strict = true;
    read.threads = how.threads;
    read.map_large_files = how.mapped;
    read.chunk_bytes = chunk_bytes;
    try {
        read_capture(path, read);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

// presentmon1.csv with `bad` put in place of the cell at `column` (0-based) of the data row
// `row` (0-based; negative counts from the end).
std::string with_bad_cell(const std::string& dir, int row, std::size_t column,
                          const std::string& bad) {
    const std::string text = test::read_text(test::test_data("presentmon1.csv"));
    std::vector<std::string> lines;
    std::size_t begin = 0;
    while (begin < text.size()) {
        const std::size_t end = text.find('\n', begin);
        lines.push_back(text.substr(begin, end - begin));
        begin = end == std::string::npos ? text.size() : end + 1;
    }
    const std::size_t data_rows = lines.size() - 1;
    const std::size_t at =
        1 + (row >= 0 ? static_cast<std::size_t>(row) : data_rows - static_cast<std::size_t>(-row));
    std::string& line = lines.at(at);
    std::size_t cell_begin = 0;
    for (std::size_t c = 0; c < column; ++c)
        cell_begin = line.find(',', cell_begin) + 1;
    const std::size_t cell_end = line.find(',', cell_begin);
    line.replace(cell_begin, cell_end - cell_begin, bad);
    std::string out;
    for (const std::string& l : lines)
        out += l + "\n";
    const std::string path = dir + "/bad_row" + std::to_string(row) + ".csv";
    test::write_text(path, out);
    return path;
}

TEST(ReadInPieces, ABadRowInALaterBlockIsTheErrorOfOneThread) {
    const std::string dir = test::make_temp_dir("loopscope-pieces-error");
    // Column 9 is msBetweenPresents in the test data's PresentMon 1.x layout; column 1 the
    // process ID, parsed only at a stream's first row. Rows 20 and 200 lie in the second and a
    // later block of 4 kB (the rows are about 270 bytes); -1 is the last row, in the last piece of
    // the last block.
    struct Case {
        int row;
        std::size_t column;
        std::string bad;
    };
    const Case cases[] = {{20, 9, "12.x"}, {200, 9, "-3"}, {-1, 9, "NaN"}, {-1, 1, "pid"}};
    for (const Case& c : cases) {
        const std::string path = with_bad_cell(dir, c.row, c.column, c.bad);
        SCOPED_TRACE(path);
        const std::string one = error_of(path, {});
        EXPECT_NE(one, "(no error)");
        EXPECT_NE(one.find(path + ":"), std::string::npos) << one;
        for (const Reading how : kReadings)
            EXPECT_EQ(error_of(path, how), one) << how;
    }
    // A file cut off mid-row: the last row is short and has no line break.
    const std::string text = test::read_text(test::test_data("presentmon1.csv"));
    const std::string cut = dir + "/cut.csv";
    test::write_text(cut, text.substr(0, text.size() - 30));
    const std::string one = error_of(cut, {});
    EXPECT_NE(one.find("the file ends mid-line"), std::string::npos) << one;
    for (const Reading how : kReadings)
        EXPECT_EQ(error_of(cut, how), one) << how;
    std::filesystem::remove_all(dir);
}

TEST(ReadInPieces, ALineTooLongInALaterBlockIsTheErrorOfOneThread) {
    // The next block is read while the one before is parsed, before that block's lines are
    // counted: its error must still name the line one thread names, after that block's errors.
    const std::string dir = test::make_temp_dir("loopscope-pieces-long");
    const std::string text = test::read_text(test::test_data("presentmon1.csv"));
    std::size_t at = 0;
    for (int line = 0; line < 150; ++line)
        at = text.find('\n', at) + 1;
    const std::string long_line(17u << 20, 'x');  // past the 16 MiB a line may have
    const std::string path = dir + "/long.csv";
    test::write_text(path, text.substr(0, at) + long_line + "\n" + text.substr(at));
    const std::string one = error_of(path, {});
    EXPECT_NE(one.find(path + ":151:1: line longer than 16 MiB"), std::string::npos) << one;
    for (const Reading how : kReadings)
        EXPECT_EQ(error_of(path, how), one) << how;
    // A bad row (one cell too many) in the block before the long line is the error, as on one
    // thread.
    const std::string bad = with_bad_cell(dir, 120, 9, "12,x");
    const std::string bad_text = test::read_text(bad);
    std::size_t bad_at = 0;
    for (int line = 0; line < 150; ++line)
        bad_at = bad_text.find('\n', bad_at) + 1;
    const std::string both = dir + "/bad_then_long.csv";
    test::write_text(both, bad_text.substr(0, bad_at) + long_line + "\n" + bad_text.substr(bad_at));
    const std::string first = error_of(both, {});
    EXPECT_NE(first.find(":122:"), std::string::npos) << first;
    for (const Reading how : kReadings)
        EXPECT_EQ(error_of(both, how), first) << how;
    std::filesystem::remove_all(dir);
}

// The text of presentmon1.csv changed by `edit` at every data row (0-based) it is given.
std::string edited_capture(const std::string& dir, const std::string& name,
                           const std::function<std::string(std::size_t, std::string)>& edit) {
    const std::string text = test::read_text(test::test_data("presentmon1.csv"));
    std::string out;
    std::size_t begin = 0;
    for (std::size_t row = 0; begin < text.size(); ++row) {
        const std::size_t end = text.find('\n', begin);
        const std::string line = text.substr(begin, end - begin);
        out += row == 0 ? line + "\n" : edit(row - 1, line);
        begin = end == std::string::npos ? text.size() : end + 1;
    }
    const std::string path = dir + "/" + name + ".csv";
    test::write_text(path, out);
    return path;
}

// What real files hold between and inside rows: CRLF line ends, blank lines, quoted names with
// commas, a last line without a break; and malformed rows: a quote never closed, a row too
// wide. Read in blocks of 300 bytes (about one row), the pieces begin and end everywhere.
TEST(ReadInPieces, LineEndsBlankLinesQuotesAndBadRowsAsOneThread) {
    const std::string dir = test::make_temp_dir("loopscope-pieces-edits");
    const auto quoted = [](std::size_t row, std::string line) {
        if (row % 3 == 0)
            line.replace(0, line.find(','), "\"game, the \"\"sequel\"\"\"");
        return line + "\n";
    };
    const std::vector<std::string> paths = {
        edited_capture(dir, "crlf", [](std::size_t, std::string l) { return l + "\r\n"; }),
        edited_capture(
            dir, "blank",
            [](std::size_t row, std::string l) { return l + (row % 5 == 0 ? "\n\n\r\n" : "\n"); }),
        edited_capture(dir, "quoted", quoted),
        edited_capture(dir, "no_last_break",
                       [](std::size_t row, std::string l) { return row == 587 ? l : l + "\n"; }),
        edited_capture(
            dir, "unclosed",
            [](std::size_t row, std::string l) { return (row == 300 ? "\"" + l : l) + "\n"; }),
        edited_capture(
            dir, "too_wide",
            [](std::size_t row, std::string l) { return (row == 450 ? l + ",1" : l) + "\n"; }),
    };
    for (const std::string& path : paths) {
        SCOPED_TRACE(path);
        const std::string one = error_of(path, {}, 300);
        for (const Reading how : kReadings)
            EXPECT_EQ(error_of(path, how, 300), one) << how;
        if (one == "(no error)")
            expect_same_for_every_thread_count(path, 300);
    }
    EXPECT_EQ(error_of(paths[0], {}, 300), "(no error)");
    EXPECT_NE(error_of(paths[4], {}, 300).find(":302:"), std::string::npos);
    EXPECT_NE(error_of(paths[5], {}, 300).find(":452:"), std::string::npos);
    std::filesystem::remove_all(dir);
}

// presentmon1.csv's first data row once for each of `streams` process IDs, then again for each:
// a file of many streams, every one with two frames.
std::string many_streams_file(const std::string& dir, int streams, const std::string& last_pid) {
    const std::string text = test::read_text(test::test_data("presentmon1.csv"));
    const std::string header = text.substr(0, text.find('\n') + 1);
    const std::string row =
        text.substr(header.size(), text.find('\n', header.size()) + 1 - header.size());
    // The row's process ID (the second cell) replaced by each stream's own.
    const std::size_t pid_begin = row.find(',') + 1;
    const std::size_t pid_end = row.find(',', pid_begin);
    const auto with_pid = [&](const std::string& pid) {
        return row.substr(0, pid_begin) + pid + row.substr(pid_end);
    };
    std::string file = header;
    for (int round = 0; round < 2; ++round) {
        for (int stream = 0; stream < streams; ++stream)
            file += with_pid(std::to_string(stream));
    }
    if (!last_pid.empty())
        file += with_pid(last_pid);
    const std::string path = dir + "/streams" + std::to_string(streams) + last_pid + ".csv";
    test::write_text(path, file);
    return path;
}

// A piece whose rows name more streams than a piece keeps stops there, and the merge reads the
// rest of it on one thread: in one 4 MiB block, two threads' pieces of about 750 rows stop, eight
// threads' of about 190 do not.
TEST(ReadInPieces, APieceOfManyStreamsGivesTheOutputOfOneThread) {
    const std::string dir = test::make_temp_dir("loopscope-pieces-many");
    expect_same_for_every_thread_count(many_streams_file(dir, 3000, ""), 4u << 20);
    std::filesystem::remove_all(dir);
}

// One stream too many is found at the merge when each piece holds only a few streams: the error
// names the row where one thread found it, also when that row's process ID is not a number
// (one thread counts the streams first).
TEST(ReadInPieces, OneStreamTooManyIsTheErrorOfOneThread) {
    const std::string dir = test::make_temp_dir("loopscope-pieces-streams");
    for (const std::string last_pid : {"5000", "not-a-pid"}) {
        const std::string path = many_streams_file(dir, 4096, last_pid);
        const std::string one = error_of(path, {});
        EXPECT_NE(one.find(":8194:"), std::string::npos) << one;
        EXPECT_NE(one.find("more than 4096 streams"), std::string::npos) << one;
        // Small blocks: every piece holds a few streams; one block of 4 MiB: the pieces stop
        // at their stream limit and the merge reads on.
        for (const std::size_t chunk_bytes : {kTestChunkBytes, std::size_t{4} << 20}) {
            for (const Reading how : kReadings) {
                EXPECT_EQ(error_of(path, how, chunk_bytes), one)
                    << how << ", blocks of " << chunk_bytes << " bytes";
            }
        }
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
