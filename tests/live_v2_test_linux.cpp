// Live protocol version 2 (docs/live.md): the client acknowledges what its application has
// taken, and the game closes one whose acknowledgements stop for serve_stall_ms, which on
// default socket buffers a client that never reads would otherwise hold for minutes; a version 1
// client sees version 2 and stops; the game's zones and marks reach `record --connect`, whose
// trace reads them back; `record` writes no trace without frames and keeps the rows received
// before a protocol error, saying so with a non-zero exit; a trace recorded by joining a running
// game has no start-up segment. Linux: the peers are raw BSD sockets.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "readers/readers.hpp"
#include "recorder/trace_text.hpp"
#include "tests/live_stream_bytes.hpp"
#include "tests/test_support.hpp"
#include "tool/live_client.hpp"

namespace loopscope {
namespace {

using test::live_batch;
using test::live_end;
using test::live_frame;
using test::live_handshake;

std::string address(int port) {
    return "127.0.0.1:" + std::to_string(port);
}

template <class Done>
bool eventually(Done done, int seconds = 10) {
    for (int i = 0; i < seconds * 100 && !done(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return done();
}

// A client that connects with the system's default buffers and never reads.
int connect_and_never_read(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

RecorderOptions serving(std::int64_t stall_ms) {
    RecorderOptions o;
    o.path = "";
    o.on_rows = [](void*, const FrameRecord*, std::size_t) {};
    o.flush_every = 4;
    o.capacity = 1024;
    o.serve_port = 0;
    o.serve_stall_ms = stall_ms;
    o.write_start_time = false;
    return o;
}

// A game at 250 frames a second (a few KB/s, which default buffers of hundreds of KB would take
// for minutes) and a client that never reads: without acknowledgements it is closed once
// serve_stall_ms has passed, and the next client is served. The bound is structural: the close
// comes after the stall time and long before the kernels' buffers could have filled.
TEST(LiveV2, AClientThatNeverReadsOnDefaultBuffersLosesTheSlotWithinTheStallTime) {
    constexpr std::int64_t kStallMs = 300;
    Recorder rec(serving(kStallMs));
    ASSERT_GT(rec.serving_port(), 0) << rec.serve_error();
    const int silent = connect_and_never_read(rec.serving_port());
    ASSERT_GE(silent, 0);
    ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == 1; }));
    std::int64_t now = rec.start_ns();
    const auto connected = std::chrono::steady_clock::now();
    auto closed_after = std::chrono::steady_clock::duration::max();
    while (std::chrono::steady_clock::now() - connected < std::chrono::seconds(30)) {
        now += 4'000'000;
        rec.begin_frame(now);
        std::this_thread::sleep_for(std::chrono::milliseconds(4));
        if (rec.live_stats().closed_stalled == 1) {
            closed_after = std::chrono::steady_clock::now() - connected;
            break;
        }
    }
    EXPECT_GE(closed_after, std::chrono::milliseconds(kStallMs));
    EXPECT_LT(closed_after, std::chrono::seconds(10));  // minutes before acknowledgements
    ::close(silent);
    // The slot is free: a client that reads gets the handshake and rows.
    std::vector<FrameRecord> rows;
    std::unique_ptr<LiveClient> next;
    std::thread connect([&] { next = std::make_unique<LiveClient>(address(rec.serving_port())); });
    ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == 2; }));
    for (int i = 0; i < 64; ++i) {
        now += 4'000'000;
        rec.begin_frame(now);
    }
    connect.join();
    rec.flush();
    ASSERT_TRUE(eventually([&] {
        next->read(rows, 10);
        return rows.size() >= 60;
    }));
    rec.close();
    EXPECT_EQ(rec.live_stats().closed_stalled, 1);
}

// A client that takes every byte and acknowledges it keeps the slot through a game's pause
// longer than serve_stall_ms (nothing waits for it then), and gets every row after it.
TEST(LiveV2, AnAcknowledgingClientKeepsTheSlotThroughAPauseLongerThanTheStallTime) {
    Recorder rec(serving(200));
    ASSERT_GT(rec.serving_port(), 0);
    std::int64_t now = rec.start_ns();
    rec.begin_frame(now);  // the preamble: the handshake can go
    std::unique_ptr<LiveClient> client;
    std::thread connect(
        [&] { client = std::make_unique<LiveClient>(address(rec.serving_port())); });
    ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == 1; }));
    connect.join();
    std::vector<FrameRecord> rows;
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 40; ++i) {
            now += 1'000'000;
            rec.begin_frame(now);
        }
        rec.flush();
        const std::size_t want = static_cast<std::size_t>(40 * (round + 1));
        ASSERT_TRUE(eventually([&] {
            client->read(rows, 10);
            return rows.size() >= want;
        })) << "round "
            << round;
        // A pause of twice the stall time with nothing sent: not a stall.
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        client->read(rows, 0);
    }
    EXPECT_TRUE(client->connected());
    EXPECT_EQ(rec.live_stats().closed_stalled, 0);
    rec.close();
    EXPECT_EQ(rows.size(), 120u);
    EXPECT_EQ(rows.front().frame, 0);
    EXPECT_EQ(rows.back().frame, 119);
}

