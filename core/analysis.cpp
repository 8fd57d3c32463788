// Builds the report of one capture: selects the timeline and range, runs the statistics, finds
// the start-up segment; and the catalogue of named figures that gating and comparison use.
#include "core/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "common/errors.hpp"
#include "core/units.hpp"

namespace loopscope {

const char* timeline_name(Timeline timeline) {
    return timeline == Timeline::display ? "display" : "present";
}

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

// The column each format's frame times come from, as DESIGN.md's table of inputs names it.
std::string source_column(std::string_view format, Timeline timeline) {
    if (timeline == Timeline::display) {
        if (starts_with(format, "presentmon-2") && format != "presentmon-2.4") {
            return "DisplayedTime";
        }
        if (format == "presentmon-1" || format == "ocat" || format == "capframex-csv") {
            return "msBetweenDisplayChange";
        }
        return "MsBetweenDisplayChange";
    }
    if (format == "loopscope-trace")
        return "raw_ns";
    if (format == "presentmon-1" || format == "ocat")
        return "msBetweenPresents";
    if (starts_with(format, "presentmon-2") && format != "presentmon-2.4")
        return "FrameTime";
    if (starts_with(format, "mangohud"))
        return "frametime";
    if (format == "plain")
        return "the listed numbers";
    return "MsBetweenPresents";
}

}  // namespace

LoopConfig loop_config_from_metadata(const Capture& capture) {
    LoopConfig c;
    const auto bad = [&](const std::string& key, const std::string& value) {
        return InputError(capture.source.file,
                          fmt::format("metadata '{}: {}' is not a valid value", key, value));
    };
    const auto integer = [&](const std::string& key, std::int64_t& out) {
        const auto it = capture.metadata.find(key);
        if (it == capture.metadata.end())
            return;
        const std::string& v = it->second;
        const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
        if (ec != std::errc() || ptr != v.data() + v.size() || out < 0)
            throw bad(key, v);
    };
    if (const auto it = capture.metadata.find("policy"); it != capture.metadata.end()) {
        const auto policy = parse_policy(it->second);
        if (!policy)
            throw bad("policy", it->second);
        c.policy = *policy;
    }
    integer("dt_ns", c.dt_ns);
    integer("clamp_ns", c.clamp_ns);
    integer("max_steps", c.max_steps);
    if (const auto it = capture.metadata.find("timescale"); it != capture.metadata.end()) {
        const std::string& v = it->second;
        const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), c.timescale);
        if (ec != std::errc() || ptr != v.data() + v.size() || !(c.timescale >= 0)) {
            throw bad("timescale", v);
        }
    }
    if (c.dt_ns <= 0)
        throw bad("dt_ns", capture.metadata.at("dt_ns"));
    return c;
}

