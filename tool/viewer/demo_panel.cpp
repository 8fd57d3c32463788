// The loops demo panel (see demo_panel.hpp).
#include "tool/viewer/demo_panel.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "tool/viewer/time_plot.hpp"

namespace loopscope {

namespace {

constexpr double kTrailSeconds = 3.0;
const ImU32 kWallColour = IM_COL32(255, 90, 90, 255);

}  // namespace

LoopsDemo::LoopsDemo() {
    reset();
}

void LoopsDemo::reset() {
    const auto dt_ns = static_cast<std::int64_t>(std::llround(1e9 / sim_hz_));
    const auto make = [&](const char* title, Policy policy, bool wall) {
        LoopConfig c;
        c.policy = policy;
        c.dt_ns = dt_ns;
        Lane lane{title, c, LoopEngine(c), {}, {}, 0.0};
        Ball ball;
        if (wall) {
            ball.x = 0.1;
            ball.y = 0.5;
            ball.vx = 2.2;
            ball.gravity = 0.0;
        } else {
            ball.x = 0.5;
            ball.y = 1.0;
        }
        lane.states = {ball, ball};
        return lane;
    };
    bounce_lanes_.clear();
    bounce_lanes_.push_back(make("variable: one step of the frame time", Policy::variable, false));
    bounce_lanes_.push_back(make("fixed, no interpolation: latest state", Policy::fixed, false));
    bounce_lanes_.push_back(
        make("fixed + interpolation: lerp(previous, current, alpha)", Policy::fixed_interp, false));
    wall_lanes_.clear();
    wall_lanes_.push_back(make("wall, interpolation", Policy::fixed_interp, true));
    wall_lanes_.push_back(
        make("wall, extrapolation: current + v * alpha * dt", Policy::fixed_extrap, true));
    demo_time_s_ = 0.0;
    pending_ns_ = 0;
}

void LoopsDemo::advance(std::int64_t raw_ns) {
    demo_time_s_ += static_cast<double>(raw_ns) / 1e9;
    for (auto* lanes : {&bounce_lanes_, &wall_lanes_}) {
        for (Lane& lane : *lanes) {
            const FrameRecord r = lane.engine.advance(raw_ns);
            simulate_frame(lane.config, r, lane.states);
            const Ball shown = rendered_ball(lane.config, r, lane.states);
            lane.trail.push_back({demo_time_s_, shown.x, shown.y});
            while (!lane.trail.empty() && lane.trail.front().t_s < demo_time_s_ - kTrailSeconds) {
                lane.trail.pop_front();
            }
            lane.max_overshoot = std::max({lane.max_overshoot, shown.x - 1.0, -shown.x});
        }
    }
}

void LoopsDemo::draw_lane(Lane& lane, bool wall_lane, float height) {
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::Dummy(ImVec2(width, height));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 colour = IM_COL32(90, 200, 255, 255);
    const float pad = 6.0f;
    // Scene: the ball where the renderer draws it now.
    const float scene = height - 2 * pad;
    const ImVec2 s0(pos.x + pad, pos.y + pad),
        s1(s0.x + (wall_lane ? scene * 2.5f : scene), s0.y + scene);
    draw->AddRectFilled(s0, s1, IM_COL32(22, 24, 28, 255));
    draw->AddRect(s0, s1, IM_COL32(255, 255, 255, 60));
    // The bounce scene shows the heights its plot shows (0 to 1.6): a variable step gains
    // height at each bounce, and a scene of 0 to 1 lost that ball above its top.
    const double lo = wall_lane ? -0.3 : 0.0, hi = wall_lane ? 1.3 : 1.6;
    const double scene_top = wall_lane ? 1.0 : hi;
    const auto to_scene = [&](double x, double y) {
        return ImVec2(s0.x + static_cast<float>(x) * (s1.x - s0.x),
                      s1.y - static_cast<float>(y / scene_top) * (s1.y - s0.y));
    };
    if (wall_lane) {
        draw->AddLine(ImVec2(s1.x, s0.y), ImVec2(s1.x, s1.y), kWallColour, 3.0f);
        draw->AddLine(ImVec2(s0.x, s0.y), ImVec2(s0.x, s1.y), kWallColour, 3.0f);
    }
    if (!lane.trail.empty()) {
        const auto& now = lane.trail.back();
        draw->PushClipRect(ImVec2(s0.x - 40, s0.y), ImVec2(s1.x + 40, s1.y), true);
        constexpr float kRadius = 7.0f;
        ImVec2 at = to_scene(now.x, wall_lane ? 0.5 : now.y);
        if (wall_lane) {
            draw->AddCircleFilled(at, kRadius, colour);
        } else {
            // The whole ball inside the scene: resting on its floor, or, higher than the scene
            // shows, a ring at its top.
            at.y = std::clamp(at.y, s0.y + kRadius, s1.y - kRadius);
            if (now.y > scene_top)
                draw->AddCircle(at, kRadius, colour, 0, 2.0f);
            else
                draw->AddCircleFilled(at, kRadius, colour);
        }
        draw->PopClipRect();
    }
    // Trail: rendered position over the last seconds, one dot per rendered frame.
    const ImVec2 p0(s1.x + 70.0f, pos.y + pad), p1(pos.x + width - pad, pos.y + height - pad);
    draw->AddRectFilled(p0, p1, IM_COL32(22, 24, 28, 255));
    const auto to_plot = [&](double t, double v) {
        const double u = (t - (demo_time_s_ - kTrailSeconds)) / kTrailSeconds;
        return ImVec2(p0.x + static_cast<float>(u) * (p1.x - p0.x),
                      p1.y - static_cast<float>((v - lo) / (hi - lo)) * (p1.y - p0.y));
    };
    if (wall_lane) {
        for (const double w : {0.0, 1.0}) {
            draw->AddLine(to_plot(demo_time_s_ - kTrailSeconds, w), to_plot(demo_time_s_, w),
                          kWallColour, 1.5f);
        }
    }
    std::vector<ImVec2> points;
    for (const auto& s : lane.trail) {
        points.push_back(to_plot(s.t_s, wall_lane ? s.x : s.y));
    }
    draw->PushClipRect(p0, p1, true);
    draw->AddPolyline(points.data(), static_cast<int>(points.size()),
                      (colour & 0x00FFFFFF) | 0x90000000, 0, 1.5f);
    for (const ImVec2& p : points) {
        draw->AddCircleFilled(p, 2.5f, colour);
    }
    draw->PopClipRect();
    std::string title = lane.title;
    if (wall_lane) {
        title +=
            fmt::format("   largest overshoot past a wall: {:.3f} box widths", lane.max_overshoot);
    }
    draw->AddText(ImVec2(p0.x + 6, p0.y + 2), IM_COL32(235, 235, 235, 255), title.c_str());
    draw->AddText(ImVec2(s1.x + 6, p0.y + 2), IM_COL32(160, 160, 160, 255),
                  wall_lane ? "x" : "height");
}

void LoopsDemo::update_and_draw() {
    const auto now = std::chrono::steady_clock::now();
    if (!started_) {
        last_ = now;
        started_ = true;
    }
    pending_ns_ += std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_).count();
    last_ = now;
    // The demo renders at its own rate inside the viewer's frames: a demo frame happens once a
    // render period of real time has passed, and its frame time is the real time since the last.
    const auto period_ns = static_cast<std::int64_t>(1e9 / render_hz_);
    if (pending_ns_ >= period_ns) {
        std::int64_t raw = pending_ns_;
        pending_ns_ = 0;
        if (spike_pending_) {
            raw += static_cast<std::int64_t>(spike_ms_ * 1e6);
            spike_pending_ = false;
        }
        advance(raw);
    }

    ImGui::PushItemWidth(220.0f);
    ImGui::SliderFloat("render rate (Hz)", &render_hz_, 5.0f, 240.0f, "%.0f");
    ImGui::SameLine();
    if (ImGui::SliderFloat("simulation rate (Hz)", &sim_hz_, 2.0f, 120.0f, "%.0f")) {
        reset();
    }
    ImGui::SameLine();
    ImGui::SliderFloat("spike (ms)", &spike_ms_, 20.0f, 1000.0f, "%.0f");
    ImGui::PopItemWidth();
    ImGui::SameLine();
    if (ImGui::Button("spike")) {
        spike_pending_ = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("restart")) {
        reset();
    }
    ImGui::TextDisabled(
        "Every lane gets the same frame times. Left: the ball as drawn now; right: the drawn "
        "position at every rendered frame over the last %.0f s.",
        kTrailSeconds);
    const float lane_h = std::max(90.0f, (ImGui::GetContentRegionAvail().y - 40.0f) / 5.0f);
    for (Lane& lane : bounce_lanes_) {
        draw_lane(lane, false, lane_h);
    }
    ImGui::Separator();
    for (Lane& lane : wall_lanes_) {
        draw_lane(lane, true, lane_h);
    }
}

}  // namespace loopscope
