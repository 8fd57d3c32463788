// The clock probe run on a made-up clock (exact figures) and, briefly, on this machine's real
// clocks through the program (structure and sane bounds only: the machine is shared and noisy).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <numeric>
#include <thread>

#include "probes/clock_probe.hpp"
#include "tests/test_support.hpp"

using namespace loopscope;
using nlohmann::json;

namespace {
std::int64_t g_fake_ticks = 0;
// A clock that advances exactly 5 ticks per read.
std::int64_t read_fake() {
    return g_fake_ticks += 5;
}
void fill_fake(std::int64_t* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        out[i] = read_fake();
}
std::int64_t spin_fake(std::size_t n) {
    std::int64_t last = 0;
    for (std::size_t i = 0; i < n; ++i)
        last = read_fake();
    return last;
}
}  // namespace

TEST(ClockProbe, MeasuresTheStreamOfAMadeUpClockExactly) {
    ClockSource fake;
    fake.name = "fake";
    fake.scale = {2, 1};  // a tick is 2 ns
    fake.resolution_ns = 2;
    fake.read = read_fake;
    fake.fill = fill_fake;
    fake.spin = spin_fake;
    ClockProbeOptions options;
    // The read count decides; the time only bounds it (a probe stops at 5 x its time budget),
    // so the budget leaves room for a slow build (ThreadSanitizer) on a busy machine.
    options.duration_ns = 100'000'000;
    options.min_reads = 100'000;
    options.cross_thread = false;
    const ClockProbeResult r = run_clock_probe(options, {fake});
    ASSERT_EQ(r.clocks.size(), 1u);
    const ClockResult& c = r.clocks[0];
    EXPECT_EQ(c.name, "fake");
    EXPECT_GE(c.reads, 100'000);
    EXPECT_EQ(c.granularity.backward_steps, 0);
    EXPECT_EQ(c.granularity.zero_deltas, 0);
    EXPECT_EQ(c.granularity.min_ticks, 5);
    EXPECT_EQ(c.granularity.median_ticks, 5);
    EXPECT_DOUBLE_EQ(c.granularity_min_ns, 10.0);
    ASSERT_EQ(c.histogram.size(), 1u);
    EXPECT_EQ(c.histogram[0].min_ns, 8);
    EXPECT_EQ(c.histogram[0].count, c.granularity.deltas);
    EXPECT_FALSE(c.cross_thread_checked);
    EXPECT_GE(c.read_cost_batches, 9);
    EXPECT_GT(c.read_cost_ns, 0.0);
}

namespace {
const json* find_clock(const json& clocks, const std::string& name) {
    for (const auto& c : clocks) {
        if (c.at("name") == name)
            return &c;
    }
    return nullptr;
}
}  // namespace

TEST(ProbeClocksCommand, WritesTheDocumentedJsonForEveryClock) {
    // Short on purpose (also under the sanitizers): structure and sane bounds, no timing goals.
    const auto r = test::run_loopscope("probe clocks --duration 100ms --reads 20000 --json -");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    EXPECT_EQ(doc.at("schema"), "loopscope-probe/1");
    ASSERT_TRUE(doc.at("context").is_object());
    EXPECT_TRUE(doc.at("context").contains("clocksource"));
    const json& clocks = doc.at("clocks");
    ASSERT_TRUE(clocks.is_array());
    for (const char* name :
         {"std::chrono::steady_clock", "std::chrono::high_resolution_clock",
          "std::chrono::system_clock", "CLOCK_MONOTONIC", "CLOCK_MONOTONIC_RAW",
          "CLOCK_MONOTONIC_COARSE", "CLOCK_BOOTTIME", "CLOCK_REALTIME", "CLOCK_REALTIME_COARSE"}) {
        EXPECT_NE(find_clock(clocks, name), nullptr) << name;
    }
    for (const auto& c : clocks) {
        SCOPED_TRACE(c.at("name").get<std::string>());
        for (const char* field : {"name", "resolution_ns", "read_cost_ns", "granularity_min_ns",
                                  "granularity_median_ns", "zero_delta_share", "backward_steps",
                                  "drift_ppm", "histogram"}) {
            EXPECT_TRUE(c.contains(field)) << field;
        }
        EXPECT_GE(c.at("reads").get<std::int64_t>(), 20000);
        const double cost = c.at("read_cost_ns");
        EXPECT_GT(cost, 0.0);
        EXPECT_LT(cost, 1e6);
        const double zero = c.at("zero_delta_share");
        EXPECT_GE(zero, 0.0);
        EXPECT_LE(zero, 1.0);
        std::int64_t in_histogram = 0;
        for (const auto& b : c.at("histogram")) {
            EXPECT_LE(b.at("min_ns").get<std::int64_t>(), b.at("max_ns").get<std::int64_t>());
            in_histogram += b.at("count").get<std::int64_t>();
        }
        // Every delta is in the histogram but the backward steps.
        EXPECT_EQ(in_histogram + c.at("backward_steps").get<std::int64_t>(),
                  c.at("deltas").get<std::int64_t>());
    }
    // high_resolution_clock: whatever it is, the JSON says whether it is steady, and in
    // libstdc++ it is system_clock.
    const json* hrc = find_clock(clocks, "std::chrono::high_resolution_clock");
    ASSERT_NE(hrc, nullptr);
    EXPECT_TRUE(hrc->at("claims_steady").is_boolean());
    // A coarse clock never steps by less than a kernel tick.
    const json& tick = doc.at("context").at("kernel_tick_ns");
    const json* coarse = find_clock(clocks, "CLOCK_MONOTONIC_COARSE");
    if (!tick.is_null() && !coarse->at("granularity_min_ns").is_null()) {
        EXPECT_GE(coarse->at("granularity_min_ns").get<double>(), 0.98 * tick.get<double>());
    }
    // Watched step by step, a coarse clock's counts add up and its steps are at least a tick.
    if (!tick.is_null()) {
        const json& steps = coarse->at("coarse_steps");
        ASSERT_TRUE(steps.is_object());
        EXPECT_EQ(steps.at("one_tick").get<std::int64_t>() +
                      steps.at("multi_tick").get<std::int64_t>() +
                      steps.at("not_whole_ticks").get<std::int64_t>(),
                  steps.at("steps").get<std::int64_t>());
        EXPECT_LE(steps.at("multi_tick_watched").get<std::int64_t>(),
                  steps.at("multi_tick").get<std::int64_t>());
        if (steps.at("steps").get<std::int64_t>() > 0) {
            EXPECT_GE(steps.at("median_step_ns").get<double>(), 0.98 * tick.get<double>());
        }
    }
    EXPECT_TRUE(find_clock(clocks, "CLOCK_MONOTONIC")->at("coarse_steps").is_null());
    // The two-core verdict of the TSC is taken with ordered reads, the plain read apart.
    if (const json* tsc = find_clock(clocks, "rdtsc"); tsc && !tsc->at("cross_thread").is_null()) {
        EXPECT_EQ(tsc->at("cross_thread").at("read"), "lfence;rdtsc");
        EXPECT_GT(tsc->at("cross_thread").at("unordered").at("reads").get<std::int64_t>(), 0);
    }
    // How busy the machine was, before and after.
    const json& load = doc.at("load");
    EXPECT_TRUE(load.at("before").contains("load_1m"));
    EXPECT_TRUE(load.at("after").contains("load_1m"));
    if (load.at("cpu_measured").get<bool>()) {
        const double other = load.at("other_cpu_share");
        const double steal = load.at("steal_share");
        EXPECT_GE(other, 0.0);
        EXPECT_LE(other + steal, 1.0);
    }
    EXPECT_TRUE(load.at("warnings").is_array());
}

TEST(ProbeClocksCommand, PrintsContextAndTablesAsMarkdownAndWritesTheJsonFile) {
    const auto dir = test::make_temp_dir("loopscope-clocks");
    const auto path = dir + "/clocks.json";
    const auto r =
        test::run_loopscope("probe clocks --duration 50ms --reads 10000 --json '" + path + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("## Context"), std::string::npos);
    EXPECT_NE(r.out.find("| clocksource"), std::string::npos);
    EXPECT_NE(r.out.find("| CLOCK_MONOTONIC "), std::string::npos);
    EXPECT_NE(r.out.find("## Findings"), std::string::npos);
    EXPECT_EQ(json::parse(test::read_text(path)).at("schema"), "loopscope-probe/1");
    std::filesystem::remove_all(dir);
}

TEST(ProbeClocksCommand, RefusesABadDurationWithExitCode2) {
    for (const char* bad : {"--duration 5", "--duration 0", "--reads 1", "--duration soon"}) {
        const auto r = test::run_loopscope(std::string("probe clocks ") + bad);
        EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("error"), std::string::npos) << bad;
    }
}

