// The recorder's live stream (RecorderOptions::serve_port, docs/live.md): a client gets the
// handshake and every row in order through `loopscope record --connect`, which writes a trace the
// reports read; and bad peers cannot hurt the game: a client that sends garbage, one that
// connects and stalls, one that disconnects mid-batch each end with a closed connection and
// counted drops while the game's calls stay as fast as ever, and the next client is served.
// Linux: the misbehaving clients are raw BSD sockets.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "recorder/trace_text.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

// A raw TCP client of the live stream.
class RawClient {
  public:
    explicit RawClient(int port, int receive_buffer_bytes = 0) {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        if (receive_buffer_bytes > 0) {
            setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer_bytes,
                       sizeof receive_buffer_bytes);
        }
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
        timeval tv{0, 200'000};
        setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
    ~RawClient() { close_now(); }
    bool connected() const { return connected_; }
    void send_text(const std::string& text) {
        ASSERT_EQ(::send(fd_, text.data(), text.size(), MSG_NOSIGNAL),
                  static_cast<ssize_t>(text.size()));
    }
    // Reads what arrives until `bytes` are in or the peer closes (false) or 3 s pass.
    bool read_at_least(std::size_t bytes) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
        while (received_.size() < bytes && std::chrono::steady_clock::now() < until) {
            char chunk[4096];
            const auto n = recv(fd_, chunk, sizeof chunk, 0);
            if (n == 0)
                return false;
            if (n > 0)
                received_.append(chunk, static_cast<std::size_t>(n));
        }
        return received_.size() >= bytes;
    }
    // Whether the game closed the connection (within 3 s), reading and discarding what is left.
    bool closed_by_peer() {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
        while (std::chrono::steady_clock::now() < until) {
            char chunk[65536];
            const auto n = recv(fd_, chunk, sizeof chunk, 0);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
                return true;
        }
        return false;
    }
    // Closes with a reset (SO_LINGER 0): the abrupt end of a crashed viewer.
    void reset() {
        linger l{1, 0};
        setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        close_now();
    }
    void close_now() {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = -1;
    }
    const std::string& received() const { return received_; }

  private:
    int fd_ = -1;
    bool connected_ = false;
    std::string received_;
};

