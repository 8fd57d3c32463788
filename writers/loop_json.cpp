// The loop verdict and figures as JSON: see loop_json.hpp.
#include "writers/loop_json.hpp"

#include "core/units.hpp"

namespace loopscope {

using Json = nlohmann::ordered_json;

Json loop_verdict_json(const LoopFigures& f) {
    return Json{{"state", std::string(loop_state_name(f.state))},
                {"onset_frame", f.onset_frame ? Json(*f.onset_frame) : Json()},
                {"onset_time_s", f.onset_ns ? Json(ns_to_s(*f.onset_ns)) : Json()},
                {"slow_motion", f.slow_motion_factor ? Json(*f.slow_motion_factor) : Json()},
                {"cause", f.cause},
                {"findings", f.findings}};
}

Json loop_headroom_json(const LoopFigures& f) {
    if (!f.headroom_ns || !f.worst_window_step_cost_ns)
        return Json();
    return Json{{"ms", *f.headroom_ns / 1e6},
                {"formula", f.headroom_formula},
                {"step_cost_limit_ms", f.step_cost_limit_ns / 1e6},
                {"step_cost_ms", *f.worst_window_step_cost_ns / 1e6},
                {"other_ms", f.other_ns / 1e6}};
}

std::string loop_run_json(const LoopRunSource& source, const LoopConfig& config,
                          const LoopFigures& f) {
    Json src = Json::object();
    src["command"] = source.command;
    for (const auto& [key, value] : source.details)
        src[key] = value;
    src["froze"] = source.froze;
    Json hist = Json::object();
    for (const auto& [steps, frames] : f.steps_histogram)
        hist[std::to_string(steps)] = frames;
    Json j{{"schema", kLoopJsonSchema},
           {"source", std::move(src)},
           {"config", Json{{"policy", std::string(policy_name(config.policy))},
                           {"dt_ns", config.dt_ns},
                           {"clamp_ns", config.clamp_ns},
                           {"max_steps", config.max_steps},
                           {"timescale", config.timescale}}},
           {"frames", f.frames},
           {"real_s", ns_to_s(f.real_ns)},
           {"sim_s", ns_to_s(f.sim_ns)},
           {"steps", f.steps},
           {"max_steps_per_frame", f.max_steps_per_frame},
           {"steps_histogram", std::move(hist)},
           {"guards", Json{{"clamp_lost_ms", ns_to_ms(f.clamp_lost_ns)},
                           {"cap_dropped_ms", ns_to_ms(f.cap_dropped_ns)},
                           {"clamp_frames", f.clamp_frames},
                           {"cap_frames", f.cap_frames}}},
           {"window", f.window},
           {"threshold_ms", f.spiral_threshold_ns / 1e6},
           {"mean_step_cost_ms", f.has_step_costs ? Json(f.mean_step_cost_ns / 1e6) : Json()},
           {"step_aliasing", Json{{"share", f.step_aliasing_share},
                                  {"frames", f.step_aliasing_frames},
                                  {"step_flip_frames", f.step_flip_frames}}},
           {"animation_error", f.animation_error_frames > 0
                                   ? Json{{"mean_ms", f.animation_error_mean_ns / 1e6},
                                          {"p99_ms", f.animation_error_p99_ns / 1e6},
                                          {"max_ms", ns_to_ms(f.animation_error_max_ns)},
                                          {"expected", f.animation_error_expected}}
                                   : Json()},
           {"verdict", loop_verdict_json(f)},
           {"headroom", loop_headroom_json(f)}};
    return j.dump(2) + "\n";
}

}  // namespace loopscope
