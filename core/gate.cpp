// Parsing and evaluating --fail-if conditions over the figure catalogue (core/figures.hpp).
#include "core/gate.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>

#include "common/errors.hpp"
#include "common/text.hpp"
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

GateCondition parse_gate_condition(std::string_view text) {
    const auto bad = [&](std::string_view why) {
        return UsageError(fmt::format(
            "--fail-if '{}': {} (expected FIGURE OP NUMBER, e.g. p99_ms>20, with OP one of > >= "
            "< <= == !=)",
            text, why));
    };
    const std::size_t at = text.find_first_of("<>=!");
    if (at == std::string_view::npos)
        throw bad("no comparison operator");
    GateCondition c;
    c.text = std::string(text);
    c.figure = std::string(trim(text.substr(0, at)));
    std::size_t op_len = 1;
    if (at + 1 < text.size() && text[at + 1] == '=')
        op_len = 2;
    c.op = std::string(text.substr(at, op_len));
    if (c.op == "=" || c.op == "!")
        throw bad(fmt::format("unknown operator '{}'", c.op));
    const std::string_view number = trim(text.substr(at + op_len));
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), c.limit);
    if (number.empty() || ec != std::errc() || ptr != number.data() + number.size() ||
        !std::isfinite(c.limit)) {
        throw bad(fmt::format("'{}' is not a number", number));
    }
    if (c.figure.empty())
        throw bad("no figure name");
    if (!find_figure(c.figure)) {
        throw UsageError(fmt::format("--fail-if '{}': {}", text, unknown_figure_text(c.figure)));
    }
    return c;
}

std::vector<GateFailure> evaluate_gate(const std::vector<GateCondition>& conditions,
                                       const CaptureReport& report) {
    std::vector<GateFailure> failures;
    for (const GateCondition& c : conditions) {
        const FigureValue value = figure_value(report, c.figure);
        if (!value.has_value())
            throw UsageError(fmt::format("--fail-if '{}': {}", c.text, value.reason));
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
