// The tests' OS helpers on Linux (see test_support.hpp): the exit status of std::system,
// sending file descriptor 1 to a file, a fresh temporary folder (mkdtemp), and the example game
// serving its frames.
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

#ifdef LOOPSCOPE_EXAMPLE_GAME
namespace loopscope::test {

ServingGame::ServingGame(int frames) {
    const std::string cmd = std::string("'") + LOOPSCOPE_EXAMPLE_GAME + "' --serve 0 " +
                            std::to_string(frames) + " /dev/null";
    pipe_ = popen(cmd.c_str(), "r");
    char line[128] = {};
    if (pipe_ && std::fgets(line, sizeof line, pipe_))
        std::sscanf(line, "serving on 127.0.0.1:%d", &port_);
}

ServingGame::~ServingGame() {
    if (!pipe_)
        return;
    char line[128];
    while (std::fgets(line, sizeof line, pipe_)) {
    }
    pclose(pipe_);
}

}  // namespace loopscope::test
#endif  // LOOPSCOPE_EXAMPLE_GAME
