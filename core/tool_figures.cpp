// Each tool's own summary figures; the rules and their sources are in tool_figures.hpp.
#include "core/tool_figures.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/ascending.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {

// The i-th longest (0-based) of ascending values.
std::int64_t longest(const AscendingValues& sorted_ns, std::size_t i) {
    return sorted_ns.at(sorted_ns.size() - 1 - i);
}

double fps_of_ns(double ns) {
    return ns > 0 ? 1e9 / ns : 0.0;
}

// FrameView counts floor(N·x / 100) + 1 frames for "x %": x = 100 / divisor, so the count is
// exact in integers (N / 100 for 1 %, N / 1000 for 0.1 %, N / 20 for 5 %, N / 10 for 10 %).
std::size_t frameview_count(std::size_t frames, std::size_t divisor) {
    return std::min(frames, frames / divisor + 1);
}

double frameview_low(const AscendingValues& sorted_ns, std::size_t divisor) {
    const std::size_t k = frameview_count(sorted_ns.size(), divisor);
    const std::int64_t sum = sorted_ns.sum_from(sorted_ns.size() - k);
    return fps_of_ns(static_cast<double>(sum) / static_cast<double>(k));
}

double frameview_percentile(const AscendingValues& sorted_ns, std::size_t divisor) {
    const std::size_t k = frameview_count(sorted_ns.size(), divisor);
    return fps_of_ns(static_cast<double>(longest(sorted_ns, k - 1)));
}

// MangoHud keeps frame times in ms as float32.
float mangohud_ms(std::int64_t ns) {
    return static_cast<float>(ns_to_ms(static_cast<double>(ns)));
}

// fpsMetrics::calculate: idx = (uint64)(p·N − 1), each step in float32. A product or difference
// of two float32 values is exact in double, so each is formed there and rounded to float32 once,
// as a float32 operation rounds it (and no multiply-add can fuse the two steps). A negative
// index (p·N < 1) is what C++ leaves undefined; x86 builds truncate it toward zero: 0.
double mangohud_percentile(const AscendingValues& sorted_ns, float p) {
    const std::size_t n = sorted_ns.size();
    const auto scaled =
        static_cast<float>(static_cast<double>(p) * static_cast<double>(static_cast<float>(n)));
    const auto position = static_cast<float>(static_cast<double>(scaled) - 1.0);
    const std::size_t index = position < 0.0f ? 0 : static_cast<std::size_t>(position);
    if (index >= n)
        return 0.0;
    const float ft = mangohud_ms(longest(sorted_ns, index));
    return static_cast<double>(1000.0f / ft);
}

// writeSummary's "Average FPS": the float32 sum of the frame times in its order (sorted by FPS
// ascending: longest first), then 1000 / (sum / N), in float32.
double mangohud_average(const AscendingValues& sorted_ns) {
    const float sum = sorted_ns.mangohud_sum_ms();
    const float mean = sum / static_cast<float>(sorted_ns.size());
    return static_cast<double>(1000.0f / mean);
}

// MathNet's R-8 quantile of the FPS values 1000 / ft_ms, ascending (the longest frame first).
double capframex_fps_quantile(const AscendingValues& sorted_ns, double p) {
    const std::size_t n = sorted_ns.size();
    const auto fps = [&](std::size_t j) {  // the j-th lowest FPS value, 0-based
        return 1000.0 / ns_to_ms(static_cast<double>(longest(sorted_ns, j)));
    };
    const double nd = static_cast<double>(n);
    const double h = (nd + 1.0 / 3.0) * p + 1.0 / 3.0;
    const double whole = std::floor(h);
    if (whole <= 0.0)
        return fps(0);
    if (whole >= nd)
        return fps(n - 1);
    const auto i = static_cast<std::size_t>(whole);  // 1-based x[i] is fps(i - 1)
    return fps(i - 1) + (h - whole) * (fps(i) - fps(i - 1));
}

