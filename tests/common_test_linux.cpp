// Output files on Linux special files: a FIFO stands in for /dev/null and the like, which the
// atomic write must write in place instead of renaming a plain file over them.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
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