CaptureReport analyse_capture(const Capture& capture, const AnalysisOptions& options) {
    CaptureReport r;
    r.capture = &capture;
    r.timeline = options.timeline;
    r.frame_time_column = source_column(capture.source.format, options.timeline);
    const std::size_t n = capture.frames();
    if (n == 0) {
        throw InputError(capture.source.file, "the capture holds no frames");
    }
    const bool have_starts = capture.start_ns.size() == n;
    r.range = select_range(capture.frame_ns,
                           have_starts ? std::span<const std::int64_t>(capture.start_ns)
                                       : std::span<const std::int64_t>{},
                           options.from, options.to);

    const bool have_display = capture.display_ns.size() == n;
    if (options.timeline == Timeline::display && !have_display) {
        throw UsageError(fmt::format(
            "--timeline display: '{}' ({}) has no display-change times; use --timeline present",
            capture.source.file, capture.source.format));
    }
    std::int64_t t = 0;
    for (std::size_t i = 0; i < r.range.begin; ++i)
        t += capture.frame_ns[i];
    for (std::size_t i = r.range.begin; i < r.range.end; ++i) {
        const std::int64_t start = have_starts ? capture.start_ns[i] : t;
        t += capture.frame_ns[i];
        std::int64_t ft = capture.frame_ns[i];
        if (options.timeline == Timeline::display) {
            const bool dropped = (capture.dropped.size() == n && capture.dropped[i] != 0) ||
                                 capture.display_ns[i] < 0;
            if (dropped) {
                ++r.dropped_in_range;
                continue;
            }
            ft = capture.display_ns[i];
        }
        r.series.frame_ns.push_back(ft);
        r.series.frame_number.push_back(static_cast<std::int64_t>(i));
        r.series.start_ns.push_back(start);
    }
    if (r.series.frame_ns.empty()) {
        throw UsageError(
            fmt::format("'{}': no displayed frames in the selected range", capture.source.file));
    }

    r.stats = compute_frame_stats(r.series.frame_ns, r.series.start_ns);
    r.refresh_column = r.frame_time_column;

    auto slice = [&](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        if (v.size() != n)
            return std::span<const T>{};
        return std::span<const T>(v).subspan(r.range.begin, r.range.size());
    };
    if (have_display) {
        r.display = display_figures(slice(capture.display_ns), slice(capture.dropped),
                                    slice(capture.animation_error_ns),
                                    slice(capture.animation_error_known));
        // Display changes land on the refresh grid even when presents do not (no vsync), so
        // the refresh rate is read from them where the capture has them.
        if (options.timeline == Timeline::present) {
            std::vector<std::int64_t> shown;
            for (const std::int64_t d : slice(capture.display_ns)) {
                if (d >= 0)
                    shown.push_back(d);
            }
            if (!shown.empty()) {
                r.stats.refresh = detect_refresh_rate(shown);
                r.refresh_column = source_column(capture.source.format, Timeline::display);
            }
        }
    }

    if (capture.generated.size() == n && options.timeline == Timeline::present) {
        const auto gen = slice(capture.generated);
        r.has_generated = std::any_of(gen.begin(), gen.end(), [](std::uint8_t g) { return g; });
        if (r.has_generated) {
            const auto frames = slice(capture.frame_ns);
            r.application = cadence_figures(frames, gen, false);
            r.generated = cadence_figures(frames, gen, true);
        }
    }

    if (capture.per_frame) {
        r.startup = detect_startup(r.series.frame_ns);
        if (r.startup.frames > 0) {
            const auto rest =
                std::span<const std::int64_t>(r.series.frame_ns).subspan(r.startup.frames);
            const auto rest_starts =
                std::span<const std::int64_t>(r.series.start_ns).subspan(r.startup.frames);
            r.steady = compute_frame_stats(rest, rest_starts);
            r.steady.refresh = r.stats.refresh;
            for (Hitch& h : r.steady.hitches.hitches)
                h.index += r.startup.frames;
            for (std::size_t& f : r.steady.stutter.frames)
                f += r.startup.frames;
        }
    }
    if (capture.loop.size() == n) {
        r.loop = std::span<const FrameRecord>(capture.loop).subspan(r.range.begin, r.range.size());
        r.loop_config = loop_config_from_metadata(capture);
        r.loop_figures = compute_loop_figures(r.loop, r.loop_config);
    }
    return r;
}

namespace {

constexpr std::array<FigureInfo, 27> kFigures = {{
    {"frames", "frames", "frames analysed", false},
    {"duration_s", "s", "sum of the frame times", false},
    {"avg_fps", "FPS", "frames / total frame time (CapFrameX, OCAT)", false},
    {"min_ms", "ms", "shortest frame time", true},
    {"mean_ms", "ms", "mean frame time", false},
    {"stdev_ms", "ms", "sample standard deviation of the frame times (N-1)", true},
    {"cv", "", "coefficient of variation: stdev / mean", true},
    {"p50_ms", "ms", "median frame time, linear interpolation at h = 0.5·(N-1)", true},
    {"p90_ms", "ms", "90th percentile frame time, interpolated at h = 0.9·(N-1)", true},
    {"p95_ms", "ms", "95th percentile frame time, interpolated at h = 0.95·(N-1)", true},
    {"p99_ms", "ms", "99th percentile frame time, interpolated at h = 0.99·(N-1)", true},
    {"p999_ms", "ms", "99.9th percentile frame time, interpolated at h = 0.999·(N-1)", true},
    {"max_ms", "ms", "longest frame time", true},
    {"p1_low_fps", "FPS", "1% low: 1000 / p99 frame time", true},
    {"p01_low_fps", "FPS", "0.1% low: 1000 / p99.9 frame time", true},
    {"low1_avg_fps", "FPS", "1% low average: 1000 / mean(frame times >= p99) (CapFrameX)", true},
    {"low01_avg_fps", "FPS", "0.1% low average: 1000 / mean(frame times >= p99.9) (CapFrameX)",
     true},
    {"stutter_count", "frames",
     "CapFrameX stutter: frame time > 2.5 x moving average of the round(10·sqrt(mean_ms)) "
     "preceding frames",
     true},
    {"stutter_share", "", "share of the total time spent in CapFrameX stutter frames", true},
    {"hitch_count", "frames", "Unreal hitches: frame time > 60 ms and >= 1.5 x the previous frame",
     true},
    {"hitches_per_min", "1/min", "Unreal hitches per minute of frame time", true},
    {"var_ge12_share", "", "share of frame-to-frame changes |ft_i - ft_(i-1)| >= 12 ms", true},
    {"refresh_hz", "Hz", "refresh rate the frame times cluster on (0: none)", true},
    {"on_grid_share", "", "share of frames within 0.5 ms of a multiple of the refresh period",
     true},
    {"dropped_share", "", "share of presented frames never displayed", true},
    {"app_fps", "FPS", "application (not generated) frames / total time", true},
    {"generated_fps", "FPS", "generated frames (FrameType other than Application) / total time",
     true},
}};

}  // namespace

