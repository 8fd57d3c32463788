// Chrome Trace Event JSON (the format chrome://tracing and Perfetto open): each frame a complete
// slice on its capture's track, hitches and stutters named so they stand out, and for loopscope
// traces the accumulator, steps and alpha as counters. Timestamps are microseconds.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "core/units.hpp"
#include "reports/writer.hpp"

namespace loopscope {

namespace {

// JSON string escaping for names that come from files (process names, paths).
std::string escape(std::string_view s) {
    std::string out;
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            out += fmt::format("\\u{:04x}", static_cast<int>(c));
        } else {
            out += c;
        }
    }
    return out;
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
        fmt::format_to(std::back_inserter(buf), "{{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
        bool first = true;
        auto event = [&](const std::string& e) {
            if (!first)
                buf.push_back(',');
            first = false;
            fmt::format_to(std::back_inserter(buf), "{}\n", e);
            flush(false);
        };
        for (std::size_t c = 0; c < report.captures.size(); ++c) {
            const CaptureReport& r = report.captures[c];
            const std::size_t pid = c + 1;
            event(fmt::format(
                R"({{"ph":"M","pid":{},"name":"process_name","args":{{"name":"{}{}"}}}})", pid,
                report.captures.size() == 2 ? (c == 0 ? "A: " : "B: ") : "",
                escape(capture_title(r))));
            event(
                fmt::format("{{\"ph\":\"M\",\"pid\":{},\"tid\":1,\"name\":\"thread_name\","
                            "\"args\":{{\"name\":\"frames ({} timeline)\"}}}}",
                            pid, timeline_name(r.timeline)));
            const std::size_t n = r.series.frame_ns.size();
            std::vector<std::uint8_t> flag(n, 0);
            for (const std::size_t i : r.stats.stutter.frames)
                flag[i] |= 1;
            for (const Hitch& h : r.stats.hitches.hitches)
                flag[h.index] |= 2;
            const std::int64_t origin = r.series.start_ns.empty() ? 0 : r.series.start_ns.front();
            for (std::size_t i = 0; i < n; ++i) {
                const char* name = (flag[i] & 2) ? "hitch" : (flag[i] & 1) ? "stutter" : "frame";
                const double ts_us = ns_to_us(r.series.start_ns[i] - origin);
                event(fmt::format(
                    R"({{"ph":"X","pid":{},"tid":1,"name":"{}","ts":{:.3f},"dur":{:.3f},"args":{{"frame":{},"frame_time_ms":{:.4f}}}}})",
                    pid, name, ts_us, ns_to_us(r.series.frame_ns[i]), r.series.frame_number[i],
                    ns_to_ms(r.series.frame_ns[i])));
                if (!r.loop.empty()) {
                    const FrameRecord& rec =
                        r.loop[static_cast<std::size_t>(r.series.frame_number[i]) - r.range.begin];
                    event(fmt::format(
                        R"({{"ph":"C","pid":{},"name":"accumulator_ms","ts":{:.3f},"args":{{"acc_before":{:.6f},"acc_after":{:.6f}}}}})",
                        pid, ts_us, ns_to_ms(rec.acc_before_ns), ns_to_ms(rec.acc_after_ns)));
                    event(fmt::format(
                        R"({{"ph":"C","pid":{},"name":"steps","ts":{:.3f},"args":{{"steps":{}}}}})",
                        pid, ts_us, rec.steps));
                    event(fmt::format(
                        R"({{"ph":"C","pid":{},"name":"alpha","ts":{:.3f},"args":{{"alpha":{:.6f}}}}})",
                        pid, ts_us, rec.alpha));
                }
            }
        }
        fmt::format_to(std::back_inserter(buf), "]}}\n");
        flush(true);
    }
};

}  // namespace

std::unique_ptr<ReportWriter> make_chrome_writer() {
    return std::make_unique<ChromeWriter>();
}

}  // namespace loopscope
