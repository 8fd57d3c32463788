// Output files on Linux special files: a FIFO stands in for /dev/null and the like, which the
// atomic write must write in place instead of renaming a plain file over them; symbolic links,
// which it writes through, and the permissions of a file it replaces.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iterator>
#include <string>

#include "common/output_file.hpp"
#include "tests/test_support.hpp"

using namespace loopscope;

TEST(OutputFile, WritesAPipeInPlaceInsteadOfReplacingIt) {
    // `-o /dev/null` or a FIFO must stay what it is: a rename over it would put a plain file
    // in its place. A FIFO stands in for the device here, so a failure harms nothing.
    const auto dir = test::make_temp_dir("loopscope-out");
    const auto path = dir + "/pipe";
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
    // The reading end, opened without waiting for a writer; the text fits the pipe's buffer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(fd, 0);
    {
        OutputFile out(path);
        out.write("through the pipe");
        out.commit();
    }
    char buffer[64] = {};
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    ::close(fd);
    EXPECT_EQ(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0), "through the pipe");
    EXPECT_TRUE(std::filesystem::is_fifo(path));
    std::filesystem::remove_all(dir);
}

namespace {

std::string contents(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    std::string text;
    if (!f)
        return text;
    char buffer[256];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
        text.append(buffer, n);
    std::fclose(f);
    return text;
}

void write_through(const std::string& path, const std::string& text) {
    OutputFile out(path);
    out.write(text);
    out.commit();
}

}  // namespace

TEST(OutputFile, AReplacedFileKeepsItsPermissions) {
    // A report a user made private (mode 600) must not become readable by others when written
    // again: the temporary takes the replaced file's permissions before the rename.
    const auto dir = test::make_temp_dir("loopscope-out");
    const auto path = dir + "/report.json";
    write_through(path, "first");
    ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
    write_through(path, "second");
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(contents(path), "second");
    std::filesystem::remove_all(dir);
}

TEST(OutputFile, WritesThroughASymbolicLinkAndKeepsTheLink) {
    const auto dir = test::make_temp_dir("loopscope-out");
    const auto target = dir + "/reports/latest.json";
    std::filesystem::create_directories(dir + "/reports");
    write_through(target, "old");
    const auto link = dir + "/report.json";
    std::filesystem::create_symlink("reports/latest.json", link);
    write_through(link, "new");
    EXPECT_TRUE(std::filesystem::is_symlink(link));
    EXPECT_EQ(contents(target), "new");
    // The temporary lay beside the target and is gone.
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir + "/reports"),
                            std::filesystem::directory_iterator()),
              1);
    // A link whose target does not exist yet: the target is created, the link stays.
    const auto dangling = dir + "/next.json";
    std::filesystem::create_symlink(dir + "/reports/next.json", dangling);
    write_through(dangling, "created");
    EXPECT_TRUE(std::filesystem::is_symlink(dangling));
    EXPECT_EQ(contents(dir + "/reports/next.json"), "created");
    std::filesystem::remove_all(dir);
}
