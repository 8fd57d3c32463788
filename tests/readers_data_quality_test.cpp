// What the readers do with data that is not clean but that its tool wrote: cells that are not
// the number their column holds (FrameView's `Error` in Dropped, a wrapped unsigned value in
// MsBetweenDisplayChange, an empty cell) are counted in Capture::data_quality and the row read
// without them; `NA` is never counted; --strict refuses them at their place. Odd rows
// (duplicated, out of order, a clock that goes back, frames of 0 ms, a trace's alpha out of
// range), UTF-16 text, captures joined one after another and a tool's summary given instead of
// its capture. The real FrameView logs of frameview_set, where they are, end to end.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "core/analysis.hpp"
#include "core/figures.hpp"
#include "core/trace_record.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

namespace fs = std::filesystem;

// A FrameView `_Log.csv` layout cut to the columns that matter here (FrameView is recognised by
// its `Render Queue Depth` column).
const char* const kFvHeader =
    "Application,ProcessID,SwapChainAddress,Runtime,AllowsTearing,SyncInterval,PresentMode,"
    "Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsUntilDisplayed,"
    "Render Queue Depth\n";

std::string fv_row(int i, const std::string& dropped, const std::string& display) {
    std::ostringstream row;
    row << "game.exe,42,0x1,D3D12,0,0,Composed: Flip," << dropped << "," << 100.0 + 0.0166 * i
        << ",16.600," << display << ",8.000,1\n";
    return row.str();
}

class ReadersDataQuality : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::make_temp_dir("loopscope-data-quality"); }
    void TearDown() override { fs::remove_all(dir_); }

    std::string write(const std::string& name, const std::string& text) {
        const std::string path = dir_ + "/" + name;
        test::write_text(path, text);
        return path;
    }

    std::string dir_;
};

const BadCells* find_bad(const Capture& c, const std::string& column) {
    for (const BadCells& b : c.data_quality.bad_cells) {
        if (b.column == column)
            return &b;
    }
    return nullptr;
}

const DataOddity* find_oddity(const Capture& c, const std::string& kind) {
    for (const DataOddity& o : c.data_quality.oddities) {
        if (o.kind == kind)
            return &o;
    }
    return nullptr;
}

// FrameView's figures include the rows with such cells (their MsBetweenPresents): every row is a
// frame; the bad cell's column is absent on its row only.
TEST_F(ReadersDataQuality, FrameViewCellsThatAreNotNumbersAreCountedAndTheRowsKept) {
    std::string text = kFvHeader;
    text += fv_row(0, "0", "16.700");
    text += fv_row(1, "Error", "0.000");             // line 3
    text += fv_row(2, "0", "1844674407370954.500");  // line 4: a wrapped negative difference
    text += fv_row(3, "0", "NA");                    // NA: no value, not damage
    text += fv_row(4, "Error", "0.000");             // line 6
    text += fv_row(5, "1", "16.700");
    const Capture c = read_capture(write("fv.csv", text));
    EXPECT_EQ(c.source.format, "frameview");
    ASSERT_EQ(c.frames(), 6u);
    for (const std::int64_t ns : c.frame_ns)
        EXPECT_EQ(ns, 16'600'000);
    // An unreadable Dropped: not counted as dropped, and no display time on that row.
    EXPECT_EQ(c.dropped[1], 0);
    EXPECT_EQ(c.display_ns[1], -1);
    EXPECT_EQ(c.display_ns[2], -1);
    EXPECT_EQ(c.display_ns[3], -1);
    EXPECT_EQ(c.display_ns[0], 16'700'000);
    EXPECT_EQ(c.dropped[5], 1);

    ASSERT_EQ(c.data_quality.bad_cells.size(), 2u);
    EXPECT_EQ(c.data_quality.bad_cell_count(), 3);
    const BadCells* dropped = find_bad(c, "Dropped");
    ASSERT_NE(dropped, nullptr);
    EXPECT_EQ(dropped->count, 2);
    EXPECT_EQ(dropped->kind, "not a number");
    EXPECT_EQ(dropped->first_line, 3);
    // Dropped is the 8th cell: after "game.exe,42,0x1,D3D12,0,0,Composed: Flip,".
    EXPECT_EQ(dropped->first_column, 42);
    EXPECT_EQ(dropped->first_text, "Error");
    const BadCells* display = find_bad(c, "MsBetweenDisplayChange");
    ASSERT_NE(display, nullptr);
    EXPECT_EQ(display->count, 1);
    EXPECT_EQ(display->first_line, 4);
    EXPECT_EQ(display->first_text, "1844674407370954.500");
    EXPECT_EQ(display->kind.rfind("2^63 ns or more", 0), 0u) << display->kind;

    ReadOptions strict;
    strict.strict = true;
    try {
        read_capture(write("fv2.csv", text), strict);
        ADD_FAILURE() << "--strict read a capture with bad cells";
    } catch (const InputError& e) {
        EXPECT_EQ(e.line(), 3);
        EXPECT_EQ(e.column(), 42);
        EXPECT_NE(std::string(e.what()).find("column 'Dropped' holds 'Error', not a number (3 bad "
                                             "cells in all)"),
                  std::string::npos)
            << e.what();
    }
}

