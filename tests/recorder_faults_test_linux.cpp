// The recorder when the disk fills up mid-recording (Linux: a file-size limit, RLIMIT_FSIZE, makes
// writes past it fail as a full disk would): the game neither crashes nor blocks, ok() turns
// false, and every frame is accounted for exactly: the whole rows in the file are the recorded
// frames, and all the others are counted as dropped.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <sstream>
#include <string>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

std::int64_t fake_now = 0;
std::int64_t fake_clock() {
    return fake_now;
}

// Whole rows: lines that end in a line break and are not the preamble or the header.
std::int64_t whole_rows(const std::string& text) {
    std::int64_t rows = 0;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
        if (text[start] != '#' && text.compare(start, 6, "frame,") != 0)
            ++rows;
    }
    return rows;
}

class FileSizeLimit {
  public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &saved_);
        previous_ = std::signal(SIGXFSZ, SIG_IGN);  // a failed write, not a killed process
        rlimit limit = saved_;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, previous_);
    }

  private:
    rlimit saved_{};
    void (*previous_)(int) = nullptr;
};

TEST(RecorderFaults, AFullDiskMidRecordingLosesFramesCountedExactly) {
    for (const bool background : {true, false}) {
        const std::string dir = test::make_temp_dir("recorder-faults");
        const std::string path = dir + "/t.csv";
        RecorderOptions o;
        o.path = path;
        o.clock_ns = &fake_clock;
        o.write_start_time = false;
        o.flush_every = 64;
        o.capacity = 256;
        o.background_writer = background;
        constexpr std::int64_t kFrames = 20'000;
        std::int64_t recorded = 0, dropped = 0;
        bool ok = true;
        {
            const FileSizeLimit limit(40'000);  // about 800 rows
            fake_now = 0;
            Recorder rec(o);
            for (std::int64_t i = 0; i < kFrames; ++i) {
                fake_now += 16'666'667;
                rec.begin_frame();
                rec.loop(
                    {.acc_before_ns = 16'666'667, .steps = 1, .acc_after_ns = 0, .alpha = 0.0});
                if (i % 64 == 0)
                    rec.wait_for_writer();  // paced, so that the writer is never a ring behind
            }
            rec.close();
            recorded = rec.recorded_frames();
            dropped = rec.dropped_frames();
            ok = rec.ok();
        }
        EXPECT_FALSE(ok) << background;
        EXPECT_EQ(recorded + dropped, kFrames) << background;
        EXPECT_GT(recorded, 0) << background;
        EXPECT_EQ(recorded, whole_rows(test::read_text(path))) << background;
        std::filesystem::remove_all(dir);
    }
}

}  // namespace
}  // namespace loopscope
