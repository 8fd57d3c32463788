// `probe compare` of a Linux and a Windows probe document: the facilities each OS offers for the
// same job are lined up as rows (QueryPerformanceCounter and CLOCK_MONOTONIC, Sleep and
// nanosleep, the high-resolution waitable timer to an absolute deadline and clock_nanosleep to
// one, the timer resolution and the timer slack and kernel tick) and the differences that matter
// are marked. Two made-up documents, one shaped like each OS's, written to JSON and read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "probes/probe_compare.hpp"
#include "probes/probe_json.hpp"

using namespace loopscope;

namespace {

constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kMs = 1'000'000;

ClockResult clock(const std::string& name, double resolution_ns, double cost_ns,
                  double min_step_ns) {
    ClockResult c;
    c.name = name;
    c.claims_steady = true;
    c.resolution_ns = resolution_ns;
    c.read_cost_ns = cost_ns;
    c.granularity.min_ticks = 1;
    c.granularity_min_ns = min_step_ns;
    return c;
}

OneShotRow one_shot(const std::string& method, std::int64_t p99_ns) {
    OneShotRow r;
    r.method = method;
    r.requested_ns = kMs;
    r.waited_ns = kMs;
    r.overshoot.count = 100;
    r.overshoot.p50_ns = p99_ns / 2;
    r.overshoot.p99_ns = p99_ns;
    return r;
}

PeriodicRow periodic(const std::string& scheduling, std::int64_t p50_ns, std::int64_t p99_ns) {
    PeriodicRow r;
    r.scheduling = scheduling;
    r.interval_ns = kMs;
    r.latency.count = 200;
    r.latency.p50_ns = p50_ns;
    r.latency.p99_ns = p99_ns;
    return r;
}

// Written to the probe JSON and read back, as `probe compare` reads files.
ProbeDocument through_json(const ProbeDocument& d) {
    return ProbeJson::parse(ProbeJson(d).dump()).get<ProbeDocument>();
}

ProbeDocument linux_document() {
    ProbeDocument d;
    SystemContext c;
    c.platform = Platform::Linux;
    c.os = "Debian GNU/Linux 12 (bookworm)";
    c.timer_slack_ns = 50 * kUs;
    c.kernel_tick_ns = 4 * kMs;
    d.context = c;
    ClockProbeResult clocks;
    clocks.clocks = {clock("CLOCK_MONOTONIC", 1, 25, 20), clock("CLOCK_MONOTONIC_RAW", 1, 25, 20)};
    d.clocks = clocks;
    TimerReport t;
    t.one_shot = {one_shot("nanosleep", 120 * kUs), one_shot("clock_nanosleep rel", 110 * kUs)};
    t.periodic = {periodic("SCHED_OTHER", 60 * kUs, 150 * kUs)};
    d.timers = t;
    return through_json(d);
}

ProbeDocument windows_document() {
    ProbeDocument d;
    SystemContext c;
    c.platform = Platform::Windows;
    c.os = "Windows 10.0 build 22631";
    c.timer_resolution = timer_resolution_from_100ns(156'250, 5'000, 156'250);
    c.kernel_tick_ns = c.timer_resolution->current_ns;
    d.context = c;
    ClockProbeResult clocks;
    clocks.clocks = {clock("QueryPerformanceCounter", 100, 30, 100)};
    d.clocks = clocks;
    TimerReport t;
    // Sleep(1) at the default 15.625 ms resolution wakes at the next interrupt; the
    // high-resolution timer does not wait for it.
    t.one_shot = {one_shot("Sleep", 15 * kMs), one_shot("waitable timer hi-res", 150 * kUs)};
    t.periodic = {periodic("THREAD_PRIORITY_NORMAL", 500 * kUs, 1'900 * kUs),
                  periodic("THREAD_PRIORITY_NORMAL, hi-res timer abs", 70 * kUs, 180 * kUs)};
    d.timers = t;
    return through_json(d);
}

const CompareRow* row(const std::vector<CompareRow>& rows, const std::string& item) {
    for (const auto& r : rows) {
        if (r.item == item)
            return &r;
    }
    return nullptr;
}

}  // namespace

TEST(OsEquivalents, LinuxAndWindowsFacilitiesAreLinedUpAndTheDifferencesThatMatterMarked) {
    const ProbeDocument lin = linux_document(), win = windows_document();
    const auto rows = compare_equivalents(lin, win);
    ASSERT_EQ(rows.size(), 9u);

    const CompareRow* cost = row(rows, "monotonic clock: read cost");
    ASSERT_TRUE(cost);
    EXPECT_EQ(cost->cells[0].a, "CLOCK_MONOTONIC");
    EXPECT_EQ(cost->cells[0].b, "QueryPerformanceCounter");
    EXPECT_EQ(cost->cells[1].a, "25.0 ns");
    EXPECT_EQ(cost->cells[1].b, "30.0 ns");
    EXPECT_FALSE(cost->cells[1].matters);  // 1.2x: within one machine's noise
    const CompareRow* resolution = row(rows, "monotonic clock: resolution");
    ASSERT_TRUE(resolution);
    EXPECT_TRUE(resolution->cells[1].matters);  // 1 ns against QPC's 100 ns at 10 MHz
    EXPECT_EQ(resolution->cells[1].why, "resolution 100x coarser in B");

    const CompareRow* sleep = row(rows, "relative sleep of 1 ms: p99 overshoot");
    ASSERT_TRUE(sleep);
    EXPECT_EQ(sleep->cells[0].a, "nanosleep");
    EXPECT_EQ(sleep->cells[0].b, "Sleep");
    EXPECT_TRUE(sleep->cells[1].matters);
    EXPECT_EQ(sleep->cells[1].why, "125.0x later in B");
    const CompareRow* fine = row(rows, "finest relative sleep of 1 ms: p99 overshoot");
    ASSERT_TRUE(fine);
    EXPECT_EQ(fine->cells[0].b, "waitable timer hi-res");
    EXPECT_FALSE(fine->cells[1].matters);  // 110 us against 150 us

    // The absolute-deadline rows pair the default-scheduling clock_nanosleep row with the
    // high-resolution timer's, not with Windows' plain default row.
    const CompareRow* abs99 = row(rows, "absolute deadlines: p99 wake-up latency");
    ASSERT_TRUE(abs99);
    EXPECT_EQ(abs99->cells[0].a, "clock_nanosleep, absolute");
    EXPECT_EQ(abs99->cells[0].b, "hi-res waitable timer, absolute");
    EXPECT_EQ(abs99->cells[1].b, "180.000 us");
    EXPECT_FALSE(abs99->cells[1].matters);

    const CompareRow* grain = row(rows, "built-in wake-up lateness");
    ASSERT_TRUE(grain);
    EXPECT_EQ(grain->cells[0].a, "timer slack");
    EXPECT_EQ(grain->cells[0].b, "timer resolution");
    EXPECT_EQ(grain->cells[1].a, "50.000 us");
    EXPECT_EQ(grain->cells[1].b, "15.625 ms");
    EXPECT_TRUE(grain->cells[1].matters);
    const CompareRow* tick = row(rows, "tick of the coarse clocks");
    ASSERT_TRUE(tick);
    EXPECT_EQ(tick->cells[0].a, "kernel tick");
    EXPECT_TRUE(tick->cells[1].matters);  // 4 ms against 15.625 ms

    // Either order: A's column is always document A's.
    const auto reversed = compare_equivalents(win, lin);
    const CompareRow* back = row(reversed, "relative sleep of 1 ms: p99 overshoot");
    ASSERT_TRUE(back);
    EXPECT_EQ(back->cells[0].a, "Sleep");
    EXPECT_EQ(back->cells[1].why, "125.0x later in A");
}

TEST(OsEquivalents, TheSectionAppearsOnlyForTwoPlatformsAndCountsItsDifferences) {
    const ProbeDocument lin = linux_document(), win = windows_document();
    const auto across = compare_documents(lin, win);
    const auto it = std::find_if(across.begin(), across.end(),
                                 [](const CompareSection& s) { return s.key == "equivalents"; });
    ASSERT_NE(it, across.end());
    const std::string md = comparison_markdown(across, "linux.json", "windows.json");
    EXPECT_NE(md.find("## Equivalent facilities (Linux and Windows)"), std::string::npos) << md;
    EXPECT_NE(md.find("| nanosleep / Sleep "), std::string::npos) << md;
    EXPECT_NE(md.find("| **120.000 us / 15.000 ms** |"), std::string::npos) << md;
    EXPECT_NE(md.find("- Equivalent facilities (Linux and Windows), built-in wake-up lateness, "
                      "value: 50.000 us -> 15.625 ms: 312.5x later in B"),
              std::string::npos)
        << md;
    // Two runs on one OS: no such section, and no rows if asked directly.
    for (const auto& s : compare_documents(lin, lin))
        EXPECT_NE(s.key, "equivalents");
    EXPECT_TRUE(compare_equivalents(win, win).empty());
    // Windows' periodic variants pair with themselves in the timer tables.
    bool variant_row = false;
    for (const auto& s : compare_documents(win, win)) {
        for (const auto& r : s.rows)
            variant_row |= r.item == "default scheduling, hi-res timer abs";
    }
    EXPECT_TRUE(variant_row);
}
