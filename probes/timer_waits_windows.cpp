// Windows ways to wait: sleep_for, Sleep at the default timer resolution, with
// timeBeginPeriod(1) and with NtSetTimerResolution at the finest resolution in effect, SleepEx,
// yield loops on Sleep(0) and SwitchToThread, and waitable timers with and without
// CREATE_WAITABLE_TIMER_HIGH_RESOLUTION, relative and to an absolute deadline; MMCSS
// (AvSetMmThreadCharacteristics "Games", from avrt.dll when it is there) on and off for the
// periodic and limiter measurements. The monotonic clock is QueryPerformanceCounter. Windows
// has no timer slack; the periodic probe's real-time run raises the thread to
// THREAD_PRIORITY_TIME_CRITICAL.
//
// timeBeginPeriod(1) and NtSetTimerResolution raise the resolution for this process (since
// Windows 10 2004, no longer for the whole system). Only the "Sleep 1ms period" and "Sleep finest
// period" methods want them; every other wait puts the default back first, so each measures what
// its name says, and the default is restored at exit and on Ctrl+C (a console control handler),
// whatever the probe was doing.
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <windows.h>
// After windows.h, whose types it uses.
#include <mmsystem.h>

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "core/units.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_waits.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#ifndef CREATE_WAITABLE_TIMER_HIGH_RESOLUTION
#define CREATE_WAITABLE_TIMER_HIGH_RESOLUTION 0x00000002
#endif

namespace loopscope {

namespace {

// ---- the process's timer resolution (timeBeginPeriod, NtSetTimerResolution) ----

// What this process has asked for; one request at a time, so that each method measures its own.
enum class Raise : int { none, begin_period_1ms, finest };
constexpr UINT kRaisedPeriodMs = 1;
std::atomic<Raise> g_raise{Raise::none};
std::atomic<ULONG> g_finest_100ns{0};  // what NtSetTimerResolution was asked for

using NtSetTimerResolutionFn = LONG(NTAPI*)(ULONG, BOOLEAN, PULONG);

NtSetTimerResolutionFn nt_set_timer_resolution() {
    static const NtSetTimerResolutionFn fn = []() -> NtSetTimerResolutionFn {
        HMODULE ntdll = ::GetModuleHandleA("ntdll.dll");
        FARPROC p = ntdll ? ::GetProcAddress(ntdll, "NtSetTimerResolution") : nullptr;
        // Through void(*)(): GCC's -Wcast-function-type accepts that route on purpose.
        return p ? reinterpret_cast<NtSetTimerResolutionFn>(reinterpret_cast<void (*)()>(p))
                 : nullptr;
    }();
    return fn;
}

void restore_default_period() {
    const Raise was = g_raise.exchange(Raise::none);
    if (was == Raise::begin_period_1ms) {
        ::timeEndPeriod(kRaisedPeriodMs);
    } else if (was == Raise::finest) {
        ULONG actual = 0;
        nt_set_timer_resolution()(g_finest_100ns.load(), FALSE, &actual);
    }
}

// Ctrl+C and the other console events: restore, then hand the event on (FALSE) so that the
// program still ends as it would have.
BOOL WINAPI restore_on_console_event(DWORD /*event*/) {
    restore_default_period();
    return FALSE;
}

void use_raise(Raise want) {
    if (g_raise.load() == want)
        return;
    static const bool restore_installed = [] {
        std::atexit(restore_default_period);
        ::SetConsoleCtrlHandler(restore_on_console_event, TRUE);
        return true;
    }();
    (void)restore_installed;
    restore_default_period();
    if (want == Raise::begin_period_1ms) {
        if (::timeBeginPeriod(kRaisedPeriodMs) == TIMERR_NOERROR)
            g_raise.store(want);
    } else if (want == Raise::finest) {
        const auto r = read_timer_resolution();
        ULONG actual = 0;
        if (r && r->max_ns > 0 && nt_set_timer_resolution()) {
            const auto finest = static_cast<ULONG>(r->max_ns / 100);
            if (nt_set_timer_resolution()(finest, TRUE, &actual) >= 0) {
                g_finest_100ns.store(finest);
                g_raise.store(want);
            }
        }
    }
}

void use_raised_period(bool raised) {
    use_raise(raised ? Raise::begin_period_1ms : Raise::none);
}

// ---- clocks ----

std::int64_t qpc_ns() {
    static const std::int64_t hz = [] {
        LARGE_INTEGER f;
        ::QueryPerformanceFrequency(&f);
        return static_cast<std::int64_t>(f.QuadPart);
    }();
    LARGE_INTEGER t;
    ::QueryPerformanceCounter(&t);
    // Whole seconds and the remainder apart: ticks * 1e9 would overflow after ~15 min at 10 MHz.
    const std::int64_t ticks = static_cast<std::int64_t>(t.QuadPart);
    return ticks / hz * kNsPerS + ticks % hz * kNsPerS / hz;
}

std::int64_t hundred_ns(const FILETIME& f) {
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(f.dwHighDateTime) << 32) |
                                     f.dwLowDateTime);
}

