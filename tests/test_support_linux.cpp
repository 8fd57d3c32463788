// The tests' OS helpers on Linux (see test_support.hpp): the exit status of std::system,
// sending file descriptor 1 to a file, and a fresh temporary folder (mkdtemp).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "tests/test_support.hpp"

namespace loopscope::test {

std::string make_temp_dir(const std::string& prefix) {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        throw std::runtime_error("mkdtemp failed");
    return pattern;
}

int system_exit_code(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

StdoutToFile::StdoutToFile(const std::string& path) {
    std::fflush(stdout);
    const int saved = ::dup(1);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (saved < 0 || fd < 0) {
        if (saved >= 0)
            ::close(saved);
        if (fd >= 0)
            ::close(fd);
        return;  // ok() stays false; stdout is untouched
    }
    ::dup2(fd, 1);
    ::close(fd);
    saved_fd_ = saved;
}

StdoutToFile::~StdoutToFile() {
    if (saved_fd_ < 0)
        return;
    std::fflush(stdout);
    ::dup2(saved_fd_, 1);
    ::close(saved_fd_);
}

}  // namespace loopscope::test
