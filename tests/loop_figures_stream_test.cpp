// The loop figures are computed one frame at a time (LoopFiguresBuilder keeps only the last
// window). These tests check them, the verdict included, against a direct reading of the
// definitions in core/loop_figures.hpp, written here the plain way: every window recomputed from
// the records.
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
    LoopState state = LoopState::ok;
    std::optional<std::int64_t> onset_frame;
    std::optional<std::int64_t> onset_ns;
    std::optional<double> slow_motion_factor;
    std::optional<double> headroom_ns;
    double other_ns = 0;
};

// The verdict straight from the definitions, over the whole record list.
Reference reference_verdict(const std::vector<FrameRecord>& records, const LoopConfig& config,
                            std::int64_t window) {
    Reference ref;
    const auto n = static_cast<std::int64_t>(records.size());
    const bool acc = uses_accumulator(config.policy);
    const double threshold = static_cast<double>(config.dt_ns) / config.timescale;
    auto at = [&](std::int64_t i) -> const FrameRecord& {
        return records[static_cast<std::size_t>(i)];
    };
    // Backlog at frame i: owed simulation time plus everything the guards dropped before it
    // (the clamp's loss of frame i included, the cap's drop of frame i not yet). Frame -1 owes 0.
    auto backlog = [&](std::int64_t i) {
        if (i < 0)
            return 0.0;
        double dropped = 0;
        for (std::int64_t k = 0; k < i; ++k) {
            dropped += static_cast<double>(at(k).clamp_lost_ns) * config.timescale +
                       static_cast<double>(at(k).cap_dropped_ns);
        }
        dropped += static_cast<double>(at(i).clamp_lost_ns) * config.timescale;
        return static_cast<double>(acc ? at(i).acc_before_ns : at(i).consumed_ns) + dropped;
    };
    auto engaged = [&](std::int64_t k) {
        return at(k).clamp_lost_ns > 0 || at(k).cap_dropped_ns > 0;
    };
    auto mean_cost = [&](std::int64_t s) -> std::optional<double> {
        std::int64_t cost = 0;
        std::int64_t steps = 0;
        for (std::int64_t k = s; k < s + window; ++k) {
            cost += at(k).step_cost_ns;
            steps += at(k).steps;
        }
        if (steps <= 0)
            return std::nullopt;
        return static_cast<double>(cost) / static_cast<double>(steps);
    };
    // Other time: a frame's time minus the previous frame's steps and wait, from frame 1 on.
    std::int64_t other = 0;
    for (std::int64_t k = 1; k < n; ++k)
        other += at(k).raw_ns - at(k - 1).step_cost_ns - at(k - 1).wait_ns;
    ref.other_ns =
        n > 1 ? std::max(0.0, static_cast<double>(other) / static_cast<double>(n - 1)) : 0.0;
    if (n == 0)
        return ref;
    // A run shorter than one window is judged as one window of all its frames.
    const std::int64_t full_window = window;
    window = std::min(window, n);
    std::int64_t onset = n;
    for (std::int64_t s = 0; s + window <= n; ++s) {
        const std::int64_t last = s + window - 1;
        std::int64_t engaged_frames = 0;
        for (std::int64_t k = s; k <= last; ++k)
            engaged_frames += engaged(k) ? 1 : 0;
        const auto mean = mean_cost(s);
        const bool trouble = engaged_frames * 2 >= window || (mean && *mean >= threshold);
        if (backlog(last) > backlog(s - 1) && trouble) {
            // The first frame whose backlog and every later one in the window exceed every
            // backlog before it (from s - 1); else after the last lowest backlog of [s - 1, last].
            onset = n;
            for (std::int64_t k = s; k <= last && onset == n; ++k) {
                double highest_before = backlog(s - 1);
                for (std::int64_t i = s; i < k; ++i)
                    highest_before = std::max(highest_before, backlog(i));
                bool stays_above = true;
                for (std::int64_t j = k; j <= last; ++j)
                    stays_above = stays_above && backlog(j) > highest_before;
                if (stays_above)
                    onset = k;
            }
            if (onset == n) {
                std::int64_t lowest = s - 1;
                for (std::int64_t k = s; k <= last; ++k) {
                    if (backlog(k) <= backlog(lowest))
                        lowest = k;
                }
                onset = lowest + 1;
            }
            break;
        }
    }
    if (onset < n) {
        ref.onset_frame = at(onset).frame;
        ref.onset_ns = at(onset).start_ns;
        std::int64_t sim = 0;
        std::int64_t real = 0;
        std::int64_t cost = 0;
        std::int64_t cost_steps = 0;
        bool any_engaged = false;
        for (std::int64_t k = onset; k < n; ++k) {
            sim += frame_sim_ns(at(k), config);
            real += at(k).raw_ns;
            if (at(k).step_cost_ns > 0) {
                cost += at(k).step_cost_ns;
                cost_steps += at(k).steps;
            }
            any_engaged = any_engaged || engaged(k);
        }
        if (real > 0)
            ref.slow_motion_factor = static_cast<double>(sim) / static_cast<double>(real);
        const bool dear = cost_steps > 0 &&
                          static_cast<double>(cost) / static_cast<double>(cost_steps) >= threshold;
        ref.state = dear || !any_engaged ? LoopState::spiral : LoopState::saturated;
    }
    const bool has_costs = std::any_of(records.begin(), records.end(),
                                       [](const FrameRecord& r) { return r.step_cost_ns > 0; });
    if (has_costs && n >= full_window) {
        std::optional<double> worst;
        for (std::int64_t s = 0; s + window <= n; ++s) {
            if (auto mean = mean_cost(s); mean && (!worst || *mean > *worst))
                worst = mean;
        }
        const bool cap = acc && config.max_steps > 0;
        const double limit =
            cap ? threshold - ref.other_ns / static_cast<double>(config.max_steps) : threshold;
        if (worst)
            ref.headroom_ns = limit - *worst;
    }
    return ref;
}

