// The catalogue's figures of other per-frame columns: the latencies, where the time goes and
// why the hitches.
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

// ---- Latency (core/latency.hpp) ----
std::string capture_label(const CaptureReport& r) {
    return fmt::format("'{}' ({})", r.capture->source.file, r.capture->source.format);
}
constexpr std::string_view kLatencySection = "Latency";
std::string_view latency_tools(LatencyKind kind) {
    switch (kind) {
        case LatencyKind::pc:
            return "MsPCLatency (FrameView, PresentMon 2.4+)";
        case LatencyKind::click_to_photon:
            return "ClickToPhotonLatency (PresentMon 2.x)";
        case LatencyKind::all_input_to_photon:
            return "AllInputToPhotonLatency (PresentMon 2.x)";
        case LatencyKind::display:
            return "DisplayLatency (PresentMon 2.x; 2.4+: TimeInQPC - CPUStartQPC + "
                   "MsUntilDisplayed)";
        case LatencyKind::render_present:
            break;
    }
    return "MsRenderPresentLatency (FrameView, PresentMon 2.4+)";
}
template <LatencyKind K>
std::optional<std::string> latency_missing(const CaptureReport& r) {
    const std::string_view column = latency_column(*r.capture, K);
    if (column.empty())
        return fmt::format("{} has no {} column", capture_label(r), latency_tools(K));
    const auto& s = r.latency.of(K);
    if (!s || s->frames == 0)
        return fmt::format("no frame of the range has a value in {} (every cell NA)", column);
    return std::nullopt;
}
enum class LatencyStat { mean, p50, p99, min, max };
template <LatencyKind K, LatencyStat S>
std::optional<double> latency_value(const CaptureReport& r) {
    const auto& s = r.latency.of(K);
    if (!s || s->frames == 0)
        return std::nullopt;
    switch (S) {
        case LatencyStat::mean:
            return s->mean_ms;
        case LatencyStat::p50:
            return s->p50_ms;
        case LatencyStat::p99:
            return s->p99_ms;
        case LatencyStat::min:
            return s->min_ms;
        case LatencyStat::max:
            break;
    }
    return s->max_ms;
}
// The latency cells of the range that are a time, in frame order, and a latency figure of any
// set of them: what the comparison resamples.
template <LatencyKind K>
std::vector<std::int64_t> latency_series(const CaptureReport& r) {
    const std::vector<std::int64_t> all = latency_per_frame(*r.capture, K);
    std::vector<std::int64_t> cells;
    for (std::size_t i = r.range.begin; i < r.range.end && i < all.size(); ++i) {
        if (all[i] >= 0)
            cells.push_back(all[i]);
    }
    return cells;
}
template <LatencyStat S>
std::optional<double> latency_of(const AscendingValues& v) {
    if (v.size() == 0)
        return std::nullopt;
    switch (S) {
        case LatencyStat::mean:
            return ns_to_ms(static_cast<double>(v.sum_from(0)) / static_cast<double>(v.size()));
        case LatencyStat::p50:
            return ns_to_ms(percentile_of(v, 0.50));
        case LatencyStat::p99:
            return ns_to_ms(percentile_of(v, 0.99));
        case LatencyStat::min:
            return ns_to_ms(v.front());
        case LatencyStat::max:
            break;
    }
    return ns_to_ms(v.back());
}
template <LatencyKind K>
std::string latency_text(const CaptureReport& r) {
    const LatencySummary& s = *r.latency.of(K);
    return fmt::format("mean {} ms, p50 {} ms, p99 {} ms, min {} ms, max {} ms ({} frames)",
                       fixed(s.mean_ms, 3), fixed(s.p50_ms, 3), fixed(s.p99_ms, 3),
                       fixed(s.min_ms, 3), fixed(s.max_ms, 3), s.frames);
}
template <LatencyKind K>
std::string latency_definition(const CaptureReport& r) {
    const std::string_view column = latency_column(*r.capture, K);
    return fmt::format(
        "over the frames of the range whose {} cell is a time (NA cells, and cells that are "
        "not a time >= 0, counted in the data quality, left out): mean, linear interpolation "
        "at h = p·(N-1), min, max",
        column.empty() ? latency_tools(K) : column);
}

