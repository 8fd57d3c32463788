// Output files on Linux special files: a FIFO stands in for /dev/null and the like, which the
// atomic write must write in place instead of renaming a plain file over them; symbolic links,
// which it writes through, and the permissions of a file it replaces.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <limits>
#include <string>
#include <thread>

#include "common/errors.hpp"
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

// A pipe is copied into the temporary folder to be read; the copy stops with one line before the
// folder's file system would have less than the room it keeps free, and leaves no copy behind.
TEST(SpooledInput, StopsCopyingBeforeTheTemporaryFolderFills) {
    const auto dir = test::make_temp_dir("loopscope-spool");
    const auto fifo = dir + "/capture.fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto feed = [&](std::size_t bytes) {
        return std::thread([fifo, bytes] {
            const int fd = open(fifo.c_str(), O_WRONLY);
            const std::string text(bytes, '1');
            if (fd >= 0) {
                // Less than a pipe's buffer, so the write never waits for the reader.
                [[maybe_unused]] const auto written = write(fd, text.data(), text.size());
                close(fd);
            }
        });
    };
    // A folder of its own for the copies, so copies made by tests running beside this one are
    // not counted.
    const auto temp = dir + "/spool";
    std::filesystem::create_directory(temp);
    const char* const tmpdir_before = std::getenv("TMPDIR");
    const std::string tmpdir_saved = tmpdir_before ? tmpdir_before : "";
    setenv("TMPDIR", temp.c_str(), 1);
    std::error_code ec;
    const auto copies = [&] {
        std::size_t n = 0;
        for (const auto& e : std::filesystem::directory_iterator(temp, ec)) {
            if (e.path().filename().string().rfind("loopscope-input.", 0) == 0)
                ++n;
        }
        return n;
    };
    const std::size_t copies_before = copies();
    EXPECT_EQ(copies_before, 0u);
    {
        std::thread writer = feed(4000);
        try {
            const SpooledInput input(fifo, {}, std::numeric_limits<std::uint64_t>::max() / 2);
            ADD_FAILURE() << "a copy that would leave too little room must stop";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("stopped copying it after 0.0 MiB"), std::string::npos) << what;
            EXPECT_NE(what.find("temporary folder"), std::string::npos) << what;
            EXPECT_NE(what.find(fifo), std::string::npos) << what;
        }
        writer.join();
    }
    EXPECT_EQ(copies(), copies_before);
    {
        // With room, the same input is copied whole.
        std::thread writer = feed(4000);
        const SpooledInput input(fifo, {}, 0);
        writer.join();
        EXPECT_TRUE(input.spooled());
        EXPECT_EQ(std::filesystem::file_size(input.path()), 4000u);
    }
    if (tmpdir_before)
        setenv("TMPDIR", tmpdir_saved.c_str(), 1);
    else
        unsetenv("TMPDIR");
    std::filesystem::remove_all(dir);
}

// An input without end through a pipe: the copy stops at its bound with one line, and leaves no
// copy behind. The writer stops by itself once the reader has gone (or after 64 MiB).
TEST(SpooledInput, StopsAnEndlessPipeAtItsBound) {
    const auto dir = test::make_temp_dir("loopscope-spool");
    const auto fifo = dir + "/endless.fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto previous = std::signal(SIGPIPE, SIG_IGN);  // EPIPE instead, when the reader goes
    std::thread writer([fifo] {
        const int fd = open(fifo.c_str(), O_WRONLY);
        if (fd < 0)
            return;
        std::string text;
        for (int i = 0; i < 8192; ++i)
            text += "16.6\n";
        for (std::size_t sent = 0; sent < (std::size_t{64} << 20);) {
            const ssize_t n = write(fd, text.data(), text.size());
            if (n <= 0)
                break;
            sent += static_cast<std::size_t>(n);
        }
        close(fd);
    });
    try {
        const SpooledInput input(fifo, {}, 0, std::uint64_t{1} << 20);
        ADD_FAILURE() << "an endless input must stop at the bound";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("stopped copying it after 1.0 MiB, the most an input read from a pipe "
                            "may hold"),
                  std::string::npos)
            << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    writer.join();
    std::signal(SIGPIPE, previous);
    std::filesystem::remove_all(dir);
}

TEST(SpooledInput, EndlessInputToTheProgramStopsWithOneLine) {
    // `yes 16.6 | loopscope report - --unit ms` through a FIFO (the test's shell gives the
    // program /dev/null as standard input): the default bound, 1 GiB.
    const auto dir = test::make_temp_dir("loopscope-spool");
    const auto fifo = dir + "/endless.fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    // The feeder ends when the program closes the FIFO (SIGPIPE), or after 120 s.
    const auto r = test::run_loopscope_env(
        "(timeout 120 yes 16.6 >" + test::quoted(fifo) + " &);  timeout 120",
        "report " + test::quoted(fifo) + " --unit ms");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("stopped copying it after 1024.0 MiB"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
    std::filesystem::remove_all(dir);
}

TEST(OutputFile, ReplacingAnotherUsersFileKeepsItsOwnerAndGroup) {
    if (geteuid() != 0)
        GTEST_SKIP() << "giving a file to another user needs root";
    const auto dir = test::make_temp_dir("loopscope-out");
    const auto path = dir + "/report.json";
    test::write_text(path, "old");
    constexpr uid_t kUser = 4321;
    constexpr gid_t kGroup = 4322;
    ASSERT_EQ(chown(path.c_str(), kUser, kGroup), 0);
    ASSERT_EQ(chmod(path.c_str(), 0640), 0);
    {
        OutputFile out(path);
        out.write("new");
        out.commit();
    }
    struct stat st {};
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, kUser);
    EXPECT_EQ(st.st_gid, kGroup);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
    EXPECT_EQ(test::read_text(path), "new");
    // A new file is the writer's.
    const auto fresh = dir + "/fresh.json";
    write_file_atomically(fresh, "x");
    ASSERT_EQ(stat(fresh.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, geteuid());
    std::filesystem::remove_all(dir);
}