// Kernel + user time of this thread. Windows charges it at timer ticks, so it moves in steps of
// the timer resolution: a limiter's CPU time per frame is only meaningful over many frames.
std::int64_t thread_cpu_time_ns() {
    FILETIME created, exited, kernel, user;
    if (!::GetThreadTimes(::GetCurrentThread(), &created, &exited, &kernel, &user))
        return 0;
    return (hundred_ns(kernel) + hundred_ns(user)) * 100;
}

// ---- waits ----

DWORD whole_ms(std::int64_t ns) {
    return static_cast<DWORD>((ns + kNsPerMs - 1) / kNsPerMs);
}

// One waitable timer per thread and kind, made on first use: creating one per wait would be
// measured along with the wait.
HANDLE waitable_timer(bool high_resolution) {
    struct Timer {
        HANDLE handle = nullptr;
        bool made = false;
        ~Timer() {
            if (handle != nullptr)
                ::CloseHandle(handle);
        }
    };
    thread_local Timer timers[2];
    Timer& t = timers[high_resolution ? 1 : 0];
    if (!t.made) {
        t.made = true;
        t.handle = ::CreateWaitableTimerExW(
            nullptr, nullptr, high_resolution ? CREATE_WAITABLE_TIMER_HIGH_RESOLUTION : 0,
            TIMER_ALL_ACCESS);
    }
    return t.handle;
}

bool high_resolution_timer_available() {
    static const bool available = [] {
        HANDLE h = ::CreateWaitableTimerExW(nullptr, nullptr, CREATE_WAITABLE_TIMER_HIGH_RESOLUTION,
                                            TIMER_ALL_ACCESS);
        if (h == nullptr)
            return false;
        ::CloseHandle(h);
        return true;
    }();
    return available;
}

// A relative due time is negative, in 100 ns units.
void wait_on_timer(bool high_resolution, std::int64_t ns) {
    HANDLE timer = waitable_timer(high_resolution);
    if (timer == nullptr) {
        ::Sleep(whole_ms(ns));
        return;
    }
    LARGE_INTEGER due;
    due.QuadPart = -std::max<std::int64_t>(ns / 100, 1);
    if (!::SetWaitableTimer(timer, &due, 0, nullptr, nullptr, FALSE)) {
        ::Sleep(whole_ms(ns));
        return;
    }
    ::WaitForSingleObject(timer, INFINITE);
}

// An absolute due time is a positive FILETIME on the system time (UTC), not on QPC: the deadline
// is moved onto it by reading both clocks once, here, so the timer itself waits for an absolute
// point that does not move if the thread is preempted after computing it.
bool wait_on_timer_absolute(bool high_resolution, std::int64_t deadline_qpc_ns) {
    HANDLE timer = waitable_timer(high_resolution);
    if (timer == nullptr)
        return false;
    FILETIME now_ft;
    ::GetSystemTimePreciseAsFileTime(&now_ft);
    const std::int64_t left_ns = deadline_qpc_ns - qpc_ns();
    if (left_ns <= 0)
        return true;
    LARGE_INTEGER due;
    due.QuadPart = hundred_ns(now_ft) + (left_ns + 99) / 100;
    if (!::SetWaitableTimer(timer, &due, 0, nullptr, nullptr, FALSE))
        return false;
    ::WaitForSingleObject(timer, INFINITE);
    return true;
}

