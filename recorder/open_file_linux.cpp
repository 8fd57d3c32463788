// The trace file's open on POSIX systems (see open_file.hpp).
#include "recorder/open_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>

namespace loopscope {

std::FILE* open_trace_file(const std::string& path, std::int64_t wait_ms) {
    // O_NONBLOCK makes open() of a FIFO without a reader fail at once (ENXIO) instead of waiting
    // for one; a regular file opens as it would have.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
    int fd = -1;
    for (;;) {
        fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != ENXIO || std::chrono::steady_clock::now() >= deadline)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (fd < 0)
        return nullptr;
    // The writes block again, as they would have: the writer's own thread waits, never the game.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        ::close(fd);
        return nullptr;
    }
    std::FILE* file = ::fdopen(fd, "wb");
    if (!file)
        ::close(fd);
    return file;
}

}  // namespace loopscope