// A game loop at full speed: frames of given clock readings with a short pause every 64 so the
// writer keeps up. Returns the longest begin_frame + loop call: the game's own cost.
std::int64_t run_frames(Recorder& rec, std::int64_t& now, int frames) {
    std::int64_t longest_ns = 0;
    for (int i = 0; i < frames; ++i) {
        now += 1'000'000;
        const std::int64_t t0 = loopscope::now_ns();
        rec.begin_frame(now);
        rec.loop({.acc_before_ns = 5, .steps = 1, .acc_after_ns = 2, .alpha = 0.25});
        longest_ns = std::max(longest_ns, loopscope::now_ns() - t0);
        if (i % 64 == 63)
            std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    return longest_ns;
}

template <class Done>
bool eventually(Done done) {
    for (int i = 0; i < 300 && !done(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return done();
}

RecorderOptions live_options(std::int64_t& rows_kept) {
    RecorderOptions o;
    o.path = "";
    o.flush_every = 16;
    o.capacity = 4096;
    o.serve_port = 0;
    o.write_start_time = false;
    o.policy = "fixed";
    o.dt_ns = 1'000'000;
    o.on_rows = [](void* kept, const FrameRecord*, std::size_t n) {
        *static_cast<std::int64_t*>(kept) += static_cast<std::int64_t>(n);
    };
    o.on_rows_user = &rows_kept;
    return o;
}

// The game's calls stay fast whatever the client does: well under a millisecond each (they
// take tens of nanoseconds; the bound leaves room for a loaded machine's preemptions).
constexpr std::int64_t kGameCallBoundNs = 20'000'000;

TEST(RecorderLive, ServesOnLoopbackAnAnyFreePortAndWithoutAClientDropsCounted) {
    std::int64_t kept = 0;
    Recorder rec(live_options(kept));
    ASSERT_GT(rec.serving_port(), 0) << rec.serve_error();
    EXPECT_EQ(rec.serve_error(), "");
    std::int64_t now = rec.start_ns();
    run_frames(rec, now, 320);
    rec.close();
    EXPECT_EQ(kept, 320);  // the other sinks get every row
    EXPECT_EQ(rec.dropped_frames(), 0);
    EXPECT_EQ(rec.live_stats().clients, 0);
    EXPECT_EQ(rec.live_stats().rows_dropped, 320);  // no client: every row dropped, counted
}

TEST(RecorderLive, AnAddressThatIsNotIpv4IsReportedAndRecordingGoesOn) {
    std::int64_t kept = 0;
    RecorderOptions o = live_options(kept);
    o.serve_address = "not-an-address";
    Recorder rec(o);
    EXPECT_EQ(rec.serving_port(), 0);
    EXPECT_NE(rec.serve_error().find("not an IPv4 address"), std::string::npos);
    std::int64_t now = rec.start_ns();
    run_frames(rec, now, 40);
    rec.close();
    EXPECT_TRUE(rec.ok());
    EXPECT_EQ(kept, 40);
}

TEST(RecorderLive, RecordConnectWritesATraceOfEveryFrameThatReportReads) {
    const std::string dir = test::make_temp_dir("recorder-live");
    std::int64_t kept = 0;
    Recorder rec(live_options(kept));
    const int port = rec.serving_port();
    ASSERT_GT(port, 0);
    test::RunResult recorded;
    std::thread client([&] {
        recorded = test::run_loopscope("record --connect 127.0.0.1:" + std::to_string(port) +
                                       " -o '" + dir + "/live.csv'");
    });
    ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the handshake is sent
    std::int64_t now = rec.start_ns();
    const std::int64_t longest = run_frames(rec, now, 1000);
    rec.close();  // the end message: record stops and writes the file
    client.join();
    ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
    EXPECT_LT(longest, kGameCallBoundNs);
    const auto stats = rec.live_stats();
    EXPECT_EQ(stats.rows_sent, 1000);
    EXPECT_EQ(stats.rows_dropped, 0);
    EXPECT_NE(recorded.err.find("1000 frames recorded from 127.0.0.1:" + std::to_string(port) +
                                " (monotonic clock)"),
              std::string::npos)
        << recorded.err;

    const std::string text = test::read_text(dir + "/live.csv");
    EXPECT_EQ(text.rfind("# loopscope-trace v2\n# clock: monotonic\n# policy: fixed\n", 0), 0u)
        << text.substr(0, 200);
    const auto rows = test::trace_cells(text);
    ASSERT_EQ(rows.size(), 1000u);
    EXPECT_EQ(rows.front()[0], "0");
    EXPECT_EQ(rows.back()[0], "999");
    EXPECT_EQ(rows[10][2], "1000000");    // raw_ns
    EXPECT_EQ(rows[10][7], "1");          // steps
    EXPECT_EQ(rows[10][10], "0.250000");  // alpha
    const auto report = test::run_loopscope("report '" + dir + "/live.csv' --format json");
    EXPECT_EQ(report.exit_code, 0) << report.err;
}

TEST(RecorderLive, AClientThatSendsGarbageIsClosedAndTheNextIsServed) {
    std::int64_t kept = 0;
    Recorder rec(live_options(kept));
    RawClient bad(rec.serving_port());
    ASSERT_TRUE(bad.connected());
    ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == 1; }));
    bad.send_text("GET / HTTP/1.1\r\nHost: game\r\n\r\n");
    std::int64_t now = rec.start_ns();
    std::int64_t longest = run_frames(rec, now, 200);
    EXPECT_TRUE(eventually([&] { return rec.live_stats().closed_garbage == 1; }));
    EXPECT_TRUE(bad.closed_by_peer());

    RawClient good(rec.serving_port());
    ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == 2; }));
    longest = std::max(longest, run_frames(rec, now, 200));
    EXPECT_TRUE(good.read_at_least(16));
    EXPECT_EQ(good.received().compare(0, 8, std::string(live_wire::kMagic, 8)), 0);
    rec.close();
    EXPECT_LT(longest, kGameCallBoundNs);
    EXPECT_EQ(kept, 400);
    EXPECT_EQ(rec.dropped_frames(), 0);
}

