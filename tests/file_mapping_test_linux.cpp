// Reading through memory mappings (common/platform.hpp, LineReader::map_blocks): a file that
// another program shortens while it is mapped raises SIGBUS on the next access to its lost
// pages. That must end the program with one line naming the file and exit status 2, with the
// temporary output files removed, never a crash; a SIGBUS that is not about a mapped file
// still ends the program as SIGBUS.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "common/platform.hpp"
#include "readers/csv_scanner.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

// `lines` lines of about 40 bytes each.
std::string numbered_lines(int lines) {
    std::string text;
    for (int i = 0; i < lines; ++i)
        text += "line " + std::to_string(i) + ",16.666666666666666,0.5\n";
    return text;
}

// A reader of `path` past its first line, "header", its blocks mapped or copied.
std::unique_ptr<LineReader> reader_after_header(const std::string& path, bool mapped) {
    auto reader = std::make_unique<LineReader>(path);
    if (mapped)
        reader->map_blocks();
    std::string_view line;
    EXPECT_TRUE(reader->next(line));
    EXPECT_EQ(line, "header");
    return reader;
}

// Reads a byte through a volatile pointer, so that the access is not optimised away.
char touch(const char* p) {
    return *static_cast<const volatile char*>(p);
}

TEST(FileMappingDeathTest, AFileShortenedWhileMappedEndsWithOneLineAndExitStatus2) {
    GTEST_FLAG_SET(death_test_style, "fast");  // the child works in this folder
    const std::string dir = test::make_temp_dir("loopscope-mapping");
    const std::string path = dir + "/capture.csv";
    const std::string out = dir + "/report.json";
    test::write_text(path, numbered_lines(100000));  // about 4 MB
    ASSERT_TRUE(prepare_file_mapping());
    EXPECT_EXIT(
        {
            // An output being written when the fault comes: its temporary goes too.
            OutputFile o(out);
            o.write("{\"partial\": true");
            std::FILE* f = std::fopen(path.c_str(), "rb");
            MappedRange r = map_file_range(f, 12345, 2'000'000, path.c_str());
            if (!r.data)
                std::_Exit(10);
            if (touch(r.data + 1'500'000) != numbered_lines(100000)[12345 + 1'500'000])
                std::_Exit(11);  // the mapping shows the file's bytes while they are there
            std::filesystem::resize_file(path, 4096);
            touch(r.data + 1'500'000);
            std::_Exit(12);  // not reached: the byte is past the file's end now
        },
        ::testing::ExitedWithCode(2),
        "^loopscope: error: /[^ ]*/loopscope-mapping-[^/]*/capture\\.csv: the file became shorter "
        "while it was being read \\(another program truncated or rewrote it\\): expected a file "
        "that stays as it is until it has been read\n$");
    // Neither the output nor its temporary is left behind.
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        EXPECT_EQ(entry.path().filename().string(), "capture.csv");
    std::filesystem::remove_all(dir);
}

TEST(FileMappingDeathTest, TheLineReadersBlocksOfAShortenedFileNameItsPath) {
    GTEST_FLAG_SET(death_test_style, "fast");  // the child works in this folder
    const std::string dir = test::make_temp_dir("loopscope-mapping");
    const std::string path = dir + "/blocks.csv";
    test::write_text(path, "header\n" + numbered_lines(100000));
    EXPECT_EXIT(
        {
            LineReader reader(path);
            reader.map_blocks();
            std::string_view line;
            std::string_view block;
            if (!reader.next(line) || line != "header")
                std::_Exit(10);
            if (!reader.next_block(1 << 20, block) || block.substr(0, 7) != "line 0,")
                std::_Exit(11);
            std::filesystem::resize_file(path, 100);
            touch(block.data() + block.size() - 1);
            std::_Exit(12);
        },
        ::testing::ExitedWithCode(2),
        "^loopscope: error: /[^ ]*/loopscope-mapping-[^/]*/blocks\\.csv: the file became shorter "
        "while it was being read");
    std::filesystem::remove_all(dir);
}

TEST(FileMappingDeathTest, ASigbusThatIsNoMappedFilesStillEndsTheProgramAsSigbus) {
    GTEST_FLAG_SET(death_test_style, "fast");  // the child works in this folder
    ASSERT_TRUE(prepare_file_mapping());
    EXPECT_EXIT(
        {
            ::raise(SIGBUS);
            std::_Exit(12);
        },
        ::testing::KilledBySignal(SIGBUS), "");
}

