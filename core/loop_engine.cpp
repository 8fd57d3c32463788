// The parts of the loop engine that are not inlined on the per-frame path: names, validation,
// the timescale rounding, the replay of a run of frames into records.
#include "core/loop_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/errors.hpp"

namespace loopscope {

std::string_view policy_name(Policy policy) {
    switch (policy) {
        case Policy::naive:
            return "naive";
        case Policy::variable:
            return "variable";
        case Policy::semi_fixed:
            return "semi-fixed";
        case Policy::fixed:
            return "fixed";
        case Policy::fixed_interp:
            return "fixed-interp";
        case Policy::fixed_extrap:
            return "fixed-extrap";
    }
    return "?";
}

std::optional<Policy> parse_policy(std::string_view name) {
    for (Policy p : kAllPolicies) {
        if (policy_name(p) == name)
            return p;
    }
    return std::nullopt;
}

std::string_view policy_names() {
    return "naive, variable, semi-fixed, fixed, fixed-interp, fixed-extrap";
}

void validate(const LoopConfig& config) {
    if (config.dt_ns <= 0) {
        throw UsageError(
            fmt::format("invalid dt {} ns: the step must be longer than 0", config.dt_ns));
    }
    if (config.clamp_ns < 0) {
        throw UsageError(fmt::format("invalid clamp {} ns: expected 0 (off) or a positive duration",
                                     config.clamp_ns));
    }
    if (config.max_steps < 0) {
        throw UsageError(fmt::format(
            "invalid max steps {}: expected 0 (unlimited) or a positive count", config.max_steps));
    }
    if (!std::isfinite(config.timescale) || config.timescale < 0 || config.timescale > 1e6) {
        throw UsageError(fmt::format(
            "invalid timescale {}: expected a finite number from 0 to 1000000 (1 = real time)",
            config.timescale));
    }
}

LoopEngine::LoopEngine(const LoopConfig& config) : config_(config) {
    validate(config_);
}

std::size_t LoopEngine::advance_into(std::span<const std::int64_t> raw_ns,
                                     std::span<FrameRecord> out) {
    const std::size_t n = std::min(raw_ns.size(), out.size());
    for (std::size_t i = 0; i < n; ++i)
        out[i] = advance(raw_ns[i]);
    return n;
}

}  // namespace loopscope
