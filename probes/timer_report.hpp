// Writers for the timer probe's results: Markdown tables for the terminal (and bug reports). The
// "timers" section of the probe JSON document is written by probe_json (to_json).
#pragma once

#include <string>

#include "probes/timer_probe.hpp"

namespace loopscope {

std::string render_timer_markdown(const TimerReport& report);

}  // namespace loopscope
