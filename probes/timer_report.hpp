// The timer probe's results as a section of tables: printed as Markdown for the terminal (and
// bug reports), drawn by the viewer's probe tab. The "timers" section of the probe JSON document
// is written by probe_json (to_json).
#pragma once

#include <string>

#include "common/markdown_table.hpp"
#include "probes/timer_probe.hpp"

namespace loopscope {

// The measurements that were run, each a heading, what its figures mean, and a table (the
// histograms as bars), then the limiter recommendation and the run's length.
TextSection timers_section(const TimerReport& report);
// That section as Markdown, as `loopscope probe` prints it.
std::string render_timer_markdown(const TimerReport& report);

}  // namespace loopscope