// Whether this kind of timer takes an absolute due time at all (set one 10 ms ahead and cancel
// it): where it does not, the absolute variants are reported unavailable rather than measured
// as something else.
bool try_absolute_due_time(bool high_resolution) {
    HANDLE timer = waitable_timer(high_resolution);
    if (timer == nullptr || (high_resolution && !high_resolution_timer_available()))
        return false;
    FILETIME now_ft;
    ::GetSystemTimePreciseAsFileTime(&now_ft);
    LARGE_INTEGER due;
    due.QuadPart = hundred_ns(now_ft) + 10 * kNsPerMs / 100;
    if (!::SetWaitableTimer(timer, &due, 0, nullptr, nullptr, FALSE))
        return false;
    ::CancelWaitableTimer(timer);
    return true;
}

bool absolute_due_time_accepted(bool high_resolution) {
    static const bool accepted[2] = {try_absolute_due_time(false), try_absolute_due_time(true)};
    return accepted[high_resolution ? 1 : 0];
}

// ---- MMCSS ----

// avrt.dll is loaded at run time: it is missing on Windows Server Core and some wine prefixes,
// where MMCSS is reported unavailable instead of the program failing to start.
struct Avrt {
    using SetFn = HANDLE(WINAPI*)(LPCWSTR, LPDWORD);
    using RevertFn = BOOL(WINAPI*)(HANDLE);
    SetFn set = nullptr;
    RevertFn revert = nullptr;
    std::string missing;  // why MMCSS cannot be used; empty when it can
};

const Avrt& avrt() {
    static const Avrt a = [] {
        Avrt out;
        HMODULE dll = ::LoadLibraryW(L"avrt.dll");
        if (dll == nullptr) {
            out.missing = "avrt.dll could not be loaded";
            return out;
        }
        // Through void(*)(): GCC's -Wcast-function-type accepts that route on purpose.
        const auto fn = [&](const char* name) {
            return reinterpret_cast<void (*)()>(::GetProcAddress(dll, name));
        };
        out.set = reinterpret_cast<Avrt::SetFn>(fn("AvSetMmThreadCharacteristicsW"));
        out.revert = reinterpret_cast<Avrt::RevertFn>(fn("AvRevertMmThreadCharacteristics"));
        if (out.set == nullptr || out.revert == nullptr)
            out.missing = "avrt.dll has no AvSetMmThreadCharacteristicsW";
        return out;
    }();
    return a;
}

template <class Yield>
void yield_until(std::int64_t ns, Yield yield) {
    const std::int64_t deadline_ns = qpc_ns() + ns;
    while (qpc_ns() < deadline_ns)
        yield();
}

// How a WindowsLimiterClock sleeps to a deadline.
enum class Sleeper {
    timer_relative,  // a high-resolution waitable timer (where there is one) for the time left
    hires_absolute,  // a high-resolution waitable timer to the absolute deadline
    timer_absolute,  // a waitable timer without the flag, to the absolute deadline
    sleep_1ms,       // Sleep(whole ms left, rounded down) with timeBeginPeriod(1) in effect
};

class WindowsLimiterClock final : public LimiterClock {
  public:
    explicit WindowsLimiterClock(Sleeper sleeper = Sleeper::timer_relative, bool mmcss = false)
        : sleeper_(sleeper), mmcss_(mmcss) {}

    std::int64_t now_ns() override { return qpc_ns(); }
    std::int64_t thread_cpu_ns() override { return thread_cpu_time_ns(); }
    void sleep_until_ns(std::int64_t deadline_ns) override {
        use_raised_period(sleeper_ == Sleeper::sleep_1ms);
        const std::int64_t left_ns = deadline_ns - qpc_ns();
        if (left_ns <= 0)
            return;
        switch (sleeper_) {
            case Sleeper::timer_relative:
                wait_on_timer(high_resolution_timer_available(), left_ns);
                return;
            case Sleeper::hires_absolute:
            case Sleeper::timer_absolute:
                if (!wait_on_timer_absolute(sleeper_ == Sleeper::hires_absolute, deadline_ns))
                    wait_on_timer(sleeper_ == Sleeper::hires_absolute, left_ns);
                return;
            case Sleeper::sleep_1ms:
                // Rounded down, as a game does, so that Sleep never passes the deadline on
                // purpose; under 1 ms nothing is slept (a sleep+spin spins it).
                if (left_ns >= kNsPerMs)
                    ::Sleep(static_cast<DWORD>(left_ns / kNsPerMs));
                return;
        }
    }
    // MMCSS "Games" for this run's thread: the scheduler boosts it while it is registered.
    std::string begin_run() override {
        if (!mmcss_)
            return {};
        if (!avrt().missing.empty())
            return "MMCSS unavailable: " + avrt().missing;
        DWORD task_index = 0;
        mmcss_handle_ = avrt().set(L"Games", &task_index);
        if (mmcss_handle_ == nullptr)
            return fmt::format("AvSetMmThreadCharacteristicsW(\"Games\") failed (error {})",
                               ::GetLastError());
        return {};
    }
    void end_run() override {
        if (mmcss_handle_ != nullptr)
            avrt().revert(mmcss_handle_);
        mmcss_handle_ = nullptr;
    }
    void delay_ms(std::uint32_t ms) override {
        use_raised_period(false);
        ::Sleep(ms);
    }
    // As in the Linux file, on purpose: the pause is part of each OS's LimiterClock, and four
    // lines do not earn a shared header.
    void spin_pause() override {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();  // eases the sibling hyper-thread and the power draw while spinning
#endif
    }

