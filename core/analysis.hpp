// The computed report that every writer renders: for each capture, the frames analysed (the
// chosen timeline and range), every statistic over them, the start-up segment and the figures
// without it, the display side and the application / generated split; for two captures, the
// comparison. Writers format this and compute nothing of their own.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/errors.hpp"
#include "core/bottleneck.hpp"
#include "core/capture.hpp"
#include "core/frame_stats.hpp"
#include "core/hitch_cause.hpp"
#include "core/latency.hpp"
#include "core/loop_figures.hpp"
#include "core/segments.hpp"
#include "core/tool_figures.hpp"

namespace loopscope {

enum class Timeline { present, display };

struct AnalysisOptions {
    Timeline timeline = Timeline::present;
    RangeBound from;
    RangeBound to;
    // Threads for the figures (0: one per hardware thread). With two or more, a series of
    // kFramesForSecondThread frames or more has the figures that need no sorting computed on a
    // second thread while this one sorts; the report is the same.
    unsigned threads = 0;
    // The frame rate Unreal's missed-vsync percentage is judged against (the caller's target);
    // none: the detected fixed refresh rate, if any.
    std::optional<double> target_fps;
};

// Each frame's index in the capture, for the frames of a series: a run of consecutive numbers
// (kept as its first number and length) or, where frames were left out, a list.
class FrameNumbers {
  public:
    FrameNumbers() = default;
    FrameNumbers(std::int64_t first, std::size_t count) : first_(first), count_(count) {}
    explicit FrameNumbers(std::span<const std::int64_t> listed)
        : listed_(listed), count_(listed.size()), is_listed_(true) {}

    std::int64_t operator[](std::size_t i) const {
        return is_listed_ ? listed_[i] : first_ + static_cast<std::int64_t>(i);
    }
    std::size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    std::int64_t front() const { return (*this)[0]; }
    std::int64_t back() const { return (*this)[count_ - 1]; }

  private:
    std::int64_t first_ = 0;
    std::span<const std::int64_t> listed_;
    std::size_t count_ = 0;
    bool is_listed_ = false;
};

// The frames a report analyses, in capture order. Where they are a run of consecutive capture
// frames (the present timeline of most captures, a trace without its frame 0) the series views
// the capture's own arrays: at 10 M frames a copy took 240 MB. Otherwise (the display timeline
// leaves undisplayed frames out) it views copies it shares with every copy of the report.
struct Series {
    std::span<const std::int64_t> frame_ns;
    FrameNumbers frame_number;               // each frame's index in the capture
    std::span<const std::int64_t> start_ns;  // each frame's start, t = 0 at the first row
    std::shared_ptr<const void> copies;      // what the views point into when not the capture
};

// Steps of CaptureReport::percentile_curve_ms between percentile 0 and 100.
inline constexpr int kPercentileCurveSteps = 400;
// CaptureReport::tail_curve_ms: steps of the "nines" n from 0 to kTailCurveNines (p99.99).
inline constexpr int kTailCurveSteps = 240;
inline constexpr double kTailCurveNines = 4.0;

struct CaptureReport {
    // Outlives the report and is not changed while the report is read: the series and the loop
    // records are views of its arrays.
    const Capture* capture = nullptr;
    Timeline timeline = Timeline::present;
    std::string frame_time_column;     // the column the frame times came from
    FrameRange range;                  // capture frames selected by the range's bounds
    Series series;                     // frames on the chosen timeline within the range
    std::size_t dropped_in_range = 0;  // display timeline: frames never displayed, left out
    // Present timeline of a PresentMon 2.x capture: generated frames, whose FrameTime is 0 and
    // not a frame time, left out of the series and counted here.
    std::size_t generated_without_frame_time = 0;

    FrameStats stats;  // all frames of the series
    // The frame time at percentiles 0, 100/kPercentileCurveSteps, ..., 100 of the series
    // (percentile_sorted, the figures' interpolation), in ms: the plotted percentile curve, taken
    // from the sorted copy the figures are computed on rather than from a second sort.
    std::vector<double> percentile_curve_ms;
    // The frame time at percentile 1 - 10^-n for n = 0, kTailCurveNines / kTailCurveSteps, ...,
    // kTailCurveNines (p0 to p99.99), in ms, as percentile_curve_ms: the tail drawn on a
    // "nines" axis, where the even steps of percentile_curve_ms are too coarse.
    std::vector<double> tail_curve_ms;
    std::string refresh_column;  // the frame times the refresh rate was detected on
    StartupSegment startup;
    FrameStats steady;  // without the start-up segment (only when startup.frames > 0)

