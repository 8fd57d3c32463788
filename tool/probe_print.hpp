// The probe commands' shared run: the probe sequence (probes/probe_run.hpp) with a progress line
// a stage and each stage's Markdown printed as soon as it is measured. `probe`, `probe clocks`
// and `probe timers` call it (cmd_probe.cpp, cmd_probe_timers.cpp).
#pragma once

#include <string_view>

#include "probes/probe_run.hpp"

namespace loopscope {

// title: the document's heading ("loopscope probe clocks"); markdown false when standard output
// carries the JSON instead.
ProbeResults run_probes_and_print(const ProbeRunOptions& options, std::string_view title,
                                  bool markdown);

}  // namespace loopscope