// The latency family, one row a figure: each kind's summary row (its five statistics in one
// line, no key) and then the kind's keyed figures, in catalogue order. Keys and definitions are
// written out so that each key can be found here and in docs/reports.md.
struct LatencyRow {
    LatencyKind kind;
    std::string_view label = {};  // the summary row's
    std::string_view key = {};    // a keyed figure's, with its statistic and definition
    LatencyStat stat = LatencyStat::mean;
    std::string_view definition =
        "the frames whose latency cell is a time: mean, p50, p99, min, max";
};
// A row a line, as a table reads.
// clang-format off
constexpr LatencyRow kLatencyTable[] = {
    {LatencyKind::pc, "PC latency"},
    {LatencyKind::pc, "", "pc_latency_avg_ms", LatencyStat::mean, "mean of PC latency over the frames whose cell is a time; FrameView's AvgPCLatency"},
    {LatencyKind::pc, "", "pc_latency_p50_ms", LatencyStat::p50, "p50 (linear interpolation at h = p·(N-1)) of PC latency over the frames whose cell is a time"},
    {LatencyKind::pc, "", "pc_latency_p99_ms", LatencyStat::p99, "p99 (linear interpolation at h = p·(N-1)) of PC latency over the frames whose cell is a time"},
    {LatencyKind::pc, "", "pc_latency_min_ms", LatencyStat::min, "shortest of PC latency over the frames whose cell is a time; FrameView's MinPCLatency"},
    {LatencyKind::pc, "", "pc_latency_max_ms", LatencyStat::max, "longest of PC latency over the frames whose cell is a time; FrameView's MaxPCLatency"},
    {LatencyKind::click_to_photon, "click to photon"},
    {LatencyKind::click_to_photon, "", "click_to_photon_avg_ms", LatencyStat::mean, "mean of click to photon over the frames whose cell is a time"},
    {LatencyKind::click_to_photon, "", "click_to_photon_p99_ms", LatencyStat::p99, "p99 (linear interpolation at h = p·(N-1)) of click to photon over the frames whose cell is a time"},
    {LatencyKind::all_input_to_photon, "all input to photon"},
    {LatencyKind::all_input_to_photon, "", "all_input_to_photon_avg_ms", LatencyStat::mean, "mean of all input to photon over the frames whose cell is a time"},
    {LatencyKind::all_input_to_photon, "", "all_input_to_photon_p99_ms", LatencyStat::p99, "p99 (linear interpolation at h = p·(N-1)) of all input to photon over the frames whose cell is a time"},
    {LatencyKind::display, "display latency"},
    {LatencyKind::display, "", "display_latency_avg_ms", LatencyStat::mean, "mean of display latency over the frames whose cell is a time"},
    {LatencyKind::display, "", "display_latency_p99_ms", LatencyStat::p99, "p99 (linear interpolation at h = p·(N-1)) of display latency over the frames whose cell is a time"},
    {LatencyKind::render_present, "render-present latency"},
    {LatencyKind::render_present, "", "render_present_latency_avg_ms", LatencyStat::mean, "mean of render-present latency over the frames whose cell is a time; FrameView's RenderPresentLatency"},
};
// clang-format on

// A row of the latency table as a catalogue entry: the capture's own latency column over the
// range (core/latency.hpp); the keyed figures are compared with an interval, the column
// resampled in blocks.
template <std::size_t I>
constexpr Figure latency_figure() {
    constexpr LatencyRow row = kLatencyTable[I];
    if constexpr (row.key.empty()) {
        return Figure{.section = kLatencySection,
                      .label = row.label,
                      .unit = "ms",
                      .definition = row.definition,
                      .needs = kNeedsFrames,
                      .text = latency_text<row.kind>,
                      .describe = latency_definition<row.kind>,
                      .missing = latency_missing<row.kind>};
    } else {
        return Figure{.key = row.key,
                      .better = Better::lower,
                      .section = kLatencySection,
                      .unit = "ms",
                      .definition = row.definition,
                      .needs = kNeedsFrames,
                      .value = latency_value<row.kind, row.stat>,
                      .compared = true,
                      .column_values = latency_series<row.kind>,
                      .column_value = latency_of<row.stat>,
                      .missing = latency_missing<row.kind>};
    }
}
template <std::size_t... I>
constexpr auto latency_figures(std::index_sequence<I...>) {
    return std::array{latency_figure<I>()...};
}

