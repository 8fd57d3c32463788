// The live stream's tools against peers that are not a well-behaved game (docs/live.md, "The
// tools"): a game whose queue of connections is full (`record --connect` gives up after its
// connect timeout, saying why, instead of waiting minutes in connect()), a peer that floods
// (`record` stops at --max-bytes with a trace `report` reads; the viewer's record of the stream
// stays bounded), one that falls silent (--idle-seconds ends the recording) and one whose
// preamble is not a trace's (refused before anything is written). Linux: the peers are raw BSD
// sockets; the bytes are docs/live.md's protocol (tests/live_stream_bytes.hpp).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/live_stream_bytes.hpp"
#include "tests/test_support.hpp"
#include "tool/live_client.hpp"
#ifdef LOOPSCOPE_HAVE_VIEWER
#include "tool/viewer/live_window.hpp"
#endif

namespace loopscope {
namespace {

using test::live_batch;
using test::live_end;
using test::live_frame;
using test::live_handshake;

// A socket listening on 127.0.0.1 at a free port, with a queue of `backlog` connections.
int listen_on_loopback(int& port, int backlog = 1) {
    const int server = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof addr;
    const bool ok = bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                    listen(server, backlog) == 0 &&
                    getsockname(server, reinterpret_cast<sockaddr*>(&addr), &size) == 0;
    port = ok ? ntohs(addr.sin_port) : 0;
    return server;
}

bool send_all(int fd, const std::string& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        const auto n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += static_cast<std::size_t>(n);
    }
    return true;
}

std::string address(int port) {
    return "127.0.0.1:" + std::to_string(port);
}

// A game that listens and never accepts, whose queue is full: the kernel leaves new connections
// unanswered. Before, `record` waited in connect() for the system's retries (134 s) and then said
// no game was serving.
TEST(LivePeers, RecordGivesUpOnAFullListenQueueWithinItsTimeoutSayingWhy) {
    int port = 0;
    const int server = listen_on_loopback(port, 0);
    ASSERT_GT(port, 0);
    // Connections until one is left unanswered: the queue is then full.
    std::vector<int> queued;
    bool full = false;
    for (int i = 0; i < 64 && !full; ++i) {
        const int c = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(static_cast<std::uint16_t>(port));
        connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        pollfd fd{c, POLLOUT, 0};
        full = poll(&fd, 1, 300) == 0;
        queued.push_back(c);
    }
    ASSERT_TRUE(full) << "the listen queue never filled";
    const auto start = std::chrono::steady_clock::now();
    const auto r = test::run_loopscope_env("timeout 120",
                                           "record --connect " + address(port) + " -o /dev/null");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (int c : queued)
        ::close(c);
    ::close(server);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err, "loopscope: error: " + address(port) +
                         ": cannot connect: no answer within 5 s (a game serving there may have "
                         "its queue of clients waiting to be served full, or a firewall drops "
                         "the connection)\n");
    EXPECT_GE(seconds, 4.5);
    EXPECT_LT(seconds, 30.0);
}

// A peer that sends rows as fast as the socket takes them, some of them rows the trace reader
// refuses: `record` stops at --max-bytes, with whole rows only, and the trace reads back.
TEST(LivePeers, RecordOfAFloodingPeerIsBoundedAndReportReadsIt) {
    int port = 0;
    const int server = listen_on_loopback(port);
    ASSERT_GT(port, 0);
    std::thread flood([server] {
        const int c = accept(server, nullptr, nullptr);
        bool open = send_all(c, live_handshake());
        std::vector<FrameRecord> rows(256);
        for (std::int64_t n = 0; open; n += 256) {
            for (std::int64_t i = 0; i < 256; ++i)
                rows[i] = live_frame(n + i);
            rows[7].raw_ns = -1;  // refused by the reader
            open = send_all(c, live_batch(rows));
        }
        ::close(c);
    });
    const std::string dir = test::make_temp_dir("loopscope-live-peers");
    const std::string trace = dir + "/flood.csv";
    const auto r = test::run_loopscope_env(
        "timeout 120", "record --connect " + address(port) + " --max-bytes 300K -o " + trace);
    flood.join();
    ::close(server);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("stopped: the trace reached --max-bytes (307200 bytes)"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("rows left out because the trace reader refuses them (the first, "
                         "frame 7: expected a time >= 0 in column 'raw_ns', found -1)"),
              std::string::npos)
        << r.err;
    ASSERT_TRUE(std::filesystem::exists(trace));
    EXPECT_LE(std::filesystem::file_size(trace), 307200u);
    EXPECT_GT(std::filesystem::file_size(trace), 250000u);
    const auto report = test::run_loopscope("report --format json " + trace + " -o /dev/null");
    EXPECT_EQ(report.exit_code, 0) << report.err;
    std::filesystem::remove_all(dir);
}

// A peer that sends its handshake and a batch, then nothing while keeping the connection open:
// without --seconds, `record` used to wait for ever.
TEST(LivePeers, RecordEndsAfterIdleSecondsOfSilence) {
    int port = 0;
    const int server = listen_on_loopback(port);
    ASSERT_GT(port, 0);
    std::thread silent([server] {
        const int c = accept(server, nullptr, nullptr);
        const std::vector<FrameRecord> rows = {live_frame(0), live_frame(1), live_frame(2)};
        send_all(c, live_handshake() + live_batch(rows));
        char acks[256];
        while (recv(c, acks, sizeof acks, 0) > 0) {
        }  // the client's acknowledgements, until it hangs up
        ::close(c);
    });
    const std::string dir = test::make_temp_dir("loopscope-live-peers");
    const std::string trace = dir + "/silent.csv";
    const auto start = std::chrono::steady_clock::now();
    const auto r = test::run_loopscope_env(
        "timeout 60", "record --connect " + address(port) + " --idle-seconds 1 -o " + trace);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    silent.join();
    ::close(server);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("3 frames recorded"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("stopped: nothing received for 1 s (--idle-seconds)"), std::string::npos)
        << r.err;
    EXPECT_LT(seconds, 30.0);
    EXPECT_EQ(test::trace_data_rows(test::read_text(trace)).size(), 3u);
    std::filesystem::remove_all(dir);
}