    DisplayFigures display;  // over the range, whatever the timeline
    // Present timeline: the capture marks generated frames (FrameType) in the range, so the
    // present timeline mixes two cadences; each is also given on its own.
    bool has_generated = false;
    CadenceFigures application, generated;
    // Present timeline of a per-frame capture that does not mark generated frames (not a
    // loopscope trace): whether its per-frame columns show frame generation's cycles (the
    // evidence is kept either way). Without it, frame generation is not detectable.
    bool generation_examinable = false;
    GenerationDetection generation;
    // True when `application` (and application_intervals_ns) is estimated from the cycles of
    // detected frame generation rather than from marked frames.
    bool application_estimated = false;
    // The displayed frames' cadence, when generated frames are marked or detected and the
    // capture has display-change times (frames = 0 otherwise).
    CadenceFigures displayed;
    // The intervals the application and displayed cadences summarise, in order (empty when the
    // cadence is not given): the comparison resamples them.
    std::vector<std::int64_t> application_intervals_ns, displayed_intervals_ns;
    // The same two cadences without the start-up segment (frames = 0 when there is no segment
    // or no such cadence).
    CadenceFigures steady_application, steady_displayed;

    // The capture's own latency columns over the range (core/latency.hpp), whatever the
    // timeline; and where each frame's time went (core/bottleneck.hpp), over the range and
    // without the start-up segment (steady_bottleneck; classified = 0 without a segment).
    LatencyFigures latency;
    BottleneckShares bottleneck, steady_bottleneck;
    std::optional<double> target_fps;  // AnalysisOptions::target_fps
    // CapFrameX's FPS-threshold counts of the series (kCapFrameXFpsThresholds), counted once for
    // the ten figures and the row that show them.
    std::array<std::size_t, kCapFrameXFpsThresholds.size()> fps_threshold_counts{};

    std::span<const FrameRecord> loop;  // loop records of the range (loopscope traces)
    // The loop configuration the trace's metadata states (policy, dt_ns, clamp_ns, max_steps,
    // timescale); none when it does not name its policy and dt.
    std::optional<LoopConfig> loop_config;
    // The cause of each of stats' hitches (report_hitch_cause below), in hitch order: worked out
    // once for every figure, summary and writer that shows them.
    std::vector<HitchCause> hitch_causes;
    // The loop figures of those records (core/loop_figures.hpp). Without a loop configuration
    // only those of the recorded columns mean anything (steps, accumulator, alpha, guards): the
    // spiral, simulated time and headroom need dt and are left to the catalogue to leave out.
    std::optional<LoopFigures> loop_figures;
};

// Why one of the report's hitches (of `stats` or `steady`) took as long as it did
// (core/hitch_cause.hpp), on the report's timeline; a hitch whose frame number is unknown gets an
// unexplained cause.
HitchCause report_hitch_cause(const CaptureReport& report, const Hitch& hitch);

// The loop configuration a trace's `# key: value` metadata states, or nullopt when it names no
// policy or no dt_ns (nothing is invented: clamp_ns, max_steps and timescale take the engine's
// defaults when missing). Throws InputError naming the file and the key for a value that does
// not parse. The report and the viewer both read the configuration through this.
std::optional<LoopConfig> loop_config_from_metadata(const Capture& capture);

// Whether a metadata key is one of the loop configuration's (policy, dt_ns, clamp_ns, max_steps,
// timescale).
bool is_loop_metadata_key(std::string_view key);

// What is wrong with one loop metadata value (`policy`, `dt_ns`, `clamp_ns`, `max_steps`,
// `timescale`), as "expected ..." text, or nullopt when it is valid or the key is not a loop
// key. The trace reader checks each line with it, so that an error names its line and column.
std::optional<std::string> loop_metadata_problem(const std::string& key, const std::string& value);

// The guard engagements a report lists (the first ones; their counts stay exact): a loop held by
// its guards engages on every frame, and a list of them all would grow with the trace.
inline constexpr std::size_t kListedEngagements = 1000;

// The loop figures a report gives a loopscope trace, computed one record at a time: with the
// loop configuration the trace's metadata states, or without one from the recorded columns
// alone, as an accumulator policy when any accumulator column is not 0 and a variable one
// otherwise (both are computed, since that is known only after the last record). analyse_capture
// feeds it the kept records of the range; the trace reader feeds it every row instead of keeping
// the records when asked to (Capture::loop_figures), so the two give the same figures.
class TraceLoopFigures {
  public:
    explicit TraceLoopFigures(const std::optional<LoopConfig>& config);
    void add(const FrameRecord& r);
    LoopFigures figures() const;