// A version 1 client reads the handshake's version, 2, and stops with its one line ("live stream
// protocol version 2, this loopscope reads version 1"); it never acknowledges, so the game frees
// the slot after serve_stall_ms. Here the bytes a version 1 client checks are read raw.
TEST(LiveV2, AVersion1ClientSeesVersion2AndItsSlotIsFreed) {
    Recorder rec(serving(200));
    std::int64_t now = rec.start_ns();
    rec.begin_frame(now);
    const int fd = connect_and_never_read(rec.serving_port());
    ASSERT_GE(fd, 0);
    std::string got;
    timeval tv{0, 200'000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    for (int i = 0; i < 50 && got.size() < 16; ++i) {
        char chunk[64];
        const auto n = recv(fd, chunk, sizeof chunk, 0);
        if (n > 0)
            got.append(chunk, static_cast<std::size_t>(n));
    }
    ASSERT_GE(got.size(), 16u);
    EXPECT_EQ(got.substr(0, 8), "LSCPLIVE");
    EXPECT_EQ(live_wire::get_u32(got.data() + 8), 2u);
    for (int i = 0; i < 10; ++i) {
        now += 1'000'000;
        rec.begin_frame(now);
    }
    rec.flush();
    EXPECT_TRUE(eventually([&] { return rec.live_stats().closed_stalled == 1; }));
    ::close(fd);
    rec.close();
}

// Zones and marks through the stream: `record --connect` writes them as trace v2 records, and
// the trace reads back with them.
TEST(LiveV2, ZonesAndMarksReachRecordConnectAndItsTraceReadsThem) {
    const std::string dir = test::make_temp_dir("live-v2-zones");
    RecorderOptions o = serving(2000);
    Recorder rec(o);
    const int port = rec.serving_port();
    ASSERT_GT(port, 0);
    test::RunResult recorded;
    std::thread client([&] {
        recorded = test::run_loopscope("record --connect " + address(port) + " -o '" + dir +
                                       "/live.trace'");
    });
    ASSERT_TRUE(eventually([&] { return rec.live_stats().clients == 1; }));
    std::int64_t now = rec.start_ns();
    for (int frame = 0; frame < 100; ++frame) {
        now += 16'000'000;
        rec.begin_frame(now);
        if (frame == 50) {
            const Recorder::ZoneStart start = rec.begin_zone();
            rec.end_zone("asset load", start);
            rec.mark("level 2 streamed in", now + 1'000'000);
        }
    }
    rec.close();
    client.join();
    ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
    EXPECT_NE(recorded.err.find("100 frames recorded"), std::string::npos) << recorded.err;
    EXPECT_NE(recorded.err.find("2 zones and marks"), std::string::npos) << recorded.err;
    const Capture c = read_capture(dir + "/live.trace");
    EXPECT_EQ(c.frames(), 100u);
    ASSERT_EQ(c.zones.size(), 1u);
    EXPECT_EQ(c.zones[0].label, "asset load");
    EXPECT_EQ(c.zones[0].frame, 50);
    ASSERT_EQ(c.marks.size(), 1u);
    EXPECT_EQ(c.marks[0].label, "level 2 streamed in");
    EXPECT_EQ(c.marks[0].t_ns - c.start_ns[50], 1'000'000);  // 1 ms into frame 50
    EXPECT_FALSE(c.attached_mid_run);                        // it got frame 0
    std::filesystem::remove_all(dir);
}

