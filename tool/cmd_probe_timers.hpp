// What `loopscope probe` (no subcommand) needs from `probe timers`: the measurement with its
// default settings, as the Markdown sections and the JSON "timers" section.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace loopscope {

struct TimersSection {
    std::string markdown;  // the timer tables, starting with a "## " heading
    nlohmann::json json;   // the value of the probe document's "timers" key
};

// Runs every timer measurement (about 13 s; quick: about 2.5 s) with a progress line on a
// terminal.
TimersSection run_timers_section(bool quick);

}  // namespace loopscope
