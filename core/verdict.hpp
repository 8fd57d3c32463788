// The verdict a report opens with: the answer in a few lines, each with the evidence it rests
// on, computed once from a capture's analysis (CaptureReport) for every front end (terminal,
// Markdown, HTML, JSON). Smooth or not; the hitches with their lengths and causes; the average
// FPS and the 1 % low with whose rule; frame generation; the display's refresh; latency; the
// data's quality; for a loopscope trace, the loop's verdict. A line the capture cannot give says
// why instead, never a 0 that would read as measured. The rules are stated in docs/reports.md,
// "The verdict". Pure computation: no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis.hpp"

namespace loopscope {

// The longest hitches the verdict names, longest first (the hitch table lists them all).
inline constexpr std::size_t kVerdictHitches = 3;
// Smooth: no Unreal hitch and less than this share of the time in frames CapFrameX's stutter
// rule flags (on the cadence the player sees: the displayed frames where generated frames are
// mixed in). On the hitch-free shared captures the share is at most 0.28 % (displayed cadence of
// a FrameView log with frame generation); every shared capture at or above 1 % has hitches too.
inline constexpr double kSmoothMaxStutterShare = 0.01;

enum class Smoothness { smooth, not_smooth, unknown };
// "smooth", "not smooth", "unknown".
const char* smoothness_name(Smoothness smoothness);

// One line of the verdict.
struct VerdictLine {
    std::string key;       // stable name (JSON): smoothness, hitches, fps, frame_generation, ...
    std::string label;     // as the text reports head it: "smooth?", "hitches", "FPS", ...
    std::string text;      // the answer, or why the capture cannot give it (available false)
    std::string evidence;  // the rule and the figures it rests on
    bool available = true;
};

// One of the longest hitches: which, how long, and why (core/hitch_cause.hpp). The writers place
// it on the time axis and name its frame as the hitch table does.
struct VerdictHitch {
    std::size_t hitch = 0;  // index into CaptureReport::stats.hitches.hitches
    std::size_t index = 0;  // index into the series
    std::int64_t length_ns = 0;
    std::string cause_kind;  // the largest part's kind
    std::string cause;       // the cause's one-line summary
};

struct CaptureVerdict {
    Smoothness smoothness = Smoothness::unknown;
    // Unreal hitches on the report's timeline; nullopt for a sampled log (rows are not frames).
    std::optional<std::size_t> hitch_count;
    // CapFrameX's stutter time share on `stutter_cadence` (nullopt: no cadence to judge).
    std::optional<double> stutter_time_share;
    std::string stutter_cadence;  // "the present timeline", "the displayed frames", ...
    std::vector<VerdictHitch> longest_hitches;
    // Average FPS and 1 % low (1000 / p99 frame time, PresentMon's rule) on the report's
    // timeline; nullopt where the capture cannot have them (then the fps line says why).
    std::optional<double> average_fps, low1_fps;
    std::vector<VerdictLine> lines;  // in the order every report prints them
    const VerdictLine* line(std::string_view key) const;
};

CaptureVerdict capture_verdict(const CaptureReport& report);

}  // namespace loopscope
