// The live stream server's sockets on Windows: Winsock 2, non-blocking (see socket_server.hpp).
#include <winsock2.h>
#include <ws2tcpip.h>

#include "recorder/socket_server.hpp"

namespace loopscope::live_socket {

namespace {
// Winsock is started once for the program's life (WSAStartup counts its users: the client's
// file starts it too).
struct WinsockUser {
    WinsockUser() {
        WSADATA data;
        ok = WSAStartup(MAKEWORD(2, 2), &data) == 0;
    }
    ~WinsockUser() {
        if (ok)
            WSACleanup();
    }
    bool ok = false;
};
bool winsock_started() {
    static WinsockUser winsock;
    return winsock.ok;
}
bool would_block() {
    const int e = WSAGetLastError();
    return e == WSAEWOULDBLOCK || e == WSAEINTR;
}
}  // namespace

std::intptr_t listen_on(const std::string& address, int port, int& bound_port,
                        std::string& error) {
    if (!winsock_started()) {
        error = "WSAStartup failed";
        return kNone;
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<u_short>(port));
    if (inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1) {
        error = "not an IPv4 address: " + address;
        return kNone;
    }
    const SOCKET s = ::socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (s == INVALID_SOCKET) {
        error = "cannot create a socket";
        return kNone;
    }
    u_long on = 1;
    if (::bind(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(s, 8) != 0 || ioctlsocket(s, FIONBIO, &on) != 0) {
        error = "cannot listen on " + address + ":" + std::to_string(port);
        closesocket(s);
        return kNone;
    }
    sockaddr_in bound{};
    int size = sizeof bound;
    getsockname(s, reinterpret_cast<sockaddr*>(&bound), &size);
    bound_port = ntohs(bound.sin_port);
    return static_cast<std::intptr_t>(s);
}

std::intptr_t accept_client(std::intptr_t listener) {
    const SOCKET s = ::accept(static_cast<SOCKET>(listener), nullptr, nullptr);
    if (s == INVALID_SOCKET)
        return kNone;
    u_long on = 1;
    if (ioctlsocket(s, FIONBIO, &on) != 0) {
        closesocket(s);
        return kNone;
    }
    BOOL nodelay = TRUE;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char*>(&nodelay),
               sizeof nodelay);
    return static_cast<std::intptr_t>(s);
}

Ready wait_for(std::intptr_t socket, bool want_write, int timeout_ms) {
    WSAPOLLFD fd{};
    fd.fd = static_cast<SOCKET>(socket);
    fd.events = static_cast<SHORT>(POLLRDNORM | (want_write ? POLLWRNORM : 0));
    Ready ready;
    if (WSAPoll(&fd, 1, timeout_ms) > 0) {
        ready.readable = (fd.revents & (POLLRDNORM | POLLHUP | POLLERR)) != 0;
        ready.writable = (fd.revents & POLLWRNORM) != 0;
    }
    return ready;
}

long send_some(std::intptr_t socket, const char* data, std::size_t size) {
    const int n = ::send(static_cast<SOCKET>(socket), data, static_cast<int>(size), 0);
    if (n >= 0)
        return n;
    return would_block() ? 0 : -1;
}

long receive_some(std::intptr_t socket, char* buffer, std::size_t size) {
    const int n = ::recv(static_cast<SOCKET>(socket), buffer, static_cast<int>(size), 0);
    if (n > 0)
        return n;
    return n < 0 && would_block() ? 0 : -1;
}

}  // namespace loopscope::live_socket
