// The live stream server's sockets on Linux and other POSIX systems: BSD sockets, non-blocking
// (see socket_server.hpp).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "recorder/socket_server.hpp"

namespace loopscope::live_socket {

namespace {
bool set_nonblocking(int s) {
    const int flags = fcntl(s, F_GETFL, 0);
    return flags >= 0 && fcntl(s, F_SETFL, flags | O_NONBLOCK) == 0;
}
bool would_block() {
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}
}  // namespace

std::intptr_t listen_on(const std::string& address, int port, int& bound_port, std::string& error) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    if (inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1) {
        error = "not an IPv4 address: " + address;
        return kNone;
    }
    const int s = ::socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (s < 0) {
        error = "cannot create a socket";
        return kNone;
    }
    int yes = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    // A queue of a few: a second client waits there, connected, while the first is served.
    if (::bind(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(s, 8) != 0 || !set_nonblocking(s)) {
        error = "cannot listen on " + address + ":" + std::to_string(port);
        ::close(s);
        return kNone;
    }
    sockaddr_in bound{};
    socklen_t size = sizeof bound;
    getsockname(s, reinterpret_cast<sockaddr*>(&bound), &size);
    bound_port = ntohs(bound.sin_port);
    return s;
}

std::intptr_t accept_client(std::intptr_t listener) {
    const int s = ::accept(static_cast<int>(listener), nullptr, nullptr);
    if (s < 0)
        return kNone;
    if (!set_nonblocking(s)) {
        ::close(s);
        return kNone;
    }
#if defined(SO_NOSIGPIPE)
    int yes = 1;
    setsockopt(s, SOL_SOCKET, SO_NOSIGPIPE, &yes, sizeof yes);
#endif
    int nodelay = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &nodelay, sizeof nodelay);
    return s;
}

Ready wait_for(std::intptr_t socket, bool want_write, int timeout_ms) {
    pollfd fd{};
    fd.fd = static_cast<int>(socket);
    fd.events = static_cast<short>(POLLIN | (want_write ? POLLOUT : 0));
    Ready ready;
    if (::poll(&fd, 1, timeout_ms) > 0) {
        ready.readable = (fd.revents & (POLLIN | POLLHUP | POLLERR)) != 0;
        ready.writable = (fd.revents & POLLOUT) != 0;
    }
    return ready;
}

long send_some(std::intptr_t socket, const char* data, std::size_t size) {
#if defined(MSG_NOSIGNAL)
    const auto n = ::send(static_cast<int>(socket), data, size, MSG_NOSIGNAL);
#else
    const auto n = ::send(static_cast<int>(socket), data, size, 0);
#endif
    if (n >= 0)
        return static_cast<long>(n);
    return would_block() ? 0 : -1;
}

long receive_some(std::intptr_t socket, char* buffer, std::size_t size) {
    const auto n = ::recv(static_cast<int>(socket), buffer, size, 0);
    if (n > 0)
        return static_cast<long>(n);
    return n < 0 && would_block() ? 0 : -1;
}

}  // namespace loopscope::live_socket
