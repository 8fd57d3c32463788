// Peak memory of `loopscope report` (and `probe compare`) on inputs made to amplify memory: JSON
// nested millions of levels deep, a PresentMon file whose every row opens a new stream, CapFrameX
// files with the largest metadata allowed and the most streams, a device that never ends, and
// the densest capture there is (a plain list, three bytes a frame). Each runs in a child process
// whose peak resident memory (wait4's ru_maxrss) must stay within the bound docs/reliability.md
// states: the program's own (measured here on a small capture) + kFixedBytes + kBytesPerInputByte
// x the input's size. Linux: wait4 reports the child's peak. Skipped under the sanitizers, whose
// shadow memory and quarantine are no measure of the program's.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "readers/readers.hpp"
#include "tests/test_support.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define LOOPSCOPE_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define LOOPSCOPE_UNDER_SANITIZER 1
#endif
#endif

namespace loopscope::test {
namespace {

namespace fs = std::filesystem;

// The bound of docs/reliability.md ("Memory"): the stream table and the metadata, both capped,
// fit in kFixedBytes whatever the input; the rest grows at most kBytesPerInputByte a byte.
constexpr std::int64_t kFixedBytes = 8 << 20;
constexpr std::int64_t kBytesPerInputByte = 16;

struct Measured {
    int exit_code = -1;
    std::int64_t peak_bytes = 0;
};

// Runs `loopscope ARGS` with its output thrown away and returns its exit code and peak memory.
Measured run_measured(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(LOOPSCOPE_EXE));
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t child = ::fork();
    if (child == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::dup2(null, 2);
        ::execv(LOOPSCOPE_EXE, argv.data());
        ::_exit(127);
    }
    Measured m;
    int status = 0;
    rusage usage{};
    if (child < 0 || ::wait4(child, &status, 0, &usage) != child)
        return m;
    m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    m.peak_bytes = static_cast<std::int64_t>(usage.ru_maxrss) * 1024;  // ru_maxrss is in KiB
    return m;
}

void write_repeated(const std::string& path, const std::string& head, const std::string& unit,
                    std::int64_t times, const std::string& tail) {
    std::ofstream out(path, std::ios::binary);
    out << head;
    for (std::int64_t i = 0; i < times; ++i)
        out << unit;
    out << tail;
}

const char* const kPresentMonHeader =
    "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,"
    "TimeInSeconds,msInPresentAPI,msBetweenPresents\n";

// `rows` rows, each of a process of its own.
std::string stream_per_row(std::int64_t rows) {
    std::string text;
    for (std::int64_t i = 0; i < rows; ++i) {
        text += "game" + std::to_string(i) + ".exe," + std::to_string(i) + ",0x" +
                std::to_string(1000000 + i) + ",DXGI,1,0,0," + std::to_string(i) + ".0,0.3,16.6\n";
    }
    return text;
}

class ReliabilityMemory : public ::testing::Test {
  protected:
    void SetUp() override {
#ifdef LOOPSCOPE_UNDER_SANITIZER
        GTEST_SKIP() << "peak memory is not the program's under a sanitizer";
#endif
        dir_ = make_temp_dir("loopscope-memory");
        const Measured small = run_measured({"report", test_data("presentmon1.csv")});
        ASSERT_EQ(small.exit_code, 0);
        base_bytes_ = small.peak_bytes;
    }
    void TearDown() override {
        if (!dir_.empty())
            fs::remove_all(dir_);
    }

    // Runs the command on `input` and checks its exit code and its peak against the bound.
    void expect_bounded(const std::vector<std::string>& args, const std::string& input,
                        int exit_code) {
        const std::int64_t input_bytes =
            fs::is_regular_file(input) ? static_cast<std::int64_t>(fs::file_size(input)) : 0;
        const Measured m = run_measured(args);
        EXPECT_EQ(m.exit_code, exit_code) << input;
        const std::int64_t bound = base_bytes_ + kFixedBytes + kBytesPerInputByte * input_bytes;
        EXPECT_GT(m.peak_bytes, 0) << input;
        EXPECT_LE(m.peak_bytes, bound)
            << input << ": " << input_bytes << " bytes read with a peak of " << m.peak_bytes
            << " bytes (the program alone: " << base_bytes_ << ")";
    }

