// The loop verdict and figures as JSON: the `verdict` and `headroom` objects that the report of a
// trace carries, and the whole `loopscope-loop/1` document that `run --json` and `replay --json`
// write (docs/loop-engine.md, "JSON output"). One place builds them, so the keys and the numbers
// are the same in both.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "core/loop_engine.hpp"
#include "core/loop_figures.hpp"

namespace loopscope {

inline constexpr const char* kLoopJsonSchema = "loopscope-loop/1";

// {state, onset_frame, onset_time_s, slow_motion, cause}; null where a figure is absent.
nlohmann::ordered_json loop_verdict_json(const LoopFigures& figures);
// {ms, formula, step_cost_limit_ms, step_cost_ms, other_ms}, or null without step costs.
nlohmann::ordered_json loop_headroom_json(const LoopFigures& figures);

// What the document says about where the frames came from.
struct LoopRunSource {
    std::string command;                                       // "run" or "replay"
    std::vector<std::pair<std::string, std::string>> details;  // e.g. scenario, clock, input
    bool froze = false;  // the loop stopped advancing (no guard bounded its frame time)
};

// The `loopscope-loop/1` document, indented, ending in a newline.
std::string loop_run_json(const LoopRunSource& source, const LoopConfig& config,
                          const LoopFigures& figures);

}  // namespace loopscope
