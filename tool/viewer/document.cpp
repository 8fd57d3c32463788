// Loading and keeping up to date the per-document series the viewer draws (see document.hpp).
#include "tool/viewer/document.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <map>
#include <string>

#include "common/errors.hpp"
#include "reports/readers.hpp"

namespace loopscope {

void Document::sync_series() {
    const auto& frame = capture.frame_ns;
    const std::size_t from = x_ns.size();
    const bool own_start = capture.start_ns.size() != frame.size();
    for (std::size_t i = from; i < frame.size(); ++i) {
        // Formats without a start column get the running sum of the frame times before each frame.
        const std::int64_t x =
            own_start ? (i == 0 ? 0 : x_ns[i - 1] + frame[i - 1]) : capture.start_ns[i];
        x_ns.push_back(i > 0 ? std::max(x, x_ns[i - 1]) : x);  // keep x ascending for searches
        frame_ns.values.push_back(frame[i]);
    }
    frame_ns.update();
    if (capture.loop.size() == frame.size()) {
        for (std::size_t i = acc_after_ns.values.size(); i < capture.loop.size(); ++i) {
            const FrameRecord& r = capture.loop[i];
            acc_after_ns.values.push_back(r.acc_after_ns);
            steps.values.push_back(r.steps);
            alpha_ppm.values.push_back(std::llround(r.alpha * 1e6));
        }
        acc_after_ns.update();
        steps.update();
        alpha_ppm.update();
    }
}

void Document::compute_stats() {
    stats = compute_frame_stats(frame_ns.values, x_ns);
    sorted_frame_ns = frame_ns.values;
    std::sort(sorted_frame_ns.begin(), sorted_frame_ns.end());
    stats_frames = frame_ns.values.size();
    if (has_loop() && loop_config) {
        loop_figures = compute_loop_figures(capture.loop, *loop_config);
        spiral_onset_frame.reset();
        if (loop_figures->onset_frame && *loop_figures->onset_frame >= 0) {
            spiral_onset_frame = static_cast<std::size_t>(*loop_figures->onset_frame);
        }
    }
}

namespace {

// The knobs a loopscope trace states in its metadata; nullopt when it does not name its policy.
std::optional<LoopConfig> config_from_metadata(const std::map<std::string, std::string>& meta) {
    const auto get = [&](const char* key) -> const std::string* {
        const auto it = meta.find(key);
        return it == meta.end() ? nullptr : &it->second;
    };
    const std::string* policy = get("policy");
    if (!policy) {
        return std::nullopt;
    }
    const auto parsed = parse_policy(*policy);
    if (!parsed) {
        return std::nullopt;
    }
    LoopConfig c;
    c.policy = *parsed;
    try {
        if (const auto* v = get("dt_ns"))
            c.dt_ns = std::stoll(*v);
        if (const auto* v = get("clamp_ns"))
            c.clamp_ns = std::stoll(*v);
        if (const auto* v = get("max_steps"))
            c.max_steps = std::stoll(*v);
        if (const auto* v = get("timescale"))
            c.timescale = std::stod(*v);
        validate(c);
    } catch (const std::exception&) {
        return std::nullopt;  // odd metadata: show the trace without loop figures
    }
    return c;
}

}  // namespace

Document document_from_records(std::string name, std::vector<FrameRecord> records,
                               const LoopConfig& config) {
    Document doc;
    doc.name = std::move(name);
    doc.loop_config = config;
    doc.capture.source.format = "loopscope-trace";
    for (const FrameRecord& r : records) {
        append_record(doc, r);
    }
    doc.sync_series();
    doc.compute_stats();
    return doc;
}

void append_record(Document& doc, const FrameRecord& record) {
    doc.capture.frame_ns.push_back(record.raw_ns);
    doc.capture.start_ns.push_back(record.start_ns);
    doc.capture.loop.push_back(record);
}

Document load_document(const std::string& path, const std::string& process) {
    Document doc;
    doc.path = path;
    doc.name = std::filesystem::path(path).filename().string();
    ReadOptions options;
    options.process = process;
    doc.capture = read_capture(path, options);
    if (!doc.capture.source.process.empty()) {
        doc.name += " (" + doc.capture.source.process + ")";
    }
    if (doc.has_loop()) {
        doc.loop_config = config_from_metadata(doc.capture.metadata);
    }
    doc.sync_series();
    doc.compute_stats();
    return doc;
}

FrameRange frames_in_range(const Document& doc, double begin_ns, double end_ns) {
    const std::span<const std::int64_t> x(doc.x_ns);
    FrameRange r;
    r.first = first_sample_at_or_after(x, begin_ns);
    r.last = std::max(r.first, first_sample_at_or_after(x, end_ns));
    return r;
}

FrameStats range_stats(const Document& doc, std::size_t first, std::size_t last) {
    last = std::min(last, doc.frames());
    first = std::min(first, last);
    const std::span<const std::int64_t> frames(doc.frame_ns.values);
    const std::span<const std::int64_t> starts(doc.x_ns);
    return compute_frame_stats(frames.subspan(first, last - first),
                               starts.subspan(first, last - first));
}

}  // namespace loopscope
