// The analysis on two threads (the figures that need no sorting computed while the frames are
// sorted) gives what one thread gives, figure for figure; and run_beside, which runs the two
// halves, runs both, and throws as one thread would.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>

#include "common/output_file.hpp"
#include "core/analysis.hpp"
#include "core/beside.hpp"
#include "core/frame_stats.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"
#include "writers/writer.hpp"

namespace loopscope {
namespace {

// A PresentMon-like capture long enough for the second thread: a slow start-up, jitter,
// hitches, stretches of alternating short and long frames (frame generation detected), and a
// display column with dropped frames.
Capture long_capture(std::size_t frames) {
    Capture c;
    describe_as(c, "presentmon-1");
    c.source.file = "generated.csv";
    c.source.process = "game.exe";
    std::mt19937_64 rng(11);
    std::normal_distribution<double> jitter(0.0, 400'000.0);
    std::int64_t t = 1'000'000'000;
    for (std::size_t i = 0; i < frames; ++i) {
        std::int64_t f = 10'400'000 + static_cast<std::int64_t>(jitter(rng));
        if (i < 3)
            f = 250'000'000;  // start-up
        else if (i % 4999 == 0)
            f += 90'000'000;  // a hitch
        else if ((i / 1000) % 3 == 1)
            f = i % 2 ? 4'000'000 : 12'600'000;  // alternation
        const bool dropped = i % 7 == 0;
        // The PC latency alternates with the presents: frame generation detected, estimated.
        c.pc_latency_ns.push_back((i / 1000) % 3 == 1 && i % 2 ? 40'000'000 : 30'000'000);
        c.frame_ns.push_back(f);
        c.start_ns.push_back(t);
        c.display_ns.push_back(dropped ? -1 : 8'333'333 * (1 + static_cast<std::int64_t>(i % 3)));
        c.dropped.push_back(dropped ? 1 : 0);
        t += f;
    }
    return c;
}

std::string json_of(const Capture& capture, unsigned threads, const std::string& dir) {
    AnalysisOptions options;
    options.threads = threads;
    Report report;
    report.captures.push_back(analyse_capture(capture, options));
    const std::string file = dir + "/report.json";
    {
        OutputFile out(file);
        make_writer("json", {})->write(report, out);
        out.commit();
    }
    return test::read_text(file);
}

TEST(AnalysisThreads, TwoThreadsGiveTheReportOfOne) {
    const Capture c = long_capture(3 * kFramesForSecondThread);
    const std::string dir = test::make_temp_dir("loopscope-analysis-threads");
    const std::string one = json_of(c, 1, dir);
    // The capture reaches every part that moves to the second thread.
    EXPECT_NE(one.find("\"startup\""), std::string::npos);
    EXPECT_NE(one.find("\"display\""), std::string::npos);
    EXPECT_NE(one.find("frame generation detected"), std::string::npos);
    for (const unsigned threads : {2u, 8u, 0u}) {
        SCOPED_TRACE(threads);
        EXPECT_TRUE(json_of(c, threads, dir) == one);
    }
}

TEST(AnalysisThreads, FrameStatsOnTwoThreadsAreThoseOfOne) {
    const Capture c = long_capture(kFramesForSecondThread + 17);
    const FrameStats one = compute_frame_stats(c.frame_ns, c.start_ns, true, {}, 1);
    const FrameStats two = compute_frame_stats(c.frame_ns, c.start_ns, true, {}, 2);
    EXPECT_EQ(two.frame_time.p99_ms, one.frame_time.p99_ms);
    EXPECT_EQ(two.frame_time.mean_ms, one.frame_time.mean_ms);
    EXPECT_EQ(two.fps.p1_low, one.fps.p1_low);
    EXPECT_EQ(two.stutter.frames, one.stutter.frames);
    EXPECT_EQ(two.hitches.hitches.size(), one.hitches.hitches.size());
    EXPECT_EQ(two.variation.counts, one.variation.counts);
    EXPECT_EQ(two.refresh.rate_hz, one.refresh.rate_hz);
    EXPECT_EQ(two.refresh.on_grid_share, one.refresh.on_grid_share);
    EXPECT_GT(one.stutter.frames.size(), 0u);
    EXPECT_GT(one.hitches.hitches.size(), 0u);
}

TEST(RunBeside, RunsBothOnASecondThreadWhenAsked) {
    std::thread::id beside_id, here_id;
    run_beside(
        true, [&] { beside_id = std::this_thread::get_id(); },
        [&] { here_id = std::this_thread::get_id(); });
    EXPECT_EQ(here_id, std::this_thread::get_id());
    EXPECT_NE(beside_id, std::thread::id{});
    EXPECT_NE(beside_id, here_id);
}

TEST(RunBeside, RunsBothOnThisThreadOtherwise) {
    std::atomic<int> order{0};
    int beside_at = 0, here_at = 0;
    std::thread::id beside_id;
    run_beside(
        false,
        [&] {
            beside_at = ++order;
            beside_id = std::this_thread::get_id();
        },
        [&] { here_at = ++order; });
    EXPECT_EQ(here_at, 1);
    EXPECT_EQ(beside_at, 2);
    EXPECT_EQ(beside_id, std::this_thread::get_id());
}

TEST(RunBeside, ThrowsHeresErrorFirstThenBesides) {
    for (const bool use_thread : {false, true}) {
        SCOPED_TRACE(use_thread);
        try {
            run_beside(
                use_thread, [] { throw std::runtime_error("beside"); },
                [] { throw std::runtime_error("here"); });
            ADD_FAILURE() << "nothing thrown";
        } catch (const std::runtime_error& e) {
            EXPECT_STREQ(e.what(), "here");
        }
        bool here_ran = false;
        try {
            run_beside(
                use_thread, [] { throw std::runtime_error("beside"); }, [&] { here_ran = true; });
            ADD_FAILURE() << "nothing thrown";
        } catch (const std::runtime_error& e) {
            EXPECT_STREQ(e.what(), "beside");
        }
        EXPECT_TRUE(here_ran);
    }
}

}  // namespace
}  // namespace loopscope
