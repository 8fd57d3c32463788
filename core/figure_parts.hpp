// The figure catalogue's parts (core/figures.hpp): what the files declaring its families share.
// Internal to core: the catalogue is read through figures.hpp.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/figures.hpp"
#include "core/units.hpp"

namespace loopscope::figure_parts {

inline std::string fixed(double v, int digits) {
    return fmt::format("{:.{}f}", v, digits);
}
inline std::string percent(double share) {
    return fmt::format("{:.2f} %", share * 100.0);
}
inline std::string ms(double v) {
    return fixed(v, 3) + " ms";
}

inline const FrameStats& stats(const CaptureReport& r) {
    return r.stats;
}
inline const FrameTimeSummary& ft(const CaptureReport& r) {
    return r.stats.frame_time;
}
inline const LoopFigures& loop(const CaptureReport& r) {
    return *r.loop_figures;
}

// The frame-statistics figures: one accessor serves the report (over its series) and the
// comparison (over a resample).
template <auto Get>
inline std::optional<double> from_stats(const FrameStats& s) {
    return static_cast<double>(Get(s));
}
template <auto Get>
inline std::optional<double> from_report(const CaptureReport& r) {
    return static_cast<double>(Get(r.stats));
}

inline constexpr auto kFrames = [](const FrameStats& s) { return s.frame_time.frames; };
inline constexpr auto kDuration = [](const FrameStats& s) {
    return ns_to_s(s.frame_time.total_ns);
};
inline constexpr auto kAvgFps = [](const FrameStats& s) { return s.fps.average; };
inline constexpr auto kP1Low = [](const FrameStats& s) { return s.fps.p1_low; };
inline constexpr auto kP01Low = [](const FrameStats& s) { return s.fps.p01_low; };
inline constexpr auto kLow1Avg = [](const FrameStats& s) { return s.fps.low1_average; };
inline constexpr auto kLow01Avg = [](const FrameStats& s) { return s.fps.low01_average; };
inline constexpr auto kLow1Integral = [](const FrameStats& s) { return s.fps.low1_integral; };
inline constexpr auto kLow01Integral = [](const FrameStats& s) { return s.fps.low01_integral; };
inline constexpr auto kMin = [](const FrameStats& s) { return s.frame_time.min_ms; };
inline constexpr auto kMean = [](const FrameStats& s) { return s.frame_time.mean_ms; };
inline constexpr auto kStdev = [](const FrameStats& s) { return s.frame_time.stdev_ms; };
inline constexpr auto kCv = [](const FrameStats& s) { return s.frame_time.cv; };
inline constexpr auto kP50 = [](const FrameStats& s) { return s.frame_time.p50_ms; };
inline constexpr auto kP90 = [](const FrameStats& s) { return s.frame_time.p90_ms; };
inline constexpr auto kP95 = [](const FrameStats& s) { return s.frame_time.p95_ms; };
inline constexpr auto kP99 = [](const FrameStats& s) { return s.frame_time.p99_ms; };
inline constexpr auto kP999 = [](const FrameStats& s) { return s.frame_time.p999_ms; };
inline constexpr auto kMax = [](const FrameStats& s) { return s.frame_time.max_ms; };
inline constexpr auto kStutterCount = [](const FrameStats& s) { return s.stutter.frames.size(); };
inline constexpr auto kStutterShare = [](const FrameStats& s) { return s.stutter.time_share; };
inline constexpr auto kStutterCountShare = [](const FrameStats& s) {
    return s.stutter.count_share;
};
inline constexpr auto kStutterCountFrames = [](const FrameStats& s) {
    return s.stutter.above_mean;
};
inline constexpr auto kHitchCount = [](const FrameStats& s) { return s.hitches.hitches.size(); };
inline constexpr auto kHitchRate = [](const FrameStats& s) { return s.hitches.per_minute; };
inline constexpr auto kVarGe12 = [](const FrameStats& s) { return s.variation.share(4); };

// Several families' entries, in order, as one array: a family written as a table and the
// entries around it.
template <std::size_t... N>
constexpr std::array<Figure, (N + ...)> join(const std::array<Figure, N>&... parts) {
    std::array<Figure, (N + ...)> all{};
    std::size_t at = 0;
    ((std::copy(parts.begin(), parts.end(), all.begin() + at), at += N), ...);
    return all;
}

std::string stutter_text(const FrameStats& s);
std::string cadence_text(const CadenceFigures& c);
std::string refresh_absence(const CaptureReport& r);
std::string generation_verdict(const CaptureReport& r);
const ToolFigures& tools(const CaptureReport& r);
const std::vector<HitchCause>& hitch_causes(const CaptureReport& r);
std::int64_t kind_ns(const HitchCause& cause, std::string_view kind);

// The families, in catalogue order.
std::span<const Figure> frame_figures();
std::span<const Figure> column_figures();
std::span<const Figure> generation_figures();
std::span<const Figure> loop_family();
std::span<const Figure> steady_figures();
std::span<const Figure> sample_figures();
std::span<const Figure> tool_figures();
std::span<const Figure> sampled_percentile_figures();

}  // namespace loopscope::figure_parts
