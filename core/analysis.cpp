// Builds the report of one capture: selects the timeline and range, runs the statistics, finds
// the start-up segment, the display side, the generated-frame split and the loop figures.
#include "core/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "common/errors.hpp"
#include "core/beside.hpp"
#include "core/percentile.hpp"
#include "core/sort_ns.hpp"
#include "core/units.hpp"

namespace loopscope {

const char* timeline_name(Timeline timeline) {
    return timeline == Timeline::display ? "display" : "present";
}

bool timeline_mixes_generated(const CaptureReport& r) {
    // A PresentMon 2.x present timeline holds the application frames only (generated frames
    // have no FrameTime and are left out of it): nothing is mixed there.
    return (r.has_generated && r.generated_without_frame_time == 0) || r.generation.detected;
}

std::string timeline_label(const CaptureReport& r) {
    std::string label = fmt::format("{} timeline", timeline_name(r.timeline));
    if (r.generation.detected)
        label += " (frame generation detected: application and generated frames mixed)";
    else if (timeline_mixes_generated(r))
        label += " (application and generated frames mixed)";
    else if (r.generated_without_frame_time > 0)
        label +=
            " (application frames only: this layout has no present times for generated "
            "frames)";
    return label;
}

namespace {

// The column the timeline's frame times come from, as the capture's reader names it.
std::string source_column(const Capture& capture, Timeline timeline) {
    return std::string(timeline == Timeline::display ? capture.description.display_column
                                                     : capture.description.present_column);
}

}  // namespace

namespace {

bool parse_whole(const std::string& v, std::int64_t& out) {
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    return ec == std::errc() && ptr == v.data() + v.size();
}

bool parse_whole(const std::string& v, double& out) {
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    return ec == std::errc() && ptr == v.data() + v.size() && std::isfinite(out);
}

}  // namespace

namespace {

constexpr std::array<std::string_view, 5> kLoopMetadataKeys = {"policy", "dt_ns", "clamp_ns",
                                                               "max_steps", "timescale"};

}  // namespace

bool is_loop_metadata_key(std::string_view key) {
    return std::find(kLoopMetadataKeys.begin(), kLoopMetadataKeys.end(), key) !=
           kLoopMetadataKeys.end();
}

std::optional<std::string> loop_metadata_problem(const std::string& key, const std::string& value) {
    if (key == "policy") {
        if (!parse_policy(value))
            return fmt::format("expected a policy: {}", policy_names());
        return std::nullopt;
    }
    if (key == "dt_ns" || key == "clamp_ns" || key == "max_steps") {
        std::int64_t n = 0;
        const std::int64_t least = key == "dt_ns" ? 1 : 0;
        if (!parse_whole(value, n) || n < least) {
            return fmt::format("expected a whole number {} (found '{}')",
                               least == 1 ? "above 0" : "of 0 or more", value);
        }
        return std::nullopt;
    }
    if (key == "timescale") {
        double x = 0;
        if (!parse_whole(value, x) || x < 0)
            return fmt::format("expected a number of 0 or more (found '{}')", value);
    }
    return std::nullopt;
}

std::optional<LoopConfig> loop_config_from_metadata(const Capture& capture) {
    const auto& meta = capture.metadata;
    if (!meta.contains("policy") || !meta.contains("dt_ns"))
        return std::nullopt;
    for (const std::string_view key : kLoopMetadataKeys) {
        const auto it = meta.find(std::string(key));
        if (it == meta.end())
            continue;
        if (const auto problem = loop_metadata_problem(std::string(key), it->second)) {
            throw InputError(capture.source.file,
                             fmt::format("metadata '{}: {}': {}", key, it->second, *problem));
        }
    }
    LoopConfig c;
    c.policy = *parse_policy(meta.at("policy"));
    parse_whole(meta.at("dt_ns"), c.dt_ns);
    if (const auto it = meta.find("clamp_ns"); it != meta.end())
        parse_whole(it->second, c.clamp_ns);
    if (const auto it = meta.find("max_steps"); it != meta.end())
        parse_whole(it->second, c.max_steps);
    if (const auto it = meta.find("timescale"); it != meta.end())
        parse_whole(it->second, c.timescale);
    return c;
}

namespace {

// The time the application cadence's frames span, for its average FPS: the sum of its own
// intervals where the capture has the application's column (so that every layout with that
// column gives the same figure), else the sum of the present-to-present times.
std::int64_t application_total_ns(std::span<const std::int64_t> intervals,
                                  std::span<const std::int64_t> frame_ns, bool from_app_column) {
    const auto sum = [](auto values) {
        return std::accumulate(values.begin(), values.end(), std::int64_t{0});
    };
    return from_app_column ? sum(intervals) : sum(frame_ns);
}

// The series frames before the loop verdict's onset (all of them without one). The frames from
// the onset on are the trouble the verdict found, not a steady state for start-up to be told
// from: start-up is sought before it, so it never swallows the onset.
std::size_t series_frames_before_onset(const CaptureReport& r) {
    const std::size_t all = r.series.frame_ns.size();
    if (!r.loop_figures || !r.loop_figures->onset_frame)
        return all;
    const std::int64_t onset = *r.loop_figures->onset_frame;
    // The onset's capture index: the record with that frame number (records are in frame order).
    std::int64_t index = onset;
    if (!r.loop.empty()) {
        const auto it = std::lower_bound(
            r.loop.begin(), r.loop.end(), onset,
            [](const FrameRecord& rec, std::int64_t frame) { return rec.frame < frame; });
        index = static_cast<std::int64_t>(r.range.begin) + (it - r.loop.begin());
    }
    std::size_t k = 0;
    while (k < all && r.series.frame_number[k] < index)
        ++k;
    return k;
}

// The application and displayed cadences from the first frame after the start-up segment to the
// end of the range, computed as over the whole range. The segment is counted in series frames;
// its end is mapped to the capture frame it stands for (a 2.x present timeline leaves generated
// frames out of the series).
void steady_cadences(CaptureReport& r, const Capture& capture) {
    if (r.startup.frames >= r.series.frame_number.size())
        return;
    const auto first = static_cast<std::size_t>(r.series.frame_number[r.startup.frames]);
    if (first < r.range.begin || first >= r.range.end)
        return;
    const std::size_t count = r.range.end - first;
    const auto after = [&](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        return std::span<const T>(v).subspan(first, count);
    };
    const auto frames = after(capture.frame_ns);
    const std::int64_t total_ns = std::accumulate(frames.begin(), frames.end(), std::int64_t{0});
    const bool app_column = capture.app_interval_ns.size() == capture.frames();
    if (r.has_generated) {
        const auto gen = after(capture.generated);
        const auto intervals = app_column
                                   ? application_intervals(after(capture.app_interval_ns), gen)
                                   : cadence_intervals(frames, gen, false);
        r.steady_application = summarise_cadence(
            intervals, static_cast<std::size_t>(std::count(gen.begin(), gen.end(), 0)),
            application_total_ns(intervals, frames, app_column));
    } else if (r.application.frames > 0 && app_column) {
        const std::vector<std::uint8_t> none(count, 0);
        const auto intervals = application_intervals(after(capture.app_interval_ns), none);
        r.steady_application = summarise_cadence(intervals, intervals.size(),
                                                 application_total_ns(intervals, frames, true));
    }
    if (r.displayed.frames > 0) {
        const auto intervals = displayed_intervals(after(capture.display_ns));
        r.steady_displayed = summarise_cadence(intervals, intervals.size(), total_ns);
    }
}

// Why a frame of the range is or is not in the series.
enum class Kept { yes, no_frame_time, generated, undisplayed, dropped };

}  // namespace

TraceLoopFigures::TraceLoopFigures(const std::optional<LoopConfig>& config) {
    if (config) {
        configured_.emplace(*config, kDefaultSpiralWindow, kListedEngagements);
        return;
    }
    // Without a configuration, the figures of the recorded columns alone: dt and the policy's
    // name are not used for these.
    LoopConfig fixed;
    fixed.policy = Policy::fixed;
    LoopConfig variable;
    variable.policy = Policy::variable;
    fixed_.emplace(fixed, kDefaultSpiralWindow, kListedEngagements);
    variable_.emplace(variable, kDefaultSpiralWindow, kListedEngagements);
}

void TraceLoopFigures::add(const FrameRecord& r) {
    // The rows a hitch's cause reads, by the hitch rule of unreal_hitches over raw_ns from row 1
    // on (row 0's raw_ns is no frame time).
    if (rows_ >= 2 && r.raw_ns > kHitchThresholdNs &&
        compare_products(2, static_cast<std::uint64_t>(r.raw_ns), 3,
                         static_cast<std::uint64_t>(previous_.raw_ns)) >= 0) {
        if (hitch_records_.empty() || hitch_records_.back().first != rows_ - 1)
            hitch_records_.emplace_back(rows_ - 1, previous_);
        hitch_records_.emplace_back(rows_, r);
    }
    previous_ = r;
    ++rows_;
    if (configured_) {
        configured_->add(r);
        return;
    }
    accumulator_ = accumulator_ || r.acc_before_ns != 0 || r.acc_after_ns != 0;
    fixed_->add(r);
    variable_->add(r);
}

LoopFigures TraceLoopFigures::figures() const {
    LoopFigures f = configured_    ? configured_->figures()
                    : accumulator_ ? fixed_->figures()
                                   : variable_->figures();
    f.hitch_records = hitch_records_;
    return f;
}

namespace {

// Every sum the figures form is of one column's values (frame times, display changes, the
// application's intervals), over the whole capture or a part of it, so each stays in the int64
// range when the column's total does. The readers take any time under 292 years; a capture whose
// times add up past that (frames of centuries) is refused at the frame where the sum passes it.
// Frames are also laid end to end from their start times (writers/frame_spans.cpp: a frame
// begins at its start or where the frame before it ended, whichever is later), and those ends
// must stay in the range too: each is at most end = max(start, end before) + the longest of the
// frame's times, over every frame of the capture.
void check_column_totals(const Capture& capture) {
    const auto check = [&](const std::vector<std::int64_t>& column, std::string_view what) {
        std::int64_t total = 0;
        for (std::size_t i = 0; i < column.size(); ++i) {
            if (column[i] > 0 && __builtin_add_overflow(total, column[i], &total)) {
                throw InputError(capture.source.file,
                                 fmt::format("the {} add up to more than 292 years by capture "
                                             "frame {}: expected a capture of hours",
                                             what, i));
            }
        }
    };
    check(capture.frame_ns, "frame times");
    check(capture.display_ns, "times between display changes");
    check(capture.app_interval_ns, "application intervals");
    const auto at = [](const std::vector<std::int64_t>& column, std::size_t i) {
        return i < column.size() ? column[i] : 0;
    };
    std::int64_t end_ns = 0;
    for (std::size_t i = 0; i < capture.start_ns.size(); ++i) {
        const std::int64_t longest_ns = std::max(
            {at(capture.frame_ns, i), at(capture.display_ns, i), at(capture.app_interval_ns, i)});
        if (__builtin_add_overflow(std::max(end_ns, capture.start_ns[i]),
                                   std::max<std::int64_t>(longest_ns, 0), &end_ns)) {
            throw InputError(capture.source.file,
                             fmt::format("capture frame {} starts at {:.0f} s and lasts {:.0f} s: "
                                         "frames laid end to end from their start times pass "
                                         "292 years there; expected a capture of hours",
                                         i, static_cast<double>(capture.start_ns[i]) * 1e-9,
                                         static_cast<double>(longest_ns) * 1e-9));
        }
    }
}

}  // namespace

namespace {

// A column's values over the report's range; empty where the capture lacks the column.
template <typename T>
std::span<const T> in_range(const std::vector<T>& column, const Capture& capture,
                            const FrameRange& range) {
    if (column.size() != capture.frames())
        return {};
    return std::span<const T>(column).subspan(range.begin, range.size());
}

// Which frames of the range the series keeps, and why the others are left out.
struct FrameFilter {
    const Capture& capture;
    bool skip_first = false;
    bool skip_generated = false;
    bool display = false;

