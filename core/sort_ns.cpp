// LSD radix sort of int64 values by their offset from the minimum: see sort_ns.hpp.
#include "core/sort_ns.hpp"

#include <algorithm>
#include <bit>
#include <vector>

namespace loopscope {

namespace {

constexpr int kMaxDigitBits = 11;  // at most 2048 counters a pass: they stay in the L1 cache
constexpr int kMaxPasses = 4;
constexpr std::size_t kRadixFrom = 1024;  // below this, std::sort is as quick

}  // namespace

void sort_ns(std::vector<std::int64_t>& values) {
    const std::size_t n = values.size();
    if (n < kRadixFrom) {
        std::sort(values.begin(), values.end());
        return;
    }
    const auto [lo_it, hi_it] = std::minmax_element(values.begin(), values.end());
    const std::int64_t lo = *lo_it;
    // The range as unsigned: exact even when hi - lo overflows int64.
    const std::uint64_t range = static_cast<std::uint64_t>(*hi_it) - static_cast<std::uint64_t>(lo);
    const int bits = std::bit_width(range);
    if (bits == 0)
        return;  // all equal
    const int passes = (bits + kMaxDigitBits - 1) / kMaxDigitBits;
    if (passes > kMaxPasses) {
        std::sort(values.begin(), values.end());
        return;
    }
    // The bits shared out evenly over the passes: 27 bits (frame times up to 134 ms) as three
    // digits of 9 bits rather than 11 + 11 + 5: a scatter into 512 places stays in the first-level
    // cache where one into 2048 does not (BM_SortFrameTimes measures it).
    const int digit_bits = (bits + passes - 1) / passes;
    const std::size_t buckets = std::size_t{1} << digit_bits;
    const auto base = static_cast<std::uint64_t>(lo);
    const auto digit = [base, buckets](std::int64_t v, int shift) {
        return static_cast<std::size_t>(((static_cast<std::uint64_t>(v) - base) >> shift) &
                                        (buckets - 1));
    };
    // Every digit's counts in one read of the data rather than one read per pass.
    std::vector<std::size_t> counts(static_cast<std::size_t>(passes) * buckets);
    for (const std::int64_t v : values) {
        for (int pass = 0; pass < passes; ++pass)
            ++counts[static_cast<std::size_t>(pass) * buckets + digit(v, pass * digit_bits)];
    }
    std::vector<std::int64_t> scratch;
    for (int pass = 0; pass < passes; ++pass) {
        std::size_t* const count = counts.data() + static_cast<std::size_t>(pass) * buckets;
        // A digit all the values share (often the top one) leaves the order as it is.
        if (std::find(count, count + buckets, n) != count + buckets)
            continue;
        std::size_t sum = 0;
        for (std::size_t b = 0; b < buckets; ++b) {
            const std::size_t here = count[b];
            count[b] = sum;
            sum += here;
        }
        if (scratch.empty())
            scratch.resize(n);
        const int shift = pass * digit_bits;
        for (const std::int64_t v : values)
            scratch[count[digit(v, shift)]++] = v;
        values.swap(scratch);  // stable per pass, so the passes compose
    }
}

void erase_sorted(std::vector<std::int64_t>& sorted, std::span<const std::int64_t> values) {
    std::vector<std::int64_t> gone(values.begin(), values.end());
    std::sort(gone.begin(), gone.end());
    // Both ascending: a value equal to the next one to erase is skipped once. The write position
    // never passes the read position, so the values move down in place.
    std::size_t next = 0;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        if (next < gone.size() && sorted[i] == gone[next]) {
            ++next;
            continue;
        }
        sorted[kept++] = sorted[i];
    }
    sorted.resize(kept);
}

}  // namespace loopscope
