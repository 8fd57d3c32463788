// The benchmarks' live-stream client and process CPU clock on Linux (see stream_reader.hpp).
#include "tests/bench/stream_reader.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

namespace loopscope::bench {

namespace {
std::int64_t cpu_clock_ns(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
}  // namespace

StreamReader::StreamReader(int port) {
    thread_ = std::thread([this, port] {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
            std::vector<char> buffer(1 << 16);
            for (ssize_t n; (n = recv(fd, buffer.data(), buffer.size(), 0)) > 0;) {
                bytes_ += n;
                // Live protocol 2: acknowledge what was taken (u32 1, u64 bytes), or the game
                // closes this client after its serve_stall_ms.
                unsigned char ack[12] = {1, 0, 0, 0};
                for (int i = 0; i < 8; ++i)
                    ack[4 + i] =
                        static_cast<unsigned char>(static_cast<std::uint64_t>(bytes_) >> (8 * i));
                ::send(fd, ack, sizeof ack, MSG_NOSIGNAL);
            }
        }
        ::close(fd);
        cpu_ns_ = cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
    });
}

std::int64_t StreamReader::finish() {
    thread_.join();
    return bytes_;
}

std::int64_t process_cpu_ns() {
    return cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

std::int64_t children_cpu_ns() {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    const auto ns = [](const timeval& t) {
        return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_usec * 1000;
    };
    return ns(usage.ru_utime) + ns(usage.ru_stime);
}

bool wait_for_idle_cpus(double idle_share, double timeout_s) {
    // The first line of /proc/stat: every CPU's time in each state, in clock ticks; idle and
    // iowait are the idle ones.
    const auto read_ticks = [](std::int64_t& idle, std::int64_t& total) {
        std::ifstream stat("/proc/stat");
        std::string cpu;
        stat >> cpu;
        idle = total = 0;
        std::int64_t v = 0;
        for (int field = 0; field < 10 && stat >> v; ++field) {
            total += v;
            if (field == 3 || field == 4)
                idle += v;
        }
        return total > 0;
    };
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (std::chrono::steady_clock::now() < deadline) {
        std::int64_t idle0 = 0, total0 = 0, idle1 = 0, total1 = 0;
        if (!read_ticks(idle0, total0))
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        if (!read_ticks(idle1, total1))
            return false;
        if (total1 > total0 &&
            static_cast<double>(idle1 - idle0) >= idle_share * static_cast<double>(total1 - total0))
            return true;
    }
    return false;
}

}  // namespace loopscope::bench
