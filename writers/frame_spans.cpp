// Frame spans from the capture's frame times and where its time column sits on them.
#include "writers/frame_spans.hpp"

#include <algorithm>

#include "core/units.hpp"

namespace loopscope {

namespace {

// What places a capture's frames on its time column, the same for all of them.
struct SpanRule {
    bool start_ends_frame = false;  // the time column ends the frame instead of starting it
    // In a loopscope trace the row that measured the time is the frame after the one that took
    // it (frame 0 has no such row: its raw_ns is not a frame time).
    bool measured_by_next = false;

    explicit SpanRule(const Capture& capture)
        : start_ends_frame(capture.start_ends_frame_time),
          measured_by_next(capture.start_ends_frame_time && !first_frame_is_frame_time(capture)) {}

    FrameSpan at(const CaptureReport& report, std::size_t i) const {
        const std::int64_t number = report.series.frame_number[i];
        const std::int64_t length_ns = report.series.frame_ns[i];
        const std::int64_t at_ns = report.series.start_ns[i];
        // Saturated at the int64 range: a damaged capture's time stamps can lie anywhere.
        if (!start_ends_frame)
            return {number, at_ns, saturating_add_ns(at_ns, length_ns)};
        return {measured_by_next ? number - 1 : number, saturating_add_ns(at_ns, -length_ns),
                at_ns};
    }
};

}  // namespace

FrameSpan frame_span(const CaptureReport& report, std::size_t i) {
    return SpanRule(*report.capture).at(report, i);
}

namespace {

// The spans of `indices`, in their order (repeats allowed): find(wanted, found) fills the span of
// each distinct index, `wanted` ascending.
template <class Find>
std::vector<FrameSpan> spans_at(std::span<const std::size_t> indices, Find find) {
    std::vector<std::size_t> wanted(indices.begin(), indices.end());
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::vector<FrameSpan> found(wanted.size());
    find(wanted, found);
    std::vector<FrameSpan> spans;
    spans.reserve(indices.size());
    for (const std::size_t i : indices) {
        const auto at = std::lower_bound(wanted.begin(), wanted.end(), i) - wanted.begin();
        spans.push_back(found[static_cast<std::size_t>(at)]);
    }
    return spans;
}

}  // namespace

std::vector<FrameSpan> frame_spans_at(const CaptureReport& report,
                                      std::span<const std::size_t> indices) {
    return spans_at(
        indices, [&](const std::vector<std::size_t>& wanted, std::vector<FrameSpan>& found) {
            const Capture& c = *report.capture;
            const SpanRule rule(c);
            // Series indices in order are capture rows in order: one walk places them all.
            FrameBegins begins(c.frame_ns, c.start_ns, c.start_ends_frame_time);
            for (std::size_t k = 0; k < wanted.size(); ++k) {
                const std::size_t i = wanted[k];
                const auto row = static_cast<std::size_t>(report.series.frame_number[i]);
                const std::int64_t begin = begins.at(row);
                found[k] = {rule.at(report, i).frame, begin,
                            saturating_add_ns(begin, report.series.frame_ns[i])};
            }
        });
}

namespace {

// Hands visit(i, span) every series frame's span in order, laid out end to end (see
// laid_out_frame_spans), until visit returns false.
template <class Visit>
void lay_out(const CaptureReport& report, Visit visit) {
    const auto& number = report.series.frame_number;
    const Capture& c = *report.capture;
    const SpanRule rule(c);
    FrameBegins begins(c.frame_ns, c.start_ns, c.start_ends_frame_time);
    FrameSpan previous;
    for (std::size_t i = 0; i < report.series.frame_ns.size(); ++i) {
        FrameSpan s = rule.at(report, i);
        const std::int64_t length_ns = report.series.frame_ns[i];
        // The next frame of the capture begins where this one ended; the first, and the first
        // after frames left out (never displayed, generated, NA), begin where the time axis
        // places them (core/segments.hpp, frame_begin_ns), never before the previous end.
        if (i > 0 && number[i] == number[i - 1] + 1) {
            s.begin_ns = previous.end_ns;
        } else {
            s.begin_ns = begins.at(static_cast<std::size_t>(number[i]));
            if (i > 0)
                s.begin_ns = std::max(s.begin_ns, previous.end_ns);
        }
        s.end_ns = saturating_add_ns(s.begin_ns, length_ns);
        if (!visit(i, s))
            return;
        previous = s;
    }
}

}  // namespace

std::vector<FrameSpan> laid_out_frame_spans(const CaptureReport& report) {
    std::vector<FrameSpan> spans;
    spans.reserve(report.series.frame_ns.size());
    lay_out(report, [&](std::size_t, const FrameSpan& s) {
        spans.push_back(s);
        return true;
    });
    return spans;
}

std::vector<FrameSpan> laid_out_frame_spans_at(const CaptureReport& report,
                                               std::span<const std::size_t> indices) {
    if (indices.empty())
        return {};
    return spans_at(indices,
                    [&](const std::vector<std::size_t>& wanted, std::vector<FrameSpan>& found) {
                        std::size_t next = 0;
                        // Each span is placed after the one before, so the walk goes up to the last
                        // one wanted.
                        lay_out(report, [&](std::size_t i, const FrameSpan& s) {
                            if (wanted[next] == i) {
                                found[next] = s;
                                ++next;
                            }
                            return next < wanted.size();
                        });
                    });
}

}  // namespace loopscope
