// The portable part of the machine context: its section of the probe output and the warnings.
#include "probes/system_info.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/markdown_table.hpp"
#include "core/duration.hpp"

namespace loopscope {

std::string hypervisor_name(const std::string& sig) {
    if (sig == "KVMKVMKVM")
        return "KVM";
    if (sig == "Microsoft Hv")
        return "Hyper-V";
    if (sig == "VMwareVMware")
        return "VMware";
    if (sig == "XenVMMXenVMM")
        return "Xen";
    if (sig == "VBoxVBoxVBox")
        return "VirtualBox";
    if (sig == "TCGTCGTCGTCG")
        return "QEMU (TCG)";
    if (sig == "bhyve bhyve ")
        return "bhyve";
    if (sig.empty())
        return "unknown hypervisor";
    return sig;
}

namespace {
std::string join(const std::vector<std::string>& items, const char* sep) {
    std::string out;
    for (const auto& s : items) {
        if (!out.empty())
            out += sep;
        out += s;
    }
    return out;
}

std::string or_unknown(const std::string& s) {
    return s.empty() ? "unknown" : s;
}

// Clocksources that clock_gettime can read in user space (vDSO); any other makes every read a
// system call.
bool clocksource_is_fast(const std::string& name) {
    static const char* const fast[] = {"tsc", "kvm-clock", "hyperv_clocksource_tsc_page",
                                       "arch_sys_counter", "xen"};
    return std::any_of(std::begin(fast), std::end(fast), [&](const char* f) { return name == f; });
}
}  // namespace

void fill_cpu_and_build(SystemContext& c, const CpuFeatures& cpu) {
    c.hypervisor = cpu.hypervisor;
    if (cpu.hypervisor)
        c.hypervisor_name = hypervisor_name(cpu.hypervisor_vendor);
    c.has_tsc = cpu.has_tsc;
    c.invariant_tsc = cpu.invariant_tsc;
#ifdef LOOPSCOPE_BUILD_TYPE
    c.build_type = LOOPSCOPE_BUILD_TYPE;
#endif
#if defined(__clang__)
    c.compiler = fmt::format("clang {}", __clang_version__);
#elif defined(__GNUC__)
    c.compiler = fmt::format("g++ {}", __VERSION__);
#endif
}

TimerResolution timer_resolution_from_100ns(std::uint32_t min_100ns, std::uint32_t max_100ns,
                                            std::uint32_t current_100ns) {
    constexpr std::int64_t kNsPer100ns = 100;
    TimerResolution r;
    r.min_ns = static_cast<std::int64_t>(min_100ns) * kNsPer100ns;
    r.max_ns = static_cast<std::int64_t>(max_100ns) * kNsPer100ns;
    r.current_ns = static_cast<std::int64_t>(current_100ns) * kNsPer100ns;
    return r;
}

std::string timer_throttling_text(std::uint32_t control_mask, std::uint32_t state_mask) {
    if ((control_mask & kIgnoreTimerResolutionBit) == 0)
        return "not set: Windows decides (since Windows 11 a hidden process loses its raised "
               "resolution)";
    if ((state_mask & kIgnoreTimerResolutionBit) == 0)
        return "opted out: the raised resolution is kept while hidden";
    return "opted in: the raised resolution is dropped while hidden";
}

namespace {
MarkdownTable context_table(const SystemContext& c) {
    MarkdownTable t;
    t.add_column("context", MarkdownTable::Align::left);
    t.add_column("value", MarkdownTable::Align::left);
    t.add_row({"OS", or_unknown(c.os)});
    t.add_row({"kernel", or_unknown(c.kernel)});
    t.add_row({"CPU", or_unknown(c.cpu_model)});
    t.add_row({"cores", fmt::format("{} logical, {} usable by this process", c.logical_cpus,
                                    c.usable_cpus)});
    // Windows has neither a clocksource to choose nor timer slack: no rows that could only say
    // "unknown"; its timer resolution below is what decides its clocks and waits.
    if (c.platform == Platform::Linux) {
        t.add_row(
            {"clocksource", c.clocksource.empty()
                                ? "unknown"
                                : fmt::format("{} (available: {})", c.clocksource,
                                              or_unknown(join(c.clocksources_available, ", ")))});
        t.add_row(
            {"timer slack", c.timer_slack_ns < 0 ? "unknown" : format_duration(c.timer_slack_ns)});
    }
    t.add_row({"kernel tick",
               c.kernel_tick_ns <= 0
                   ? "unknown"
                   : fmt::format("{} ({:.0f} Hz, from {})", format_duration(c.kernel_tick_ns),
                                 1e9 / static_cast<double>(c.kernel_tick_ns), c.kernel_tick_from)});
    if (c.config_hz > 0) {
        t.add_row({"CONFIG_HZ",
                   fmt::format("{} (a tick of {}, from {})", c.config_hz,
                               format_duration(1'000'000'000 / c.config_hz), c.config_hz_from)});
    }
    if (const auto& r = c.timer_resolution) {
        std::string text = fmt::format(
            "{} now (coarsest {}, finest {}, from NtQueryTimerResolution)",
            format_duration(r->current_ns), format_duration(r->min_ns), format_duration(r->max_ns));
        if (r->current_after_ns >= 0)
            text += fmt::format("; {} after the probes", format_duration(r->current_after_ns));
        t.add_row({"timer resolution", text});
    }
    if (!c.timer_throttling.empty())
        t.add_row({"resolution when hidden", c.timer_throttling});
    if (!c.power_plan.empty())
        t.add_row({"power plan", c.power_plan});
    t.add_row({"hypervisor", c.hypervisor ? c.hypervisor_name : "none detected (CPUID)"});
    if (c.has_tsc) {
        t.add_row({"TSC", c.invariant_tsc ? "invariant (CPUID.80000007H:EDX[8])"
                                          : "not invariant: its rate may follow the CPU clock"});
    }
    std::string build = or_unknown(c.build_type);
    if (!c.sanitizers.empty())
        build += fmt::format(", sanitizers: {}", join(c.sanitizers, ", "));
    if (!c.compiler.empty())
        build += fmt::format(", {}", c.compiler);
    t.add_row({"build", build});
    return t;
}
}  // namespace

std::string context_markdown(const SystemContext& c) {
    return context_table(c).render();
}

TextSection context_section(const SystemContext& c) {
    TextSection s;
    s.title = "Machine context";
    s.add_heading("Context");
    s.add_table(context_table(c));
    const auto warnings = context_warnings(c);
    if (!warnings.empty()) {
        s.add_paragraph("Warnings:");
        s.add_bullets(warnings);
    }
    return s;
}

std::string context_section_markdown(const SystemContext& c) {
    return render_markdown(context_section(c));
}

std::vector<std::string> context_warnings(const SystemContext& c) {
    std::vector<std::string> w;
    if (!c.clocksource.empty() && !clocksource_is_fast(c.clocksource)) {
        std::string fix = "reading the time is this slow on this machine";
        const auto& avail = c.clocksources_available;
        if (std::find(avail.begin(), avail.end(), "tsc") != avail.end()) {
            fix =
                "try the TSC: echo tsc | sudo tee "
                "/sys/devices/system/clocksource/clocksource0/current_clocksource";
        }
        w.push_back(fmt::format(
            "clocksource is {}: every clock_gettime is a system call (about 1 us instead of "
            "about 20 ns); {}.",
            c.clocksource, fix));
    }
    if (c.build_type == "Debug") {
        w.push_back(
            "this is a Debug build: read costs include unoptimised code; build Release "
            "(-DCMAKE_BUILD_TYPE=Release) before comparing figures.");
    }
    if (!c.sanitizers.empty()) {
        w.push_back(
            fmt::format("built with sanitizers ({}): costs are inflated; use a build without "
                        "-DLOOPSCOPE_SANITIZE=ON for figures.",
                        join(c.sanitizers, ", ")));
    }
    if (c.has_tsc && !c.invariant_tsc) {
        w.push_back(fmt::format(
            "the TSC is not invariant: its rate may change with the CPU clock and it may stop in "
            "sleep states; do not time with rdtsc here, use {}.",
            platform_terms(c.platform).steady_advice));
    }
    if (c.hypervisor) {
        w.push_back(fmt::format(
            "running under {}: clock reads and wake-ups include virtualisation overhead and "
            "other guests' load; measure on bare metal before blaming the game.",
            c.hypervisor_name));
    }
    if (c.kernel_tick_ns > 1'000'000) {
        w.push_back(fmt::format(
            "the coarse clocks ({}) advance only every {}: never time frames with them.",
            platform_terms(c.platform).coarse_clocks, format_duration(c.kernel_tick_ns)));
    }
    if (c.usable_cpus > 0 && c.usable_cpus < 2) {
        w.push_back(
            "only one CPU is usable: clocks cannot be checked across cores; run without "
            "taskset/cgroup limits to check them.");
    }
    return w;
}

}  // namespace loopscope
