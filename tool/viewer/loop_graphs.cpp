// Accumulator, steps per frame and alpha on the frame-time graph's time axis (see panels.hpp):
// what a fixed-step loop did frame by frame, so a hitch above lines up with the catch-up below.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/units.hpp"
#include "tool/viewer/panels.hpp"
#include "tool/viewer/time_plot.hpp"

namespace loopscope {

namespace {

double ns_to_ms_display(std::int64_t v) {
    return static_cast<double>(v) / 1e6;
}
double as_is(std::int64_t v) {
    return static_cast<double>(v);
}
double ppm_to_unit(std::int64_t v) {
    return static_cast<double>(v) / 1e6;
}

struct LoopPlot {
    const char* id;
    const char* title;
    const char* unit;
    const PlotSeries* series;
    DisplayFn display;
    double fixed_hi;  // > 0: the axis top (alpha's 1.0); otherwise fitted to the visible data
};

// The stretches of step aliasing (0 steps beside 2 or more, where it persists), shaded behind
// the steps graph so a stutter in the frame times above lines up with its cause.
void draw_aliasing(const Document& doc, const TimeView& view, const PlotArea& area) {
    if (!doc.report || !doc.report->loop_figures)
        return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 fill = IM_COL32(255, 150, 40, 60);
    const ImU32 edge = IM_COL32(255, 150, 40, 220);
    bool labelled = false;
    for (const FrameStretch& s : doc.report->loop_figures->aliasing_stretches) {
        if (s.first_frame < 0 || static_cast<std::size_t>(s.last_frame) >= doc.frames())
            continue;
        const auto first = static_cast<std::size_t>(s.first_frame);
        const auto last = static_cast<std::size_t>(s.last_frame);
        const float from = area.x_px(view, static_cast<double>(doc.x_ns[first]));
        const float to =
            std::max(from + 2.0f, area.x_px(view, static_cast<double>(doc.x_ns[last])));
        if (to < area.min.x || from > area.max.x)
            continue;
        const float x0 = std::max(area.min.x, from);
        const float x1 = std::min(area.max.x, to);
        draw->AddRectFilled(ImVec2(x0, area.min.y), ImVec2(x1, area.max.y), fill);
        draw->AddLine(ImVec2(x0, area.max.y - 2.0f), ImVec2(x1, area.max.y - 2.0f), edge, 3.0f);
        if (!labelled) {
            draw->AddText(ImVec2(x0 + 4.0f, area.max.y - 18.0f), edge, "steps 0/2");
            labelled = true;
        }
    }
}

void draw_one(const Document& doc, TimeView& view, float height, const LoopPlot& plot,
              bool time_labels, double reference, const char* reference_label,
              bool mark_aliasing = false) {
    const PlotArea area =
        begin_time_plot(plot.id, view, height, static_cast<double>(doc.end_ns()), time_labels);
    static std::vector<PlotColumn> columns;
    decimate_visible(area, view, doc.x_ns, *plot.series, columns);
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    display_range(columns, plot.display, lo, hi);
    YAxis axis;
    axis.top = area.min.y + 14.0f;
    axis.bottom = area.max.y - 1.0f;
    axis.lo = 0.0;
    axis.hi = plot.fixed_hi > 0 ? plot.fixed_hi : std::max({hi * 1.1, reference * 1.1, 1.0});
    draw_y_grid(area, axis, plot.unit);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (reference > 0) {
        const float y = axis.to_px(reference);
        draw->AddLine(ImVec2(area.min.x, y), ImVec2(area.max.x, y), IM_COL32(255, 220, 80, 150));
        draw->AddText(ImVec2(area.max.x - 90.0f, y - 14.0f), IM_COL32(255, 220, 80, 200),
                      reference_label);
    }
    if (mark_aliasing)
        draw_aliasing(doc, view, area);
    draw_columns(area, axis, columns, plot.display, document_colour(doc.colour_index));
    // The loop verdict's onset, as on the frame-time graph, so the catch-up lines up with it.
    if (const auto onset = doc.spiral_onset_frame(); onset && *onset < doc.frames()) {
        const float x = area.x_px(view, static_cast<double>(doc.x_ns[*onset]));
        if (x >= area.min.x && x <= area.max.x) {
            const ImU32 colour = IM_COL32(255, 80, 255, 255);
            draw->AddLine(ImVec2(x, area.min.y), ImVec2(x, area.max.y), colour, 2.0f);
            draw->AddText(ImVec2(x + 4.0f, area.min.y + 16.0f), colour, doc.onset_label().c_str());
        }
    }
    draw_selection(area, view);
    draw->AddText(ImVec2(area.min.x + 6.0f, area.min.y + 2.0f), IM_COL32(230, 230, 230, 255),
                  plot.title);
}

}  // namespace

void draw_loop_graphs(const Document& doc, TimeView& view, float height_each) {
    if (!doc.has_loop()) {
        ImGui::TextDisabled(
            "%s has no loop columns (accumulator, steps, alpha): only loopscope "
            "traces and the live run do.",
            doc.name.c_str());
        return;
    }
    // dt from the report's loop configuration when the metadata states one, to draw the
    // accumulator's ceiling.
    double dt_ms = 0.0;
    if (doc.report && doc.report->loop_config)
        dt_ms = static_cast<double>(doc.report->loop_config->dt_ns) / 1e6;
    const LoopPlot acc{
        "##acc", "accumulator after stepping", "ms", &doc.acc_after_ns, ns_to_ms_display, 0.0};
    const LoopPlot steps{"##steps", "steps per frame", "", &doc.steps, as_is, 0.0};
    const LoopPlot alpha{"##alpha", "alpha", "", &doc.alpha_ppm, ppm_to_unit, 1.0};
    draw_one(doc, view, height_each, acc, false, dt_ms, "dt");
    draw_one(doc, view, height_each, steps, false, 0.0, "", true);
    draw_one(doc, view, height_each, alpha, true, 0.0, "");
}

void draw_loop_verdict(const Document& doc) {
    if (const LoopFigures* f =
            doc.report && doc.report->loop_figures ? &*doc.report->loop_figures : nullptr) {
        const auto steps = static_cast<long long>(f->max_steps_per_frame);
        const auto clamp = static_cast<long long>(f->clamp_frames);
        const auto cap = static_cast<long long>(f->cap_frames);
        fitted_text(
            {fmt::format("steps/frame max {}   guards: clamp {}, cap {} frames", steps, clamp, cap),
             fmt::format("steps max {}, clamp {}, cap {}", steps, clamp, cap),
             fmt::format("max {} {}/{}", steps, clamp, cap)});
        if (f->onset_frame) {
            ImGui::TextColored(ImVec4(1.0f, 0.35f, 1.0f, 1.0f), "%s from frame %lld",
                               std::string(loop_state_name(f->state)).c_str(),
                               static_cast<long long>(*f->onset_frame));
            if (f->slow_motion_factor) {
                ImGui::Text("slow motion: %.3f x real time", *f->slow_motion_factor);
            }
        } else {
            ImGui::Text("verdict: %s", std::string(loop_state_name(f->state)).c_str());
        }
        ImGui::TextWrapped("cause: %s", f->cause.c_str());
        ImGui::Text("step aliasing: %.1f %% of frames", 100.0 * f->step_aliasing_share);
        for (const std::string& finding : f->findings) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.6f, 0.16f, 1.0f));
            ImGui::TextWrapped("finding: %s", finding.c_str());
            ImGui::PopStyleColor();
        }
        if (f->headroom_ns) {
            ImGui::TextWrapped("headroom: %s per step (%s)",
                               format_ms(std::llround(*f->headroom_ns)).c_str(),
                               f->headroom_formula.c_str());
        }
    }
}

void draw_growing_document_graphs(Document& doc, TimeView& view, GraphSettings& settings,
                                  float frame_time_share, float loop_share_each) {
    if (view.follow) {
        const double span = view.t1_ns - view.t0_ns;
        view.t1_ns = static_cast<double>(doc.end_ns()) + span * 0.02;
        view.t0_ns = view.t1_ns - span;
    }
    ImGui::Checkbox("follow", &view.follow);
    ImGui::SameLine();
    Document* docs[] = {&doc};
    const float h = ImGui::GetContentRegionAvail().y;
    draw_frame_time_graph(docs, &doc, view, settings, h * frame_time_share);
    draw_loop_graphs(doc, view, h * loop_share_each);
}

}  // namespace loopscope
