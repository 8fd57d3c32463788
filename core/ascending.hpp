// Values in ascending order, seen through what the order figures read of them: a value by its
// rank, sums from a rank to the top, and the searches the rules make. Two kinds exist: values
// sorted in memory (SortedValues, what a report has), and a bootstrap resample's values, which
// the comparison never puts in order (core/block_bootstrap.hpp). Every figure made of order
// statistics and sums is written once, against this interface, so a resample's figure follows
// the very rule the report's does. Pure computation: no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace loopscope {

class AscendingValues {
  public:
    virtual ~AscendingValues() = default;
    virtual std::size_t size() const = 0;
    // The value of rank `rank` (0: the smallest); rank < size().
    virtual std::int64_t at(std::size_t rank) const = 0;
    // The sum of the values of ranks [rank, size()); 0 when rank >= size().
    virtual std::int64_t sum_from(std::size_t rank) const = 0;
    // The first rank whose value is above `value`; size() when none is.
    virtual std::size_t rank_above(std::int64_t value) const = 0;
    // The first rank whose value, as a double, is at least `threshold`; size() when none is.
    virtual std::size_t rank_at_least(double threshold) const = 0;
    // The values added one at a time from the largest down: the value whose addition first
    // brings the running sum, as a double, to `target` or past it; the smallest value when the
    // whole sum stays below it. Needs size() > 0.
    virtual std::int64_t top_sum_reaching(double target) const = 0;
    // MangoHud's float32 sum of the values in ms, largest first (tool_figures.hpp). A resample
    // gives the float32 of its exact sum instead: the rounding of a float32 sum taken value by
    // value depends on every addition, which only a walk over every value reproduces.
    virtual float mangohud_sum_ms() const = 0;

    std::int64_t front() const { return at(0); }
    std::int64_t back() const { return at(size() - 1); }
};

// Values sorted in memory.
class SortedValues final : public AscendingValues {
  public:
    explicit SortedValues(std::span<const std::int64_t> sorted_ns) : sorted_(sorted_ns) {}
    std::size_t size() const override { return sorted_.size(); }
    std::int64_t at(std::size_t rank) const override { return sorted_[rank]; }
    std::int64_t sum_from(std::size_t rank) const override;
    std::size_t rank_above(std::int64_t value) const override;
    std::size_t rank_at_least(double threshold) const override;
    std::int64_t top_sum_reaching(double target) const override;
    float mangohud_sum_ms() const override;

  private:
    std::span<const std::int64_t> sorted_;
};

}  // namespace loopscope
