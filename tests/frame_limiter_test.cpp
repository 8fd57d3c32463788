// The frame limiters on a fake clock: exact frame starts, pacing errors and CPU time for each way
// of waiting, the catch-up after a late frame and the resync after a missed one.
#include <gtest/gtest.h>

#include "probes/frame_limiter.hpp"
#include "tests/timer_fake_clock.hpp"

namespace loopscope {
namespace {

using test::FakeClock;

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kUs = 1'000;

TEST(FrameLimiter, NamesAreStable) {
    EXPECT_EQ((LimiterSpec{LimiterKind::sleep, 0}.name()), "sleep");
    EXPECT_EQ((LimiterSpec{LimiterKind::sleep_spin, kMs / 2}.name()), "sleep+spin 0.5ms");
    EXPECT_EQ((LimiterSpec{LimiterKind::sleep_spin, 2 * kMs}.name()), "sleep+spin 2ms");
    EXPECT_EQ((LimiterSpec{LimiterKind::spin, 0}.name()), "spin");
    EXPECT_EQ((LimiterSpec{LimiterKind::delay_ms, 0}.name()), "SDL_Delay");
}

TEST(FrameLimiter, SleepToAbsoluteDeadlinesDoesNotAccumulateAConstantOvershoot) {
    FakeClock clock;
    clock.default_overshoot_ns = 100 * kUs;
    const LimiterRun run = run_limiter({LimiterKind::sleep, 0}, clock, 16'666'667, 5);
    EXPECT_EQ(run.error_ns, (std::vector<std::int64_t>(5, 0)));
    EXPECT_EQ(run.cpu_ns, (std::vector<std::int64_t>(5, 0)));
    EXPECT_EQ(clock.sleeps, 6);  // the first wait only starts the schedule
    EXPECT_EQ(clock.slept_to_ns.back(), 6 * 16'666'667);
    EXPECT_EQ(run.resyncs, 0);
}

TEST(FrameLimiter, ALateFrameIsFollowedByAShortOne) {
    FakeClock clock;
    clock.overshoots_ns = {0, 0, 3 * kMs, 0, 0};
    const LimiterRun run = run_limiter({LimiterKind::sleep, 0}, clock, 10 * kMs, 4);
    EXPECT_EQ(run.error_ns, (std::vector<std::int64_t>{0, 3 * kMs, -3 * kMs, 0}));
    EXPECT_EQ(run.resyncs, 0);
}

TEST(FrameLimiter, AFrameAWholePeriodLateRestartsTheSchedule) {
    FakeClock clock;
    clock.overshoots_ns = {0, 25 * kMs};
    const LimiterRun run = run_limiter({LimiterKind::sleep, 0}, clock, 10 * kMs, 2);
    // Woke at 45 ms instead of 20 ms: the 30 ms and 40 ms deadlines are dropped and the next
    // frame is due one period after the late one.
    EXPECT_EQ(run.error_ns, (std::vector<std::int64_t>{25 * kMs, 0}));
    EXPECT_EQ(clock.slept_to_ns, (std::vector<std::int64_t>{10 * kMs, 20 * kMs, 55 * kMs}));
    EXPECT_EQ(run.resyncs, 1);
}

TEST(FrameLimiter, SleepThenSpinSleepsToTheMarginAndSpinsTheRest) {
    FakeClock clock;
    clock.default_overshoot_ns = 100 * kUs;
    const LimiterRun run = run_limiter({LimiterKind::sleep_spin, kMs}, clock, 10 * kMs, 3);
    EXPECT_EQ(run.error_ns, (std::vector<std::int64_t>(3, 0)));
    // Wakes 0.9 ms before each deadline and spins it away in 1 us steps.
    EXPECT_EQ(run.cpu_ns, (std::vector<std::int64_t>(3, 900 * kUs)));
    EXPECT_EQ(clock.slept_to_ns,
              (std::vector<std::int64_t>{9 * kMs, 19 * kMs, 29 * kMs, 39 * kMs}));
}

TEST(FrameLimiter, SleepThenSpinLateBeyondTheMarginIsLate) {
    FakeClock clock;
    clock.overshoots_ns = {0, 1500 * kUs, 0};
    const LimiterRun run = run_limiter({LimiterKind::sleep_spin, kMs}, clock, 10 * kMs, 2);
    // Frame 1 overslept the 1 ms margin by 0.5 ms, and spent no time spinning.
    EXPECT_EQ(run.error_ns, (std::vector<std::int64_t>{500 * kUs, -500 * kUs}));
    EXPECT_EQ(run.cpu_ns, (std::vector<std::int64_t>{0, 1000 * kUs}));
}

TEST(FrameLimiter, SpinBurnsTheWholeFrame) {
    FakeClock clock;
    const LimiterRun run = run_limiter({LimiterKind::spin, 0}, clock, 10 * kMs, 3);
    EXPECT_EQ(run.error_ns, (std::vector<std::int64_t>(3, 0)));
    EXPECT_EQ(run.cpu_ns, (std::vector<std::int64_t>(3, 10 * kMs)));
    EXPECT_EQ(clock.sleeps, 0);
}

TEST(FrameLimiter, DelayInWholeMillisecondsRoundsDownAndJitters) {
    FakeClock clock;
    const LimiterRun run = run_limiter({LimiterKind::delay_ms, 0}, clock, 16'666'667, 3);
    // Deadlines 16.667, 33.333, 50.000, 66.667 ms; starts 16, 33, 50, 66 ms.
    EXPECT_EQ(clock.delayed_ms, (std::vector<std::uint32_t>{16, 17, 17, 16}));
    EXPECT_EQ(run.error_ns, (std::vector<std::int64_t>{333'333, 333'333, -666'667}));
}

TEST(FrameLimiter, APassedDeadlineReturnsAtOnce) {
    for (const LimiterSpec& spec :
         {LimiterSpec{LimiterKind::sleep, 0}, LimiterSpec{LimiterKind::sleep_spin, kMs},
          LimiterSpec{LimiterKind::spin, 0}, LimiterSpec{LimiterKind::delay_ms, 0},
          LimiterSpec{LimiterKind::adaptive_spin, kMs}}) {
        FakeClock clock;
        clock.now = 5 * kMs;
        wait_until_deadline(spec, clock, 4 * kMs);
        EXPECT_EQ(clock.now, 5 * kMs) << spec.name();
        EXPECT_EQ(clock.sleeps + clock.delays + clock.spins, 0) << spec.name();
    }
}

TEST(AdaptiveMargin, ALateWakeUpRaisesTheMarginAtOnceAndAnEarlyOneLowersItSlowly) {
    const std::int64_t period = 10 * kMs;
    // Woke 2 ms late with 1 ms of margin: the next covers 2 ms and a quarter more.
    EXPECT_EQ(adaptive_margin_next_ns(kMs, 2 * kMs, period), 2'500'000);
    // Woke 200 us late with 1 ms: an eighth of the 800 us to spare comes off.
    EXPECT_EQ(adaptive_margin_next_ns(kMs, 200 * kUs, period), 900'000);
    // Waking early counts as on time.
    EXPECT_EQ(adaptive_margin_next_ns(kMs, -300 * kUs, period), 875'000);
    // Never below the floor, never over half the period.
    EXPECT_EQ(adaptive_margin_next_ns(kAdaptiveMinMarginNs, 0, period), kAdaptiveMinMarginNs);
    EXPECT_EQ(adaptive_margin_next_ns(kMs, 8 * kMs, period), period / 2);
}

TEST(FrameLimiter, TheAdaptiveLimiterCarriesALateSleepIntoTheNextFramesMargin) {
    FakeClock clock;
    clock.spin_step_ns = 10 * kUs;
    // Sleeps wake 300 us late, then one wakes 3 ms late, then 300 us again.
    clock.overshoots_ns = {300 * kUs, 300 * kUs, 3 * kMs, 300 * kUs, 300 * kUs, 300 * kUs};
    const std::int64_t period = 10 * kMs;
    FrameLimiter limiter({LimiterKind::adaptive_spin, kMs}, period, clock);
    std::vector<std::int64_t> margins, starts;
    for (int i = 0; i < 6; ++i) {
        starts.push_back(limiter.wait());
        margins.push_back(limiter.margin_ns());
    }
    // 1 ms - 700/8 us, then 912.5 us - 612.5/8 us (rounded toward zero): shrinking toward 300 us.
    EXPECT_EQ(margins[0], 912'500);
    EXPECT_EQ(margins[1], 835'938);
    // The 3 ms wake-up overran the deadline: the next margin covers it.
    EXPECT_EQ(margins[2], 3'750'000);
    EXPECT_LT(margins[5], margins[3]);
    // Every frame but the late one starts on its deadline, to a spin step: the margin covered
    // the sleep; the late one is 2.164 ms past it (3 ms late from 835.9 us before it) and,
    // the schedule being absolute, the next frame starts on its own deadline all the same.
    for (int i : {0, 1, 3, 4, 5})
        EXPECT_LE(starts[static_cast<std::size_t>(i)] - (i + 1) * period, 10 * kUs) << i;
    EXPECT_EQ(starts[2] - 3 * period, 3 * kMs - 835'938);
    EXPECT_EQ(limiter.resyncs(), 0);
    // A lone wait is sleep+spin with the starting margin.
    FakeClock lone;
    wait_until_deadline({LimiterKind::adaptive_spin, kMs}, lone, 10 * kMs);
    EXPECT_EQ(lone.slept_to_ns, (std::vector<std::int64_t>{9 * kMs}));
    EXPECT_EQ(lone.now, 10 * kMs);
}

TEST(FrameLimiter, AVariantIsNamedAfterItsKindAndItsWayToSleep) {
    EXPECT_EQ((LimiterSpec{LimiterKind::adaptive_spin, kMs}.name()), "adaptive spin");
    LimiterSpec spec{LimiterKind::sleep_spin, 2 * kMs};
    spec.variant = "Sleep";
    EXPECT_EQ(spec.name(), "sleep+spin 2ms (Sleep)");
}

TEST(FrameLimiter, ZeroFramesMeasuresNothing) {
    FakeClock clock;
    const LimiterRun run = run_limiter({LimiterKind::sleep, 0}, clock, 10 * kMs, 0);
    EXPECT_TRUE(run.error_ns.empty());
    EXPECT_EQ(clock.sleeps, 0);
}

}  // namespace
}  // namespace loopscope
