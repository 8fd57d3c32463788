// The block bootstrap the comparison resamples with, and the order statistics of its resamples
// formed without putting a resample in order.
//
// A series is cut into K = max(1, ⌊N / b⌋) blocks of consecutive values that tile it (the first
// N mod K blocks one value longer than the rest), and a resample draws K of them uniformly with
// replacement and joins them in the order drawn: the non-overlapping block bootstrap (Carlstein
// 1986). The two end blocks are drawn as the moving-block bootstrap (Künsch 1989) draws the ends
// of a series: in it a value i places from an end lies in i + 1 of the possible blocks, not b,
// so a start-up frame counts for less. Each draw of the first block therefore leaves out a
// uniform number of its leading values (0 to its length − 1), and each draw of the last block as
// many of its trailing values: value i of an end block is drawn with the moving-block
// bootstrap's weight, (i + 1) / b. A resample is then described by how often each block was drawn
// whole, which its order statistics and sums are formed from, the end pieces, a few values
// added to those, and the order of the draws, which the rules that look at neighbouring frames
// need at the junctions.
//
// The series' values are ranked once and their ranks cut into G buckets; for each bucket
// boundary the count and the sum of each block's values below it are kept. A resample's count
// of values below a boundary is then a sum over the K blocks weighted by their draws, so its
// value of any rank is found by a search over the boundaries and a walk through one bucket, and
// a resample costs about K·log G + N/G per rank asked instead of a pass over its N values. Pure
// computation: no I/O.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/ascending.hpp"

namespace loopscope {

class BlockTiling {
  public:
    BlockTiling() = default;
    // N values in blocks of about `block`: ⌊N / block⌋ blocks (at least one) tiling them.
    BlockTiling(std::size_t values, std::size_t block);
    std::size_t values() const { return values_; }
    std::size_t blocks() const { return blocks_; }
    std::size_t start(std::size_t j) const { return j * base_ + std::min(j, longer_); }
    std::size_t length(std::size_t j) const { return base_ + (j < longer_ ? 1 : 0); }

  private:
    std::size_t values_ = 0, blocks_ = 0, base_ = 0, longer_ = 0;
};

// One resample.
struct BlockDraw {
    std::vector<std::uint32_t> order;  // the blocks drawn, in the order drawn
    // Per draw, the values of an end block left out (the first block's leading ones, the last
    // block's trailing ones); 0 for every other block.
    std::vector<std::uint32_t> cut;
    std::vector<std::uint32_t> times;  // per block of the tiling, how often it was drawn whole
    std::size_t values = 0;            // the resample's length: the drawn pieces' lengths summed
};

// splitmix64: tiny, fully specified, identical on every platform (std:: distributions are not).
std::uint64_t next_random(std::uint64_t& state);
// Uniform in [0, bound) without modulo bias, by rejection.
std::uint64_t uniform_below(std::uint64_t bound, std::uint64_t& state);

// Draws K blocks from `state` (advanced by the call) into `draw`.
void draw_blocks(const BlockTiling& tiling, std::uint64_t& state, BlockDraw& draw);
// Where the i-th drawn piece starts in the series, and its length.
std::size_t piece_start(const BlockTiling& tiling, const BlockDraw& draw, std::size_t i);
std::size_t piece_length(const BlockTiling& tiling, const BlockDraw& draw, std::size_t i);
// The resample itself, the drawn blocks joined.
std::vector<std::int64_t> join_blocks(std::span<const std::int64_t> values,
                                      const BlockTiling& tiling, const BlockDraw& draw);

// A series prepared for its resamples' order statistics. The values are viewed, not copied:
// they must outlive this.
class BlockOrder {
  public:
    BlockOrder(std::span<const std::int64_t> values, const BlockTiling& tiling);

    // A resample's values in ascending order. It keeps what its searches learn about the bucket
    // boundaries, so a view serves one thread; the BlockOrder and the draw must outlive it.
    class View final : public AscendingValues {
      public:
        View(const BlockOrder& order, const BlockDraw& draw);
        std::size_t size() const override { return draw_.values; }
        std::int64_t at(std::size_t rank) const override;
        std::int64_t sum_from(std::size_t rank) const override;
        std::size_t rank_above(std::int64_t value) const override;
        std::size_t rank_at_least(double threshold) const override;
        std::int64_t top_sum_reaching(double target) const override;
        float mangohud_sum_ms() const override;
        std::int64_t total() const { return total_; }
        // Σ (value − mean_ns)² over the resample, from each block's own mean and squares.
        double squares_about(double mean_ns) const;

      private:
        struct Below {
            std::uint64_t count = 0;
            std::int64_t sum = 0;
        };
        // The resample's values of global rank below bucket g's first, counted and summed.
        const Below& below(std::size_t g) const;
        // How often the value of global rank r is in the resample, for a walk up the ranks.
        std::uint64_t copies(std::size_t r, std::size_t& next_piece_rank) const;
        // Where a walk from global rank r starts in piece_ranks_.
        std::size_t first_piece_at(std::size_t r) const {
            return static_cast<std::size_t>(
                std::lower_bound(piece_ranks_.begin(), piece_ranks_.end(), r) -
                piece_ranks_.begin());
        }
        // The resample's count and sum of values of global rank below r.
        Below below_rank(std::size_t r) const;
        // The bucket holding resample rank `rank`: the last g with below(g).count <= rank.
        std::size_t bucket_of_rank(std::size_t rank) const;

        const BlockOrder& order_;
        const BlockDraw& draw_;
        std::int64_t total_ = 0;
        // The values of the end pieces (draws with a cut), as global ranks ascending, and the
        // sums of their values before each.
        std::vector<std::uint32_t> piece_ranks_;
        std::vector<std::int64_t> piece_sums_;
        mutable std::vector<Below> below_;
        mutable std::vector<std::uint8_t> known_;
    };

    std::size_t size() const { return values_.size(); }
    const BlockTiling& tiling() const { return tiling_; }

  private:
    std::span<const std::int64_t> values_;
    BlockTiling tiling_;
    std::size_t buckets_ = 0, bucket_ranks_ = 0;  // G, and the ranks in each (the last fewer)
    std::vector<std::int64_t> ascending_;         // the values ranked
    std::vector<std::uint32_t> block_of_rank_;    // the block each ranked value is in
    // The ranks of the first and the last block's values, by place in the block.
    std::vector<std::uint32_t> first_block_ranks_, last_block_ranks_;
    // Row g (g = 0..G), one entry per block: the block's values of global rank below g's first.
    std::vector<std::uint32_t> count_below_;
    std::vector<std::int64_t> sum_below_;
    std::vector<std::int64_t> block_sum_;
    std::vector<double> block_mean_, block_squares_;  // about the block's own mean
};

}  // namespace loopscope
