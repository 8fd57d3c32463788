// The frame-time graph panel (see panels.hpp): min/max per pixel column, so its cost follows the
// width of the screen, not the length of the capture.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/units.hpp"
#include "tool/viewer/panels.hpp"

namespace loopscope {

double frame_ns_to_ms(std::int64_t ns) {
    return static_cast<double>(ns) / 1e6;
}
double frame_ns_to_fps(std::int64_t ns) {
    return ns > 0 ? 1e9 / static_cast<double>(ns) : std::numeric_limits<double>::quiet_NaN();
}

namespace {

const ImU32 kBudgetColour = IM_COL32(255, 220, 80, 150);
const ImU32 kRefreshColour = IM_COL32(120, 255, 200, 150);
const ImU32 kHitchColour = IM_COL32(255, 60, 60, 255);
const ImU32 kStutterColour = IM_COL32(255, 150, 40, 220);
const ImU32 kSpiralColour = IM_COL32(255, 80, 255, 255);
const ImU32 kZoneColour = IM_COL32(90, 170, 255, 110);
const ImU32 kZoneEdgeColour = IM_COL32(90, 170, 255, 220);
const ImU32 kMarkColour = IM_COL32(200, 255, 120, 230);

// The game's own zones (a band a nesting level, from the plot's foot up, with the label where
// it fits) and marks (a line over the plot with the label at its top), on the frames' time axis.
// Returns the zone or mark under the cursor for the tooltip.
std::string draw_zones_and_marks(const PlotArea& area, const TimeView& view, const Capture& c) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    std::string hovered;
    constexpr float kBand = 12.0f;
    // Both lists are sorted (by begin, by time): the walk ends past the view.
    for (const Zone& z : c.zones) {
        if (static_cast<double>(z.begin_ns) > view.t1_ns)
            break;
        if (static_cast<double>(z.end_ns) < view.t0_ns)
            continue;
        const float x0 = std::max(area.min.x, area.x_px(view, static_cast<double>(z.begin_ns)));
        const float x1 = std::min(
            area.max.x, std::max(x0 + 1.0f, area.x_px(view, static_cast<double>(z.end_ns))));
        const float y1 = area.max.y - 8.0f - kBand * static_cast<float>(std::min(z.depth, 6u));
        const float y0 = y1 - kBand + 1.0f;
        draw->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), kZoneColour);
        draw->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), kZoneEdgeColour);
        // Inside the band where it fits, else above it (an outermost zone's only, so that nested
        // labels do not pile up).
        const ImVec2 text = ImGui::CalcTextSize(z.label.c_str());
        if (text.x + 4.0f < x1 - x0)
            draw->AddText(ImVec2(x0 + 2.0f, y0 - 1.0f), IM_COL32(255, 255, 255, 230),
                          z.label.c_str());
        else if (z.depth == 0)
            draw->AddText(ImVec2(x0, y0 - text.y - 1.0f), kZoneEdgeColour, z.label.c_str());
        if (area.hovered && ImGui::GetIO().MousePos.x >= x0 && ImGui::GetIO().MousePos.x <= x1 &&
            ImGui::GetIO().MousePos.y >= y0 && ImGui::GetIO().MousePos.y <= y1) {
            hovered = fmt::format("zone \"{}\": {:.3f} ms, from frame {}", z.label,
                                  (z.end_ns - z.begin_ns) / 1e6, z.frame);
        }
    }
    for (const Mark& m : c.marks) {
        if (static_cast<double>(m.t_ns) > view.t1_ns)
            break;
        if (static_cast<double>(m.t_ns) < view.t0_ns)
            continue;
        const float x = area.x_px(view, static_cast<double>(m.t_ns));
        draw->AddLine(ImVec2(x, area.min.y), ImVec2(x, area.max.y), kMarkColour, 1.0f);
        draw->AddTriangleFilled(ImVec2(x - 4.0f, area.min.y), ImVec2(x + 4.0f, area.min.y),
                                ImVec2(x, area.min.y + 6.0f), kMarkColour);
        draw->AddText(ImVec2(x + 3.0f, area.min.y + 2.0f), kMarkColour, m.label.c_str());
        if (area.hovered && std::abs(ImGui::GetIO().MousePos.x - x) <= 3.0f)
            hovered = fmt::format("mark \"{}\" in frame {}", m.label, m.frame);
    }
    return hovered;
}

