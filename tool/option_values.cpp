// Option values into the model's types, and the model's errors in the command line's words
// (see option_values.hpp).
#include "tool/option_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "core/analysis.hpp"
#include "core/duration.hpp"
#include "core/figures.hpp"
#include "core/units.hpp"

namespace loopscope {

std::pair<std::string, std::string> parse_label(std::string_view text) {
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0) {
        throw UsageError(fmt::format("label '{}': expected KEY=VALUE", text));
    }
    return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

RangeBound parse_range_bound(std::string_view option, std::string_view text) {
    RangeBound b;
    const bool all_digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
    if (all_digits) {
        std::int64_t frame = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), frame);
        if (ec != std::errc() || ptr != text.data() + text.size()) {
            throw UsageError(fmt::format("{} '{}': frame number out of range", option, text));
        }
        b.kind = RangeBound::Kind::frame;
        b.value = frame;
        return b;
    }
    try {
        b.value = parse_duration_ns(text);
    } catch (const UsageError&) {
        throw UsageError(fmt::format(
            "{} '{}': expected a frame number (e.g. 1200) or a time with a unit (e.g. 12.5s, "
            "800ms)",
            option, text));
    }
    b.kind = RangeBound::Kind::time;
    return b;
}

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

RegressionCheck parse_regression_check(std::string_view text) {
    RegressionCheck check;
    check.text = std::string(text);
    const std::size_t colon = text.find(':');
    check.figure = std::string(text.substr(0, colon));
    const Figure* figure = find_figure(check.figure);
    if (figure == nullptr || figure->value == nullptr) {
        throw UsageError(
            fmt::format("--fail-if-regressed '{}': {}", text, unknown_figure_text(check.figure)));
    }
    if (figure_better(*figure) == Better::unknown) {
        throw UsageError(fmt::format(
            "--fail-if-regressed '{}': {} has no better direction (neither more nor less is a "
            "regression)",
            text, check.figure));
    }
    if (colon != std::string_view::npos) {
        std::string_view tol = text.substr(colon + 1);
        if (!tol.empty() && tol.back() == '%') {
            check.relative = true;
            tol.remove_suffix(1);
        }
        const auto [end, ec] =
            std::from_chars(tol.data(), tol.data() + tol.size(), check.tolerance);
        if (tol.empty() || ec != std::errc() || end != tol.data() + tol.size() ||
            !(check.tolerance >= 0) || !std::isfinite(check.tolerance)) {
            throw UsageError(fmt::format(
                "--fail-if-regressed '{}': the tolerance must be a number >= 0 in the figure's "
                "unit, or a percentage (p99_ms:0.5, avg_fps:3%)",
                text));
        }
        if (check.relative)
            check.tolerance /= 100.0;
    }
    return check;
}

std::vector<std::string> parse_path_pattern(std::string_view pattern) {
    std::vector<std::string> names;
    std::size_t start = 0;
    while (start <= pattern.size()) {
        std::size_t end = pattern.find('/', start);
        if (end == std::string_view::npos)
            end = pattern.size();
        names.emplace_back(pattern.substr(start, end - start));
        start = end + 1;
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i].empty()) {
            throw UsageError(fmt::format(
                "--labels-from-path '{}': an empty label name (expected e.g. game/config/...)",
                pattern));
        }
        if (names[i] == "..." && i + 1 != names.size()) {
            throw UsageError(
                fmt::format("--labels-from-path '{}': '...' can only end the pattern", pattern));
        }
    }
    return names;
}

std::string command_line_error_text(const std::exception& error) {
    if (const auto* e = dynamic_cast<const EmptyRangeError*>(&error)) {
        return fmt::format("--from/--to select no frames (the capture has {} frames over {:.3f} s)",
                           e->frames(), ns_to_s(e->total_ns()));
    }
    if (const auto* e = dynamic_cast<const NoDisplayTimesError*>(&error)) {
        return fmt::format(
            "--timeline display: '{}' ({}) has no display-change times; use --timeline present",
            e->file(), e->format());
    }
    if (const auto* e = dynamic_cast<const GateFigureUnavailable*>(&error))
        return fmt::format("--fail-if '{}': {}", e->condition(), e->reason());
    return error.what();
}

}  // namespace loopscope
