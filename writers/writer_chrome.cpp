// Chrome Trace Event JSON (the format chrome://tracing and Perfetto open): each frame a complete
// slice over [frame start, frame end] on its capture's track, slices never partially overlapping,
// hitches and stutters named so they stand out, and for loopscope traces the accumulator, steps
// and alpha as counters at each frame's start. A sampled log (MangoHud, MSI Afterburner) is a
// counter track of its samples at their times instead. The game's zones and marks (a trace v2)
// are slices and instants on a track of their own. Timestamps are microseconds.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "core/units.hpp"
#include "writers/frame_spans.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

// Whole microseconds, rounded to the nearest. Parsers add ts and dur as doubles: with fractions
// (16666.667 + 150000.000 = 166666.66700000002) a slice that ends where the next begins reaches
// past it and is nested under it (Chrome DevTools' trace engine did so for 26 of 299 frames);
// whole numbers add exactly. Rounding both ends keeps the order, so touching slices stay
// touching and each lasts its frame time to within a microsecond.
std::int64_t whole_us(std::int64_t ns) {
    return ns >= 0 ? (ns + 500) / 1000 : -((-ns + 500) / 1000);
}

class ChromeWriter final : public ReportWriter {
  public:
    void write(const Report& report, OutputFile& out) const override {
        fmt::memory_buffer buf;
        auto flush = [&](bool force) {
            if (force || buf.size() > (1 << 16)) {
                out.write(std::string_view(buf.data(), buf.size()));
                buf.clear();
            }
        };
        fmt::format_to(fmt::appender(buf), "{{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
        bool first = true;
        // Each event is formatted straight into the buffer, with its format parsed at compile
        // time: an event is written per frame, and per loop record three.
        auto event = [&](const auto& format, const auto&... args) {
            if (!first)
                buf.push_back(',');
            first = false;
            fmt::format_to(fmt::appender(buf), format, args...);
            buf.push_back('\n');
            flush(false);
        };
        for (std::size_t c = 0; c < report.captures.size(); ++c) {
            const CaptureReport& r = report.captures[c];
            const std::size_t pid = c + 1;
            event(
                FMT_COMPILE(R"({{"ph":"M","pid":{},"name":"process_name","args":{{"name":{}}}}})"),
                pid,
                json_string((report.captures.size() == 2 ? (c == 0 ? "A: " : "B: ") : "") +
                            capture_title(r)));
            event(FMT_COMPILE("{{\"ph\":\"M\",\"pid\":{},\"tid\":1,\"name\":\"thread_name\","
                              "\"args\":{{\"name\":\"{} ({} timeline)\"}}}}"),
                  pid, r.capture->per_frame ? "frames" : "samples", timeline_name(r.timeline));
            const std::size_t n = r.series.frame_ns.size();
            if (!r.capture->per_frame) {
                // A sampled log's rows are not frames laid end to end: each is a value at its
                // own time on the log's clock (a frame's time at the logging instant, or an
                // interval's frame rate as a frame time), so they are a counter at those times.
                // Times are the report's: since the first row's time stamp (t = 0).
                const std::int64_t origin = 0;
                for (std::size_t i = 0; i < n && i < r.series.start_ns.size(); ++i) {
                    event(
                        FMT_COMPILE(
                            R"({{"ph":"C","pid":{},"name":"sampled_frame_time_ms","ts":{},"args":{{"frame_time_ms":{:.4f}}}}})"),
                        pid, whole_us(r.series.start_ns[i] - origin),
                        ns_to_ms(r.series.frame_ns[i]));
                }
                continue;
            }
            std::vector<std::uint8_t> flag(n, 0);
            for (const std::size_t i : r.stats.stutter.frames)
                flag[i] |= 1;
            for (const Hitch& h : r.stats.hitches.hitches)
                flag[h.index] |= 2;
            // Each slice spans its frame, [frame start, frame end], and none reaches into the
            // next, so that viewers nest nothing wrongly on the track.
            // On the report's time axis (t = 0 at the first row's time stamp), so that a hitch
            // is where the report's hitch list puts it, whatever range was chosen.
            const std::vector<FrameSpan> spans = laid_out_frame_spans(r);
            const std::int64_t origin = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const char* name = (flag[i] & 2) ? "hitch" : (flag[i] & 1) ? "stutter" : "frame";
                const FrameSpan& s = spans[i];
                event(
                    FMT_COMPILE(
                        R"({{"ph":"X","pid":{},"tid":1,"name":"{}","ts":{},"dur":{},"args":{{"frame":{},"frame_time_ms":{:.4f}}}}})"),
                    pid, name, whole_us(s.begin_ns - origin),
                    whole_us(s.end_ns - origin) - whole_us(s.begin_ns - origin), s.frame,
                    ns_to_ms(r.series.frame_ns[i]));
            }
            // The game's own zones (slices, nested by depth) and marks (instants) on a track of
            // their own, those within the frames reported.
            const Capture& capture = *r.capture;
            if (n > 0 && (!capture.zones.empty() || !capture.marks.empty())) {
                const std::int64_t from_ns = spans.front().begin_ns;
                const std::int64_t to_ns = spans.back().end_ns;
                event(FMT_COMPILE("{{\"ph\":\"M\",\"pid\":{},\"tid\":2,\"name\":\"thread_name\","
                                  "\"args\":{{\"name\":\"the game's zones and marks\"}}}}"),
                      pid);
                for (const Zone& z : capture.zones) {
                    if (z.end_ns < from_ns || z.begin_ns > to_ns)
                        continue;
                    const std::int64_t ts = whole_us(z.begin_ns - origin);
                    event(
                        FMT_COMPILE(
                            R"({{"ph":"X","pid":{},"tid":2,"name":{},"cat":"zone","ts":{},"dur":{},"args":{{"frame":{},"depth":{},"ms":{:.4f}}}}})"),
                        pid, json_string(z.label), ts, whole_us(z.end_ns - origin) - ts, z.frame,
                        z.depth, ns_to_ms(z.end_ns - z.begin_ns));
                }
                for (const Mark& m : capture.marks) {
                    if (m.t_ns < from_ns || m.t_ns > to_ns)
                        continue;
                    event(
                        FMT_COMPILE(
                            R"({{"ph":"i","s":"t","pid":{},"tid":2,"name":{},"cat":"mark","ts":{},"args":{{"frame":{}}}}})"),
                        pid, json_string(m.label), whole_us(m.t_ns - origin), m.frame);
                }
            }
            // The loop's state at each frame's start, where the engine measured and stepped.
            for (const FrameRecord& rec : r.loop) {
                const std::int64_t ts = whole_us(rec.start_ns - origin);
                event(
                    FMT_COMPILE(
                        R"({{"ph":"C","pid":{},"name":"accumulator_ms","ts":{},"args":{{"acc_before":{:.6f},"acc_after":{:.6f}}}}})"),
                    pid, ts, ns_to_ms(rec.acc_before_ns), ns_to_ms(rec.acc_after_ns));
                event(FMT_COMPILE(
                          R"({{"ph":"C","pid":{},"name":"steps","ts":{},"args":{{"steps":{}}}}})"),
                      pid, ts, rec.steps);
                event(
                    FMT_COMPILE(
                        R"({{"ph":"C","pid":{},"name":"alpha","ts":{},"args":{{"alpha":{:.6f}}}}})"),
                    pid, ts, rec.alpha);
            }
        }
        fmt::format_to(fmt::appender(buf), "]}}\n");
        flush(true);
    }
};

}  // namespace

std::unique_ptr<ReportWriter> make_chrome_writer() {
    return std::make_unique<ChromeWriter>();
}

}  // namespace loopscope
