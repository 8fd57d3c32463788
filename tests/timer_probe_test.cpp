// The timer probe's pure parts: the cyclictest loop on a fake clock, the verdicts, the limiter
// summary and recommendation, and the report writers on a hand-made report.
#include <gtest/gtest.h>

#include "probes/probe_json.hpp"
#include "probes/timer_probe.hpp"
#include "probes/timer_report.hpp"
#include "tests/timer_fake_clock.hpp"

namespace loopscope {
namespace {

using test::FakeClock;

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kUs = 1'000;

TEST(TimerProbe, PeriodicLatencyIsWakeUpMinusDeadlineAndSkipsMissedPeriods) {
    FakeClock clock;
    clock.now = 7;  // the schedule starts one interval after the first reading
    clock.overshoots_ns = {10 * kUs, 20 * kUs, 2500 * kUs, 0};
    std::int64_t missed = -1;
    const auto latency = measure_periodic_latency(clock, kMs, 4, &missed);
    EXPECT_EQ(latency, (std::vector<std::int64_t>{10 * kUs, 20 * kUs, 2500 * kUs, 0}));
    // Woke at 5.5 ms for the 3 ms deadline: the 4 and 5 ms deadlines are skipped.
    EXPECT_EQ(missed, 2);
    EXPECT_EQ(clock.slept_to_ns,
              (std::vector<std::int64_t>{kMs + 7, 2 * kMs + 7, 3 * kMs + 7, 6 * kMs + 7}));
}

TEST(TimerProbe, OneShotVerdictGradesTheP99Overshoot) {
    SampleSummary s;
    s.p99_ns = 10 * kUs;
    s.max_ns = 12 * kUs;
    EXPECT_EQ(one_shot_verdict(s, kMs, kMs), "tight: 10.000 us late at p99");
    s.p99_ns = 150 * kUs;
    s.max_ns = 150 * kUs;
    EXPECT_EQ(one_shot_verdict(s, kMs, kMs), "fair: 150.000 us late at p99");
    s.p99_ns = 1500 * kUs;
    s.max_ns = 1600 * kUs;
    EXPECT_EQ(one_shot_verdict(s, 50 * kUs, kMs),
              "coarse: 1.500 ms late at p99, too late to pace frames alone (asked for 50.000 us, "
              "waits 1.000 ms)");
    s.p99_ns = 90 * kUs;
    s.max_ns = 7 * kMs;
    EXPECT_EQ(one_shot_verdict(s, kMs, kMs), "fair: 90.000 us late at p99; outlier of 7.000 ms");
}

TEST(TimerProbe, PeriodicVerdictNamesOverflowsFirst) {
    SampleSummary s;
    s.count = 1000;
    s.mean_ns = 60 * kUs;
    s.max_ns = 80 * kUs;
    EXPECT_EQ(periodic_verdict(s, kMs, 0),
              "steady: avg 60.000 us, max 80.000 us (8% of the interval)");
    s.max_ns = 500 * kUs;
    EXPECT_EQ(periodic_verdict(s, kMs, 0),
              "jittery: avg 60.000 us, max 500.000 us (50% of the interval)");
    s.max_ns = 3 * kMs;
    EXPECT_EQ(periodic_verdict(s, kMs, 2),
              "2 of 1000 wake-ups a whole interval or more late (max 3.000 ms), avg 60.000 us");
}

TEST(TimerProbe, SlackVerdictComparesTheMedians) {
    SampleSummary as_found, one_ns;
    as_found.p50_ns = 90 * kUs;
    as_found.p99_ns = 150 * kUs;
    one_ns.p50_ns = 40 * kUs;
    one_ns.p99_ns = 100 * kUs;
    EXPECT_EQ(slack_verdict(as_found, 50 * kUs, one_ns, 1),
              "1 ns slack wakes 50.000 us earlier at p50 than 50.000 us slack (40.000 us vs "
              "90.000 us); p99 100.000 us vs 150.000 us");
    one_ns.p50_ns = 88 * kUs;
    EXPECT_EQ(slack_verdict(as_found, 50 * kUs, one_ns, 1),
              "no clear effect: p50 88.000 us at 1 ns slack vs 90.000 us at 50.000 us; p99 "
              "100.000 us vs 150.000 us");
}

TEST(TimerProbe, LimiterSummaryChecksTheBoundOnP99OfAbsoluteError) {
    const std::vector<std::int64_t> error{-100, 200, -300, 50};
    const std::vector<std::int64_t> cpu{10, 20, 30, 40};
    // |error| sorted 50, 100, 200, 300: p99 at h = 2.97 is 200 + 0.97 * 100 = 297.
    const LimiterRow misses = summarize_limiter("sleep", 60, 16'666'667, error, cpu, 0, 250);
    EXPECT_EQ(misses.abs_error_p99_ns, 297);
    EXPECT_FALSE(misses.meets_bound);
    EXPECT_EQ(misses.error.min_ns, -300);
    EXPECT_DOUBLE_EQ(misses.cpu.mean_ns, 25.0);
    EXPECT_EQ(misses.histogram.counts.size(), misses.histogram.edges_ns.size() + 1);
    const LimiterRow meets = summarize_limiter("sleep", 60, 16'666'667, error, cpu, 0, 297);
    EXPECT_TRUE(meets.meets_bound);
    EXPECT_EQ(meets.verdict,
              "within 297 ns: p99 |error| 297 ns, CPU 25 ns per frame (0.0% of a core)");
}

LimiterRow row(std::string name, int rate, std::int64_t abs_p99, double cpu_mean, bool meets) {
    LimiterRow r;
    r.limiter = std::move(name);
    r.rate_hz = rate;
    r.abs_error_p99_ns = abs_p99;
    r.cpu.mean_ns = cpu_mean;
    r.meets_bound = meets;
    return r;
}

TEST(TimerProbe, RecommendsTheCheapestLimiterWithinTheBoundPerRate) {
    const std::vector<LimiterRow> rows{
        row("sleep", 60, 300 * kUs, 50e3, true),      row("spin", 60, 1 * kUs, 16e6, true),
        row("SDL_Delay", 60, 900 * kUs, 10e3, false),  // cheaper but outside the bound
        row("sleep", 240, 700 * kUs, 50e3, false),    row("spin", 240, 600 * kUs, 4e6, false),
    };
    const auto recs = recommend_limiters(rows, 500 * kUs);
    ASSERT_EQ(recs.size(), 2u);
    EXPECT_EQ(recs[0].rate_hz, 60);
    ASSERT_TRUE(recs[0].limiter.has_value());
    EXPECT_EQ(*recs[0].limiter, "sleep");
    EXPECT_EQ(recs[1].rate_hz, 240);
    EXPECT_FALSE(recs[1].limiter.has_value());
    EXPECT_EQ(recs[1].text,
              "240 Hz: no limiter within 500.000 us; the closest is spin (p99 |error| 600.000 us)");
}

TimerReport sample_report() {
    TimerReport r;
    r.bound_ns = 500 * kUs;
    r.elapsed_ns = 2 * 1'000'000'000LL;
    OneShotRow o;
    o.method = "nanosleep";
    o.requested_ns = kMs;
    o.waited_ns = kMs;
    o.overshoot = summarize({60 * kUs, 70 * kUs, 80 * kUs});
    o.histogram = make_histogram({60 * kUs, 70 * kUs, 80 * kUs}, log_edges_ns(20 * kMs));
    o.verdict = "fair";
    r.one_shot.push_back(o);
    PeriodicRow p;
    p.scheduling = "SCHED_OTHER";
    p.interval_ns = kMs;
    p.latency = summarize({50 * kUs, 2 * kMs});
    p.histogram = make_histogram({50 * kUs, 2 * kMs}, linear_edges_ns(kUs, 1000));
    p.log_histogram = make_histogram({50 * kUs, 2 * kMs}, log_edges_ns(20 * kMs));
    p.verdict = "v";
    r.periodic.push_back(p);
    r.limiters.push_back(
        summarize_limiter("sleep", 60, 16'666'667, {100, -100}, {5, 5}, 0, r.bound_ns));
    r.recommendations = recommend_limiters(r.limiters, r.bound_ns);
    return r;
}

TEST(TimerReportWriters, JsonNamesEveryFigureWithItsUnit) {
    const ProbeJson j = sample_report();
    const auto& o = j.at("one_shot").at(0);
    EXPECT_EQ(o.at("method"), "nanosleep");
    EXPECT_EQ(o.at("requested_ns"), kMs);
    EXPECT_EQ(o.at("overshoot_ns").at("p50"), 70 * kUs);
    EXPECT_EQ(o.at("histogram").at("counts").size(), o.at("histogram").at("edges_ns").size() + 1);
    const auto& p = j.at("periodic").at(0);
    EXPECT_EQ(p.at("overflows"), 1);
    EXPECT_EQ(p.at("latency_ns").at("max"), 2 * kMs);
    EXPECT_DOUBLE_EQ(p.at("latency_ns").at("avg").get<double>(), 1025.0 * kUs);
    const auto& l = j.at("limiters").at(0);
    EXPECT_EQ(l.at("rate_hz"), 60);
    EXPECT_EQ(l.at("abs_error_p99_ns"), 100);
    EXPECT_EQ(l.at("cpu_per_frame_ns").at("mean"), 5.0);
    EXPECT_EQ(j.at("recommendations").at(0).at("limiter"), "sleep");
}

TEST(TimerReportWriters, MarkdownHasATableForEachMeasurement) {
    const std::string md = render_timer_markdown(sample_report());
    EXPECT_NE(md.find("## One-shot sleep overshoot"), std::string::npos);
    EXPECT_NE(
        md.find("| nanosleep | 1.000 ms |   3 | 60.000 us | 70.000 us | 79.800 us | 80.000 us |"),
        std::string::npos)
        << md;
    EXPECT_NE(md.find("## Periodic wake-up latency"), std::string::npos);
    EXPECT_NE(md.find("## Frame limiters"), std::string::npos);
    EXPECT_NE(md.find("- 60 Hz: sleep, the cheapest within 500.000 us"), std::string::npos) << md;
}

TEST(TimerProbe, ARecommendationSaysWhetherEveryRunGivesTheSame) {
    std::vector<LimiterRecommendation> recs(2);
    recs[0].rate_hz = 60;
    recs[0].limiter = "sleep";
    recs[0].text = "60 Hz: sleep";
    recs[1].rate_hz = 144;
    recs[1].limiter = "spin";
    recs[1].text = "144 Hz: spin";
    std::vector<LimiterRecommendation> first = recs, second = recs;
    second[1].limiter = std::nullopt;
    note_repeat_stability(recs, {first, second});
    EXPECT_EQ(recs[0].text, "60 Hz: sleep; the same in both runs");
    EXPECT_EQ(recs[1].text,
              "144 Hz: spin; not stable: the first run gives spin, the second run gives none");
    ASSERT_EQ(recs[1].repeats.size(), 2u);
    EXPECT_EQ(recs[1].repeats[0], std::optional<std::string>("spin"));
    EXPECT_FALSE(recs[1].repeats[1].has_value());
}

TEST(TimerProbe, PeriodicRunsAreComparedAndAFarApartPairIsCalledUnstable) {
    std::vector<SampleSummary> runs(2);
    runs[0].p99_ns = 100'000;
    runs[1].p99_ns = 150'000;
    EXPECT_EQ(periodic_repeats_text(runs),
              "p99 100.000 us in the first run, 150.000 us in the second");
    runs[1].p99_ns = 250'000;
    EXPECT_NE(periodic_repeats_text(runs).find("(not stable"), std::string::npos);
}

}  // namespace
}  // namespace loopscope
