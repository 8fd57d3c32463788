// CI gating: conditions such as `p99_ms>20` or `stutter_time_share>0.01` over the named
// figures of the catalogue (core/figures.hpp). A condition that holds fails the gate (exit code 3)
// with a message naming the figure, its value and the limit.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/errors.hpp"
#include "core/analysis.hpp"

namespace loopscope {

struct GateCondition {
    std::string text;    // as the user wrote it
    std::string figure;  // a key of figure_catalogue()
    std::string op;      // ">", ">=", "<", "<=", "==", "!="
    double limit = 0;
};

// evaluate_gate's error when a condition names a figure this capture cannot have: the
// condition as written and the catalogue's reason ("avg_fps is not available: ...").
class GateFigureUnavailable : public UsageError {
  public:
    GateFigureUnavailable(std::string condition, std::string reason);
    const std::string& condition() const { return condition_; }
    const std::string& reason() const { return reason_; }

  private:
    std::string condition_;
    std::string reason_;
};

struct GateFailure {
    GateCondition condition;
    double value = 0;
    std::string message;  // "p99_ms = 23.41 > 20 (99th percentile frame time, ...)"
};

// The conditions that hold for `report`. Throws GateFigureUnavailable when a condition names a
// figure this capture cannot have.
std::vector<GateFailure> evaluate_gate(const std::vector<GateCondition>& conditions,
                                       const CaptureReport& report);

}  // namespace loopscope
