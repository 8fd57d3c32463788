// A recording game hit by signals (Linux: the game is a child process forked by the test, running
// the loop engine and recording through include/loopscope/recorder.hpp as a game does):
// - kill -9 mid-recording: the trace reads back through loopscope's reader up to the last block
//   the writer finished, and its rows are exactly the first frames the game recorded;
// - SIGSTOP then SIGCONT: the trace shows one long frame, and the loop's clamp bounded the
//   steps taken for it.
// Only structure and bounds are asserted, never timings: these run on shared, noisy machines.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/loop_engine.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

using namespace std::chrono_literals;

// ---- kill -9 ------------------------------------------------------------------------------

constexpr std::int64_t kFlushEvery = 16;

LoopConfig fixed_interp(std::int64_t dt_ns, std::int64_t clamp_ns) {
    LoopConfig c;
    c.policy = Policy::fixed_interp;
    c.dt_ns = dt_ns;
    c.clamp_ns = clamp_ns;
    return c;
}

// The killed game runs on a scripted clock, so that every row it records is known in advance
// and the rows read back can be compared with it exactly; only where the kill lands is left to
// the real time. Frame i lasts length_ns(i); every 50th frame is longer than the clamp.
LoopConfig scripted_config() {
    return fixed_interp(4'000'000, 20'000'000);
}
std::int64_t length_ns(std::int64_t i) {
    return i % 50 == 49 ? 30'000'000 : 1'000'000 + (i % 7) * 137'000;
}
std::int64_t steps_phase_ns(std::int64_t i) {
    return 100'000 + (i % 3) * 10'000;
}
std::int64_t render_phase_ns(std::int64_t i) {
    return 200'000 + (i % 5) * 10'000;
}

// The rows the scripted game records, frame 0 first: the engine's records with the phase times
// the recorder measures (the wait runs to the next frame's start).
std::vector<FrameRecord> scripted_rows(std::int64_t frames) {
    LoopEngine engine(scripted_config());
    std::vector<FrameRecord> rows;
    for (std::int64_t i = 0; i < frames; ++i) {
        FrameRecord r = engine.advance(length_ns(i));
        r.step_cost_ns = steps_phase_ns(i);
        r.render_ns = render_phase_ns(i);
        r.wait_ns = length_ns(i + 1) - r.step_cost_ns - r.render_ns;
        rows.push_back(r);
    }
    return rows;
}

std::int64_t scripted_now_ns = 0;
std::int64_t scripted_clock() {
    return scripted_now_ns;
}

// The child: records scripted frames until it is killed. After every other block it waits
// until the writer has written it and tells the test, through `progress_fd`, how many frames
// are on disk at least; in between it runs on, so the kill lands anywhere.
[[noreturn]] void record_until_killed(const std::string& path, int progress_fd) {
    RecorderOptions o;
    o.path = path;
    o.clock_ns = &scripted_clock;
    o.write_start_time = false;
    o.flush_every = kFlushEvery;
    o.capacity = 4 * kFlushEvery;
    copy_loop_knobs(scripted_config(), o);
    scripted_now_ns = 0;
    Recorder rec(o);
    LoopEngine engine(scripted_config());
    for (std::int64_t i = 0;; ++i) {
        scripted_now_ns += length_ns(i);
        const std::int64_t begin = scripted_now_ns;
        rec.begin_frame(begin);  // commits frame i - 1, handing a full block over
        if (i > 0 && i % (2 * kFlushEvery) == 0) {
            rec.wait_for_writer();
            if (::write(progress_fd, &i, sizeof i) != sizeof i)
                ::_exit(3);
        }
        const FrameRecord r = engine.advance(length_ns(i));
        rec.loop(LoopFrame::of(r));
        rec.end_steps(begin + steps_phase_ns(i));
        rec.end_render(begin + steps_phase_ns(i) + render_phase_ns(i));
        std::this_thread::sleep_for(100us);
    }
}