// A labelled horizontal line. `right_label_y` is where the last label on the right stood: a
// label that would overlap it is left out (the line stays), so two close lines never write
// over each other's labels.
void horizontal_line(const PlotArea& area, const YAxis& axis, double v, ImU32 colour,
                     const std::string& label, bool label_left, float& right_label_y) {
    const float y = axis.to_px(v);
    if (y < area.min.y || y > area.max.y) {
        return;
    }
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddLine(ImVec2(area.min.x, y), ImVec2(area.max.x, y), colour, 1.0f);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    if (!label_left && std::abs(y - right_label_y) < size.y)
        return;
    const float x = label_left ? area.min.x + 6.0f : area.max.x - size.x - 4.0f;
    draw_fitted_text(draw, ImVec2(x, y - size.y - 1.0f), colour, area.width() - 10.0f, {label});
    if (!label_left)
        right_label_y = y;
}

// Indices (sorted) whose x lies in the visible range.
template <typename Index>
std::pair<std::size_t, std::size_t> visible_indices(const std::vector<Index>& sorted_indices,
                                                    const Document& doc, const TimeView& view) {
    auto x_of = [&](std::size_t k) { return static_cast<double>(doc.began_ns[sorted_indices[k]]); };
    std::size_t a = 0, b = sorted_indices.size();
    // Binary searches by position through the (ascending) frame index.
    std::size_t lo = 0, hi = b;
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        (x_of(mid) < view.t0_ns ? lo = mid + 1 : hi = mid);
    }
    a = lo;
    hi = b;
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        (x_of(mid) <= view.t1_ns ? lo = mid + 1 : hi = mid);
    }
    b = lo;
    return {a, b};
}

void marker(const PlotArea& area, float x, ImU32 colour, bool full_height) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (full_height) {
        draw->AddLine(ImVec2(x, area.min.y), ImVec2(x, area.max.y),
                      (colour & 0x00FFFFFF) | 0x60000000);
    }
    draw->AddTriangleFilled(ImVec2(x - 4.0f, area.min.y), ImVec2(x + 4.0f, area.min.y),
                            ImVec2(x, area.min.y + 7.0f), colour);
}

void frame_tooltip(const Document& doc, std::size_t i) {
    ImGui::BeginTooltip();
    ImGui::Text("%s, frame %zu", doc.name.c_str(), i);
    const std::int64_t ft = doc.frame_ns.values[i];
    ImGui::Text("began      %.6f s", static_cast<double>(doc.began_ns[i]) / 1e9);
    ImGui::Text("frame time %s  (%.1f fps)", format_ms(ft).c_str(), frame_ns_to_fps(ft));
    const Capture& c = doc.capture;
    if (i < c.display_ns.size()) {
        if (c.display_ns[i] >= 0) {
            ImGui::Text("display    %s", format_ms(c.display_ns[i]).c_str());
        } else {
            ImGui::Text("display    not displayed");
        }
    }
    if (i < c.dropped.size() && c.dropped[i]) {
        ImGui::Text("dropped");
    }
    if (i < c.generated.size() && c.generated[i]) {
        ImGui::Text("generated frame");
    }
    if (i < c.loop.size()) {
        const FrameRecord& r = c.loop[i];
        ImGui::Separator();
        ImGui::Text("raw        %s", format_ms(r.raw_ns).c_str());
        ImGui::Text("clamped    %s  (lost %s)", format_ms(r.clamped_ns).c_str(),
                    format_ms(r.clamp_lost_ns).c_str());
        ImGui::Text("consumed   %s", format_ms(r.consumed_ns).c_str());
        ImGui::Text("acc        %s -> %s", format_ms(r.acc_before_ns).c_str(),
                    format_ms(r.acc_after_ns).c_str());
        ImGui::Text("steps      %lld  (cap dropped %s)", static_cast<long long>(r.steps),
                    format_ms(r.cap_dropped_ns).c_str());
        ImGui::Text("alpha      %.6f", r.alpha);
        ImGui::Text("step cost  %s   render %s   wait %s", format_ms(r.step_cost_ns).c_str(),
                    format_ms(r.render_ns).c_str(), format_ms(r.wait_ns).c_str());
    }
    ImGui::EndTooltip();
}

}  // namespace

