// What `loopscope view --connect` keeps of a game's live stream, bounded however long it runs:
// the newest frames in full (a Document: graphs, statistics, the report's analysis), between
// `window_frames` and twice that many, and every frame before them folded into at most
// `history_buckets` buckets of consecutive frames (their count, time span, shortest, longest
// and total frame time), which merge in pairs as the stream goes on. No ImGui here: the tests
// feed it directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/trace_record.hpp"
#include "tool/viewer/document.hpp"

namespace loopscope {

// Frames folded out of the window, oldest first.
struct HistoryBucket {
    std::int64_t first_frame = 0;  // the frame column of its first row
    std::int64_t frames = 0;
    std::int64_t start_ns = 0;  // the first row's start
    std::int64_t end_ns = 0;    // the last row's start plus its frame time
    std::int64_t min_frame_ns = 0;
    std::int64_t max_frame_ns = 0;
    std::int64_t total_frame_ns = 0;  // held at the int64 maximum rather than wrapping
};

class LiveWindow {
  public:
    // 2^15 frames: about 9 minutes at 60 Hz in full, whatever the stream's length.
    static constexpr std::size_t kWindowFrames = std::size_t{1} << 15;
    static constexpr std::size_t kHistoryBuckets = 4096;

    explicit LiveWindow(std::size_t window_frames = kWindowFrames,
                        std::size_t history_buckets = kHistoryBuckets);
    LiveWindow(const LiveWindow&) = delete;
    LiveWindow& operator=(const LiveWindow&) = delete;

    // Appends the rows received (in order); once the document holds twice the window, the
    // oldest half goes into the history and the document keeps the newest window.
    void add(std::span<const FrameRecord> rows);

    Document& doc() { return doc_; }
    const Document& doc() const { return doc_; }
    const std::vector<HistoryBucket>& history() const { return history_; }
    std::int64_t history_frames() const { return history_frames_; }
    // Frames per history bucket (the last bucket may hold fewer).
    std::int64_t bucket_frames() const { return bucket_frames_; }
    std::int64_t frames_received() const { return frames_received_; }
    // Gaps in the frame numbers received (held at the int64 maximum rather than wrapping).
    std::int64_t missing_frames() const { return missing_frames_; }
    std::size_t window_frames() const { return window_frames_; }

  private:
    void fold_oldest();
    void add_to_history(const FrameRecord& r);

    Document doc_;
    std::size_t window_frames_;
    std::size_t history_buckets_;
    std::vector<HistoryBucket> history_;
    std::int64_t history_frames_ = 0;
    std::int64_t bucket_frames_ = 1;
    std::int64_t frames_received_ = 0;
    std::int64_t missing_frames_ = 0;
    bool have_last_ = false;
    std::int64_t last_frame_ = 0;
};

}  // namespace loopscope
