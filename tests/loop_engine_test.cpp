// Exact behaviour of the loop engine on hand-made frame times: no clock, every number checked.
#include "core/loop_engine.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <new>
#include <span>
#include <vector>

#include "common/errors.hpp"
#include "core/loop_scenarios.hpp"
#include "core/units.hpp"

namespace loopscope {
namespace {

// Frame times of a display refreshing at hz: the k-th refresh at round(k / hz) seconds.
std::vector<std::int64_t> display_frames(std::int64_t hz, std::int64_t count) {
    std::vector<std::int64_t> out;
    std::int64_t prev = 0;
    for (std::int64_t k = 1; k <= count; ++k) {
        const std::int64_t at = (k * kNsPerS * 2 + hz) / (2 * hz);
        out.push_back(at - prev);
        prev = at;
    }
    return out;
}

LoopConfig config(Policy p) {
    LoopConfig c;
    c.policy = p;
    return c;
}

TEST(LoopEngine, PolicyNamesRoundTrip) {
    for (Policy p : kAllPolicies) {
        auto back = parse_policy(policy_name(p));
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(*back, p);
    }
    EXPECT_FALSE(parse_policy("fixed_interp").has_value());
    EXPECT_FALSE(parse_policy("").has_value());
}

// Guard totals that would pass the int64 range stop at it instead of wrapping negative: a
// million-fold timescale with a cap of one step drops about 1.7e13 ns of simulation time a frame.
TEST(LoopEngine, TotalsPastTheInt64RangeSaturate) {
    LoopConfig c;
    c.policy = Policy::fixed;
    c.dt_ns = 16'666'667;
    c.max_steps = 1;
    c.timescale = 1e6;
    LoopEngine engine(c);
    for (int i = 0; i < 1'000'000; ++i)
        engine.advance(16'666'667);
    EXPECT_EQ(engine.totals().cap_dropped_ns, INT64_MAX);
    EXPECT_EQ(engine.totals().sim_ns, std::int64_t{1'000'000} * 16'666'667);
    EXPECT_EQ(saturating_add_ns(INT64_MAX, 1), INT64_MAX);
    EXPECT_EQ(saturating_add_ns(INT64_MIN, -1), INT64_MIN);
    EXPECT_EQ(saturating_mul_ns(INT64_MAX / 2, 3), INT64_MAX);
    EXPECT_EQ(saturating_mul_ns(-(INT64_MAX / 2), 3), INT64_MIN);
    EXPECT_EQ(saturating_mul_ns(7, 6), 42);
}

TEST(LoopEngine, RejectsBadKnobs) {
    LoopConfig c;
    c.dt_ns = 0;
    EXPECT_THROW(LoopEngine{c}, UsageError);
    c = LoopConfig{};
    c.clamp_ns = -1;
    EXPECT_THROW(LoopEngine{c}, UsageError);
    c = LoopConfig{};
    c.max_steps = -3;
    EXPECT_THROW(LoopEngine{c}, UsageError);
    c = LoopConfig{};
    c.timescale = -0.5;
    EXPECT_THROW(LoopEngine{c}, UsageError);
    c.timescale = NAN;
    EXPECT_THROW(LoopEngine{c}, UsageError);
    c.timescale = 0.0;  // paused is allowed
    EXPECT_NO_THROW(LoopEngine{c});
}

TEST(LoopEngine, Display144HzWithSim60HzStepsZeroOrOneWithMean60Over144) {
    LoopEngine engine(config(Policy::fixed_interp));
    const std::int64_t n = 144 * 600;  // ten minutes
    std::int64_t total_steps = 0;
    std::int64_t total_ns = 0;
    for (std::int64_t raw : display_frames(144, n)) {
        const FrameRecord r = engine.advance(raw);
        ASSERT_TRUE(r.steps == 0 || r.steps == 1) << "frame " << r.frame;
        ASSERT_GE(r.alpha, 0.0);
        ASSERT_LT(r.alpha, 1.0);
        EXPECT_EQ(r.acc_before_ns - r.steps * kDefaultDtNs, r.acc_after_ns);
        total_steps += r.steps;
        total_ns += raw;
    }
    EXPECT_EQ(total_ns, 600 * kNsPerS);
    // Every step the accumulator allows is taken: floor(600 s / dt).
    EXPECT_EQ(total_steps, 600 * kNsPerS / kDefaultDtNs);
    const double mean = static_cast<double>(total_steps) / static_cast<double>(n);
    EXPECT_NEAR(mean, 60.0 / 144.0, 2.0 / static_cast<double>(n));
    EXPECT_EQ(engine.totals().steps, total_steps);
    EXPECT_EQ(engine.totals().clamp_lost_ns, 0);
    EXPECT_EQ(engine.totals().cap_dropped_ns, 0);
}

TEST(LoopEngine, OneFrameOf300MsUnderThe250MsClampLosesExactly50Ms) {
    LoopEngine engine(config(Policy::fixed));
    for (int i = 0; i < 10; ++i)
        engine.advance(16 * kNsPerMs);
    const FrameRecord r = engine.advance(300 * kNsPerMs);
    for (int i = 0; i < 10; ++i)
        engine.advance(16 * kNsPerMs);
    EXPECT_EQ(r.raw_ns, 300 * kNsPerMs);
    EXPECT_EQ(r.clamped_ns, 250 * kNsPerMs);
    EXPECT_EQ(r.clamp_lost_ns, 50 * kNsPerMs);
    EXPECT_EQ(r.consumed_ns, 250 * kNsPerMs);
    EXPECT_EQ(engine.totals().clamp_lost_ns, 50 * kNsPerMs);
    EXPECT_EQ(engine.totals().real_ns, 620 * kNsPerMs);
    // Simulation time + what is left in the accumulator + what the clamp lost = real time.
    EXPECT_EQ(engine.totals().sim_ns + engine.accumulator_ns() + engine.totals().clamp_lost_ns,
              engine.totals().real_ns);
}

TEST(LoopEngine, ClampZeroIsOff) {
    LoopConfig c = config(Policy::fixed);
    c.clamp_ns = 0;
    LoopEngine engine(c);
    const FrameRecord r = engine.advance(5 * kNsPerS);
    EXPECT_EQ(r.clamp_lost_ns, 0);
    EXPECT_EQ(r.steps, 5 * kNsPerS / kDefaultDtNs);
}

TEST(LoopEngine, StepCapRunsMaxStepsAndDropsWholeStepsKeepingTheRemainder) {
    LoopConfig c = config(Policy::fixed_interp);
    c.dt_ns = 10 * kNsPerMs;
    c.max_steps = 5;
    LoopEngine engine(c);
    const FrameRecord r = engine.advance(123 * kNsPerMs);  // 12 steps' worth + 3 ms
    EXPECT_EQ(r.acc_before_ns, 123 * kNsPerMs);
    EXPECT_EQ(r.steps, 5);
    EXPECT_EQ(r.cap_dropped_ns, 70 * kNsPerMs);
    EXPECT_EQ(r.acc_after_ns, 3 * kNsPerMs);
    EXPECT_DOUBLE_EQ(r.alpha, 0.3);
    const FrameRecord next = engine.advance(8 * kNsPerMs);  // the remainder is kept
    EXPECT_EQ(next.acc_before_ns, 11 * kNsPerMs);
    EXPECT_EQ(next.steps, 1);
    EXPECT_EQ(next.cap_dropped_ns, 0);
    EXPECT_EQ(engine.totals().cap_dropped_ns, 70 * kNsPerMs);
}

TEST(LoopEngine, CapExactlyReachedDropsNothing) {
    LoopConfig c = config(Policy::fixed);
    c.dt_ns = 10 * kNsPerMs;
    c.max_steps = 5;
    LoopEngine engine(c);
    const FrameRecord r = engine.advance(59 * kNsPerMs);
    EXPECT_EQ(r.steps, 5);
    EXPECT_EQ(r.cap_dropped_ns, 0);
    EXPECT_EQ(r.acc_after_ns, 9 * kNsPerMs);
}

TEST(LoopEngine, TimescaleHalfHalvesTheSteps) {
    LoopConfig full = config(Policy::fixed);
    LoopConfig half = full;
    half.timescale = 0.5;
    LoopEngine a(full);
    LoopEngine b(half);
    const auto frames = display_frames(60, 6000);
    std::int64_t consumed_half = 0;
    for (std::int64_t raw : frames) {
        const FrameRecord rb = b.advance(raw);
        a.advance(raw);
        ASSERT_EQ(rb.consumed_ns, std::llround(static_cast<double>(raw) * 0.5));
        consumed_half += rb.consumed_ns;
    }
    EXPECT_EQ(a.totals().steps, 6000 - 1);  // 100 s / 16666667 ns, floor
    EXPECT_EQ(b.totals().steps, consumed_half / kDefaultDtNs);
    EXPECT_NEAR(static_cast<double>(b.totals().steps) / static_cast<double>(a.totals().steps), 0.5,
                1e-3);
}

TEST(LoopEngine, TimescaleZeroPauses) {
    LoopConfig c = config(Policy::fixed);
    c.timescale = 0.0;
    LoopEngine engine(c);
    for (int i = 0; i < 100; ++i) {
        const FrameRecord r = engine.advance(16 * kNsPerMs);
        EXPECT_EQ(r.steps, 0);
        EXPECT_EQ(r.consumed_ns, 0);
    }
}

TEST(LoopEngine, NaiveTakesOneStepOfDtWhateverTheClock) {
    LoopEngine engine(config(Policy::naive));
    for (std::int64_t raw : {1 * kNsPerMs, 16 * kNsPerMs, 900 * kNsPerMs}) {
        const FrameRecord r = engine.advance(raw);
        EXPECT_EQ(r.steps, 1);
        EXPECT_EQ(r.raw_ns, raw);
        EXPECT_EQ(r.clamped_ns, raw);  // the clamp does not apply
        EXPECT_EQ(r.clamp_lost_ns, 0);
        EXPECT_EQ(r.consumed_ns, kDefaultDtNs);
        EXPECT_EQ(r.acc_before_ns, 0);
        EXPECT_EQ(r.acc_after_ns, 0);
    }
    EXPECT_EQ(engine.totals().sim_ns, 3 * kDefaultDtNs);
}

TEST(LoopEngine, VariableIntegratesOneStepOfTheClampedScaledTime) {
    LoopConfig c = config(Policy::variable);
    c.timescale = 2.0;
    LoopEngine engine(c);
    FrameRecord r = engine.advance(300 * kNsPerMs);
    EXPECT_EQ(r.steps, 1);
    EXPECT_EQ(r.clamped_ns, 250 * kNsPerMs);
    EXPECT_EQ(r.consumed_ns, 500 * kNsPerMs);
    EXPECT_EQ(r.acc_before_ns, 0);
    EXPECT_EQ(r.acc_after_ns, 0);
    EXPECT_EQ(r.alpha, 0.0);
    r = engine.advance(0);
    EXPECT_EQ(r.steps, 1);
    EXPECT_EQ(engine.totals().sim_ns, 500 * kNsPerMs);
}

TEST(LoopEngine, SemiFixedTakesCeilOfConsumedOverDtSteps) {
    LoopConfig c = config(Policy::semi_fixed);
    c.dt_ns = 10 * kNsPerMs;
    c.max_steps = 2;  // the cap applies to the accumulator policies only
    LoopEngine engine(c);
    EXPECT_EQ(engine.advance(0).steps, 0);
    EXPECT_EQ(engine.advance(1).steps, 1);
    EXPECT_EQ(engine.advance(10 * kNsPerMs).steps, 1);
    EXPECT_EQ(engine.advance(10 * kNsPerMs + 1).steps, 2);
    const FrameRecord r = engine.advance(45 * kNsPerMs);
    EXPECT_EQ(r.steps, 5);
    EXPECT_EQ(r.cap_dropped_ns, 0);
    EXPECT_EQ(r.acc_after_ns, 0);
}

TEST(LoopEngine, StartIsTheSumOfFrameTimesAndFramesCountFromZero) {
    LoopEngine engine(config(Policy::fixed_extrap));
    const FrameRecord a = engine.advance(5);
    const FrameRecord b = engine.advance(7);
    EXPECT_EQ(a.frame, 0);
    EXPECT_EQ(a.start_ns, 5);
    EXPECT_EQ(b.frame, 1);
    EXPECT_EQ(b.start_ns, 12);
}

}  // namespace
}  // namespace loopscope

