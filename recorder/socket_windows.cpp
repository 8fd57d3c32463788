// The live client's socket on Windows: Winsock 2 (see socket.hpp).
#include <winsock2.h>
#include <ws2tcpip.h>

#include "recorder/socket.hpp"

namespace loopscope::live_socket {

namespace {
// Winsock is started once for the program's life.
struct WinsockUser {
    WinsockUser() {
        WSADATA data;
        WSAStartup(MAKEWORD(2, 2), &data);
    }
    ~WinsockUser() { WSACleanup(); }
};
}  // namespace

// The name lookup is socket_linux.cpp's, repeated on purpose: the socket type, its invalid
// value and the close call differ, and each OS file stands alone.
std::intptr_t connect_to(const std::string& host, int port) {
    static WinsockUser winsock;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0)
        return kNone;
    SOCKET s = INVALID_SOCKET;
    for (addrinfo* a = found; a && s == INVALID_SOCKET; a = a->ai_next) {
        s = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (s != INVALID_SOCKET && ::connect(s, a->ai_addr, static_cast<int>(a->ai_addrlen)) != 0) {
            closesocket(s);
            s = INVALID_SOCKET;
        }
    }
    freeaddrinfo(found);
    return s == INVALID_SOCKET ? kNone : static_cast<std::intptr_t>(s);
}

long receive(std::intptr_t socket, char* buffer, std::size_t size, int timeout_ms) {
    WSAPOLLFD fd{};
    fd.fd = static_cast<SOCKET>(socket);
    fd.events = POLLIN;
    if (WSAPoll(&fd, 1, timeout_ms) <= 0)
        return 0;
    const int n = ::recv(static_cast<SOCKET>(socket), buffer, static_cast<int>(size), 0);
    return n > 0 ? n : -1;
}

void close(std::intptr_t socket) {
    if (socket != kNone)
        closesocket(static_cast<SOCKET>(socket));
}

}  // namespace loopscope::live_socket