    FrameFilter(const Capture& c, Timeline timeline)
        : capture(c),
          skip_first(!first_frame_is_frame_time(c)),
          skip_generated(timeline == Timeline::present && generated_frames_have_no_frame_time(c) &&
                         c.generated.size() == c.frames()),
          display(timeline == Timeline::display) {}

    Kept operator()(std::size_t i) const {
        if ((i == 0 && skip_first) || i < capture.leading_frames_without_time)
            return Kept::no_frame_time;
        if (skip_generated && capture.generated[i] != 0)
            return Kept::generated;
        // A frame with no display time is left out; it counts as dropped only when it was never
        // displayed (the first displayed frame of a 2.x capture has no time either).
        if (display && capture.display_ns[i] < 0) {
            const bool dropped =
                capture.dropped.size() == capture.frames() ? capture.dropped[i] != 0 : true;
            return dropped ? Kept::dropped : Kept::undisplayed;
        }
        return Kept::yes;
    }
};

// The timeline, its source column and the range, checked against what the capture has.
void choose_timeline(CaptureReport& r, const Capture& capture, const AnalysisOptions& options) {
    r.timeline = options.timeline;
    r.frame_time_column = source_column(capture, options.timeline);
    if (!capture.description.rebuilt_present_column.empty() &&
        options.timeline == Timeline::present && capture.cpu_busy_ns.size() == capture.frames() &&
        capture.start_ends_frame_time) {
        r.frame_time_column = std::string(capture.description.rebuilt_present_column);
    }
    const std::size_t n = capture.frames();
    if (n == 0) {
        throw InputError(capture.source.file, "the capture holds no frames");
    }
    const bool have_starts = capture.start_ns.size() == n;
    r.range = select_range(capture.frame_ns,
                           have_starts ? std::span<const std::int64_t>(capture.start_ns)
                                       : std::span<const std::int64_t>{},
                           options.from, options.to, capture.start_ends_frame_time);
    if (options.timeline == Timeline::display && capture.display_ns.size() != n) {
        throw NoDisplayTimesError(capture.source.file, capture.source.format);
    }
}

// The series: the range's frame times the filter keeps, their frame numbers and start times.
// A run of kept frames is a view of the capture's columns; anything else is copied.
void build_series(CaptureReport& r, const Capture& capture) {
    const std::size_t n = capture.frames();
    const FrameFilter kept(capture, r.timeline);
    std::size_t count = 0;
    std::size_t first = n;
    std::size_t last = 0;
    for (std::size_t i = r.range.begin; i < r.range.end; ++i) {
        switch (kept(i)) {
            case Kept::yes:
                first = std::min(first, i);
                last = i;
                ++count;
                break;
            case Kept::generated:
                ++r.generated_without_frame_time;
                break;
            case Kept::dropped:
                ++r.dropped_in_range;
                break;
            default:
                break;
        }
    }
    const bool have_starts = capture.start_ns.size() == n;
    const std::span<const std::int64_t> times(kept.display ? capture.display_ns : capture.frame_ns);
    struct Copies {
        std::vector<std::int64_t> frame_ns, frame_number, start_ns;
    };
    auto copies = std::make_shared<Copies>();
    const bool run = count > 0 && last + 1 - first == count;
    if (run) {
        r.series.frame_ns = times.subspan(first, count);
        r.series.frame_number = FrameNumbers(static_cast<std::int64_t>(first), count);
    } else {
        copies->frame_ns.reserve(count);
        copies->frame_number.reserve(count);
        for (std::size_t i = r.range.begin; i < r.range.end; ++i) {
            if (kept(i) == Kept::yes) {
                copies->frame_ns.push_back(times[i]);
                copies->frame_number.push_back(static_cast<std::int64_t>(i));
            }
        }
        r.series.frame_ns = copies->frame_ns;
        r.series.frame_number = FrameNumbers(copies->frame_number);
    }
    if (run && have_starts) {
        r.series.start_ns = std::span<const std::int64_t>(capture.start_ns).subspan(first, count);
    } else {
        // Without a start column, a frame starts at the sum of the frame times before it.
        copies->start_ns.reserve(count);
        std::int64_t t = 0;
        if (!have_starts) {
            for (std::size_t i = 0; i < r.range.begin; ++i)
                t += capture.frame_ns[i];
        }
        for (std::size_t i = r.range.begin; i < r.range.end; ++i) {
            const std::int64_t start = have_starts ? capture.start_ns[i] : t;
            t += capture.frame_ns[i];
            if (kept(i) == Kept::yes)
                copies->start_ns.push_back(start);
        }
        r.series.start_ns = copies->start_ns;
    }
    if (!copies->frame_ns.empty() || !copies->start_ns.empty())
        r.series.copies = std::move(copies);
    if (r.series.frame_ns.empty()) {
        if (r.timeline == Timeline::display) {
            throw UsageError(fmt::format("'{}': no displayed frames in the selected range",
                                         capture.source.file));
        }
        throw UsageError(fmt::format(
            "'{}': no frame times in the selected range (frame 0 of a loopscope trace has no "
            "previous frame and is not a frame time)",
            capture.source.file));
    }
}

// The loop figures of a trace's records over the range, or those computed while reading.
void loop_figures_of(CaptureReport& r, const Capture& capture) {
    const std::size_t n = capture.frames();
    if (capture.loop.size() == n) {
        r.loop = std::span<const FrameRecord>(capture.loop).subspan(r.range.begin, r.range.size());
        r.loop_config = loop_config_from_metadata(capture);
        TraceLoopFigures figures(r.loop_config);
        for (const FrameRecord& record : r.loop)
            figures.add(record);
        r.loop_figures = figures.figures();
    } else if (capture.loop_figures) {
        if (r.range.begin != 0 || r.range.end != n) {
            throw std::logic_error(fmt::format(
                "'{}': the loop figures were computed while reading, over all the frames; a "
                "range needs the loop records kept",
                capture.source.file));
        }
        r.loop_config = loop_config_from_metadata(capture);
        r.loop_figures = *capture.loop_figures;
    }
}

// The statistics of the series, its percentile curve and the start-up segment (the figures
// without it: steady_statistics). The sort is the largest single step of the analysis: on a
// second core, the display figures (which sort the display changes) are computed meanwhile,
// while this one copies and sorts the series and takes the figures of its order, about as long.
// `displayed_sorted` receives display_figures' displayed frames, sorted; `sorted`, the series'.
void series_statistics(CaptureReport& r, const Capture& capture, bool second_thread,
                       bool refresh_from_display, std::vector<std::int64_t>& displayed_sorted,
                       std::vector<std::int64_t>& sorted) {
    const auto slice = [&](const auto& v) { return in_range(v, capture, r.range); };
    OrderFigures order;
    run_beside(
        second_thread,
        [&] {
            if (capture.display_ns.size() == capture.frames()) {
                r.display =
                    display_figures(slice(capture.display_ns), slice(capture.dropped),
                                    slice(capture.animation_error_ns),
                                    slice(capture.animation_error_known), &displayed_sorted);
            }
        },
        [&] {
            sorted.assign(r.series.frame_ns.begin(), r.series.frame_ns.end());
            sort_ns(sorted);
            order = order_figures(r.series.frame_ns, r.series.start_ns);
        });
    r.stats =
        compute_frame_stats(std::move(order), r.series.frame_ns, sorted, !refresh_from_display);
    r.percentile_curve_ms.reserve(kPercentileCurveSteps + 1);
    for (int i = 0; i <= kPercentileCurveSteps; ++i) {
        r.percentile_curve_ms.push_back(
            ns_to_ms(percentile_sorted(sorted, i / static_cast<double>(kPercentileCurveSteps))));
    }
    r.tail_curve_ms.reserve(kTailCurveSteps + 1);
    for (int i = 0; i <= kTailCurveSteps; ++i) {
        const double nines = kTailCurveNines * i / kTailCurveSteps;
        r.tail_curve_ms.push_back(
            ns_to_ms(percentile_sorted(sorted, 1.0 - std::pow(10.0, -nines))));
    }
    if (!may_hold_startup(capture))
        return;
    const std::size_t before_onset = series_frames_before_onset(r);
    r.startup = before_onset < r.series.frame_ns.size()
                    ? detect_startup(r.series.frame_ns.first(before_onset))
                    : detect_startup(r.series.frame_ns, percentile_sorted(sorted, 0.5));
}

// The figures without the start-up segment (its refresh rate and frame numbers are set by
// the caller): their sorted values are the range's without the segment's few, so the same copy
// (`sorted`, the series' sorted values, which this takes) serves, instead of a second sort.
void steady_statistics(CaptureReport& r, std::vector<std::int64_t>& sorted) {
    if (r.startup.frames == 0)
        return;
    const auto frames = std::span<const std::int64_t>(r.series.frame_ns);
    const auto starts = std::span<const std::int64_t>(r.series.start_ns);
    OrderFigures steady_order =
        order_figures(frames.subspan(r.startup.frames), starts.subspan(r.startup.frames));
    erase_sorted(sorted, frames.first(r.startup.frames));
    r.steady = compute_frame_stats(std::move(steady_order), frames.subspan(r.startup.frames),
                                   sorted, false);
}

// The refresh rate from the display changes (every one counts, a frame marked dropped
// included; without such a frame these are the values display_figures sorted already), then
// whether the display has a cadence at all: tearing and direct-to-display frames whose display
// changes follow their presents have none, whatever grid the intervals seem to sit on.
void refresh_of_display(CaptureReport& r, const Capture& capture, bool refresh_from_display,
                        std::vector<std::int64_t>& displayed_sorted) {
    const auto slice = [&](const auto& v) { return in_range(v, capture, r.range); };
    if (refresh_from_display) {
        const auto display = slice(capture.display_ns);
        const auto dropped = slice(capture.dropped);
        bool dropped_with_change = false;
        for (std::size_t i = 0; i < dropped.size() && i < display.size(); ++i)
            dropped_with_change |= dropped[i] != 0 && display[i] >= 0;
        if (dropped_with_change) {
            displayed_sorted.clear();
            for (const std::int64_t d : display) {
                if (d >= 0)
                    displayed_sorted.push_back(d);
            }
            sort_ns(displayed_sorted);
        }
        if (!displayed_sorted.empty()) {
            r.stats.refresh = detect_refresh_rate_sorted(displayed_sorted);
            r.refresh_column = source_column(capture, Timeline::display);
        }
    }
    const bool frames_match =
        r.timeline == Timeline::present && r.series.frame_ns.size() == r.range.size();
    r.stats.refresh = classify_refresh(
        std::move(r.stats.refresh),
        frames_match ? slice(capture.display_ns) : std::span<const std::int64_t>{},
        frames_match ? slice(capture.frame_ns) : std::span<const std::int64_t>{},
        slice(capture.present_mode), slice(capture.waits_for_vblank), slice(capture.tearing));
}

// Without FrameType, the cycles frame generation leaves in per-frame columns, and the
// application's cadence estimated from them where generation is detected.
void examine_generation(CaptureReport& r, const Capture& capture) {
    const std::size_t n = capture.frames();
    const auto slice = [&](const auto& v) { return in_range(v, capture, r.range); };
    const auto frames = slice(capture.frame_ns);
    std::vector<GenerationColumn> columns;
    const auto add = [&](const char* name, const std::vector<std::int64_t>& v, bool intervals,
                         bool decisive = false) {
        if (v.size() == n)
            columns.push_back({name, slice(v), intervals, decisive});
    };
    add("MsPCLatency", capture.pc_latency_ns, false, true);
    add(r.frame_time_column.c_str(), capture.frame_ns, true);
    add("MsInPresentAPI", capture.in_present_api_ns, false);
    add("MsRenderPresentLatency", capture.render_present_latency_ns, false);
    add("msUntilRenderComplete", capture.until_render_complete_ns, false);
    add("msGPUActive", capture.gpu_active_ns, false);
    add("MsUntilDisplayed", capture.until_displayed_ns, false);
    r.generation = detect_frame_generation(
        columns, frames,
        r.stats.refresh.state == RefreshGuess::State::fixed ? r.stats.refresh.rate_hz : 0);
    if (r.generation.detected && !r.generation.application_intervals_ns.empty()) {
        // Estimated: one present in `period` timed as the application's (see
        // GenerationDetection); only the frames inside the cycles are timed.
        r.application_estimated = true;
        r.application_intervals_ns = r.generation.application_intervals_ns;
        const auto& iv = r.application_intervals_ns;
        r.application = summarise_cadence(iv, iv.size(),
                                          std::accumulate(iv.begin(), iv.end(), std::int64_t{0}));
    }
}

// Frame times alone say when the game presented, not when the display changed: a grid they sit
// on is the loop's cadence (a limiter, a fixed step), not a refresh rate, so nothing is judged
// against it (missed vsync needs a target frame rate then).
void no_refresh_without_display(RefreshGuess& g) {
    // Only a grid that explains the intervals is a cadence grid; a near miss is none.
    g.best_rate_hz = g.state == RefreshGuess::State::fixed ? g.rate_hz : 0;
    g.best_on_grid_share = g.state == RefreshGuess::State::fixed ? g.on_grid_share : 0;
    g.state = RefreshGuess::State::unknown;
    g.rate_hz = 0;
    g.on_grid_share = 0;
    g.also_fits_hz.clear();
    g.absent = RefreshGuess::Absent::no_display;
}

// The generated frames' and the application's cadences where frames are marked generated, the
// application's from its own column otherwise, and the displayed cadence where generation is
// marked, detected or possible.
void cadences(CaptureReport& r, const Capture& capture) {
    const std::size_t n = capture.frames();
    const auto slice = [&](const auto& v) { return in_range(v, capture, r.range); };
    const bool present = r.timeline == Timeline::present;
    if (capture.generated.size() == n && present) {
        const auto gen = slice(capture.generated);
        r.has_generated = std::any_of(gen.begin(), gen.end(), [](std::uint8_t g) { return g; });
        if (r.has_generated) {
            const auto frames = slice(capture.frame_ns);
            r.generated = cadence_figures(frames, gen, true);
            // The application's cadence from its own frame starts where the capture has them
            // (2.x FrameTime, 2.4+ MsBetweenAppStart), as the same recording in either layout
            // gives it.
            const auto app_interval = slice(capture.app_interval_ns);
            r.application_intervals_ns = app_interval.empty()
                                             ? cadence_intervals(frames, gen, false)
                                             : application_intervals(app_interval, gen);
            r.application = summarise_cadence(
                r.application_intervals_ns,
                static_cast<std::size_t>(std::count(gen.begin(), gen.end(), 0)),
                application_total_ns(r.application_intervals_ns, frames, !app_interval.empty()));
        }
    }
    // Without generated frames the application's own cadence is still a column of the 2.x
    // layouts (FrameTime, MsBetweenAppStart: equal on every row of one recording), and it is
    // given from that column, so that both layouts give the same application figures.
    if (!r.has_generated && present && capture.app_interval_ns.size() == n) {
        const std::vector<std::uint8_t> none(r.range.size(), 0);
        r.application_intervals_ns = application_intervals(slice(capture.app_interval_ns), none);
        if (!r.application_intervals_ns.empty()) {
            r.application = summarise_cadence(
                r.application_intervals_ns, r.application_intervals_ns.size(),
                application_total_ns(r.application_intervals_ns, slice(capture.frame_ns), true));
        }
    }
    // Measured, not estimated: given wherever frame generation is marked, detected or possible.
    if ((r.has_generated || r.generation.detected || r.generation.possible) &&
        capture.display_ns.size() == n) {
        r.displayed_intervals_ns = displayed_intervals(slice(capture.display_ns));
        const auto frames = slice(capture.frame_ns);
        r.displayed =
            summarise_cadence(r.displayed_intervals_ns, r.displayed_intervals_ns.size(),
                              std::accumulate(frames.begin(), frames.end(), std::int64_t{0}));
    }
}

}  // namespace

NoDisplayTimesError::NoDisplayTimesError(std::string file, std::string format)
    : UsageError(fmt::format("'{}' ({}) has no display-change times: it has no display timeline",
                             file, format)),
      file_(std::move(file)),
      format_(std::move(format)) {}

CaptureReport analyse_capture(const Capture& capture, const AnalysisOptions& options) {
    check_column_totals(capture);
    CaptureReport r;
    r.capture = &capture;
    choose_timeline(r, capture, options);
    build_series(r, capture);
    const std::size_t n = capture.frames();
    const bool have_display = capture.display_ns.size() == n;
    // Display changes land on the refresh grid even when presents do not (no vsync), so the
    // refresh rate is read from them where the capture has them, and then not guessed from the
    // series first (a guess tries every candidate rate on every frame).
    const auto display_in_range = in_range(capture.display_ns, capture, r.range);
    const bool refresh_from_display = have_display && options.timeline == Timeline::present &&
                                      std::any_of(display_in_range.begin(), display_in_range.end(),
                                                  [](std::int64_t d) { return d >= 0; });
    // Without FrameType the two cadences cannot be split, but the cycles frame generation
    // leaves in per-frame columns can be seen, and said, instead of mixing silently. A
    // loopscope trace records the game's own loop, which never sees the frames the driver
    // generates after it presents: an alternation there is the loop's, not frame generation.
    r.generation_examinable = capture.generated.size() != n &&
                              options.timeline == Timeline::present && capture.per_frame &&
                              !has_loop_columns(capture);
    // The loop figures come first: the start-up segment is sought before the verdict's onset.
    loop_figures_of(r, capture);
    std::vector<std::int64_t> displayed_sorted;
    const bool second_thread = threads_or_hardware(options.threads) > 1 &&
                               r.series.frame_ns.size() >= kFramesForSecondThread;
    std::vector<std::int64_t> sorted;
    series_statistics(r, capture, second_thread, refresh_from_display, displayed_sorted, sorted);
    // The figures that need neither the refresh rate nor frame generation (each writes its own
    // members of `r`) are computed on a second core meanwhile, about as long.
    run_beside(
        second_thread,
        [&] {
            steady_statistics(r, sorted);
            r.fps_threshold_counts = capframex_fps_threshold_counts(r.series.frame_ns);
            r.latency = latency_figures(capture, r.range);
            if (r.startup.frames > 0 && r.startup.frames < r.series.frame_number.size()) {
                const auto first =
                    static_cast<std::size_t>(r.series.frame_number[r.startup.frames]);
                r.steady_bottleneck = bottleneck_shares(capture, FrameRange{first, r.range.end});
            }
        },
        [&] {
            r.refresh_column = r.frame_time_column;
            refresh_of_display(r, capture, refresh_from_display, displayed_sorted);
            if (r.generation_examinable)
                examine_generation(r, capture);
            if (!has_display_information(capture))
                no_refresh_without_display(r.stats.refresh);
            cadences(r, capture);
            r.bottleneck = bottleneck_shares(capture, r.range);
            for (const Hitch& h : r.stats.hitches.hitches)
                r.hitch_causes.push_back(report_hitch_cause(r, h));
        });
    if (r.startup.frames > 0) {
        // The refresh rate is the whole range's: not guessed again without the segment.
        r.steady.refresh = r.stats.refresh;
        for (Hitch& h : r.steady.hitches.hitches)
            h.index += r.startup.frames;
        for (std::size_t& f : r.steady.stutter.frames)
            f += r.startup.frames;
        steady_cadences(r, capture);
    }
    r.target_fps = options.target_fps;
    return r;
}

HitchCause report_hitch_cause(const CaptureReport& r, const Hitch& h) {
    if (h.index >= r.series.frame_number.size())
        return hitch_cause(*r.capture, r.capture->frames(), h.frame_ns, false);
    const auto frame = static_cast<std::size_t>(r.series.frame_number[h.index]);
    return hitch_cause(*r.capture, frame, h.frame_ns, r.timeline == Timeline::present);
}

}  // namespace loopscope
