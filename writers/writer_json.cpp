// The JSON report: every figure of the model under stable keys (documented in docs/reports.md,
// "JSON schema"), so that scripts and CI jobs can read it. Keys keep their order.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/tool_figures.hpp"
#include "core/units.hpp"
#include "writers/frame_spans.hpp"
#include "writers/loop_json.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

using Json = nlohmann::ordered_json;

Json frame_time_json(const FrameTimeSummary& t) {
    return Json{{"min", t.min_ms},   {"mean", t.mean_ms}, {"stdev", t.stdev_ms}, {"cv", t.cv},
                {"p50", t.p50_ms},   {"p90", t.p90_ms},   {"p95", t.p95_ms},     {"p99", t.p99_ms},
                {"p999", t.p999_ms}, {"max", t.max_ms}};
}

Json fps_json(const FpsFigures& f) {
    return Json{{"average", f.average},
                {"p1_low", f.p1_low},
                {"p01_low", f.p01_low},
                {"low1_average", f.low1_average},
                {"low01_average", f.low01_average},
                {"low1_integral", f.low1_integral},
                {"low01_integral", f.low01_integral}};
}

Json cause_json(const HitchCause& cause) {
    Json parts = Json::array();
    for (const CausePart& p : cause.parts) {
        Json part{{"kind", p.kind},
                  {"ms", ns_to_ms(p.ns)},
                  {"frame", p.frame >= 0 ? Json(p.frame) : Json()},
                  {"source", p.source.empty() ? Json() : Json(p.source)}};
        if (!p.label.empty())
            part["label"] = p.label;
        parts.push_back(std::move(part));
    }
    Json evidence = Json::array();
    for (const CauseEvidence& e : cause.evidence)
        evidence.push_back(Json{
            {"kind", e.kind}, {"frame", e.frame >= 0 ? Json(e.frame) : Json()}, {"text", e.text}});
    return Json{{"kind", cause.kind},
                {"summary", cause.summary},
                {"parts", std::move(parts)},
                {"evidence", std::move(evidence)}};
}

Json stutter_json(const FrameStats& s, const CaptureReport& r) {
    Json hitches = Json::array();
    std::vector<std::size_t> at;
    for (const Hitch& h : s.hitches.hitches)
        at.push_back(h.index);
    const std::vector<FrameSpan> spans = frame_spans_at(r, at);
    for (std::size_t k = 0; k < s.hitches.hitches.size(); ++k) {
        const Hitch& h = s.hitches.hitches[k];
        const FrameSpan& long_frame = spans[k];
        const HitchCause cause = report_hitch_cause(r, h);
        hitches.push_back(Json{{"frame", long_frame.frame},
                               {"time_s", ns_to_s(long_frame.begin_ns)},
                               {"frame_time_ms", ns_to_ms(h.frame_ns)},
                               {"previous_ms", ns_to_ms(h.previous_ns)},
                               {"next_ms", h.next_ns >= 0 ? Json(ns_to_ms(h.next_ns)) : Json()},
                               {"cause", cause_json(cause)}});
    }
    return Json{{"capframex_time_frames", s.stutter.frames.size()},
                {"capframex_count_frames", s.stutter.above_mean},
                {"capframex_count_share", s.stutter.count_share},
                {"capframex_time_share", s.stutter.time_share},
                {"capframex_window", s.stutter.window},
                {"hitch_count", s.hitches.hitches.size()},
                {"hitches_per_min", s.hitches.per_minute},
                {"hitches", std::move(hitches)}};
}

Json variation_json(const VariationBuckets& v) {
    return Json{{"lt_2ms", v.counts[0]},  {"lt_4ms", v.counts[1]},  {"lt_8ms", v.counts[2]},
                {"lt_12ms", v.counts[3]}, {"ge_12ms", v.counts[4]}, {"changes", v.total}};
}

// Why there is no fixed refresh rate: null when there is one.
Json refresh_absent_name(RefreshGuess::Absent absent) {
    switch (absent) {
        case RefreshGuess::Absent::tearing:
            return "tearing";
        case RefreshGuess::Absent::off_grid:
            return "off_grid";
        case RefreshGuess::Absent::follows:
            return "follows_presents";
        case RefreshGuess::Absent::no_candidate:
            return "no_candidate";
        case RefreshGuess::Absent::no_display:
            return "no_display_information";
        case RefreshGuess::Absent::no:
            break;
    }
    return nullptr;
}

