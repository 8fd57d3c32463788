// Frame-time histogram and percentile curve (see panels.hpp), both of the report's series: the
// curve is the report's tail_curve_ms (the figures' interpolation), so it passes through the
// very numbers the statistics table prints.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tool/viewer/panels.hpp"

namespace loopscope {

namespace {

constexpr std::size_t kBins = 80;
const ImU32 kGrid = IM_COL32(255, 255, 255, 28);
const ImU32 kLabel = IM_COL32(200, 200, 200, 255);

const std::vector<std::size_t>& cached_counts(Document& doc, double lo, double hi, bool log_bins) {
    HistogramCache& c = doc.histogram;
    if (c.lo != lo || c.hi != hi || c.bins != kBins || c.log_bins != log_bins ||
        c.frames != doc.report_frame_ns.size()) {
        c.counts = histogram_counts(doc.report_frame_ns, lo, hi, kBins, log_bins);
        c.lo = lo;
        c.hi = hi;
        c.bins = kBins;
        c.log_bins = log_bins;
        c.frames = doc.report_frame_ns.size();
    }
    return c.counts;
}

// Histograms and percentiles of frames mean nothing for a sampled log (samples, not frames), so
// those documents are left out of both plots.
bool per_frame_shown(const Document& d) {
    return d.shown && d.capture.per_frame && d.report && !d.report_frame_ns.empty() &&
           !d.report->tail_curve_ms.empty();
}

// Percentile p on the "nines" axis: 0 at p = 0, 1 at 90 %, 2 at 99 %, 3 at 99.9 %.
double nines(double p) {
    return -std::log10(std::max(1e-6, 1.0 - p));
}
constexpr double kMaxNines = kTailCurveNines;  // up to p99.99

// Axis labels along one row, left to right: a label that would overlap the one before it is
// left out, so a narrow window shows fewer labels rather than a smear of digits.
class LabelRow {
  public:
    LabelRow(ImDrawList* draw, float lo, float hi) : draw_(draw), lo_(lo), hi_(hi) {}
    // Centred on x (kept inside [lo, hi]) when centre, else starting at x.
    void add(float x, float y, const std::string& text, bool centre) {
        const float w = ImGui::CalcTextSize(text.c_str()).x;
        const float left = std::clamp(centre ? x - w * 0.5f : x, lo_, std::max(lo_, hi_ - w));
        if (left < right_ + 6.0f)
            return;
        draw_->AddText(ImVec2(left, y), kLabel, text.c_str());
        right_ = left + w;
    }

  private:
    ImDrawList* draw_;
    float lo_, hi_;
    float right_ = -HUGE_VALF;
};

// Everything a panel draws stays inside its own rectangle (a long title in a narrow window
// would otherwise run into the next panel).
class PanelClip {
  public:
    PanelClip(ImDrawList* draw, ImVec2 pos, ImVec2 size) : draw_(draw) {
        draw_->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y), true);
    }
    ~PanelClip() { draw_->PopClipRect(); }
    PanelClip(const PanelClip&) = delete;
    PanelClip& operator=(const PanelClip&) = delete;

  private:
    ImDrawList* draw_;
};

// What an empty distribution panel says: only sampled logs are shown, and their rows are
// samples, not frames, whose distribution would pass for a distribution of frames.
void empty_panel_note(ImDrawList* draw, ImVec2 a, ImVec2 b) {
    draw->AddText(ImVec2(a.x + 8.0f, (a.y + b.y) / 2.0f - 24.0f), kLabel,
                  "no frames to show:\na sampled log's rows\nare samples, not frames");
}

