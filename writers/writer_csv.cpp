// The per-frame CSV: one row per analysed frame with the values the statistics derived for it
// (frame-to-frame change, stutter and hitch flags, start-up membership) and the loop columns of
// a loopscope trace, for spreadsheets and plotting scripts. Written in chunks, not as one string.
// A row is formatted straight into the chunk, with no string per cell. Not with FMT_COMPILE:
// Debian's fmt 9 compiled formats wrote past the chunk in the mingw-w64 build (a crash under wine
// in the CSV writer's test), while the checked runtime formats are right on every platform.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/units.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

class CsvWriter final : public ReportWriter {
  public:
    void write(const Report& report, OutputFile& out) const override {
        const bool any_loop = std::any_of(report.captures.begin(), report.captures.end(),
                                          [](const CaptureReport& r) { return !r.loop.empty(); });
        fmt::memory_buffer buf;
        fmt::format_to(fmt::appender(buf),
                       "capture,frame,start_s,frame_time_ms,fps,change_ms,capframex_stutter_time,"
                       "unreal_hitch,startup,generated,hitch_cause");
        // Where each frame's time went (core/bottleneck.hpp), where a capture has the columns.
        const bool any_bound =
            std::any_of(report.captures.begin(), report.captures.end(), [](const CaptureReport& r) {
                return bottleneck_rule(*r.capture) != BottleneckRule::none;
            });
        if (any_bound)
            fmt::format_to(fmt::appender(buf), ",bound");
        if (any_loop) {
            fmt::format_to(fmt::appender(buf),
                           ",steps,acc_after_ms,alpha,clamp_lost_ms,"
                           "cap_dropped_ms");
        }
        buf.push_back('\n');
        for (std::size_t c = 0; c < report.captures.size(); ++c) {
            const CaptureReport& r = report.captures[c];
            const char* label = report.captures.size() == 2 ? (c == 0 ? "A" : "B") : "A";
            const std::size_t n = r.series.frame_ns.size();
            std::vector<std::uint8_t> stutter(n, 0), hitch(n, 0);
            for (const std::size_t i : r.stats.stutter.frames)
                stutter[i] = 1;
            // Each hitch's cause kind (its largest part), by position in the series.
            std::vector<std::pair<std::size_t, std::string>> causes;
            for (const Hitch& h : r.stats.hitches.hitches) {
                hitch[h.index] = 1;
                causes.emplace_back(h.index, report_hitch_cause(r, h).kind);
            }
            std::size_t next_cause = 0;
            const auto& gen = r.capture->generated;
            const bool per_frame = r.capture->per_frame;
            // Only a FrameType column says whether a frame was generated; without one the cell
            // is empty (a 0 would claim the frame was the application's).
            const bool marks_generated = gen.size() == r.capture->frames();
            FrameBegins begins(r.capture->frame_ns, r.capture->start_ns,
                               r.capture->start_ends_frame_time);
            for (std::size_t i = 0; i < n; ++i) {
                const std::int64_t ft = r.series.frame_ns[i];
                const auto frame = static_cast<std::size_t>(r.series.frame_number[i]);
                // A sampled log's rows are interval averages: the per-frame flags (stutter,
                // hitch, start-up) do not exist for them, so their cells are empty, not 0.
                const auto flag = [&](bool set) -> std::string_view {
                    return per_frame ? (set ? "1" : "0") : "";
                };
                // start_s: when the frame began on the report's time axis, as the hitch lists and
                // --from place it; a sampled log's row at its own time.
                const std::int64_t start_ns =
                    per_frame ? begins.at(static_cast<std::size_t>(r.series.frame_number[i]))
                              : r.series.start_ns[i];
                fmt::format_to(fmt::appender(buf), "{},{},{:.6f},{:.4f},{:.3f},", label, frame,
                               ns_to_s(start_ns), ns_to_ms(ft),
                               ft > 0 ? 1e9 / static_cast<double>(ft) : 0.0);
                if (i > 0) {
                    fmt::format_to(fmt::appender(buf), "{:.4f}",
                                   ns_to_ms(ft - r.series.frame_ns[i - 1]));
                }
                fmt::format_to(fmt::appender(buf), ",{},{},{},{}", flag(stutter[i] != 0),
                               flag(hitch[i] != 0), flag(i < r.startup.frames),
                               marks_generated ? (gen[frame] ? "1" : "0") : std::string_view());
                std::string_view cause;
                if (next_cause < causes.size() && causes[next_cause].first == i)
                    cause = causes[next_cause++].second;
                fmt::format_to(fmt::appender(buf), ",{}", cause);
                if (any_bound) {
                    const Bound b = frame_bound(*r.capture, frame);
                    fmt::format_to(fmt::appender(buf), ",{}",
                                   b == Bound::cpu    ? "cpu"
                                   : b == Bound::gpu  ? "gpu"
                                   : b == Bound::wait ? "wait"
                                                      : "");
                }
                if (any_loop) {
                    if (!r.loop.empty()) {
                        const FrameRecord& rec = r.loop[frame - r.range.begin];
                        fmt::format_to(fmt::appender(buf), ",{},{:.6f},{:.6f},{:.6f},{:.6f}",
                                       rec.steps, ns_to_ms(rec.acc_after_ns), rec.alpha,
                                       ns_to_ms(rec.clamp_lost_ns), ns_to_ms(rec.cap_dropped_ns));
                    } else {
                        fmt::format_to(fmt::appender(buf), ",,,,,");
                    }
                }
                buf.push_back('\n');
                if (buf.size() > (1 << 16)) {
                    out.write(std::string_view(buf.data(), buf.size()));
                    buf.clear();
                }
            }
        }
        out.write(std::string_view(buf.data(), buf.size()));
    }
};

}  // namespace

std::unique_ptr<ReportWriter> make_csv_writer() {
    return std::make_unique<CsvWriter>();
}

}  // namespace loopscope