TEST(FileMapping, MappedBlocksAreTheBlocksThatAreRead) {
    // The same lines, cut at line breaks, whatever the block size; a line longer than a block
    // comes whole, and a last line without a break in the last block.
    const std::string dir = test::make_temp_dir("loopscope-mapping");
    const std::string path = dir + "/lines.csv";
    const std::string text = "header\r\n" + numbered_lines(3000) + std::string(20000, 'y') + "\n" +
                             numbered_lines(500) + "last line without a break";
    test::write_text(path, text);
    for (const std::size_t bytes :
         {std::size_t{100}, std::size_t{4096}, std::size_t{65536}, std::size_t{1} << 20}) {
        SCOPED_TRACE(bytes);
        std::string blocks[2];
        std::size_t count[2] = {0, 0};
        for (const bool mapped : {false, true}) {
            const auto reader = reader_after_header(path, mapped);
            std::string_view block;
            while (reader->next_block(bytes, block)) {
                ASSERT_FALSE(block.empty());
                const bool last = block.back() != '\n';
                if (last) {  // only the file's last block (compared by size: a block is long)
                    EXPECT_TRUE(block.ends_with("\nlast line without a break") ||
                                block == "last line without a break")
                        << block.size();
                }
                blocks[mapped] += std::string(block);
                ++count[mapped];
            }
        }
        EXPECT_TRUE(blocks[0] == text.substr(8)) << blocks[0].size();
        EXPECT_TRUE(blocks[1] == blocks[0]) << blocks[1].size() << " against " << blocks[0].size();
        EXPECT_GT(count[1], 1u);
    }
    std::filesystem::remove_all(dir);
}

TEST(FileMapping, WhenNoMoreCanBeMappedTheLineReaderReadsOn) {
    // Every range the SIGBUS handler can name is taken after the first block: the reader reads
    // the rest, from where the mapped blocks stopped.
    const std::string dir = test::make_temp_dir("loopscope-mapping");
    const std::string path = dir + "/lines.csv";
    const std::string text = "header\n" + numbered_lines(20000);
    test::write_text(path, text);
    LineReader reader(path);
    reader.map_blocks();
    std::string_view line;
    std::string_view block;
    ASSERT_TRUE(reader.next(line));
    ASSERT_TRUE(reader.next_block(4096, block));
    std::string blocks(block);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    std::vector<MappedRange> held;
    for (;;) {
        MappedRange r = map_file_range(f, 0, 100, path.c_str());
        if (!r.data)
            break;
        held.push_back(r);
    }
    EXPECT_GE(held.size(), 10u);
    while (reader.next_block(4096, block))
        blocks += std::string(block);
    EXPECT_TRUE(blocks == text.substr(7)) << blocks.size() << " against " << text.size() - 7;
    for (MappedRange& r : held)
        unmap_file_range(r);
    std::fclose(f);
    // The slots are free again.
    std::FILE* again = std::fopen(path.c_str(), "rb");
    MappedRange r = map_file_range(again, 0, 100, path.c_str());
    EXPECT_NE(r.data, nullptr);
    unmap_file_range(r);
    std::fclose(again);
    std::filesystem::remove_all(dir);
}

TEST(FileMapping, ALineTooLongIsTheSameErrorMapped) {
    const std::string dir = test::make_temp_dir("loopscope-mapping");
    const std::string path = dir + "/long.csv";
    test::write_text(path, "header\n" + numbered_lines(10) + std::string(17u << 20, 'x') + "\n");
    std::string errors[2];
    for (const bool mapped : {false, true}) {
        const auto reader = reader_after_header(path, mapped);
        std::string_view block;
        try {
            while (reader->next_block(1 << 20, block)) {
            }
        } catch (const InputError& e) {
            errors[mapped] = e.what();
        }
    }
    // The caller counts the lines of blocks: none are counted here, so the error names line 2.
    EXPECT_EQ(errors[0], path +
                             ":2:1: line longer than 16 MiB: expected a text capture with one "
                             "row a line");
    EXPECT_EQ(errors[1], errors[0]);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
