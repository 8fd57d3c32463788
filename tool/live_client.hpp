// The client side of the recorder's live stream (docs/live.md): connects to a game that serves
// its frames (RecorderOptions::serve_port), checks the handshake and reads batches of rows.
// Used by `loopscope record --connect` and `loopscope view --connect`.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace_record.hpp"
#include "recorder/trace_text.hpp"

namespace loopscope {

class LiveClient {
  public:
    // Connects to HOST:PORT and reads the handshake (waits up to `timeout_ms` for it). Throws
    // UsageError for an address that is not HOST:PORT, InputError naming the address when the
    // game cannot be reached or does not speak the live protocol this program reads (one line
    // each, exit code 2).
    explicit LiveClient(const std::string& host_port, int timeout_ms = 5000);
    // The whole stream as a game would send it, from memory (the fuzz target's way in): the
    // handshake is read from it at once, and the stream ends where the bytes do.
    LiveClient(std::string where, std::string_view stream);
    ~LiveClient();
    LiveClient(const LiveClient&) = delete;
    LiveClient& operator=(const LiveClient&) = delete;

    // The game's clock and the trace preamble (magic line, metadata lines, header row), as a
    // trace file written by the game would begin.
    const std::string& clock() const { return clock_; }
    const std::string& preamble() const { return preamble_; }

    // Waits up to `timeout_ms` for data and appends the rows received to `rows` (and the zones
    // and marks to `events`, when given), then acknowledges to the game the bytes taken: a
    // client that stops calling this is closed by the game after its serve_stall_ms. False once
    // the stream has ended: the game closed its recorder (ended_cleanly()), the connection
    // broke, or the game sent what the protocol does not allow (error(): the rows before it
    // are kept).
    bool read(std::vector<FrameRecord>& rows, int timeout_ms,
              std::vector<trace_v1::EventRecord>* events = nullptr);
    bool ended_cleanly() const { return ended_cleanly_; }
    bool connected() const { return open_ && !ended_cleanly_ && error_.empty(); }
    // The protocol error that ended the stream ("" when none), without the address.
    const std::string& error() const { return error_; }
    // The lines the game's trace ends with (from the end message; "" otherwise).
    const std::string& trailer() const { return trailer_; }
    // Rows the game could not send to this client (it read too slowly), and rows the game's live
    // stream dropped in all (also while no client was connected), as of the last batch.
    std::uint64_t dropped_for_client() const { return dropped_for_client_; }
    std::uint64_t dropped_total() const { return dropped_total_; }
    std::int64_t bytes_received() const { return bytes_received_; }

  private:
    void read_handshake(std::int64_t deadline_ns, int timeout_ms);
    bool fill(int timeout_ms);  // one recv into buffer_; false when closed
    void acknowledge();
    bool read_messages(
        std::vector<FrameRecord>& rows,
        std::vector<trace_v1::EventRecord>* events);  // tells the game the bytes parsed so far
    bool fail(std::string what);                      // records a protocol error; false
    std::string where_;
    std::intptr_t socket_ = -1;
    std::string buffer_;
    std::size_t used_ = 0;  // bytes of buffer_ already parsed
    std::string clock_;
    std::string preamble_;
    std::string trailer_;
    bool open_ = true;
    bool ended_cleanly_ = false;
    std::uint64_t dropped_for_client_ = 0;
    std::uint64_t dropped_total_ = 0;
    std::int64_t bytes_received_ = 0;
    std::int64_t bytes_acknowledged_ = 0;
    // The acknowledgement being sent (of ack_taken_ bytes) and how much of it has gone; whole
    // (ack_sent_ == its size) when none is under way.
    std::array<char, live_wire::kAckBytes> ack_{};
    std::size_t ack_sent_ = live_wire::kAckBytes;
    std::int64_t ack_taken_ = 0;
    std::string error_;
};

// "HOST:PORT" -> host and port; throws UsageError naming `option` otherwise.
void parse_host_port(const std::string& text, const std::string& option, std::string& host,
                     int& port);

}  // namespace loopscope