std::span<const FigureInfo> figure_catalogue() {
    return kFigures;
}

std::string figure_names() {
    std::string out;
    for (const FigureInfo& f : kFigures) {
        if (!out.empty())
            out += ", ";
        out += f.name;
    }
    return out;
}

std::optional<double> frame_figure_value(const FrameStats& s, std::string_view name) {
    const FrameTimeSummary& t = s.frame_time;
    if (name == "frames")
        return static_cast<double>(t.frames);
    if (name == "duration_s")
        return ns_to_s(t.total_ns);
    if (name == "avg_fps")
        return s.fps.average;
    if (name == "min_ms")
        return t.min_ms;
    if (name == "mean_ms")
        return t.mean_ms;
    if (name == "stdev_ms")
        return t.stdev_ms;
    if (name == "cv")
        return t.cv;
    if (name == "p50_ms")
        return t.p50_ms;
    if (name == "p90_ms")
        return t.p90_ms;
    if (name == "p95_ms")
        return t.p95_ms;
    if (name == "p99_ms")
        return t.p99_ms;
    if (name == "p999_ms")
        return t.p999_ms;
    if (name == "max_ms")
        return t.max_ms;
    if (name == "p1_low_fps")
        return s.fps.p1_low;
    if (name == "p01_low_fps")
        return s.fps.p01_low;
    if (name == "low1_avg_fps")
        return s.fps.low1_average;
    if (name == "low01_avg_fps")
        return s.fps.low01_average;
    if (name == "stutter_count")
        return static_cast<double>(s.stutter.frames.size());
    if (name == "stutter_share")
        return s.stutter.time_share;
    if (name == "hitch_count")
        return static_cast<double>(s.hitches.hitches.size());
    if (name == "hitches_per_min")
        return s.hitches.per_minute;
    if (name == "var_ge12_share")
        return s.variation.share(4);
    if (name == "refresh_hz")
        return static_cast<double>(s.refresh.rate_hz);
    if (name == "on_grid_share")
        return s.refresh.on_grid_share;
    return std::nullopt;
}

std::optional<double> figure_value(const CaptureReport& r, std::string_view name) {
    const FigureInfo* info = nullptr;
    for (const FigureInfo& f : kFigures) {
        if (f.name == name)
            info = &f;
    }
    if (!info) {
        throw UsageError(
            fmt::format("unknown figure '{}'; valid figures: {}", name, figure_names()));
    }
    if (info->per_frame && !r.capture->per_frame)
        return std::nullopt;
    if (name == "dropped_share") {
        if (!r.display.available)
            return std::nullopt;
        return r.display.dropped_share;
    }
    if (name == "app_fps" || name == "generated_fps") {
        if (!r.has_generated)
            return std::nullopt;
        return name == "app_fps" ? r.application.average_fps : r.generated.average_fps;
    }
    return frame_figure_value(r.stats, name);
}

}  // namespace loopscope
