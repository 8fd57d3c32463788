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
    for (const LimiterSpec spec :
         {LimiterSpec{LimiterKind::sleep, 0}, LimiterSpec{LimiterKind::sleep_spin, kMs},
          LimiterSpec{LimiterKind::spin, 0}, LimiterSpec{LimiterKind::delay_ms, 0}}) {
        FakeClock clock;
        clock.now = 5 * kMs;
        wait_until_deadline(spec, clock, 4 * kMs);
        EXPECT_EQ(clock.now, 5 * kMs) << spec.name();
        EXPECT_EQ(clock.sleeps + clock.delays + clock.spins, 0) << spec.name();
    }
}

TEST(FrameLimiter, ZeroFramesMeasuresNothing) {
    FakeClock clock;
    const LimiterRun run = run_limiter({LimiterKind::sleep, 0}, clock, 10 * kMs, 0);
    EXPECT_TRUE(run.error_ns.empty());
    EXPECT_EQ(clock.sleeps, 0);
}

}  // namespace
}  // namespace loopscope