void draw_frame_time_graph(std::span<Document* const> docs, const Document* primary, TimeView& view,
                           GraphSettings& settings, float height) {
    ImGui::Checkbox("log axis", &settings.log_axis);
    ImGui::SameLine();
    ImGui::Checkbox("FPS", &settings.fps);
    ImGui::SameLine();
    ImGui::TextDisabled(
        "drag: pan   wheel: zoom   shift+drag or right-drag: select range   double-click: fit");

    double data_end_ns = 0.0;
    for (const Document* d : docs) {
        data_end_ns = std::max(data_end_ns, static_cast<double>(d->end_ns()));
    }
    const PlotArea area = begin_time_plot("##frame_time", view, height, data_end_ns, true);
    const DisplayFn display = settings.fps ? frame_ns_to_fps : frame_ns_to_ms;

    static std::vector<std::vector<PlotColumn>> columns;
    columns.resize(docs.size());
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (std::size_t k = 0; k < docs.size(); ++k) {
        columns[k].clear();
        if (docs[k]->shown && docs[k]->frames() > 0) {
            decimate_visible(area, view, docs[k]->began_ns, docs[k]->frame_ns, columns[k]);
            display_range(columns[k], display, lo, hi);
        }
    }
    YAxis axis;
    axis.log = settings.log_axis;
    axis.top = area.min.y + 8.0f;
    axis.bottom = area.max.y;
    if (!(lo <= hi)) {
        lo = settings.fps ? 30.0 : 10.0;
        hi = settings.fps ? 144.0 : 40.0;
    }
    if (axis.log) {
        axis.lo = std::max(lo, 1e-4) / 1.25;
        axis.hi = std::max(hi, axis.lo * 10.0) * 1.25;
    } else {
        axis.lo = 0.0;
        axis.hi = std::max(hi * 1.08, 1e-3);
    }
    const char* unit = settings.fps ? "fps" : "ms";
    draw_y_grid(area, axis, unit);

    ImGui::GetWindowDrawList()->PushClipRect(area.min, area.max, true);
    // Budget lines: 60 and 30 fps, and the refresh the primary document's frames sit on.
    float right_label_y = -1e9f;
    const auto budget = [&](double ms, const std::string& label, ImU32 colour, bool left) {
        const double v = settings.fps ? 1000.0 / ms : ms;
        horizontal_line(area, axis, v, colour, label, left, right_label_y);
    };
    budget(1000.0 / 60.0, "16.7 ms (60 fps)", kBudgetColour, false);
    budget(1000.0 / 30.0, "33.3 ms (30 fps)", kBudgetColour, false);
    // A sampled log (MangoHud, Afterburner) holds a frame every 100 ms or an interval's rate, so
    // a refresh grid found in it would mean nothing.
    if (primary && primary->capture.per_frame && primary->report &&
        primary->report->stats.refresh.rate_hz > 0) {
        const int hz = primary->report->stats.refresh.rate_hz;
        budget(1000.0 / hz,
               fmt::format("detected refresh {} Hz ({:.0f}% of {} on grid)", hz,
                           100.0 * primary->report->stats.refresh.on_grid_share, primary->name),
               kRefreshColour, true);
    }
    ImGui::GetWindowDrawList()->PopClipRect();

    for (std::size_t k = 0; k < docs.size(); ++k) {
        if (!columns[k].empty()) {
            draw_columns(area, axis, columns[k], display, document_colour(docs[k]->colour_index),
                         static_cast<double>(docs[k]->end_ns()), &view);
        }
    }

    // Markers: CapFrameX stutters (time rule), Unreal hitches, the loop verdict's onset.
    ImGui::GetWindowDrawList()->PushClipRect(area.min, area.max, true);
    for (const Document* d : docs) {
        if (!d->shown || !d->report) {
            continue;
        }
        // The report's indices are of its series; the document's arrays are the capture's rows.
        const auto& rows = d->report->series.frame_number;
        std::vector<std::size_t> stutters;
        stutters.reserve(d->report->stats.stutter.frames.size());
        for (const std::size_t i : d->report->stats.stutter.frames)
            stutters.push_back(static_cast<std::size_t>(rows[i]));
        const auto [s0, s1] = visible_indices(stutters, *d, view);
        float last_x = -1e9f;
        for (std::size_t k = s0; k < s1; ++k) {
            const float x = area.x_px(view, static_cast<double>(d->began_ns[stutters[k]]));
            if (x - last_x >= 2.0f) {  // one tick per couple of pixels is enough
                ImGui::GetWindowDrawList()->AddLine(ImVec2(x, area.max.y - 6.0f),
                                                    ImVec2(x, area.max.y), kStutterColour, 2.0f);
                last_x = x;
            }
        }
        std::vector<std::size_t> hitch_frames;
        for (const Hitch& h : d->report->stats.hitches.hitches) {
            hitch_frames.push_back(static_cast<std::size_t>(rows[h.index]));
        }
        std::sort(hitch_frames.begin(), hitch_frames.end());
        const auto [h0, h1] = visible_indices(hitch_frames, *d, view);
        for (std::size_t k = h0; k < h1; ++k) {
            marker(area, area.x_px(view, static_cast<double>(d->began_ns[hitch_frames[k]])),
                   kHitchColour, true);
        }
        if (const auto onset = d->spiral_onset_frame(); onset && *onset < d->frames()) {
            const float x = area.x_px(view, static_cast<double>(d->x_ns[*onset]));
            ImGui::GetWindowDrawList()->AddLine(ImVec2(x, area.min.y), ImVec2(x, area.max.y),
                                                kSpiralColour, 2.0f);
            ImGui::GetWindowDrawList()->AddText(ImVec2(x + 4.0f, area.min.y + 10.0f), kSpiralColour,
                                                d->onset_label().c_str());
        }
    }
    std::string zone_tip;
    for (const Document* d : docs) {
        if (d->shown) {
            std::string tip = draw_zones_and_marks(area, view, d->capture);
            if (!tip.empty())
                zone_tip = std::move(tip);
        }
    }
    ImGui::GetWindowDrawList()->PopClipRect();
    draw_selection(area, view);
    if (!zone_tip.empty()) {
        ImGui::SetTooltip("%s", zone_tip.c_str());
        return;
    }

    // The hovered frame: the slowest frame under the cursor's pixel column, so a spike is what
    // one points at even when thousands of frames share the column.
    if (area.hovered && primary && primary->frames() > 0) {
        const double ns_per_px = (view.t1_ns - view.t0_ns) / std::max(1.0f, area.width());
        const std::span<const std::int64_t> x(primary->began_ns);
        std::size_t a = first_sample_at_or_after(x, area.hover_x_ns - ns_per_px * 0.5);
        const std::size_t b = first_sample_at_or_after(x, area.hover_x_ns + ns_per_px * 0.5);
        // Between two beginnings the cursor is on the frame that began last (a step).
        std::size_t i = first_sample_at_or_after(x, area.hover_x_ns);
        i = i > 0 ? i - 1 : 0;
        if (a < b) {
            i = a;
            for (; a < b; ++a) {
                if (primary->frame_ns.values[a] > primary->frame_ns.values[i]) {
                    i = a;
                }
            }
        }
        const float px = area.x_px(view, static_cast<double>(primary->began_ns[i]));
        const float py = axis.to_px(display(primary->frame_ns.values[i]));
        ImDrawList* draw = ImGui::GetWindowDrawList();
        draw->AddLine(ImVec2(px, area.min.y), ImVec2(px, area.max.y), IM_COL32(255, 255, 255, 70));
        draw->AddCircle(ImVec2(px, py), 5.0f, IM_COL32(255, 255, 255, 255), 12, 1.5f);
        frame_tooltip(*primary, i);
    }
}

}  // namespace loopscope