Json cadence_json(const CadenceFigures& c) {
    return Json{{"frames", c.frames},
                {"average_fps", c.average_fps},
                {"interval_ms", frame_time_json(c.interval)},
                {"fps", fps_json(c.fps)},
                // The keys of the headline's stutter object, for the same figures.
                {"stutter", Json{{"capframex_time_frames", c.stutter.frames.size()},
                                 {"capframex_count_frames", c.stutter.above_mean},
                                 {"capframex_count_share", c.stutter.count_share},
                                 {"capframex_time_share", c.stutter.time_share},
                                 {"capframex_window", c.stutter.window}}}};
}

Json optional_number(const std::optional<double>& v, double scale = 1.0) {
    return v ? Json(*v * scale) : Json();
}

// The loop figures of core/loop_figures.hpp, as computed there.
Json loop_json(const CaptureReport& r) {
    const LoopFigures& f = *r.loop_figures;
    Json hist = Json::object();
    for (const auto& [steps, frames] : f.steps_histogram)
        hist[std::to_string(steps)] = frames;
    Json engagements = Json::array();
    for (const GuardEngagement& g : f.engagements) {
        if (engagements.size() >= kListedEngagements)
            break;
        engagements.push_back(Json{{"frame", g.frame},
                                   {"time_s", ns_to_s(g.start_ns)},
                                   {"clamp_lost_ms", ns_to_ms(g.clamp_lost_ns)},
                                   {"cap_dropped_ms", ns_to_ms(g.cap_dropped_ns)}});
    }
    // Without a loop configuration in the metadata, nothing that needs dt is invented.
    const std::optional<LoopConfig>& config = r.loop_config;
    Json j{{"policy", config ? Json(std::string(policy_name(config->policy))) : Json()},
           {"dt_ns", config ? Json(config->dt_ns) : Json()},
           {"clamp_ns", config ? Json(config->clamp_ns) : Json()},
           {"max_steps", config ? Json(config->max_steps) : Json()},
           {"timescale", config ? Json(config->timescale) : Json()},
           {"frames", f.frames},
           {"real_s", ns_to_s(f.real_ns)},
           {"sim_s", config ? Json(ns_to_s(f.sim_ns)) : Json()},
           {"steps", f.steps},
           {"max_steps_per_frame", f.max_steps_per_frame},
           {"steps_histogram", std::move(hist)}};
    if (f.has_accumulator) {
        j["accumulator_ms"] =
            Json{{"min", ns_to_ms(f.acc_min_ns)}, {"max", ns_to_ms(f.acc_max_ns)}};
        j["alpha"] = Json{{"mean", f.alpha_mean},
                          {"min", f.alpha_min},
                          {"max", f.alpha_max},
                          {"bins_tenths", f.alpha_bins}};
    }
    j["guards"] = Json{{"clamp_lost_ms", ns_to_ms(f.clamp_lost_ns)},
                       {"cap_dropped_ms", ns_to_ms(f.cap_dropped_ns)},
                       {"clamp_frames", f.clamp_frames},
                       {"cap_frames", f.cap_frames},
                       {"engagements", std::move(engagements)}};
    if (!config) {
        j["spiral"] = nullptr;
        return j;
    }
    j["spiral"] = Json{{"window", f.window},
                       {"threshold_ms", f.spiral_threshold_ns / 1e6},
                       {"has_step_costs", f.has_step_costs},
                       {"mean_step_cost_ms", f.mean_step_cost_ns / 1e6},
                       {"onset_frame", f.onset_frame ? Json(*f.onset_frame) : Json()},
                       {"onset_s", f.onset_ns ? Json(ns_to_s(*f.onset_ns)) : Json()},
                       {"slow_motion_factor", optional_number(f.slow_motion_factor)},
                       {"headroom_ms", optional_number(f.headroom_ns, 1e-6)},
                       {"verdict", loop_verdict_json(f)},
                       {"headroom", loop_headroom_json(f)}};
    return j;
}

