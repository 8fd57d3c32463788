// The one percentile definition loopscope uses everywhere (frame-time reports and timer probes
// alike): linear interpolation at h = p·(N−1) over sorted values, PresentMon's method.
#pragma once

#include <cstdint>
#include <span>

namespace loopscope {

class AscendingValues;

// p in [0, 1] (clamped); 0 for an empty span.
double percentile_sorted(std::span<const std::int64_t> sorted_ns, double p);
// The same of values in ascending order however they are held (core/ascending.hpp).
double percentile_of(const AscendingValues& values, double p);

// The same percentile rounded to whole nanoseconds, computed as x[⌊h⌋] plus the rounded
// interpolation step, so that values far beyond 2^53 ns keep their last nanosecond.
std::int64_t percentile_sorted_ns(std::span<const std::int64_t> sorted_ns, double p);

// percentile_sorted of the values in sorted order, found by selection (linear time) instead of a
// sort, for a caller that needs one percentile. Reorders the values.
double percentile_selected(std::span<std::int64_t> values_ns, double p);

}  // namespace loopscope
