// The tests' OS helpers on Windows (see test_support.hpp): the exit status of std::system (the
// program's exit code itself), sending file descriptor 1 to a file (the C runtime's _dup), and a
// fresh temporary folder (a name from the process id and a counter, made with CreateDirectory,
// which fails rather than reuse a folder).
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#include <windows.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "tests/test_support.hpp"

namespace loopscope::test {

std::string make_temp_dir(const std::string& prefix) {
    static std::atomic<unsigned> counter{0};
    const auto base = std::filesystem::temp_directory_path();
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const std::string path = (base / (prefix + "-" + std::to_string(::GetCurrentProcessId()) +
                                          "-" + std::to_string(counter.fetch_add(1))))
                                     .string();
        if (::CreateDirectoryA(path.c_str(), nullptr))
            return path;
        if (::GetLastError() != ERROR_ALREADY_EXISTS)
            break;
    }
    throw std::runtime_error("could not make a temporary folder");
}

int system_exit_code(int status) {
    return status;
}

StdoutToFile::StdoutToFile(const std::string& path) {
    std::fflush(stdout);
    const int saved = ::_dup(1);
    const int fd =
        ::_open(path.c_str(), _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY, _S_IREAD | _S_IWRITE);
    if (saved < 0 || fd < 0) {
        if (saved >= 0)
            ::_close(saved);
        if (fd >= 0)
            ::_close(fd);
        return;  // ok() stays false; stdout is untouched
    }
    ::_dup2(fd, 1);
    ::_close(fd);
    saved_fd_ = saved;
}

StdoutToFile::~StdoutToFile() {
    if (saved_fd_ < 0)
        return;
    std::fflush(stdout);
    ::_dup2(saved_fd_, 1);
    ::_close(saved_fd_);
}

}  // namespace loopscope::test