// NA (and N/A) is how the tools write "no value": never a bad cell, never refused.
TEST_F(ReadersDataQuality, NaCellsAreNotDamageEvenWithStrict) {
    std::string text = kFvHeader;
    text += fv_row(0, "0", "16.700");
    text += fv_row(1, "NA", "NA");
    text += fv_row(2, "0", "N/A");
    ReadOptions strict;
    strict.strict = true;
    const Capture c = read_capture(write("na.csv", text), strict);
    EXPECT_EQ(c.frames(), 3u);
    EXPECT_TRUE(c.data_quality.bad_cells.empty());
}

// A large file read in pieces on several threads counts the same cells at the same places.
TEST_F(ReadersDataQuality, PiecesCountTheSameBadCellsAsOneThread) {
    std::string text = kFvHeader;
    for (int i = 0; i < 3000; ++i) {
        text += fv_row(i, i % 700 == 5 ? "Error" : "0",
                       i % 500 == 7 ? "1844674407370953.500" : "16.700");
    }
    const std::string path = write("many.csv", text);
    ReadOptions one;
    one.threads = 1;
    ReadOptions pieces;
    pieces.threads = 2;
    pieces.chunk_bytes = 4096;
    const Capture a = read_capture(path, one);
    const Capture b = read_capture(path, pieces);
    ASSERT_EQ(a.data_quality.bad_cells.size(), 2u);
    ASSERT_EQ(b.data_quality.bad_cells.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        const BadCells& x = a.data_quality.bad_cells[i];
        const BadCells& y = b.data_quality.bad_cells[i];
        EXPECT_EQ(x.column, y.column);
        EXPECT_EQ(x.count, y.count);
        EXPECT_EQ(x.first_line, y.first_line);
        EXPECT_EQ(x.first_column, y.first_column);
    }
    EXPECT_EQ(find_bad(a, "Dropped")->count, 5);  // rows 5, 705, 1405, 2105, 2805
    EXPECT_EQ(find_bad(a, "Dropped")->first_line, 7);
    EXPECT_EQ(find_bad(a, "MsBetweenDisplayChange")->count, 6);
    EXPECT_EQ(a.display_ns, b.display_ns);
    EXPECT_EQ(a.dropped, b.dropped);
}

// Windows PowerShell's `>` writes UTF-16LE with a byte-order mark; big-endian has its own mark.
TEST_F(ReadersDataQuality, Utf16CapturesReadAsTheirText) {
    std::string text = kFvHeader;
    for (int i = 0; i < 50; ++i)
        text += fv_row(i, "0", "16.700");
    const auto utf16 = [&](bool big_endian) {
        std::string out = big_endian ? "\xFE\xFF" : "\xFF\xFE";
        for (const char ch : text) {
            const char units[2] = {big_endian ? '\0' : ch, big_endian ? ch : '\0'};
            out.append(units, 2);
        }
        return out;
    };
    const Capture plain = read_capture(write("utf8.csv", text));
    for (const bool big_endian : {false, true}) {
        const std::string path = write(big_endian ? "be.csv" : "le.csv", utf16(big_endian));
        EXPECT_EQ(detect_format(path), "frameview");
        const Capture c = read_capture(path);
        EXPECT_EQ(c.frame_ns, plain.frame_ns);
        EXPECT_EQ(c.start_ns, plain.start_ns);
        EXPECT_EQ(c.source.process, "game.exe");
    }
    // Text outside ASCII: a process name with an accent and one outside the BMP.
    const std::string name_text = std::string(kFvHeader) +
                                  "g\xC3\xA9me\xF0\x9F\x8E\xAE.exe,42,0x1,D3D12,0,0,Composed: "
                                  "Flip,0,1.0,16.600,16.700,8.000,1\n";
    std::string le = "\xFF\xFE";
    // UTF-16 of "gé" + U+1F3AE + the rest, written by hand for the name, ASCII for the rest.
    const std::string header = kFvHeader;
    for (const char ch : header)
        le += std::string{ch, '\0'};
    le += std::string("g\0\xE9\0m\0e\0", 8);
    le += std::string("\x3C\xD8\xAE\xDF", 4);  // U+1F3AE as a surrogate pair
    const std::string rest = ".exe,42,0x1,D3D12,0,0,Composed: Flip,0,1.0,16.600,16.700,8.000,1\n";
    for (const char ch : rest)
        le += std::string{ch, '\0'};
    const Capture named = read_capture(write("name16.csv", le));
    EXPECT_EQ(named.source.process, "g\xC3\xA9me\xF0\x9F\x8E\xAE.exe");
    EXPECT_EQ(read_capture(write("name8.csv", name_text)).source.process, named.source.process);
}

