// Writers for the timer probe's results: Markdown tables for the terminal (and bug reports) and
// the "timers" section of the probe JSON document, with every field named with its unit.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "probes/timer_probe.hpp"

namespace loopscope {

std::string render_timer_markdown(const TimerReport& report);

// The value of the document's "timers" key (see docs/probe-timers.md for the fields).
nlohmann::json timer_report_to_json(const TimerReport& report);

}  // namespace loopscope
