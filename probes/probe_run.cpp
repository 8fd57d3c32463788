// The probe sequence (see probe_run.hpp).
#include "probes/probe_run.hpp"

#include <algorithm>

#include "probes/probe_json.hpp"
#include "probes/timer_report.hpp"

namespace loopscope {

ProbeResults run_probes(const ProbeRunOptions& options, const ProbeRunCallbacks& callbacks) {
    const auto started = [&](ProbeStage s) {
        if (callbacks.stage_started)
            callbacks.stage_started(s);
    };
    const auto progress = [&](double fraction, std::string_view what) {
        if (callbacks.progress)
            callbacks.progress(fraction, what);
    };
    ProbeResults results;
    const auto done = [&](ProbeStage s) {
        if (callbacks.stage_done)
            callbacks.stage_done(s, results);
    };

    const LoadSnapshot load_before = read_load_snapshot();
    started(ProbeStage::context);
    results.context = collect_system_context();
    done(ProbeStage::context);

    if (options.clocks) {
        started(ProbeStage::clocks);
        ClockProbeOptions clock = options.clock;
        // The coarse clocks' expected granularity is the kernel tick the context measured.
        clock.kernel_tick_ns = results.context.kernel_tick_ns;
        clock.config_hz = std::max(results.context.config_hz, 0);
        clock.config_hz_from = results.context.config_hz_from;
        clock.progress = progress;
        results.clocks = run_clock_probe(clock);
        done(ProbeStage::clocks);
    }
    if (options.timers) {
        started(ProbeStage::timers);
        results.timers = run_timer_probe(options.timer, progress);
        results.timers->quick = options.quick;
        done(ProbeStage::timers);
    }
    results.load = machine_load_between(load_before, read_load_snapshot());
    return results;
}

namespace {
nlohmann::json snapshot_to_json(const LoadSnapshot& s) {
    using nlohmann::json;
    auto load = [](double v) { return v < 0 ? json(nullptr) : json(v); };
    return {
        {"load_1m", load(s.load_1m)}, {"load_5m", load(s.load_5m)}, {"load_15m", load(s.load_15m)}};
}

nlohmann::json machine_load_to_json(const MachineLoad& m, int cpus) {
    using nlohmann::json;
    json j;
    j["before"] = snapshot_to_json(m.before);
    j["after"] = snapshot_to_json(m.after);
    j["cpu_measured"] = m.measured;
    j["other_cpu_share"] = m.measured ? json(m.other_share) : json(nullptr);
    j["self_cpu_share"] = m.measured ? json(m.self_share) : json(nullptr);
    j["steal_share"] = m.measured ? json(m.steal_share) : json(nullptr);
    j["from"] = m.after.from;
    j["warnings"] = machine_load_warnings(m, cpus);
    return j;
}
}  // namespace

nlohmann::json probe_results_to_json(const ProbeResults& results) {
    nlohmann::json doc = make_probe_document(results.context);
    if (results.clocks) {
        doc["clocks_run"] = clocks_run_to_json(*results.clocks);
        doc["clocks"] = clocks_to_json(*results.clocks);
    }
    if (results.timers)
        doc["timers"] = timer_report_to_json(*results.timers);
    doc["load"] = machine_load_to_json(results.load, results.context.logical_cpus);
    return doc;
}

}  // namespace loopscope
