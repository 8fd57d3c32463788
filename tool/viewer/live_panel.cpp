// The live harness panel (see live_panel.hpp).
#include "tool/viewer/live_panel.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>

#include "common/output_file.hpp"
#include "core/units.hpp"
#include "probes/frame_limiter.hpp"
#include "readers/readers.hpp"
#include "writers/trace_writer.hpp"

namespace loopscope {

namespace {

// A spiral with no guards makes every frame longer than the last; past this much busy work in one
// frame the harness stops spending (and counts the frame) so the window stays usable.
constexpr std::int64_t kMaxWorkPerFrameNs = 1'000'000'000;
constexpr double kStatsEveryS = 0.25;

std::int64_t ms_to_whole_ns(float ms) {
    return std::llround(static_cast<double>(ms) * 1e6);
}

}  // namespace

LiveRun::LiveRun(const LoopConfig& config, std::string trace_path)
    : config_(config), engine_(config), trace_path_(std::move(trace_path)) {
    doc_.name = "live run";
    describe_as(doc_.capture, "loopscope-trace");
    set_loop_metadata(doc_.capture, config_);
    doc_.colour_index = 0;
    dt_ms_ = static_cast<float>(config.dt_ns / 1e6);
    clamp_on_ = config.clamp_ns > 0;
    if (clamp_on_) {
        clamp_ms_ = static_cast<float>(config.clamp_ns / 1e6);
    }
    cap_on_ = config.max_steps > 0;
    if (cap_on_) {
        max_steps_ = static_cast<int>(config.max_steps);
    }
    timescale_ = static_cast<float>(config.timescale);
    view_.follow = true;
    view_.t0_ns = -10e9;
    view_.t1_ns = 0.0;
    ball_.current.x = 0.2;
    ball_.current.vx = 0.6;
    ball_.previous = ball_.current;
    if (trace_path_.empty()) {
        trace_path_ = "live.trace.csv";
    }
}

void LiveRun::restart_engine() {
    // The engine's knobs are fixed for its life: a change starts a new one, and the run goes on
    // from the time and frame the old one reached (its accumulator starts again from 0).
    LoopConfig next = config_;
    next.dt_ns = std::max<std::int64_t>(1, ms_to_whole_ns(dt_ms_));
    next.clamp_ns = clamp_on_ ? std::max<std::int64_t>(1, ms_to_whole_ns(clamp_ms_)) : 0;
    next.max_steps = cap_on_ ? std::max(1, max_steps_) : 0;
    next.timescale = std::max(0.0, static_cast<double>(timescale_));
    engine_offset_ns_ += engine_.totals().real_ns;
    engine_offset_frames_ += engine_.totals().frames;
    config_ = next;
    engine_ = LoopEngine(config_);
    set_loop_metadata(doc_.capture, config_);
}

void LiveRun::spin_for(std::int64_t ns) {
    // Busy work stands in for simulation and rendering: sleeping would hand the CPU back and
    // measure the scheduler instead.
    const auto end = Clock::now() + std::chrono::nanoseconds(ns);
    while (Clock::now() < end) {
    }
}

void LiveRun::tick() {
    const auto start = Clock::now();
    if (!running_ || !have_last_) {
        last_frame_start_ = start;
        have_last_ = true;
        return;
    }
    const std::int64_t raw_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(start - last_frame_start_).count();
    last_frame_start_ = start;
    FrameRecord r = engine_.advance(raw_ns);
    r.frame += engine_offset_frames_;
    r.start_ns += engine_offset_ns_;

    // Steps: each one costs real time; the ball moves as the policy dictates.
    const auto steps_start = Clock::now();
    const std::int64_t step_cost_ns = ms_to_whole_ns(step_cost_ms_);
    // The steps' cost is spun in one go: a spin per step would read the clock once a step, and
    // a tiny dt asks for millions of steps a frame. At most kMaxWorkPerFrameNs a frame.
    std::int64_t spun_steps = r.steps;
    bool capped = false;
    if (step_cost_ns > 0 && r.steps > kMaxWorkPerFrameNs / step_cost_ns) {
        spun_steps = kMaxWorkPerFrameNs / step_cost_ns;
        capped = true;
    }
    if (step_cost_ns > 0)
        spin_for(spun_steps * step_cost_ns);
    simulate_frame(config_, r, ball_);
    const auto render_start = Clock::now();
    r.step_cost_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(render_start - steps_start).count();
    shown_ball_ = rendered_ball(config_, r, ball_);
    spin_for(ms_to_whole_ns(render_cost_ms_));
    if (spike_pending_) {
        spin_for(ms_to_whole_ns(spike_ms_));
        spike_pending_ = false;
    }
    const auto wait_start = Clock::now();
    r.render_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(wait_start - render_start).count();
    // Render-rate cap: the probes' frame limiter, sleeping to 1 ms before the deadline and
    // spinning the rest (sleep alone overshoots), on the steady_clock the frame started on.
    if (render_cap_hz_ > 0.0f) {
        static ReadLimiterClock steady;  // nullptr read: steady_clock
        const std::int64_t deadline_ns =
            std::chrono::duration_cast<std::chrono::nanoseconds>(start.time_since_epoch()).count() +
            std::llround(1e9 / static_cast<double>(render_cap_hz_));
        wait_until_deadline({LimiterKind::sleep_spin, kNsPerMs}, steady, deadline_ns);
    }
    r.wait_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - wait_start).count();
    work_capped_frames_ += capped ? 1 : 0;

