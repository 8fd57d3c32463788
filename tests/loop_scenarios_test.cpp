// The virtual clock and the built-in scenarios: exact, reproducible runs, and the spiral of death
// found where the model puts it.
#include "core/loop_scenarios.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <vector>

#include "core/loop_figures.hpp"
#include "core/units.hpp"

namespace loopscope {
namespace {

std::vector<FrameRecord> run(const FrameModel& model, const LoopConfig& config, std::int64_t frames,
                             VirtualRunResult* result = nullptr) {
    std::vector<FrameRecord> out;
    const VirtualRunResult r =
        run_virtual(model, config, frames, [&](const FrameRecord& rec) { out.push_back(rec); });
    if (result)
        *result = r;
    return out;
}

bool same_bits(const std::vector<FrameRecord>& a, const std::vector<FrameRecord>& b) {
    return a.size() == b.size() &&
           std::memcmp(a.data(), b.data(), a.size() * sizeof(FrameRecord)) == 0;
}

TEST(VirtualClock, DisplayRefreshesAreRoundedOnce) {
    EXPECT_EQ(display_refresh_ns(60, 1), 16'666'667);
    EXPECT_EQ(display_refresh_ns(60, 2), 33'333'333);
    EXPECT_EQ(display_refresh_ns(144, 144), kNsPerS);
    EXPECT_EQ(display_refresh_ns(144, 0), 0);
}

TEST(VirtualClock, A60HzDisplayAndDtOf1Over60StayInStep) {
    // Refresh k at round(k / 60 s): frames of 16666667, 16666666, 16666667 ns, on average
    // 1/60 s exactly, so over ten minutes the loop runs one step of dt = 16666667 every frame
    // (after the first two, which set the phase) and the accumulator drifts by 1 ns in 3 frames
    // only: never a whole step.
    FrameModel m;
    m.render_ns = 2 * kNsPerMs;
    m.display_hz = 60;
    LoopConfig c;
    const auto records = run(m, c, 36'000);
    ASSERT_EQ(records.size(), 36'000u);
    for (std::size_t i = 1; i < records.size(); ++i) {
        ASSERT_EQ(records[i].start_ns, display_refresh_ns(60, static_cast<std::int64_t>(i))) << i;
        if (i >= 3) {
            ASSERT_EQ(records[i].steps, 1) << i;
        }
    }
    const std::int64_t drift = records[2].acc_after_ns - records.back().acc_after_ns;
    EXPECT_GE(drift, 0);
    EXPECT_LE(drift, 36'000 / 3 + 1);
}

TEST(VirtualClock, FramesWaitForTheNextRefreshAndMissedRefreshesDoubleTheFrame) {
    FrameModel m;
    m.display_hz = 60;
    m.render_ns = 20 * kNsPerMs;  // longer than one refresh: every frame takes two
    const auto records = run(m, LoopConfig{}, 10);
    for (std::size_t i = 1; i < records.size(); ++i) {
        EXPECT_NEAR(static_cast<double>(records[i].raw_ns), 2e9 / 60, 1.0) << i;
        EXPECT_EQ(records[i - 1].render_ns + records[i - 1].step_cost_ns + records[i - 1].wait_ns,
                  records[i].raw_ns);
    }
}

TEST(VirtualClock, StepCostRampsLinearlyAndHolds) {
    FrameModel m;
    m.step_cost_ns = 100;
    m.step_cost_end_ns = 200;
    m.ramp_start_frame = 10;
    m.ramp_frames = 100;
    VirtualClock clock(m);
    EXPECT_EQ(clock.step_cost_at(0), 100);
    EXPECT_EQ(clock.step_cost_at(10), 100);
    EXPECT_EQ(clock.step_cost_at(60), 150);
    EXPECT_EQ(clock.step_cost_at(110), 200);
    EXPECT_EQ(clock.step_cost_at(5000), 200);
}

TEST(VirtualClock, SpikesAndPeriodicHitchesLengthenTheFollowingFrame) {
    FrameModel m;
    m.render_ns = kNsPerMs;
    m.spikes = {Spike{5, 300 * kNsPerMs}};
    m.hitch_every_frames = 4;
    m.hitch_ns = 10 * kNsPerMs;
    LoopConfig c;
    c.clamp_ns = 0;
    const auto records = run(m, c, 12);
    EXPECT_EQ(records[6].raw_ns, 301 * kNsPerMs + records[5].step_cost_ns);
    EXPECT_EQ(records[5].raw_ns, 11 * kNsPerMs + records[4].step_cost_ns);  // frame 4 hitched
    EXPECT_EQ(records[9].raw_ns, 11 * kNsPerMs + records[8].step_cost_ns);  // frame 8 hitched
    EXPECT_EQ(records[8].raw_ns, 1 * kNsPerMs + records[7].step_cost_ns);
}

TEST(VirtualClock, SameSeedGivesBitIdenticalRunsAndAnotherSeedDoesNot) {
    FrameModel m;
    m.render_ns = 5 * kNsPerMs;
    m.step_cost_ns = 2 * kNsPerMs;
    m.jitter_ns = 3 * kNsPerMs;
    m.seed = 42;
    const auto a = run(m, LoopConfig{}, 2000);
    const auto b = run(m, LoopConfig{}, 2000);
    EXPECT_TRUE(same_bits(a, b));
    m.seed = 43;
    const auto c = run(m, LoopConfig{}, 2000);
    EXPECT_FALSE(same_bits(a, c));
    std::set<std::int64_t> distinct;
    for (const auto& r : a)
        distinct.insert(r.raw_ns);
    EXPECT_GT(distinct.size(), 100u);  // the jitter is there
}

TEST(VirtualClock, EveryBuiltinScenarioIsReproducibleBitForBit) {
    for (const Scenario& s : builtin_scenarios()) {
        const auto a = run(s.model, s.config, s.frames);
        const auto b = run(s.model, s.config, s.frames);
        EXPECT_FALSE(a.empty()) << s.name;
        EXPECT_TRUE(same_bits(a, b)) << s.name;
    }
}

TEST(Spiral,
     StepCostOf1Point2DtWithoutGuardsGrowsTheAccumulatorEveryFrameAndOnsetIsInTheFirstWindow) {
    FrameModel m;
    m.render_ns = kNsPerMs;
    m.step_cost_ns = kDefaultDtNs * 6 / 5;
    LoopConfig c;
    c.clamp_ns = 0;
    c.max_steps = 0;
    VirtualRunResult result;
    const auto records = run(m, c, 400, &result);
    ASSERT_GT(records.size(), 60u);
    for (std::size_t i = 1; i < records.size(); ++i) {
        ASSERT_GT(records[i].acc_before_ns, records[i - 1].acc_before_ns) << "frame " << i;
    }
    EXPECT_TRUE(result.froze);  // frame times grow by 1.2x a frame until the loop freezes
    const LoopFigures f = compute_loop_figures(records, c);
    ASSERT_TRUE(f.onset_frame.has_value());
    EXPECT_LT(*f.onset_frame, kDefaultSpiralWindow);
    EXPECT_EQ(f.clamp_lost_ns, 0);
    EXPECT_EQ(f.cap_dropped_ns, 0);
    ASSERT_TRUE(f.headroom_ns.has_value());
    EXPECT_LT(*f.headroom_ns, 0);
}

TEST(Spiral, StepCapOf5PlateausAtFiveStepsAndReportsTheSlowMotionFactor) {
    FrameModel m;
    m.render_ns = kNsPerMs;
    m.step_cost_ns = kDefaultDtNs * 6 / 5;
    LoopConfig c;
    c.clamp_ns = 0;
    c.max_steps = 5;
    VirtualRunResult result;
    const auto records = run(m, c, 600, &result);
    EXPECT_FALSE(result.froze);
    ASSERT_EQ(records.size(), 600u);
    for (std::size_t i = 100; i < records.size(); ++i) {
        ASSERT_EQ(records[i].steps, 5) << i;
        ASSERT_GT(records[i].cap_dropped_ns, 0) << i;
        ASSERT_EQ(records[i].raw_ns, 5 * m.step_cost_ns + m.render_ns) << i;
    }
    const LoopFigures f = compute_loop_figures(records, c);
    EXPECT_EQ(f.max_steps_per_frame, 5);
    ASSERT_TRUE(f.onset_frame.has_value());
    ASSERT_TRUE(f.slow_motion_factor.has_value());
    // On the plateau 5 steps of dt take 5 * 1.2 dt + 1 ms of real time.
    const double plateau = 5.0 * kDefaultDtNs / (5.0 * m.step_cost_ns + m.render_ns);
    EXPECT_NEAR(*f.slow_motion_factor, plateau, 0.01);
    EXPECT_GT(f.cap_frames, 400);
    EXPECT_EQ(static_cast<std::int64_t>(f.engagements.size()), f.cap_frames);
}

TEST(Spiral, NoOnsetWhileStepsAreCheap) {
    const Scenario* s = find_scenario("steady-60");
    ASSERT_NE(s, nullptr);
    const auto records = run(s->model, s->config, s->frames);
    const LoopFigures f = compute_loop_figures(records, s->config);
    EXPECT_EQ(f.state, LoopState::ok);
    EXPECT_FALSE(f.onset_frame.has_value());
    EXPECT_FALSE(f.slow_motion_factor.has_value());
    ASSERT_TRUE(f.headroom_ns.has_value());
    // Every step costs exactly 1 ms in this scenario: the headroom is dt - 1 ms.
    EXPECT_DOUBLE_EQ(*f.headroom_ns, static_cast<double>(kDefaultDtNs - kNsPerMs));
}

TEST(Scenarios, ClassicCasesGiveTheStepPatternsTheArticlesDescribe) {
    auto steps_seen = [](const std::string& name) {
        const Scenario* s = find_scenario(name);
        EXPECT_NE(s, nullptr) << name;
        std::set<std::int64_t> seen;
        if (!s)
            return seen;
        const auto records = run(s->model, s->config, s->frames);
        for (std::size_t i = 2; i < records.size(); ++i)
            seen.insert(records[i].steps);
        return seen;
    };
    EXPECT_EQ(steps_seen("steady-60"), (std::set<std::int64_t>{1}));
    EXPECT_EQ(steps_seen("display-144-sim-60"), (std::set<std::int64_t>{0, 1}));
    EXPECT_EQ(steps_seen("sim-60-display-50"), (std::set<std::int64_t>{1, 2}));
}

TEST(Scenarios, DebuggerPauseIsClampedTo250Ms) {
    const Scenario* s = find_scenario("debugger-pause-5s");
    ASSERT_NE(s, nullptr);
    const auto records = run(s->model, s->config, s->frames);
    const FrameRecord& r = records[121];
    EXPECT_GT(r.raw_ns, 5 * kNsPerS);
    EXPECT_EQ(r.clamped_ns, 250 * kNsPerMs);
    EXPECT_EQ(r.clamp_lost_ns, r.raw_ns - 250 * kNsPerMs);
    const LoopFigures f = compute_loop_figures(records, s->config);
    EXPECT_EQ(f.clamp_frames, 1);
    EXPECT_EQ(f.clamp_lost_ns, r.clamp_lost_ns);
    EXPECT_FALSE(f.onset_frame.has_value());
    EXPECT_EQ(f.state, LoopState::ok);  // one clamped frame is no persistent engagement
}

TEST(Scenarios, SpiralRampsAreFoundAndTheGuardsKeepTheLoopAlive) {
    for (const std::string name :
         {"spiral-no-guards", "spiral-clamp", "spiral-cap", "spiral-clamp-cap"}) {
        const Scenario* s = find_scenario(name);
        ASSERT_NE(s, nullptr) << name;
        std::vector<FrameRecord> records;
        VirtualRunResult result;
        records = run(s->model, s->config, s->frames, &result);
        EXPECT_EQ(result.froze, name == "spiral-no-guards") << name;
        const LoopFigures f = compute_loop_figures(records, s->config);
        ASSERT_TRUE(f.onset_frame.has_value()) << name;
        // The step cost passes dt half-way through the ramp (frame 360).
        EXPECT_GT(*f.onset_frame, 300) << name;
        EXPECT_LT(*f.onset_frame, 420) << name;
        ASSERT_TRUE(f.slow_motion_factor.has_value()) << name;
        if (name == "spiral-no-guards") {
            // Nothing drops time: the simulation keeps up with real time while frames grow
            // until the loop freezes.
            EXPECT_NEAR(*f.slow_motion_factor, 1.0, 0.01) << name;
        } else {
            EXPECT_LT(*f.slow_motion_factor, 0.95) << name;  // the guards buy time with speed
            EXPECT_GT(*f.slow_motion_factor, 0.3) << name;
        }
        // The ramp ends at 1.5 dt: by then no number of steps catches up.
        EXPECT_EQ(f.state, LoopState::spiral) << name;
        ASSERT_TRUE(f.headroom_ns.has_value()) << name;
        EXPECT_LT(*f.headroom_ns, 0) << name;  // over the limit: the headroom is negative
    }
}

TEST(Replay, StepCostFeedsIntoTheNextFrame) {
    const std::vector<std::int64_t> frames(10, 20 * kNsPerMs);
    LoopConfig c;
    c.dt_ns = 10 * kNsPerMs;
    std::vector<FrameRecord> out;
    run_replay(frames, c, 3 * kNsPerMs, [&](const FrameRecord& r) { out.push_back(r); });
    ASSERT_EQ(out.size(), 10u);
    EXPECT_EQ(out[0].raw_ns, 20 * kNsPerMs);
    EXPECT_EQ(out[0].steps, 2);
    EXPECT_EQ(out[0].step_cost_ns, 6 * kNsPerMs);
    EXPECT_EQ(out[1].raw_ns, 26 * kNsPerMs);
}

TEST(TimeAccumulation, TenHoursAt144HzFloatDriftsDoubleBarelyInt64Exact) {
    const TimeAccumulation a = accumulate_display_frames(144, 10 * 3600 * kNsPerS);
    EXPECT_EQ(a.frames, 144 * 3600 * 10);
    EXPECT_EQ(a.exact_ns, 10 * 3600 * kNsPerS);
    EXPECT_EQ(a.int64_error_ns(), 0);
    EXPECT_GT(std::abs(a.float_error_ns()), 1e9);  // seconds off after ten hours
    EXPECT_LT(std::abs(a.double_error_ns()), 1e5);
    EXPECT_GT(std::abs(a.double_error_ns()), 0.0);
}

}  // namespace
}  // namespace loopscope
