// The figure catalogue (see figures.hpp): the families joined in summary order, the rule for
// when a capture has a figure, and the reasons given when it does not. Each family is declared in
// its own file (figures_frames, _latency, _generation, _loop, _tools.cpp); where a family repeats
// one shape (a latency kind's statistics, each tool's figures, the threshold counts, the
// cadences) it is a table, a row a figure with its key written out, and docs/reports.md lists
// every key ("Every figure key", checked against this catalogue by a test).
#include "core/figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "common/errors.hpp"
#include "core/bottleneck.hpp"
#include "core/figure_parts.hpp"
#include "core/hitch_cause.hpp"
#include "core/latency.hpp"
#include "core/near_name.hpp"
#include "core/percentile.hpp"
#include "core/tool_figures.hpp"
#include "core/units.hpp"

namespace loopscope {

using namespace figure_parts;

namespace {

// The catalogue: each family's entries, in the order the summaries show them.
const std::vector<Figure>& catalogue() {
    static const std::vector<Figure> all = [] {
        std::vector<Figure> v;
        for (const std::span<const Figure> family :
             {frame_figures(), column_figures(), generation_figures(), loop_family(),
              steady_figures(), sample_figures(), tool_figures(), sampled_percentile_figures()})
            v.insert(v.end(), family.begin(), family.end());
        return v;
    }();
    return all;
}

// "MangoHud" rather than the reader's format name, so reasons read as a user names the tool.
std::string format_display_name(const Capture& c) {
    if (!c.description.tool_name.empty())
        return std::string(c.description.tool_name);
    return c.source.format;
}

// "100 ms samples": the median spacing of the samples' start times, when the log has them.
std::string sample_spacing(const Capture& c) {
    if (c.start_ns.size() < 2)
        return "interval-average samples";
    std::vector<std::int64_t> gaps;
    gaps.reserve(c.start_ns.size() - 1);
    for (std::size_t i = 1; i < c.start_ns.size(); ++i)
        gaps.push_back(c.start_ns[i] - c.start_ns[i - 1]);
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2),
                     gaps.end());
    // Whole milliseconds: the log interval is a setting (100 ms by default) that the samples'
    // timestamps only approximate.
    return fmt::format("{:.0f} ms samples", ns_to_ms(gaps[gaps.size() / 2]));
}

std::string capture_name(const CaptureReport& r) {
    return fmt::format("'{}' ({})", r.capture->source.file, r.capture->source.format);
}

// Why neither marked nor detected frame generation splits the cadences, with the evidence.
std::string generation_absence(const CaptureReport& r) {
    if (r.timeline == Timeline::display)
        return "the display timeline does not split generated frames";
    if (r.capture->generated.size() == r.capture->frames())
        return "no generated frames among the frames analysed";
    if (r.loop_figures)
        return "a loopscope trace records the game's own loop, which never sees the frames a "
               "driver generates";
    return "no generated frames marked (no FrameType column) and frame generation " +
           generation_verdict(r);
}

