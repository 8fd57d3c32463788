// The machine context on Windows: the version from RtlGetVersion (GetVersionEx lies to programs
// without a manifest), the CPU from CPUID, the timer resolution from NtQueryTimerResolution,
// whether this process keeps it while hidden (GetProcessInformation(ProcessPowerThrottling)),
// the power plan (powrprof's PowerGetActiveScheme), and whether this is wine (ntdll's
// wine_get_version), whose timing calls are partly stubs. Every call newer than Windows 7 is
// looked up at run time and reported unavailable where it is missing.
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <windows.h>

#include <fmt/format.h>

#include <iterator>
#include <thread>

#include "probes/clock_source.hpp"
#include "probes/system_info.hpp"

namespace loopscope {

namespace {

template <class Fn>
Fn module_function(HMODULE module, const char* name) {
    if (module == nullptr)
        return nullptr;
    FARPROC p = ::GetProcAddress(module, name);
    // Through void(*)(): GCC's -Wcast-function-type accepts that route on purpose.
    return p ? reinterpret_cast<Fn>(reinterpret_cast<void (*)()>(p)) : nullptr;
}

template <class Fn>
Fn ntdll_function(const char* name) {
    return module_function<Fn>(::GetModuleHandleA("ntdll.dll"), name);
}

// PROCESS_POWER_THROTTLING_STATE and its class, spelt out: older mingw-w64 headers lack them.
struct PowerThrottlingState {
    ULONG version;
    ULONG control_mask;
    ULONG state_mask;
};
constexpr int kProcessPowerThrottling = 4;  // PROCESS_INFORMATION_CLASS
constexpr ULONG kPowerThrottlingVersion = 1;

std::string read_timer_throttling() {
    using GetFn = BOOL(WINAPI*)(HANDLE, int, LPVOID, DWORD);
    const auto get =
        module_function<GetFn>(::GetModuleHandleA("kernel32.dll"), "GetProcessInformation");
    if (get == nullptr)
        return "unavailable: no GetProcessInformation (before Windows 8)";
    PowerThrottlingState s{kPowerThrottlingVersion, 0, 0};
    if (!get(::GetCurrentProcess(), kProcessPowerThrottling, &s, sizeof s))
        return fmt::format(
            "unavailable: GetProcessInformation(ProcessPowerThrottling) failed "
            "(error {})",
            ::GetLastError());
    return timer_throttling_text(s.control_mask, s.state_mask);
}

// "Balanced (381b4222-f694-41f0-9685-ff5bb260df2e)": powrprof.dll loaded at run time (it is not
// on every Windows Server install), the friendly name when it can be read.
std::string read_power_plan() {
    HMODULE powrprof = ::LoadLibraryW(L"powrprof.dll");
    using ActiveFn = DWORD(WINAPI*)(HKEY, GUID**);
    using NameFn = DWORD(WINAPI*)(HKEY, const GUID*, const GUID*, const GUID*, UCHAR*, DWORD*);
    const auto active = module_function<ActiveFn>(powrprof, "PowerGetActiveScheme");
    const auto name = module_function<NameFn>(powrprof, "PowerReadFriendlyName");
    if (active == nullptr)
        return "unavailable: no PowerGetActiveScheme in powrprof.dll";
    GUID* scheme = nullptr;
    if (const DWORD error = active(nullptr, &scheme); error != ERROR_SUCCESS || scheme == nullptr)
        return fmt::format("unavailable: PowerGetActiveScheme failed (error {})", error);
    const GUID g = *scheme;
    ::LocalFree(scheme);
    const std::string guid =
        fmt::format("{:08x}-{:04x}-{:04x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
                    g.Data1, g.Data2, g.Data3, g.Data4[0], g.Data4[1], g.Data4[2], g.Data4[3],
                    g.Data4[4], g.Data4[5], g.Data4[6], g.Data4[7]);
    wchar_t buffer[128] = {};
    DWORD size = sizeof buffer;
    if (name == nullptr ||
        name(nullptr, &g, nullptr, nullptr, reinterpret_cast<UCHAR*>(buffer), &size) !=
            ERROR_SUCCESS ||
        buffer[0] == L'\0')
        return guid;
    char utf8[256] = {};
    buffer[std::size(buffer) - 1] = L'\0';
    if (::WideCharToMultiByte(CP_UTF8, 0, buffer, -1, utf8, sizeof utf8, nullptr, nullptr) <= 0)
        return guid;
    return fmt::format("{} ({})", utf8, guid);
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
    c.timer_throttling = read_timer_throttling();
    c.power_plan = read_power_plan();
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
