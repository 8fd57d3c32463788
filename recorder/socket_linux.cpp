// The live stream client's socket on Linux and other POSIX systems: BSD sockets (see socket.hpp).
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "recorder/socket.hpp"

namespace loopscope::live_socket {

std::intptr_t connect_to(const std::string& host, int port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0)
        return kNone;
    int s = -1;
    for (addrinfo* a = found; a && s < 0; a = a->ai_next) {
        s = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (s >= 0 && ::connect(s, a->ai_addr, a->ai_addrlen) != 0) {
            ::close(s);
            s = -1;
        }
    }
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