  private:
    Sleeper sleeper_;
    bool mmcss_;
    HANDLE mmcss_handle_ = nullptr;  // one run at a time per clock
};

// The clocks of the limiter and periodic variants, one each, for the life of the program.
WindowsLimiterClock& variant_clock(Sleeper sleeper, bool mmcss) {
    static WindowsLimiterClock clocks[4][2] = {
        {WindowsLimiterClock(Sleeper::timer_relative, false),
         WindowsLimiterClock(Sleeper::timer_relative, true)},
        {WindowsLimiterClock(Sleeper::hires_absolute, false),
         WindowsLimiterClock(Sleeper::hires_absolute, true)},
        {WindowsLimiterClock(Sleeper::timer_absolute, false),
         WindowsLimiterClock(Sleeper::timer_absolute, true)},
        {WindowsLimiterClock(Sleeper::sleep_1ms, false),
         WindowsLimiterClock(Sleeper::sleep_1ms, true)},
    };
    return clocks[static_cast<int>(sleeper)][mmcss ? 1 : 0];
}

}  // namespace

std::int64_t monotonic_now_ns() {
    return qpc_ns();
}

LimiterClock& system_limiter_clock() {
    return variant_clock(Sleeper::timer_relative, false);
}

std::vector<PeriodicVariant> periodic_variants() {
    std::vector<PeriodicVariant> out;
    const auto absolute = [&out](bool high_resolution, const char* name, Sleeper sleeper) {
        if (absolute_due_time_accepted(high_resolution))
            out.push_back({name, &variant_clock(sleeper, false), {}});
        else
            out.push_back({name, nullptr, "SetWaitableTimer refused an absolute due time"});
    };
    if (high_resolution_timer_available())
        absolute(true, "hi-res timer abs", Sleeper::hires_absolute);
    absolute(false, "waitable timer abs", Sleeper::timer_absolute);
    // No Sleep row: Sleep waits whole milliseconds rounded down (as a limiter sleeps before it
    // spins), so it wakes before an absolute deadline by design; the one-shot table has it.
    // MMCSS on, with the default sleep: the row beside the plain default-scheduling one.
    if (avrt().missing.empty())
        out.push_back({"MMCSS Games", &variant_clock(Sleeper::timer_relative, true), {}});
    else
        out.push_back({"MMCSS Games", nullptr, "MMCSS unavailable: " + avrt().missing});
    return out;
}

