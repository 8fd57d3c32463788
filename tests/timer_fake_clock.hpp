// A fake LimiterClock for exact tests of frame limiters and the periodic probe: time moves only
// when the code under test sleeps or spins, and each sleep wakes late by a scripted amount.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "probes/frame_limiter.hpp"

namespace loopscope::test {

class FakeClock final : public LimiterClock {
  public:
    std::int64_t now = 0;
    std::int64_t cpu = 0;
    std::int64_t spin_step_ns = 1'000;  // each spin_pause advances time and CPU time this much
    std::int64_t default_overshoot_ns = 0;
    std::vector<std::int64_t> overshoots_ns;  // per sleep, in order; then default_overshoot_ns
    int sleeps = 0;
    int delays = 0;
    int spins = 0;
    std::vector<std::int64_t> slept_to_ns;  // deadlines passed to sleep_until_ns
    std::vector<std::uint32_t> delayed_ms;  // arguments of delay_ms

    std::int64_t now_ns() override { return now; }
    std::int64_t thread_cpu_ns() override { return cpu; }
    void sleep_until_ns(std::int64_t deadline_ns) override {
        slept_to_ns.push_back(deadline_ns);
        now = std::max(now, deadline_ns) + next_overshoot();
        ++sleeps;
    }
    void delay_ms(std::uint32_t ms) override {
        delayed_ms.push_back(ms);
        now += static_cast<std::int64_t>(ms) * 1'000'000 + next_overshoot();
        ++delays;
    }
    void spin_pause() override {
        now += spin_step_ns;
        cpu += spin_step_ns;
        ++spins;
    }

  private:
    std::int64_t next_overshoot() {
        const auto i = static_cast<std::size_t>(sleeps + delays);
        return i < overshoots_ns.size() ? overshoots_ns[i] : default_overshoot_ns;
    }
};

}  // namespace loopscope::test
