// The summary that opens `loopscope diagnose`: each line is picked from the probe results by its
// stated rule and links to the section it rests on.
#include "probes/diagnosis_summary.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/markdown_table.hpp"
#include "core/units.hpp"

namespace loopscope {
namespace {

ClockResult clock(std::string name, bool steady, double cost_ns, double step_ns,
                  std::int64_t backward = 0) {
    ClockResult c;
    c.name = std::move(name);
    c.claims_steady = steady;
    c.read_cost_ns = cost_ns;
    c.granularity_median_ns = step_ns;
    c.granularity.backward_steps = backward;
    c.cross_thread_checked = true;
    c.cross_thread_reads = 1000;
    return c;
}

OneShotRow sleep_row(std::string method, std::int64_t requested_ns, std::int64_t p99_ns) {
    OneShotRow r;
    r.method = std::move(method);
    r.requested_ns = requested_ns;
    r.overshoot.count = 50;
    r.overshoot.p99_ns = p99_ns;
    r.overshoot.max_ns = 2 * p99_ns;
    return r;
}

ProbeResults probes() {
    ProbeResults p;
    p.context.logical_cpus = 4;
    ClockProbeResult clocks;
    // The first fit clock wins over one barely cheaper; a cheaper one that went back, or does not
    // promise to be steady, or steps by 1 ms, is not fit.
    clocks.clocks = {clock("steady_clock", true, 25, 20), clock("CLOCK_MONOTONIC", true, 22, 20),
                     clock("rdtsc", false, 8, 1), clock("CLOCK_MONOTONIC_COARSE", true, 5, 4e6),
                     clock("broken", true, 3, 1, 2)};
    p.clocks = clocks;
    TimerReport t;
    t.bound_ns = kNsPerMs / 2;
    t.one_shot = {sleep_row("nanosleep", kNsPerMs, 80 * kNsPerUs),
                  sleep_row("clock_nanosleep abs", kNsPerMs, 60 * kNsPerUs),
                  sleep_row("nanosleep", 100 * kNsPerUs, 70 * kNsPerUs),
                  sleep_row("SDL_Delay", 100 * kNsPerUs, 1500 * kNsPerUs)};
    LimiterRecommendation r60;
    r60.rate_hz = 60;
    r60.limiter = "sleep+spin 1ms";
    r60.repeats = {std::string("sleep+spin 1ms"), std::string("sleep+spin 1ms")};
    LimiterRecommendation r240;
    r240.rate_hz = 240;
    r240.limiter = "spin";
    r240.repeats = {std::string("spin"), std::string("sleep+spin 1ms")};
    t.recommendations = {r60, r240};
    SlackRow slack;
    slack.current = true;
    slack.slack_ns = 50 * kNsPerUs;
    slack.requested_ns = 100 * kNsPerUs;
    slack.overshoot.p99_ns = 90 * kNsPerUs;
    t.slack = {slack};
    p.timers = t;
    p.load.measured = true;
    p.load.other_share = 0.02;
    p.load.after.load_1m = 0.5;
    return p;
}

const DiagnosisLine* topic(const std::vector<DiagnosisLine>& lines, std::string_view name) {
    for (const auto& l : lines) {
        if (l.topic == name)
            return &l;
    }
    return nullptr;
}

TEST(DiagnosisSummary, EachLineFollowsItsRuleAndNamesItsSection) {
    const std::vector<ScenarioVerdict> scenarios = {{"steady-60", "ok"},
                                                    {"spiral-clamp-cap", "spiral from frame 15"}};
    const auto lines = diagnosis_summary(probes(), scenarios, "Game loops on the real clock");
    const auto* clock_line = topic(lines, "Clock");
    ASSERT_TRUE(clock_line);
    EXPECT_EQ(clock_line->text.rfind("time frames with steady_clock: 25.0 ns a read", 0), 0u)
        << clock_line->text;
    ProbeResults cheaper = probes();
    cheaper.clocks->clocks[1].read_cost_ns = 12;  // CLOCK_MONOTONIC 2x cheaper than the first
    const auto cheaper_lines = diagnosis_summary(cheaper, scenarios, "x");
    EXPECT_EQ(topic(cheaper_lines, "Clock")->text.rfind("time frames with CLOCK_MONOTONIC:", 0),
              0u);
    EXPECT_NE(topic(cheaper_lines, "Clock")->text.find("2.1x cheaper to read than steady_clock"),
              std::string::npos)
        << topic(cheaper_lines, "Clock")->text;
    EXPECT_EQ(clock_line->section, "Clock sources");

    const auto* one_ms = topic(lines, "Wait 1 ms");
    ASSERT_TRUE(one_ms) << diagnosis_summary_markdown(lines);
    EXPECT_EQ(one_ms->text.rfind("clock_nanosleep abs:", 0), 0u) << one_ms->text;
    const auto* short_wait = topic(lines, "Wait 100 us");
    ASSERT_TRUE(short_wait) << diagnosis_summary_markdown(lines);
    EXPECT_EQ(short_wait->text.rfind("nanosleep:", 0), 0u) << short_wait->text;
    EXPECT_EQ(short_wait->text.find("too coarse"), std::string::npos);

    const auto* limiter = topic(lines, "Limiter");
    ASSERT_TRUE(limiter);
    EXPECT_EQ(limiter->text.find("all 2 runs"), std::string::npos) << limiter->text;
    EXPECT_NE(limiter->text.find("60 Hz: sleep+spin 1ms (the same in both runs)"),
              std::string::npos)
        << limiter->text;
    EXPECT_NE(limiter->text.find("240 Hz: spin (not stable"), std::string::npos) << limiter->text;

    const auto* timer = topic(lines, "Timer");
    ASSERT_TRUE(timer);
    EXPECT_NE(timer->text.find("timer slack 50.000 us"), std::string::npos) << timer->text;

    const auto* machine = topic(lines, "Machine");
    ASSERT_TRUE(machine);
    EXPECT_EQ(machine->text.rfind("quiet", 0), 0u) << machine->text;

    const auto* loops = topic(lines, "Loops");
    ASSERT_TRUE(loops);
    EXPECT_EQ(loops->text, "steady-60: ok; spiral-clamp-cap: spiral from frame 15");

    const std::string md = diagnosis_summary_markdown(lines);
    EXPECT_EQ(md.rfind("## What this means for a game on this machine\n", 0), 0u);
    EXPECT_NE(md.find("([Game loops on the real clock](#game-loops-on-the-real-clock))"),
              std::string::npos)
        << md;
}

TEST(DiagnosisSummary, CoarseSleepsAndABusyMachineAreSaid) {
    ProbeResults p = probes();
    for (auto& row : p.timers->one_shot)
        row.overshoot.p99_ns = 2 * kNsPerMs;
    p.load.other_share = 0.9;
    const auto lines = diagnosis_summary(p, {}, "Game loops on the real clock");
    const auto* one_ms = topic(lines, "Wait 1 ms");
    ASSERT_TRUE(one_ms);
    EXPECT_NE(one_ms->text.find("too coarse to pace frames alone"), std::string::npos);
    const auto* machine = topic(lines, "Machine");
    ASSERT_TRUE(machine);
    EXPECT_EQ(machine->text.rfind("busy during the run", 0), 0u) << machine->text;
    EXPECT_FALSE(topic(lines, "Loops"));
    // No clock fit to time frames: the line says so instead of naming one.
    for (auto& c : p.clocks->clocks)
        c.granularity.backward_steps = 1;
    const auto without = diagnosis_summary(p, {}, "x");
    ASSERT_TRUE(topic(without, "Clock"));
    EXPECT_EQ(topic(without, "Clock")->text.rfind("no clock", 0), 0u);
}

}  // namespace
}  // namespace loopscope
