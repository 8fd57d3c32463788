// Linux ways to wait: sleep_for, nanosleep, clock_nanosleep (relative and to an absolute
// deadline) and SDL_Delay when SDL is built in; timer slack through prctl; SCHED_FIFO and
// mlockall for the periodic probe, as cyclictest uses them.
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "core/units.hpp"
#include "probes/timer_waits.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#ifdef LOOPSCOPE_HAVE_SDL
#include <SDL.h>
#endif

namespace loopscope {

namespace {

timespec to_timespec(std::int64_t ns) {
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(ns / kNsPerS);
    ts.tv_nsec = static_cast<long>(ns % kNsPerS);
    return ts;
}

std::int64_t read_clock_ns(clockid_t id) {
    timespec ts{};
    ::clock_gettime(id, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * kNsPerS + ts.tv_nsec;
}

// A signal must not cut a measured sleep short: continue with what the kernel says remains.
void nanosleep_full(std::int64_t ns) {
    timespec req = to_timespec(ns), rem{};
    while (::nanosleep(&req, &rem) == -1 && errno == EINTR)
        req = rem;
}

void clock_nanosleep_relative(std::int64_t ns) {
    timespec req = to_timespec(ns), rem{};
    while (::clock_nanosleep(CLOCK_MONOTONIC, 0, &req, &rem) == EINTR)
        req = rem;
}

// An absolute deadline survives a signal unchanged: simply sleep again.
void clock_nanosleep_absolute(std::int64_t deadline_ns) {
    const timespec deadline = to_timespec(deadline_ns);
    while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr) == EINTR) {
    }
}

void delay_whole_ms(std::uint32_t ms) {
#ifdef LOOPSCOPE_HAVE_SDL
    SDL_Delay(ms);
#else
    nanosleep_full(static_cast<std::int64_t>(ms) * kNsPerMs);
#endif
}

class LinuxLimiterClock final : public LimiterClock {
  public:
    std::int64_t now_ns() override { return read_clock_ns(CLOCK_MONOTONIC); }
    std::int64_t thread_cpu_ns() override { return read_clock_ns(CLOCK_THREAD_CPUTIME_ID); }
    void sleep_until_ns(std::int64_t deadline_ns) override {
        clock_nanosleep_absolute(deadline_ns);
    }
    void delay_ms(std::uint32_t ms) override { delay_whole_ms(ms); }
    void spin_pause() override {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();  // eases the sibling hyper-thread and the power draw while spinning
#endif
    }
};

}  // namespace

std::int64_t monotonic_now_ns() {
    return read_clock_ns(CLOCK_MONOTONIC);
}

LimiterClock& system_limiter_clock() {
    static LinuxLimiterClock clock;
    return clock;
}

std::vector<WaitMethod> one_shot_wait_methods() {
    std::vector<WaitMethod> methods;
    methods.push_back({"sleep_for", "std::this_thread::sleep_for", false, 1, [](std::int64_t ns) {
                           std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
                       }});
    methods.push_back({"nanosleep", "nanosleep(2), relative", false, 1, nanosleep_full});
    methods.back().measures_timer_slack = true;  // the sleep PR_SET_TIMERSLACK acts on
    methods.push_back({"clock_nanosleep rel", "clock_nanosleep(CLOCK_MONOTONIC), relative", false,
                       1, clock_nanosleep_relative});
    methods.push_back({"clock_nanosleep abs",
                       "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to a deadline", true, 1,
                       clock_nanosleep_absolute});
#ifdef LOOPSCOPE_HAVE_SDL
    methods.push_back({"SDL_Delay", "SDL_Delay, whole milliseconds (requests rounded up)", false,
                       kNsPerMs,
                       [](std::int64_t ns) { SDL_Delay(static_cast<Uint32>(ns / kNsPerMs)); }});
#endif
    return methods;
}

std::vector<LimiterSpec> frame_limiter_specs() {
    std::vector<LimiterSpec> specs{
        {LimiterKind::sleep, 0},
        {LimiterKind::sleep_spin, kNsPerMs / 2},
        {LimiterKind::sleep_spin, kNsPerMs},
        {LimiterKind::sleep_spin, 2 * kNsPerMs},
        {LimiterKind::spin, 0},
        // Starts at 1 ms and follows the wake-ups of clock_nanosleep from there.
        {LimiterKind::adaptive_spin, kNsPerMs},
    };
#ifdef LOOPSCOPE_HAVE_SDL
    specs.push_back({LimiterKind::delay_ms, 0});
#endif
    return specs;
}

std::vector<PeriodicVariant> periodic_variants() {
    return {};  // clock_nanosleep to an absolute deadline is Linux's one way
}

std::optional<std::int64_t> current_timer_slack_ns() {
    const int slack = ::prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    if (slack < 0)
        return std::nullopt;
    return slack;
}

bool set_timer_slack_ns(std::int64_t slack_ns) {
    // 0 would mean "back to the default", not "no slack": callers pass at least 1.
    if (slack_ns <= 0)
        return false;
    return ::prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(slack_ns), 0, 0, 0) == 0;
}

namespace {

bool address_sanitizer_build() {
#if defined(__SANITIZE_ADDRESS__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return true;
#else
    return false;
#endif
#else
    return false;
#endif
}

constexpr int kFifoPriority = 80;  // above the kernel's threaded interrupt handlers (50)

}  // namespace

ScheduledRun run_on_thread(bool want_realtime, const std::function<void()>& fn) {
    ScheduledRun result;
    result.scheduling = "SCHED_OTHER";
    std::vector<std::string> notes;
    if (want_realtime) {
        // AddressSanitizer reserves terabytes of shadow memory: locking it all would not end.
        if (address_sanitizer_build()) {
            notes.push_back("mlockall skipped in an AddressSanitizer build");
        } else if (::mlockall(MCL_CURRENT | MCL_FUTURE) == 0) {
            result.memory_locked = true;
        } else {
            notes.push_back(fmt::format("mlockall refused: {}", std::strerror(errno)));
        }
    }
    int fifo_error = 0;
    std::thread worker([&] {
        if (want_realtime) {
            sched_param param{};
            param.sched_priority = kFifoPriority;
            fifo_error = ::pthread_setschedparam(::pthread_self(), SCHED_FIFO, &param);
            if (fifo_error == 0)
                result.realtime = true;
        }
        fn();
    });
    worker.join();
    if (result.memory_locked)
        ::munlockall();
    if (want_realtime && !result.realtime) {
        notes.insert(notes.begin(),
                     fmt::format("SCHED_FIFO refused: {}", std::strerror(fifo_error)));
    }
    if (result.realtime)
        result.scheduling = fmt::format("SCHED_FIFO {}", kFifoPriority);
    for (const auto& n : notes)
        result.note += (result.note.empty() ? "" : "; ") + n;
    return result;
}

}  // namespace loopscope