void expect_matches_reference(const std::vector<FrameRecord>& records, const LoopConfig& config,
                              std::int64_t window, const std::string& what) {
    const LoopFigures f = compute_loop_figures(records, config, window);
    const Reference ref = reference_verdict(records, config, window);
    EXPECT_EQ(f.state, ref.state) << what;
    EXPECT_EQ(f.onset_frame, ref.onset_frame) << what;
    EXPECT_EQ(f.onset_ns, ref.onset_ns) << what;
    ASSERT_EQ(f.slow_motion_factor.has_value(), ref.slow_motion_factor.has_value()) << what;
    if (ref.slow_motion_factor) {
        EXPECT_DOUBLE_EQ(*f.slow_motion_factor, *ref.slow_motion_factor) << what;
    }
    EXPECT_DOUBLE_EQ(f.other_ns, ref.other_ns) << what;
    ASSERT_EQ(f.headroom_ns.has_value(), ref.headroom_ns.has_value()) << what;
    if (ref.headroom_ns) {
        EXPECT_NEAR(*f.headroom_ns, *ref.headroom_ns, 1e-6) << what;
    }
    EXPECT_FALSE(f.cause.empty()) << what;
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
        // Runs shorter than one window are judged as one window.
        const std::vector<FrameRecord> head(records.begin(), records.begin() + 20);
        expect_matches_reference(head, s.config, 30, s.name + " first 20 frames");
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
    int saturated = 0;
    int spiral = 0;
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
            const LoopFigures f = compute_loop_figures(records, c, window);
            with_onset += f.onset_frame.has_value();
            saturated += f.state == LoopState::saturated;
            spiral += f.state == LoopState::spiral;
        }
    }
    // The random cases must exercise both outcomes, or they would prove little.
    EXPECT_GT(with_onset, cases / 10);
    EXPECT_LT(with_onset, cases - cases / 10);
    EXPECT_GT(saturated, cases / 20);
    EXPECT_GT(spiral, cases / 20);
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

TEST(LoopFiguresStream, AnAlphaFarOutsideZeroToOneCountsInTheEndBins) {
    // A trace written elsewhere may carry any finite alpha; the histogram puts it in the first
    // or last tenth instead of converting a value past the int range.
    LoopConfig config;
    config.policy = Policy::fixed_interp;
    LoopFiguresBuilder builder(config);
    FrameRecord r;
    r.raw_ns = r.clamped_ns = r.consumed_ns = config.dt_ns;
    for (const double alpha : {2.5e9, -3e12, 0.55}) {
        r.alpha = alpha;
        builder.add(r);
        ++r.frame;
    }
    const LoopFigures f = builder.figures();
    EXPECT_EQ(f.alpha_bins[9], 1);
    EXPECT_EQ(f.alpha_bins[0], 1);
    EXPECT_EQ(f.alpha_bins[5], 1);
    EXPECT_EQ(f.alpha_max, 2.5e9);
}

}  // namespace
}  // namespace loopscope