TEST(RecorderLive, AClientThatConnectsAndStallsIsClosedWithItsRowsDroppedAndCounted) {
    std::int64_t kept = 0;
    RecorderOptions o = live_options(kept);
    o.serve_stall_ms = 300;
    Recorder rec(o);
    RawClient stalled(rec.serving_port(), 4096);  // never reads; a small window fills fast
    ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == 1; }));
    std::int64_t now = rec.start_ns();
    std::int64_t longest = 0;
    int frames = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (rec.live_stats().closed_stalled == 0 && std::chrono::steady_clock::now() < until) {
        longest = std::max(longest, run_frames(rec, now, 640));
        frames += 640;
    }
    const auto stats = rec.live_stats();
    EXPECT_EQ(stats.closed_stalled, 1);
    EXPECT_GT(stats.rows_dropped, 0);
    EXPECT_LT(stats.rows_sent, frames);
    EXPECT_TRUE(stalled.closed_by_peer());
    rec.close();
    EXPECT_LT(longest, kGameCallBoundNs);
    EXPECT_EQ(kept, frames);  // the file and callback sinks lost nothing
    EXPECT_EQ(rec.dropped_frames(), 0);
}

// A client that connects and never reads, at a game's pace (1000 rows a second, 112 KB/s): the
// kernels' buffers would take its rows for half a minute if success of send() were the test of
// progress. Judged by its acknowledgements (it sends none), it is closed within serve_stall_ms
// (2 s), and the next client is served. (LiveV2 tests the same on default buffers.)
TEST(RecorderLive, AClientThatNeverReadsIsClosedWithinTheStallTimeAndTheNextIsServed) {
    std::int64_t kept = 0;
    RecorderOptions o = live_options(kept);
    o.serve_stall_ms = 2000;
    Recorder rec(o);
    std::int64_t now = rec.start_ns();
    RawClient silent(rec.serving_port(), 4096);
    ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == 1; }));
    const auto connected = std::chrono::steady_clock::now();
    auto closed_after = std::chrono::steady_clock::duration::max();
    while (std::chrono::steady_clock::now() - connected < std::chrono::seconds(20)) {
        for (int i = 0; i < 16; ++i) {
            now += 1'000'000;
            rec.begin_frame(now);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        if (rec.live_stats().closed_stalled == 1) {
            closed_after = std::chrono::steady_clock::now() - connected;
            break;
        }
    }
    // 2 s without progress after a buffer of a few KB filled: well within 5 s.
    EXPECT_LT(closed_after, std::chrono::seconds(5));
    EXPECT_TRUE(silent.closed_by_peer());
    RawClient next(rec.serving_port());
    ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == 2; }));
    run_frames(rec, now, 64);
    EXPECT_TRUE(next.read_at_least(2000));
    EXPECT_EQ(next.received().compare(0, 8, std::string(live_wire::kMagic, 8)), 0);
    rec.close();
    EXPECT_EQ(rec.dropped_frames(), 0);
}

TEST(RecorderLive, AClientThatDisconnectsMidBatchIsClosedAndAReconnectIsServed) {
    std::int64_t kept = 0;
    Recorder rec(live_options(kept));
    std::int64_t now = rec.start_ns();
    std::int64_t longest = 0;
    for (int round = 1; round <= 3; ++round) {
        RawClient client(rec.serving_port());
        ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == round; }));
        longest = std::max(longest, run_frames(rec, now, 64));
        // The handshake and part of the rows (64 rows are 7 KB), then a reset with the rest
        // unread: in the middle of a batch.
        ASSERT_TRUE(client.read_at_least(2000));
        EXPECT_EQ(client.received().compare(0, 8, std::string(live_wire::kMagic, 8)), 0);
        client.reset();
        longest = std::max(longest, run_frames(rec, now, 640));
        EXPECT_TRUE(eventually([&] { return rec.live_stats().closed_lost == round; }))
            << "round " << round;
    }
    rec.close();
    EXPECT_LT(longest, kGameCallBoundNs);
    EXPECT_EQ(kept, 3 * (64 + 640));
    EXPECT_EQ(rec.dropped_frames(), 0);
    EXPECT_GT(rec.live_stats().rows_sent, 0);
}

// A game of a later protocol version: `record` refuses it with one line and exit code 2.
// A socket listening on 127.0.0.1 at a free port (its port in `port`, 0 when it failed): a test's
// stand-in for a game.
int listen_on_loopback(int& port) {
    const int server = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof addr;
    const bool ok = bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                    listen(server, 1) == 0 &&
                    getsockname(server, reinterpret_cast<sockaddr*>(&addr), &size) == 0;
    port = ok ? ntohs(addr.sin_port) : 0;
    return server;
}