// `cat a.csv b.csv`: the header repeats; read as consecutive segments, the second laid after
// the first where its times start again, and said.
TEST_F(ReadersDataQuality, ConcatenatedCapturesAreReadAsSegments) {
    const std::string header =
        "Application,ProcessID,SwapChainAddress,Runtime,Dropped,TimeInSeconds,"
        "msBetweenPresents,msBetweenDisplayChange\n";
    std::string one = header;
    for (int i = 0; i < 10; ++i)
        one += "game.exe,42,0x1,DXGI,0," + std::to_string(0.5 + 0.016 * i) + ",16.000,16.000\n";
    const Capture c = read_capture(write("joined.csv", one + "\xEF\xBB\xBF" + one + one));
    ASSERT_EQ(c.frames(), 30u);
    EXPECT_TRUE(c.data_quality.bad_cells.empty());
    for (std::size_t i = 1; i < c.frames(); ++i)
        EXPECT_EQ(c.start_ns[i] - c.start_ns[i - 1], 16'000'000) << i;
    const DataOddity* joined = find_oddity(c, "concatenated_captures");
    ASSERT_NE(joined, nullptr);
    EXPECT_EQ(joined->count, 3);
    EXPECT_NE(joined->note.find("first at line 12"), std::string::npos) << joined->note;
    EXPECT_EQ(find_oddity(c, "clock_went_back"), nullptr);
}

