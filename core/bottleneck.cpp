// Where a frame's time went (see bottleneck.hpp).
#include "core/bottleneck.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.hpp"

namespace loopscope {

namespace {

bool full(const std::vector<std::int64_t>& v, const Capture& c) {
    return !v.empty() && v.size() == c.frames();
}

}  // namespace

const char* bound_name(Bound bound) {
    switch (bound) {
        case Bound::cpu:
            return "CPU-bound";
        case Bound::gpu:
            return "GPU-bound";
        case Bound::wait:
            return "wait-bound";
        case Bound::unknown:
            break;
    }
    return "unknown";
}

BottleneckRule bottleneck_rule(const Capture& c) {
    if (full(c.cpu_busy_ns, c) && full(c.time_column(TimeColumn::cpu_wait), c) &&
        full(c.time_column(TimeColumn::gpu_busy), c))
        return BottleneckRule::busy_wait;
    if (full(c.until_render_complete_ns, c) && full(c.in_present_api_ns, c))
        return BottleneckRule::render_complete;
    return BottleneckRule::none;
}

std::optional<std::string> bottleneck_missing(const Capture& c) {
    if (bottleneck_rule(c) != BottleneckRule::none)
        return std::nullopt;
    if (!c.description.bottleneck_absent_reason.empty())
        return std::string(c.description.bottleneck_absent_reason);
    return fmt::format(
        "'{}' ({}) has neither CPU / GPU busy and wait columns (PresentMon 2.x CPUBusy, CPUWait, "
        "GPUBusy) nor msUntilRenderComplete with msInPresentAPI (PresentMon 1.x, OCAT)",
        c.source.file, c.source.format);
}

Bound frame_bound(const Capture& c, std::size_t i) {
    switch (bottleneck_rule(c)) {
        case BottleneckRule::busy_wait: {
            if (c.generated.size() == c.frames() && c.generated[i])
                return Bound::unknown;
            const std::int64_t cpu = c.cpu_busy_ns[i];
            const std::int64_t wait = c.time_column(TimeColumn::cpu_wait)[i];
            const std::int64_t gpu = c.time_column(TimeColumn::gpu_busy)[i];
            if (cpu < 0 || wait < 0 || gpu < 0 || cpu + wait <= 0)
                return Bound::unknown;
            const double t = static_cast<double>(cpu + wait);
            const std::int64_t busiest = std::max(cpu, gpu);
            if (static_cast<double>(busiest) < kBusyShare * t)
                return Bound::wait;
            return gpu >= cpu ? Bound::gpu : Bound::cpu;
        }
        case BottleneckRule::render_complete: {
            const std::int64_t t = c.frame_ns[i];
            const std::int64_t until = c.until_render_complete_ns[i];
            const std::int64_t in_present = c.in_present_api_ns[i];
            if (t <= 0 || until < 0 || in_present < 0)
                return Bound::unknown;
            if (until >= t)
                return Bound::gpu;
            if (static_cast<double>(in_present) >= (1.0 - kBusyShare) * static_cast<double>(t))
                return Bound::wait;
            return Bound::cpu;
        }
        case BottleneckRule::none:
            break;
    }
    return Bound::unknown;
}

BottleneckShares bottleneck_shares(const Capture& c, FrameRange range) {
    BottleneckShares s;
    if (bottleneck_rule(c) == BottleneckRule::none)
        return s;
    for (std::size_t i = range.begin; i < range.end && i < c.frames(); ++i) {
        switch (frame_bound(c, i)) {
            case Bound::cpu:
                ++s.cpu;
                break;
            case Bound::gpu:
                ++s.gpu;
                break;
            case Bound::wait:
                ++s.wait;
                break;
            case Bound::unknown:
                continue;
        }
        ++s.classified;
    }
    if (s.classified > 0) {
        const double n = static_cast<double>(s.classified);
        s.cpu_share = static_cast<double>(s.cpu) / n;
        s.gpu_share = static_cast<double>(s.gpu) / n;
        s.wait_share = static_cast<double>(s.wait) / n;
    }
    return s;
}

}  // namespace loopscope
