// The verdict a report opens with: the answer in a few lines, each with the evidence it rests
// on, computed once from a capture's analysis (CaptureReport) for every front end (terminal,
// Markdown, HTML, JSON). Smooth or not; the hitches with their lengths and causes; the average
// FPS and the 1 % low with whose rule; frame generation; the display's refresh; latency; the
// data's quality; for a loopscope trace, the loop's verdict. A line the capture cannot give says
// why instead, never a 0 that would read as measured. The rules are stated in docs/reports.md,
// "The verdict". Pure computation: no I/O.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

// The verdict of a comparison (B against A): what the comparison's figures say together, and the
// headline figures a reader looks at first. Counted over the compared figures with an interval
// (Comparison::figures; frames and duration, compared by value, are context, not counted).
enum class ComparisonOutcome { better, worse, mixed, no_significant_change };
// "better", "worse", "mixed", "no significant change".
const char* comparison_outcome_name(ComparisonOutcome outcome);
// The headline figures, in this order, those of them the comparison has: average FPS, the 1 %
// low, the 99th percentile frame time, the Unreal hitches and CapFrameX's stutter time share;
// for two sampled logs, which have none of those, the mean and 99th percentile of the samples.
inline constexpr std::array<std::string_view, 7> kComparisonHeadline = {
    "avg_fps",        "p1_low_fps",    "p99_ms", "hitch_count", "stutter_time_share",
    "mean_sample_ms", "sampled_p99_ms"};
struct ComparisonVerdict {
    // better: some figure better and none worse; worse: the reverse; mixed: both; else none.
    ComparisonOutcome outcome = ComparisonOutcome::no_significant_change;
    std::size_t better = 0, worse = 0, no_significant_change = 0, changed = 0;
    std::size_t compared = 0;                       // figures counted
    std::vector<const FigureDifference*> headline;  // into the Comparison it was made from
};
ComparisonVerdict comparison_verdict(const Comparison& comparison);

}  // namespace loopscope