TEST_F(ReadersDataQuality, ToolSummariesAreRefusedNamingTheFileToGive) {
    const std::string fv = write(
        "FrameView_Summary.csv",
        "TimeStamp,Application,Log Name,GPU0,CPU,Resolution,Runtime,Avg FPS,1% Low FPS,Min FPS\n"
        "2024-04-17T000401,AlanWake2.exe,FrameView_AlanWake2.exe_2024_04_17T000331_Log.csv,"
        "RTX,i7,3840x2160,D3D12,29.999,29.280,28.406\n");
    try {
        read_capture(fv);
        ADD_FAILURE() << "a FrameView summary was read";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.line(), 1);
        EXPECT_NE(what.find("a FrameView summary"), std::string::npos) << what;
        EXPECT_NE(what.find("FrameView_AlanWake2.exe_2024_04_17T000331_Log.csv"), std::string::npos)
            << what;
    }
    const std::string mh =
        write("Game_2024-01-01_12-00-00_summary.csv",
              "0.1% Min FPS,1% Min FPS,97% Percentile FPS,Average FPS,GPU Load,CPU Load\n"
              "50.1,60.2,144.0,120.3,90.0,30.0\n");
    try {
        read_capture(mh);
        ADD_FAILURE() << "a MangoHud summary was read";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("a MangoHud summary"), std::string::npos) << what;
        EXPECT_NE(what.find(dir_ + "/Game_2024-01-01_12-00-00.csv"), std::string::npos) << what;
    }
    const auto r = test::run_loopscope("report '" + mh + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(ReadersDataQuality, OddRowsAreCountedAndSaid) {
    const std::string header =
        "Application,ProcessID,SwapChainAddress,Runtime,Dropped,TimeInSeconds,"
        "msBetweenPresents,msBetweenDisplayChange\n";
    const auto row = [](double t) {
        return "game.exe,42,0x1,DXGI,0," + std::to_string(t) + ",16.000,16.000\n";
    };
    // 1.0 1.016 1.016(dup) 1.032 1.024(out of order) 1.048 | 0.5 0.516 (clock back, goes on)
    const std::string text = header + row(1.0) + row(1.016) + row(1.016) + row(1.032) + row(1.024) +
                             row(1.048) + row(0.5) + row(0.516);
    const Capture c = read_capture(write("odd.csv", text));
    EXPECT_EQ(c.frames(), 8u);
    ASSERT_NE(find_oddity(c, "duplicated_rows"), nullptr);
    EXPECT_EQ(find_oddity(c, "duplicated_rows")->count, 1);
    ASSERT_NE(find_oddity(c, "rows_out_of_time_order"), nullptr);
    EXPECT_EQ(find_oddity(c, "rows_out_of_time_order")->count, 1);
    ASSERT_NE(find_oddity(c, "clock_went_back"), nullptr);
    EXPECT_EQ(find_oddity(c, "clock_went_back")->count, 1);
    // Oddities are not damage: --strict reads the capture.
    ReadOptions strict;
    strict.strict = true;
    EXPECT_NO_THROW(read_capture(write("odd2.csv", text), strict));
}

// Frames of 0 ms in all have no frame rate: FPS figures absent with the reason, never 0.00.
TEST_F(ReadersDataQuality, AllZeroFrameTimesHaveNoFrameRate) {
    const Capture c = read_capture(write("zero.txt", "0\n0\n0\n0\n"));
    const DataOddity* zero = find_oddity(c, "zero_frame_times");
    ASSERT_NE(zero, nullptr);
    EXPECT_EQ(zero->count, 4);
    const CaptureReport r = analyse_capture(c, {});
    const Figure* avg = find_figure("avg_fps");
    ASSERT_NE(avg, nullptr);
    const auto missing = figure_missing(*avg, r);
    ASSERT_TRUE(missing.has_value());
    EXPECT_NE(missing->find("every frame time is 0"), std::string::npos) << *missing;
    const auto run = test::run_loopscope("report '" + dir_ + "/zero.txt'");
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out.find("average FPS"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("data quality: Every frame time is 0"), std::string::npos) << run.out;
}

TEST_F(ReadersDataQuality, TraceAlphaOutOfRangeAndRepeatedFrameNumbers) {
    std::string text = std::string(kTraceMagic) + "\n" + kTraceColumns + "\n";
    text += "0,0,0,0,0,0,0,0,0,0,0.5,0,0,0\n";
    text += "1,16000000,16000000,16000000,0,16000000,0,1,0,0,1e300,0,0,0\n";
    text += "1,16000000,15000000,15000000,0,15000000,0,1,0,0,0.25,0,0,0\n";  // repeated frame
    text += "3,48000000,32000000,16000000,0,16000000,0,1,0,0,0.25,0,0,0\n";
    const Capture c = read_capture(write("t.trace", text));
    EXPECT_EQ(c.frames(), 4u);
    ASSERT_NE(find_oddity(c, "alpha_out_of_range"), nullptr);
    EXPECT_EQ(find_oddity(c, "alpha_out_of_range")->count, 1);
    EXPECT_NE(find_oddity(c, "alpha_out_of_range")->note.find("line 4"), std::string::npos);
    ASSERT_NE(find_oddity(c, "frame_numbers_not_increasing"), nullptr);
    EXPECT_EQ(find_oddity(c, "frame_numbers_not_increasing")->count, 1);
    ASSERT_NE(find_oddity(c, "duplicate_start_times"), nullptr);
    EXPECT_EQ(find_oddity(c, "duplicate_start_times")->count, 1);
}

// Several streams of similar size: which one the report is of, and what else is there.
TEST_F(ReadersDataQuality, SimilarStreamsNameTheOneChosen) {
    const std::string header =
        "Application,ProcessID,SwapChainAddress,Runtime,Dropped,TimeInSeconds,"
        "msBetweenPresents,msBetweenDisplayChange\n";
    std::string text = header;
    for (int i = 0; i < 10; ++i) {
        const std::string t = std::to_string(0.5 + 0.016 * i);
        text += "game.exe,42,0x1,DXGI,0," + t + ",16.000,16.000\n";
        if (i < 8)
            text += "other.exe,7,0x2,DXGI,0," + t + ",16.000,16.000\n";
        if (i < 2)
            text += "tiny.exe,9,0x3,DXGI,0," + t + ",16.000,16.000\n";
    }
    const std::string path = write("streams.csv", text);
    const Capture c = read_capture(path);
    const DataOddity* similar = find_oddity(c, "similar_streams");
    ASSERT_NE(similar, nullptr);
    EXPECT_EQ(similar->count, 1);
    EXPECT_NE(similar->note.find("other.exe PID 7"), std::string::npos) << similar->note;
    EXPECT_NE(similar->note.find("game.exe PID 42"), std::string::npos) << similar->note;
    EXPECT_EQ(similar->note.find("tiny.exe"), std::string::npos) << similar->note;
    ReadOptions chosen;
    chosen.process = "other";
    EXPECT_EQ(find_oddity(read_capture(path, chosen), "similar_streams"), nullptr);
}

// Every output states the data quality: the notes of the terminal, Markdown and HTML reports, the
// JSON data_quality object, and standard error where the format has no notes (CSV).
TEST_F(ReadersDataQuality, EveryOutputStatesIt) {
    std::string text = kFvHeader;
    text += fv_row(0, "0", "16.700");
    text += fv_row(1, "Error", "0.000");
    text += fv_row(2, "0", "16.700");
    const std::string input = write("fv.csv", text);
    const std::string note =
        "data quality: 1 cell of `Dropped` is not a number (first: line 3, "
        "column 42, `Error`)";
    for (const char* format : {"terminal", "md"}) {
        const auto r =
            test::run_loopscope(std::string("report --format ") + format + " '" + input + "'");
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find(note), std::string::npos) << format << ": " << r.out;
    }
    const auto html =
        test::run_loopscope("report --format html -o '" + dir_ + "/r.html' '" + input + "'");
    EXPECT_EQ(html.exit_code, 0) << html.err;
    EXPECT_NE(test::read_text(dir_ + "/r.html").find("data quality: 1 cell of `Dropped`"),
              std::string::npos);
    const auto csv = test::run_loopscope("report --format csv '" + input + "'");
    EXPECT_EQ(csv.exit_code, 0) << csv.err;
    EXPECT_NE(csv.err.find(note), std::string::npos) << csv.err;
    const auto json = test::run_loopscope("report --format json '" + input + "'");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    const auto& q = j.contains("captures") ? j["captures"][0]["data_quality"] : j["data_quality"];
    EXPECT_EQ(q["bad_cells"], 1);
    ASSERT_EQ(q["bad_cells_by_column"].size(), 1u);
    EXPECT_EQ(q["bad_cells_by_column"][0]["column"], "Dropped");
    EXPECT_EQ(q["bad_cells_by_column"][0]["first"]["line"], 3);
    EXPECT_EQ(q["bad_cells_by_column"][0]["first"]["column"], 42);
    EXPECT_EQ(q["bad_cells_by_column"][0]["first"]["text"], "Error");
    const auto strict = test::run_loopscope("report --strict '" + input + "'");
    EXPECT_EQ(strict.exit_code, 2);
    EXPECT_NE(strict.err.find(input + ":3:42: column 'Dropped' holds 'Error'"), std::string::npos)
        << strict.err;
}

