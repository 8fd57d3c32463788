// Which frames a report looks at: the range the user picked (frame numbers or times), and the
// start-up or loading stretch at the beginning that distorts every figure. Pure functions over
// frame times; the report shows its figures both with and without that stretch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/errors.hpp"
#include "core/units.hpp"

namespace loopscope {

// One end of a range: a frame number (1200) or a time on the report's axis (since the time
// stamp of the stream's first row, t = 0).
struct RangeBound {
    enum class Kind { none, frame, time };
    Kind kind = Kind::none;
    std::int64_t value = 0;  // frame index, or ns
};

// select_range's error when the bounds select no frames: the capture's frames and their total
// time, for the caller to say in the words the user chose the range with.
class EmptyRangeError : public UsageError {
  public:
    EmptyRangeError(std::size_t frames, std::int64_t total_ns);
    std::size_t frames() const { return frames_; }
    std::int64_t total_ns() const { return total_ns_; }

  private:
    std::size_t frames_;
    std::int64_t total_ns_;
};

// Frames [begin, end) of a capture.
struct FrameRange {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::size_t size() const { return end - begin; }
};
// When capture row i's frame time began on the time axis. Where the time column ends the frame
// (a present's time, which ends the time since the previous present; a loopscope trace's frame
// start, which ends the frame before): that time less the frame time. Where it begins it (a
// CPU start, PresentMon 2.4+): the frames laid end to end from the first row's start, since a
// CPU start is the application's, not the previous present where the frame time begins.
// Without a time column: the running sum of the frame times. The hitch lists, CSV start_s, the
// HTML plot, the Chrome trace, the viewer and a range's bounds all place a frame here, so that a
// hitch's time selects it. `previous_begin_ns` is row i-1's (unused for i = 0).
inline std::int64_t frame_begin_ns(std::span<const std::int64_t> frame_ns,
                                   std::span<const std::int64_t> start_ns,
                                   bool start_ends_frame_time, std::size_t i,
                                   std::int64_t previous_begin_ns) {
    // Saturated at the int64 range: a damaged capture's time stamps can lie anywhere.
    if (start_ns.size() != frame_ns.size())
        return i == 0 ? 0
                      : saturating_add_ns(previous_begin_ns,
                                          std::max<std::int64_t>(frame_ns[i - 1], 0));
    if (start_ends_frame_time)
        return frame_ns[i] > 0 ? saturating_add_ns(start_ns[i], -frame_ns[i]) : start_ns[i];
    if (i == 0)
        return start_ns[0];
    return frame_ns[i - 1] > 0 ? saturating_add_ns(previous_begin_ns, frame_ns[i - 1])
                               : std::max(start_ns[i], previous_begin_ns);
}

// frame_begin_ns of rows asked in ascending order, each call walking on from the last: no
// array of every row's beginning is kept.
class FrameBegins {
  public:
    FrameBegins(std::span<const std::int64_t> frame_ns, std::span<const std::int64_t> start_ns,
                bool start_ends_frame_time)
        : frame_ns_(frame_ns), start_ns_(start_ns), ends_(start_ends_frame_time) {}
    // Throws std::logic_error for a row before the last one asked.
    std::int64_t at(std::size_t row);

  private:
    std::span<const std::int64_t> frame_ns_, start_ns_;
    bool ends_ = false;
    std::size_t next_ = 0;      // the next row to walk to
    std::int64_t last_ns_ = 0;  // row next_ - 1's beginning
};

// The half-open range [from, to): frames whose number is >= from and < to, or, for times, from
// the first frame that begins (frame_begin_ns) at or after `from` up to the first after it that
// begins at or after `to`. start_ns: each frame's start (empty: the sum of the frame times
// before it). Throws UsageError when the range holds no frame.
FrameRange select_range(std::span<const std::int64_t> frame_ns,
                        std::span<const std::int64_t> start_ns, RangeBound from, RangeBound to,
                        bool start_ends_frame_time = false);

// Start-up / loading detection. With m the median frame time of the series, a frame is far off
// when it is more than 2·m or less than m/2, and a long gap when it is >= 1 s. Scanning the
// first half of the series, the start-up segment grows to include each long gap (a loading
// screen: the frames before it are another scene), and after the last one, to each far-off
// frame i as long as far-off frames are at least half of the frames from that gap (or the
// start) to i. So the segment is a dense run of far-off frames: the ordinary frames it sets
// aside after the last gap are never more than its far-off ones, and a lone far-off frame later
// on is an ordinary hitch, not a reason to set aside everything before it (the earlier rule,
// "within 30 frames of the segment's end", chained sparse far-off frames across half a capture,
// and one more frame in the scanned half could double the segment). The segment is only set
// aside when the rest of the series is steady: at most 5 % of the frames after it are far off
// (otherwise far-off frames are this capture's normal cadence, e.g. alternating generated
// frames, and nothing is set aside). Series under 60 frames have none. For a loop whose verdict
// has an onset, the analysis passes the frames before the onset alone, so that the segment
// never swallows the trouble (core/analysis.cpp).
inline constexpr std::size_t kStartupMinFrames = 60;
inline constexpr std::int64_t kLongGapNs = 1'000'000'000;
inline constexpr double kStartupMaxFarOffAfter = 0.05;
struct StartupSegment {
    std::size_t frames = 0;  // the first `frames` frames of the series; 0 when none was found
    std::int64_t duration_ns = 0;
    double median_ms = 0;
    bool long_gap = false;  // a frame >= 1 s is among them
    std::string reason;     // one line for the report
};
StartupSegment detect_startup(std::span<const std::int64_t> frame_ns);
struct Capture;
// Whether a capture's first frames may be a start-up: not when it began while the program was
// already running (Capture::attached_mid_run), whose first frames are the game's ordinary ones.
bool may_hold_startup(const Capture& capture);
// The same given the frames' median (percentile_sorted(sorted, 0.5)), for a caller that has the
// frame times sorted already: no copy and no selection.
StartupSegment detect_startup(std::span<const std::int64_t> frame_ns, double median_ns);

}  // namespace loopscope
