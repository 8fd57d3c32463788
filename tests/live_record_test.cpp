// What `record --connect` makes of a live stream, apart from the network (tool/live_record.hpp):
// the trace it writes is one the trace reader takes whatever the peer sends (a preamble the
// reader would refuse stops it, a row it would refuse is left out and counted), it stays within
// its size bound with whole rows, and its count of missing frames never overflows. The client
// reads the same stream from memory as it reads it from a socket.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "readers/read_formats.hpp"
#include "tests/live_stream_bytes.hpp"
#include "tests/test_support.hpp"
#include "tool/live_client.hpp"
#include "tool/live_record.hpp"

namespace loopscope {
namespace {

using test::live_batch;
using test::live_end;
using test::live_frame;
using test::live_handshake;
using test::live_preamble;

// The whole file record would write for `rows`: preamble, rows, closing lines.
std::string trace_of(LiveRecording& recording, const std::vector<FrameRecord>& rows,
                     const std::string& trailer = "") {
    std::string text = recording.preamble();
    recording.take(rows, text);
    return text + recording.closing(trailer);
}

std::size_t frames_read_back(const std::string& text) {
    const std::string dir = test::make_temp_dir("loopscope-live-record");
    const std::string path = dir + "/trace.csv";
    test::write_text(path, text);
    return detail::read_trace_streams(path).at(0).frames();
}

TEST(LiveRecord, ARowTheReaderWouldRefuseIsLeftOutCountedAndNamed) {
    LiveRecording recording("game", live_preamble(), 1u << 20);
    std::vector<FrameRecord> rows = {live_frame(0), live_frame(1), live_frame(2), live_frame(3)};
    rows[1].raw_ns = -5;
    rows[2].alpha = std::numeric_limits<double>::quiet_NaN();
    const std::string text = trace_of(recording, rows, "# frames_dropped: 0\n");
    EXPECT_EQ(recording.frames(), 2);
    EXPECT_EQ(recording.left_out(), 2);
    EXPECT_EQ(recording.first_left_out(),
              "frame 1: expected a time >= 0 in column 'raw_ns', found -5");
    EXPECT_NE(text.find("# live_rows_left_out: 2 (the trace reader refuses them; the first, "
                        "frame 1: expected a time >= 0 in column 'raw_ns', found -5)\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("# frames_dropped: 0\n"), std::string::npos);
    EXPECT_EQ(frames_read_back(text), 2u);
}

TEST(LiveRecord, ColumnsAddingUpPastTheInt64RangeAreLeftOutAsTheReaderRefusesThem) {
    LiveRecording recording("game", live_preamble(), 1u << 20);
    std::vector<FrameRecord> rows = {live_frame(0), live_frame(1), live_frame(2)};
    rows[1].render_ns = INT64_MAX / 2 + 1;  // with frame 0's, the total still fits
    rows[2].render_ns = INT64_MAX / 2 + 1;  // with the ones before, the total passes 2^63
    rows[2].steps = 1;
    const std::string text = trace_of(recording, rows);
    EXPECT_EQ(recording.frames(), 2);
    EXPECT_EQ(recording.left_out(), 1);
    EXPECT_NE(recording.first_left_out().find("frame 2: the loop columns would add up past"),
              std::string::npos)
        << recording.first_left_out();
    EXPECT_EQ(frames_read_back(text), 2u);
}

TEST(LiveRecord, APreambleTheReaderWouldRefuseStopsTheRecordingNamingTheLine) {
    const auto refused = [](const std::string& preamble) {
        try {
            LiveRecording recording("127.0.0.1:7777", preamble, 1u << 20);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refused(std::string("\x01\x02binary", 8)).find("expected '# loopscope-trace v1'"),
              std::string::npos);
    EXPECT_NE(refused("# loopscope-trace v1\n# dt_ns: 0\n" + test::kLiveColumns + "\n")
                  .find("127.0.0.1:7777:2:1: the game's trace preamble: metadata 'dt_ns: 0'"),
              std::string::npos)
        << refused("# loopscope-trace v1\n# dt_ns: 0\n" + test::kLiveColumns + "\n");
    EXPECT_NE(refused("# loopscope-trace v1\nframe,raw_ns\n").find("where the header row belongs"),
              std::string::npos);
    EXPECT_NE(refused("# loopscope-trace v1\n# clock: x\n").find("has no header row"),
              std::string::npos);
    EXPECT_NE(refused(live_preamble() + "0,0,1,1,0,1,1,0,0,0,0,0,0,0\n")
                  .find("goes on after its header row"),
              std::string::npos);
    EXPECT_EQ(refused(live_preamble()), "accepted");
}

TEST(LiveRecord, ClosingLinesTheReaderWouldTakeDifferentlyAreLeftOutWithANote) {
    LiveRecording recording("game", live_preamble(), 1u << 20);
    const std::vector<FrameRecord> rows = {live_frame(0), live_frame(1)};
    const std::string text = trace_of(recording, rows, "# dt_ns: 1\nnot a comment\n");
    EXPECT_EQ(text.find("dt_ns: 1\n"), std::string::npos);
    EXPECT_NE(recording.closing_note().find("loop setting 'dt_ns' after the rows"),
              std::string::npos)
        << recording.closing_note();
    EXPECT_EQ(frames_read_back(text), 2u);
}

TEST(LiveRecord, MaxBytesKeepsWholeRowsAndTheFileWithinIt) {
    const std::uint64_t max_bytes = live_preamble().size() + 500;
    LiveRecording recording("game", live_preamble(), max_bytes);
    std::vector<FrameRecord> rows;
    for (int i = 0; i < 100; ++i)
        rows.push_back(live_frame(i));
    std::string text = recording.preamble();
    EXPECT_FALSE(recording.take(rows, text));
    text += recording.closing("");
    EXPECT_LE(text.size(), max_bytes);
    EXPECT_GT(recording.frames(), 0);
    EXPECT_LT(recording.frames(), 100);
    EXPECT_EQ(frames_read_back(text), static_cast<std::size_t>(recording.frames()));
    EXPECT_THROW(LiveRecording("game", live_preamble(), 10), UsageError);
}

TEST(LiveRecord, MissingFramesAreCountedWithoutOverflowing) {
    LiveRecording recording("game", live_preamble(), 1u << 20);
    std::vector<FrameRecord> rows = {live_frame(0), live_frame(3), live_frame(4)};
    std::string text;
    recording.take(rows, text);
    EXPECT_EQ(recording.missing(), 2);
    // Frame numbers from the most negative to the most positive: the gap is past int64.
    rows = {live_frame(0), live_frame(0)};
    rows[0].frame = INT64_MIN;
    rows[1].frame = INT64_MAX;
    LiveRecording wide("game", live_preamble(), 1u << 20);
    wide.take(rows, text);
    EXPECT_EQ(wide.missing(), INT64_MAX);
    rows = {live_frame(0), live_frame(0)};
    rows[0].frame = INT64_MAX;
    rows[1].frame = INT64_MIN;  // going back: no gap
    LiveRecording back("game", live_preamble(), 1u << 20);
    back.take(rows, text);
    EXPECT_EQ(back.missing(), 0);
}

TEST(LiveRecord, TheClientReadsAStreamFromMemoryAsFromASocket) {
    const std::vector<FrameRecord> rows = {live_frame(0), live_frame(1), live_frame(2)};
    const std::string stream =
        live_handshake() + live_batch(rows, 4) + live_end("# frames_dropped: 4\n");
    LiveClient client("memory", stream);
    EXPECT_EQ(client.clock(), "steady_clock");
    EXPECT_EQ(client.preamble(), live_preamble());
    std::vector<FrameRecord> got;
    EXPECT_FALSE(client.read(got, 0));
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[2].start_ns, rows[2].start_ns);
    EXPECT_EQ(got[1].alpha, 0.5);
    EXPECT_TRUE(client.ended_cleanly());
    EXPECT_EQ(client.trailer(), "# frames_dropped: 4\n");
    EXPECT_EQ(client.dropped_for_client(), 4u);
    // Cut in the handshake: an InputError, not a wait.
    EXPECT_THROW(LiveClient("memory", stream.substr(0, 20)), InputError);
}

}  // namespace
}  // namespace loopscope