// ---- The real FrameView logs ---------------------------------------------------------------

// The cells of a FrameView log's columns that loopscope reads which are not the numbers they
// hold, found independently: the cell's text split at commas (FrameView quotes nothing), a
// number whose value in nanoseconds is below 2^63 (times) or a whole number (flags, IDs).
struct ExpectedBadCells {
    std::int64_t count = 0;
    std::int64_t first_line = 0, first_column = 0;
};

ExpectedBadCells scan_frameview_log(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> names;
    {
        std::stringstream header(line);
        for (std::string name; std::getline(header, name, ',');)
            names.push_back(name);
    }
    const auto index = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) -
                                        names.begin());
    };
    struct Column {
        std::size_t at;
        double ns_per_unit;  // 0: a whole number
    };
    const std::vector<Column> read = {{index("ProcessID"), 0},
                                      {index("Dropped"), 0},
                                      {index("TimeInSeconds"), 1e9},
                                      {index("MsBetweenPresents"), 1e6},
                                      {index("MsBetweenDisplayChange"), 1e6}};
    ExpectedBadCells out;
    for (std::int64_t number = 2; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        std::vector<std::string> cells;
        std::vector<std::int64_t> starts;
        std::size_t from = 0;
        for (;;) {
            const std::size_t comma = line.find(',', from);
            cells.push_back(line.substr(from, comma - from));
            starts.push_back(static_cast<std::int64_t>(from) + 1);
            if (comma == std::string::npos)
                break;
            from = comma + 1;
        }
        // Only Dropped and MsBetweenDisplayChange are left after a bad Dropped on the row.
        for (const Column& c : read) {
            const std::string& text = cells[c.at];
            if (text == "NA")
                continue;
            bool good = false;
            if (c.ns_per_unit == 0) {
                long long v = 0;
                const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
                good = ec == std::errc() && p == text.data() + text.size();
            } else {
                char* end = nullptr;
                const double v = std::strtod(text.c_str(), &end);
                good = !text.empty() && end == text.c_str() + text.size() && std::isfinite(v) &&
                       v >= 0 && v * c.ns_per_unit < 9223372036854775808.0;
            }
            if (good)
                continue;
            if (out.count++ == 0) {
                out.first_line = number;
                out.first_column = starts[c.at];
            }
        }
    }
    return out;
}