std::string need_reason(FigureNeed need, const CaptureReport& r) {
    const Capture& c = *r.capture;
    switch (need) {
        case kNeedsFrames:
            return fmt::format("{} rows are {}, not frames", format_display_name(c),
                               sample_spacing(c));
        case kNeedsSamples:
            return fmt::format("{} has a row per frame, not interval samples", capture_name(r));
        case kNeedsDisplayColumn:
            return fmt::format("{} has no display-change column", capture_name(r));
        case kNeedsAnimationError:
            return fmt::format("{} has no AnimationError column", capture_name(r));
        case kNeedsGeneratedFrames:
            if (r.timeline == Timeline::display)
                return "the display timeline does not split generated frames";
            if (c.generated.size() != c.frames())
                return fmt::format("{} does not mark generated frames (no FrameType column)",
                                   capture_name(r));
            return "no generated frames among the frames analysed";
        case kNeedsRefreshGrid:
            return refresh_absence(r);
        case kNeedsLoopRecords:
            return fmt::format("{} has no loop columns (only loopscope traces do)",
                               capture_name(r));
        case kNeedsAccumulator:
            return r.loop_config ? fmt::format("the {} policy has no accumulator",
                                               policy_name(r.loop_config->policy))
                                 : std::string("the trace's accumulator columns are all 0");
        case kNeedsLoopConfiguration:
            return fmt::format(
                "the metadata of '{}' names no loop configuration (policy and dt_ns)",
                c.source.file);
        case kNeedsStartupSegment:
            return "no start-up segment was found";
        case kNeedsDisplayedCadence:
            if (!r.has_generated && !r.generation.detected)
                return generation_absence(r);
            return fmt::format("{} has no display-change column", capture_name(r));
        case kNeedsDetectedGeneration:
        case kNeedsGenerationExamined:
            if (r.has_generated || c.generated.size() == c.frames())
                return "the capture has a FrameType column: generated frames are marked there, not "
                       "detected";
            return generation_absence(r);
        case kNeedsSingleFrames:
            return fmt::format(
                "{} rows are {}, each a rate over an interval, not the time of one "
                "frame",
                format_display_name(c), sample_spacing(c));
        case kNeedsApplicationCadence:
            if (r.timeline == Timeline::display)
                return "the display timeline does not split the application's frames";
            if (c.generated.size() == c.frames())
                return "no generated frames among the frames analysed";
            if (!c.description.application_cadence_absent_reason.empty())
                return std::string(c.description.application_cadence_absent_reason) + "; " +
                       generation_absence(r);
            return fmt::format(
                "{} has no application frame-start column (PresentMon 2.x FrameTime "
                "or MsBetweenAppStart); {}",
                capture_name(r), generation_absence(r));
    }
    return "not available";
}

bool has(FigureNeed need, const CaptureReport& r) {
    const Capture& c = *r.capture;
    switch (need) {
        case kNeedsFrames:
            return c.per_frame;
        case kNeedsSamples:
            return !c.per_frame;
        case kNeedsDisplayColumn:
            return r.display.available;
        case kNeedsAnimationError:
            return r.display.has_animation_error;
        case kNeedsGeneratedFrames:
            return r.has_generated;
        case kNeedsRefreshGrid:
            return r.stats.refresh.state == RefreshGuess::State::fixed;
        case kNeedsLoopRecords:
            return r.loop_figures.has_value();
        case kNeedsAccumulator:
            return r.loop_figures && r.loop_figures->has_accumulator;
        case kNeedsLoopConfiguration:
            return r.loop_config.has_value();
        case kNeedsStartupSegment:
            return r.startup.frames > 0;
        case kNeedsDisplayedCadence:
            return r.displayed.frames > 0;
        case kNeedsDetectedGeneration:
            return r.generation.detected;
        case kNeedsApplicationCadence:
            // marked, estimated, or the application's own frame-start column (2.x layouts)
            return r.has_generated || r.application_estimated || r.application.frames > 0;
        case kNeedsGenerationExamined:
            return r.generation_examinable && !r.has_generated;
        case kNeedsSingleFrames:
            return c.per_frame || c.sample_kind == Capture::SampleKind::latest_frame;
    }
    return false;
}

}  // namespace

std::span<const Figure> figure_catalogue() {
    return catalogue();
}

const Figure* find_figure(std::string_view key) {
    if (key.empty())
        return nullptr;
    for (const Figure& f : catalogue()) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}

namespace {

// Keys that named more than one rule, and what replaced them (docs/reports.md, "Renamed keys").
struct RenamedKey {
    std::string_view old_key;
    std::string_view replaced_by;
};
constexpr RenamedKey kRenamedKeys[] = {
    {"stutter_count",
     "stutter_time_frames (the time rule's frames) or stutter_count_frames (the "
     "count rule's frames)"},
    {"stutter_share", "stutter_time_share"},
    {"app_stutter_share", "app_stutter_time_share"},
    {"displayed_stutter_share", "displayed_stutter_time_share"},
};

}  // namespace

std::string unknown_figure_text(std::string_view key) {
    for (const RenamedKey& r : kRenamedKeys) {
        if (r.old_key == key)
            return fmt::format("figure '{}' was renamed: use {}", key, r.replaced_by);
    }
    std::vector<std::string_view> keys;
    for (const Figure& f : catalogue()) {
        if (!f.key.empty())
            keys.push_back(f.key);
    }
    // A likely meant name, as the options' messages give, instead of every name.
    if (const auto meant = likely_meant_name(key, keys))
        return fmt::format("unknown figure '{}' (did you mean '{}'?)", key, *meant);
    return fmt::format("unknown figure '{}'; valid figures: {}", key, figure_keys());
}