// ---- Where the time goes (core/bottleneck.hpp) ----
constexpr std::string_view kBoundSection = "Where the time goes";
std::optional<std::string> bound_missing(const CaptureReport& r) {
    if (auto why = bottleneck_missing(*r.capture))
        return why;
    if (r.bottleneck.classified == 0)
        return std::string(
            "no frame of the range could be classified (the busy and wait "
            "cells are NA, or every frame is generated)");
    return std::nullopt;
}
std::optional<std::string> steady_bound_missing(const CaptureReport& r) {
    if (auto why = bound_missing(r))
        return why;
    if (r.steady_bottleneck.classified == 0)
        return std::string("no frame after the start-up segment could be classified");
    return std::nullopt;
}
std::string bound_shares_text(const BottleneckShares& b) {
    return fmt::format("CPU {}, GPU {}, wait {} of {} frames", percent(b.cpu_share),
                       percent(b.gpu_share), percent(b.wait_share), b.classified);
}
std::string bound_definition(const CaptureReport& r) {
    if (bottleneck_rule(*r.capture) == BottleneckRule::render_complete) {
        return fmt::format(
            "per frame (T = its msBetweenPresents): GPU-bound when msUntilRenderComplete >= T; "
            "else wait-bound when msInPresentAPI >= {:.1f}·T; else CPU-bound",
            1.0 - kBusyShare);
    }
    return fmt::format(
        "per application frame (T = CPUBusy + CPUWait): bound by the busier of CPUBusy and "
        "GPUBusy when it is >= {:.1f}·T (GPU on a tie), else wait-bound; generated frames are "
        "not classified",
        kBusyShare);
}
template <Bound B>
std::optional<double> bound_share(const CaptureReport& r) {
    if (r.bottleneck.classified == 0)
        return std::nullopt;
    switch (B) {
        case Bound::cpu:
            return r.bottleneck.cpu_share;
        case Bound::gpu:
            return r.bottleneck.gpu_share;
        default:
            break;
    }
    return r.bottleneck.wait_share;
}

// Per classified frame of the range, where its time went (bound_code): the one column the three
// shares are resampled from, each share the count of its code over the frames.
std::int64_t bound_code(Bound bound) {
    return bound == Bound::cpu ? 0 : bound == Bound::gpu ? 1 : 2;
}
std::vector<std::int64_t> bound_series(const CaptureReport& r) {
    std::vector<std::int64_t> codes;
    if (bottleneck_rule(*r.capture) == BottleneckRule::none)
        return codes;
    for (std::size_t i = r.range.begin; i < r.range.end && i < r.capture->frames(); ++i) {
        const Bound bound = frame_bound(*r.capture, i);
        if (bound != Bound::unknown)
            codes.push_back(bound_code(bound));
    }
    return codes;
}
template <Bound B>
std::optional<double> share_of(const AscendingValues& codes) {
    if (codes.size() == 0)
        return std::nullopt;
    const std::int64_t code = bound_code(B);
    const std::size_t below = code == 0 ? 0 : codes.rank_above(code - 1);
    return static_cast<double>(codes.rank_above(code) - below) / static_cast<double>(codes.size());
}
// Two captures whose frames were classified by different rules (PresentMon 1.x's render
// completion against 2.x's busy times) have shares of different things.
std::optional<std::string> bound_unlike(const CaptureReport& a, const CaptureReport& b) {
    const auto rule = [](const CaptureReport& r) {
        return bottleneck_rule(*r.capture) == BottleneckRule::busy_wait
                   ? "the busy and wait columns"
                   : "msUntilRenderComplete";
    };
    if (bottleneck_rule(*a.capture) == bottleneck_rule(*b.capture))
        return std::nullopt;
    return fmt::format("A's frames are classified by {}, B's by {}: different rules", rule(a),
                       rule(b));
}

