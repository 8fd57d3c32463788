// The summary `run` and `replay` print after a loop: the loop figures of probes/loop_figures.hpp
// with the definition next to each number, and the time-accumulation error for a long run.
#pragma once

#include <span>
#include <string>

#include "probes/loop_engine.hpp"
#include "probes/loop_figures.hpp"
#include "probes/trace_record.hpp"

namespace loopscope {

std::string format_loop_config(const LoopConfig& config);

// Everything but the long-run accumulation error.
std::string format_loop_summary(const LoopFigures& figures, const LoopConfig& config);

// Float / double / int64 error of summing frame times: over `records`, and over ten hours at
// 144 Hz on the virtual display.
std::string format_time_accumulation(std::span<const FrameRecord> records);

}  // namespace loopscope