// Every keyed figure of the catalogue, null where this capture cannot have it: the same numbers
// `--fail-if` and the viewer see, under the same keys.
Json figures_json(const CaptureReport& r) {
    Json j = Json::object();
    for (const Figure& f : figure_catalogue()) {
        if (f.key.empty())
            continue;
        const FigureValue v = figure_value(r, f.key);
        Json value;  // null: the capture cannot have it (the reason is in the catalogue)
        if (v.has_value()) {
            value = figure_is_count(f) ? Json(static_cast<std::int64_t>(*v)) : Json(*v);
        }
        j[std::string(f.key)] = std::move(value);
    }
    return j;
}

// What the reader found wrong or odd (Capture::data_quality): the bad cells by column and kind,
// each with its first place, and a count for each oddity; every part present, empty when clean.
Json data_quality_json(const DataQuality& q) {
    Json cells = Json::array();
    for (const BadCells& b : q.bad_cells) {
        cells.push_back(Json{
            {"column", b.column},
            {"kind", b.kind},
            {"count", b.count},
            {"treated_as", b.treated_as},
            {"first",
             Json{{"line", b.first_line}, {"column", b.first_column}, {"text", b.first_text}}}});
    }
    Json counts = Json::object();
    for (const DataOddity& o : q.oddities)
        counts[o.kind] = o.count;
    return Json{{"bad_cells", q.bad_cell_count()},
                {"bad_cells_by_column", std::move(cells)},
                {"counts", std::move(counts)},
                {"notes", data_quality_notes(q)}};
}

// The "which 1 % low" table: each tool's meaning, the catalogue keys it maps to and their values
// in FPS (null where the tool has no such figure or the capture cannot have it).
Json which_low_json(const CaptureReport& r) {
    Json rows = Json::array();
    const auto fps = [&](std::string_view key, bool ms) -> Json {
        if (key.empty())
            return Json();
        const FigureValue v = figure_value(r, key);
        if (!v.has_value() || (ms && !(*v > 0)))
            return Json();
        return Json(ms ? 1000.0 / *v : *v);
    };
    for (const LowsRow& row : lows_rows()) {
        rows.push_back(
            Json{{"tool", std::string(row.tool)},
                 {"low1_key", row.low1_key.empty() ? Json() : Json(std::string(row.low1_key))},
                 {"low01_key", row.low01_key.empty() ? Json() : Json(std::string(row.low01_key))},
                 {"low1_fps", fps(row.low1_key, row.keys_are_ms)},
                 {"low01_fps", fps(row.low01_key, row.keys_are_ms)},
                 {"rule", std::string(row.rule)}});
    }
    return rows;
}

// Sampled logs: only what the samples can honestly give.
void add_sampled_json(Json& j, const CaptureReport& r) {
    const FrameStats& s = r.stats;
    const FigureValue duration = figure_value(r, "duration_s");
    j["duration_s"] = duration.has_value() ? Json(*duration) : Json();
    j["frame_time_ms"] = nullptr;
    j["fps"] = nullptr;
    j["stutter"] = nullptr;
    j["variation_buckets"] = nullptr;
    j["refresh"] = nullptr;
    const bool one_frame = r.capture->sample_kind == Capture::SampleKind::latest_frame;
    j["sampled"] =
        Json{{"samples", s.frame_time.frames},
             {"kind", one_frame ? "latest_frame" : "interval_rate"},
             {"basis", figure_definition(*find_figure("samples"), &r)},
             {"mean_frame_time_ms", s.frame_time.mean_ms},
             {"note", one_frame ? "sampled log: each row is one frame's time at the logging "
                                  "instant; per-frame figures cannot be computed"
                                : "sampled log: each row is a polling interval's frame rate; "
                                  "per-frame figures cannot be computed"}};
    j["figures"] = figures_json(r);
    j["which_low"] = which_low_json(r);
}

Json refresh_json(const CaptureReport& r) {
    const RefreshGuess& g = r.stats.refresh;
    const bool fixed = g.state == RefreshGuess::State::fixed;
    return Json{{"state", refresh_state_name(g.state)},
                {"rate_hz", fixed ? Json(g.rate_hz) : Json()},
                {"on_grid_share", fixed ? Json(g.on_grid_share) : Json()},
                {"max_off_grid_share", kRefreshMaxOffGridShare},
                {"also_fits_hz", fixed ? Json(g.also_fits_hz) : Json()},
                {"follows_share", g.follows_share >= 0 ? Json(g.follows_share) : Json()},
                {"tearing_share", g.tearing_share},
                {"direct_share", g.direct_share >= 0 ? Json(g.direct_share) : Json()},
                {"column", r.refresh_column},
                {"reason", refresh_absent_name(g.absent)}};
}