// A share of the frames bound one way: compared with an interval, the frames' bound codes
// resampled in blocks; no direction (a shift between CPU- and GPU-bound frames is neither better
// nor worse in itself).
template <Bound B>
constexpr Figure bound_figure(std::string_view key, std::string_view definition) {
    return Figure{.key = key,
                  .section = kBoundSection,
                  .definition = definition,
                  .needs = kNeedsFrames,
                  .value = bound_share<B>,
                  .compared = true,
                  .column_values = bound_series,
                  .column_value = share_of<B>,
                  .unlike = bound_unlike,
                  .describe = bound_definition,
                  .missing = bound_missing};
}

// ---- Why the hitches (core/hitch_cause.hpp) ----
constexpr std::string_view kHitchCauseSection = "Why the hitches";
// Whether the capture's columns can give a part of this kind at all.
std::optional<std::string> part_kind_missing(const CaptureReport& r, std::string_view kind) {
    const Capture& c = *r.capture;
    const CauseRule rule = cause_rule(c);
    if (kind == kPartUnexplained)
        return std::nullopt;
    if (kind == kPartZone)
        return c.zones.empty()
                   ? std::optional<std::string>("the capture holds no zones of the game")
                   : std::nullopt;
    if (r.timeline != Timeline::present)
        return std::string(
            "the display timeline's intervals are not split by the present-side "
            "columns");
    const bool loop_kind =
        kind == kPartSteps || kind == kPartRender || kind == kPartWait || kind == kPartAfterSteps;
    if (loop_kind)
        return rule == CauseRule::loop_phases ? std::nullopt
                                              : std::optional<std::string>(
                                                    "the capture has no loop records (loopscope "
                                                    "traces: step_cost_ns, render_ns, wait_ns)");
    if (rule != CauseRule::present_call)
        return std::string("the capture has no Present-call column (MsInPresentAPI, CPUWait)");
    if (kind == kPartShaderCompile && c.time_column(TimeColumn::pso_compile).size() != c.frames())
        return std::string("the capture has no MsPsoCompileTime column (PresentMon 2.6+)");
    return std::nullopt;
}
template <std::size_t K>
std::optional<std::string> part_missing(const CaptureReport& r) {
    return part_kind_missing(r, kPartKinds[K]);
}
template <std::size_t K>
std::optional<double> part_ms(const CaptureReport& r) {
    std::int64_t ns = 0;
    for (const HitchCause& cause : hitch_causes(r))
        ns += kind_ns(cause, kPartKinds[K]);
    return ns_to_ms(ns);
}
template <std::size_t K>
std::optional<double> part_share(const CaptureReport& r) {
    std::int64_t ns = 0, total = 0;
    const std::vector<HitchCause>& causes = hitch_causes(r);
    for (const HitchCause& cause : causes) {
        ns += kind_ns(cause, kPartKinds[K]);
        total += cause.total_ns();
    }
    if (total <= 0)
        return std::nullopt;
    return static_cast<double>(ns) / static_cast<double>(total);
}
// Per frame of the series, the time of this kind in its hitch's cause (0 off hitches): the
// column the comparison resamples, in blocks, for the summed figure.
template <std::size_t K>
std::vector<std::int64_t> part_series(const CaptureReport& r) {
    std::vector<std::int64_t> out(r.series.frame_ns.size(), 0);
    const std::vector<HitchCause>& causes = hitch_causes(r);
    for (std::size_t k = 0; k < causes.size(); ++k) {
        const std::size_t at = r.stats.hitches.hitches[k].index;
        if (at < out.size())
            out[at] = kind_ns(causes[k], kPartKinds[K]);
    }
    return out;
}
std::optional<double> summed_ms(const AscendingValues& values) {
    return ns_to_ms(values.size() > 0 ? values.sum_from(0) : std::int64_t{0});
}
// Each part kind's two figures, one family: the kind's time in the hitches, summed (compared
// with an interval, its per-frame column resampled in blocks), and its share of the hitches'
// time (by value alone). Keys and definitions by kind, in kPartKinds' order, written out so that
// each key can be found.
constexpr std::string_view kPartMsKeys[] = {
    "hitch_present_ms", "hitch_cpu_ms",         "hitch_shader_compile_ms",
    "hitch_zone_ms",    "hitch_steps_ms",       "hitch_render_ms",
    "hitch_wait_ms",    "hitch_after_steps_ms", "hitch_unexplained_ms",
};
constexpr std::string_view kPartShareKeys[] = {
    "hitch_present_share", "hitch_cpu_share",         "hitch_shader_compile_share",
    "hitch_zone_share",    "hitch_steps_share",       "hitch_render_share",
    "hitch_wait_share",    "hitch_after_steps_share", "hitch_unexplained_share",
};
constexpr std::string_view kPartMsDefinitions[] = {
    "time of the hitches' `present` parts, summed",
    "time of the hitches' `cpu` parts, summed",
    "time of the hitches' `shader_compile` parts, summed",
    "time of the hitches' `zone` parts, summed",
    "time of the hitches' `steps` parts, summed",
    "time of the hitches' `render` parts, summed",
    "time of the hitches' `wait` parts, summed",
    "time of the hitches' `after_steps` parts, summed",
    "time of the hitches' `unexplained` parts, summed",
};
constexpr std::string_view kPartShareDefinitions[] = {
    "share of the hitches' time in `present` parts",
    "share of the hitches' time in `cpu` parts",
    "share of the hitches' time in `shader_compile` parts",
    "share of the hitches' time in `zone` parts",
    "share of the hitches' time in `steps` parts",
    "share of the hitches' time in `render` parts",
    "share of the hitches' time in `wait` parts",
    "share of the hitches' time in `after_steps` parts",
    "share of the hitches' time in `unexplained` parts",
};
static_assert(std::size(kPartMsKeys) == std::size(kPartKinds) &&
              std::size(kPartShareKeys) == std::size(kPartKinds) &&
              std::size(kPartMsDefinitions) == std::size(kPartKinds) &&
              std::size(kPartShareDefinitions) == std::size(kPartKinds));
