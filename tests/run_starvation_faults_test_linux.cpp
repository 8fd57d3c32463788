// `loopscope run` on the real clock starved of CPU (Linux: the run and a busy process share one
// CPU through sched_setaffinity, the run at nice 10, so it gets a small share of that CPU and
// its frames come late and irregular): it still completes, its verdict and figures keep their
// structure and bounds, and its trace reads back consistent with them. Nothing here depends on
// how much CPU the run got: only structure and bounds are asserted.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>

#include "readers/readers.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

using namespace std::chrono_literals;

// The first CPU this process may run on.
int first_allowed_cpu() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set))
            return cpu;
    }
    return 0;
}

void pin_to(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    ::sched_setaffinity(0, sizeof set, &set);
}

TEST(RunFaults, ARealClockRunStarvedOfCpuCompletesWithSaneFiguresAndATraceThatReadsBack) {
    const std::string dir = test::make_temp_dir("run-starved");
    const std::string trace = dir + "/run.csv";
    const std::string json = dir + "/run.json";
    const int cpu = first_allowed_cpu();

    const pid_t busy = ::fork();
    ASSERT_GE(busy, 0);
    if (busy == 0) {
        pin_to(cpu);
        std::atomic<std::uint64_t> spin{0};  // work the compiler cannot drop
        for (;;)
            spin.fetch_add(1, std::memory_order_relaxed);
    }
    const auto started = std::chrono::steady_clock::now();
    const pid_t run = ::fork();
    if (run == 0) {
        pin_to(cpu);
        ::setpriority(PRIO_PROCESS, 0, 10);
        ::execl(LOOPSCOPE_EXE, LOOPSCOPE_EXE, "run", "--clock", "steady_clock", "--seconds", "0.6",
                "-o", trace.c_str(), "--json", json.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    // A run that hangs fails here instead of holding the test until its time-out.
    int status = 0;
    pid_t done = 0;
    while (run > 0 && (done = ::waitpid(run, &status, WNOHANG)) == 0 &&
           std::chrono::steady_clock::now() - started < 60s) {
        std::this_thread::sleep_for(10ms);
    }
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ::kill(busy, SIGKILL);
    ::waitpid(busy, nullptr, 0);
    ASSERT_GT(run, 0);
    if (done == 0) {
        ::kill(run, SIGKILL);
        ::waitpid(run, nullptr, 0);
        FAIL() << "the starved run did not end within a minute";
    }
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;

    const nlohmann::json j = nlohmann::json::parse(test::read_text(json));
    const std::int64_t frames = j.at("frames").get<std::int64_t>();
    const double real_s = j.at("real_s").get<double>();
    const double sim_s = j.at("sim_s").get<double>();
    const std::int64_t dt_ns = j.at("config").at("dt_ns").get<std::int64_t>();
    const std::int64_t clamp_ns = j.at("config").at("clamp_ns").get<std::int64_t>();
    EXPECT_GE(frames, 1);
    EXPECT_GT(real_s, 0.0);
    EXPECT_LE(real_s, wall_s);
    // Simulation time never runs ahead of the real time the clamp let through.
    EXPECT_GE(sim_s, 0.0);
    EXPECT_LE(sim_s, real_s);
    std::int64_t histogram_frames = 0, histogram_steps = 0;
    for (const auto& [steps, count] : j.at("steps_histogram").items()) {
        histogram_frames += count.get<std::int64_t>();
        histogram_steps += std::stoll(steps) * count.get<std::int64_t>();
    }
    EXPECT_EQ(histogram_frames, frames);
    EXPECT_EQ(histogram_steps, j.at("steps").get<std::int64_t>());
    const nlohmann::json& guards = j.at("guards");
    EXPECT_GE(guards.at("clamp_frames").get<std::int64_t>(), 0);
    EXPECT_LE(guards.at("clamp_frames").get<std::int64_t>(), frames);
    EXPECT_GE(guards.at("clamp_lost_ms").get<double>(), 0.0);
    EXPECT_LE(guards.at("clamp_lost_ms").get<double>(), real_s * 1e3);
    const std::string state = j.at("verdict").at("state").get<std::string>();
    EXPECT_TRUE(state == "ok" || state == "saturated" || state == "spiral") << state;
    EXPECT_FALSE(j.at("verdict").at("cause").get<std::string>().empty());

    // The trace holds the same frames, each within the loop's bounds.
    const Capture c = read_capture(trace);
    ASSERT_EQ(static_cast<std::int64_t>(c.loop.size()), frames);
    std::int64_t raw_sum_ns = 0, steps = 0;
    const std::int64_t most_steps = (clamp_ns + dt_ns - 1) / dt_ns;
    for (std::size_t i = 0; i < c.loop.size(); ++i) {
        const FrameRecord& r = c.loop[i];
        SCOPED_TRACE(i);
        EXPECT_EQ(r.frame, static_cast<std::int64_t>(i));
        EXPECT_GE(r.raw_ns, 0);
        EXPECT_EQ(r.clamped_ns, std::min(r.raw_ns, clamp_ns));
        EXPECT_LE(r.steps, most_steps);
        EXPECT_GE(r.acc_after_ns, 0);
        EXPECT_LT(r.acc_after_ns, dt_ns);
        EXPECT_GE(r.wait_ns, 0);
        raw_sum_ns += r.raw_ns;
        steps += r.steps;
    }
    EXPECT_NEAR(static_cast<double>(raw_sum_ns) * 1e-9, real_s, 1e-6);
    EXPECT_EQ(steps, j.at("steps").get<std::int64_t>());
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
