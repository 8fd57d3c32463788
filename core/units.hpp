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

// Durations that stop at the int64 range instead of wrapping: a modelled cost (steps × cost per
// step) or a sum that would overflow is in any case far past every limit it is compared with.
constexpr std::int64_t saturating_add_ns(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        return a > 0 ? INT64_MAX : INT64_MIN;
    return sum;
}
constexpr std::int64_t saturating_mul_ns(std::int64_t a, std::int64_t b) {
    std::int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product))
        return (a > 0) == (b > 0) ? INT64_MAX : INT64_MIN;
    return product;
}

// Rounds to the nearest nanosecond; callers check the range first where input is untrusted.
std::int64_t ms_to_ns(double ms);
std::int64_t s_to_ns(double s);

}  // namespace loopscope