void histogram(std::span<Document* const> docs, const GraphSettings& settings, ImVec2 size) {
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::Dummy(size);
    const ImVec2 a(pos.x + 40.0f, pos.y + 18.0f), b(pos.x + size.x - 8.0f, pos.y + size.y - 18.0f);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const PanelClip clip(draw, pos, size);
    draw->AddRectFilled(a, b, IM_COL32(22, 24, 28, 255));
    if (settings.log_axis)
        draw_fitted_text(draw, ImVec2(a.x, pos.y), IM_COL32(230, 230, 230, 255), b.x - a.x,
                         {"frame-time histogram (log bins), share of frames",
                          "frame-time histogram (log bins)", "histogram (log)"});
    else
        draw_fitted_text(
            draw, ImVec2(a.x, pos.y), IM_COL32(230, 230, 230, 255), b.x - a.x,
            {"frame-time histogram, share of frames", "frame-time histogram", "histogram"});
    double lo = HUGE_VAL, hi = 0.0;
    for (const Document* d : docs) {
        if (per_frame_shown(*d)) {
            lo = std::min(lo, d->report->stats.frame_time.min_ms * 1e6);
            hi = std::max(hi, d->report->stats.frame_time.max_ms * 1e6);
        }
    }
    if (!(hi > 0.0)) {
        empty_panel_note(draw, a, b);
        return;
    }
    lo = std::max(lo, 1.0);
    hi = std::max(hi * 1.0001, lo * 1.01);
    if (!settings.log_axis) {
        lo = 0.0;
    }
    std::vector<const std::vector<std::size_t>*> counts;
    double top_share = 0.0;
    for (Document* d : docs) {
        if (!per_frame_shown(*d)) {
            counts.push_back(nullptr);
            continue;
        }
        counts.push_back(&cached_counts(*d, lo, hi, settings.log_axis));
        for (const std::size_t n : *counts.back()) {
            top_share = std::max(
                top_share, static_cast<double>(n) / static_cast<double>(d->report_frame_ns.size()));
        }
    }
    const auto x_of = [&](double ns) {
        const double t =
            settings.log_axis ? std::log(ns / lo) / std::log(hi / lo) : (ns - lo) / (hi - lo);
        return a.x + static_cast<float>(t) * (b.x - a.x);
    };
    // Axis labels in ms at a handful of places.
    LabelRow labels(draw, a.x, b.x);
    for (int k = 0; k <= 4; ++k) {
        const double t = k / 4.0;
        const double ns = settings.log_axis ? lo * std::pow(hi / lo, t) : lo + t * (hi - lo);
        const float x = x_of(ns);
        draw->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), kGrid);
        labels.add(x, b.y + 2.0f, fmt::format("{:.3g} ms", ns / 1e6), true);
    }
    draw->AddText(ImVec2(pos.x, a.y), kLabel, fmt::format("{:.0f}%", top_share * 100).c_str());
    for (std::size_t k = 0; k < docs.size(); ++k) {
        if (!counts[k]) {
            continue;
        }
        const auto& c = *counts[k];
        const ImU32 colour = document_colour(docs[k]->colour_index);
        const ImU32 fill = (colour & 0x00FFFFFF) | 0x50000000;
        for (std::size_t i = 0; i < c.size(); ++i) {
            const double share =
                static_cast<double>(c[i]) / static_cast<double>(docs[k]->report_frame_ns.size());
            const float x0 =
                a.x + (b.x - a.x) * static_cast<float>(i) / static_cast<float>(c.size());
            const float x1 =
                a.x + (b.x - a.x) * static_cast<float>(i + 1) / static_cast<float>(c.size());
            const float y = b.y - static_cast<float>(share / top_share) * (b.y - a.y);
            if (c[i] > 0) {
                draw->AddRectFilled(ImVec2(x0, y), ImVec2(x1, b.y), fill);
                draw->AddLine(ImVec2(x0, y), ImVec2(x1, y), colour, 1.5f);
            }
        }
    }
}

void percentile_curve(std::span<Document* const> docs, const GraphSettings& settings, ImVec2 size) {
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::Dummy(size);
    const ImVec2 a(pos.x + 56.0f, pos.y + 18.0f), b(pos.x + size.x - 8.0f, pos.y + size.y - 18.0f);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const PanelClip clip(draw, pos, size);
    draw->AddRectFilled(a, b, IM_COL32(22, 24, 28, 255));
    draw_fitted_text(draw, ImVec2(a.x, pos.y), IM_COL32(230, 230, 230, 255), b.x - a.x,
                     {"frame time at percentile (p50, p90, p99, p99.9, p99.99)",
                      "frame time at percentile", "percentiles"});
    double hi = 0.0, lo = HUGE_VAL;
    for (const Document* d : docs) {
        if (per_frame_shown(*d)) {
            hi = std::max(hi, d->report->tail_curve_ms.back() * 1e6);
            lo = std::min(lo, d->report->tail_curve_ms.front() * 1e6);
        }
    }
    if (!(hi > 0.0)) {
        empty_panel_note(draw, a, b);
        return;
    }
    YAxis axis;
    axis.log = settings.log_axis;
    axis.lo = settings.log_axis ? std::max(lo, 1.0) / 1e6 / 1.2 : 0.0;
    axis.hi = hi / 1e6 * 1.1;
    axis.top = a.y;
    axis.bottom = b.y;
    LabelRow labels(draw, a.x, b.x);
    for (const double p : {0.0, 0.5, 0.9, 0.99, 0.999, 0.9999}) {
        const float x = a.x + static_cast<float>(nines(p) / kMaxNines) * (b.x - a.x);
        draw->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), kGrid);
        labels.add(x + 2.0f, b.y + 2.0f, fmt::format("p{:g}", p * 100), false);
    }
    for (int k = 0; k <= 4; ++k) {
        const double v = axis.log ? axis.lo * std::pow(axis.hi / axis.lo, k / 4.0)
                                  : axis.lo + (axis.hi - axis.lo) * k / 4.0;
        const float y = axis.to_px(v);
        draw->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), kGrid);
        draw->AddText(ImVec2(pos.x, y - 7.0f), kLabel, fmt::format("{:.3g} ms", v).c_str());
    }
    for (const Document* d : docs) {
        if (!per_frame_shown(*d)) {
            continue;
        }
        const std::vector<double>& curve_ms = d->report->tail_curve_ms;
        std::vector<ImVec2> points;
        for (std::size_t k = 0; k < curve_ms.size(); ++k) {
            const double share = static_cast<double>(k) / kTailCurveSteps;
            points.emplace_back(a.x + static_cast<float>(share) * (b.x - a.x),
                                axis.to_px(curve_ms[k]));
        }
        draw->AddPolyline(points.data(), static_cast<int>(points.size()),
                          document_colour(d->colour_index), 0, 2.0f);
    }
}

}  // namespace

void draw_histogram_panel(std::span<Document* const> docs, const GraphSettings& settings,
                          float height) {
    const float width = ImGui::GetContentRegionAvail().x;
    const float half = (width - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    histogram(docs, settings, ImVec2(half, height));
    ImGui::SameLine();
    percentile_curve(docs, settings, ImVec2(half, height));
}

}  // namespace loopscope