  private:
    std::optional<LoopFiguresBuilder> configured_, fixed_, variable_;
    bool accumulator_ = false;  // some record has an accumulator column that is not 0
    // LoopFigures::hitch_records: the rows around each hitch, and the row before this one.
    std::vector<std::pair<std::int64_t, FrameRecord>> hitch_records_;
    FrameRecord previous_{};
    std::int64_t rows_ = 0;
};

// analyse_capture's error when the display timeline is asked of a capture without display-change
// times: the capture's file and format name, for the caller to word.
class NoDisplayTimesError : public UsageError {
  public:
    NoDisplayTimesError(std::string file, std::string format);
    const std::string& file() const { return file_; }
    const std::string& format() const { return format_; }

  private:
    std::string file_;
    std::string format_;
};

// Throws EmptyRangeError when the options select no frames, NoDisplayTimesError when the
// capture lacks the display timeline, UsageError when no frame in the range has a time. A
// capture whose loop figures were computed while reading (Capture::loop_figures, no records)
// can only be analysed over all its frames: std::logic_error for a range.
CaptureReport analyse_capture(const Capture& capture, const AnalysisOptions& options);

// Two captures side by side: each figure of B minus A with a 95 % interval from a block
// bootstrap (blocks of consecutive frames, since frame times are autocorrelated).
// What a comparison says of one figure: `better` or `worse` when the interval excludes 0 and the
// figure has a direction (figure_better), `changed` when it has none; `no significant change`
// when the interval holds 0. A figure compared by its value alone (frames, refresh rate: no
// interval) is `changed` or `unchanged`.
enum class Verdict { better, worse, no_significant_change, changed, unchanged };
const char* verdict_name(Verdict verdict);

struct FigureDifference {
    std::string name;
    double a = 0, b = 0, difference = 0;
    double low = 0, high = 0;  // 2.5th and 97.5th percentile of the resampled differences
    bool significant = false;  // the interval excludes 0
    bool has_interval = true;  // false for a figure compared by its value alone
    Verdict verdict = Verdict::no_significant_change;
};

// The timeline both captures of a comparison share, whose figures it compares: the application's
// frames, the displayed frames, or the present timeline.
enum class ComparedTimeline { application, display, present };
const char* compared_timeline_name(ComparedTimeline timeline);  // "application", "display", ...

// A figure the comparison leaves out, with the reason (one capture cannot have it, or it is not
// a figure of the timeline compared).
struct AbsentDifference {
    std::string name;
    std::string reason;
};

struct Comparison {
    ComparedTimeline timeline = ComparedTimeline::present;
    std::string timeline_reason;            // why that timeline: what each capture has
    std::vector<FigureDifference> figures;  // resampled, with intervals
    // Figures without a direction compared by their values alone (frames, duration, refresh).
    std::vector<FigureDifference> context;
    std::vector<AbsentDifference> absent;
    // The two series are the same values in the same order: each resample draws the same
    // blocks from both, so every difference, and the interval, is exactly 0.
    bool paired = false;
    std::size_t resamples = 0;
    std::size_t block_a = 0, block_b = 0;  // block lengths in frames (or intervals, samples)
    std::uint64_t seed = 0;
};

struct Report {
    std::vector<CaptureReport> captures;  // one, or two for a comparison (A then B)
    std::optional<Comparison> comparison;
};

// Short names for the JSON and the text writers.
const char* timeline_name(Timeline timeline);

// The timeline as the report headings name it: "present timeline", or, when generated frames
// are marked or detected on it, "present timeline (application and generated frames mixed)" /
// "present timeline (frame generation detected: application and generated frames mixed)".
std::string timeline_label(const CaptureReport& report);
// Whether the report's timeline mixes application and generated frames, marked or detected.
bool timeline_mixes_generated(const CaptureReport& report);

}  // namespace loopscope