// A fake game on a loopback port that sends `bytes` and then waits for the client to hang up.
class FakeGame {
  public:
    explicit FakeGame(std::string bytes) {
        server_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof addr;
        if (bind(server_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
            listen(server_, 1) == 0 &&
            getsockname(server_, reinterpret_cast<sockaddr*>(&addr), &size) == 0)
            port_ = ntohs(addr.sin_port);
        thread_ = std::thread([this, bytes = std::move(bytes)] {
            const int c = accept(server_, nullptr, nullptr);
            std::size_t sent = 0;
            while (sent < bytes.size()) {
                const auto n = ::send(c, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
                if (n <= 0)
                    break;
                sent += static_cast<std::size_t>(n);
            }
            char sink[256];
            while (recv(c, sink, sizeof sink, 0) > 0) {
            }  // the acknowledgements, until the client hangs up
            ::close(c);
        });
    }
    ~FakeGame() {
        thread_.join();
        ::close(server_);
    }
    int port() const { return port_; }

  private:
    int server_ = -1;
    int port_ = 0;
    std::thread thread_;
};

std::vector<FrameRecord> frames(std::int64_t first, std::int64_t count) {
    std::vector<FrameRecord> rows;
    for (std::int64_t i = 0; i < count; ++i)
        rows.push_back(live_frame(first + i));
    return rows;
}

// A game that closes its recorder before sending a frame: no trace (`report` would refuse one
// of no frames), exit 2 and why.
TEST(LiveV2, RecordOfNoFramesWritesNoTraceAndSaysWhy) {
    const std::string dir = test::make_temp_dir("live-v2-none");
    FakeGame game(live_handshake() + live_end(""));
    ASSERT_GT(game.port(), 0);
    const auto r = test::run_loopscope_env(
        "timeout 60", "record --connect " + address(game.port()) + " -o '" + dir + "/t.trace'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err, "loopscope: error: " + address(game.port()) +
                         ": no frames received (the game closed its recorder first): no trace "
                         "written\n");
    EXPECT_FALSE(std::filesystem::exists(dir + "/t.trace"));
    std::filesystem::remove_all(dir);
}

// A protocol error after rows arrived: the rows are kept in a trace `report` reads, and `record`
// exits 2 naming the error.
TEST(LiveV2, RecordKeepsTheRowsReceivedBeforeAProtocolErrorAndNamesIt) {
    struct Case {
        std::string name;
        std::string bytes;  // after 30 good rows
        std::string error;
    };
    std::string batch257;
    test::put_u32(batch257, 1);
    test::put_u32(batch257, 257);
    batch257 += std::string(16, '\0');
    std::string unknown;
    test::put_u32(unknown, 9);
    test::put_u32(unknown, 0);
    std::string huge_end;
    test::put_u32(huge_end, 2);
    test::put_u32(huge_end, 2u << 20);
    const Case cases[] = {
        {"batch of 257 rows", batch257, "live stream batch of 257 rows (1 to 256)"},
        {"unknown type", unknown, "live stream message of unknown type 9"},
        {"oversized end", huge_end, "live stream end message of 2097152 bytes (at most 1048576)"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const std::string dir = test::make_temp_dir("live-v2-error");
        FakeGame game(live_handshake() + live_batch(frames(0, 30)) + c.bytes);
        ASSERT_GT(game.port(), 0);
        const auto r = test::run_loopscope_env(
            "timeout 60", "record --connect " + address(game.port()) + " -o '" + dir + "/t.trace'");
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("loopscope: error: " + address(game.port()) + ": " + c.error +
                             "; the 30 frames received before it are in " + dir + "/t.trace\n"),
                  std::string::npos)
            << r.err;
        const Capture capture = read_capture(dir + "/t.trace");
        EXPECT_EQ(capture.frames(), 30u);
        const auto report = test::run_loopscope("report '" + dir + "/t.trace'");
        EXPECT_EQ(report.exit_code, 0) << report.err;
        std::filesystem::remove_all(dir);
    }
}

// A record that joins a running game: the trace says so (its first frame is not the game's
// frame 0), and its report has no start-up segment for the game's ordinary hitch near the start,
// which the same frames from frame 0 on are reported as.
TEST(LiveV2, ARecordJoinedMidRunHasNoStartupSegment) {
    const auto recorded = [](std::int64_t first_frame, const std::string& dir) {
        std::vector<FrameRecord> rows = frames(first_frame, 240);
        rows[1].raw_ns = 400'000'000;  // a hitch among the first frames received
        std::string bytes = live_handshake();
        bytes += live_batch(std::span<const FrameRecord>(rows).subspan(0, 200));
        bytes += live_batch(std::span<const FrameRecord>(rows).subspan(200));
        bytes += live_end("");
        FakeGame game(bytes);
        const auto r = test::run_loopscope_env(
            "timeout 60", "record --connect " + address(game.port()) + " -o '" + dir + "/t.trace'");
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return test::run_loopscope("report '" + dir + "/t.trace'");
    };
    const std::string dir = test::make_temp_dir("live-v2-attach");
    const auto from_start = recorded(0, dir);
    ASSERT_EQ(from_start.exit_code, 0) << from_start.err;
    EXPECT_NE(from_start.out.find("Start-up segment"), std::string::npos) << from_start.out;
    EXPECT_FALSE(read_capture(dir + "/t.trace").attached_mid_run);

    const auto mid_run = recorded(5000, dir);
    ASSERT_EQ(mid_run.exit_code, 0) << mid_run.err;
    EXPECT_EQ(mid_run.out.find("Start-up segment"), std::string::npos) << mid_run.out;
    const std::string text = test::read_text(dir + "/t.trace");
    EXPECT_NE(text.find("\n# live_attached_at_frame: 5000\n"), std::string::npos);
    EXPECT_TRUE(read_capture(dir + "/t.trace").attached_mid_run);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