    std::string dir_;
    std::int64_t base_bytes_ = 0;
};

TEST_F(ReliabilityMemory, JsonNestedMillionsOfLevelsDeepIsRefusedInBoundedMemory) {
    const std::string path = dir_ + "/deep.json";
    write_repeated(path, "{\"Runs\":", "[", 2'000'000, "");
    expect_bounded({"report", path}, path, 2);
}

TEST_F(ReliabilityMemory, APresentMonFileWithANewStreamOnEveryRowStaysBounded) {
    const std::string most = dir_ + "/streams.csv";
    write_text(most, kPresentMonHeader + stream_per_row(4096));  // the most streams allowed
    expect_bounded({"report", most}, most, 0);
    const std::string over = dir_ + "/too-many-streams.csv";
    write_text(over, kPresentMonHeader + stream_per_row(50'000));
    expect_bounded({"report", over}, over, 2);
}

TEST_F(ReliabilityMemory, CapFrameXMetadataIsKeptOnceNotOncePerStream) {
    // 64 KiB of //Key=Value lines (the most allowed) and 4096 streams: copied into every
    // stream, this took 280 MB.
    std::string preamble;
    for (int k = 0; k < 16; ++k)
        preamble += "//Key" + std::to_string(k) + "=" + std::string(4000, 'x') + "\n";
    const std::string csv = dir_ + "/capframex.csv";
    write_text(csv, preamble + kPresentMonHeader + stream_per_row(4096));
    expect_bounded({"report", csv}, csv, 0);

    // The JSON session: 960 KB of Info strings and 4096 runs (it took 19 GB).
    std::string info = "{\"Info\":{";
    for (int k = 0; k < 16; ++k)
        info += (k ? ",\"K" : "\"K") + std::to_string(k) + "\":\"" + std::string(60000, 'x') + "\"";
    info += "},\"Runs\":[";
    std::string runs;
    for (int i = 0; i < 4096; ++i)
        runs += std::string(i ? "," : "") + "{\"CaptureData\":{\"MsBetweenPresents\":[16.6]}}";
    const std::string json = dir_ + "/capframex.json";
    write_text(json, info + runs + "]}");
    expect_bounded({"report", json}, json, 0);
}

TEST_F(ReliabilityMemory, ADeviceThatNeverEndsIsRefusedAtItsFirstBlock) {
    if (!fs::exists("/dev/zero"))
        GTEST_SKIP() << "/dev/zero is not there";
    // Input size 0: the bound is the program's own plus the fixed part.
    expect_bounded({"report", "/dev/zero"}, "/dev/zero", 2);
    const std::string probe = dir_ + "/probe.json";
    write_text(probe, "{}");
    expect_bounded({"probe", "compare", probe, "/dev/zero"}, "/dev/zero", 2);
}

TEST_F(ReliabilityMemory, TheDensestCaptureAPlainListStaysWithinTheFactor) {
    // Three bytes a frame, the fewest any format takes: the highest memory per input byte.
    const std::string path = dir_ + "/plain.txt";
    write_repeated(path, "", "16\n", 1'000'000, "");
    expect_bounded({"report", path}, path, 0);
}

TEST_F(ReliabilityMemory, ATraceReportKeepsTheFrameTimesNotTheLoopRecords) {
    // A report over a whole trace computes the loop figures while reading and analyses views of
    // the frame times: the frame and start times (16 bytes a frame) and a sorted copy with its
    // scratch (16 more). Keeping the loop records (112 bytes a frame) and copying the series
    // took 250 bytes a frame (2.26 GB for 9 M frames).
    constexpr std::int64_t kFrames = 400'000;
    constexpr std::int64_t kBytesPerFrame = 48;
    const std::string path = dir_ + "/t.trace";
    const RunResult run = run_loopscope("run --clock virtual --frames " + std::to_string(kFrames) +
                                        " -o '" + path + "' >/dev/null");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    for (const char* format : {"terminal", "json"}) {
        const Measured m = run_measured({"report", path, "--format", format});
        EXPECT_EQ(m.exit_code, 0) << format;
        EXPECT_LE(m.peak_bytes, base_bytes_ + kFixedBytes + kBytesPerFrame * kFrames)
            << format << ": " << kFrames << " frames reported with a peak of " << m.peak_bytes
            << " bytes (the program alone: " << base_bytes_ << ")";
    }
}

TEST(ReliabilityMemoryTrace, ATraceIsReadWithoutRoomForTwiceItsFrames) {
    // Vectors grown by doubling held up to twice a trace's frames (2.3 GB for 9 M frames); the
    // reader reserves room for the rows the file holds once it has measured the first rows.
    const std::string dir = make_temp_dir("loopscope-memory");
    const std::string path = dir + "/t.trace";
    // Just past a power of two (2^17 rows), where doubling leaves the most room unused.
    const RunResult run =
        run_loopscope("run --clock virtual --frames 140000 -o '" + path + "' >/dev/null");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const Capture c = read_capture(path);
    ASSERT_EQ(c.loop.size(), 140000u);
    // The estimate from the first rows runs a little over (later rows have more digits).
    const auto most = [&](std::size_t frames) { return frames + frames / 8 + 1024; };
    EXPECT_LE(c.loop.capacity(), most(c.loop.size()));
    EXPECT_LE(c.frame_ns.capacity(), most(c.frame_ns.size()));
    EXPECT_LE(c.start_ns.capacity(), most(c.start_ns.size()));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace loopscope::test
