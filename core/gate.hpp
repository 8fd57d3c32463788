// CI gating: `--fail-if` conditions such as `p99_ms>20` or `stutter_time_share>0.01` over the named
// figures of the catalogue (core/figures.hpp). A condition that holds fails the gate (exit code 3)
// with a message naming the figure, its value and the limit.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis.hpp"

namespace loopscope {

struct GateCondition {
    std::string text;    // as the user wrote it
    std::string figure;  // a key of figure_catalogue()
    std::string op;      // ">", ">=", "<", "<=", "==", "!="
    double limit = 0;
};

// Throws UsageError for a malformed condition or an unknown figure (listing the valid names).
GateCondition parse_gate_condition(std::string_view text);

struct GateFailure {
    GateCondition condition;
    double value = 0;
    std::string message;  // "p99_ms = 23.41 > 20 (99th percentile frame time, ...)"
};

// The conditions that hold for `report`. Throws UsageError with the catalogue's reason when a
// condition names a figure this capture cannot have ("--fail-if 'avg_fps>30': avg_fps is not
// available: MangoHud rows are 100 ms samples, not frames").
std::vector<GateFailure> evaluate_gate(const std::vector<GateCondition>& conditions,
                                       const CaptureReport& report);

}  // namespace loopscope
