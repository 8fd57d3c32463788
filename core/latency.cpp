// Latency figures from a capture's own latency columns (see latency.hpp).
#include "core/latency.hpp"

#include <algorithm>

#include "core/percentile.hpp"
#include "core/sort_ns.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {

// 2.4+ has no DisplayLatency column. PresentMon defines DisplayLatency as the screen time less
// the frame's CPU start, and MsUntilDisplayed as the screen time less the present's start
// (TimeInQPC), so DisplayLatency = (TimeInQPC − CPUStartQPC) + MsUntilDisplayed. MsCPUBusy
// equals TimeInQPC − CPUStartQPC only on application frames without frame generation (it is 0
// on generated frames, and the application's own present where frames are generated), so it
// stands in only where no frame is generated and the file has no TimeInQPC.
bool offset_from_present_times(const Capture& c) {
    return c.cpu_start_to_present_ns.size() == c.frames();
}
bool no_generated_frames(const Capture& c) {
    return c.generated.size() == c.frames() &&
           std::none_of(c.generated.begin(), c.generated.end(), [](std::uint8_t g) { return g; });
}
bool derives_display_latency(const Capture& c) {
    return c.time_column(TimeColumn::display_latency).empty() &&
           c.description.display_latency_from_cpu_start && c.frames() > 0 &&
           c.until_displayed_ns.size() == c.frames() &&
           (offset_from_present_times(c) ||
            (c.cpu_busy_ns.size() == c.frames() && no_generated_frames(c)));
}

const std::vector<std::int64_t>* stored(const Capture& c, LatencyKind kind) {
    switch (kind) {
        case LatencyKind::pc:
            return &c.pc_latency_ns;
        case LatencyKind::click_to_photon:
            return &c.time_column(TimeColumn::click_to_photon);
        case LatencyKind::all_input_to_photon:
            return &c.time_column(TimeColumn::all_input_to_photon);
        case LatencyKind::display:
            return &c.time_column(TimeColumn::display_latency);
        case LatencyKind::render_present:
            return &c.render_present_latency_ns;
    }
    return nullptr;
}

}  // namespace

std::string_view latency_column(const Capture& c, LatencyKind kind) {
    const std::vector<std::int64_t>* v = stored(c, kind);
    const bool has = v && !v->empty() && v->size() == c.frames();
    switch (kind) {
        case LatencyKind::pc:
            return has ? "MsPCLatency" : "";
        case LatencyKind::click_to_photon:
            return has ? c.description.click_to_photon_column : "";
        case LatencyKind::all_input_to_photon:
            return has ? c.description.all_input_to_photon_column : "";
        case LatencyKind::display:
            if (has)
                return "DisplayLatency";
            if (!derives_display_latency(c))
                return "";
            return offset_from_present_times(c)
                       ? "TimeInQPC - CPUStartQPC + MsUntilDisplayed"
                       : "MsCPUBusy + MsUntilDisplayed (no generated frame)";
        case LatencyKind::render_present:
            return has ? "MsRenderPresentLatency" : "";
    }
    return "";
}

std::vector<std::int64_t> latency_per_frame(const Capture& c, LatencyKind kind) {
    if (latency_column(c, kind).empty())
        return {};
    if (kind == LatencyKind::display && c.time_column(TimeColumn::display_latency).empty()) {
        std::vector<std::int64_t> out(c.frames(), -1);
        const std::vector<std::int64_t>& offset =
            offset_from_present_times(c) ? c.cpu_start_to_present_ns : c.cpu_busy_ns;
        for (std::size_t i = 0; i < c.frames(); ++i) {
            const std::int64_t busy = offset[i];
            const std::int64_t until = c.until_displayed_ns[i];
            if (busy >= 0 && until >= 0 && (c.dropped.empty() || !c.dropped[i]))
                out[i] = busy + until;
        }
        return out;
    }
    return *stored(c, kind);
}

std::optional<LatencySummary> latency_summary(const Capture& c, LatencyKind kind,
                                              FrameRange range) {
    const std::vector<std::int64_t> all = latency_per_frame(c, kind);
    if (all.empty())
        return std::nullopt;
    std::vector<std::int64_t> v;
    v.reserve(range.size());
    for (std::size_t i = range.begin; i < range.end && i < all.size(); ++i) {
        if (all[i] >= 0)
            v.push_back(all[i]);
    }
    LatencySummary s;
    s.frames = v.size();
    if (v.empty())
        return s;
    sort_ns(v);
    // The mean in double ms, as the tools sum their cells (integer ns sums could overflow only
    // past 292 years of latency, but the tools' own rounding is what is matched).
    double sum_ms = 0;
    for (const std::int64_t x : v)
        sum_ms += ns_to_ms(x);
    s.mean_ms = sum_ms / static_cast<double>(v.size());
    s.p50_ms = ns_to_ms(percentile_sorted(v, 0.50));
    s.p99_ms = ns_to_ms(percentile_sorted(v, 0.99));
    s.min_ms = ns_to_ms(v.front());
    s.max_ms = ns_to_ms(v.back());
    return s;
}

const std::optional<LatencySummary>& LatencyFigures::of(LatencyKind kind) const {
    switch (kind) {
        case LatencyKind::pc:
            return pc;
        case LatencyKind::click_to_photon:
            return click_to_photon;
        case LatencyKind::all_input_to_photon:
            return all_input_to_photon;
        case LatencyKind::display:
            return display;
        case LatencyKind::render_present:
            break;
    }
    return render_present;
}

LatencyFigures latency_figures(const Capture& c, FrameRange range) {
    LatencyFigures f;
    f.pc = latency_summary(c, LatencyKind::pc, range);
    f.click_to_photon = latency_summary(c, LatencyKind::click_to_photon, range);
    f.all_input_to_photon = latency_summary(c, LatencyKind::all_input_to_photon, range);
    f.display = latency_summary(c, LatencyKind::display, range);
    f.render_present = latency_summary(c, LatencyKind::render_present, range);
    return f;
}

}  // namespace loopscope
