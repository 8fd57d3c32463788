// Why a hitch took as long as it did: its interval on the present timeline cut into disjoint
// parts, each taken from a column of the capture (or derived from two), that add up to the
// interval; what no column explains is a part of its own, `unexplained`. Facts that bear on a
// part but do not split the interval (the GPU's busy and wait time, the time to the display, the
// sync interval, the loop's guards, the game's marks) are kept beside the parts as evidence.
//
// The split follows the capture's columns, whatever its format (docs/reports.md, "Why each
// hitch", lists the columns per format):
//  - a Present-call column (MsInPresentAPI, or CPUWait without it): the interval at frame i
//    begins when the previous frame's Present call begins, so it is that call (`present`,
//    attributed to the previous frame) plus the application's time from its return to frame i's
//    Present call (`cpu`): the CPU-busy column (MsCPUBusy) where there is one, else the
//    interval minus the previous Present call (derived). `shader_compile` (MsPsoCompileTime) and
//    the game's zones are cut out of the `cpu` part. With frame generation the CPU work that
//    ends at a generated frame's present is the next application frame's (which shares its CPU
//    start), and an application frame that follows its generated frame did its CPU work before
//    the interval.
//  - a loopscope trace's loop records: row k's frame time is frame k − 1's length, split into
//    that frame's `steps` (step_cost_ns), `render` (render_ns) and `wait` (wait_ns); where the
//    game never called end_render (render_ns 0) the time after the steps is one part,
//    `after_steps`. The game's zones are cut out of these parts.
//  - nothing else: one `unexplained` part.
// Pure computation: no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/capture.hpp"

namespace loopscope {

// Part kinds, as JSON writes them.
inline constexpr const char* kPartPresent = "present";
inline constexpr const char* kPartCpu = "cpu";
inline constexpr const char* kPartShaderCompile = "shader_compile";
inline constexpr const char* kPartZone = "zone";
inline constexpr const char* kPartSteps = "steps";
inline constexpr const char* kPartRender = "render";
inline constexpr const char* kPartWait = "wait";
inline constexpr const char* kPartAfterSteps = "after_steps";
inline constexpr const char* kPartUnexplained = "unexplained";
// Every part kind, in the order the figures and documentation give them.
inline constexpr const char* kPartKinds[] = {kPartPresent, kPartCpu,        kPartShaderCompile,
                                             kPartZone,    kPartSteps,      kPartRender,
                                             kPartWait,    kPartAfterSteps, kPartUnexplained};

struct CausePart {
    std::string kind;
    std::int64_t ns = 0;
    std::int64_t frame = -1;  // the capture frame (row of the stream) the time belongs to
    std::string source;       // the column it comes from, or "derived: ..." for a difference
    std::string label;        // a zone's label; "" otherwise
};

struct CauseEvidence {
    std::string kind;  // "gpu", "display", "sync", "guard", "mark", "telemetry", ...
    std::int64_t frame = -1;
    std::string text;  // the fact with its numbers
};

struct HitchCause {
    std::string kind;     // the largest part's kind ("unexplained" when that is the largest)
    std::string summary;  // one line: the parts, largest first, and the largest part's evidence
    std::vector<CausePart> parts;  // disjoint, in time order where known, adding up to the hitch
    std::vector<CauseEvidence> evidence;
    // Whether a column explains any of the interval (a part other than `unexplained`).
    bool explained() const;
    std::int64_t total_ns() const;
};

// Which split the capture's columns allow.
enum class CauseRule { none, present_call, loop_phases };
CauseRule cause_rule(const Capture& capture);

// The cause of the interval of interval_ns that ends at capture frame `frame`'s present (the
// frame's time on the present timeline). on_present_timeline false (a hitch between display
// changes): the present-timeline columns do not split it, and the whole is `unexplained`.
HitchCause hitch_cause(const Capture& capture, std::size_t frame, std::int64_t interval_ns,
                       bool on_present_timeline = true);

}  // namespace loopscope
