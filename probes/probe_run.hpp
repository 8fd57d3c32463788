// The probe sequence every front end runs: the machine context, then the clock sources, then the
// timers and waits, with progress reported as it goes. `loopscope probe`, `loopscope diagnose`
// and the viewer's probe tab all call run_probes, so they measure the same way and in the same
// order; each shows the results its own way (terminal, files, the probe tab).
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "probes/clock_probe.hpp"
#include "probes/machine_load.hpp"
#include "probes/probe_json.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_probe.hpp"

namespace loopscope {

enum class ProbeStage { context, clocks, timers };

struct ProbeRunOptions {
    bool clocks = true;
    bool timers = true;
    // The clock probe's settings; its kernel_tick_ns and progress are filled in by run_probes.
    ClockProbeOptions clock;
    TimerProbeConfig timer = TimerProbeConfig::standard();
    bool quick = false;  // recorded in the timer report (its tables say it was a short run)
};

struct ProbeResults {
    SystemContext context;
    std::optional<ClockProbeResult> clocks;
    std::optional<TimerReport> timers;
    // How busy the machine was from before the context to after the last stage.
    MachineLoad load;
};

// Each callback may be empty. stage_started comes before a stage, progress during it (fraction
// in [0, 1] and what is being measured), stage_done after it with the results so far, so that a
// front end can show each stage as soon as it is measured.
struct ProbeRunCallbacks {
    std::function<void(ProbeStage)> stage_started;
    std::function<void(double, std::string_view)> progress;
    std::function<void(ProbeStage, const ProbeResults&)> stage_done;
};

ProbeResults run_probes(const ProbeRunOptions& options, const ProbeRunCallbacks& callbacks = {});

// The probe document (probe_json.hpp) of what was measured: context, then the sections run.
ProbeDocument probe_document(const ProbeResults& results);
ProbeJson probe_results_to_json(const ProbeResults& results);

}  // namespace loopscope