// StatisticsTracker::GetPercentile over the times in ms, ascending; then 1 / (ms / 1000).
double presentmon_percentile_fps(const AscendingValues& sorted_ns, double p) {
    const std::size_t n = sorted_ns.size();
    const auto ms = [&](std::size_t i) { return ns_to_ms(static_cast<double>(sorted_ns.at(i))); };
    double value = 0;
    if (n == 1) {
        value = ms(0);
    } else {
        const double index = static_cast<double>(n - 1) * p;
        const auto lower = static_cast<std::size_t>(index);
        const double weight = index - static_cast<double>(lower);
        value = ms(lower) * (1 - weight) + ms(lower + 1) * weight;
    }
    const double seconds = value / 1000.0;
    return seconds > 0 ? 1.0 / seconds : 0.0;
}

// OCAT: the value at rank (int)(p·N) of the ascending times.
double ocat_percentile_ms(const AscendingValues& sorted_ns, double p) {
    const auto rank = static_cast<std::size_t>(p * static_cast<double>(sorted_ns.size()));
    return ns_to_ms(static_cast<double>(sorted_ns.at(std::min(rank, sorted_ns.size() - 1))));
}

}  // namespace

ToolFigures tool_figures(std::span<const std::int64_t> sorted_ns, std::int64_t total_ns) {
    return tool_figures(SortedValues(sorted_ns), total_ns);
}

ToolFigures tool_figures(const AscendingValues& sorted_ns, std::int64_t total_ns) {
    ToolFigures t;
    const std::size_t n = sorted_ns.size();
    if (n == 0)
        return t;
    const double nd = static_cast<double>(n);
    const double shortest_ns = static_cast<double>(sorted_ns.front());
    const double longest_ns = static_cast<double>(sorted_ns.back());

    t.frameview_avg_fps = total_ns > 0 ? 1e9 * nd / static_cast<double>(total_ns) : 0.0;
    t.frameview_low1_fps = frameview_low(sorted_ns, 100);
    t.frameview_low01_fps = frameview_low(sorted_ns, 1000);
    t.frameview_p1_fps = frameview_percentile(sorted_ns, 100);
    t.frameview_p01_fps = frameview_percentile(sorted_ns, 1000);
    t.frameview_p5_fps = frameview_percentile(sorted_ns, 20);
    t.frameview_p10_fps = frameview_percentile(sorted_ns, 10);
    t.frameview_min_fps = fps_of_ns(longest_ns);
    t.frameview_max_fps = fps_of_ns(shortest_ns);

    t.mangohud_avg_fps = mangohud_average(sorted_ns);
    t.mangohud_min1_fps = mangohud_percentile(sorted_ns, 0.01f);
    t.mangohud_min01_fps = mangohud_percentile(sorted_ns, 0.001f);
    t.mangohud_p97_fps = mangohud_percentile(sorted_ns, 0.97f);

    t.capframex_p1_fps = capframex_fps_quantile(sorted_ns, 0.01);
    t.capframex_p01_fps = capframex_fps_quantile(sorted_ns, 0.001);

    const double mean_s = ns_to_ms(static_cast<double>(total_ns)) / nd / 1000.0;
    t.presentmon_avg_fps = mean_s > 0 ? 1.0 / mean_s : 0.0;
    t.presentmon_p1_fps = presentmon_percentile_fps(sorted_ns, 0.99);
    t.presentmon_p5_fps = presentmon_percentile_fps(sorted_ns, 0.95);
    t.presentmon_min_fps = fps_of_ns(longest_ns);
    t.presentmon_max_fps = fps_of_ns(shortest_ns);

    t.ocat_p95_ms = ocat_percentile_ms(sorted_ns, 0.95);
    t.ocat_p99_ms = ocat_percentile_ms(sorted_ns, 0.99);
    t.ocat_p999_ms = ocat_percentile_ms(sorted_ns, 0.999);
    return t;
}

OcatAverages ocat_averages(std::size_t frames, std::int64_t elapsed_ns) {
    OcatAverages a;
    const double seconds = ns_to_s(elapsed_ns);
    if (frames == 0 || !(seconds > 0))
        return a;
    a.avg_fps = static_cast<double>(frames) / seconds;
    a.avg_frame_time_ms = seconds * 1000.0 / static_cast<double>(frames);
    return a;
}

