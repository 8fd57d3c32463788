// Shared time axis, mouse handling and series drawing for the viewer's graphs (see time_plot.hpp).
#include "tool/viewer/time_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "tool/viewer/document.hpp"

namespace loopscope {

namespace {

constexpr float kYLabelWidth = 64.0f;
constexpr float kXLabelHeight = 16.0f;
constexpr double kMinVisibleNs = 2'000.0;  // zooming stops at 2 µs across the plot
const ImU32 kGridColour = IM_COL32(255, 255, 255, 28);
const ImU32 kLabelColour = IM_COL32(200, 200, 200, 255);

// The smallest of 1, 2, 5 × 10^k that is at least `raw`.
double nice_step(double raw) {
    if (!(raw > 0) || !std::isfinite(raw)) {
        return 1.0;
    }
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * decade >= raw) {
            return m * decade;
        }
    }
    return 10.0 * decade;
}

double mouse_x_ns(const PlotArea& area, const TimeView& view, float mouse_x) {
    const double t = (mouse_x - area.min.x) / std::max(1.0f, area.width());
    return view.t0_ns + t * (view.t1_ns - view.t0_ns);
}

}  // namespace

void TimeView::fit(double begin_ns, double end_ns) {
    if (!(end_ns > begin_ns)) {
        end_ns = begin_ns + 1e9;
    }
    const double margin = (end_ns - begin_ns) * 0.01;
    t0_ns = begin_ns - margin;
    t1_ns = end_ns + margin;
    fitted = true;
}

void TimeView::select(double a_ns, double b_ns) {
    selection_begin_ns = std::min(a_ns, b_ns);
    selection_end_ns = std::max(a_ns, b_ns);
}

float YAxis::to_px(double v) const {
    double t = 0.0;
    if (log) {
        const double a = std::log(std::max(lo, 1e-12));
        const double b = std::log(std::max(hi, 1e-12));
        t = (std::log(std::max(v, 1e-12)) - a) / (b - a);
    } else {
        t = (v - lo) / (hi - lo);
    }
    // Far off-axis values are pinned just beyond the edges so lines still point the right way.
    t = std::clamp(t, -0.05, 1.05);
    return bottom - static_cast<float>(t) * (bottom - top);
}

PlotArea begin_time_plot(const char* id, TimeView& view, float height, double data_end_ns,
                         bool time_labels) {
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const float width = std::max(100.0f, ImGui::GetContentRegionAvail().x);
    ImGui::InvisibleButton(id, ImVec2(width, height),
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    PlotArea area;
    area.min = ImVec2(pos.x + kYLabelWidth, pos.y + 2.0f);
    area.max = ImVec2(pos.x + width - 4.0f, pos.y + height - (time_labels ? kXLabelHeight : 2.0f));
    const ImGuiIO& io = ImGui::GetIO();
    area.hovered = ImGui::IsItemHovered() && io.MousePos.x >= area.min.x;
    area.hover_x_ns = mouse_x_ns(area, view, io.MousePos.x);
    const double ns_per_px = (view.t1_ns - view.t0_ns) / std::max(1.0f, area.width());

    if (ImGui::IsItemHovered() && io.MouseWheel != 0.0f) {
        // Zoom around the cursor (around the right edge while following a live run).
        const double factor = std::pow(0.8, static_cast<double>(io.MouseWheel));
        const double pivot = view.follow ? view.t1_ns : area.hover_x_ns;
        const double span = std::max(kMinVisibleNs, (view.t1_ns - view.t0_ns) * factor);
        const double left_share = (pivot - view.t0_ns) / (view.t1_ns - view.t0_ns);
        view.t0_ns = pivot - span * left_share;
        view.t1_ns = view.t0_ns + span;
    }
    const bool selecting_button = ImGui::IsMouseDown(ImGuiMouseButton_Right) || io.KeyShift;
    if (ImGui::IsItemActivated()) {
        view.drag_anchor_ns = area.hover_x_ns;
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
            view.fit(0.0, data_end_ns);
            view.selection_begin_ns.reset();
            view.selection_end_ns.reset();
        }
    }
    if (ImGui::IsItemActive()) {
        if (selecting_button) {
            view.select(view.drag_anchor_ns, area.hover_x_ns);
        } else if (io.MouseDelta.x != 0.0f) {
            const double shift = -static_cast<double>(io.MouseDelta.x) * ns_per_px;
            view.t0_ns += shift;
            view.t1_ns += shift;
            view.follow = false;
        }
    }
    // Keep some data in view whatever the panning did.
    const double span = view.t1_ns - view.t0_ns;
    if (view.t1_ns < span * 0.1) {
        view.t0_ns = -span * 0.9;
        view.t1_ns = span * 0.1;
    }
    if (data_end_ns > 0 && view.t0_ns > data_end_ns - span * 0.1) {
        view.t0_ns = data_end_ns - span * 0.1;
        view.t1_ns = view.t0_ns + span;
    }

    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(area.min, area.max, IM_COL32(22, 24, 28, 255));
    draw->AddRect(area.min, area.max, IM_COL32(255, 255, 255, 50));
    // Time grid at readable steps, about one line per 110 px.
    const double step = nice_step((view.t1_ns - view.t0_ns) / (area.width() / 110.0));
    draw->PushClipRect(ImVec2(area.min.x, area.min.y),
                       ImVec2(area.max.x, area.max.y + kXLabelHeight), true);
    for (double t = std::ceil(view.t0_ns / step) * step; t <= view.t1_ns; t += step) {
        const float x = area.x_px(view, t);
        draw->AddLine(ImVec2(x, area.min.y), ImVec2(x, area.max.y), kGridColour);
        if (time_labels) {
            // A label that would run past the plot's right edge ends at it instead.
            const std::string label = format_time_label(t, step);
            const float width = ImGui::CalcTextSize(label.c_str()).x;
            draw->AddText(ImVec2(std::min(x + 3.0f, area.max.x - width - 1.0f), area.max.y + 1.0f),
                          kLabelColour, label.c_str());
        }
    }
    draw->PopClipRect();
    return area;
}

