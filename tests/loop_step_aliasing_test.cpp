// The loop figures beside the verdict, on the virtual clock: step aliasing (frames that run 0
// steps beside frames that run 2), the loop's animation error with exact expectations per
// policy, the first frame that holds the game's initialisation, and the start-up segment that
// ends before a verdict's onset.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/loop_figures.hpp"
#include "core/loop_scenarios.hpp"
#include "core/units.hpp"
#include "readers/readers.hpp"

namespace loopscope {
namespace {

LoopFigures replay_figures(const std::vector<std::int64_t>& frames, const LoopConfig& c,
                           std::int64_t step_cost_ns = 0) {
    LoopFiguresBuilder builder(c);
    run_replay(frames, c, step_cost_ns, [&](const FrameRecord& r) { builder.add(r); });
    return builder.figures();
}

// 16.4 ms and 16.933 ms in turn: each pair is exactly two steps of 1/60 s.
std::vector<std::int64_t> straddling(std::size_t n) {
    std::vector<std::int64_t> frames(n);
    for (std::size_t i = 0; i < n; ++i)
        frames[i] = i % 2 == 0 ? 16'400'000 : 16'933'334;
    return frames;
}

LoopConfig config(Policy policy, std::int64_t dt_ns) {
    LoopConfig c;
    c.policy = policy;
    c.dt_ns = dt_ns;
    return c;
}

TEST(StepAliasing, FrameTimesStraddlingDtAlternateZeroAndTwoStepsOnEveryFrame) {
    const LoopFigures f =
        replay_figures(straddling(3000), config(Policy::fixed_interp, 16'666'667));
    EXPECT_EQ(f.steps_histogram.at(0), 1500);
    EXPECT_EQ(f.steps_histogram.at(2), 1500);
    EXPECT_EQ(f.step_flip_frames, 3000);
    EXPECT_EQ(f.step_aliasing_frames, 3000);
    EXPECT_GE(f.step_aliasing_share, 0.5);
    EXPECT_DOUBLE_EQ(f.step_aliasing_share, 1.0);
    EXPECT_DOUBLE_EQ(f.aliasing_zero_step_ns, 16'400'000.0);
    EXPECT_DOUBLE_EQ(f.aliasing_multi_step_ns, 16'933'334.0);
    ASSERT_EQ(f.findings.size(), 1u);
    EXPECT_NE(f.findings[0].find("steps alternate 0/2 on 100.0 % of frames: frame times (16.400 / "
                                 "16.933 ms) straddle dt (16.667 ms)"),
              std::string::npos)
        << f.findings[0];
    EXPECT_NE(f.findings[0].find("(64 Hz)"), std::string::npos) << f.findings[0];
    ASSERT_EQ(f.aliasing_stretches.size(), 1u);
    EXPECT_EQ(f.aliasing_stretches[0].first_frame, 0);
    EXPECT_EQ(f.aliasing_stretches[0].last_frame, 2999);
    // Without interpolation the fix names it.
    const LoopFigures plain = replay_figures(straddling(3000), config(Policy::fixed, 16'666'667));
    ASSERT_EQ(plain.findings.size(), 1u);
    EXPECT_NE(plain.findings[0].find("interpolate (fixed-interp)"), std::string::npos);
}

TEST(StepAliasing, ADisplayLockedAtDtWithJitteryTimeStampsAliasesInStretches) {
    // Presents on a 60 Hz grid, each time stamp read up to 0.3 ms off: the frame times jitter,
    // their sum does not, so the accumulator stays by the step boundary and the steps flip
    // between 0 and 2 on about two frames in five (seeds 1, 2, 3 and 7 give 0.37 to 0.39).
    for (std::uint64_t seed : {1u, 2u, 3u, 7u}) {
        SeededRandom random(seed);
        std::vector<std::int64_t> frames;
        std::int64_t previous = 0;
        for (std::int64_t k = 1; k <= 3000; ++k) {
            const std::int64_t stamp = k * 16'666'667 + random.symmetric(300'000);
            frames.push_back(stamp - previous);
            previous = stamp;
        }
        const LoopFigures f = replay_figures(frames, config(Policy::fixed_interp, 16'666'667));
        EXPECT_GE(f.step_aliasing_share, 0.3) << seed;
        ASSERT_FALSE(f.findings.empty()) << seed;
        EXPECT_NE(f.findings[0].find("(64 Hz)"), std::string::npos) << f.findings[0];
        EXPECT_LE(
            replay_figures(frames, config(Policy::fixed_interp, 15'625'000)).step_aliasing_share,
            0.02)
            << seed;
    }
}

TEST(StepAliasing, AStepRateThatDoesNotMatchTheFramesHasNone) {
    const LoopFigures f =
        replay_figures(straddling(3000), config(Policy::fixed_interp, 15'625'000));
    EXPECT_LE(f.step_aliasing_share, 0.02);
    EXPECT_EQ(f.steps_histogram.count(0), 0u);
    EXPECT_TRUE(f.findings.empty());
}

TEST(StepAliasing, ALonePairAfterAHitchIsTheHitchNotThePattern) {
    // Steady one-step frames; a short frame runs none and the long one after it two: one
    // flip of frames near dt, alone in its window.
    std::vector<std::int64_t> frames(600, 16'666'667);
    frames[300] = 13'000'000;
    frames[301] = 20'400'000;
    const LoopFigures f = replay_figures(frames, config(Policy::fixed_interp, 16'666'667));
    EXPECT_EQ(f.step_flip_frames, 2);
    EXPECT_EQ(f.step_aliasing_frames, 0);
    EXPECT_TRUE(f.findings.empty());
}

TEST(StepAliasing, HitchesAndTheBurstsAfterThemAreStutterNotAliasing) {
    // Frames of 12 ms at dt 1/60; every fourth pair a 40 ms hitch and a 0.4 ms present after
    // it: the steps flip 2/0 over and over, but far from dt.
    std::vector<std::int64_t> frames(600, 12'000'000);
    for (std::size_t i = 10; i + 1 < frames.size(); i += 8) {
        frames[i] = 40'000'000;
        frames[i + 1] = 400'000;
    }
    const LoopFigures f = replay_figures(frames, config(Policy::fixed, 16'666'667));
    EXPECT_GT(f.step_flip_frames, 0);
    EXPECT_EQ(f.step_aliasing_frames, 0);
    EXPECT_TRUE(f.findings.empty());
}

TEST(StepAliasing, FlipsCountInAWindowWhereAQuarterOfTheFramesAreFlips) {
    // One-step frames of dt, with 0/2 pairs (a short frame, then a long one) at chosen frames:
    // 4 pairs (8 flips) inside 30 frames reach a quarter of the window; 3 pairs do not.
    const auto with_pairs = [](const std::vector<int>& at) {
        std::vector<std::int64_t> frames(300, 10'000'000);
        for (int i : at) {
            frames[static_cast<std::size_t>(i)] = 5'000'000;
            frames[static_cast<std::size_t>(i) + 1] = 15'000'000;
        }
        return frames;
    };
    const LoopConfig c = config(Policy::fixed, 10'000'000);
    const LoopFigures three = replay_figures(with_pairs({100, 108, 116}), c);
    EXPECT_EQ(three.step_flip_frames, 6);
    EXPECT_EQ(three.step_aliasing_frames, 0);
    const LoopFigures four = replay_figures(with_pairs({100, 108, 116, 124}), c);
    EXPECT_EQ(four.step_flip_frames, 8);
    EXPECT_EQ(four.step_aliasing_frames, 8);
    EXPECT_DOUBLE_EQ(four.step_aliasing_share, 8.0 / 300.0);
    ASSERT_EQ(four.aliasing_stretches.size(), 1u);
    EXPECT_EQ(four.aliasing_stretches[0].first_frame, 100);
    EXPECT_EQ(four.aliasing_stretches[0].last_frame, 125);
    // Under 5 % of the frames: counted, but no finding.
    EXPECT_TRUE(four.findings.empty());
}

TEST(StepAliasing, TheFiguresAreTheSameOneFrameAtATimeWhateverTheRunLength) {
    // A run shorter than a window is judged as one window of all its frames.
    const LoopFigures f = replay_figures(straddling(10), config(Policy::fixed, 16'666'667));
    EXPECT_EQ(f.step_aliasing_frames, 10);
    // figures() may be asked at any time and leaves the builder as it was.
    LoopFiguresBuilder builder(config(Policy::fixed, 16'666'667));
    std::int64_t asked = 0;
    run_replay(straddling(200), config(Policy::fixed, 16'666'667), 0, [&](const FrameRecord& r) {
        builder.add(r);
        asked = builder.figures().step_aliasing_frames;
    });
    EXPECT_EQ(asked, 200);
    EXPECT_EQ(builder.figures().step_aliasing_frames, 200);
}

// ---- animation error ----

TEST(LoopAnimationError, WithoutInterpolationEachFrameIsOffByStepsTimesDtMinusItsTime) {
    // 0 and 2 steps of 16.666667 ms against frames of 16.4 and 16.933334 ms: every frame's
    // shown time moves 16.4 ms off the real time's move.
    const LoopFigures f = replay_figures(straddling(1000), config(Policy::fixed, 16'666'667));
    EXPECT_EQ(f.animation_error_frames, 999);
    EXPECT_DOUBLE_EQ(f.animation_error_mean_ns, 16'400'000.0);
    EXPECT_DOUBLE_EQ(f.animation_error_p99_ns, 16'400'000.0);
    EXPECT_EQ(f.animation_error_max_ns, 16'400'000);
    EXPECT_NE(f.animation_error_expected.find("fixed shows t"), std::string::npos);
}

TEST(LoopAnimationError, InterpolationAndExtrapolationMoveWithTheClockExactly) {
    for (Policy p : {Policy::fixed_interp, Policy::fixed_extrap}) {
        const LoopFigures f = replay_figures(straddling(1000), config(p, 16'666'667));
        EXPECT_EQ(f.animation_error_max_ns, 0) << policy_name(p);
        EXPECT_DOUBLE_EQ(f.animation_error_mean_ns, 0.0);
    }
    const LoopFigures interp = replay_figures(straddling(10), config(Policy::fixed_interp, 1));
    EXPECT_NE(interp.animation_error_expected.find("one step in the past by design"),
              std::string::npos);
    // A timescale scales both clocks alike.
    LoopConfig slow = config(Policy::fixed_interp, 16'666'667);
    slow.timescale = 0.5;
    EXPECT_EQ(
        replay_figures(std::vector<std::int64_t>(500, 16'000'000), slow).animation_error_max_ns, 0);
}

TEST(LoopAnimationError, TheClampAndTheStepsTimeBeforeRenderingShowAsError) {
    // 99 frames of 10 ms and one of 300 ms cut to 250 ms: that frame's shown time moves 50 ms
    // less than the clock.
    std::vector<std::int64_t> frames(100, 10'000'000);
    frames[50] = 300'000'000;
    LoopConfig c = config(Policy::fixed_interp, 10'000'000);
    const LoopFigures f = replay_figures(frames, c);
    EXPECT_EQ(f.animation_error_max_ns, 50'000'000);
    EXPECT_DOUBLE_EQ(f.animation_error_mean_ns, 50'000'000.0 / 99.0);
    EXPECT_DOUBLE_EQ(f.animation_error_p99_ns, 50'000'000.0);  // the 99th of 99 errors
    // A step cost: the frame renders at its start plus its steps' time. Frames of dt with a
    // modelled step cost c carried into the next frame: frame i measures dt + c, and its shown
    // time moves by that; its render instant moves by dt + c too once every frame runs one step,
    // so the error is the difference of the step counts' costs, 0 on steady one-step frames.
    const LoopFigures costed = replay_figures(std::vector<std::int64_t>(50, 10'000'000),
                                              config(Policy::fixed_interp, 10'000'000), 1'000'000);
    EXPECT_GT(costed.animation_error_max_ns, 0);
    EXPECT_LE(costed.animation_error_max_ns, 1'000'000);
}

// ---- the first frame ----

TEST(FirstFrame, AFrameZeroHoldingInitialisationIsFlaggedWithTheClampItTook) {
    std::vector<std::int64_t> frames(300, 16'666'667);
    frames[0] = 1'840'000'000;
    const LoopFigures f = replay_figures(frames, config(Policy::fixed_interp, 16'666'667));
    EXPECT_TRUE(f.first_frame_initialisation);
    ASSERT_EQ(f.findings.size(), 1u);
    EXPECT_EQ(f.findings[0],
              "frame 0 took 1.840 s (initialisation), clamped to 250.000 ms: simulation time and "
              "timers started at frame 0 run 250.000 ms ahead; start the clock after "
              "initialisation");
    // Without the clamp: the steps it ran at once.
    LoopConfig no_clamp = config(Policy::fixed_interp, 16'666'667);
    no_clamp.clamp_ns = 0;
    const LoopFigures g = replay_figures(frames, no_clamp);
    ASSERT_EQ(g.findings.size(), 1u);
    EXPECT_NE(g.findings[0].find("frame 0 took 1.840 s (initialisation"), std::string::npos);
    EXPECT_NE(g.findings[0].find("its 110 steps advanced the simulation 1.840 s at once"),
              std::string::npos)
        << g.findings[0];
}

TEST(FirstFrame, AnOrdinaryOrMerelyLongFirstFrameIsNot) {
    std::vector<std::int64_t> frames(300, 16'666'667);
    EXPECT_TRUE(replay_figures(frames, config(Policy::fixed_interp, 16'666'667)).findings.empty());
    frames[0] = 40'000'000;  // long, but neither cut by the clamp nor four steps
    EXPECT_TRUE(replay_figures(frames, config(Policy::fixed_interp, 16'666'667)).findings.empty());
    // Every frame as long as the clamp: frame 0 is like the rest.
    EXPECT_FALSE(replay_figures(std::vector<std::int64_t>(300, 400'000'000),
                                config(Policy::fixed_interp, 16'666'667))
                     .first_frame_initialisation);
}

// ---- the start-up segment and the onset ----

// The spiral scenario as `diagnose` runs it (the ramp compressed into its first 60 frames), on
// the virtual clock, as a trace capture.
Capture spiral_capture() {
    const Scenario* s = find_scenario("spiral-clamp-cap");
    EXPECT_NE(s, nullptr);
    FrameModel model = s->model;
    model.ramp_start_frame = 0;
    model.ramp_frames = 60;
    Capture c;
    c.source.file = "spiral.csv";
    describe_as(c, "loopscope-trace");
    c.per_frame = true;
    run_virtual(model, s->config, 400, [&](const FrameRecord& r) {
        c.loop.push_back(r);
        c.frame_ns.push_back(r.raw_ns);
        c.start_ns.push_back(r.start_ns);
    });
    c.metadata["policy"] = std::string(policy_name(s->config.policy));
    c.metadata["dt_ns"] = std::to_string(s->config.dt_ns);
    c.metadata["clamp_ns"] = std::to_string(s->config.clamp_ns);
    c.metadata["max_steps"] = std::to_string(s->config.max_steps);
    return c;
}

TEST(StartupBeforeOnset, TheSpiralsOnsetStaysInTheAnalysedRange) {
    const Capture c = spiral_capture();
    const CaptureReport r = analyse_capture(c, AnalysisOptions{});
    ASSERT_TRUE(r.loop_figures);
    ASSERT_TRUE(r.loop_figures->onset_frame);
    const std::int64_t onset = *r.loop_figures->onset_frame;
    // Without the rule, the frames before the onset are far off the slow-motion median and
    // would be set aside as start-up, with the onset among them.
    const StartupSegment whole = detect_startup(r.series.frame_ns);
    ASSERT_GT(whole.frames, 0u);
    EXPECT_GT(r.series.frame_number[whole.frames - 1], onset);
    // With it, the segment ends before the onset.
    if (r.startup.frames > 0) {
        EXPECT_LT(r.series.frame_number[r.startup.frames - 1], onset);
    }
    EXPECT_GT(r.stats.stutter.frames.size() + r.steady.stutter.frames.size(), 0u);
}

}  // namespace
}  // namespace loopscope
