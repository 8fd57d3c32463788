// What every graph on the shared time axis has in common: the visible time range (one TimeView
// shared by the frame-time graph and the loop graphs below it, so they pan and zoom together),
// the mouse handling (drag pans, wheel zooms, shift+drag or right-drag selects a range,
// double-click fits), axes with readable ticks, and drawing a decimated series.
#pragma once

#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/plot_decimation.hpp"

namespace loopscope {

struct PlotSeries;

struct TimeView {
    double t0_ns = 0.0;  // visible x range, ns since the first frame's time stamp (t = 0)
    double t1_ns = 1e9;
    bool follow = false;  // keep the newest frame at the right edge (live run)
    bool fitted = false;  // set once the view was fitted to data
    // Selected range, ns; empty when none.
    std::optional<double> selection_begin_ns, selection_end_ns;
    double drag_anchor_ns = 0.0;

    void fit(double begin_ns, double end_ns);
    // Selects the range between two times, in either order (the mouse drags either way).
    void select(double a_ns, double b_ns);
    bool has_selection() const {
        return selection_begin_ns && selection_end_ns && *selection_end_ns > *selection_begin_ns;
    }
};

// A vertical axis mapping display values (ms, FPS, steps …) to pixels, linear or logarithmic.
struct YAxis {
    double lo = 0.0;
    double hi = 1.0;
    bool log = false;
    float top = 0.0f;
    float bottom = 1.0f;
    float to_px(double v) const;
};

struct PlotArea {
    ImVec2 min;
    ImVec2 max;
    bool hovered = false;
    double hover_x_ns = 0.0;
    float width() const { return max.x - min.x; }
    float x_px(const TimeView& view, double x_ns) const {
        return min.x +
               static_cast<float>((x_ns - view.t0_ns) / (view.t1_ns - view.t0_ns)) * width();
    }
};

// Reserves a plot of the given height across the window, handles the mouse for the shared view
// and draws the background, the time grid and (with time_labels) its labels. data_end_ns bounds
// panning and is what double-click fits to.
PlotArea begin_time_plot(const char* id, TimeView& view, float height, double data_end_ns,
                         bool time_labels);

// Horizontal grid lines and labels at readable values of the axis; `unit` follows each label.
void draw_y_grid(const PlotArea& area, const YAxis& axis, const char* unit);

// The selected range as a shaded band.
void draw_selection(const PlotArea& area, const TimeView& view);

// Converts a stored value (ns, steps, millionths) into the value the axis shows.
using DisplayFn = double (*)(std::int64_t);

// Min/max per pixel column of a series over the visible range; scratch is reused between calls.
// Returns the display range of the drawn values (lo > hi when nothing was visible).
void decimate_visible(const PlotArea& area, const TimeView& view,
                      std::span<const std::int64_t> x_ns, const PlotSeries& series,
                      std::vector<PlotColumn>& columns);
void display_range(std::span<const PlotColumn> columns, DisplayFn display, double& lo, double& hi);
// Draws the columns as steps: each frame's value holds until the next frame begins, and, given
// the view, the last one until data_end_ns.
void draw_columns(const PlotArea& area, const YAxis& axis, std::span<const PlotColumn> columns,
                  DisplayFn display, ImU32 colour, double data_end_ns = 0.0,
                  const TimeView* view = nullptr);

// A label for a time in ns at the precision the step between ticks needs ("12.5 s", "250 ms").
std::string format_time_label(double ns, double step_ns);
// "16.667 ms", "412.0 µs": milliseconds with microsecond resolution.
std::string format_ms(std::int64_t ns);

// A label that did not fit the room it was drawn in (and was drawn cut short by its panel).
struct CutLabel {
    std::string text;
    float width_px = 0;  // what the text needs (ImGui::CalcTextSize)
    float room_px = 0;   // what the panel had
};
// The labels cut since the last clear_cut_labels(): a headless run prints those of its last
// frame, and the screenshot tests require none at the window sizes they check.
const std::vector<CutLabel>& cut_labels();
void clear_cut_labels();
// Draws the first of `texts` (the full label, then shorter forms of it) whose width fits in
// `room_px`; when none fits, draws the last cut short by the panel and records it.
void draw_fitted_text(ImDrawList* draw, ImVec2 pos, ImU32 colour, float room_px,
                      std::initializer_list<std::string_view> texts);
// The same as an ImGui text item in the current window, in the room left on its line.
void fitted_text(std::initializer_list<std::string_view> texts);

// Colours of the opened documents, so one capture keeps its colour in every panel.
ImU32 document_colour(int index);

}  // namespace loopscope
