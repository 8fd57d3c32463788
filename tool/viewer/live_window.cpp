// The live stream's bounded record (see live_window.hpp).
#include "tool/viewer/live_window.hpp"

#include <algorithm>

namespace loopscope {

namespace {

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

HistoryBucket merged(const HistoryBucket& a, const HistoryBucket& b) {
    HistoryBucket m = a;
    m.frames = a.frames + b.frames;
    m.end_ns = std::max(a.end_ns, b.end_ns);
    m.min_frame_ns = std::min(a.min_frame_ns, b.min_frame_ns);
    m.max_frame_ns = std::max(a.max_frame_ns, b.max_frame_ns);
    m.total_frame_ns = saturating_add(a.total_frame_ns, b.total_frame_ns);
    return m;
}

}  // namespace

LiveWindow::LiveWindow(std::size_t window_frames, std::size_t history_buckets)
    : window_frames_(std::max<std::size_t>(window_frames, 1)),
      history_buckets_(std::max<std::size_t>(history_buckets, 2) & ~std::size_t{1}) {
    // Room for the most the document holds, once: grown by doubling, the vectors would take up
    // to twice that.
    const std::size_t most = 2 * window_frames_;
    doc_.capture.loop.reserve(most);
    doc_.capture.frame_ns.reserve(most);
    doc_.capture.start_ns.reserve(most);
    doc_.x_ns.reserve(most);
    doc_.began_ns.reserve(most);
    for (PlotSeries* s : {&doc_.frame_ns, &doc_.acc_after_ns, &doc_.steps, &doc_.alpha_ppm})
        s->values.reserve(most);
}

void LiveWindow::add(std::span<const FrameRecord> rows) {
    for (const FrameRecord& r : rows) {
        if (have_last_ && r.frame > last_frame_) {
            std::int64_t gap = 0;
            missing_frames_ = __builtin_sub_overflow(r.frame, last_frame_, &gap)
                                  ? INT64_MAX
                                  : saturating_add(missing_frames_, gap - 1);
        }
        have_last_ = true;
        last_frame_ = r.frame;
        ++frames_received_;
        append_record(doc_, r);
        if (doc_.capture.loop.size() >= 2 * window_frames_)
            fold_oldest();
    }
    doc_.sync_series();
}

void LiveWindow::add_to_history(const FrameRecord& r) {
    const std::int64_t end_ns = saturating_add(r.start_ns, std::max<std::int64_t>(r.raw_ns, 0));
    if (history_.empty() || history_.back().frames >= bucket_frames_) {
        if (history_.size() == history_buckets_) {
            // Full: neighbours merge in pairs, and each bucket from now on takes twice the frames.
            for (std::size_t i = 0; i < history_.size() / 2; ++i)
                history_[i] = merged(history_[2 * i], history_[2 * i + 1]);
            history_.resize(history_.size() / 2);
            bucket_frames_ *= 2;
        }
        if (history_.empty() || history_.back().frames >= bucket_frames_) {
            history_.push_back({r.frame, 0, r.start_ns, end_ns, r.raw_ns, r.raw_ns, 0});
        }
    }
    HistoryBucket& b = history_.back();
    ++b.frames;
    b.end_ns = std::max(b.end_ns, end_ns);
    b.min_frame_ns = std::min(b.min_frame_ns, r.raw_ns);
    b.max_frame_ns = std::max(b.max_frame_ns, r.raw_ns);
    b.total_frame_ns = saturating_add(b.total_frame_ns, r.raw_ns);
    ++history_frames_;
}

void LiveWindow::fold_oldest() {
    Capture& c = doc_.capture;
    const std::size_t fold = c.loop.size() - window_frames_;
    for (std::size_t i = 0; i < fold; ++i)
        add_to_history(c.loop[i]);
    const auto drop = static_cast<std::ptrdiff_t>(fold);
    c.loop.erase(c.loop.begin(), c.loop.begin() + drop);
    c.frame_ns.erase(c.frame_ns.begin(), c.frame_ns.begin() + drop);
    c.start_ns.erase(c.start_ns.begin(), c.start_ns.begin() + drop);
    // The document's series are built again from the frames kept (their vectors keep their
    // room, which never passes twice the window).
    doc_.report.reset();
    doc_.x_ns.clear();
    doc_.began_ns.clear();
    doc_.report_frame_ns.clear();
    doc_.histogram = {};
    for (PlotSeries* s : {&doc_.frame_ns, &doc_.acc_after_ns, &doc_.steps, &doc_.alpha_ppm}) {
        s->values.clear();
        s->pyramid.clear();
    }
    doc_.sync_series();
}

}  // namespace loopscope
