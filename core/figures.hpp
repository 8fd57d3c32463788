// The catalogue of figures: every figure a report can show is declared once (figures_*.cpp, a
// family from one table), with its key, label, unit, section, definition, the column it is
// computed from and when a capture can have it. The terminal, Markdown, HTML and JSON writers,
// the gates, the comparison and the viewer's statistics table all iterate this list, so they show
// the same figures with the same definitions, and a figure a capture cannot have is absent from
// all of them, with the reason.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis.hpp"
#include "core/ascending.hpp"
#include "core/hitch_cause.hpp"

namespace loopscope {

// What a capture must have for a figure to exist; a figure's `needs` is a set of these bits.
enum FigureNeed : unsigned {
    kNeedsFrames = 1u << 0,             // one row per frame (not a sampled log)
    kNeedsSamples = 1u << 1,            // a sampled log (what its samples honestly give)
    kNeedsDisplayColumn = 1u << 2,      // display-change times
    kNeedsAnimationError = 1u << 3,     // PresentMon's AnimationError column
    kNeedsGeneratedFrames = 1u << 4,    // generated frames marked in the range (present timeline)
    kNeedsRefreshGrid = 1u << 5,        // a fixed refresh with its rate was detected
    kNeedsLoopRecords = 1u << 6,        // the loop columns of a loopscope trace
    kNeedsAccumulator = 1u << 7,        // an accumulator policy (or accumulator columns)
    kNeedsLoopConfiguration = 1u << 8,  // a loop configuration in the trace's metadata
    kNeedsStartupSegment = 1u << 9,     // a start-up segment was found
    // the displayed frames' cadence: generated frames marked or detected, display-change times
    kNeedsDisplayedCadence = 1u << 10,
    kNeedsDetectedGeneration = 1u << 11,  // no FrameType, but frame generation's cycles seen
    // the application frames' cadence: marked (FrameType), estimated from detected cycles, or
    // the application's frame-start column of the PresentMon 2.x layouts (FrameTime,
    // MsBetweenAppStart)
    kNeedsApplicationCadence = 1u << 12,
    // a capture where frame generation can only be detected (no FrameType), detected or not
    kNeedsGenerationExamined = 1u << 13,
    // single frames: a row per frame, or a log sampling one frame a row (MangoHud), not a
    // polling interval's rate (MSI Afterburner)
    kNeedsSingleFrames = 1u << 14,
    kNeedsLast = kNeedsSingleFrames,
};

// Where a figure's definition names its source column ("{}" in `definition`).
enum class FigureColumn { none, frame_time, display };

// The cadence a frame-generation figure is of (CaptureReport::application / ::displayed).
enum class Cadence { none, application, displayed };

// Which way a change of a figure is an improvement (the regression gate against history).
enum class Better { unknown, lower, higher };

struct Figure {
    // Stable name for the gates, the comparison and the JSON "figures" object; empty for a row
    // of the human-readable summary that has no single number (a histogram, a list).
    std::string_view key = {};
    Better better = Better::unknown;
    std::string_view section = {};  // summary section: "Frame time", "FPS", ...
    // Summary label; empty when the figure has no row of its own (its value is printed in the
    // row before it, as the share of stutter time is in the stutter row).
    std::string_view label = {};
    std::string_view unit = {};
    // What the figure is; "{}" stands for the source column when `column` is not none.
    std::string_view definition = {};
    FigureColumn column = FigureColumn::none;
    unsigned needs = 0;
    // The number, for keyed figures; nullopt when the capture has what `needs` asks but the
    // figure still has no value (no spiral onset, hence no slow-motion factor): then `absent`
    // says why.
    std::optional<double> (*value)(const CaptureReport&) = nullptr;
    // The number from frame statistics alone, for the figures a bootstrap resample can recompute
    // (the comparison); `compared` selects those the comparison shows.
    std::optional<double> (*frame_value)(const FrameStats&) = nullptr;
    bool compared = false;
    // For a figure of another per-frame column (a latency, where the time went): the column's
    // values over the range in frame order, and the figure from any set of them in ascending
    // order, so that the comparison resamples the column in blocks as it resamples the frame
    // times (`compared` as above; the figure's own number is still `value`).
    std::vector<std::int64_t> (*column_values)(const CaptureReport&) = nullptr;
    std::optional<double> (*column_value)(const AscendingValues&) = nullptr;
    // Why two captures' values of the figure are not alike although each has one (their frames
    // classified by different rules), so that the comparison leaves it out; nullopt: alike.
    std::optional<std::string> (*unlike)(const CaptureReport& a, const CaptureReport& b) = nullptr;
    // For a figure of one cadence: which, and its number from that cadence's figures alone, so
    // the comparison recomputes it on resampled intervals of the cadence (`compared` as above).
    Cadence cadence = Cadence::none;
    std::optional<double> (*cadence_value)(const CadenceFigures&) = nullptr;
    // The summary cell as text, for figures with a label.
    std::string (*text)(const CaptureReport&) = nullptr;
    // The summary definition when it depends on more than the column (a window length, a
    // detector's outcome); otherwise `definition` with the column filled in.
    std::string (*describe)(const CaptureReport&) = nullptr;
    std::string_view absent = {};
    // Why this capture cannot have the figure, where that depends on which columns it has (a
    // latency column, busy and wait columns); checked after `needs`. nullopt: it can.
    std::optional<std::string> (*missing)(const CaptureReport&) = nullptr;
};

// Every figure, in summary order within each section; sections appear in the order of their
// first figure.
std::span<const Figure> figure_catalogue();
const Figure* find_figure(std::string_view key);  // nullptr for an unknown key
std::string figure_keys();                        // "frames, duration_s, ..." for error messages
// "unknown figure 'K'", with the keys that replace K where K is an older name, then the keys.
std::string unknown_figure_text(std::string_view key);

// The figure's definition for this report (its column named), or in general words without one.
std::string figure_definition(const Figure& figure, const CaptureReport* report = nullptr);

// The figures that have a summary row (a label), grouped by section in catalogue order: the
// order of the terminal, Markdown and HTML summaries and of the viewer's table.
std::vector<const Figure*> summary_figures();

// Why this capture cannot have the figure ("MangoHud rows are 100 ms samples, not frames"), or
// nullopt when it can.
std::optional<std::string> figure_missing(const Figure& figure, const CaptureReport& report);
// The same as a sentence naming the figure: "avg_fps is not available: MangoHud rows are 100 ms
// samples, not frames".
std::optional<std::string> figure_unavailable(const Figure& figure, const CaptureReport& report);

// A figure's value, or the reason it has none.
struct FigureValue {
    std::optional<double> number;
    std::string reason;  // set when number is not
    bool has_value() const { return number.has_value(); }
    double operator*() const { return *number; }
};
// Throws UsageError for an unknown key (listing the valid ones).
FigureValue figure_value(const CaptureReport& report, std::string_view key);

// Each Unreal hitch's cause (core/hitch_cause.hpp), in hitch order, and the part kind that holds
// the most of the hitches' time ("" without hitches): a folder summary's dominant hitch cause.
std::vector<HitchCause> report_hitch_causes(const CaptureReport& report);
std::string dominant_hitch_cause(const CaptureReport& report);

// The figure's direction: its `better`, else by unit for an entry that states none (FPS: higher,
// ms: lower), else unknown (frames, a refresh rate: neither way is better).
Better figure_better(const Figure& figure);

// Whether the figure counts things (frames, samples, steps, a refresh rate in whole hertz).
bool figure_is_count(const Figure& figure);

// Number formatting shared by the text writers and the comparison: counts without decimals,
// shares to four places, the rest to three.
std::string format_figure(std::string_view key, double value);

}  // namespace loopscope