Json display_json(const CaptureReport& r) {
    Json d{{"displayed_frames", r.display.displayed},
           {"dropped_frames", r.display.dropped},
           {"dropped_share", r.display.dropped_share},
           {"between_display_changes_ms", frame_time_json(r.display.between_display_changes)}};
    if (r.display.has_animation_error) {
        d["animation_error_ms"] = Json{{"mean_abs", r.display.animation_error_mean_abs_ms},
                                       {"p99_abs", r.display.animation_error_p99_abs_ms},
                                       {"max_abs", r.display.animation_error_max_abs_ms}};
    }
    return d;
}

Json marked_generation_json(const CaptureReport& r) {
    Json fg{{"marked", true},
            {"detected", true},
            {"verdict", "marked"},
            {"application", cadence_json(r.application)},
            {"generated", cadence_json(r.generated)}};
    if (r.displayed.frames > 0)
        fg["displayed"] = cadence_json(r.displayed);
    return fg;
}

// Without FrameType: detected from per-frame cycles, with the evidence, or not
// detectable; never silence.
Json detected_generation_json(const CaptureReport& r) {
    const GenerationDetection& g = r.generation;
    Json evidence = Json::array();
    for (const GenerationEvidence& e : g.evidence) {
        evidence.push_back(Json{{"column", e.column},
                                {"period_frames", e.period},
                                {"known_frames", e.known_frames},
                                {"covered_frames", e.covered_frames},
                                {"share", e.share},
                                {"cycles", e.cycles},
                                {"longest_cycle_frames", e.longest_cycle_frames},
                                {"peak_mean_ms", e.peak_mean_ms},
                                {"other_mean_ms", e.other_mean_ms},
                                {"on_refresh_grid", e.on_refresh_grid},
                                {"shows_generation", e.shows_generation},
                                {"decisive", e.decisive}});
    }
    Json fg{
        {"marked", false},
        {"detected", g.detected},
        {"possible", g.possible},
        {"verdict", g.detected   ? "detected"
                    : g.possible ? "possible"
                                 : "not detectable from this capture"},
        {"rule", fmt::format("k-peaks (above every value within k-1 frames by 1/{} of their own) "
                             "chained exactly k frames apart over >= {} frames cover >= {:.0f} "
                             "% of a column's known frames",
                             kGenerationContrastDivisor, kGenerationMinRunFrames,
                             kGenerationMinShare * 100.0)},
        {"evidence", std::move(evidence)}};
    if (g.detected && r.application_estimated) {
        Json app = cadence_json(r.application);
        app["estimated"] = true;
        app["period_frames"] = g.period;
        app["timed_frames"] = g.estimated_frames;
        app["timed_share"] = r.stats.frame_time.frames
                                 ? static_cast<double>(g.estimated_frames) /
                                       static_cast<double>(r.stats.frame_time.frames)
                                 : 0.0;
        app["method"] =
            "one present in period_frames is the application's (which one is not known): "
            "intervals between the presents at the peaks of the first evidence column's "
            "cycles, inside the cycles only";
        fg["application"] = std::move(app);
    }
    if (r.displayed.frames > 0)
        fg["displayed"] = cadence_json(r.displayed);
    return fg;
}

