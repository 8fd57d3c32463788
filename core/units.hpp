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

// 2^63 ns (292 years), where the int64 range ends: a time read as a double converts to integer
// nanoseconds when its magnitude is below this (2^63 is exact in a double; the largest double
// below it is 2^63 - 1024, which fits).
inline constexpr double kInt64RangeNs = 9223372036854775808.0;

// std::llround for |x| < kInt64RangeNs (rounding half away from zero), without the library call
// that costs 2-3 % of reading a large capture. Exact: trunc(x) and x share their exponent (or x is
// below 1, or already whole above 2^52), so x − trunc(x) is formed without rounding.
constexpr std::int64_t round_to_int64(double x) {
    const auto whole = static_cast<std::int64_t>(x);  // towards zero
    const double fraction = x - static_cast<double>(whole);
    if (fraction >= 0.5)
        return whole + 1;
    if (fraction <= -0.5)
        return whole - 1;
    return whole;
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

// Compares a·b with c·d exactly for non-negative values whose products may pass the int64 range
// (the stutter rules compare 2·n·ft with 5·Σft): -1, 0 or 1. The products are formed in 128 bits
// from 32-bit halves, which every compiler has.
constexpr int compare_products(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
    struct U128 {
        std::uint64_t hi, lo;
    };
    const auto mul = [](std::uint64_t x, std::uint64_t y) {
        const std::uint64_t x_lo = x & 0xffffffffu, x_hi = x >> 32;
        const std::uint64_t y_lo = y & 0xffffffffu, y_hi = y >> 32;
        const std::uint64_t lo_lo = x_lo * y_lo, hi_lo = x_hi * y_lo;
        const std::uint64_t lo_hi = x_lo * y_hi, hi_hi = x_hi * y_hi;
        const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
        return U128{hi_hi + (hi_lo >> 32) + (cross >> 32), (cross << 32) | (lo_lo & 0xffffffffu)};
    };
    const U128 p = mul(a, b), q = mul(c, d);
    if (p.hi != q.hi)
        return p.hi < q.hi ? -1 : 1;
    if (p.lo != q.lo)
        return p.lo < q.lo ? -1 : 1;
    return 0;
}

// Rounds to the nearest nanosecond; callers check the range first where input is untrusted.
std::int64_t ms_to_ns(double ms);
std::int64_t s_to_ns(double s);

}  // namespace loopscope
