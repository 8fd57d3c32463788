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
namespace {

// One address: a non-blocking connect, waited for until `deadline_ms` (GetTickCount64); the
// socket is blocking again once connected.
SOCKET connect_one(const addrinfo& a, ULONGLONG deadline_ms, ConnectFailure& failure) {
    SOCKET s = ::socket(a.ai_family, a.ai_socktype, a.ai_protocol);
    if (s == INVALID_SOCKET) {
        failure = ConnectFailure::failed;
        return INVALID_SOCKET;
    }
    u_long non_blocking = 1;
    ioctlsocket(s, FIONBIO, &non_blocking);
    int error = ::connect(s, a.ai_addr, static_cast<int>(a.ai_addrlen)) == 0 ? 0
                                                                              : WSAGetLastError();
    if (error == WSAEWOULDBLOCK) {
        const ULONGLONG now = GetTickCount64();
        WSAPOLLFD fd{};
        fd.fd = s;
        fd.events = POLLOUT;
        const int ready =
            now < deadline_ms ? WSAPoll(&fd, 1, static_cast<int>(deadline_ms - now)) : 0;
        error = WSAETIMEDOUT;
        if (ready > 0) {
            int size = sizeof error;
            if (getsockopt(s, SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&error), &size) != 0)
                error = WSAGetLastError();
        }
    }
    if (error != 0) {
        closesocket(s);
        failure = error == WSAECONNREFUSED ? ConnectFailure::refused
                  : error == WSAETIMEDOUT  ? ConnectFailure::timed_out
                                           : ConnectFailure::failed;
        return INVALID_SOCKET;
    }
    u_long blocking = 0;
    ioctlsocket(s, FIONBIO, &blocking);
    failure = ConnectFailure::none;
    return s;
}

}  // namespace

std::intptr_t connect_to(const std::string& host, int port, int timeout_ms,
                         ConnectFailure& failure) {
    static WinsockUser winsock;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) {
        failure = ConnectFailure::unknown_host;
        return kNone;
    }
    const ULONGLONG deadline_ms = GetTickCount64() + static_cast<ULONGLONG>(timeout_ms);
    SOCKET s = INVALID_SOCKET;
    failure = ConnectFailure::failed;
    for (addrinfo* a = found; a && s == INVALID_SOCKET && GetTickCount64() < deadline_ms;
         a = a->ai_next)
        s = connect_one(*a, deadline_ms, failure);
    if (s == INVALID_SOCKET && failure == ConnectFailure::failed && GetTickCount64() >= deadline_ms)
        failure = ConnectFailure::timed_out;
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