namespace loopscope {
namespace {

// The accumulator as the model states it (docs/loop-engine.md, "The per-frame algorithm"): add the
// consumed time, step while a whole dt fits and the cap allows, then drop whole steps past the cap.
struct ModelLoop {
    std::int64_t acc_ns = 0;
    FrameRecord advance(const LoopConfig& c, std::int64_t consumed_ns) {
        FrameRecord r;
        acc_ns += consumed_ns;
        r.acc_before_ns = acc_ns;
        while (acc_ns >= c.dt_ns && (c.max_steps == 0 || r.steps < c.max_steps)) {
            acc_ns -= c.dt_ns;
            ++r.steps;
        }
        while (acc_ns >= c.dt_ns) {
            acc_ns -= c.dt_ns;
            r.cap_dropped_ns += c.dt_ns;
        }
        r.acc_after_ns = acc_ns;
        return r;
    }
};

TEST(LoopEngine, AccumulatorEqualsTheModelsWhileLoopOnRandomFrames) {
    SeededRandom random(11);
    const auto below = [&random](std::int64_t n) {
        return static_cast<std::int64_t>(random.next() % static_cast<std::uint64_t>(n));
    };
    for (int config_index = 0; config_index < 200; ++config_index) {
        LoopConfig c;
        c.policy = Policy::fixed_interp;
        c.dt_ns = 1 + below(20'000'000);
        c.clamp_ns = 0;
        c.max_steps = static_cast<std::int64_t>(below(6));  // 0 = unlimited
        LoopEngine engine(c);
        ModelLoop model;
        for (int i = 0; i < 500; ++i) {
            // Mostly a step or two, sometimes many (a hitch), sometimes none.
            const std::int64_t raw = below(10) == 0 ? below(30 * c.dt_ns) : below(2 * c.dt_ns);
            const FrameRecord got = engine.advance(raw);
            const FrameRecord want = model.advance(c, raw);
            ASSERT_EQ(got.steps, want.steps) << "dt " << c.dt_ns << " cap " << c.max_steps;
            ASSERT_EQ(got.acc_before_ns, want.acc_before_ns);
            ASSERT_EQ(got.cap_dropped_ns, want.cap_dropped_ns);
            ASSERT_EQ(got.acc_after_ns, want.acc_after_ns);
        }
    }
}

TEST(LoopEngine, AdvanceIntoWritesTheRecordsAdvanceReturns) {
    std::vector<std::int64_t> frames;
    std::uint64_t x = 7;
    for (int i = 0; i < 5000; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        frames.push_back(static_cast<std::int64_t>((x >> 33) % 80'000'000));
    }
    for (const Policy policy : kAllPolicies) {
        LoopConfig config;
        config.policy = policy;
        config.max_steps = 3;
        config.timescale = 0.75;
        LoopEngine one(config), many(config);
        std::vector<FrameRecord> records(frames.size() + 2);
        records.back().frame = -5;  // past the frames: left as it was
        EXPECT_EQ(many.advance_into(frames, records), frames.size());
        for (std::size_t i = 0; i < frames.size(); ++i) {
            const FrameRecord r = one.advance(frames[i]);
            ASSERT_EQ(std::memcmp(&r, &records[i], sizeof r), 0) << policy_name(policy) << " " << i;
        }
        EXPECT_EQ(records.back().frame, -5);
        EXPECT_EQ(many.totals().steps, one.totals().steps);
        EXPECT_EQ(many.accumulator_ns(), one.accumulator_ns());
        // Fewer records than frames: only as many frames are advanced.
        LoopEngine short_run(config);
        std::vector<FrameRecord> three(3);
        EXPECT_EQ(short_run.advance_into(frames, three), 3u);
        EXPECT_EQ(short_run.totals().frames, 3);
    }
}

}  // namespace
}  // namespace loopscope