Json segments_json(const CaptureReport& r) {
    Json seg;
    if (r.startup.frames > 0) {
        seg["startup"] = Json{{"first_frame", r.series.frame_number.front()},
                              {"last_frame", r.series.frame_number[r.startup.frames - 1]},
                              {"frames", r.startup.frames},
                              {"duration_s", ns_to_s(r.startup.duration_ns)},
                              {"median_ms", r.startup.median_ms},
                              {"reason", r.startup.reason}};
        seg["without_startup"] = Json{{"frames", r.steady.frame_time.frames},
                                      {"duration_s", ns_to_s(r.steady.frame_time.total_ns)},
                                      {"frame_time_ms", frame_time_json(r.steady.frame_time)},
                                      {"fps", fps_json(r.steady.fps)},
                                      {"stutter", stutter_json(r.steady, r)}};
        // The cadences of a frame-generation capture, after the segment as in frame_generation.
        if (r.steady_application.frames > 0)
            seg["without_startup"]["application"] = cadence_json(r.steady_application);
        if (r.steady_displayed.frames > 0)
            seg["without_startup"]["displayed"] = cadence_json(r.steady_displayed);
    } else {
        seg["startup"] = nullptr;
    }
    return seg;
}

Json estimated_figures_json(const CaptureReport& r) {
    // Figures estimated rather than measured (the application cadence of frame generation
    // detected without FrameType): named, so a value in `figures` is never taken for measured.
    Json estimated = Json::array();
    if (r.application_estimated) {
        for (const Figure& f : figure_catalogue()) {
            if (!f.key.empty() && (f.needs & kNeedsApplicationCadence))
                estimated.push_back(std::string(f.key));
        }
    }
    return estimated;
}

// The verdict (core/verdict.hpp): what it says and the numbers it says it from; a number the
// capture cannot have is left out, and its line says why.
Json verdict_json(const CaptureReport& r) {
    const CaptureVerdict v = capture_verdict(r);
    Json j{{"smoothness", smoothness_name(v.smoothness)}};
    if (v.hitch_count)
        j["hitch_count"] = *v.hitch_count;
    if (v.stutter_time_share) {
        j["stutter_time_share"] = *v.stutter_time_share;
        j["stutter_cadence"] = v.stutter_cadence;
    }
    if (v.average_fps)
        j["average_fps"] = *v.average_fps;
    if (v.low1_fps)
        j["low1_fps"] = *v.low1_fps;
    Json hitches = Json::array();
    for (const VerdictHitchRow& row : verdict_hitch_rows(r, v)) {
        hitches.push_back(Json{{"frame", row.frame},
                               {"time_s", row.time_s},
                               {"length_ms", row.length_ms},
                               {"cause", row.cause}});
    }
    for (std::size_t k = 0; k < hitches.size(); ++k)
        hitches[k]["cause_kind"] = v.longest_hitches[k].cause_kind;
    j["longest_hitches"] = std::move(hitches);
    Json lines = Json::array();
    for (const VerdictLine& line : v.lines) {
        lines.push_back(Json{{"key", line.key},
                             {"label", line.label},
                             {"text", line.text},
                             {"evidence", line.evidence},
                             {"available", line.available}});
    }
    j["lines"] = std::move(lines);
    return j;
}

Json capture_json(const CaptureReport& r) {
    const CaptureSource& src = r.capture->source;
    const FrameStats& s = r.stats;
    Json j;
    j["source"] = Json{{"format", src.format},
                       {"file", src.file},
                       {"process", src.process},
                       {"process_id", src.process_id},
                       {"swap_chain", src.swap_chain}};
    // t = 0 of every time in the report, on the capture's own clock (docs/reports.md, Times).
    j["source"]["clock_origin_s"] = ns_to_s(r.capture->clock_origin_ns);
    j["per_frame"] = r.capture->per_frame;
    j["verdict"] = verdict_json(r);
    if (const auto system = system_lines(r); !system.empty()) {
        Json sys = Json::object();
        for (const auto& [name, value] : system)
            sys[name] = value;
        j["system"] = std::move(sys);
    }
    j["notes"] = capture_notes(r);
    j["data_quality"] = data_quality_json(r.capture->data_quality);
    j["timeline"] = timeline_name(r.timeline);
    j["timeline_label"] = timeline_label(r);
    j["frame_time_column"] = r.frame_time_column;
    j["range"] = Json{{"first_frame", r.range.begin}, {"last_frame", r.range.end - 1}};
    j["frames"] = s.frame_time.frames;
    if (!r.capture->per_frame) {
        add_sampled_json(j, r);
        return j;
    }
    j["duration_s"] = ns_to_s(s.frame_time.total_ns);
    j["frame_time_ms"] = frame_time_json(s.frame_time);
    // Frames of 0 ms in all have no frame rate (data_quality says so), not 0 FPS.
    j["fps"] = s.frame_time.total_ns > 0 ? fps_json(s.fps) : Json(nullptr);
    j["stutter"] = stutter_json(s, r);
    j["variation_buckets"] = variation_json(s.variation);
    j["refresh"] = refresh_json(r);
    if (r.timeline == Timeline::display)
        j["dropped_frames_left_out"] = r.dropped_in_range;
    if (r.display.available)
        j["display"] = display_json(r);
    if (r.has_generated)
        j["frame_generation"] = marked_generation_json(r);
    else if (r.generation_examinable)
        j["frame_generation"] = detected_generation_json(r);
    j["segments"] = segments_json(r);
    if (r.loop_figures)
        j["loop"] = loop_json(r);
    j["figures"] = figures_json(r);
    j["which_low"] = which_low_json(r);
    j["estimated_figures"] = estimated_figures_json(r);
    return j;
}