std::string figure_keys() {
    std::string out;
    for (const Figure& f : catalogue()) {
        if (f.key.empty())
            continue;
        if (!out.empty())
            out += ", ";
        out += f.key;
    }
    return out;
}

std::string figure_definition(const Figure& f, const CaptureReport* r) {
    if (r && f.describe)
        return f.describe(*r);
    if (f.column == FigureColumn::none)
        return std::string(f.definition);
    std::string column;
    if (!r) {
        column = f.column == FigureColumn::display ? "the display-change column"
                                                   : "the frame-time column";
    } else if (f.column == FigureColumn::display && r->timeline == Timeline::present) {
        column = r->refresh_column;  // the display column where the capture has one
    } else {
        column = r->frame_time_column;
    }
    return fmt::format(fmt::runtime(f.definition), column);
}

std::vector<const Figure*> summary_figures() {
    std::vector<std::string_view> sections;  // in the order of their first figure
    for (const Figure& f : catalogue()) {
        if (std::find(sections.begin(), sections.end(), f.section) == sections.end())
            sections.push_back(f.section);
    }
    std::vector<const Figure*> out;
    for (const std::string_view section : sections) {
        for (const Figure& f : catalogue()) {
            if (f.section == section && !f.label.empty())
                out.push_back(&f);
        }
    }
    return out;
}

std::optional<std::string> figure_missing(const Figure& f, const CaptureReport& r) {
    for (unsigned bit = 1; bit <= kNeedsLast; bit <<= 1) {
        const auto need = static_cast<FigureNeed>(bit);
        if ((f.needs & bit) && !has(need, r))
            return need_reason(need, r);
    }
    // Frames of 0 ms in all (a capture whose every frame time is 0) have no frame rate.
    if (f.unit == "FPS" && r.stats.frame_time.frames > 0 && r.stats.frame_time.total_ns == 0)
        return std::string("every frame time is 0: no frame rate");
    if (f.missing) {
        if (auto why = f.missing(r))
            return why;
    }
    if (f.value && !f.value(r))
        return std::string(f.absent);
    return std::nullopt;
}

std::optional<std::string> figure_unavailable(const Figure& f, const CaptureReport& r) {
    auto missing = figure_missing(f, r);
    if (!missing)
        return std::nullopt;
    return fmt::format("{} is not available: {}", f.key.empty() ? f.label : f.key, *missing);
}

FigureValue figure_value(const CaptureReport& r, std::string_view key) {
    const Figure* f = find_figure(key);
    if (!f) {
        throw UsageError(fmt::format("unknown figure '{}'; valid figures: {}", key, figure_keys()));
    }
    FigureValue v;
    if (auto why = figure_unavailable(*f, r)) {
        v.reason = std::move(*why);
        return v;
    }
    v.number = f->value(r);
    return v;
}

std::vector<HitchCause> report_hitch_causes(const CaptureReport& r) {
    return hitch_causes(r);
}

std::string dominant_hitch_cause(const CaptureReport& r) {
    const std::vector<HitchCause>& causes = hitch_causes(r);
    std::string best;
    std::int64_t best_ns = 0;
    for (const char* kind : kPartKinds) {
        std::int64_t ns = 0;
        for (const HitchCause& cause : causes)
            ns += kind_ns(cause, kind);
        if (ns > best_ns)
            best = kind, best_ns = ns;
    }
    return best;
}

bool figure_is_count(const Figure& f) {
    return f.unit == "frames" || f.unit == "Hz" || f.unit == "samples" || f.unit == "steps";
}

Better figure_better(const Figure& figure) {
    if (figure.better != Better::unknown)
        return figure.better;
    if (figure.unit == "FPS")
        return Better::higher;
    if (figure.unit == "ms")
        return Better::lower;
    return Better::unknown;
}

std::string format_figure(std::string_view key, double value) {
    const Figure* f = find_figure(key);
    if (f && figure_is_count(*f))
        return fmt::format("{:.0f}", value);
    if (f && f->unit.empty())
        return fmt::format("{:.4f}", value);  // shares and ratios
    return fmt::format("{:.3f}", value);
}

}  // namespace loopscope
