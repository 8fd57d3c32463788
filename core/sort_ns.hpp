// Sorting integer times, the dearest step of a frame-time report: every percentile, the 1 % low
// averages and the start-up median need sorted frame times, and a million of them took
// std::sort about 70 ms here. Frame times are integers in a narrow range (nanoseconds under a
// few seconds, about 30 bits), which a least-significant-digit radix sort orders in three passes
// of at most 11 bits over the data (the range's bits shared out evenly), each a scatter, after
// one counting pass for all of them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace loopscope {

// Sorts ascending; the same order as std::sort (negative values too). Small inputs, and those
// whose range needs more than 44 bits, go to std::sort.
void sort_ns(std::vector<std::int64_t>& values);

// Erases one occurrence of each of `values` from `sorted` (ascending), every one of which it
// holds, in place and in one pass: the sorted values of the frames left when a few are set aside
// (the start-up segment), without sorting them again.
void erase_sorted(std::vector<std::int64_t>& sorted, std::span<const std::int64_t> values);

}  // namespace loopscope
