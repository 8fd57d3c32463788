// Parsing of the shared loop options: every value is checked here, so a bad one is one clear
// line and exit code 2 rather than a surprise in the loop.
#include "tool/loop_options.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <limits>

#include "common/errors.hpp"
#include "core/duration.hpp"

namespace loopscope {

void add_loop_options(CLI::App& command, LoopOptions& options, bool with_output) {
    command.add_option("--policy", options.policy,
                       fmt::format("Loop policy: {} (default fixed-interp)", policy_names()));
    command.add_option("--dt", options.dt,
                       "Simulation step: a duration such as 1/60, 16.667ms, 10ms (default 1/60)");
    command.add_option("--clamp", options.clamp, "Frame-time clamp, 0 = off (default 250ms)");
    command.add_option("--max-steps", options.max_steps,
                       "Step cap: most steps per frame, 0 = unlimited (default 0)");
    command.add_option("--timescale", options.timescale,
                       "Simulation speed, 1 = real time, 0.5 = half speed (default 1)");
    if (with_output) {
        command.add_option("-o,--output", options.output,
                           "Write the per-frame trace to FILE ('-' = standard output)");
        command.add_option("--json", options.json,
                           "Write the loop figures and verdict as JSON (schema loopscope-loop/1) "
                           "to FILE ('-' = standard output)");
    }
}

std::FILE* summary_stream(const LoopOptions& options) {
    if (options.output == "-" && options.json == "-") {
        throw UsageError(
            "invalid --json '-': the trace (-o -) already goes to standard output; give one of "
            "them a file");
    }
    return options.output == "-" || options.json == "-" ? stderr : stdout;
}

std::int64_t parse_count(const std::string& option, const std::string& text) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec == std::errc::result_out_of_range && ptr == end && !text.starts_with('-')) {
        throw UsageError(fmt::format("invalid {} '{}': too large (at most {})", option, text,
                                     std::numeric_limits<std::int64_t>::max()));
    }
    if (text.empty() || ec != std::errc() || ptr != end || value < 0) {
        throw UsageError(
            fmt::format("invalid {} '{}': expected a whole number >= 0", option, text));
    }
    return value;
}

double parse_decimal(const std::string& option, const std::string& text) {
    double value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
        throw UsageError(fmt::format("invalid {} '{}': expected a decimal number", option, text));
    }
    return value;
}

std::int64_t parse_duration_option(const std::string& option, const std::string& text) {
    try {
        return parse_duration_ns(text);
    } catch (const UsageError& e) {
        throw UsageError(fmt::format("{}: {}", option, e.what()));
    }
}

void check_plain_unit(const std::string& option, const std::string& text) {
    if (text != "ns" && text != "us" && text != "ms" && text != "s")
        throw UsageError(fmt::format("invalid {} '{}': expected ns, us, ms or s", option, text));
}

LoopConfig loop_config(const LoopOptions& o, const LoopConfig& base) {
    LoopConfig c = base;
    if (!o.policy.empty()) {
        auto policy = parse_policy(o.policy);
        if (!policy) {
            throw UsageError(
                fmt::format("invalid --policy '{}': expected one of {}", o.policy, policy_names()));
        }
        c.policy = *policy;
    }
    if (!o.dt.empty()) {
        c.dt_ns = parse_duration_option("--dt", o.dt);
        if (c.dt_ns <= 0) {
            throw UsageError(
                fmt::format("invalid --dt '{}': the step must be longer than 0", o.dt));
        }
    }
    if (!o.clamp.empty())
        c.clamp_ns = parse_duration_option("--clamp", o.clamp);
    if (!o.max_steps.empty())
        c.max_steps = parse_count("--max-steps", o.max_steps);
    if (!o.timescale.empty()) {
        c.timescale = parse_decimal("--timescale", o.timescale);
        if (c.timescale < 0 || c.timescale > 1e6) {
            throw UsageError(fmt::format(
                "invalid --timescale '{}': expected a number from 0 to 1000000 (1 = real time)",
                o.timescale));
        }
    }
    validate(c);
    return c;
}

}  // namespace loopscope
