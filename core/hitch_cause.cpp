// Why a hitch took as long as it did (see hitch_cause.hpp).
#include "core/hitch_cause.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/units.hpp"

namespace loopscope {

namespace {

template <typename T>
bool full(const std::vector<T>& v, const Capture& c) {
    return !v.empty() && v.size() == c.frames();
}

// A cell of a column the capture may lack: nullopt without the column or where the cell is
// unknown (-1).
std::optional<std::int64_t> cell(const std::vector<std::int64_t>& column, const Capture& c,
                                 std::int64_t i) {
    if (!full(column, c) || i < 0 || static_cast<std::size_t>(i) >= column.size())
        return std::nullopt;
    const std::int64_t v = column[static_cast<std::size_t>(i)];
    return v >= 0 ? std::optional<std::int64_t>(v) : std::nullopt;
}

bool is_generated(const Capture& c, std::int64_t i) {
    return full(c.generated, c) && i >= 0 && static_cast<std::size_t>(i) < c.frames() &&
           c.generated[static_cast<std::size_t>(i)] != 0;
}

std::string ms_text(std::int64_t ns) {
    return fmt::format("{:.1f} ms", ns_to_ms(ns));
}

// `begin + offset` on the capture's time axis, or -1 (not placed) for an unplaced begin or a sum
// past the axis (a damaged capture's time stamps can be anywhere).
std::int64_t placed_at(std::int64_t begin, std::int64_t offset) {
    std::int64_t at = 0;
    return begin >= 0 && !__builtin_add_overflow(begin, offset, &at) ? at : -1;
}

// A part with the time it spans on the capture's time axis (begin < 0: not placed), kept while
// zones are cut out of it.
struct Placed {
    CausePart part;
    std::int64_t begin_ns = -1;
};

// Cuts the game's zones out of a placed part: each outermost zone (depth 0) overlapping the
// part's span becomes a `zone` part of the overlap, time counted once where zones of several
// threads overlap, never more than the part holds; zones of one label are summed.
std::vector<Placed> cut_zones(const Capture& c, Placed p) {
    std::vector<Placed> out;
    const std::int64_t begin = p.begin_ns, end = placed_at(p.begin_ns, p.part.ns);
    if (c.zones.empty() || end < 0 || p.part.ns <= 0)
        return {p};
    std::int64_t cursor = begin, left = p.part.ns;
    for (const Zone& z : c.zones) {
        if (z.begin_ns >= end)
            break;  // sorted by begin
        if (z.depth != 0 || z.end_ns <= cursor)
            continue;
        const std::int64_t from = std::max(z.begin_ns, cursor), to = std::min(z.end_ns, end);
        if (to <= from)
            continue;
        const std::int64_t ns = std::min(to - from, left);
        cursor = to;
        left -= ns;
        auto same = std::find_if(out.begin(), out.end(),
                                 [&](const Placed& q) { return q.part.label == z.label; });
        if (same != out.end()) {
            same->part.ns += ns;
        } else {
            Placed zone;
            zone.part = {kPartZone, ns, z.frame >= 0 ? z.frame : p.part.frame,
                         "zone (the game's ScopedZone)", z.label};
            zone.begin_ns = from;
            out.push_back(std::move(zone));
        }
        if (left == 0)
            break;
    }
    if (out.empty())
        return {p};
    p.part.ns = left;
    if (left > 0)
        out.insert(out.begin(), p);
    return out;
}

std::string part_phrase(const CausePart& p) {
    const std::string ms = ms_text(p.ns);
    if (p.kind == kPartPresent)
        return fmt::format("{} in frame {}'s Present call", ms, p.frame);
    if (p.kind == kPartCpu)
        return fmt::format("{} of application work in frame {}", ms, p.frame);
    if (p.kind == kPartShaderCompile)
        return fmt::format("{} compiling shaders in frame {}", ms, p.frame);
    if (p.kind == kPartZone)
        return fmt::format("{} in zone \"{}\" (frame {})", ms, p.label, p.frame);
    if (p.kind == kPartSteps)
        return fmt::format("{} in frame {}'s simulation steps", ms, p.frame);
    if (p.kind == kPartRender)
        return fmt::format("{} rendering frame {}", ms, p.frame);
    if (p.kind == kPartWait)
        return fmt::format("{} waiting after frame {}", ms, p.frame);
    if (p.kind == kPartAfterSteps)
        return fmt::format("{} after frame {}'s steps (render and wait)", ms, p.frame);
    return fmt::format("{} unexplained", ms);
}

// The evidence of the frame whose Present call a part is: how its GPU and display fared.
void present_evidence(const Capture& c, std::int64_t p, std::vector<CauseEvidence>& ev) {
    if (is_generated(c, p)) {
        // A generated frame's busy and wait cells are 0, not measurements of its GPU.
        ev.push_back({"generation", p,
                      fmt::format("frame {} is a generated frame: its Present call is the frame "
                                  "generator's",
                                  p)});
        return;
    }
    const auto busy = cell(c.time_column(TimeColumn::gpu_busy), c, p);
    const auto wait = cell(c.time_column(TimeColumn::gpu_wait), c, p);
    if (busy && wait)
        ev.push_back({"gpu", p,
                      fmt::format("its GPU was busy {} and waited {} (MsGPUBusy, MsGPUWait)",
                                  ms_text(*busy), ms_text(*wait))});
    else if (busy)
        ev.push_back({"gpu", p, fmt::format("its GPU was busy {} (MsGPUBusy)", ms_text(*busy))});
    if (const auto active = cell(c.gpu_active_ns, c, p))
        ev.push_back(
            {"gpu", p, fmt::format("its GPU was active {} (msGPUActive)", ms_text(*active))});
    if (const auto done = cell(c.until_render_complete_ns, c, p))
        ev.push_back({"gpu", p,
                      fmt::format("its rendering completed {} after its Present call "
                                  "(msUntilRenderComplete)",
                                  ms_text(*done))});
    else if (const auto latency = cell(c.render_present_latency_ns, c, p))
        ev.push_back({"gpu", p,
                      fmt::format("its rendering completed {} after its Present call "
                                  "(MsRenderPresentLatency)",
                                  ms_text(*latency))});
    if (full(c.waits_for_vblank, c) && static_cast<std::size_t>(p) < c.frames()) {
        const bool vblank = c.waits_for_vblank[static_cast<std::size_t>(p)] != 0;
        const bool tears = full(c.tearing, c) && c.tearing[static_cast<std::size_t>(p)] != 0;
        ev.push_back({"sync", p,
                      vblank  ? std::string("it was presented with SyncInterval >= 1: its flip "
                                             "waited for a vertical blank")
                      : tears ? std::string("it was presented with SyncInterval 0 and tearing "
                                            "allowed: its flip did not wait for a refresh")
                              : std::string("it was presented with SyncInterval 0")});
    }
}

void frame_evidence(const Capture& c, std::int64_t i, std::vector<CauseEvidence>& ev) {
    if (full(c.dropped, c) && c.dropped[static_cast<std::size_t>(i)] != 0)
        ev.push_back({"display", i, fmt::format("frame {} was never displayed", i)});
    else if (const auto shown = cell(c.until_displayed_ns, c, i))
        ev.push_back({"display", i,
                      fmt::format("frame {} reached the display {} after its Present call "
                                  "(MsUntilDisplayed)",
                                  i, ms_text(*shown))});
}

// The sampled sensors' last values before the interval (the row before it), each against its
// median over the capture: the machine's state when the hitch began, as the log sampled it.
void telemetry_evidence(const Capture& c, std::int64_t before, std::vector<CauseEvidence>& ev) {
    if (before < 0)
        return;
    for (const TelemetryColumn& t : c.telemetry) {
        if (t.values.size() != c.frames())
            continue;
        const double v = t.values[static_cast<std::size_t>(before)];
        if (std::isnan(v) || std::isnan(t.median))
            continue;
        ev.push_back({"telemetry", before,
                      fmt::format("{} {:g} on frame {}, the last sample before the hitch "
                                  "(median {:g})",
                                  t.name, v, before, t.median)});
    }
}

// Present call + application work (hitch_cause.hpp).
std::vector<Placed> present_call_parts(const Capture& c, std::int64_t i, std::int64_t t,
                                       std::vector<CauseEvidence>& ev) {
    const bool has_busy = full(c.cpu_busy_ns, c);
    const bool has_in_present = full(c.in_present_api_ns, c);
    const std::vector<std::int64_t>& call =
        has_in_present ? c.in_present_api_ns : c.time_column(TimeColumn::cpu_wait);
    const char* call_source = has_in_present ? "MsInPresentAPI" : "MsCPUWait";
    // The present before: the previous row, or the previous application frame where generated
    // frames have no present time of their own.
    std::int64_t prev = i - 1;
    if (generated_frames_have_no_frame_time(c))
        while (prev >= 0 && is_generated(c, prev))
            --prev;
    // The application frame whose CPU work ends at this present.
    std::int64_t work = i;
    if (is_generated(c, i)) {
        work = -1;
        for (std::int64_t j = i + 1; j < static_cast<std::int64_t>(c.frames()); ++j) {
            if (!is_generated(c, j)) {
                work = j;
                break;
            }
        }
    } else if (prev >= 0 && prev == i - 1 && is_generated(c, prev)) {
        work = -1;  // its CPU work ended at the generated frame's present, before the interval
    }

    std::int64_t cpu = 0, shader = 0;
    std::string cpu_source;
    if (has_busy && work >= 0) {
        cpu = std::min(cell(c.cpu_busy_ns, c, work).value_or(0), t);
        cpu_source = "MsCPUBusy";
        if (const auto pso = cell(c.time_column(TimeColumn::pso_compile), c, work))
            shader = std::min(*pso, cpu);
    }
    std::int64_t present = std::min(cell(call, c, prev).value_or(0), t - cpu);
    if (!has_busy) {
        // Without a CPU-busy column the application's time is what the previous Present call
        // leaves of the interval.
        cpu = prev >= 0 && cell(call, c, prev) ? t - present : 0;
        cpu_source = fmt::format("derived: the frame time minus frame {}'s {}", prev, call_source);
    }
    const std::int64_t unexplained = t - present - cpu;

    // Where the parts lie: the interval ends at frame i's present.
    std::int64_t end = -1;
    if (full(c.start_ns, c)) {
        if (c.start_ends_frame_time)
            end = c.start_ns[static_cast<std::size_t>(i)];
        else if (work >= 0 && has_busy && cell(c.cpu_busy_ns, c, work))
            end = placed_at(c.start_ns[static_cast<std::size_t>(work)],
                            *cell(c.cpu_busy_ns, c, work));
    }
    const std::int64_t begin = end >= 0 ? end - t : -1;
    const auto at = [&](std::int64_t offset) { return begin >= 0 ? begin + offset : -1; };

    std::vector<Placed> parts;
    if (present > 0)
        parts.push_back({{kPartPresent, present, prev, call_source, ""}, at(0)});
    if (unexplained > 0)
        parts.push_back({{kPartUnexplained, unexplained, -1, "", ""}, at(present)});
    if (shader > 0)
        parts.push_back({{kPartShaderCompile, shader, work, "MsPsoCompileTime", ""},
                         at(present + unexplained)});
    if (cpu - shader > 0)
        parts.push_back({{kPartCpu, cpu - shader, has_busy ? work : i, cpu_source, ""},
                         at(present + unexplained + shader)});
    if (prev >= 0 && present > 0)
        present_evidence(c, prev, ev);
    if (is_generated(c, i))
        ev.push_back({"generation", i,
                      work >= 0 ? fmt::format("frame {} is a generated frame: the CPU work that "
                                              "ends at its present is application frame {}'s",
                                              i, work)
                                : fmt::format("frame {} is a generated frame", i)});
    frame_evidence(c, i, ev);
    telemetry_evidence(c, prev, ev);
    return parts;
}

// A trace row's loop record: kept with the capture, or, where the records were not kept, among
// those kept around the hitches while reading (LoopFigures::hitch_records); nullptr otherwise.
const FrameRecord* loop_record(const Capture& c, std::int64_t row) {
    if (row < 0)
        return nullptr;
    if (full(c.loop, c))
        return static_cast<std::size_t>(row) < c.loop.size()
                   ? &c.loop[static_cast<std::size_t>(row)]
                   : nullptr;
    if (!c.loop_figures)
        return nullptr;
    const auto& kept = c.loop_figures->hitch_records;
    const auto at = std::lower_bound(kept.begin(), kept.end(), row,
                                     [](const auto& k, std::int64_t r) { return k.first < r; });
    return at != kept.end() && at->first == row ? &at->second : nullptr;
}

// A loopscope trace's phases (hitch_cause.hpp).
std::vector<Placed> loop_parts(const Capture& c, std::int64_t i, std::int64_t t,
                               std::vector<CauseEvidence>& ev) {
    std::vector<Placed> parts;
    const std::int64_t f = i - 1;  // row i's frame time is frame i - 1's length
    const FrameRecord* before = loop_record(c, f);
    const FrameRecord* hitch_row = loop_record(c, i);
    if (!before || !hitch_row)
        return parts;
    const FrameRecord& r = *before;
    const std::int64_t begin =
        c.start_ns.size() == c.frames() ? c.start_ns[static_cast<std::size_t>(f)] : -1;
    std::int64_t used = 0;
    const auto add = [&](const char* kind, std::int64_t ns, const char* source) {
        ns = std::clamp<std::int64_t>(ns, 0, t - used);
        if (ns > 0)
            parts.push_back({{kind, ns, f, source, ""}, placed_at(begin, used)});
        used += ns;
    };
    add(kPartSteps, r.step_cost_ns, "step_cost_ns");
    if (r.render_ns > 0) {
        add(kPartRender, r.render_ns, "render_ns");
        add(kPartWait, r.wait_ns, "wait_ns");
    } else {
        add(kPartAfterSteps, r.wait_ns, "wait_ns (no end_render: render and wait together)");
    }
    if (t - used > 0)
        parts.push_back({{kPartUnexplained, t - used, -1, "", ""}, placed_at(begin, used)});
    ev.push_back({"loop", f, fmt::format("frame {} ran {} simulation steps", f, r.steps)});
    const FrameRecord& row = *hitch_row;
    if (row.clamp_lost_ns > 0)
        ev.push_back({"guard", i,
                      fmt::format("the clamp threw away {} of this frame time (clamp_lost_ns)",
                                  ms_text(row.clamp_lost_ns))});
    if (row.cap_dropped_ns > 0)
        ev.push_back({"guard", i,
                      fmt::format("the step cap dropped {} of simulation time (cap_dropped_ns)",
                                  ms_text(row.cap_dropped_ns))});
    return parts;
}

// The interval's span on the capture's time axis, for the marks inside it (begin < 0: unknown).
std::pair<std::int64_t, std::int64_t> interval_span(const Capture& c, std::size_t i,
                                                    std::int64_t t) {
    if (c.start_ns.size() != c.frames() || !c.start_ends_frame_time || i >= c.start_ns.size())
        return {-1, -1};
    std::int64_t begin = 0;
    if (__builtin_sub_overflow(c.start_ns[i], t, &begin))
        return {-1, -1};
    return {begin, c.start_ns[i]};
}

}  // namespace

bool HitchCause::explained() const {
    return std::any_of(parts.begin(), parts.end(),
                       [](const CausePart& p) { return p.kind != kPartUnexplained && p.ns > 0; });
}

std::int64_t HitchCause::total_ns() const {
    std::int64_t sum = 0;
    for (const CausePart& p : parts)
        sum += p.ns;
    return sum;
}

CauseRule cause_rule(const Capture& c) {
    if (full(c.loop, c) || (c.loop.empty() && c.loop_figures))
        return CauseRule::loop_phases;
    if (full(c.in_present_api_ns, c) || full(c.time_column(TimeColumn::cpu_wait), c))
        return CauseRule::present_call;
    return CauseRule::none;
}

HitchCause hitch_cause(const Capture& c, std::size_t frame, std::int64_t t,
                       bool on_present_timeline) {
    HitchCause cause;
    std::vector<Placed> placed;
    const auto i = static_cast<std::int64_t>(frame);
    // An interval of no length (a zero frame time) has nothing to split.
    const CauseRule rule =
        frame < c.frames() && on_present_timeline && t > 0 ? cause_rule(c) : CauseRule::none;
    if (rule == CauseRule::present_call)
        placed = present_call_parts(c, i, t, cause.evidence);
    else if (rule == CauseRule::loop_phases)
        placed = loop_parts(c, i, t, cause.evidence);
    if (rule == CauseRule::loop_phases && placed.empty())
        cause.evidence.push_back(
            {"loop", i,
             "the trace's loop records of this frame were not kept, so its phases do "
             "not split it"});
    if (placed.empty() && t > 0)
        placed.push_back({{kPartUnexplained, t, -1, "", ""}, -1});
    if (rule == CauseRule::none)
        cause.evidence.push_back(
            {"columns", i,
             on_present_timeline
                 ? "the capture has no column that splits a frame time (no Present-call, "
                   "CPU-busy or loop phase column)"
                 : "an interval between display changes: the capture's present-side columns do "
                   "not split it"});

    for (Placed& p : placed) {
        const bool splits = p.part.kind != kPartPresent && p.part.kind != kPartUnexplained &&
                            p.part.kind != kPartShaderCompile;
        std::vector<Placed> cut = splits ? cut_zones(c, p) : std::vector<Placed>{p};
        for (Placed& q : cut)
            cause.parts.push_back(std::move(q.part));
    }

    // The game's marks inside the interval (a display-timeline interval lies elsewhere than the
    // present times place it).
    const auto [begin, end] = interval_span(c, frame, t);
    if (on_present_timeline && begin >= 0 && !c.marks.empty()) {
        for (const Mark& m : c.marks) {
            if (m.t_ns < begin)
                continue;
            if (m.t_ns > end)
                break;
            cause.evidence.push_back(
                {"mark", m.frame,
                 fmt::format("mark \"{}\" at {:.3f} s", m.label, ns_to_s(m.t_ns))});
        }
    }

    const CausePart* largest = nullptr;
    for (const CausePart& p : cause.parts)
        if (!largest || p.ns > largest->ns)
            largest = &p;
    cause.kind = largest ? largest->kind : kPartUnexplained;

    std::vector<const CausePart*> order;
    for (const CausePart& p : cause.parts)
        order.push_back(&p);
    std::stable_sort(order.begin(), order.end(),
                     [](const CausePart* a, const CausePart* b) { return a->ns > b->ns; });
    for (const CausePart* p : order) {
        cause.summary += (cause.summary.empty() ? "" : "; ") + part_phrase(*p);
        if (p != order.front())
            continue;
        // The largest part's first fact about its own frame, beside it.
        for (const CauseEvidence& e : cause.evidence) {
            if (e.frame == p->frame && p->frame >= 0 && e.kind != "display" && e.kind != "mark" &&
                e.kind != "telemetry") {
                cause.summary += fmt::format(" ({})", e.text);
                break;
            }
        }
    }
    return cause;
}

}  // namespace loopscope
