// The probe sequence (see probe_run.hpp).
#include "probes/probe_run.hpp"

#include <algorithm>

#include "probes/probe_json.hpp"

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
    // What the probes (and anyone else meanwhile) left the timer resolution at, where the OS has
    // one: a probe that raised it must have restored it.
    if (results.context.timer_resolution) {
        if (const auto now = read_timer_resolution())
            results.context.timer_resolution->current_after_ns = now->current_ns;
    }
    results.load = machine_load_between(load_before, read_load_snapshot());
    return results;
}

ProbeDocument probe_document(const ProbeResults& results) {
    ProbeDocument doc = make_probe_document(results.context);
    doc.clocks = results.clocks;
    doc.timers = results.timers;
    doc.load = results.load;
    return doc;
}

ProbeJson probe_results_to_json(const ProbeResults& results) {
    return probe_document(results);
}

}  // namespace loopscope
