// The live stream's socket on Linux and other POSIX systems: BSD sockets (see socket.hpp).
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

#include "recorder/socket.hpp"

namespace loopscope::live_socket {

namespace {

std::int64_t monotonic_ms() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return std::int64_t{t.tv_sec} * 1000 + t.tv_nsec / 1'000'000;
}

// One address: a non-blocking connect, waited for until `deadline_ms`; the socket is blocking
// again once connected. A blocking connect would wait for the system's own retries (minutes)
// when the listener's queue is full.
int connect_one(const addrinfo& a, std::int64_t deadline_ms, ConnectFailure& failure) {
    const int s = ::socket(a.ai_family, a.ai_socktype, a.ai_protocol);
    if (s < 0) {
        failure = ConnectFailure::failed;
        return -1;
    }
    const int flags = ::fcntl(s, F_GETFL, 0);
    ::fcntl(s, F_SETFL, flags | O_NONBLOCK);
    int error = ::connect(s, a.ai_addr, a.ai_addrlen) == 0 ? 0 : errno;
    if (error == EINPROGRESS) {
        pollfd fd{};
        fd.fd = s;
        fd.events = POLLOUT;
        int ready = 0;
        for (;;) {
            const std::int64_t left_ms = deadline_ms - monotonic_ms();
            ready = left_ms > 0 ? ::poll(&fd, 1, static_cast<int>(left_ms)) : 0;
            if (ready >= 0 || errno != EINTR)
                break;
        }
        error = ETIMEDOUT;
        if (ready > 0) {
            socklen_t size = sizeof error;
            if (::getsockopt(s, SOL_SOCKET, SO_ERROR, &error, &size) != 0)
                error = errno;
        }
    }
    if (error != 0) {
        ::close(s);
        failure = error == ECONNREFUSED ? ConnectFailure::refused
                  : error == ETIMEDOUT  ? ConnectFailure::timed_out
                                        : ConnectFailure::failed;
        return -1;
    }
    ::fcntl(s, F_SETFL, flags);
    failure = ConnectFailure::none;
    return s;
}

}  // namespace

std::intptr_t connect_to(const std::string& host, int port, int timeout_ms,
                         ConnectFailure& failure) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) {
        failure = ConnectFailure::unknown_host;
        return kNone;
    }
    const std::int64_t deadline_ms = monotonic_ms() + timeout_ms;
    int s = -1;
    failure = ConnectFailure::failed;
    // The addresses in turn, all within the one deadline; the last failure is the one told.
    for (addrinfo* a = found; a && s < 0 && monotonic_ms() < deadline_ms; a = a->ai_next)
        s = connect_one(*a, deadline_ms, failure);
    if (s < 0 && failure == ConnectFailure::failed && monotonic_ms() >= deadline_ms)
        failure = ConnectFailure::timed_out;
    freeaddrinfo(found);
    return s < 0 ? kNone : s;
}

long receive(std::intptr_t socket, char* buffer, std::size_t size, int timeout_ms) {
    pollfd fd{};
    fd.fd = static_cast<int>(socket);
    fd.events = POLLIN;
    if (::poll(&fd, 1, timeout_ms) <= 0)
        return 0;
    const auto n = ::recv(static_cast<int>(socket), buffer, size, 0);
    return n > 0 ? static_cast<long>(n) : -1;
}

void close(std::intptr_t socket) {
    if (socket != kNone)
        ::close(static_cast<int>(socket));
}

}  // namespace loopscope::live_socket