namespace {
// An ordered-read check independent of the probe's: two threads pinned to two CPUs pass a
// token back and forth; each, on receiving it, reads the counter with `read` (RDTSCP, which
// waits for the load of the token) and checks that the reading is not below the one the other
// thread took before passing the token. Returns {hand-overs, backward steps}.
std::pair<std::int64_t, std::int64_t> token_passing_check(ClockReadFn read, int cpu_a, int cpu_b,
                                                          std::int64_t budget_ns) {
    std::atomic<int> turn{0};
    std::atomic<std::int64_t> published{0};
    std::atomic<bool> stop{false};
    std::atomic<std::int64_t> hand_overs{0};
    std::atomic<std::int64_t> backward{0};
    auto worker = [&](int me, int cpu) {
        pin_current_thread(cpu);
        while (!stop.load(std::memory_order_relaxed)) {
            if (turn.load(std::memory_order_acquire) != me)
                continue;
            const std::int64_t before = published.load(std::memory_order_relaxed);
            const std::int64_t now = read();
            if (now < before)
                backward.fetch_add(1, std::memory_order_relaxed);
            published.store(now, std::memory_order_relaxed);
            hand_overs.fetch_add(1, std::memory_order_relaxed);
            turn.store(1 - me, std::memory_order_release);
        }
    };
    std::thread a(worker, 0, cpu_a);
    std::thread b(worker, 1, cpu_b);
    std::this_thread::sleep_for(std::chrono::nanoseconds(budget_ns));
    stop = true;
    a.join();
    b.join();
    return {hand_overs.load(), backward.load()};
}
}  // namespace