Json comparison_json(const Comparison& c) {
    Json figures = Json::object();
    const auto add = [&](const FigureDifference& d) {
        figures[d.name] = Json{{"a", d.a},
                               {"b", d.b},
                               {"difference", d.difference},
                               {"ci95_low", d.has_interval ? Json(d.low) : Json(nullptr)},
                               {"ci95_high", d.has_interval ? Json(d.high) : Json(nullptr)},
                               {"significant", d.significant},
                               {"verdict", verdict_name(d.verdict)}};
    };
    for (const FigureDifference& d : c.context)
        add(d);
    for (const FigureDifference& d : c.figures)
        add(d);
    // A figure left out is null with its reason, as in a capture's "figures".
    Json absent = Json::object();
    for (const AbsentDifference& d : c.absent) {
        figures[d.name] = nullptr;
        absent[d.name] = d.reason;
    }
    Json j{{"timeline", compared_timeline_name(c.timeline)},
           {"timeline_reason", c.timeline_reason},
           {"method",
            "non-overlapping block bootstrap of B - A (end blocks weighted as the moving-block "
            "bootstrap weighs them), 95 % percentile interval"},
           {"resamples", c.resamples},
           {"block_frames_a", c.block_a},
           {"block_frames_b", c.block_b},
           {"paired", c.paired}};
    j["seed"] = c.seed;
    const ComparisonVerdict v = comparison_verdict(c);
    Json headline = Json::array();
    for (const FigureDifference* d : v.headline)
        headline.push_back(d->name);
    j["verdict"] = Json{{"outcome", comparison_outcome_name(v.outcome)},
                        {"compared", v.compared},
                        {"better", v.better},
                        {"worse", v.worse},
                        {"no_significant_change", v.no_significant_change},
                        {"changed", v.changed},
                        {"headline", std::move(headline)}};
    j["figures"] = std::move(figures);
    j["absent"] = std::move(absent);
    return j;
}

class JsonWriter final : public ReportWriter {
  public:
    void write(const Report& report, OutputFile& out) const override {
        // The schema's version: 2 gives each hitch its cause (which replaced `bound`).
        Json j{{"schema", "loopscope-report/2"}};
        if (report.captures.size() == 1) {
            j.update(capture_json(report.captures.front()));
        } else {
            Json list = Json::array();
            for (const CaptureReport& r : report.captures)
                list.push_back(capture_json(r));
            j["captures"] = std::move(list);
        }
        if (report.comparison)
            j["comparison"] = comparison_json(*report.comparison);
        std::string text;
        try {
            text = j.dump(2);
        } catch (const nlohmann::json::type_error&) {
            // A process name, a metadata value or the file name that is not UTF-8: JSON must
            // be, so the bad bytes become U+FFFD, and the notes say so.
            const std::string note =
                "Some text in this report (a process name, trace metadata or a file name) was "
                "not valid UTF-8; its invalid bytes are written as U+FFFD.";
            Json& notes = j.contains("captures") ? j["captures"][0]["notes"] : j["notes"];
            if (notes.is_array())
                notes.push_back(note);
            text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
        }
        out.write(text);
        out.write("\n");
    }
};

}  // namespace

std::unique_ptr<ReportWriter> make_json_writer() {
    return std::make_unique<JsonWriter>();
}

}  // namespace loopscope