template <std::size_t K>
constexpr Figure part_ms_figure() {
    return Figure{.key = kPartMsKeys[K],
                  .better = Better::lower,
                  .section = kHitchCauseSection,
                  .unit = "ms",
                  .definition = kPartMsDefinitions[K],
                  .needs = kNeedsFrames,
                  .value = part_ms<K>,
                  .compared = true,
                  .column_values = part_series<K>,
                  .column_value = summed_ms,
                  .missing = part_missing<K>};
}
template <std::size_t K>
constexpr Figure part_share_figure() {
    return Figure{.key = kPartShareKeys[K],
                  .section = kHitchCauseSection,
                  .definition = kPartShareDefinitions[K],
                  .needs = kNeedsFrames,
                  .value = part_share<K>,
                  .absent = "no hitch",
                  .missing = part_missing<K>};
}
std::string hitch_cause_text(const CaptureReport& r) {
    const std::vector<HitchCause>& causes = hitch_causes(r);
    std::int64_t total = 0;
    for (const HitchCause& cause : causes)
        total += cause.total_ns();
    std::string out;
    for (const char* kind : kPartKinds) {
        std::int64_t ns = 0;
        for (const HitchCause& cause : causes)
            ns += kind_ns(cause, kind);
        if (ns > 0)
            out += fmt::format("{}{} {:.1f} ms ({})", out.empty() ? "" : ", ", kind, ns_to_ms(ns),
                               percent(static_cast<double>(ns) / static_cast<double>(total)));
    }
    return out.empty() ? std::string("no hitch") : out;
}
std::optional<std::string> hitch_cause_missing(const CaptureReport& r) {
    if (r.stats.hitches.hitches.empty())
        return std::string("no hitch");
    return std::nullopt;
}
// The zones that took the most hitch time, largest first (at most five).
std::string top_zones_text(const CaptureReport& r) {
    std::vector<std::pair<std::string, std::pair<std::int64_t, std::size_t>>> zones;
    for (const HitchCause& cause : hitch_causes(r)) {
        for (const CausePart& p : cause.parts) {
            if (p.kind != kPartZone)
                continue;
            auto it = std::find_if(zones.begin(), zones.end(),
                                   [&](const auto& z) { return z.first == p.label; });
            if (it == zones.end())
                zones.push_back({p.label, {p.ns, 1}});
            else
                it->second.first += p.ns, ++it->second.second;
        }
    }
    std::stable_sort(zones.begin(), zones.end(),
                     [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
    std::string out;
    for (std::size_t k = 0; k < zones.size() && k < 5; ++k)
        out += fmt::format("{}\"{}\" {:.1f} ms in {} hitch{}", k == 0 ? "" : ", ", zones[k].first,
                           ns_to_ms(zones[k].second.first), zones[k].second.second,
                           zones[k].second.second == 1 ? "" : "es");
    return out.empty() ? std::string("no zone overlaps a hitch") : out;
}
std::optional<std::string> top_zones_missing(const CaptureReport& r) {
    if (auto why = hitch_cause_missing(r))
        return why;
    if (r.capture->zones.empty())
        return std::string("the capture holds no zones of the game");
    return std::nullopt;
}

constexpr std::array kBoundAndHitchFigures = {
    // Where the time goes (core/bottleneck.hpp). A shift between CPU- and GPU-bound frames is
    // neither better nor worse in itself, so the shares state no direction.
    Figure{.section = kBoundSection,
           .label = "bound by",
           .definition = "per frame from the busy and wait columns (docs/reports.md)",
           .needs = kNeedsFrames,
           .text = [](const CaptureReport& r) { return bound_shares_text(r.bottleneck); },
           .describe = bound_definition,
           .missing = bound_missing},
    bound_figure<Bound::cpu>("cpu_bound_share",
                             "share of the classified frames that were CPU-bound"),
    bound_figure<Bound::gpu>("gpu_bound_share",
                             "share of the classified frames that were GPU-bound"),
    bound_figure<Bound::wait>("wait_bound_share",
                              "share of the classified frames that were wait-bound"),
    // Why the hitches (core/hitch_cause.hpp): the hitches' time by the kind of part that
    // explains it; the ms are compared with intervals (their per-frame column resampled in
    // blocks), the shares by value alone.
    Figure{.section = kHitchCauseSection,
           .label = "hitch time by cause",
           .definition = "the Unreal hitches' time cut into disjoint parts from the capture's "
                         "columns (docs/reports.md, \"Why each hitch\"), summed by part kind",
           .needs = kNeedsFrames,
           .text = hitch_cause_text,
           .missing = hitch_cause_missing},
    Figure{.section = kHitchCauseSection,
           .label = "top zones in hitches",
           .definition = "the game's zones (ScopedZone) by their time inside hitches, largest "
                         "first (at most five)",
           .needs = kNeedsFrames,
           .text = top_zones_text,
           .missing = top_zones_missing},
};

constexpr std::array kSteadyBoundFigures = {
    Figure{.section = "Without start-up",
           .label = "bound by",
           .definition = "where the time goes, without the start-up segment",
           .needs = kNeedsFrames | kNeedsStartupSegment,
           .text = [](const CaptureReport& r) { return bound_shares_text(r.steady_bottleneck); },
           .describe = bound_definition,
           .missing = steady_bound_missing},
};

// Each part kind's two figures, in kPartKinds' order.
template <std::size_t... K>
constexpr auto part_figures(std::index_sequence<K...>) {
    return join(std::array{part_ms_figure<K>(), part_share_figure<K>()}...);
}

constexpr auto kColumnFigures = join(
    latency_figures(std::make_index_sequence<std::size(kLatencyTable)>()), kBoundAndHitchFigures,
    part_figures(std::make_index_sequence<std::size(kPartKinds)>()), kSteadyBoundFigures);

}  // namespace

// Each hitch's cause, in hitch order (worked out once by the analysis).
const std::vector<HitchCause>& hitch_causes(const CaptureReport& r) {
    return r.hitch_causes;
}
std::int64_t kind_ns(const HitchCause& cause, std::string_view kind) {
    std::int64_t ns = 0;
    for (const CausePart& p : cause.parts)
        ns += p.kind == kind ? p.ns : 0;
    return ns;
}

std::span<const Figure> column_figures() {
    return kColumnFigures;
}

}  // namespace loopscope::figure_parts