TEST(RecorderLive, RecordRejectsAnUnknownProtocolVersionWithOneLine) {
    int port = 0;
    const int server = listen_on_loopback(port);
    ASSERT_GT(port, 0);
    std::thread game([server] {
        const int c = accept(server, nullptr, nullptr);
        std::string hello(live_wire::kMagic, 8);
        hello += std::string("\x07\0\0\0\x70\0\0\0", 8);  // version 7, 112-byte rows
        ::send(c, hello.data(), hello.size(), MSG_NOSIGNAL);
        char acks[256];
        while (recv(c, acks, sizeof acks, 0) > 0) {
        }  // the client's acknowledgements, until it hangs up
        ::close(c);
    });
    const auto r =
        test::run_loopscope("record --connect 127.0.0.1:" + std::to_string(port) + " -o /dev/null");
    game.join();
    ::close(server);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "loopscope: error: 127.0.0.1:" + std::to_string(port) +
                         ": live stream protocol version 7, this loopscope reads version 2: use "
                         "a matching loopscope\n");
}

// A peer that accepts the connection and sends nothing (another program on that port) is one
// line and exit 2 once the handshake's 5 s have passed; before, `record` waited for ever.
TEST(RecorderLive, RecordGivesUpOnAPeerThatSendsNoHandshake) {
    int port = 0;
    const int server = listen_on_loopback(port);
    ASSERT_GT(port, 0);
    std::thread silent([server] {
        const int c = accept(server, nullptr, nullptr);
        char acks[256];
        while (recv(c, acks, sizeof acks, 0) > 0) {
        }  // the client's acknowledgements, until it hangs up
        ::close(c);
    });
    // `timeout 60`: a client that still waits for ever fails the test instead of hanging it.
    const auto r = test::run_loopscope_env(
        "timeout 60", "record --connect 127.0.0.1:" + std::to_string(port) + " -o /dev/null");
    silent.join();
    ::close(server);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err, "loopscope: error: 127.0.0.1:" + std::to_string(port) +
                         ": no live stream handshake within 5 s (0 bytes of it received): "
                         "expected a game serving its frames (e.g. example_game_loop --serve "
                         "PORT) and free to serve this client (a game serves one client at a "
                         "time)\n");
}

TEST(RecorderLive, RecordRejectsABadAddressAndAnAbsentGame) {
    auto r = test::run_loopscope("record --connect nowhere -o /dev/null");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--connect: expected HOST:PORT"), std::string::npos) << r.err;
    // A port nothing listens on: one line naming the address.
    const int probe = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t size = sizeof addr;
    getsockname(probe, reinterpret_cast<sockaddr*>(&addr), &size);
    const int port = ntohs(addr.sin_port);
    ::close(probe);
    r = test::run_loopscope("record --connect 127.0.0.1:" + std::to_string(port) + " -o /dev/null");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot connect"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace loopscope

#ifdef LOOPSCOPE_EXAMPLE_GAME
namespace loopscope {
namespace {

// The example game serving at 60 Hz; `record --connect --seconds 3` gives a trace of about
// 3 s of frames whose report reads like any other.
TEST(RecorderLive, RecordTheExampleGameForThreeSecondsGivesAboutThreeSecondsOfFrames) {
    const std::string dir = test::make_temp_dir("recorder-live-example");
    test::ServingGame game(300);
    ASSERT_GT(game.port(), 0);
    const auto r = test::run_loopscope("record --connect 127.0.0.1:" + std::to_string(game.port()) +
                                       " --seconds 3 -o '" + dir + "/t.csv'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = test::trace_cells(test::read_text(dir + "/t.csv"));
    ASSERT_GT(rows.size(), 10u);
    const double span_s =
        static_cast<double>(std::stoll(rows.back()[1]) - std::stoll(rows.front()[1])) / 1e9;
    // 3 s of recording, less the first hand-over's wait (0.1 s) and the last's.
    EXPECT_GT(span_s, 2.5);
    EXPECT_LT(span_s, 3.2);
    const auto report = test::run_loopscope("report '" + dir + "/t.csv'");
    EXPECT_EQ(report.exit_code, 0) << report.err;
    const auto replay = test::run_loopscope("replay '" + dir + "/t.csv' -o /dev/null");
    EXPECT_EQ(replay.exit_code, 0) << replay.err;
}

}  // namespace
}  // namespace loopscope
#endif  // LOOPSCOPE_EXAMPLE_GAME
