// Statistics over a clock's sample stream, in the clock's own integer ticks: pure functions and
// one accumulator, no clock and no OS, so tests feed them made-up streams and check exact
// values. Nanoseconds appear only where a TickScale is given (histogram, drift).
//
// Definitions (also in docs/probe-clocks.md):
//   delta            = sample[i+1] - sample[i] for back-to-back reads within one batch
//   zero_delta_share = deltas equal to 0 / all deltas
//   backward_steps   = deltas < 0
//   granularity_min  = smallest delta > 0
//   granularity_median = lower median of the deltas > 0 (element (n-1)/2 of them sorted)
//   drift_ppm        = (clock elapsed in ns - reference elapsed ns) / reference elapsed ns * 1e6
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "probes/clock_source.hpp"

namespace loopscope {

// Counts of the deltas seen, by value. Small positive deltas (the common case) are counted in a
// flat array so that a stream of millions of reads is tallied quickly; the rest in a map.
class DeltaCounts {
  public:
    // Adds the deltas between consecutive samples of one batch. Batches are independent: no
    // delta is formed across two calls, since the gap between batches is not a clock step.
    void add_batch(std::span<const std::int64_t> ticks);

    std::int64_t deltas() const { return deltas_; }
    std::int64_t zero_deltas() const { return zero_; }
    std::int64_t backward_steps() const { return backward_; }
    // Every positive delta value with its count, ascending.
    std::map<std::int64_t, std::int64_t> positive() const;

  private:
    static constexpr std::int64_t kFlat = 4096;
    std::int64_t deltas_ = 0;
    std::int64_t zero_ = 0;
    std::int64_t backward_ = 0;
    std::vector<std::int64_t> flat_ = std::vector<std::int64_t>(kFlat, 0);
    std::map<std::int64_t, std::int64_t> large_;
};

struct GranularityStats {
    std::int64_t deltas = 0;
    std::int64_t zero_deltas = 0;
    std::int64_t backward_steps = 0;
    std::int64_t min_ticks = 0;     // smallest positive delta; 0 when none was seen
    std::int64_t median_ticks = 0;  // lower median of the positive deltas; 0 when none
    double zero_delta_share = 0.0;  // 0 when there are no deltas
    friend bool operator==(const GranularityStats&, const GranularityStats&) = default;
};

GranularityStats granularity_stats(const DeltaCounts& counts);

// One histogram bucket: deltas of min_ns..max_ns nanoseconds (inclusive). Bucket edges are 0,
// (zero deltas only), then powers of two: [1,1], [2,3], [4,7], ... A positive delta is placed by
// its length in nanoseconds rounded up, so a sub-nanosecond TSC step counts in [1,1].
struct HistogramBucket {
    std::int64_t min_ns = 0;
    std::int64_t max_ns = 0;
    std::int64_t count = 0;
    friend bool operator==(const HistogramBucket&, const HistogramBucket&) = default;
};

// Non-empty buckets of the zero and positive deltas, ascending. Backward steps are not in it.
std::vector<HistogramBucket> delta_histogram(const DeltaCounts& counts, TickScale scale);

// Rate error of a clock against the reference over the same interval, in parts per million.
double drift_ppm(std::int64_t clock_elapsed_ticks, TickScale scale,
                 std::int64_t reference_elapsed_ns);

// The median of a sample (mean of the two middle values for an even count); 0 for none.
double median(std::vector<double> values);

// Share of the positive deltas that lie within tolerance_ns of a whole multiple of tick_ns:
// how far a coarse clock advances in whole kernel ticks. 0 when there are no positive deltas.
double share_in_whole_ticks(const DeltaCounts& counts, TickScale scale, std::int64_t tick_ns,
                            std::int64_t tolerance_ns);

// One step of a coarse clock as seen by a reader that reads it and the finer clock it samples
// back to back: how far it moved, and how much time (by the finer clock) lay between the read
// before the step and the read that saw it. A step of several ticks seen across a gap much
// shorter than a tick was made by the kernel at once; across a gap of a tick or more the reader
// was away (preempted) and simply missed the steps in between.
struct CoarseStep {
    std::int64_t step_ns = 0;
    std::int64_t reader_gap_ns = 0;
};

struct CoarseStepStats {
    std::int64_t steps = 0;
    std::int64_t one_tick = 0;    // within the tolerance of one tick
    std::int64_t multi_tick = 0;  // within the tolerance of two or more ticks
    std::int64_t other = 0;       // not a whole number of ticks
    // Multi-tick steps seen between two reads less than half a tick apart (the reader was
    // watching: the clock itself jumped), and the widest such gap.
    std::int64_t multi_tick_watched = 0;
    std::int64_t multi_tick_watched_max_gap_ns = 0;
    std::int64_t max_ticks = 0;       // largest whole-tick step, in ticks
    std::int64_t median_step_ns = 0;  // lower median of the steps; 0 when none
    std::int64_t median_gap_ns = 0;   // lower median of the reader gaps at the steps
    friend bool operator==(const CoarseStepStats&, const CoarseStepStats&) = default;
};

// Classifies the steps against tick_ns (the kernel tick). Pure: tests feed made-up steps.
CoarseStepStats coarse_step_stats(std::span<const CoarseStep> steps, std::int64_t tick_ns,
                                  std::int64_t tolerance_ns);

}  // namespace loopscope
