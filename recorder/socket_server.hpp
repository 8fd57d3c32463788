// The live stream server's sockets (recorder/live_server.cpp), one file per OS beside the
// client's (socket_server_linux.cpp, socket_server_windows.cpp): a listening socket and a
// client's, without blocking.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "recorder/socket.hpp"  // kNone, close()

namespace loopscope::live_socket {

// A non-blocking socket listening on the IPv4 `address` and `port` (0 = any free port, then
// `bound_port` says which), or kNone with `error` saying why.
std::intptr_t listen_on(const std::string& address, int port, int& bound_port, std::string& error);
// A waiting connection, non-blocking, without SIGPIPE and with TCP_NODELAY; kNone if none.
std::intptr_t accept_client(std::intptr_t listener);
// What wait_for found.
struct Ready {
    bool readable = false;  // data, a closed peer or an error
    bool writable = false;
};
// Waits up to timeout_ms until `socket` can be read (or written, when asked).
Ready wait_for(std::intptr_t socket, bool want_write, int timeout_ms);
// Without blocking: the bytes sent or received, 0 when the socket would block, -1 on an error
// or (receiving) a closed peer.
long send_some(std::intptr_t socket, const char* data, std::size_t size);
long receive_some(std::intptr_t socket, char* buffer, std::size_t size);

}  // namespace loopscope::live_socket
