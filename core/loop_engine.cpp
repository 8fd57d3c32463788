// The parts of the loop engine that are not inlined on the per-frame path: names, validation,
// the timescale rounding, the replay of a run of frames into records.
#include "core/loop_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define LOOPSCOPE_STREAMING_STORES 1
#endif

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
#ifdef LOOPSCOPE_STREAMING_STORES
    static_assert(std::is_trivially_copyable_v<FrameRecord> && sizeof(FrameRecord) % 8 == 0);
    constexpr std::size_t kWords = sizeof(FrameRecord) / 8;
    if (sizeof(FrameRecord) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out.data()) % 16 == 0) {
        // Every record starts on 16 bytes (112 = 7 x 16): half as many stores, of 16 bytes.
        constexpr std::size_t kVectors = sizeof(FrameRecord) / 16;
        for (std::size_t i = 0; i < n; ++i) {
            const FrameRecord r = advance(raw_ns[i]);
            auto* to = reinterpret_cast<__m128i*>(&out[i]);
            for (std::size_t k = 0; k < kVectors; ++k) {
                __m128i v;
                std::memcpy(&v, reinterpret_cast<const char*>(&r) + 16 * k, 16);
                _mm_stream_si128(to + k, v);
            }
        }
        _mm_sfence();
        return n;
    }
    for (std::size_t i = 0; i < n; ++i) {
        const FrameRecord r = advance(raw_ns[i]);
        long long words[kWords];
        std::memcpy(words, &r, sizeof r);
        auto* to = reinterpret_cast<long long*>(&out[i]);
        for (std::size_t k = 0; k < kWords; ++k)
            _mm_stream_si64(to + k, words[k]);
    }
    _mm_sfence();  // the stores are seen before anything this thread does next
#else
    for (std::size_t i = 0; i < n; ++i)
        out[i] = advance(raw_ns[i]);
#endif
    return n;
}

}  // namespace loopscope