TEST(RecorderFaults, KillNineLeavesATraceOfExactlyTheFirstFramesUpToTheLastWrittenBlock) {
    const std::string dir = test::make_temp_dir("recorder-kill");
    const std::string path = dir + "/t.csv";
    int progress[2];
    ASSERT_EQ(::pipe(progress), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(progress[0]);
        record_until_killed(path, progress[1]);
    }
    ::close(progress[1]);
    // Kill once at least 10 blocks are known to be on disk.
    std::int64_t on_disk = 0;
    while (on_disk < 10 * kFlushEvery) {
        std::int64_t n = 0;
        if (::read(progress[0], &n, sizeof n) != sizeof n)
            break;  // the child died on its own: the assertions below say so
        on_disk = n;
    }
    ::kill(child, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
    // What the child reported between the test's last read and the kill counts too.
    for (std::int64_t n = 0; ::read(progress[0], &n, sizeof n) == sizeof n;)
        on_disk = n;
    ::close(progress[0]);
    ASSERT_GE(on_disk, 10 * kFlushEvery);

    const Capture c = read_capture(path);
    const std::int64_t rows = static_cast<std::int64_t>(c.loop.size());
    EXPECT_GE(rows, on_disk);
    // Whole blocks, unless the kill cut the last write short (the reader then says so).
    EXPECT_TRUE(rows % kFlushEvery == 0 || !c.warnings.empty()) << rows;
    const std::vector<FrameRecord> expected = scripted_rows(rows);
    for (std::int64_t k = 0; k < rows; ++k) {
        const FrameRecord& got = c.loop[static_cast<std::size_t>(k)];
        const FrameRecord& want = expected[static_cast<std::size_t>(k)];
        SCOPED_TRACE(k);
        ASSERT_EQ(got.frame, want.frame);
        EXPECT_EQ(got.start_ns + c.clock_origin_ns, want.start_ns);  // t = 0 at the first row
        EXPECT_EQ(got.raw_ns, want.raw_ns);
        EXPECT_EQ(got.clamped_ns, want.clamped_ns);
        EXPECT_EQ(got.clamp_lost_ns, want.clamp_lost_ns);
        EXPECT_EQ(got.consumed_ns, want.consumed_ns);
        EXPECT_EQ(got.acc_before_ns, want.acc_before_ns);
        EXPECT_EQ(got.steps, want.steps);
        EXPECT_EQ(got.cap_dropped_ns, want.cap_dropped_ns);
        EXPECT_EQ(got.acc_after_ns, want.acc_after_ns);
        EXPECT_NEAR(got.alpha, want.alpha, 1e-6);
        EXPECT_EQ(got.step_cost_ns, want.step_cost_ns);
        EXPECT_EQ(got.render_ns, want.render_ns);
        // The last row's wait runs to a frame that may not have begun before the kill.
        if (k + 1 < rows) {
            EXPECT_EQ(got.wait_ns, want.wait_ns);
        }
    }
    std::filesystem::remove_all(dir);
}

// ---- SIGSTOP / SIGCONT ----------------------------------------------------------------------

// The stopped game runs on the real clock: 2 ms a frame, steps of 2 ms, frames clamped at 50 ms.
LoopConfig stopped_config() {
    return fixed_interp(2'000'000, 50'000'000);
}

// The child: a game loop on steady_clock recording every frame; tells the test through
// `running_fd` once it has run a few frames, and ends (closing its trace) when `stop_fd` becomes
// readable.
[[noreturn]] void record_until_told(const std::string& path, int running_fd, int stop_fd) {
    RecorderOptions o;
    o.path = path;
    o.flush_every = 16;
    o.capacity = 64;
    copy_loop_knobs(stopped_config(), o);
    int exit_code = 0;
    {
        Recorder rec(o);
        LoopEngine engine(stopped_config());
        std::int64_t previous = rec.start_ns();
        for (std::int64_t i = 0;; ++i) {
            const std::int64_t now = rec.now_ns();
            rec.begin_frame(now);
            const FrameRecord r = engine.advance(now - previous);
            previous = now;
            rec.loop(LoopFrame::of(r));
            if (i == 10 && ::write(running_fd, "r", 1) != 1)
                ::_exit(3);
            pollfd told{stop_fd, POLLIN, 0};
            if (::poll(&told, 1, 0) > 0)
                break;
            std::this_thread::sleep_for(2ms);
        }
        rec.close();
        exit_code = rec.ok() ? 0 : 1;
    }
    ::_exit(exit_code);
}

TEST(RecorderFaults, AStoppedAndContinuedGameShowsOneLongFrameWhoseStepsTheClampBounded) {
    const std::string dir = test::make_temp_dir("recorder-stop");
    const std::string path = dir + "/t.csv";
    int running[2], stop[2];
    ASSERT_EQ(::pipe(running), 0);
    ASSERT_EQ(::pipe(stop), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(running[0]);
        ::close(stop[1]);
        record_until_told(path, running[1], stop[0]);
    }
    ::close(running[1]);
    ::close(stop[0]);
    char byte = 0;
    ASSERT_EQ(::read(running[0], &byte, 1), 1) << "the game did not start";
    // Stopped for 6 clamps: far longer than any frame of a running loop, however busy the
    // machine, so that the stopped frame is the only one this long.
    constexpr auto kStopped = 300ms;
    ASSERT_EQ(::kill(child, SIGSTOP), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, WUNTRACED), child);  // stopped for certain
    ASSERT_TRUE(WIFSTOPPED(status));
    std::this_thread::sleep_for(kStopped);
    ASSERT_EQ(::kill(child, SIGCONT), 0);
    std::this_thread::sleep_for(50ms);  // a few frames after it
    ASSERT_EQ(::write(stop[1], "s", 1), 1);
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ::close(running[0]);
    ::close(stop[1]);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;

    const Capture c = read_capture(path);
    const LoopConfig config = stopped_config();
    EXPECT_EQ(c.metadata.at("clamp_ns"), std::to_string(config.clamp_ns));
    const std::int64_t stopped_ns = std::chrono::nanoseconds(kStopped).count();
    // With the accumulator below dt before a frame, a clamped frame takes at most this many.
    const std::int64_t most_steps = (config.clamp_ns + config.dt_ns - 1) / config.dt_ns;
    std::vector<std::size_t> long_frames;
    for (std::size_t i = 0; i < c.loop.size(); ++i) {
        const FrameRecord& r = c.loop[i];
        SCOPED_TRACE(i);
        EXPECT_EQ(r.frame, static_cast<std::int64_t>(i));
        EXPECT_GE(r.raw_ns, 0);
        EXPECT_LE(r.clamped_ns, config.clamp_ns);
        EXPECT_LE(r.steps, most_steps);
        EXPECT_LT(r.acc_after_ns, config.dt_ns);
        if (r.raw_ns >= stopped_ns)
            long_frames.push_back(i);
    }
    ASSERT_EQ(long_frames.size(), 1u);
    const FrameRecord& stalled = c.loop[long_frames.front()];
    EXPECT_EQ(stalled.clamped_ns, config.clamp_ns);
    EXPECT_EQ(stalled.clamp_lost_ns, stalled.raw_ns - config.clamp_ns);
    EXPECT_LE(stalled.acc_before_ns, config.clamp_ns + config.dt_ns - 1);
    EXPECT_EQ(stalled.steps, stalled.acc_before_ns / config.dt_ns);
    EXPECT_LT(long_frames.front() + 1, c.loop.size()) << "the loop ran on after the stop";
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
