// Comparison of two captures (before and after a change): each figure of B minus A, with a 95 %
// interval from a block bootstrap so a user can tell a real change from run-to-run noise.
// Frame times are autocorrelated (a slow stretch lasts many frames), so whole blocks of
// consecutive frames are resampled, not single frames (core/block_bootstrap.hpp). The random
// generator is seeded and the resampling uses only integer arithmetic on it, so a comparison
// gives the same interval on every run and every platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/analysis.hpp"

namespace loopscope {

inline constexpr std::size_t kBootstrapResamples = 200;
inline constexpr std::uint64_t kBootstrapSeed = 0x6c6f6f7073636f70;  // "loopscop"

// Block length for N frames: round(√N), at least 1 — long enough to keep a slow stretch
// together, short enough to leave √N blocks to shuffle.
std::size_t bootstrap_block_frames(std::size_t frames);

// One resample of `frame_ns`: the series cut into ⌊N / b⌋ blocks of consecutive frames that
// tile it, as many drawn uniformly with replacement and joined in the order drawn
// (block_bootstrap.hpp). `state` is the generator state (splitmix64), advanced by the call.
std::vector<std::int64_t> block_resample(std::span<const std::int64_t> frame_ns, std::size_t block,
                                         std::uint64_t& state);

// The figures of the resample block_resample(frame_ns, block, state) draws, as the comparison
// forms them from the drawn blocks without joining them: what compute_frame_stats(
// block_resample(frame_ns, block, state), {}, false) gives for every figure the comparison
// reads — the same to the bit but for the standard deviation (from the blocks' own means and
// squares, equal up to the rounding of the sums) and MangoHud's average (ascending.hpp). The
// hitches and the stutter frames are there in number only (their details are not formed) and
// the refresh guess is left out.
FrameStats resampled_frame_stats(std::span<const std::int64_t> frame_ns, std::size_t block,
                                 std::uint64_t state);

struct Figure;
// The figures compared: the catalogue's figures marked `compared`, computed from frame times
// alone (not frames, duration_s or the refresh grid, which a resample does not change
// meaningfully) or from one other per-frame column (`column_values`), which is resampled on its
// own.
std::vector<const Figure*> compared_figures();
// Those of them both captures have: the frames' figures for two per-frame captures, the
// samples' figures (resampled in blocks of consecutive samples) for two sampled logs.
std::vector<const Figure*> compared_figures(const CaptureReport& a, const CaptureReport& b);
// Those compared on `timeline`: as above, without each tool's own figures off the present
// timeline (a tool's rule is of its present-to-present times). Each figure left out that one
// capture has, or that is not of the timeline, is added to `absent` with the reason.
std::vector<const Figure*> compared_figures(const CaptureReport& a, const CaptureReport& b,
                                            ComparedTimeline timeline,
                                            std::vector<AbsentDifference>* absent);

// A capture's intervals on one timeline, empty when it does not have that timeline: the
// application's (CaptureReport::application_intervals_ns: marked, estimated or from the
// application's frame-start column), the displayed frames' (the display timeline, the displayed
// cadence, or the display-change times of the range), or the present timeline's series.
// `source` says where they come from. Moving it keeps `ns` valid; copying it does not.
struct TimelineSeries {
    std::span<const std::int64_t> ns;
    std::vector<std::int64_t> owned;  // what `ns` views when computed here
    std::string source;
    TimelineSeries() = default;
    TimelineSeries(TimelineSeries&&) = default;
    TimelineSeries& operator=(TimelineSeries&&) = default;
    TimelineSeries(const TimelineSeries&) = delete;
    TimelineSeries& operator=(const TimelineSeries&) = delete;
};
TimelineSeries timeline_series(const CaptureReport& report, ComparedTimeline timeline);

// The timeline two captures are compared on: the application's frames when both have them;
// else the displayed frames when both have display-change times and their present timelines are
// not both of every present (one mixes generated frames in, or leaves them out); else the
// present timeline (for sampled logs, their samples). `reason`, when given, says why, naming
// what each capture has.
ComparedTimeline choose_timeline(const CaptureReport& a, const CaptureReport& b,
                                 std::string* reason = nullptr);

// Two captures that are two layouts of one recording (a tool writing the same presents in two
// column layouts): the frames both hold. One layout may hold presents the other never wrote at
// its end (PresentMon 2.x never writes a swap chain's last present; 1.x does). Each capture keeps
// every row; only a comparison of the two is cut to the frames both hold, so that it compares
// the same presents. nullopt unless the two differ in length and every present both hold is at
// the same time since the first one (each frame time within kSameRecordingToleranceNs), over at
// least kSameRecordingMinFrames frames whose times are not all equal; captures with a game
// loop's columns are never aligned.
inline constexpr std::int64_t kSameRecordingToleranceNs = 1'000;
inline constexpr std::size_t kSameRecordingMinFrames = 32;
struct RecordingAlignment {
    std::size_t frames_a = 0;  // frames [0, frames_a) of A are compared
    std::size_t frames_b = 0;
    // What was left out and why, to append to the comparison's timeline_reason ("; ...").
    std::string note;
};
std::optional<RecordingAlignment> align_one_recording(const Capture& a, const Capture& b);

// The resamples run on every core the machine has; the result is the same whatever the number
// of threads (each resample's generator state is fixed before any of them runs). `progress`,
// when given, is called on the calling thread with the fraction done.
Comparison compare_captures(const CaptureReport& a, const CaptureReport& b,
                            std::size_t resamples = kBootstrapResamples,
                            std::uint64_t seed = kBootstrapSeed,
                            const std::function<void(double)>& progress = {},
                            unsigned threads = 0);  // 0 = one per core

}  // namespace loopscope
