// Range selection and start-up detection; definitions in segments.hpp.
#include "core/segments.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "common/errors.hpp"
#include "core/capture.hpp"
#include "core/frame_stats.hpp"
#include "core/units.hpp"

namespace loopscope {

EmptyRangeError::EmptyRangeError(std::size_t frames, std::int64_t total_ns)
    : UsageError(
          fmt::format("the range selects no frames (the capture has {} frames over {:.3f} s)",
                      frames, ns_to_s(total_ns))),
      frames_(frames),
      total_ns_(total_ns) {}

FrameRange select_range(std::span<const std::int64_t> frame_ns,
                        std::span<const std::int64_t> start_ns, RangeBound from, RangeBound to,
                        bool start_ends_frame_time) {
    const std::size_t n = frame_ns.size();
    const bool have_starts = start_ns.size() == n;
    // When frame i began, on the axis (t = 0 at the first row's time stamp).
    std::vector<std::int64_t> t;
    const bool need_times =
        from.kind == RangeBound::Kind::time || to.kind == RangeBound::Kind::time;
    if (need_times) {
        t.resize(n);
        const std::int64_t origin = have_starts ? start_ns[0] : 0;
        std::int64_t previous = 0;
        for (std::size_t i = 0; i < n; ++i) {
            previous = frame_begin_ns(frame_ns, start_ns, start_ends_frame_time, i, previous);
            t[i] = previous - origin;
        }
    }
    // A scan rather than a binary search: rows out of time order are read in file order.
    auto first_at_or_after = [&](RangeBound b, std::size_t from_index) -> std::size_t {
        switch (b.kind) {
            case RangeBound::Kind::none:
                return 0;
            case RangeBound::Kind::frame:
                return static_cast<std::size_t>(std::min<std::int64_t>(b.value, n));
            case RangeBound::Kind::time: {
                std::size_t i = from_index;
                while (i < n && t[i] < b.value)
                    ++i;
                return i;
            }
        }
        return 0;
    };
    FrameRange r;
    r.begin = first_at_or_after(from, 0);
    r.end = to.kind == RangeBound::Kind::none ? n : first_at_or_after(to, r.begin);
    if (r.end <= r.begin) {
        const std::int64_t total =
            std::accumulate(frame_ns.begin(), frame_ns.end(), std::int64_t{0});
        throw EmptyRangeError(n, total);
    }
    return r;
}

std::int64_t FrameBegins::at(std::size_t row) {
    if (next_ > row + 1)
        throw std::logic_error("FrameBegins::at: rows must be asked in ascending order");
    while (next_ <= row) {
        last_ns_ = frame_begin_ns(frame_ns_, start_ns_, ends_, next_, last_ns_);
        ++next_;
    }
    return last_ns_;
}

bool may_hold_startup(const Capture& capture) {
    return capture.per_frame && !capture.attached_mid_run;
}

StartupSegment detect_startup(std::span<const std::int64_t> frame_ns) {
    if (frame_ns.size() < kStartupMinFrames)
        return {};
    std::vector<std::int64_t> values(frame_ns.begin(), frame_ns.end());
    return detect_startup(frame_ns, percentile_selected(values, 0.5));
}

StartupSegment detect_startup(std::span<const std::int64_t> frame_ns, double median_ns) {
    StartupSegment seg;
    const std::size_t n = frame_ns.size();
    if (n < kStartupMinFrames)
        return seg;
    seg.median_ms = ns_to_ms(median_ns);
    const auto far_off = [&](std::int64_t v) {
        const auto ft = static_cast<double>(v);
        return ft > 2.0 * median_ns || ft < 0.5 * median_ns;
    };
    // The segment ends after the last long gap of the first half (a loading screen: what came
    // before it is another scene), then runs on over far-off frames as long as they are at least
    // half of the frames since that gap: a sparse far-off frame does not drag the ordinary frames
    // before it into the segment, and no chain of them reaches across the capture.
    std::size_t end = 0;
    std::size_t after_gap = 0;  // first frame after the last long gap
    std::size_t far_since_gap = 0;
    bool long_gap = false;
    for (std::size_t i = 0; i < n / 2; ++i) {
        if (frame_ns[i] >= kLongGapNs) {
            end = i + 1;
            after_gap = i + 1;
            far_since_gap = 0;
            long_gap = true;
        } else if (far_off(frame_ns[i])) {
            ++far_since_gap;
            if (2 * far_since_gap >= i + 1 - after_gap)
                end = i + 1;
        }
    }
    if (end == 0)
        return seg;
    std::size_t far_after = 0;
    for (std::size_t i = end; i < n; ++i)
        far_after += far_off(frame_ns[i]) ? 1 : 0;
    if (static_cast<double>(far_after) > kStartupMaxFarOffAfter * static_cast<double>(n - end)) {
        return seg;
    }
    seg.long_gap = long_gap;
    seg.frames = end;
    for (std::size_t i = 0; i < end; ++i)
        seg.duration_ns += frame_ns[i];
    // The report names the capture frames beside this; the reason says what they were.
    const bool one = end == 1;
    seg.reason = fmt::format(
        "{}, {:.3f} s, {} the steady median of {:.3f} ms",
        one ? std::string("1 frame") : fmt::format("{} frames", end), ns_to_s(seg.duration_ns),
        seg.long_gap ? (one ? "a gap of 1 s or more, far off"
                            : "including a gap of 1 s or more and frames far off")
                     : "far off",
        seg.median_ms);
    return seg;
}

}  // namespace loopscope
