// Loading and keeping up to date the per-document series the viewer draws (see document.hpp).
#include "tool/viewer/document.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "common/errors.hpp"
#include "readers/readers.hpp"

namespace loopscope {

void Document::sync_series() {
    const auto& frame = capture.frame_ns;
    const std::size_t from = x_ns.size();
    const bool own_start = capture.start_ns.size() != frame.size();
    for (std::size_t i = from; i < frame.size(); ++i) {
        // Formats without a start column get the running sum of the frame times before each
        // frame. Otherwise start_ns counts from the first row, so documents opened together line
        // up at their first frames; a frame began where frame_begin_ns says (core/segments.hpp),
        // as the report's hitch list and --from / --to place it.
        const std::int64_t x =
            own_start ? (i == 0 ? 0 : began_ns[i - 1] + frame[i - 1]) : capture.start_ns[i];
        // A loopscope trace's frame 0 has no frame time (its raw_ns is not one): it begins at
        // its start, as the report's first frame does.
        const bool no_frame_time = i == 0 && !first_frame_is_frame_time(capture);
        const std::int64_t began =
            own_start || no_frame_time
                ? x
                : frame_begin_ns(frame, capture.start_ns, capture.start_ends_frame_time, i,
                                 i > 0 ? began_ns[i - 1] : 0);
        // Kept ascending for the searches.
        x_ns.push_back(i > 0 ? std::max(x, x_ns[i - 1]) : x);
        began_ns.push_back(i > 0 ? std::max(began, began_ns[i - 1]) : began);
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

void Document::analyse() {
    report.reset();  // before the capture's frames are read again
    report_frame_ns.clear();
    histogram = {};
    // A loopscope trace's frame 0 is not a frame time: a report needs a frame after it.
    if (capture.frames() > (first_frame_is_frame_time(capture) ? 0u : 1u)) {
        report = analyse_capture(capture, {});
        report_frame_ns.assign(report->series.frame_ns.begin(), report->series.frame_ns.end());
    }
}

std::optional<std::size_t> Document::spiral_onset_frame() const {
    if (!report || !report->loop_config || !report->loop_figures)
        return std::nullopt;
    const auto& onset = report->loop_figures->onset_frame;
    if (!onset || *onset < 0)
        return std::nullopt;
    return static_cast<std::size_t>(*onset);
}

std::string Document::onset_label() const {
    if (!report || !report->loop_figures)
        return {};
    return std::string(loop_state_name(report->loop_figures->state)) + " from here";
}

void set_loop_metadata(Capture& capture, const LoopConfig& config) {
    capture.metadata["policy"] = std::string(policy_name(config.policy));
    capture.metadata["dt_ns"] = fmt::format("{}", config.dt_ns);
    capture.metadata["clamp_ns"] = fmt::format("{}", config.clamp_ns);
    capture.metadata["max_steps"] = fmt::format("{}", config.max_steps);
    capture.metadata["timescale"] = fmt::format("{}", config.timescale);
}

std::unique_ptr<Document> document_from_records(std::string name, std::vector<FrameRecord> records,
                                                const LoopConfig& config) {
    auto doc = std::make_unique<Document>();
    doc->name = std::move(name);
    describe_as(doc->capture, "loopscope-trace");
    set_loop_metadata(doc->capture, config);
    for (const FrameRecord& r : records) {
        append_record(*doc, r);
    }
    doc->sync_series();
    doc->analyse();
    return doc;
}

void append_record(Document& doc, const FrameRecord& record) {
    doc.capture.frame_ns.push_back(record.raw_ns);
    doc.capture.start_ns.push_back(record.start_ns);
    doc.capture.loop.push_back(record);
}

std::unique_ptr<Document> load_document(const std::string& path, const std::string& process,
                                        bool strict) {
    auto doc = std::make_unique<Document>();
    doc->path = path;
    doc->name = std::filesystem::path(path).filename().string();
    ReadOptions options;
    options.process = process;
    options.strict = strict;
    doc->capture = read_capture(path, options);
    if (!doc->capture.source.process.empty()) {
        doc->name += " (" + doc->capture.source.process + ")";
    }
    doc->sync_series();
    doc->analyse();
    return doc;
}

SelectedFrames frames_in_range(const Document& doc, double begin_ns, double end_ns) {
    const std::span<const std::int64_t> x(doc.began_ns);
    SelectedFrames r;
    r.first = first_sample_at_or_after(x, begin_ns);
    // Frame 0 of a loopscope trace is not a frame time, so a selection starts after it.
    if (!first_frame_is_frame_time(doc.capture))
        r.first = std::max<std::size_t>(r.first, 1);
    r.last = std::max(r.first, first_sample_at_or_after(x, end_ns));
    return r;
}

CaptureReport range_report(const Document& doc, std::size_t first, std::size_t last) {
    AnalysisOptions options;
    options.from = {RangeBound::Kind::frame, static_cast<std::int64_t>(first)};
    options.to = {RangeBound::Kind::frame, static_cast<std::int64_t>(last)};
    return analyse_capture(doc.capture, options);
}

}  // namespace loopscope
