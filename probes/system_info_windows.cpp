// The machine context on Windows: the version from RtlGetVersion (GetVersionEx lies to programs
// without a manifest), the CPU from CPUID, the timer resolution from NtQueryTimerResolution, and
// whether this is wine (ntdll's wine_get_version), whose timing calls are partly stubs.
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <windows.h>

#include <fmt/format.h>

#include <thread>

#include "probes/clock_source.hpp"
#include "probes/system_info.hpp"

namespace loopscope {

namespace {

template <class Fn>
Fn ntdll_function(const char* name) {
    HMODULE ntdll = ::GetModuleHandleA("ntdll.dll");
    if (ntdll == nullptr)
        return nullptr;
    FARPROC p = ::GetProcAddress(ntdll, name);
    // Through void(*)(): GCC's -Wcast-function-type accepts that route on purpose.
    return p ? reinterpret_cast<Fn>(reinterpret_cast<void (*)()>(p)) : nullptr;
}

struct WindowsVersion {
    unsigned long major = 0, minor = 0, build = 0;
};

WindowsVersion windows_version() {
    using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
    WindowsVersion v;
    if (auto get = ntdll_function<RtlGetVersionFn>("RtlGetVersion")) {
        OSVERSIONINFOW info{};
        info.dwOSVersionInfoSize = sizeof info;
        if (get(&info) == 0) {
            v.major = info.dwMajorVersion;
            v.minor = info.dwMinorVersion;
            v.build = info.dwBuildNumber;
        }
    }
    return v;
}

// "8.0" under wine, empty on Windows.
std::string wine_version() {
    using WineVersionFn = const char*(CDECL*)();
    if (auto get = ntdll_function<WineVersionFn>("wine_get_version"))
        return get();
    return {};
}

const char* architecture() {
    SYSTEM_INFO info{};
    ::GetNativeSystemInfo(&info);
    switch (info.wProcessorArchitecture) {
        case PROCESSOR_ARCHITECTURE_AMD64:
            return "x86_64";
        case PROCESSOR_ARCHITECTURE_ARM64:
            return "arm64";
        case PROCESSOR_ARCHITECTURE_INTEL:
            return "x86";
        default:
            return "unknown";
    }
}

std::string kernel_text() {
    const WindowsVersion v = windows_version();
    return fmt::format("Windows NT {}.{}.{} {}", v.major, v.minor, v.build, architecture());
}

}  // namespace

std::optional<TimerResolution> read_timer_resolution() {
    using QueryFn = LONG(NTAPI*)(PULONG, PULONG, PULONG);
    static const auto query = ntdll_function<QueryFn>("NtQueryTimerResolution");
    if (query == nullptr)
        return std::nullopt;
    ULONG coarsest = 0, finest = 0, current = 0;
    if (query(&coarsest, &finest, &current) < 0)  // a negative NTSTATUS is an error
        return std::nullopt;
    return timer_resolution_from_100ns(coarsest, finest, current);
}

Platform this_platform() {
    return Platform::Windows;
}

SystemContext collect_system_context() {
    SystemContext c;
    c.platform = Platform::Windows;
    const WindowsVersion v = windows_version();
    c.os = fmt::format("Windows {}.{} build {}", v.major, v.minor, v.build);
    if (const std::string wine = wine_version(); !wine.empty())
        c.os += fmt::format(" (wine {})", wine);
    c.kernel = kernel_text();
    const CpuFeatures cpu = read_cpu_features();
    c.cpu_model = cpu.brand;
    c.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
    c.usable_cpus = static_cast<int>(usable_cpus().size());
    // Windows has no clocksource to choose and no timer slack; its tick is the timer
    // resolution in effect, which the coarse clocks (GetSystemTimeAsFileTime,
    // QueryInterruptTime) step by.
    c.timer_resolution = read_timer_resolution();
    if (c.timer_resolution && c.timer_resolution->current_ns > 0) {
        c.kernel_tick_ns = c.timer_resolution->current_ns;
        c.kernel_tick_from = "NtQueryTimerResolution (current)";
    }
    fill_cpu_and_build(c, cpu);
    return c;
}

std::string machine_description() {
    char name[MAX_COMPUTERNAME_LENGTH + 1] = {};
    DWORD size = sizeof name;
    const std::string host = ::GetComputerNameA(name, &size) ? std::string(name, size) : "unknown";
    return host + " (" + kernel_text() + ")";
}

}  // namespace loopscope