// The synthetic FrameView log with such cells (tests/data/frameview_damaged_Log.csv): the same
// independent scan finds what the reader counts, and --strict refuses it at the first one.
TEST(ReadersDataQualitySample, TheDamagedFrameViewSampleIsCountedCellForCell) {
    const std::string path = test::test_data("frameview_damaged_Log.csv");
    const ExpectedBadCells expected = scan_frameview_log(path);
    EXPECT_EQ(expected.count, 5 + 3);  // Error on rows 17, 67, ...; wrapped on 33, 103, 173
    const Capture c = read_capture(path);
    EXPECT_EQ(c.data_quality.bad_cell_count(), expected.count);
    ReadOptions strict;
    strict.strict = true;
    try {
        read_capture(path, strict);
        ADD_FAILURE() << "--strict read it";
    } catch (const InputError& e) {
        EXPECT_EQ(e.line(), expected.first_line) << e.what();
        EXPECT_EQ(e.column(), expected.first_column) << e.what();
    }
    // Read as UTF-16: the same frames as its UTF-8 text.
    const Capture utf16 = read_capture(test::test_data("presentmon1_utf16.csv"));
    EXPECT_EQ(utf16.source.format, "presentmon-1");
    EXPECT_EQ(utf16.frames(), 150u);
}

TEST(FrameViewSet, EveryLogReadsAndStrictRefusesExactlyThoseWithBadCells) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const fs::path folder = test::capture("frameview_set");
    if (!fs::exists(folder))
        GTEST_SKIP() << folder << " is not there";
    std::vector<fs::path> logs;
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("fv", 0) == 0 && entry.path().extension() == ".csv")
            logs.push_back(entry.path());
    }
    std::sort(logs.begin(), logs.end());
    ASSERT_EQ(logs.size(), 30u);
    int with_bad_cells = 0;
    ReadOptions strict;
    strict.strict = true;
    for (const fs::path& log : logs) {
        SCOPED_TRACE(log.filename().string());
        const ExpectedBadCells expected = scan_frameview_log(log.string());
        Capture c;
        ASSERT_NO_THROW(c = read_capture(log.string()));
        EXPECT_EQ(c.source.format, "frameview");
        EXPECT_EQ(c.data_quality.bad_cell_count(), expected.count);
        if (expected.count == 0) {
            EXPECT_NO_THROW(read_capture(log.string(), strict));
            continue;
        }
        ++with_bad_cells;
        try {
            read_capture(log.string(), strict);
            ADD_FAILURE() << "--strict read it";
        } catch (const InputError& e) {
            EXPECT_EQ(e.line(), expected.first_line) << e.what();
            EXPECT_EQ(e.column(), expected.first_column) << e.what();
        }
    }
    // Three logs with `Error` in Dropped, five with a wrapped MsBetweenDisplayChange.
    EXPECT_EQ(with_bad_cells, 8);
}

// The summary FrameView wrote for the set, given to `report`: one line saying what it is.
TEST(FrameViewSet, ItsSummaryFileIsRefusedInOneLine) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string summary = test::capture("frameview_set/FrameView_Summaries.csv");
    if (!fs::exists(summary))
        GTEST_SKIP() << summary << " is not there";
    const auto r = test::run_loopscope("report '" + summary + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("a FrameView summary"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace loopscope
