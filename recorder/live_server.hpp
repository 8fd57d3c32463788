// The recorder's live stream (docs/live.md): a TCP server on a thread of its own (the sender).
// take() runs on the writing thread and only copies rows into a queue allocated at
// construction; rows that find no client, or no room because the client takes them too slowly,
// are dropped and counted, so neither the writer nor the game ever waits for the network. One
// client at a time; the next is accepted once the last one is gone.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "recorder/trace_text.hpp"

namespace loopscope {

class LiveServer {
  public:
    // Listens on address:port (0 = any free port) and starts the sender; on failure error()
    // says why and nothing runs. queue_rows: rows held for a slow client.
    LiveServer(const std::string& address, int port, std::string clock, std::size_t queue_rows,
               std::int64_t stall_ms);
    ~LiveServer();  // finish("")
    LiveServer(const LiveServer&) = delete;
    LiveServer& operator=(const LiveServer&) = delete;

    // The trace's preamble, for the handshake: a client gets it (and then rows) once it is known.
    void set_preamble(const std::string& preamble);
    // Queues rows for the client (the writing thread).
    void take(const FrameRecord* rows, std::size_t count);
    // Queues zones and marks for the client (the writing thread); dropped with no client or no
    // room, as rows are.
    void take_events(const trace_v1::EventRecord* events, std::size_t count);
    // Sends what is queued and the end message to a connected client (for at most a second),
    // then closes.
    void finish(const std::string& trailer);

    LiveStats stats() const;
    std::string error() const;

  private:
    void sender_main();
    void queue_handshake();
    bool take_batch();
    bool take_event_batch();
    std::int64_t LiveStats::*read_acks();
    void drop_client(std::int64_t LiveStats::*reason);
    bool send_pending(const char* data, std::size_t size, std::size_t& sent);
    void accept_client();

    const std::string clock_;
    const std::int64_t stall_ms_;
    std::intptr_t listen_ = -1;
    std::thread sender_;

    // The sender's thread only.
    std::intptr_t client_ = -1;
    std::string pending_;  // handshake or end message being sent
    std::size_t sent_ = 0;
    std::vector<char> out_;  // the batch being sent
    std::size_t out_size_ = 0;
    std::size_t out_sent_ = 0;
    std::size_t out_rows_ = 0;
    std::int64_t bytes_sent_ = 0;          // to this client
    std::int64_t bytes_taken_ = 0;         // of those, what the client acknowledged taking
    std::int64_t progress_ms_ = 0;         // when it last acknowledged some, or had nothing to take
    char ack_[live_wire::kAckBytes] = {};  // an acknowledgement being received
    std::size_t ack_size_ = 0;
    bool greeted_ = false;  // the handshake is queued for this client
    bool end_queued_ = false;

    // Shared, under mutex_.
    mutable std::mutex mutex_;
    std::vector<FrameRecord> queue_;             // rows for the client, allocated once
    std::vector<trace_v1::EventRecord> events_;  // zones and marks for it, allocated once
    std::size_t events_head_ = 0;
    std::size_t events_tail_ = 0;
    std::size_t head_ = 0;  // rows taken by the sender
    std::size_t tail_ = 0;  // rows put by take()
    std::uint64_t client_dropped_ = 0;
    bool connected_ = false;
    bool stop_ = false;
    std::string preamble_;
    bool have_preamble_ = false;
    std::string trailer_;
    std::string error_;  // why it is not listening
    LiveStats stats_;
};

}  // namespace loopscope
