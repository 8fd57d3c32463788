// The catalogue's loop figures (core/loop_figures.hpp) of a loopscope trace.
#include "core/figure_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "common/errors.hpp"
#include "core/bottleneck.hpp"
#include "core/figure_parts.hpp"
#include "core/hitch_cause.hpp"
#include "core/latency.hpp"
#include "core/percentile.hpp"
#include "core/tool_figures.hpp"
#include "core/units.hpp"

namespace loopscope::figure_parts {

namespace {

constexpr std::array kLoopFigures = {
    // Loop
    Figure{.section = "Loop",
           .label = "policy",
           .definition = "from the trace's metadata",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{}, dt {:.3f} ms", policy_name(r.loop_config->policy),
                                      ns_to_ms(r.loop_config->dt_ns));
               }},
    Figure{.section = "Loop",
           .label = "steps per frame",
           .definition = "frames by simulation steps run (steps column)",
           .needs = kNeedsLoopRecords,
           .text =
               [](const CaptureReport& r) {
                   std::string hist;
                   for (const auto& [steps, frames] : loop(r).steps_histogram)
                       hist += fmt::format("{}{}: {}", hist.empty() ? "" : ", ", steps, frames);
                   return hist;
               }},
    Figure{.key = "max_steps_per_frame",
           .better = Better::lower,
           .section = "Loop",
           .unit = "steps",
           .definition = "most simulation steps run in one frame (steps column)",
           .needs = kNeedsLoopRecords,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return static_cast<double>(loop(r).max_steps_per_frame);
           }},
    Figure{.section = "Loop",
           .label = "accumulator",
           .unit = "ms",
           .definition = "range of acc_after_ns",
           .needs = kNeedsLoopRecords | kNeedsAccumulator,
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{:.3f} - {:.3f} ms", ns_to_ms(loop(r).acc_min_ns),
                                      ns_to_ms(loop(r).acc_max_ns));
               }},
    Figure{
        .key = "alpha_mean",
        .section = "Loop",
        .label = "alpha",
        .definition = "acc_after / dt",
        .needs = kNeedsLoopRecords | kNeedsAccumulator,
        .value = [](const CaptureReport& r) -> std::optional<double> { return loop(r).alpha_mean; },
        .text =
            [](const CaptureReport& r) {
                const LoopFigures& f = loop(r);
                return fmt::format("mean {:.3f}, {:.3f} - {:.3f}", f.alpha_mean, f.alpha_min,
                                   f.alpha_max);
            }},
    Figure{.section = "Loop",
           .label = "time lost to guards",
           .definition = "clamp_lost_ns (real time) and cap_dropped_ns (simulation time)",
           .needs = kNeedsLoopRecords,
           .text =
               [](const CaptureReport& r) {
                   const LoopFigures& f = loop(r);
                   return fmt::format(
                       "clamp {:.3f} ms in {} frames, step cap {:.3f} ms in {} frames",
                       ns_to_ms(f.clamp_lost_ns), f.clamp_frames, ns_to_ms(f.cap_dropped_ns),
                       f.cap_frames);
               }},
    Figure{.key = "clamp_lost_ms",
           .better = Better::lower,
           .section = "Loop",
           .unit = "ms",
           .definition = "real time the frame-time clamp threw away (clamp_lost_ns)",
           .needs = kNeedsLoopRecords,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return ns_to_ms(loop(r).clamp_lost_ns);
           }},
    Figure{.key = "cap_dropped_ms",
           .better = Better::lower,
           .section = "Loop",
           .unit = "ms",
           .definition = "simulation time the step cap threw away (cap_dropped_ns)",
           .needs = kNeedsLoopRecords,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return ns_to_ms(loop(r).cap_dropped_ns);
           }},
    Figure{.section = "Loop",
           .label = "verdict",
           .definition = "ok (the backlog stays bounded), saturated (the guards engage "
                         "persistently and the game runs in slow motion although a step costs "
                         "less than dt / timescale) or spiral (a step costs at least dt / "
                         "timescale), with the onset: the first frame of the trouble",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .text = [](const CaptureReport& r) { return verdict_brief(loop(r)); },
           .describe =
               [](const CaptureReport& r) {
                   return fmt::format(
                       "trouble: the first {}-frame window over which the backlog grows and the "
                       "guards engage on half of its frames or the mean step cost reaches dt / "
                       "timescale; onset: its first frame from which the backlog stays above "
                       "every earlier one",
                       loop(r).window);
               }},
    Figure{.section = "Loop",
           .label = "cause",
           .definition = "the bottleneck, with its measured numbers",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .text = [](const CaptureReport& r) { return loop(r).cause; }},
    Figure{.key = "slow_motion_factor",
           .better = Better::higher,
           .section = "Loop",
           .label = "slow-motion factor",
           .definition = "simulation time / real time from the onset on",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) { return loop(r).slow_motion_factor; },
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{:.3f}", *loop(r).slow_motion_factor);
               },
           .absent = "the loop kept up (verdict ok: no onset)"},
    Figure{.key = "headroom_ms",
           .better = Better::higher,
           .section = "Loop",
           .label = "headroom",
           .unit = "ms",
           .definition = "how much the step cost may grow before the loop leaves ok: dt / "
                         "timescale - r / cap (dt / timescale without a cap) minus the highest "
                         "window-mean step cost, r the mean other time a frame; negative when over",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               const auto& h = loop(r).headroom_ns;
               return h ? std::optional(*h / 1e6) : std::nullopt;
           },
           .text =
               [](const CaptureReport& r) {
                   return fmt::format("{:.3f} ms", *loop(r).headroom_ns / 1e6);
               },
           .describe = [](const CaptureReport& r) { return loop(r).headroom_formula; },
           .absent = "the trace has no step costs or fewer frames than one spiral window"},
    Figure{.key = "step_aliasing_share",
           .better = Better::lower,
           .section = "Loop",
           .label = "step aliasing",
           .definition = "share of the frames that ran 0 steps beside a frame that ran 2 or more, "
                         "or 2 or more beside 0, both between half and twice dt (a visible "
                         "stutter), counted in the windows of 30 frames where at least a quarter "
                         "of the frames do (steps and raw_ns columns)",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               return loop(r).step_aliasing_share;
           },
           .text =
               [](const CaptureReport& r) {
                   const LoopFigures& f = loop(r);
                   return fmt::format("{:.1f} % ({} frames; {} frames flip steps in all)",
                                      100.0 * f.step_aliasing_share, f.step_aliasing_frames,
                                      f.step_flip_frames);
               }},
    Figure{.key = "loop_animation_error_mean_ms",
           .better = Better::lower,
           .section = "Loop",
           .label = "animation error (loop)",
           .unit = "ms",
           .definition = "frame to frame, the simulation time a frame shows (t + alpha dt with "
                         "interpolation or extrapolation, t without) moved minus the real time at "
                         "which it rendered (start_ns + step_cost_ns) moved x timescale: mean of "
                         "the absolute values over frames 1..",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               if (loop(r).animation_error_frames == 0)
                   return std::nullopt;
               return loop(r).animation_error_mean_ns / 1e6;
           },
           .text =
               [](const CaptureReport& r) {
                   const LoopFigures& f = loop(r);
                   return fmt::format("mean {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms",
                                      f.animation_error_mean_ns / 1e6,
                                      f.animation_error_p99_ns / 1e6,
                                      ns_to_ms(f.animation_error_max_ns));
               },
           .describe =
               [](const CaptureReport& r) {
                   return fmt::format(
                       "|change of the shown simulation time - change of the render instant x "
                       "timescale| frame to frame; {}",
                       loop(r).animation_error_expected);
               },
           .absent = "fewer than two frames"},
    Figure{.key = "loop_animation_error_p99_ms",
           .better = Better::lower,
           .section = "Loop",
           .unit = "ms",
           .definition = "99th percentile (nearest rank, to the microsecond) of the loop's "
                         "absolute animation error",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               if (loop(r).animation_error_frames == 0)
                   return std::nullopt;
               return loop(r).animation_error_p99_ns / 1e6;
           },
           .absent = "fewer than two frames"},
    Figure{.key = "loop_animation_error_max_ms",
           .better = Better::lower,
           .section = "Loop",
           .unit = "ms",
           .definition = "largest absolute animation error of the loop",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .value = [](const CaptureReport& r) -> std::optional<double> {
               if (loop(r).animation_error_frames == 0)
                   return std::nullopt;
               return ns_to_ms(loop(r).animation_error_max_ns);
           },
           .absent = "fewer than two frames"},
    Figure{.section = "Loop",
           .label = "findings",
           .definition = "step aliasing (on 5 % of the frames or more) and a first frame that "
                         "holds the game's initialisation, each with its cause and fix",
           .needs = kNeedsLoopRecords | kNeedsLoopConfiguration,
           .text =
               [](const CaptureReport& r) {
                   const LoopFigures& f = loop(r);
                   std::string out;
                   for (const std::string& line : f.findings)
                       out += (out.empty() ? "" : "; ") + line;
                   return out.empty() ? std::string("none") : out;
               }},
};

}  // namespace

std::span<const Figure> loop_family() {
    return kLoopFigures;
}

}  // namespace loopscope::figure_parts
