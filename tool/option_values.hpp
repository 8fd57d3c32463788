// The command line's option values read into the model's types, and the model's typed errors
// worded as the command line names its options. core/ takes the typed values and throws typed
// errors; only here are they text with flags.
#pragma once

#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/gate.hpp"
#include "core/regression.hpp"
#include "core/segments.hpp"
#include "core/summary.hpp"

namespace loopscope {

// "game=doom" -> {"game", "doom"} (--label, --run-label). Throws UsageError for a pair without
// '=' or with an empty key.
std::pair<std::string, std::string> parse_label(std::string_view text);

// A --from / --to value: a frame number ("1200") or a time with a unit ("12.5s", "800ms").
// Throws UsageError naming `option` and what was expected.
RangeBound parse_range_bound(std::string_view option, std::string_view text);

// A --fail-if condition, FIGURE OP NUMBER ("p99_ms>20"). Throws UsageError for a malformed
// condition or an unknown figure (listing the valid names).
GateCondition parse_gate_condition(std::string_view text);

// A --fail-if-regressed check, "FIGURE" or "FIGURE:TOLERANCE", the tolerance a number in the
// figure's unit or a percentage of the baseline ("p99_ms:0.5", "avg_fps:3%"). Throws UsageError
// for an unknown figure, a figure without a direction or a malformed tolerance.
RegressionCheck parse_regression_check(std::string_view text);

// A --labels-from-path pattern, "game/config/...": the label names of the folders (see
// labels_from_path). Throws UsageError for an empty name or "..." before the end.
std::vector<std::string> parse_path_pattern(std::string_view pattern);

// The text of an error as the command line says it: the model's typed errors (a range that
// selects no frames, a display timeline the capture does not have, a gated figure the capture
// cannot have) name the options that led to them; any other error is its what().
std::string command_line_error_text(const std::exception& error);

}  // namespace loopscope
