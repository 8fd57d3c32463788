// Time units. Everything inside loopscope is integer nanoseconds (int64_t); these helpers are for
// the edges, where a human or a file wants milliseconds or seconds as a double.
#pragma once

#include <cstdint>

namespace loopscope {

inline constexpr std::int64_t kNsPerUs = 1'000;
inline constexpr std::int64_t kNsPerMs = 1'000'000;
inline constexpr std::int64_t kNsPerS = 1'000'000'000;

constexpr double ns_to_us(std::int64_t ns) {
    return static_cast<double>(ns) / 1e3;
}
constexpr double ns_to_ms(std::int64_t ns) {
    return static_cast<double>(ns) / 1e6;
}
constexpr double ns_to_s(std::int64_t ns) {
    return static_cast<double>(ns) / 1e9;
}
constexpr double ns_to_ms(double ns) {
    return ns / 1e6;
}

// Rounds to the nearest nanosecond; callers check the range first where input is untrusted.
std::int64_t ms_to_ns(double ms);
std::int64_t s_to_ns(double s);

}  // namespace loopscope
