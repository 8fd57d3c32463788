// The loop figures are computed one frame at a time (LoopFiguresBuilder keeps only the last
// window). These tests check them against a direct reading of the definitions in
// probes/loop_figures.hpp, written here the plain way: every window recomputed from the records.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/loop_figures.hpp"
#include "core/loop_scenarios.hpp"
#include "core/units.hpp"

namespace loopscope {
namespace {

struct Reference {
    std::optional<std::int64_t> onset_frame;
    std::optional<std::int64_t> onset_ns;
    std::optional<double> slow_motion_factor;
    std::optional<double> headroom_ns;
};

// The spiral figures straight from the definitions, over the whole record list.
Reference reference_spiral(const std::vector<FrameRecord>& records, const LoopConfig& config,
                           std::int64_t window) {
    Reference ref;
    const auto n = static_cast<std::int64_t>(records.size());
    const bool acc = uses_accumulator(config.policy);
    const double threshold = static_cast<double>(config.dt_ns) / config.timescale;
    // Backlog at frame i: owed simulation time plus everything the guards dropped before it
    // (the clamp's loss of frame i included, the cap's drop of frame i not yet).
    auto backlog = [&](std::int64_t i) {
        double dropped = 0;
        for (std::int64_t k = 0; k < i; ++k) {
            dropped += static_cast<double>(records[k].clamp_lost_ns) * config.timescale +
                       static_cast<double>(records[k].cap_dropped_ns);
        }
        dropped += static_cast<double>(records[i].clamp_lost_ns) * config.timescale;
        const FrameRecord& r = records[i];
        return static_cast<double>(acc ? r.acc_before_ns : r.consumed_ns) + dropped;
    };
    auto mean_cost = [&](std::int64_t s) -> std::optional<double> {
        std::int64_t cost = 0;
        std::int64_t steps = 0;
        for (std::int64_t k = s; k < s + window; ++k) {
            cost += records[k].step_cost_ns;
            steps += records[k].steps;
        }
        if (steps <= 0)
            return std::nullopt;
        return static_cast<double>(cost) / static_cast<double>(steps);
    };
    if (n < window)
        return ref;
    std::int64_t onset = n;
    for (std::int64_t s = 0; s + window <= n; ++s) {
        const double before = s == 0 ? 0.0 : backlog(s - 1);
        const auto mean = mean_cost(s);
        if (backlog(s + window - 1) > before && mean && *mean > threshold) {
            onset = s;
            break;
        }
    }
    if (onset < n) {
        ref.onset_frame = records[onset].frame;
        ref.onset_ns = records[onset].start_ns;
        std::int64_t sim = 0;
        std::int64_t real = 0;
        for (std::int64_t k = onset; k < n; ++k) {
            sim += frame_sim_ns(records[k], config);
            real += records[k].raw_ns;
        }
        if (real > 0)
            ref.slow_motion_factor = static_cast<double>(sim) / static_cast<double>(real);
    }
    const bool has_costs = std::any_of(records.begin(), records.end(),
                                       [](const FrameRecord& r) { return r.step_cost_ns > 0; });
    if (has_costs) {
        // Windows wholly before the onset (every window without one); window 0 alone when the
        // onset comes before a whole window has passed.
        const std::int64_t last_start =
            onset == n ? n - window : std::max<std::int64_t>(onset - window, 0);
        std::optional<double> worst;
        for (std::int64_t s = 0; s <= last_start; ++s) {
            if (auto mean = mean_cost(s); mean && (!worst || *mean > *worst))
                worst = mean;
        }
        if (worst)
            ref.headroom_ns = threshold - *worst;
    }
    return ref;
}

void expect_matches_reference(const std::vector<FrameRecord>& records, const LoopConfig& config,
                              std::int64_t window, const std::string& what) {
    const LoopFigures f = compute_loop_figures(records, config, window);
    const Reference ref = reference_spiral(records, config, window);
    EXPECT_EQ(f.onset_frame, ref.onset_frame) << what;
    EXPECT_EQ(f.onset_ns, ref.onset_ns) << what;
    ASSERT_EQ(f.slow_motion_factor.has_value(), ref.slow_motion_factor.has_value()) << what;
    if (ref.slow_motion_factor) {
        EXPECT_DOUBLE_EQ(*f.slow_motion_factor, *ref.slow_motion_factor) << what;
    }
    ASSERT_EQ(f.headroom_ns.has_value(), ref.headroom_ns.has_value()) << what;
    if (ref.headroom_ns) {
        EXPECT_DOUBLE_EQ(*f.headroom_ns, *ref.headroom_ns) << what;
    }
    std::int64_t real = 0;
    std::int64_t steps = 0;
    for (const FrameRecord& r : records) {
        real += r.raw_ns;
        steps += r.steps;
    }
    EXPECT_EQ(f.frames, static_cast<std::int64_t>(records.size())) << what;
    EXPECT_EQ(f.real_ns, real) << what;
    EXPECT_EQ(f.steps, steps) << what;
}

std::vector<FrameRecord> records_of(const FrameModel& model, const LoopConfig& config,
                                    std::int64_t frames) {
    std::vector<FrameRecord> out;
    run_virtual(model, config, frames, [&](const FrameRecord& r) { out.push_back(r); });
    return out;
}

TEST(LoopFiguresStream, EveryScenarioMatchesTheDefinitionsAtSeveralWindows) {
    for (const Scenario& s : builtin_scenarios()) {
        const auto records = records_of(s.model, s.config, s.frames);
        for (std::int64_t window : {1, 2, 7, 30, 90}) {
            expect_matches_reference(records, s.config, window,
                                     s.name + " window " + std::to_string(window));
        }
    }
}

TEST(LoopFiguresStream, RandomFramePatternsAndStepCostsMatchTheDefinitions) {
    // Replays of seeded random frame times under every policy and a spread of guards and step
    // costs: onsets early, late and never, with and without the guards holding the loop.
    SeededRandom random(42);
    const Policy policies[] = {Policy::naive, Policy::variable,     Policy::semi_fixed,
                               Policy::fixed, Policy::fixed_interp, Policy::fixed_extrap};
    int cases = 0;
    int with_onset = 0;
    for (int trial = 0; trial < 60; ++trial) {
        std::vector<std::int64_t> frames(200 + static_cast<std::size_t>(random.next() % 300));
        for (auto& f : frames)
            f = 4 * kNsPerMs + static_cast<std::int64_t>(random.next() % (40 * kNsPerMs));
        LoopConfig c;
        c.policy = policies[trial % 6];
        c.dt_ns = kDefaultDtNs;
        c.clamp_ns = trial % 3 == 0 ? 0 : 100 * kNsPerMs;
        c.max_steps = trial % 4 == 0 ? 0 : 3 + trial % 5;
        c.timescale = trial % 5 == 0 ? 0.5 : 1.0;
        const std::int64_t step_cost =
            static_cast<std::int64_t>(random.next() % (2 * kDefaultDtNs));
        std::vector<FrameRecord> records;
        run_replay(frames, c, step_cost, [&](const FrameRecord& r) { records.push_back(r); });
        for (std::int64_t window : {1, 5, 30}) {
            expect_matches_reference(
                records, c, window,
                "trial " + std::to_string(trial) + " window " + std::to_string(window));
            ++cases;
            with_onset += compute_loop_figures(records, c, window).onset_frame.has_value();
        }
    }
    // The random cases must exercise both outcomes, or they would prove little.
    EXPECT_GT(with_onset, cases / 10);
    EXPECT_LT(with_onset, cases - cases / 10);
}

TEST(LoopFiguresStream, HeadroomCountsTheFirstWindowWhenItIsTheDearest) {
    // Steps start dear and get cheaper: the first window sets the headroom, however long the
    // run, and the builder must not forget it once it leaves the last window.
    FrameModel m;
    m.render_ns = kNsPerMs;
    m.step_cost_ns = 15 * kNsPerMs;
    m.step_cost_end_ns = 2 * kNsPerMs;
    m.ramp_frames = 300;
    m.display_hz = 60;
    LoopConfig c;
    const auto records = records_of(m, c, 600);
    // Frame 0 has no steps (no time has passed yet), so the windows are longer than one frame.
    for (std::int64_t window : {2, 5, 30}) {
        expect_matches_reference(records, c, window, "window " + std::to_string(window));
        const LoopFigures f = compute_loop_figures(records, c, window);
        EXPECT_FALSE(f.onset_frame.has_value());
        std::int64_t cost = 0;
        std::int64_t steps = 0;
        for (std::int64_t k = 0; k < window; ++k) {
            cost += records[static_cast<std::size_t>(k)].step_cost_ns;
            steps += records[static_cast<std::size_t>(k)].steps;
        }
        ASSERT_GT(steps, 0);
        ASSERT_TRUE(f.headroom_ns.has_value());
        EXPECT_DOUBLE_EQ(*f.headroom_ns, static_cast<double>(c.dt_ns) -
                                             static_cast<double>(cost) / static_cast<double>(steps))
            << window;
    }
}

TEST(LoopFiguresStream, LimitedEngagementListKeepsExactCounts) {
    const Scenario* s = find_scenario("spiral-cap");
    ASSERT_NE(s, nullptr);
    const auto records = records_of(s->model, s->config, s->frames);
    const LoopFigures all = compute_loop_figures(records, s->config);
    LoopFiguresBuilder builder(s->config, kDefaultSpiralWindow, 3);
    for (const FrameRecord& r : records)
        builder.add(r);
    const LoopFigures limited = builder.figures();
    ASSERT_GT(all.engagement_frames, 3);
    EXPECT_EQ(static_cast<std::int64_t>(all.engagements.size()), all.engagement_frames);
    ASSERT_EQ(limited.engagements.size(), 3u);
    EXPECT_EQ(limited.engagement_frames, all.engagement_frames);
    EXPECT_EQ(limited.cap_frames, all.cap_frames);
    EXPECT_EQ(limited.cap_dropped_ns, all.cap_dropped_ns);
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_EQ(limited.engagements[i].frame, all.engagements[i].frame);
    EXPECT_EQ(limited.onset_frame, all.onset_frame);
}

TEST(LoopFiguresStream, FiguresCanBeReadMidRunAndAgainLater) {
    // figures() does not disturb the running state: reading it half-way and at the end gives
    // the figures of each prefix.
    const Scenario* s = find_scenario("spiral-clamp-cap");
    ASSERT_NE(s, nullptr);
    const auto records = records_of(s->model, s->config, s->frames);
    LoopFiguresBuilder builder(s->config);
    const std::size_t half = records.size() / 2;
    for (std::size_t i = 0; i < records.size(); ++i) {
        builder.add(records[i]);
        if (i + 1 == half) {
            const LoopFigures mid = builder.figures();
            const LoopFigures direct =
                compute_loop_figures(std::span<const FrameRecord>(records.data(), half), s->config);
            EXPECT_EQ(mid.frames, direct.frames);
            EXPECT_EQ(mid.onset_frame, direct.onset_frame);
            EXPECT_EQ(mid.headroom_ns, direct.headroom_ns);
        }
    }
    const LoopFigures end = builder.figures();
    EXPECT_EQ(end.frames, static_cast<std::int64_t>(records.size()));
    EXPECT_EQ(end.onset_frame, compute_loop_figures(records, s->config).onset_frame);
}

}  // namespace
}  // namespace loopscope
