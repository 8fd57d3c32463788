// Min/max decimation of long series for plotting: what a frame-time graph needs to draw ten
// million frames at the cost of the few thousand pixel columns on screen. A plot shows, per pixel
// column, the smallest and largest value of the samples that fall in it, so no spike is lost
// however far the view is zoomed out. A MinMaxPyramid (min/max of aligned blocks of 16, 32, 64 …
// samples) answers each column in O(log n), so preparing a screen does not touch every sample.
// Pure computation over plain data: the viewer draws it, the HTML report may too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace loopscope {

struct MinMax {
    std::int64_t min = 0;
    std::int64_t max = 0;
};

// Min and max of aligned blocks of a series, level k holding blocks of 16·2^k samples. It does
// not own the samples: every call passes the same series, which may only grow between calls
// (a live run appends frames), never change.
class MinMaxPyramid {
  public:
    static constexpr int kLeafShift = 4;  // level 0 blocks hold 16 samples

    // Brings the pyramid up to date with `values` (the series it saw before, plus new samples);
    // costs O(new samples + log n).
    void update(std::span<const std::int64_t> values);
    void clear();
    std::size_t size() const { return count_; }

    // Min and max of values[first, last); first < last <= size().
    MinMax range(std::span<const std::int64_t> values, std::size_t first, std::size_t last) const;

  private:
    std::vector<std::vector<MinMax>> levels_;
    std::size_t count_ = 0;
};

// One pixel column of a plot: the samples [first, last) whose x lies in the column, their min
// and max, and the values of the first and last of them (to join neighbouring columns with a
// line). Empty when first == last (then min, max, first_value and last_value are 0).
struct PlotColumn {
    std::size_t first = 0;
    std::size_t last = 0;
    std::int64_t min = 0;
    std::int64_t max = 0;
    std::int64_t first_value = 0;
    std::int64_t last_value = 0;
    bool empty() const { return first == last; }
};

// Splits the x range [x0, x1) into `columns` equal columns and fills `out` (resized to
// `columns`) with each column's samples. x: ascending x of each sample (e.g. frame start in ns),
// the same length as values; pyramid: up to date with values. x0 < x1 and columns > 0, else `out`
// is left empty.
void decimate_columns(std::span<const std::int64_t> x, std::span<const std::int64_t> values,
                      const MinMaxPyramid& pyramid, double x0, double x1, std::size_t columns,
                      std::vector<PlotColumn>& out);

// Index of the first sample with x >= at (x ascending): the sample range a plotted x range shows.
std::size_t first_sample_at_or_after(std::span<const std::int64_t> x, double at);

// Index of the sample whose x is nearest to `at`; x not empty.
std::size_t nearest_sample(std::span<const std::int64_t> x, double at);

// Counts of values in `bins` equal bins over [lo, hi) (values outside are clamped into the first
// or last bin). With log_bins the bins are equal in log(value) (lo > 0 then). Empty when bins is 0
// or lo >= hi.
std::vector<std::size_t> histogram_counts(std::span<const std::int64_t> values, double lo,
                                          double hi, std::size_t bins, bool log_bins);

// The x of each sample when a series has none: the running sum of the frame times before it.
std::vector<std::int64_t> running_start_ns(std::span<const std::int64_t> frame_ns);

}  // namespace loopscope
