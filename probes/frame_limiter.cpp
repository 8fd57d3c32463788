// Frame limiter logic, portable: every OS call goes through LimiterClock. The one sleep-then-spin
// wait of the project: the timer probe, the real-clock runner and the viewer's live harness call
// it.
#include "probes/frame_limiter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "core/units.hpp"
#include "probes/timer_waits.hpp"

namespace loopscope {

namespace {
std::int64_t steady_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
}  // namespace

ReadLimiterClock::ReadLimiterClock(std::int64_t (*now_ns)())
    : read_(now_ns ? now_ns : &steady_now_ns), os_(system_limiter_clock()) {}

std::int64_t ReadLimiterClock::now_ns() {
    return read_();
}
std::int64_t ReadLimiterClock::thread_cpu_ns() {
    return os_.thread_cpu_ns();
}
void ReadLimiterClock::sleep_until_ns(std::int64_t deadline_ns) {
    // A relative sleep: the deadline is on this clock, which the OS may not sleep on directly.
    const std::int64_t left_ns = deadline_ns - read_();
    if (left_ns > 0)
        std::this_thread::sleep_for(std::chrono::nanoseconds(left_ns));
}
void ReadLimiterClock::delay_ms(std::uint32_t ms) {
    os_.delay_ms(ms);
}
void ReadLimiterClock::spin_pause() {
    os_.spin_pause();
}

namespace {
std::string kind_name(const LimiterSpec& spec) {
    switch (spec.kind) {
        case LimiterKind::sleep:
            return "sleep";
        case LimiterKind::sleep_spin:
            if (spec.margin_ns % kNsPerMs == 0)
                return fmt::format("sleep+spin {}ms", spec.margin_ns / kNsPerMs);
            return fmt::format("sleep+spin {:g}ms", ns_to_ms(spec.margin_ns));
        case LimiterKind::spin:
            return "spin";
        case LimiterKind::delay_ms:
            return "SDL_Delay";
        case LimiterKind::adaptive_spin:
            return "adaptive spin";
    }
    return "?";
}
}  // namespace

std::string LimiterSpec::name() const {
    return variant.empty() ? kind_name(*this) : fmt::format("{} ({})", kind_name(*this), variant);
}

std::int64_t adaptive_margin_next_ns(std::int64_t margin_ns, std::int64_t lateness_ns,
                                     std::int64_t period_ns) {
    const std::int64_t late_ns = std::max<std::int64_t>(lateness_ns, 0);
    const std::int64_t next_ns =
        late_ns >= margin_ns ? late_ns + late_ns / 4 : margin_ns - (margin_ns - late_ns) / 8;
    return std::clamp(next_ns, kAdaptiveMinMarginNs, std::max(kAdaptiveMinMarginNs, period_ns / 2));
}

void wait_until_deadline(const LimiterSpec& spec, LimiterClock& clock, std::int64_t deadline_ns) {
    switch (spec.kind) {
        case LimiterKind::sleep:
            if (clock.now_ns() < deadline_ns)
                clock.sleep_until_ns(deadline_ns);
            return;
        case LimiterKind::sleep_spin:
        case LimiterKind::adaptive_spin:
            if (clock.now_ns() < deadline_ns - spec.margin_ns) {
                clock.sleep_until_ns(deadline_ns - spec.margin_ns);
            }
            while (clock.now_ns() < deadline_ns)
                clock.spin_pause();
            return;
        case LimiterKind::spin:
            while (clock.now_ns() < deadline_ns)
                clock.spin_pause();
            return;
        case LimiterKind::delay_ms: {
            // What a typical SDL game does: the remaining time in whole milliseconds, rounded
            // down so that it never sleeps past the deadline on purpose.
            const std::int64_t remaining_ns = deadline_ns - clock.now_ns();
            if (remaining_ns >= kNsPerMs) {
                clock.delay_ms(static_cast<std::uint32_t>(remaining_ns / kNsPerMs));
            }
            return;
        }
    }
}

FrameLimiter::FrameLimiter(LimiterSpec spec, std::int64_t period_ns, LimiterClock& clock)
    : spec_(spec), margin_ns_(spec.margin_ns), period_ns_(period_ns), clock_(clock) {
    if (period_ns <= 0)
        throw std::invalid_argument("frame period must be positive");
}

std::int64_t FrameLimiter::wait() {
    if (!started_) {
        started_ = true;
        next_deadline_ns_ = clock_.now_ns() + period_ns_;
    }
    if (spec_.kind == LimiterKind::adaptive_spin) {
        // As sleep_spin, with the margin of this frame; the sleep's lateness sets the next one.
        const std::int64_t target_ns = next_deadline_ns_ - margin_ns_;
        if (clock_.now_ns() < target_ns) {
            clock_.sleep_until_ns(target_ns);
            margin_ns_ =
                adaptive_margin_next_ns(margin_ns_, clock_.now_ns() - target_ns, period_ns_);
        }
        while (clock_.now_ns() < next_deadline_ns_)
            clock_.spin_pause();
    } else {
        wait_until_deadline(spec_, clock_, next_deadline_ns_);
    }
    const std::int64_t start_ns = clock_.now_ns();
    next_deadline_ns_ += period_ns_;
    // Woke after the following deadline too: a whole frame was missed. Catching up would run
    // frames back to back, so restart the schedule from here.
    if (start_ns >= next_deadline_ns_) {
        next_deadline_ns_ = start_ns + period_ns_;
        ++resyncs_;
    }
    return start_ns;
}

LimiterRun run_limiter(const LimiterSpec& spec, LimiterClock& clock, std::int64_t period_ns,
                       int frames) {
    LimiterRun run;
    if (frames <= 0)
        return run;
    run.error_ns.reserve(static_cast<std::size_t>(frames));
    run.cpu_ns.reserve(static_cast<std::size_t>(frames));
    // The thread's setup for this clock (MMCSS) for the whole run, undone on every way out.
    struct RunScope {
        LimiterClock& clock;
        ~RunScope() { clock.end_run(); }
    };
    run.setup_note = clock.begin_run();
    const RunScope scope{clock};
    FrameLimiter limiter(spec, period_ns, clock);
    std::int64_t previous_start_ns = limiter.wait();
    std::int64_t previous_cpu_ns = clock.thread_cpu_ns();
    for (int i = 0; i < frames; ++i) {
        const std::int64_t start_ns = limiter.wait();
        const std::int64_t cpu_now_ns = clock.thread_cpu_ns();
        run.error_ns.push_back(start_ns - previous_start_ns - period_ns);
        run.cpu_ns.push_back(cpu_now_ns - previous_cpu_ns);
        previous_start_ns = start_ns;
        previous_cpu_ns = cpu_now_ns;
    }
    run.resyncs = limiter.resyncs();
    return run;
}

}  // namespace loopscope
