// LSD radix sort of int64 values by their offset from the minimum: see sort_ns.hpp.
#include "core/sort_ns.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace loopscope {

namespace {

constexpr int kDigitBits = 11;  // 2048 counters: they stay in the L1 cache
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
constexpr int kMaxPasses = 4;
constexpr std::size_t kRadixFrom = 4096;  // below this, std::sort is as quick

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
    int passes = 0;
    for (std::uint64_t r = range; r != 0; r >>= kDigitBits)
        ++passes;
    if (passes == 0)
        return;  // all equal
    if (passes > kMaxPasses) {
        std::sort(values.begin(), values.end());
        return;
    }
    const auto base = static_cast<std::uint64_t>(lo);
    const auto digit = [base](std::int64_t v, int shift) {
        return static_cast<std::size_t>(((static_cast<std::uint64_t>(v) - base) >> shift) &
                                        (kBuckets - 1));
    };
    // Every digit's counts in one read of the data rather than one read per pass.
    std::vector<std::array<std::size_t, kBuckets>> counts(static_cast<std::size_t>(passes));
    for (const std::int64_t v : values) {
        for (int pass = 0; pass < passes; ++pass)
            ++counts[static_cast<std::size_t>(pass)][digit(v, pass * kDigitBits)];
    }
    std::vector<std::int64_t> scratch;
    for (int pass = 0; pass < passes; ++pass) {
        std::array<std::size_t, kBuckets>& count = counts[static_cast<std::size_t>(pass)];
        // A digit all the values share (often the top one) leaves the order as it is.
        if (std::find(count.begin(), count.end(), n) != count.end())
            continue;
        std::size_t sum = 0;
        for (std::size_t& c : count) {
            const std::size_t here = c;
            c = sum;
            sum += here;
        }
        if (scratch.empty())
            scratch.resize(n);
        const int shift = pass * kDigitBits;
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
