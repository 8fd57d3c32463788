// The recorder (loopscope/recorder.hpp, recording on): a ring of FrameRecords that the loop's
// thread fills and one writer thread empties into the sinks: the file, the game's callback and
// the live stream.
//
// The ring is single-producer, single-consumer: the loop's thread writes rows at `head` and
// publishes them every flush_every rows (a release store of `published`); the writer reads up
// to `published` and gives the rows back (a release store of `consumed`). The loop's thread
// never waits: a row that finds the ring full is dropped and counted. The writer looks for rows
// every writer_poll_us; flush(), wait_for_writer() and close(), which may wait, wake it, and
// so does a hand-over that finds the ring more than half full.
//
// Everything the writer touches lives in Shared, which the writer's thread co-owns: when a sink
// blocks (a FIFO nobody reads, a full pipe), close() stops waiting after close_timeout_ms and
// leaves the thread behind with what it needs, without touching the game's memory again.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "recorder/live_server.hpp"
#include "recorder/open_file.hpp"
#include "recorder/trace_text.hpp"

namespace loopscope {
inline namespace recorder_enabled {

namespace {

// The trace file, unbuffered: each piece of whole rows goes to the system in one write, so a
// crash leaves at most one row cut short at the end (standard output keeps its buffering: it may
// be in use already). Once a write has failed nothing more is attempted.
class FileSink {
  public:
    explicit FileSink(std::string path) : path_(std::move(path)) {}
    ~FileSink() { finish(""); }
    FileSink(const FileSink&) = delete;
    FileSink& operator=(const FileSink&) = delete;

    // On the writing thread. A FIFO is opened without blocking: one that has no reader after
    // `wait_ms` (tried every 10 ms) fails the sink, rather than holding the writer for good.
    bool open(std::int64_t wait_ms) {
        to_stdout_ = path_ == "-";
        file_ = to_stdout_ ? stdout : open_trace_file(path_, wait_ms);
        if (!file_) {
            failed_ = true;
            return false;
        }
        if (!to_stdout_)
            std::setvbuf(file_, nullptr, _IONBF, 0);
        text_.resize(trace_v1::kMaxRowChars * 512);  // few large writes
        return true;
    }

    void write_text(const std::string& text) {
        if (!failed_ && file_) {
            write(text.data(), text.size());
            if (std::fflush(file_) != 0)
                failed_ = true;
        }
    }

    // Formats the rows in large pieces and writes them; returns how many did not reach the file
    // (the tail from the first piece that failed: whole rows of it that were written count).
    std::size_t write_rows(const FrameRecord* rows, std::size_t count) {
        if (failed_ || !file_)
            return count;
        char* out = text_.data();
        char* const end = text_.data() + text_.size() - trace_v1::kMaxRowChars;
        std::size_t piece_first = 0;
        for (std::size_t i = 0; i < count; ++i) {
            out = trace_v1::format_row(out, rows[i]);
            if (out >= end || i + 1 == count) {
                const std::size_t written =
                    write(text_.data(), static_cast<std::size_t>(out - text_.data()));
                if (failed_) {
                    const auto whole = static_cast<std::size_t>(
                        std::count(text_.data(), text_.data() + written, '\n'));
                    return count - piece_first - whole;
                }
                out = text_.data();
                piece_first = i + 1;
            }
        }
        if (std::fflush(file_) != 0)
            failed_ = true;
        return 0;
    }

    void finish(const std::string& trailer) {
        if (!file_)
            return;
        if (!trailer.empty() && !failed_)
            write(trailer.data(), trailer.size());
        if (to_stdout_ ? std::fflush(file_) != 0 : std::fclose(file_) != 0)
            failed_ = true;
        file_ = nullptr;
    }

    bool failed() const { return failed_; }

    // Zone and mark records (trace format v2), one line each.
    void write_events(const trace_v1::EventRecord* events, std::size_t count) {
        if (failed_ || !file_)
            return;
        char* out = text_.data();
        char* const end = text_.data() + text_.size() - trace_v1::kMaxEventChars;
        for (std::size_t i = 0; i < count; ++i) {
            out = trace_v1::format_event(out, events[i]);
            if (out >= end || i + 1 == count) {
                write(text_.data(), static_cast<std::size_t>(out - text_.data()));
                if (failed_)
                    return;
                out = text_.data();
            }
        }
        if (std::fflush(file_) != 0)
            failed_ = true;
    }

  private:
    std::size_t write(const char* data, std::size_t size) {
        const std::size_t written = std::fwrite(data, 1, size, file_);
        if (written != size)
            failed_ = true;
        return written;
    }

    std::string path_;
    std::FILE* file_ = nullptr;
    bool to_stdout_ = false;
    bool failed_ = false;
    std::vector<char> text_;  // the formatting buffer
};

// The writer's idle looks back off to this (or to writer_poll_us when that is longer).
constexpr std::int64_t kIdlePollUs = 50'000;

}  // namespace

// What the loop's thread and the writing thread share.
struct Shared {
    explicit Shared(const RecorderOptions& o) : options(o) {}

    const RecorderOptions options;
    std::vector<FrameRecord> ring;  // `capacity` rows
    // The game's zones and marks: a ring of their own, handed over with the rows.
    std::vector<trace_v1::EventRecord> events;
    std::atomic<std::uint64_t> events_published{0};
    std::atomic<std::uint64_t> events_consumed{0};
    std::atomic<std::uint64_t> published{0};  // rows handed to the writer (loop's thread)
    std::atomic<std::uint64_t> consumed{0};   // rows the writer is done with
    std::atomic<bool> failed{false};          // a sink failed: later rows are dropped
    std::atomic<std::int64_t> lost{0};        // handed-over rows that a sink lost
    std::atomic<bool> abandoned{false};       // close() gave up waiting: touch nothing more
    // The preamble: set by the loop's thread once (before its first row is published).
    std::string preamble;
    std::atomic<bool> preamble_set{false};
    std::string trailer;  // set by the loop's thread before `stop`

    std::mutex mutex;
    std::condition_variable wake;  // rows, a flush or stop, for the writer
    std::condition_variable done;  // rows written, or the writer ended
    bool stop = false;             // under mutex
    bool ended = false;            // under mutex: the writer finished the sinks

    // The sinks: only the writing thread uses them (the live server's stats excepted).
    std::unique_ptr<FileSink> file;
    std::unique_ptr<LiveServer> live;
    bool preamble_written = false;

    // Writes the preamble once it is set, then every zone, mark and row handed over; returns
    // whether there were any. The writing thread only.
    bool drain() {
        if (abandoned.load(std::memory_order_acquire))
            return true;
        if (!preamble_written) {
            if (!preamble_set.load(std::memory_order_acquire))
                return false;
            if (file)
                file->write_text(preamble);
            if (live)
                live->set_preamble(preamble);
            preamble_written = true;
            if (file && file->failed())
                failed.store(true, std::memory_order_relaxed);
        }
        const bool had_events =
            drain_ring(events, events_consumed, events_published,
                       [&](const trace_v1::EventRecord* records, std::size_t n) {
                           if (failed.load(std::memory_order_relaxed))
                               return;
                           if (file) {
                               file->write_events(records, n);
                               if (file->failed())
                                   failed.store(true, std::memory_order_relaxed);
                           }
                           if (live)
                               live->take_events(records, n);
                       });
        const bool had_rows =
            drain_ring(ring, consumed, published, [&](const FrameRecord* rows, std::size_t n) {
                std::size_t lost_rows = n;
                if (!failed.load(std::memory_order_relaxed)) {
                    lost_rows = file ? file->write_rows(rows, n) : 0;
                    if (file && file->failed())
                        failed.store(true, std::memory_order_relaxed);
                    if (options.on_rows && !abandoned.load(std::memory_order_acquire))
                        options.on_rows(options.on_rows_user, rows, n);
                    if (live)
                        live->take(rows, n);
                }
                if (lost_rows > 0)
                    lost.fetch_add(static_cast<std::int64_t>(lost_rows), std::memory_order_relaxed);
            });
        return had_rows || had_events;
    }

    // Hands the records of one ring that the loop's thread has published and the writer has not
    // consumed to `deliver`, in pieces that do not wrap around the ring, and marks each piece
    // consumed; returns whether there were any. The writing thread only.
    template <class Record, class Deliver>
    bool drain_ring(const std::vector<Record>& records, std::atomic<std::uint64_t>& consumed_at,
                    const std::atomic<std::uint64_t>& published_at, Deliver deliver) {
        std::uint64_t from = consumed_at.load(std::memory_order_relaxed);
        const std::uint64_t to = published_at.load(std::memory_order_acquire);
        if (from == to)
            return false;
        const std::size_t size = records.size();
        while (from < to) {
            if (abandoned.load(std::memory_order_acquire))
                return true;
            const std::size_t first = static_cast<std::size_t>(from % size);
            const std::size_t n =
                static_cast<std::size_t>(std::min<std::uint64_t>(to - from, size - first));
            deliver(records.data() + first, n);
            from += n;
            {
                // Under the lock, so that a waiter between its check and its wait cannot miss it.
                std::lock_guard<std::mutex> lock(mutex);
                consumed_at.store(from, std::memory_order_release);
            }
            done.notify_all();
        }
        return true;
    }

    void finish_sinks() {
        if (file) {
            file->finish(trailer);
            if (file->failed())
                failed.store(true, std::memory_order_relaxed);
        }
        if (live)
            live->finish(trailer);
    }

    // The writer's thread: opens the file, then looks for rows every writer_poll_us (backing
    // off while there are none) until stopped, and finishes the sinks.
    void writer_main() {
        if (file && !file->open(std::max<std::int64_t>(0, options.close_timeout_ms)))
            failed.store(true, std::memory_order_relaxed);
        const std::int64_t base_us =
            std::clamp<std::int64_t>(options.writer_poll_us, 1, 60'000'000);
        const std::int64_t idle_us = std::max(base_us, kIdlePollUs);
        std::int64_t poll_us = base_us;
        for (;;) {
            bool stopping = false;
            {
                std::unique_lock<std::mutex> lock(mutex);
                wake.wait_for(lock, std::chrono::microseconds(poll_us), [&] {
                    return stop ||
                           published.load(std::memory_order_acquire) >
                               consumed.load(std::memory_order_relaxed) ||
                           events_published.load(std::memory_order_acquire) >
                               events_consumed.load(std::memory_order_relaxed);
                });
                stopping = stop;
            }
            const bool found = drain();
            if (stopping) {
                drain();  // what close() handed over with the stop
                break;
            }
            poll_us = found ? base_us : std::min(poll_us * 2, idle_us);
        }
        if (!abandoned.load(std::memory_order_acquire))
            finish_sinks();
        {
            std::lock_guard<std::mutex> lock(mutex);
            ended = true;
        }
        done.notify_all();
    }
};

struct Recorder::Impl {
    explicit Impl(const RecorderOptions& o) : shared(std::make_shared<Shared>(o)) {}

    std::shared_ptr<Shared> shared;
    std::thread writer;
    const RecorderOptions& options() const { return shared->options; }

    // The loop's thread only.
    FrameRecord row;                     // the frame being recorded
    std::uint64_t head = 0;              // rows put in the ring
    std::uint64_t published = 0;         // rows handed over
    std::uint64_t consumed_seen = 0;     // the writer's `consumed`, as last read
    std::uint64_t events_head = 0;       // zones and marks put in their ring
    std::uint64_t events_published = 0;  // and handed over
    std::uint64_t events_consumed_seen = 0;
    std::int64_t events_dropped = 0;
    std::uint32_t zone_depth = 0;  // zones open now
    std::size_t flush_every = 0;
    bool accepting = false;  // a sink exists and close() has not run
    bool open = false;       // a frame has begun and not ended
    bool explicit_wait = false;
    bool closed = false;
    bool timed_out = false;  // close() stopped waiting for a writer that was stuck
    std::int64_t lost_at_close = 0;
    std::string clock_label;
    std::string policy;
    std::int64_t dt_ns = 0, clamp_ns = 0, max_steps = 0;
    double timescale = 1.0;
    std::int64_t start_ns = 0, previous_ns = 0;
    // The latest clock reading: what the next phase or wait counts from, and what a reading
    // that went back is held to.
    std::int64_t mark_ns = 0;
    std::int64_t next_frame = 0;
    std::int64_t dropped = 0;
    std::int64_t backward_steps = 0, backward_max_ns = 0, backward_first_frame = 0;

    std::int64_t now() const {
        return options().clock_ns ? options().clock_ns() : loopscope::now_ns();
    }

    std::int64_t lost() const {
        return closed && timed_out ? lost_at_close : shared->lost.load(std::memory_order_relaxed);
    }

    // A clock reading, never earlier than the latest one: a reading that went back is counted
    // and taken as the latest, so that no time comes out negative.
    std::int64_t reading(std::int64_t now_ns, std::int64_t frame) {
        if (now_ns >= mark_ns)
            return now_ns;
        if (backward_steps++ == 0)
            backward_first_frame = frame;
        backward_max_ns = std::max(backward_max_ns, mark_ns - now_ns);
        return mark_ns;
    }
    std::int64_t open_frame() const { return next_frame > 0 ? next_frame - 1 : 0; }

    // The metadata is fixed at the first frame (or at close() without one): it precedes the rows.
    void set_preamble() {
        if (shared->preamble_set.load(std::memory_order_relaxed))
            return;
        trace_v1::Preamble p;
        p.clock = clock_label;
        p.policy = policy;
        p.dt_ns = dt_ns;
        p.clamp_ns = clamp_ns;
        p.max_steps = max_steps;
        p.timescale = timescale;
        p.machine = options().machine;
        if (options().write_start_time)
            p.start_time = trace_v1::utc_now_iso8601();
        p.metadata = options().metadata;
        p.version = 2;  // zones and marks may follow
        shared->preamble = trace_v1::preamble_text(p);
        shared->preamble_set.store(true, std::memory_order_release);
        if (!writer.joinable())
            shared->drain();
    }

    void begin(std::int64_t now_ns) {
        now_ns = reading(now_ns, next_frame);
        if (open)
            commit(now_ns);
        else
            open = true;
        if (next_frame == 0)
            set_preamble();
        row = FrameRecord{};
        row.frame = next_frame++;
        row.start_ns = now_ns - start_ns;
        row.raw_ns = now_ns - previous_ns;
        row.clamped_ns = row.raw_ns;
        row.consumed_ns = row.raw_ns;
        previous_ns = now_ns;
        mark_ns = now_ns;
    }

    // The frame ends at `now_ns`: into the ring if there is room, else dropped and counted.
    void commit(std::int64_t now_ns) {
        if (!explicit_wait)
            row.wait_ns = now_ns - mark_ns;
        explicit_wait = false;
        row.clamp_lost_ns = row.raw_ns - row.clamped_ns;
        const std::size_t size = shared->ring.size();
        if (!accepting || shared->failed.load(std::memory_order_relaxed) ||
            (flush_every == 0 && head == size)) {
            ++dropped;
            return;
        }
        if (head - consumed_seen == size) {
            consumed_seen = shared->consumed.load(std::memory_order_acquire);
            if (head - consumed_seen == size) {
                ++dropped;  // the writer is a ring behind
                return;
            }
        }
        shared->ring[static_cast<std::size_t>(head % size)] = row;
        ++head;
        if (flush_every > 0 && head - published >= flush_every)
            publish();
    }

    // Hands the rows put so far to the writer (or, without one, writes them here). A writer
    // that has let the ring fill past half (a loop running far faster than a game's, a writer
    // kept from the CPU) is woken rather than left to its next look: a notify, which never
    // waits, once a hand-over at most.
    void publish() {
        if (head == published && events_head == events_published)
            return;
        events_published = events_head;
        shared->events_published.store(events_head, std::memory_order_release);
        published = head;
        shared->published.store(head, std::memory_order_release);
        if (!writer.joinable()) {
            shared->drain();
            return;
        }
        bool behind = false;
        if (head - consumed_seen >= shared->ring.size() / 2) {
            consumed_seen = shared->consumed.load(std::memory_order_acquire);
            behind = head - consumed_seen >= shared->ring.size() / 2;
        }
        if (events_head - events_consumed_seen >= shared->events.size() / 2) {
            events_consumed_seen = shared->events_consumed.load(std::memory_order_acquire);
            behind = behind || events_head - events_consumed_seen >= shared->events.size() / 2;
        }
        if (behind)
            shared->wake.notify_one();
    }

    // A zone or a mark goes into its ring, handed over with the next rows (or at once when half
    // the ring waits); dropped and counted when the ring is full (a writer far behind) or no
    // sink takes it.
    // The ring's next free record, filled in place (no copy of a whole record); nullptr, with
    // the drop counted, when there is none. commit_event() then puts it in.
    trace_v1::EventRecord* event_slot() {
        const std::size_t size = shared->events.size();
        if (!accepting || shared->failed.load(std::memory_order_relaxed) ||
            (flush_every == 0 && events_head == size)) {
            ++events_dropped;
            return nullptr;
        }
        if (events_head - events_consumed_seen == size) {
            events_consumed_seen = shared->events_consumed.load(std::memory_order_acquire);
            if (events_head - events_consumed_seen == size) {
                ++events_dropped;
                return nullptr;
            }
        }
        return &shared->events[static_cast<std::size_t>(events_head % size)];
    }
    void commit_event() {
        ++events_head;
        // A game that records more zones and marks than half their ring between two hand-overs
        // hands them over early, with the rows so far, rather than drop them.
        if (flush_every > 0 && events_head - events_published >= shared->events.size() / 2)
            publish();
    }

    // Waits (at most close_timeout_ms) until the writer has taken every row handed over;
    // false when it did not in time.
    bool wait_written() {
        if (!writer.joinable())
            return true;
        std::unique_lock<std::mutex> lock(shared->mutex);
        shared->wake.notify_one();
        return shared->done.wait_for(
            lock, std::chrono::milliseconds(std::max<std::int64_t>(0, options().close_timeout_ms)),
            [&] {
                return shared->ended ||
                       (shared->consumed.load(std::memory_order_acquire) >= published &&
                        shared->events_consumed.load(std::memory_order_acquire) >=
                            events_published);
            });
    }

    void close(std::int64_t now_ns) {
        if (closed)
            return;
        now_ns = reading(now_ns, open_frame());
        set_preamble();
        if (open) {
            commit(now_ns);
            open = false;
        }
        accepting = false;
        publish();
        if (backward_steps > 0) {
            // After the rows, where the reader takes `# key: value` lines too.
            shared->trailer = std::string("# ") + trace_v1::kClockWentBackKey + ": " +
                              std::to_string(backward_steps) + " times, by up to " +
                              std::to_string(backward_max_ns) + " ns, first at frame " +
                              std::to_string(backward_first_frame) + "\n";
        }
        if (writer.joinable()) {
            bool ended = false;
            {
                std::unique_lock<std::mutex> lock(shared->mutex);
                shared->stop = true;
                shared->wake.notify_one();
                ended = shared->done.wait_for(lock,
                                              std::chrono::milliseconds(std::max<std::int64_t>(
                                                  0, options().close_timeout_ms)),
                                              [&] { return shared->ended; });
            }
            if (ended) {
                writer.join();
            } else {
                // A sink blocks: the rows not written are lost, and the writer, left behind with
                // the state it shares, touches nothing of the game's again.
                shared->abandoned.store(true, std::memory_order_release);
                timed_out = true;
                lost_at_close = shared->lost.load(std::memory_order_relaxed) +
                                static_cast<std::int64_t>(
                                    published - shared->consumed.load(std::memory_order_acquire));
                writer.detach();
            }
        } else {
            shared->finish_sinks();
        }
        closed = true;
    }
};

Recorder::Recorder(const RecorderOptions& options) : impl_(new Impl(options)) {
    Impl& m = *impl_;
    Shared& s = *m.shared;
    const RecorderOptions& o = s.options;
    const std::size_t capacity = std::max<std::size_t>(o.capacity, 1);
    m.flush_every = std::min(o.flush_every, capacity);
    s.ring.resize(capacity);
    // Zones and marks come far fewer than frames: a quarter of the ring, at least one batch.
    s.events.resize(std::max<std::size_t>(capacity / 4, 256));
    m.clock_label = !o.clock_name.empty() ? o.clock_name : o.clock_ns ? "custom" : "monotonic";
    m.policy = o.policy;
    m.dt_ns = o.dt_ns;
    m.clamp_ns = o.clamp_ns;
    m.max_steps = o.max_steps;
    m.timescale = o.timescale;
    if (!o.path.empty())
        s.file = std::make_unique<FileSink>(o.path);
    if (o.serve_port >= 0) {
        s.live = std::make_unique<LiveServer>(o.serve_address, o.serve_port, m.clock_label,
                                              capacity, o.serve_stall_ms);
    }
    m.accepting = s.file || o.on_rows || s.live;
    m.start_ns = m.previous_ns = m.mark_ns = m.now();
    if (m.accepting && m.flush_every > 0 && o.background_writer) {
        try {
            m.writer = std::thread([shared = m.shared] { shared->writer_main(); });
        } catch (const std::system_error&) {
            // No thread to be had: the sinks run on the loop's thread.
        }
    }
    // Without a writer thread a FIFO with no reader fails at once: the loop's thread never waits.
    if (!m.writer.joinable() && s.file && !s.file->open(0))
        s.failed.store(true, std::memory_order_relaxed);
}

Recorder::~Recorder() {
    close();
    delete impl_;
}

std::int64_t Recorder::now_ns() const {
    return impl_->now();
}

void Recorder::describe_loop(const FixedStepConfig& c, const char* policy) {
    Impl& m = *impl_;
    if (policy)
        m.policy = policy;
    else if (m.policy.empty())
        m.policy = "fixed-interp";
    m.dt_ns = c.dt_ns;
    m.clamp_ns = c.clamp_ns;
    m.max_steps = c.max_steps;
    m.timescale = c.timescale;
}

void Recorder::begin_frame(std::int64_t now) {
    impl_->begin(now);
}
void Recorder::begin_frame() {
    impl_->begin(impl_->now());
}

void Recorder::loop(const LoopFrame& f) {
    FrameRecord& r = impl_->row;
    if (f.clamped_ns != LoopFrame::kSameAsRaw)
        r.clamped_ns = r.consumed_ns = f.clamped_ns;
    if (f.consumed_ns != LoopFrame::kSameAsRaw)
        r.consumed_ns = f.consumed_ns;
    r.acc_before_ns = f.acc_before_ns;
    r.steps = f.steps;
    r.cap_dropped_ns = f.cap_dropped_ns;
    r.acc_after_ns = f.acc_after_ns;
    r.alpha = f.alpha;
}

void Recorder::end_steps(std::int64_t now) {
    Impl& m = *impl_;
    now = m.reading(now, m.open_frame());
    m.row.step_cost_ns += now - m.mark_ns;
    m.mark_ns = now;
}
void Recorder::end_steps() {
    end_steps(impl_->now());
}
void Recorder::end_render(std::int64_t now) {
    Impl& m = *impl_;
    now = m.reading(now, m.open_frame());
    m.row.render_ns += now - m.mark_ns;
    m.mark_ns = now;
}
void Recorder::end_render() {
    end_render(impl_->now());
}

void Recorder::add_times(const PhaseTimes& t) {
    Impl& m = *impl_;
    m.row.step_cost_ns += t.step_cost_ns;
    m.row.render_ns += t.render_ns;
    m.row.wait_ns = (m.explicit_wait ? m.row.wait_ns : 0) + t.wait_ns;
    m.explicit_wait = true;  // the game measures its own phases
}

void Recorder::mark(const char* label) {
    mark(label, impl_->now());
}
void Recorder::mark(const char* label, std::int64_t now) {
    Impl& m = *impl_;
    now = m.reading(now, m.open_frame());
    trace_v1::EventRecord* e = m.event_slot();
    if (!e)
        return;
    e->kind = trace_v1::EventKind::mark;
    e->thread = 0;
    e->depth = m.zone_depth;
    e->frame = m.next_frame - 1;
    e->begin_ns = e->end_ns = now - m.start_ns;
    trace_v1::set_label(*e, label);
    m.commit_event();
}

Recorder::ZoneStart Recorder::begin_zone() {
    Impl& m = *impl_;
    ++m.zone_depth;
    return {m.reading(m.now(), m.open_frame()), m.next_frame - 1};
}
void Recorder::end_zone(const char* label, const ZoneStart& start) {
    Impl& m = *impl_;
    const std::int64_t now = m.reading(m.now(), m.open_frame());
    if (m.zone_depth > 0)
        --m.zone_depth;
    trace_v1::EventRecord* e = m.event_slot();
    if (!e)
        return;
    e->kind = trace_v1::EventKind::zone;
    e->thread = 0;
    e->depth = m.zone_depth;
    e->frame = start.frame;
    e->begin_ns = start.ns - m.start_ns;
    e->end_ns = now - m.start_ns;
    trace_v1::set_label(*e, label);
    m.commit_event();
}
std::int64_t Recorder::dropped_events() const {
    return impl_->events_dropped;
}

void Recorder::close() {
    if (!impl_->closed)
        impl_->close(impl_->now());
}
void Recorder::close(std::int64_t now) {
    impl_->close(now);
}

void Recorder::flush() {
    Impl& m = *impl_;
    if (m.closed)
        return;
    m.publish();
    m.wait_written();
}

void Recorder::wait_for_writer() {
    if (!impl_->closed)
        impl_->wait_written();
}

bool Recorder::writer_caught_up() const {
    return impl_->shared->consumed.load(std::memory_order_acquire) >= impl_->published;
}

std::int64_t Recorder::frames() const {
    return impl_->next_frame;
}
std::int64_t Recorder::recorded_frames() const {
    return static_cast<std::int64_t>(impl_->head) - impl_->lost();
}
std::int64_t Recorder::dropped_frames() const {
    return impl_->dropped + impl_->lost();
}
std::int64_t Recorder::clock_backward_steps() const {
    return impl_->backward_steps;
}
std::int64_t Recorder::largest_clock_backward_ns() const {
    return impl_->backward_max_ns;
}
bool Recorder::ok() const {
    return !impl_->shared->failed.load(std::memory_order_relaxed) && !impl_->timed_out;
}
const std::string& Recorder::path() const {
    return impl_->options().path;
}
std::int64_t Recorder::start_ns() const {
    return impl_->start_ns;
}
bool Recorder::has_writer_thread() const {
    return impl_->writer.joinable();
}
int Recorder::serving_port() const {
    return impl_->shared->live ? impl_->shared->live->stats().port : 0;
}
std::string Recorder::serve_error() const {
    return impl_->shared->live ? impl_->shared->live->error() : std::string();
}
LiveStats Recorder::live_stats() const {
    return impl_->shared->live ? impl_->shared->live->stats() : LiveStats{};
}

}  // namespace recorder_enabled
}  // namespace loopscope
