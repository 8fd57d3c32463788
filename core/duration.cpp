#include "core/duration.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "core/units.hpp"

namespace loopscope {

std::int64_t ms_to_ns(double ms) {
    return std::llround(ms * 1e6);
}
std::int64_t s_to_ns(double s) {
    return std::llround(s * 1e9);
}

namespace {

bool parse_double(std::string_view s, double& out) {
    s = trim(s);
    if (s.empty())
        return false;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size() && std::isfinite(out);
}

[[noreturn]] void bad(std::string_view text, std::string_view why) {
    throw UsageError(fmt::format(
        "invalid duration '{}': {} (expected a number with a unit ns, us, ms or s, e.g. 16.7ms, "
        "or a fraction of a second such as 1/60)",
        text, why));
}

}  // namespace

std::int64_t parse_duration_ns(std::string_view text) {
    const std::string_view s = trim(text);
    if (s.empty())
        bad(text, "empty");

    if (auto slash = s.find('/'); slash != std::string_view::npos) {
        double num = 0;
        double den = 0;
        if (!parse_double(s.substr(0, slash), num) || !parse_double(s.substr(slash + 1), den))
            bad(text, "not a fraction");
        if (den <= 0)
            bad(text, "the denominator must be positive");
        if (num < 0)
            bad(text, "negative");
        const double ns = num / den * 1e9;
        if (ns > 9e18)
            bad(text, "too large");
        return std::llround(ns);
    }

    std::size_t unit_at = s.size();
    while (unit_at > 0 && std::isalpha(static_cast<unsigned char>(s[unit_at - 1])))
        --unit_at;
    const std::string_view unit = s.substr(unit_at);
    double value = 0;
    if (!parse_double(s.substr(0, unit_at), value))
        bad(text, "not a number");
    if (value < 0)
        bad(text, "negative");

    double scale = 0;
    if (unit == "ns")
        scale = 1;
    else if (unit == "us")
        scale = 1e3;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s")
        scale = 1e9;
    else if (unit.empty() && value == 0)
        return 0;
    else if (unit.empty())
        bad(text, "missing unit");
    else
        bad(text, fmt::format("unknown unit '{}'", unit));

    const double ns = value * scale;
    if (ns > 9e18)
        bad(text, "too large");
    return std::llround(ns);
}

std::string format_duration(std::int64_t ns) {
    // Unsigned, so that INT64_MIN has a magnitude too (negating it is undefined).
    const std::uint64_t abs_ns =
        ns < 0 ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    if (abs_ns >= static_cast<std::uint64_t>(kNsPerS))
        return fmt::format("{:.3f} s", ns_to_s(ns));
    if (abs_ns >= static_cast<std::uint64_t>(kNsPerMs))
        return fmt::format("{:.3f} ms", ns_to_ms(ns));
    if (abs_ns >= static_cast<std::uint64_t>(kNsPerUs))
        return fmt::format("{:.3f} us", ns_to_us(ns));
    return fmt::format("{} ns", ns);
}

}  // namespace loopscope
