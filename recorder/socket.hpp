// The live stream client's TCP socket, one file per OS (socket_linux.cpp: BSD sockets;
// socket_windows.cpp: Winsock 2), so that tool/live_client.cpp stays portable. The game's
// server has its half in socket_server.hpp; both share kNone and close().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace loopscope::live_socket {

inline constexpr std::intptr_t kNone = -1;

// Why connect_to gave no socket.
enum class ConnectFailure {
    none,
    unknown_host,  // the name does not resolve
    refused,       // nothing listens on that port (the peer's system answered "refused")
    timed_out,     // no answer in time: a listener whose queue of connections waiting to be
                   // accepted is full (its system then drops new ones unanswered), or a
                   // firewall that drops them
    failed,        // another error (no route, no network)
};

// A connected socket to HOST:PORT (a name or an address, IPv4 or IPv6), waiting at most
// `timeout_ms` for the connection in all; or kNone with `failure` set.
std::intptr_t connect_to(const std::string& host, int port, int timeout_ms,
                         ConnectFailure& failure);
// Waits up to timeout_ms for data and receives up to `size` bytes: the count, 0 when nothing
// came in time, -1 when the peer closed the connection or it failed.
long receive(std::intptr_t socket, char* buffer, std::size_t size, int timeout_ms);
// Closes it (kNone: nothing to do).
void close(std::intptr_t socket);

}  // namespace loopscope::live_socket
