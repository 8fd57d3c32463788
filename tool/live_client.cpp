// The live stream's client (see live_client.hpp; the format is in docs/live.md). The sockets
// and the wire encoding are the recorder's own (recorder/socket.hpp, recorder/trace_text.hpp).
#include "tool/live_client.hpp"

#include <fmt/format.h>

#include <cstring>

#include "common/errors.hpp"
#include "recorder/socket.hpp"
#include "recorder/socket_server.hpp"
#include "recorder/trace_text.hpp"

namespace loopscope {

namespace {

using live_wire::get_row;
using live_wire::get_u32;
using live_wire::get_u64;

// Strings in the handshake are at most this long: a peer that claims more is not a game.
constexpr std::uint32_t kMaxTextBytes = 1 << 20;

}  // namespace

void parse_host_port(const std::string& text, const std::string& option, std::string& host,
                     int& port) {
    const auto colon = text.rfind(':');
    const auto bad = [&] {
        return UsageError(option + ": expected HOST:PORT (e.g. 127.0.0.1:7777), got '" + text +
                          "'");
    };
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
        throw bad();
    host = text.substr(0, colon);
    port = 0;
    for (std::size_t i = colon + 1; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9' || port > 65535)
            throw bad();
        port = port * 10 + (text[i] - '0');
    }
    if (port < 1 || port > 65535)
        throw bad();
}

LiveClient::LiveClient(const std::string& host_port, int timeout_ms) : where_(host_port) {
    std::string host;
    int port = 0;
    parse_host_port(host_port, "--connect", host, port);
    // The connection and the handshake: all of it within timeout_ms.
    const std::int64_t deadline_ns = now_ns() + std::int64_t{timeout_ms} * 1'000'000;
    live_socket::ConnectFailure failure = live_socket::ConnectFailure::none;
    socket_ = live_socket::connect_to(host, port, timeout_ms, failure);
    if (socket_ == live_socket::kNone) {
        using live_socket::ConnectFailure;
        switch (failure) {
            case ConnectFailure::unknown_host:
                throw InputError(where_, "cannot connect: the host name '" + host +
                                             "' does not resolve to an address");
            case ConnectFailure::refused:
                throw InputError(where_,
                                 "cannot connect: nothing listens on that port (no game is "
                                 "serving its frames there; start it with a serve port, e.g. "
                                 "example_game_loop --serve PORT)");
            case ConnectFailure::timed_out:
                throw InputError(
                    where_, fmt::format("cannot connect: no answer within {:g} s (a game serving "
                                        "there may have its queue of clients waiting to be "
                                        "served full, or a firewall drops the connection)",
                                        timeout_ms / 1000.0));
            default:
                throw InputError(where_, "cannot connect: no route to that address");
        }
    }

    read_handshake(deadline_ns, timeout_ms);
}

LiveClient::LiveClient(std::string where, std::string_view stream) : where_(std::move(where)) {
    buffer_.assign(stream);
    bytes_received_ = static_cast<std::int64_t>(stream.size());
    read_handshake(now_ns(), 0);
}

void LiveClient::read_handshake(std::int64_t deadline_ns, int timeout_ms) {
    // The handshake: magic, version, row size, clock, preamble. A peer that accepts and then
    // sends nothing (another program on that port, a game still serving another client, one
    // that waits for its client to speak first) is an error, not a wait without end.
    const auto need = [&](std::size_t bytes) {
        while (buffer_.size() - used_ < bytes) {
            if (socket_ == live_socket::kNone)
                throw InputError(where_, "the stream ends in the middle of its handshake");
            const std::int64_t left_ns = deadline_ns - now_ns();
            if (left_ns <= 0) {
                throw InputError(
                    where_, fmt::format("no live stream handshake within {:g} s ({} bytes of it "
                                        "received): expected a game serving its frames (e.g. "
                                        "example_game_loop --serve PORT) and free to serve this "
                                        "client (a game serves one client at a time)",
                                        timeout_ms / 1000.0, buffer_.size()));
            }
            if (!fill(static_cast<int>((left_ns + 999'999) / 1'000'000)))
                throw InputError(where_, "the game closed the connection during the handshake");
        }
    };
    need(8);
    if (std::memcmp(buffer_.data(), live_wire::kMagic, 8) != 0)
        throw InputError(where_, "not a loopscope live stream (the first bytes are not its magic)");
    need(16);
    const std::uint32_t version = get_u32(buffer_.data() + 8);
    if (version != live_wire::kVersion) {
        throw InputError(where_, fmt::format("live stream protocol version {}, this loopscope "
                                             "reads version {}: use a matching loopscope{}",
                                             version, live_wire::kVersion,
                                             version < live_wire::kVersion
                                                 ? " (the game's recorder is older: rebuild it "
                                                   "with this loopscope's recorder)"
                                                 : ""));
    }
    if (const std::uint32_t row_bytes = get_u32(buffer_.data() + 12);
        row_bytes != live_wire::kRowBytes) {
        throw InputError(where_, fmt::format("live stream rows of {} bytes, this loopscope reads "
                                             "rows of {} bytes",
                                             row_bytes, live_wire::kRowBytes));
    }
    used_ = 16;
    const auto text = [&](std::string& out) {
        need(4);
        const std::uint32_t size = get_u32(buffer_.data() + used_);
        if (size > kMaxTextBytes)
            throw InputError(where_, "live stream handshake text too long");
        used_ += 4;
        need(size);
        out.assign(buffer_.data() + used_, size);
        used_ += size;
    };
    text(clock_);
    text(preamble_);
    acknowledge();
}

void LiveClient::acknowledge() {
    const std::int64_t taken = bytes_received_ - static_cast<std::int64_t>(buffer_.size() - used_);
    if (socket_ == live_socket::kNone || !open_ || taken <= bytes_acknowledged_)
        return;
    // An acknowledgement is sent whole before the next one is made: a send that finds no room
    // (a game that stopped reading) leaves the rest of it to the next read, and the game never
    // sees a message that starts in the middle of another.
    if (ack_sent_ == ack_.size()) {
        live_wire::put_u64(live_wire::put_u32(ack_.data(), live_wire::kAck),
                           static_cast<std::uint64_t>(taken));
        ack_taken_ = taken;
        ack_sent_ = 0;
    }
    const long n =
        live_socket::send_some(socket_, ack_.data() + ack_sent_, ack_.size() - ack_sent_);
    if (n < 0)
        return;
    ack_sent_ += static_cast<std::size_t>(n);
    if (ack_sent_ == ack_.size())
        bytes_acknowledged_ = ack_taken_;
}

bool LiveClient::fail(std::string what) {
    if (error_.empty())
        error_ = std::move(what);
    return false;
}

LiveClient::~LiveClient() {
    live_socket::close(socket_);
}

bool LiveClient::fill(int timeout_ms) {
    if (socket_ == live_socket::kNone)
        open_ = false;  // a stream from memory: all of it is in the buffer
    if (!open_)
        return false;
    char chunk[65536];
    const long n = live_socket::receive(socket_, chunk, sizeof chunk, timeout_ms);
    if (n == 0)
        return true;  // nothing yet
    if (n < 0) {
        open_ = false;
        return false;
    }
    if (used_ > 0 && used_ == buffer_.size()) {
        buffer_.clear();
        used_ = 0;
    } else if (used_ > (1u << 20)) {
        buffer_.erase(0, used_);
        used_ = 0;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
    bytes_received_ += n;
    return true;
}

bool LiveClient::read(std::vector<FrameRecord>& rows, int timeout_ms,
                      std::vector<trace_v1::EventRecord>* events) {
    if (ended_cleanly_ || !error_.empty())
        return false;
    const bool alive = fill(timeout_ms);
    const bool more = read_messages(rows, events);
    acknowledge();
    return more && alive;
}

bool LiveClient::read_messages(std::vector<FrameRecord>& rows,
                               std::vector<trace_v1::EventRecord>* events) {
    // Every whole message received so far.
    for (;;) {
        const std::size_t left = buffer_.size() - used_;
        if (left < 8)
            break;
        const char* p = buffer_.data() + used_;
        const std::uint32_t type = get_u32(p);
        if (type == live_wire::kBatch) {
            if (left < live_wire::kBatchHeaderBytes)
                break;
            const std::uint32_t n = get_u32(p + 4);
            if (n == 0 || n > live_wire::kMaxBatchRows)
                return fail(fmt::format("live stream batch of {} rows (1 to {})", n,
                                        live_wire::kMaxBatchRows));
            const std::size_t bytes =
                live_wire::kBatchHeaderBytes + std::size_t{n} * live_wire::kRowBytes;
            if (left < bytes)
                break;
            dropped_for_client_ = get_u64(p + 8);
            dropped_total_ = get_u64(p + 16);
            for (std::uint32_t i = 0; i < n; ++i)
                rows.push_back(
                    get_row(p + live_wire::kBatchHeaderBytes + i * live_wire::kRowBytes));
            used_ += bytes;
        } else if (type == live_wire::kEnd) {
            const std::uint32_t size = get_u32(p + 4);
            if (size > kMaxTextBytes)
                return fail(fmt::format("live stream end message of {} bytes (at most {})", size,
                                        kMaxTextBytes));
            if (left < 8 + std::size_t{size})
                break;
            trailer_.assign(p + 8, size);
            used_ += 8 + size;
            ended_cleanly_ = true;
            return false;
        } else if (type == live_wire::kEvents) {
            const std::uint32_t n = get_u32(p + 4);
            if (n == 0 || n > live_wire::kMaxBatchEvents)
                return fail(fmt::format("live stream batch of {} zones and marks (1 to {})", n,
                                        live_wire::kMaxBatchEvents));
            const std::size_t bytes =
                live_wire::kEventsHeaderBytes + std::size_t{n} * live_wire::kEventBytes;
            if (left < bytes)
                break;
            for (std::uint32_t i = 0; i < n; ++i) {
                const char* e = p + live_wire::kEventsHeaderBytes + i * live_wire::kEventBytes;
                const std::uint32_t kind = get_u32(e);
                const std::uint32_t label_bytes = get_u32(e + 12);
                if (kind != 1 && kind != 2)
                    return fail(fmt::format("live stream event of unknown kind {}", kind));
                if (label_bytes > std::uint32_t(trace_v1::kMaxLabelBytes))
                    return fail(fmt::format("live stream event label of {} bytes (at most {})",
                                            label_bytes, trace_v1::kMaxLabelBytes));
                if (events)
                    events->push_back(live_wire::get_event(e));
            }
            used_ += bytes;
        } else {
            return fail(fmt::format("live stream message of unknown type {}", type));
        }
    }
    return true;
}

}  // namespace loopscope
