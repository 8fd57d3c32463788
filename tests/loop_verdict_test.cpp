// The loop verdict on the virtual clock: each state (ok, saturated, spiral), the onset at the
// first frame of the trouble and not on the plateau before it, the slow-motion factor, a loop
// whose render time rather than its step cost saturates the step cap, and the headroom's sign.
#include <gtest/gtest.h>

#include <vector>

#include "core/loop_figures.hpp"
#include "core/loop_scenarios.hpp"
#include "core/units.hpp"

namespace loopscope {
namespace {

std::vector<FrameRecord> replay(const std::vector<std::int64_t>& frames, const LoopConfig& c,
                                std::int64_t step_cost_ns) {
    std::vector<FrameRecord> out;
    run_replay(frames, c, step_cost_ns, [&](const FrameRecord& r) { out.push_back(r); });
    return out;
}

// `steady` frames of steady_ns, then frames of heavy_ns until `total`.
std::vector<std::int64_t> step_up(std::int64_t steady, std::int64_t steady_ns, std::int64_t total,
                                  std::int64_t heavy_ns) {
    std::vector<std::int64_t> frames(static_cast<std::size_t>(total), heavy_ns);
    for (std::int64_t i = 0; i < steady; ++i)
        frames[static_cast<std::size_t>(i)] = steady_ns;
    return frames;
}

// The mean steps a frame that the loop summary and diagnose print: steps over frames.
TEST(LoopVerdict, MeanStepsPerFrameIsStepsOverFrames) {
    LoopFigures f;
    EXPECT_EQ(f.mean_steps_per_frame(), 0.0);  // no frames
    f.frames = 4;
    f.steps = 10;
    EXPECT_DOUBLE_EQ(f.mean_steps_per_frame(), 2.5);
}

TEST(LoopVerdict, CheapStepsUnderNoPressureAreOkWithPositiveHeadroom) {
    LoopConfig c;
    c.max_steps = 4;
    const auto records = replay(std::vector<std::int64_t>(300, 10 * kNsPerMs), c, kNsPerMs);
    const LoopFigures f = compute_loop_figures(records, c);
    EXPECT_EQ(f.state, LoopState::ok);
    EXPECT_FALSE(f.onset_frame.has_value());
    EXPECT_FALSE(f.slow_motion_factor.has_value());
    // c_max = dt - r / cap with r the 10 ms of other time: 16.667 - 2.5 ms; c = 1 ms.
    ASSERT_TRUE(f.headroom_ns.has_value());
    EXPECT_NEAR(f.other_ns, 10.0 * kNsPerMs, 1.0);
    EXPECT_NEAR(*f.headroom_ns, static_cast<double>(kDefaultDtNs) - 2.5e6 - 1e6, 1.0);
    EXPECT_NE(f.headroom_formula.find("r / cap"), std::string::npos) << f.headroom_formula;
}

TEST(LoopVerdict, RenderTimeAloneSaturatesTheCapAtTheFrameItGrows) {
    // 100 frames of 10 ms, then 40 ms frames: with 1 ms steps and a cap of 2, a frame needs
    // 41 / (16.667 - 1) = 2.6 steps, more than the cap allows, although a step costs 1/16 of dt.
    LoopConfig c;
    c.max_steps = 2;
    const auto records = replay(step_up(100, 10 * kNsPerMs, 600, 40 * kNsPerMs), c, kNsPerMs);
    const LoopFigures f = compute_loop_figures(records, c);
    EXPECT_EQ(f.state, LoopState::saturated);
    ASSERT_TRUE(f.onset_frame.has_value());
    EXPECT_EQ(*f.onset_frame, 100);  // the first 40 ms frame, not a steady frame before it
    EXPECT_EQ(*f.onset_ns, records[100].start_ns);
    // From the onset on, each frame advances 2 dt in 40 ms + 2 steps of 1 ms of real time.
    ASSERT_TRUE(f.slow_motion_factor.has_value());
    EXPECT_NEAR(*f.slow_motion_factor, 2.0 * kDefaultDtNs / (42.0 * kNsPerMs), 0.01);
    EXPECT_NE(f.cause.find("cap of 2"), std::string::npos) << f.cause;
    // c_max = dt - r / 2 is negative once r passes 2 dt: the headroom is below zero.
    ASSERT_TRUE(f.headroom_ns.has_value());
    EXPECT_LT(*f.headroom_ns, 0);
}

TEST(LoopVerdict, FramesLongerThanTheClampSaturateIt) {
    LoopConfig c;
    c.clamp_ns = 100 * kNsPerMs;
    const auto records = replay(step_up(50, 10 * kNsPerMs, 300, 150 * kNsPerMs), c, kNsPerMs);
    const LoopFigures f = compute_loop_figures(records, c);
    EXPECT_EQ(f.state, LoopState::saturated);
    ASSERT_TRUE(f.onset_frame.has_value());
    EXPECT_EQ(*f.onset_frame, 50);
    EXPECT_NE(f.cause.find("clamp"), std::string::npos) << f.cause;
    ASSERT_TRUE(f.slow_motion_factor.has_value());
    EXPECT_LT(*f.slow_motion_factor, 0.8);
    EXPECT_GT(*f.slow_motion_factor, 0.5);  // about 100 ms of 150 + steps
}

TEST(LoopVerdict, AStepDearerThanDtIsASpiralWithOrWithoutGuards) {
    // A steady 60 Hz pattern, then the step cost of 1.2 dt it meets from the start.
    for (const std::int64_t cap : {0, 5}) {
        LoopConfig c;
        c.clamp_ns = 0;
        c.max_steps = cap;
        const auto records =
            replay(std::vector<std::int64_t>(200, 2 * kNsPerMs), c, kDefaultDtNs * 6 / 5);
        const LoopFigures f = compute_loop_figures(records, c);
        EXPECT_EQ(f.state, LoopState::spiral) << cap;
        ASSERT_TRUE(f.onset_frame.has_value()) << cap;
        EXPECT_LT(*f.onset_frame, 5) << cap;
        EXPECT_NE(f.cause.find("at least dt / timescale"), std::string::npos) << f.cause;
        ASSERT_TRUE(f.headroom_ns.has_value());
        EXPECT_LT(*f.headroom_ns, 0) << cap;
        if (cap > 0) {
            // Five steps of dt in 5 x 1.2 dt + 2 ms.
            ASSERT_TRUE(f.slow_motion_factor.has_value());
            EXPECT_NEAR(*f.slow_motion_factor, 5.0 * kDefaultDtNs / (6.0 * kDefaultDtNs + 2e6),
                        0.01);
        }
    }
}

TEST(LoopVerdict, ARunShorterThanOneWindowIsJudgedAsOneWindow) {
    // Steps of 12 ms at dt 1/120 and no guard: the frame time grows 1.44 times a frame and the
    // replay freezes within 30 frames; the verdict still sees the spiral.
    LoopConfig c;
    c.dt_ns = kDefaultDtNs / 2;
    c.clamp_ns = 0;
    std::vector<FrameRecord> records;
    const VirtualRunResult result =
        run_replay(std::vector<std::int64_t>(2000, 10 * kNsPerMs), c, 12 * kNsPerMs,
                   [&](const FrameRecord& r) { records.push_back(r); });
    ASSERT_TRUE(result.froze);
    ASSERT_LT(result.frames, kDefaultSpiralWindow);
    const LoopFigures f = compute_loop_figures(records, c);
    EXPECT_EQ(f.state, LoopState::spiral);
    EXPECT_TRUE(f.onset_frame.has_value());
    EXPECT_TRUE(loop_froze(f, c));
    EXPECT_FALSE(f.headroom_ns.has_value());  // the headroom needs a whole window
    for (std::int64_t window : {5, 30})
        EXPECT_EQ(compute_loop_figures(records, c, window).state, LoopState::spiral);
}

TEST(LoopVerdict, OnsetIsWhereTheBacklogStartsGrowingNotOnTheNoisyPlateauBeforeIt) {
    // Frames alternate 8 and 20 ms for 200 frames (a noisy plateau the loop keeps up with),
    // then every frame is 45 ms against a cap of 2 one-millisecond steps.
    LoopConfig c;
    c.max_steps = 2;
    std::vector<std::int64_t> frames(500, 45 * kNsPerMs);
    for (std::size_t i = 0; i < 200; ++i)
        frames[i] = (i % 2 == 0 ? 8 : 20) * kNsPerMs;
    const auto records = replay(frames, c, kNsPerMs);
    for (const std::int64_t window : {5, 30, 90}) {
        const LoopFigures f = compute_loop_figures(records, c, window);
        EXPECT_EQ(f.state, LoopState::saturated) << window;
        ASSERT_TRUE(f.onset_frame.has_value()) << window;
        EXPECT_EQ(*f.onset_frame, 200) << window;
    }
}

TEST(LoopVerdict, TheSpiralScenariosMoveFromOkToTrouble) {
    const Scenario* s = find_scenario("spiral-cap");
    ASSERT_NE(s, nullptr);
    std::vector<FrameRecord> records;
    run_virtual(s->model, s->config, s->frames,
                [&](const FrameRecord& r) { records.push_back(r); });
    // Before the ramp passes c_max = dt - r / 5 the loop is ok: the first 300 frames alone.
    const LoopFigures early =
        compute_loop_figures(std::span<const FrameRecord>(records.data(), 300), s->config);
    EXPECT_EQ(early.state, LoopState::ok);
    ASSERT_TRUE(early.headroom_ns.has_value());
    EXPECT_GT(*early.headroom_ns, 0);
    const LoopFigures all = compute_loop_figures(records, s->config);
    EXPECT_EQ(all.state, LoopState::spiral);
    ASSERT_TRUE(all.onset_frame.has_value());
    // The step cost at the onset is within a few frames' ramp of c_max (the trouble starts
    // where the cap can no longer cover the render time), below dt itself.
    VirtualClock clock(s->model);
    const double at_onset = static_cast<double>(clock.step_cost_at(*all.onset_frame));
    EXPECT_LT(at_onset, static_cast<double>(kDefaultDtNs));
    EXPECT_GT(at_onset, static_cast<double>(kDefaultDtNs) - 2.0 * s->model.render_ns);
}

}  // namespace
}  // namespace loopscope