void draw_y_grid(const PlotArea& area, const YAxis& axis, const char* unit) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    std::vector<double> ticks;
    if (axis.log) {
        const int d0 = static_cast<int>(std::floor(std::log10(std::max(axis.lo, 1e-12))));
        const int d1 = static_cast<int>(std::ceil(std::log10(std::max(axis.hi, 1e-12))));
        const bool dense = d1 - d0 <= 2;
        for (int d = d0; d <= d1; ++d) {
            for (const double m : {1.0, 2.0, 5.0}) {
                const double v = m * std::pow(10.0, d);
                if ((m == 1.0 || dense) && v >= axis.lo && v <= axis.hi) {
                    ticks.push_back(v);
                }
            }
        }
    } else {
        const double step =
            nice_step((axis.hi - axis.lo) / std::max(1.0f, (area.max.y - area.min.y) / 32.0f));
        for (double v = std::ceil(axis.lo / step) * step; v <= axis.hi + step * 1e-9; v += step) {
            ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
        }
    }
    for (const double v : ticks) {
        const float y = axis.to_px(v);
        draw->AddLine(ImVec2(area.min.x, y), ImVec2(area.max.x, y), kGridColour);
        const std::string label = fmt::format("{:.4g} {}", v, unit);
        const ImVec2 size = ImGui::CalcTextSize(label.c_str());
        draw->AddText(ImVec2(area.min.x - size.x - 4.0f, y - size.y * 0.5f), kLabelColour,
                      label.c_str());
    }
}

void draw_selection(const PlotArea& area, const TimeView& view) {
    if (!view.has_selection()) {
        return;
    }
    const float a = std::max(area.min.x, area.x_px(view, *view.selection_begin_ns));
    const float b = std::min(area.max.x, area.x_px(view, *view.selection_end_ns));
    if (b > a) {
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(a, area.min.y), ImVec2(b, area.max.y),
                                                  IM_COL32(90, 160, 255, 40));
    }
}

void decimate_visible(const PlotArea& area, const TimeView& view,
                      std::span<const std::int64_t> x_ns, const PlotSeries& series,
                      std::vector<PlotColumn>& columns) {
    const auto n = static_cast<std::size_t>(std::max(1.0f, area.width()));
    decimate_columns(x_ns, series.values, series.pyramid, view.t0_ns, view.t1_ns, n, columns);
}

