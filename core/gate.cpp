// Evaluating gate conditions over the figure catalogue (core/figures.hpp).
#include "core/gate.hpp"

#include <fmt/format.h>

#include "common/errors.hpp"
#include "core/figures.hpp"

namespace loopscope {

namespace {

bool holds(double value, std::string_view op, double limit) {
    if (op == ">")
        return value > limit;
    if (op == ">=")
        return value >= limit;
    if (op == "<")
        return value < limit;
    if (op == "<=")
        return value <= limit;
    if (op == "==")
        return value == limit;
    return value != limit;
}

}  // namespace

GateFigureUnavailable::GateFigureUnavailable(std::string condition, std::string reason)
    : UsageError(fmt::format("'{}': {}", condition, reason)),
      condition_(std::move(condition)),
      reason_(std::move(reason)) {}

std::vector<GateFailure> evaluate_gate(const std::vector<GateCondition>& conditions,
                                       const CaptureReport& report) {
    std::vector<GateFailure> failures;
    for (const GateCondition& c : conditions) {
        const FigureValue value = figure_value(report, c.figure);
        if (!value.has_value())
            throw GateFigureUnavailable(c.text, value.reason);
        if (!holds(*value, c.op, c.limit))
            continue;
        GateFailure f;
        f.condition = c;
        f.value = *value;
        const Figure& figure = *find_figure(c.figure);
        // The catalogue's definition, as the summary prints it, after the summary's label: the
        // definition of "p99" alone ("linear interpolation ...") does not say which percentile.
        const std::string definition = figure_definition(figure, &report);
        f.message = figure.label.empty()
                        ? fmt::format("{} = {:.6g} {} {:g} ({})", c.figure, *value, c.op, c.limit,
                                      definition)
                        : fmt::format("{} = {:.6g} {} {:g} ({}: {})", c.figure, *value, c.op,
                                      c.limit, figure.label, definition);
        failures.push_back(std::move(f));
    }
    return failures;
}

}  // namespace loopscope