std::vector<WaitMethod> one_shot_wait_methods() {
    std::vector<WaitMethod> methods;
    methods.push_back({"sleep_for", "std::this_thread::sleep_for", false, 1, [](std::int64_t ns) {
                           use_raised_period(false);
                           std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
                       }});
    methods.push_back({"Sleep", "Sleep(ms) at the default timer resolution (requests rounded up)",
                       false, kNsPerMs, [](std::int64_t ns) {
                           use_raised_period(false);
                           ::Sleep(whole_ms(ns));
                       }});
    methods.push_back({"Sleep 1ms period", "Sleep(ms) with timeBeginPeriod(1) in effect", false,
                       kNsPerMs, [](std::int64_t ns) {
                           use_raised_period(true);
                           ::Sleep(whole_ms(ns));
                       }});
    if (nt_set_timer_resolution() != nullptr && read_timer_resolution()) {
        methods.push_back({"Sleep finest period",
                           "Sleep(ms) with NtSetTimerResolution at the finest resolution", false,
                           kNsPerMs, [](std::int64_t ns) {
                               use_raise(Raise::finest);
                               ::Sleep(whole_ms(ns));
                           }});
    }
    methods.push_back({"SleepEx", "SleepEx(ms, alertable) at the default timer resolution", false,
                       kNsPerMs, [](std::int64_t ns) {
                           use_raised_period(false);
                           ::SleepEx(whole_ms(ns), TRUE);
                       }});
    methods.push_back({"Sleep(0) loop", "Sleep(0) until the time is up: yields to ready threads",
                       false, 1, [](std::int64_t ns) {
                           use_raised_period(false);
                           yield_until(ns, [] { ::Sleep(0); });
                       }});
    methods.push_back({"SwitchToThread loop",
                       "SwitchToThread until the time is up: yields on this CPU only", false, 1,
                       [](std::int64_t ns) {
                           use_raised_period(false);
                           yield_until(ns, [] { ::SwitchToThread(); });
                       }});
    methods.push_back({"waitable timer", "a waitable timer, relative due time (100 ns units)",
                       false, 100, [](std::int64_t ns) {
                           use_raised_period(false);
                           wait_on_timer(false, ns);
                       }});
    if (high_resolution_timer_available()) {
        methods.push_back({"waitable timer hi-res",
                           "a waitable timer made with CREATE_WAITABLE_TIMER_HIGH_RESOLUTION",
                           false, 100, [](std::int64_t ns) {
                               use_raised_period(false);
                               wait_on_timer(true, ns);
                           }});
    }
    return methods;
}

std::vector<LimiterSpec> frame_limiter_specs() {
    // Without a variant, sleep and sleep+spin sleep on the high-resolution waitable timer for
    // the time left (sleep_until_ns above).
    const auto with = [](LimiterSpec spec, Sleeper sleeper, bool mmcss, std::string variant) {
        spec.clock = &variant_clock(sleeper, mmcss);
        spec.variant = std::move(variant);
        return spec;
    };
    std::vector<LimiterSpec> specs{
        {LimiterKind::sleep, 0},
        {LimiterKind::sleep_spin, kNsPerMs / 2},
        {LimiterKind::sleep_spin, kNsPerMs},
        {LimiterKind::sleep_spin, 2 * kNsPerMs},
        {LimiterKind::spin, 0},
        {LimiterKind::adaptive_spin, kNsPerMs},
        // Sleep with timeBeginPeriod(1): whole milliseconds, so a wider margin.
        with({LimiterKind::sleep_spin, 2 * kNsPerMs}, Sleeper::sleep_1ms, false, "Sleep"),
        with({LimiterKind::adaptive_spin, 2 * kNsPerMs}, Sleeper::sleep_1ms, false, "Sleep"),
        with({LimiterKind::sleep, 0}, Sleeper::hires_absolute, false, "hi-res timer abs"),
    };
    if (!high_resolution_timer_available() || !absolute_due_time_accepted(true))
        specs.pop_back();
    // MMCSS on, beside the same limiters with it off above.
    if (avrt().missing.empty()) {
        specs.push_back(with({LimiterKind::sleep, 0}, Sleeper::timer_relative, true, "MMCSS"));
        specs.push_back(
            with({LimiterKind::sleep_spin, kNsPerMs}, Sleeper::timer_relative, true, "MMCSS"));
    }
    return specs;
}

std::optional<std::int64_t> current_timer_slack_ns() {
    return std::nullopt;  // Windows has no timer slack
}

bool set_timer_slack_ns(std::int64_t /*slack_ns*/) {
    return false;
}

ScheduledRun run_on_thread(bool want_realtime, const std::function<void()>& fn) {
    ScheduledRun result;
    result.scheduling = "THREAD_PRIORITY_NORMAL";
    std::thread worker([&] {
        if (want_realtime &&
            ::SetThreadPriority(::GetCurrentThread(), THREAD_PRIORITY_TIME_CRITICAL)) {
            result.realtime = true;
        }
        fn();
    });
    worker.join();
    if (result.realtime)
        result.scheduling = "THREAD_PRIORITY_TIME_CRITICAL";
    else if (want_realtime)
        result.note = "SetThreadPriority(THREAD_PRIORITY_TIME_CRITICAL) refused";
    // Memory locking (VirtualLock) is not used: the working set of a probe is small and resident.
    if (want_realtime && result.note.empty())
        result.note = "memory not locked (no mlockall on Windows)";
    return result;
}

}  // namespace loopscope
