// The probe commands' shared run: the probe sequence (probes/probe_run.hpp) with a progress line
// a stage and each stage's Markdown printed as soon as it is measured. `probe`, `probe clocks`,
// `probe timers` and `diagnose` call it.
#pragma once

#include <string_view>

#include "probes/probe_run.hpp"

namespace loopscope {

// The progress line's label in each measuring stage.
struct ProbeProgressLabels {
    const char* clocks = "probe clocks";
    const char* timers = "probe timers";
};

// title: the document's heading ("loopscope probe clocks"); markdown false when standard output
// carries the JSON instead.
ProbeResults run_probes_and_print(const ProbeRunOptions& options, std::string_view title,
                                  bool markdown, const ProbeProgressLabels& labels = {});

}  // namespace loopscope
