// The live stream's server (see live_server.hpp): the handshake, batches of rows and the end
// message of docs/live.md, through the sockets of recorder/socket.hpp.
#include "recorder/live_server.hpp"

#include <algorithm>
#include <chrono>
#include <system_error>

#include "recorder/socket_server.hpp"

namespace loopscope {

namespace {
std::int64_t ms_now() {
    return loopscope::now_ns() / 1'000'000;
}
}  // namespace

LiveServer::LiveServer(const std::string& address, int port, std::string clock,
                       std::size_t queue_rows, std::int64_t stall_ms)
    : clock_(std::move(clock)), stall_ms_(stall_ms) {
    queue_.resize(queue_rows < live_wire::kMaxBatchRows ? live_wire::kMaxBatchRows : queue_rows);
    events_.resize(live_wire::kMaxBatchEvents * 4);
    out_.resize(std::max(
        live_wire::kBatchHeaderBytes + live_wire::kMaxBatchRows * live_wire::kRowBytes,
        live_wire::kEventsHeaderBytes + live_wire::kMaxBatchEvents * live_wire::kEventBytes));
    int bound = 0;
    std::string error;
    listen_ = live_socket::listen_on(address, port, bound, error);
    if (listen_ == live_socket::kNone) {
        error_ = error;
        return;
    }
    stats_.port = bound;
    try {
        sender_ = std::thread([this] { sender_main(); });
    } catch (const std::system_error&) {
        error_ = "cannot start the sender thread";
        stats_.port = 0;
        live_socket::close(listen_);
        listen_ = live_socket::kNone;
    }
}

LiveServer::~LiveServer() {
    finish("");
}

void LiveServer::set_preamble(const std::string& preamble) {
    std::lock_guard<std::mutex> lock(mutex_);
    preamble_ = preamble;
    have_preamble_ = true;
}

void LiveServer::take(const FrameRecord* rows, std::size_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!connected_) {
        stats_.rows_dropped += static_cast<std::int64_t>(count);
        return;  // the live stream's drops are its own: the file still gets every row
    }
    const std::size_t room = queue_.size() - (tail_ - head_);
    const std::size_t kept = count < room ? count : room;
    for (std::size_t i = 0; i < kept; ++i)
        queue_[(tail_ + i) % queue_.size()] = rows[i];
    tail_ += kept;
    client_dropped_ += count - kept;
    stats_.rows_dropped += static_cast<std::int64_t>(count - kept);
}

void LiveServer::take_events(const trace_v1::EventRecord* events, std::size_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!connected_)
        return;
    const std::size_t room = events_.size() - (events_tail_ - events_head_);
    const std::size_t kept = count < room ? count : room;
    for (std::size_t i = 0; i < kept; ++i)
        events_[(events_tail_ + i) % events_.size()] = events[i];
    events_tail_ += kept;
}

void LiveServer::finish(const std::string& trailer) {
    if (sender_.joinable()) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            trailer_ = trailer;
            stop_ = true;
        }
        sender_.join();
    }
    live_socket::close(listen_);
    listen_ = live_socket::kNone;
}

LiveStats LiveServer::stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
}

std::string LiveServer::error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
}

void LiveServer::queue_handshake() {
    std::string h(live_wire::kMagic, sizeof live_wire::kMagic);
    char word[8];
    h.append(word, live_wire::put_u32(word, live_wire::kVersion));
    h.append(word, live_wire::put_u32(word, live_wire::kRowBytes));
    h.append(word, live_wire::put_u32(word, static_cast<std::uint32_t>(clock_.size())));
    h += clock_;
    std::lock_guard<std::mutex> lock(mutex_);
    h.append(word, live_wire::put_u32(word, static_cast<std::uint32_t>(preamble_.size())));
    h += preamble_;
    pending_ = std::move(h);
    sent_ = 0;
}

bool LiveServer::take_batch() {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::size_t queued = tail_ - head_;
    if (queued == 0)
        return false;
    const std::size_t n = queued < live_wire::kMaxBatchRows ? queued : live_wire::kMaxBatchRows;
    char* out = out_.data();
    out = live_wire::put_u32(out, live_wire::kBatch);
    out = live_wire::put_u32(out, static_cast<std::uint32_t>(n));
    out = live_wire::put_u64(out, client_dropped_);
    out = live_wire::put_u64(out, static_cast<std::uint64_t>(stats_.rows_dropped));
    for (std::size_t i = 0; i < n; ++i)
        out = live_wire::put_row(out, queue_[(head_ + i) % queue_.size()]);
    head_ += n;
    out_rows_ = n;
    out_size_ = static_cast<std::size_t>(out - out_.data());
    out_sent_ = 0;
    return true;
}

// A batch of zones and marks, once the rows queued are sent.
bool LiveServer::take_event_batch() {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::size_t queued = events_tail_ - events_head_;
    if (queued == 0)
        return false;
    const std::size_t n = queued < live_wire::kMaxBatchEvents ? queued : live_wire::kMaxBatchEvents;
    char* out = out_.data();
    out = live_wire::put_u32(out, live_wire::kEvents);
    out = live_wire::put_u32(out, static_cast<std::uint32_t>(n));
    for (std::size_t i = 0; i < n; ++i)
        out = live_wire::put_event(out, events_[(events_head_ + i) % events_.size()]);
    events_head_ += n;
    out_rows_ = 0;
    out_size_ = static_cast<std::size_t>(out - out_.data());
    out_sent_ = 0;
    return true;
}