void display_range(std::span<const PlotColumn> columns, DisplayFn display, double& lo, double& hi) {
    for (const PlotColumn& c : columns) {
        if (c.empty()) {
            continue;
        }
        for (const double v : {display(c.min), display(c.max)}) {
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
    }
}

void draw_columns(const PlotArea& area, const YAxis& axis, std::span<const PlotColumn> columns,
                  DisplayFn display, ImU32 colour, double data_end_ns, const TimeView* view) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(area.min, area.max, true);
    std::size_t filled = 0;
    for (const PlotColumn& c : columns) {
        filled += c.empty() ? 0 : 1;
    }
    const bool sparse = filled * 4 < columns.size();  // zoomed in: mark each frame
    // Steps: a frame's value holds from where it began to where the next one begins (its end),
    // so a long frame is a plateau of its length, not a ramp from the frame before.
    bool have_previous = false;
    ImVec2 previous;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const PlotColumn& c = columns[i];
        if (c.empty()) {
            continue;
        }
        const float x = area.min.x + static_cast<float>(i) + 0.5f;
        const float y_a = axis.to_px(display(c.min));
        const float y_b = axis.to_px(display(c.max));
        const float y_first = axis.to_px(display(c.first_value));
        if (have_previous) {
            draw->AddLine(previous, ImVec2(x, previous.y), colour, sparse ? 2.0f : 1.0f);
            draw->AddLine(ImVec2(x, previous.y), ImVec2(x, y_first), colour);
        }
        draw->AddRectFilled(ImVec2(x - 0.5f, std::min(y_a, y_b) - 0.5f),
                            ImVec2(x + 0.5f, std::max(y_a, y_b) + 0.5f), colour);
        previous = ImVec2(x, axis.to_px(display(c.last_value)));
        have_previous = true;
    }
    // The last drawn frame holds to the end of the data (or off the right edge).
    if (have_previous && view) {
        const float end = std::min(area.max.x, area.x_px(*view, data_end_ns));
        if (end > previous.x)
            draw->AddLine(previous, ImVec2(end, previous.y), colour, sparse ? 2.0f : 1.0f);
    }
    draw->PopClipRect();
}

std::string format_time_label(double ns, double step_ns) {
    const double step_s = step_ns / 1e9;
    const int decimals = std::clamp(static_cast<int>(-std::floor(std::log10(step_s) + 1e-9)), 0, 9);
    const double s = std::abs(ns) < step_ns * 1e-6 ? 0.0 : ns / 1e9;  // no "-0 s"
    return fmt::format("{:.{}f} s", s, decimals);
}

std::string format_ms(std::int64_t ns) {
    if (std::llabs(ns) < 1'000'000) {
        return fmt::format("{:.3f} us", static_cast<double>(ns) / 1e3);
    }
    return fmt::format("{:.3f} ms", static_cast<double>(ns) / 1e6);
}

namespace {

std::vector<CutLabel>& cut_label_list() {
    static std::vector<CutLabel> labels;
    return labels;
}

// The first text that fits, or the last one, and whether it fits.
std::pair<std::string_view, bool> choose_fitting(float room_px,
                                                 std::initializer_list<std::string_view> texts) {
    std::string_view chosen;
    for (const std::string_view text : texts) {
        chosen = text;
        if (ImGui::CalcTextSize(text.data(), text.data() + text.size()).x <= room_px)
            return {text, true};
    }
    return {chosen, false};
}

void note_cut(std::string_view text, float room_px) {
    cut_label_list().push_back({std::string(text),
                                ImGui::CalcTextSize(text.data(), text.data() + text.size()).x,
                                room_px});
}

}  // namespace

const std::vector<CutLabel>& cut_labels() {
    return cut_label_list();
}

void clear_cut_labels() {
    cut_label_list().clear();
}

void draw_fitted_text(ImDrawList* draw, ImVec2 pos, ImU32 colour, float room_px,
                      std::initializer_list<std::string_view> texts) {
    const auto [text, fits] = choose_fitting(room_px, texts);
    if (!fits)
        note_cut(text, room_px);
    draw->AddText(pos, colour, text.data(), text.data() + text.size());
}

void fitted_text(std::initializer_list<std::string_view> texts) {
    const float room_px = ImGui::GetContentRegionAvail().x;
    const auto [text, fits] = choose_fitting(room_px, texts);
    if (!fits)
        note_cut(text, room_px);
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
}

ImU32 document_colour(int index) {
    static constexpr std::array<ImU32, 6> palette = {
        IM_COL32(90, 200, 255, 255),  IM_COL32(255, 170, 60, 255), IM_COL32(140, 230, 120, 255),
        IM_COL32(230, 120, 230, 255), IM_COL32(255, 230, 90, 255), IM_COL32(160, 160, 255, 255)};
    return palette[static_cast<std::size_t>(index) % palette.size()];
}

}  // namespace loopscope