// A handshake whose preamble is bytes of no trace: refused with one line, no file written.
TEST(LivePeers, RecordRefusesAPreambleThatIsNotATracesBeforeWritingAnything) {
    int port = 0;
    const int server = listen_on_loopback(port);
    ASSERT_GT(port, 0);
    std::thread peer([server] {
        const int c = accept(server, nullptr, nullptr);
        send_all(c, live_handshake(std::string("\x7f"
                                               "ELF\x02\x01\x01\0\0\0",
                                               10)));
        char acks[256];
        while (recv(c, acks, sizeof acks, 0) > 0) {
        }  // the client's acknowledgements, until it hangs up
        ::close(c);
    });
    const std::string dir = test::make_temp_dir("loopscope-live-peers");
    const std::string trace = dir + "/binary.csv";
    const auto r =
        test::run_loopscope_env("timeout 60", "record --connect " + address(port) + " -o " + trace);
    peer.join();
    ::close(server);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("loopscope: error: " + address(port) +
                         ":1:1: the game's trace preamble starts with"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("expected '# loopscope-trace v1'"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(trace));
    std::filesystem::remove_all(dir);
}

// The bounds are checked before any connection is tried (port 1: nothing listens there).
TEST(LivePeers, RecordChecksItsBoundsBeforeConnecting) {
    auto r = test::run_loopscope("record --connect 127.0.0.1:1 --max-bytes 12Q -o /dev/null");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err,
              "loopscope: error: --max-bytes: expected a number of bytes above 0, e.g. 1G, "
              "512M, 64K or 1000000, got '12Q'\n");
    r = test::run_loopscope("record --connect 127.0.0.1:1 --max-bytes 99999999999T -o /dev/null");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("got '99999999999T'"), std::string::npos) << r.err;
    r = test::run_loopscope("record --connect 127.0.0.1:1 --idle-seconds 0 -o /dev/null");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err,
              "loopscope: error: --idle-seconds: expected a number of seconds above 0, got "
              "'0'\n");
    // And nothing listening is said as such.
    r = test::run_loopscope("record --connect 127.0.0.1:1 -o /dev/null");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("127.0.0.1:1: cannot connect: nothing listens on that port"),
              std::string::npos)
        << r.err;
}

#ifdef LOOPSCOPE_HAVE_VIEWER
// `view --connect` keeps what arrives in a LiveWindow: however many frames a peer sends, the
// frames kept in full stay within twice the window and the history within its buckets, and every
// frame is accounted for in one or the other.
TEST(LivePeers, TheViewersRecordOfAFloodingPeerStaysBounded) {
    int port = 0;
    const int server = listen_on_loopback(port);
    ASSERT_GT(port, 0);
    constexpr std::int64_t kFrames = 64 * 256;
    std::thread flood([server] {
        const int c = accept(server, nullptr, nullptr);
        bool open = send_all(c, live_handshake());
        std::vector<FrameRecord> rows(256);
        for (std::int64_t n = 0; open && n < kFrames; n += 256) {
            for (std::int64_t i = 0; i < 256; ++i)
                rows[i] = live_frame(n + i);
            open = send_all(c, live_batch(rows));
        }
        send_all(c, live_end("# frames_dropped: 0\n"));
        char acks[256];
        while (recv(c, acks, sizeof acks, 0) > 0) {
        }  // the client's acknowledgements, until it hangs up
        ::close(c);
    });
    auto client = std::make_unique<LiveClient>(address(port));
    LiveWindow window(1000, 16);
    std::vector<FrameRecord> rows;
    std::size_t most_kept = 0;
    std::size_t most_room = 0;
    for (bool more = true; more;) {
        rows.clear();
        more = client->read(rows, 1000);
        window.add(rows);
        most_kept = std::max(most_kept, window.doc().frames());
        most_room =
            std::max({most_room, window.doc().capture.loop.capacity(), window.doc().x_ns.capacity(),
                      window.doc().frame_ns.values.capacity()});
    }
    client.reset();  // closes the socket: the peer ends
    flood.join();
    ::close(server);
    EXPECT_EQ(window.frames_received(), kFrames);
    EXPECT_LE(most_kept, 2000u);
    EXPECT_LE(most_room, 2000u);
    EXPECT_LE(window.history().size(), 16u);
    EXPECT_EQ(window.history_frames() + static_cast<std::int64_t>(window.doc().frames()), kFrames);
    std::int64_t in_buckets = 0;
    for (const HistoryBucket& b : window.history())
        in_buckets += b.frames;
    EXPECT_EQ(in_buckets, window.history_frames());
    EXPECT_EQ(window.history().front().first_frame, 0);
    EXPECT_EQ(window.missing_frames(), 0);
    // The window is the newest frames, and their report is the analysis of those frames.
    EXPECT_EQ(window.doc().capture.loop.back().frame, kFrames - 1);
    window.doc().analyse();
    ASSERT_TRUE(window.doc().report.has_value());
}
#endif

}  // namespace
}  // namespace loopscope