// The client's acknowledgements: u32 kAck, u64 the stream's bytes its application has taken.
// The reason to close the client (it went away, or sent anything else or claimed more than it
// was sent), or nullptr.
std::int64_t LiveStats::*LiveServer::read_acks() {
    for (;;) {
        const long n =
            live_socket::receive_some(client_, ack_ + ack_size_, live_wire::kAckBytes - ack_size_);
        if (n == 0)
            return nullptr;
        if (n < 0)
            return &LiveStats::closed_lost;
        ack_size_ += static_cast<std::size_t>(n);
        // The type as soon as it is in: a few bytes of anything else are not waited out.
        if (ack_size_ >= 4 && live_wire::get_u32(ack_) != live_wire::kAck)
            return &LiveStats::closed_garbage;
        if (ack_size_ < live_wire::kAckBytes)
            continue;
        ack_size_ = 0;
        const auto taken = static_cast<std::int64_t>(live_wire::get_u64(ack_ + 4));
        if (taken < bytes_taken_ || taken > bytes_sent_)
            return &LiveStats::closed_garbage;
        if (taken > bytes_taken_) {
            bytes_taken_ = taken;
            progress_ms_ = ms_now();
        }
    }
}

void LiveServer::drop_client(std::int64_t LiveStats::*reason) {
    live_socket::close(client_);
    client_ = live_socket::kNone;
    std::lock_guard<std::mutex> lock(mutex_);
    connected_ = false;
    if (reason)
        ++(stats_.*reason);
    stats_.rows_dropped += static_cast<std::int64_t>(tail_ - head_ + out_rows_);
    head_ = tail_;
    events_head_ = events_tail_;
    out_rows_ = out_size_ = out_sent_ = 0;
    ack_size_ = 0;
    pending_.clear();
    sent_ = 0;
}

bool LiveServer::send_pending(const char* data, std::size_t size, std::size_t& sent) {
    while (sent < size) {
        const long n = live_socket::send_some(client_, data + sent, size - sent);
        if (n < 0)
            return false;
        if (n == 0)
            break;  // the socket is full
        sent += static_cast<std::size_t>(n);
        bytes_sent_ += n;
    }
    return true;
}

void LiveServer::accept_client() {
    const std::intptr_t s = live_socket::accept_client(listen_);
    if (s == live_socket::kNone)
        return;
    client_ = s;
    bytes_sent_ = bytes_taken_ = 0;
    progress_ms_ = ms_now();
    greeted_ = false;
    ack_size_ = 0;
    std::lock_guard<std::mutex> lock(mutex_);
    connected_ = true;
    client_dropped_ = 0;
    ++stats_.clients;
}

// The sender's thread: waits (at most 10 ms) for a client, for its socket to take more, or for
// rows; a client that sends anything, stops taking what it is sent or goes away is closed, and
// the game never notices.
void LiveServer::sender_main() {
    std::int64_t stop_ms = -1;
    for (;;) {
        bool stopping = false;
        bool have_preamble = false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping = stop_;
            have_preamble = have_preamble_;
        }
        if (stopping && stop_ms < 0)
            stop_ms = ms_now();
        if (client_ == live_socket::kNone) {
            if (stopping)
                return;
            if (live_socket::wait_for(listen_, false, 10).readable)
                accept_client();
            continue;
        }
        // The handshake holds the trace's preamble, known from the game's first frame on: a
        // client that comes earlier waits for it (no rows come before it either).
        if (!greeted_ && have_preamble) {
            queue_handshake();
            greeted_ = true;
        }
        const bool busy = sent_ < pending_.size() || out_sent_ < out_size_;
        const live_socket::Ready ready = live_socket::wait_for(client_, busy, stopping ? 1 : 10);
        if (ready.readable) {
            if (std::int64_t LiveStats::*reason = read_acks()) {
                drop_client(reason);
                continue;
            }
        }
        if (!send_pending(pending_.data(), pending_.size(), sent_)) {
            drop_client(&LiveStats::closed_lost);
            continue;
        }
        if (greeted_ && sent_ == pending_.size()) {
            pending_.clear();
            sent_ = 0;
            for (;;) {
                if (out_sent_ == out_size_ && !take_batch() && !take_event_batch())
                    break;
                if (!send_pending(out_.data(), out_size_, out_sent_)) {
                    drop_client(&LiveStats::closed_lost);
                    break;
                }
                if (out_sent_ < out_size_)
                    break;  // the socket is full: wait for room
                std::lock_guard<std::mutex> lock(mutex_);
                stats_.rows_sent += static_cast<std::int64_t>(out_rows_);
                out_rows_ = 0;
            }
        }
        if (client_ == live_socket::kNone)
            continue;
        const bool idle = sent_ == pending_.size() && out_sent_ == out_size_;
        // Something waits for the client (in our buffers, or sent and not acknowledged: the
        // kernels' buffers hide a client that does not read for minutes) and it has
        // acknowledged nothing for stall_ms: its application is not taking the stream.
        const bool waiting = !idle || bytes_taken_ < bytes_sent_;
        if (!waiting)
            progress_ms_ = ms_now();
        else if (ms_now() - progress_ms_ > stall_ms_) {
            drop_client(&LiveStats::closed_stalled);
            continue;
        }
        if (stopping) {
            bool drained = false;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                drained = tail_ == head_;
            }
            if (idle && drained && greeted_ && !end_queued_) {
                std::string end(8, '\0');
                char* p = end.data();
                p = live_wire::put_u32(p, live_wire::kEnd);
                {
                    std::lock_guard<std::mutex> lock(mutex_);
                    live_wire::put_u32(p, static_cast<std::uint32_t>(trailer_.size()));
                    pending_ = end + trailer_;
                }
                sent_ = 0;
                end_queued_ = true;
            } else if ((idle && end_queued_) || (!greeted_ && !have_preamble) ||
                       ms_now() - stop_ms > 1000) {
                drop_client(nullptr);
                return;
            }
        }
    }
}

}  // namespace loopscope