TEST(ClockProbe, CrossCoreVerdictOfTheTscAgreesWithAnIndependentOrderedReadCheck) {
    const std::vector<int> cpus = usable_cpus();
    if (cpus.size() < 2)
        GTEST_SKIP() << "one usable CPU: no cross-core check";
    // The probe judges the TSC with lfence;rdtsc and the max-publishing method; the check
    // beside it reads with RDTSCP and passes a token.
    std::vector<ClockSource> tsc;
    ClockReadFn rdtscp = nullptr;
    for (auto& s : clock_sources()) {
        if (s.name == "rdtsc")
            tsc.push_back(s);
        if (s.name == "rdtscp")
            rdtscp = s.read;
    }
    if (tsc.empty() || rdtscp == nullptr)
        GTEST_SKIP() << "no TSC with RDTSCP on this CPU";
    ClockProbeOptions options;
    options.duration_ns = 500'000'000;  // 100 ms of it for the two cross-core checks
    options.min_reads = 10'000;
    const ClockProbeResult r = run_clock_probe(options, tsc);
    ASSERT_EQ(r.clocks.size(), 1u);
    const ClockResult& c = r.clocks[0];
    ASSERT_TRUE(c.cross_thread_checked);
    EXPECT_EQ(c.cross_thread_read, "lfence;rdtsc");
    EXPECT_GT(c.cross_thread_reads, 0);
    EXPECT_GT(c.cross_thread_unordered_reads, 0);
    EXPECT_GE(c.cross_thread_unordered_backward_steps, 0);

    const auto [hand_overs, backward] = token_passing_check(rdtscp, cpus[0], cpus[1], 100'000'000);
    ASSERT_GT(hand_overs, 0);
    // Both say the counter is monotonic across cores, or both saw it go back.
    EXPECT_EQ(c.cross_thread_backward_steps == 0, backward == 0)
        << "probe: " << c.cross_thread_backward_steps << " back in " << c.cross_thread_reads
        << " ordered reads; token passing: " << backward << " back in " << hand_overs;
}