namespace {

constexpr std::array kLowsRows = {
    LowsRow{.tool = "loopscope 1% low (percentile)",
            .low1_key = "p1_low_fps",
            .low01_key = "p01_low_fps",
            .keys_are_ms = false,
            .rule = "1000 / the p99 (p99.9) frame time, interpolated at h = p·(N-1)"},
    LowsRow{.tool = "PresentMon \"1st Percentile FPS\"",
            .low1_key = "presentmon_p1_fps",
            .low01_key = "",
            .keys_are_ms = false,
            .rule = "1000 / the 0.99 percentile frame time, interpolated at h = p·(N-1); no 0.1 %"},
    LowsRow{.tool = "FrameView \"1% Low FPS\"",
            .low1_key = "frameview_low1_fps",
            .low01_key = "frameview_low01_fps",
            .keys_are_ms = false,
            .rule = "1000 / mean of the floor(N·x)+1 longest frame times"},
    LowsRow{.tool = "FrameView \"1% FPS\"",
            .low1_key = "frameview_p1_fps",
            .low01_key = "frameview_p01_fps",
            .keys_are_ms = false,
            .rule = "1000 / the (floor(N·x)+1)-th longest frame time"},
    LowsRow{.tool = "CapFrameX \"1% low\" (integral)",
            .low1_key = "low1_integral_fps",
            .low01_key = "low01_integral_fps",
            .keys_are_ms = false,
            .rule = "1000 / the frame at which the longest frames first sum to x of the time"},
    LowsRow{.tool = "CapFrameX \"1% low average\"",
            .low1_key = "low1_avg_fps",
            .low01_key = "low01_avg_fps",
            .keys_are_ms = false,
            .rule = "1000 / mean of the frame times >= their 1-x quantile (R-8)"},
    LowsRow{.tool = "CapFrameX \"P1\"",
            .low1_key = "capframex_p1_fps",
            .low01_key = "capframex_p01_fps",
            .keys_are_ms = false,
            .rule = "the x quantile (R-8) of the FPS values 1000 / ft"},
    LowsRow{.tool = "MangoHud \"1% Min FPS\"",
            .low1_key = "mangohud_min1_fps",
            .low01_key = "mangohud_min01_fps",
            .keys_are_ms = false,
            .rule = "1000 / the frame time at index (uint64)(x·N - 1), longest first, float32"},
    LowsRow{.tool = "OCAT 99th-percentile frame time",
            .low1_key = "ocat_p99_ms",
            .low01_key = "ocat_p999_ms",
            .keys_are_ms = true,
            .rule = "1000 / the frame time at index (int)((1-x)·N), ascending"},
};

}  // namespace

std::span<const LowsRow> lows_rows() {
    return kLowsRows;
}

std::size_t ocat_max_consecutive_missed(std::span<const std::uint8_t> dropped) {
    std::size_t run = 0, longest = 0;
    for (const std::uint8_t d : dropped) {
        if (d) {
            ++run;
            continue;
        }
        longest = std::max(longest, run);
        run = 0;
    }
    return longest;
}

std::array<std::size_t, 10> capframex_fps_threshold_counts(std::span<const std::int64_t> frame_ns) {
    std::array<std::size_t, 10> counts{};
    for (const std::int64_t ns : frame_ns) {
        // CapFrameX compares the FPS value 1000 / ft in double, as here.
        const double fps = 1000.0 / (static_cast<double>(ns) / 1e6);
        for (std::size_t t = 0; t < kCapFrameXFpsThresholds.size(); ++t) {
            if (fps < kCapFrameXFpsThresholds[t])
                ++counts[t];
        }
    }
    return counts;
}

double capframex_low_fps_time_share(std::span<const std::int64_t> frame_ns,
                                    std::span<const std::size_t> stutter) {
    double total = 0, low = 0;
    std::size_t next = 0;
    for (std::size_t i = 0; i < frame_ns.size(); ++i) {
        const double ms = static_cast<double>(frame_ns[i]) / 1e6;
        total += ms;
        while (next < stutter.size() && stutter[next] < i)
            ++next;
        const bool is_stutter = next < stutter.size() && stutter[next] == i;
        if (!is_stutter && 1000.0 / ms < 25.0)
            low += ms;
    }
    return total > 0 ? low / total : 0.0;
}

double unreal_missed_vsync_share(std::size_t frames, std::int64_t total_ns, double target_fps) {
    const double vsyncs = std::floor(target_fps * static_cast<double>(total_ns) / 1e9);
    if (!(vsyncs > 0))
        return 0.0;
    return std::max(0.0, vsyncs - static_cast<double>(frames)) / vsyncs;
}

}  // namespace loopscope