    append_record(doc_, r);
    doc_.sync_series();
    const double since_stats = std::chrono::duration<double>(start - last_stats_).count();
    if (since_stats >= kStatsEveryS) {
        doc_.analyse();
        last_stats_ = start;
    }
}

bool LiveRun::save_trace_as(const std::string& path) {
    trace_path_ = path;
    std::snprintf(path_input_.data(), path_input_.size(), "%s", trace_path_.c_str());
    return save_trace();
}

bool LiveRun::save_trace() {
    try {
        OutputFile out(trace_path_);
        TraceInfo info;
        info.clock = "steady_clock";
        info.config = config_;
        info.metadata.emplace_back("source", "loopscope view, live run");
        {
            TraceWriter writer(out, info);
            for (const FrameRecord& r : doc_.capture.loop) {
                writer.write(r);
            }
            writer.finish();
        }
        out.commit();
        save_message_ = fmt::format("saved {} frames to {}", doc_.frames(), trace_path_);
        return true;
    } catch (const std::exception& e) {
        save_message_ = e.what();
        return false;
    }
}

void LiveRun::draw() {
    const float controls_w = 330.0f;
    ImGui::BeginChild("##live_controls", ImVec2(controls_w, 0), true);
    ImGui::Checkbox("running", &running_);
    ImGui::SameLine();
    if (ImGui::Button("spike")) {
        spike_pending_ = true;
    }
    ImGui::SameLine();
    ImGui::PushItemWidth(120.0f);
    ImGui::SliderFloat("##spike", &spike_ms_, 10.0f, 1000.0f, "%.0f ms spike");
    ImGui::PopItemWidth();

    bool changed = false;
    ImGui::PushItemWidth(170.0f);
    if (ImGui::BeginCombo("policy", std::string(policy_name(config_.policy)).c_str())) {
        for (const Policy p : kAllPolicies) {
            if (ImGui::Selectable(std::string(policy_name(p)).c_str(), p == config_.policy)) {
                config_.policy = p;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    int render_mode = config_.policy == Policy::fixed_interp   ? 0
                      : config_.policy == Policy::fixed_extrap ? 1
                      : config_.policy == Policy::fixed        ? 2
                                                               : -1;
    if (render_mode >= 0) {
        ImGui::Text("render");
        ImGui::SameLine();
        bool mode_changed = ImGui::RadioButton("interpolate", &render_mode, 0);
        ImGui::SameLine();
        mode_changed |= ImGui::RadioButton("extrapolate", &render_mode, 1);
        ImGui::SameLine();
        mode_changed |= ImGui::RadioButton("off", &render_mode, 2);
        if (mode_changed) {
            config_.policy = render_mode == 0   ? Policy::fixed_interp
                             : render_mode == 1 ? Policy::fixed_extrap
                                                : Policy::fixed;
            changed = true;
        }
    } else {
        ImGui::TextDisabled("render mode: only the fixed policies render between steps");
    }
    changed |= ImGui::SliderFloat("dt", &dt_ms_, 1.0f, 100.0f, "%.3f ms");
    changed |= ImGui::Checkbox("clamp", &clamp_on_);
    ImGui::SameLine();
    changed |= ImGui::SliderFloat("##clamp", &clamp_ms_, 10.0f, 1000.0f, "%.0f ms");
    changed |= ImGui::Checkbox("step cap", &cap_on_);
    ImGui::SameLine();
    changed |= ImGui::SliderInt("##cap", &max_steps_, 1, 30, "%d steps");
    changed |= ImGui::SliderFloat("timescale", &timescale_, 0.0f, 4.0f, "%.2f");
    ImGui::Separator();
    ImGui::SliderFloat("render cap", &render_cap_hz_, 0.0f, 240.0f,
                       render_cap_hz_ > 0 ? "%.0f Hz" : "off");
    ImGui::SliderFloat("step cost", &step_cost_ms_, 0.0f, 40.0f, "%.2f ms");
    ImGui::SliderFloat("render cost", &render_cost_ms_, 0.0f, 50.0f, "%.2f ms");
    ImGui::PopItemWidth();
    if (changed) {
        restart_engine();
    }

    ImGui::Separator();
    ImGui::Text("frames %zu   time %.1f s", doc_.frames(), doc_.end_ns() / 1e9);
    draw_loop_verdict(doc_);
    if (work_capped_frames_ > 0) {
        ImGui::TextWrapped("%lld frames hit the harness's 1 s limit of busy work per frame",
                           static_cast<long long>(work_capped_frames_));
    }
    ImGui::Separator();
    if (path_input_[0] == '\0') {
        std::snprintf(path_input_.data(), path_input_.size(), "%s", trace_path_.c_str());
    }
    ImGui::PushItemWidth(200.0f);
    if (ImGui::InputText("##path", path_input_.data(), path_input_.size())) {
        trace_path_ = path_input_.data();
    }
    ImGui::PopItemWidth();
    ImGui::SameLine();
    if (ImGui::Button("save trace")) {
        save_trace();
    }
    if (!save_message_.empty()) {
        ImGui::TextWrapped("%s", save_message_.c_str());
    }

    // The ball as this policy and render mode draw it.
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const float box_w = controls_w - 30.0f, box_h = 60.0f;
    ImGui::Dummy(ImVec2(box_w, box_h));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(pos, ImVec2(pos.x + box_w, pos.y + box_h), IM_COL32(22, 24, 28, 255));
    draw->AddLine(pos, ImVec2(pos.x, pos.y + box_h), IM_COL32(255, 90, 90, 255), 2.0f);
    draw->AddLine(ImVec2(pos.x + box_w, pos.y), ImVec2(pos.x + box_w, pos.y + box_h),
                  IM_COL32(255, 90, 90, 255), 2.0f);
    draw->AddCircleFilled(
        ImVec2(pos.x + static_cast<float>(shown_ball_.x) * box_w, pos.y + box_h * 0.5f), 8.0f,
        document_colour(0));
    ImGui::EndChild();

    ImGui::SameLine();
    ImGui::BeginChild("##live_graphs", ImVec2(0, 0), false);
    draw_growing_document_graphs(doc_, view_, settings_, 0.4f, 0.17f);
    ImGui::EndChild();
}

}  // namespace loopscope
