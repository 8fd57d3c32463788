// The non-overlapping block bootstrap and its resamples' order statistics; method in
// block_bootstrap.hpp.
#include "core/block_bootstrap.hpp"

#include <algorithm>
#include <climits>
#include <numeric>

#include "core/sort_ns.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {

// The most bucket boundaries × blocks kept (twelve bytes each): a series of a few million
// frames gets as many buckets as blocks; a longer one fewer, each walked bucket then longer.
constexpr std::size_t kMaxCells = std::size_t{1} << 22;

}  // namespace

std::uint64_t next_random(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint64_t uniform_below(std::uint64_t bound, std::uint64_t& state) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t r = 0;
    do {
        r = next_random(state);
    } while (r >= limit);
    return r % bound;
}

BlockTiling::BlockTiling(std::size_t values, std::size_t block) : values_(values) {
    if (values == 0)
        return;
    block = std::clamp<std::size_t>(block, 1, values);
    blocks_ = std::max<std::size_t>(values / block, 1);
    base_ = values / blocks_;
    longer_ = values % blocks_;
}

void draw_blocks(const BlockTiling& tiling, std::uint64_t& state, BlockDraw& draw) {
    const std::size_t k = tiling.blocks();
    draw.order.resize(k);
    draw.cut.assign(k, 0);
    draw.times.assign(k, 0);
    draw.values = 0;
    for (std::size_t i = 0; i < k; ++i) {
        const auto j = static_cast<std::uint32_t>(uniform_below(k, state));
        draw.order[i] = j;
        // One block is the whole series: it has no ends to weigh apart.
        if (k > 1 && (j == 0 || j == k - 1))
            draw.cut[i] = static_cast<std::uint32_t>(uniform_below(tiling.length(j), state));
        if (draw.cut[i] == 0)
            ++draw.times[j];
        draw.values += tiling.length(j) - draw.cut[i];
    }
}

std::size_t piece_start(const BlockTiling& tiling, const BlockDraw& draw, std::size_t i) {
    const std::uint32_t j = draw.order[i];
    return tiling.start(j) + (j == 0 ? draw.cut[i] : 0);
}

std::size_t piece_length(const BlockTiling& tiling, const BlockDraw& draw, std::size_t i) {
    return tiling.length(draw.order[i]) - draw.cut[i];
}

std::vector<std::int64_t> join_blocks(std::span<const std::int64_t> values,
                                      const BlockTiling& tiling, const BlockDraw& draw) {
    std::vector<std::int64_t> out;
    out.reserve(draw.values);
    for (std::size_t i = 0; i < draw.order.size(); ++i) {
        const auto first =
            values.begin() + static_cast<std::ptrdiff_t>(piece_start(tiling, draw, i));
        out.insert(out.end(), first,
                   first + static_cast<std::ptrdiff_t>(piece_length(tiling, draw, i)));
    }
    return out;
}

BlockOrder::BlockOrder(std::span<const std::int64_t> values, const BlockTiling& tiling)
    : values_(values), tiling_(tiling) {
    const std::size_t n = values.size();
    const std::size_t k = tiling.blocks();
    if (n == 0)
        return;
    std::vector<std::uint32_t> block_of(n);
    block_sum_.resize(k);
    block_mean_.resize(k);
    block_squares_.resize(k);
    for (std::size_t j = 0; j < k; ++j) {
        const std::size_t start = tiling.start(j), length = tiling.length(j);
        std::int64_t sum = 0;
        for (std::size_t i = start; i < start + length; ++i) {
            block_of[i] = static_cast<std::uint32_t>(j);
            sum += values[i];
        }
        const double mean = static_cast<double>(sum) / static_cast<double>(length);
        double squares = 0;
        for (std::size_t i = start; i < start + length; ++i) {
            const double d = static_cast<double>(values[i]) - mean;
            squares += d * d;
        }
        block_sum_[j] = sum;
        block_mean_[j] = mean;
        block_squares_[j] = squares;
    }

    // The values ranked, each with its block. Where (value − least) · K + block stays within
    // 62 bits, that one integer carries both and orders as (value, block) does, so the radix
    // sort of frame times ranks them; otherwise pairs are sorted.
    ascending_.resize(n);
    block_of_rank_.resize(n);
    const auto [least, most] = std::minmax_element(values.begin(), values.end());
    const auto span_ns = static_cast<std::uint64_t>(*most) - static_cast<std::uint64_t>(*least);
    if (span_ns < (std::uint64_t{1} << 62) / k) {
        std::vector<std::int64_t> keys(n);
        for (std::size_t i = 0; i < n; ++i) {
            keys[i] = static_cast<std::int64_t>(
                (static_cast<std::uint64_t>(values[i]) - static_cast<std::uint64_t>(*least)) * k +
                block_of[i]);
        }
        sort_ns(keys);
        for (std::size_t r = 0; r < n; ++r) {
            const auto key = static_cast<std::uint64_t>(keys[r]);
            ascending_[r] = static_cast<std::int64_t>(key / k + static_cast<std::uint64_t>(*least));
            block_of_rank_[r] = static_cast<std::uint32_t>(key % k);
        }
    } else {
        struct Entry {
            std::int64_t value;
            std::uint32_t block;
        };
        std::vector<Entry> ranked(n);
        for (std::size_t i = 0; i < n; ++i)
            ranked[i] = {values[i], block_of[i]};
        std::sort(ranked.begin(), ranked.end(), [](const Entry& a, const Entry& b) {
            return a.value < b.value || (a.value == b.value && a.block < b.block);
        });
        for (std::size_t r = 0; r < n; ++r) {
            ascending_[r] = ranked[r].value;
            block_of_rank_[r] = ranked[r].block;
        }
    }
    // The end blocks' values by place, for their pieces: a block's ranks ascending are its
    // values in ascending order, so they go to its places sorted by value (equal values, of one
    // block, are interchangeable).
    for (const std::size_t j : {std::size_t{0}, k - 1}) {
        std::vector<std::uint32_t>& rank_at = j == 0 ? first_block_ranks_ : last_block_ranks_;
        const std::size_t start = tiling.start(j), length = tiling.length(j);
        std::vector<std::uint32_t> places(length);
        std::iota(places.begin(), places.end(), 0u);
        std::stable_sort(places.begin(), places.end(), [&](std::uint32_t x, std::uint32_t y) {
            return values[start + x] < values[start + y];
        });
        rank_at.resize(length);
        std::size_t next = 0;
        for (std::size_t r = 0; r < n && next < length; ++r) {
            if (block_of_rank_[r] == j)
                rank_at[places[next++]] = static_cast<std::uint32_t>(r);
        }
    }

    // As many buckets as blocks, within kMaxCells, with no bucket empty.
    const std::size_t wanted = std::clamp<std::size_t>(kMaxCells / k, 1, k);
    bucket_ranks_ = (n + wanted - 1) / wanted;
    buckets_ = (n + bucket_ranks_ - 1) / bucket_ranks_;
    count_below_.assign((buckets_ + 1) * k, 0);
    sum_below_.assign((buckets_ + 1) * k, 0);
    for (std::size_t r = 0; r < n; ++r) {
        const std::size_t cell = (r / bucket_ranks_ + 1) * k + block_of_rank_[r];
        ++count_below_[cell];
        sum_below_[cell] += ascending_[r];
    }
    for (std::size_t g = 1; g <= buckets_; ++g) {
        for (std::size_t j = 0; j < k; ++j) {
            count_below_[g * k + j] += count_below_[(g - 1) * k + j];
            sum_below_[g * k + j] += sum_below_[(g - 1) * k + j];
        }
    }
}

BlockOrder::View::View(const BlockOrder& order, const BlockDraw& draw)
    : order_(order), draw_(draw) {
    const std::size_t k = order.tiling_.blocks();
    for (std::size_t j = 0; j < k; ++j)
        total_ += static_cast<std::int64_t>(draw.times[j]) * order.block_sum_[j];
    for (std::size_t i = 0; i < draw.order.size(); ++i) {
        if (draw.cut[i] == 0)
            continue;
        const std::uint32_t j = draw.order[i];
        const std::vector<std::uint32_t>& rank_at =
            j == 0 ? order.first_block_ranks_ : order.last_block_ranks_;
        const std::size_t offset = piece_start(order.tiling_, draw, i) - order.tiling_.start(j);
        for (std::size_t p = offset; p < offset + piece_length(order.tiling_, draw, i); ++p)
            piece_ranks_.push_back(rank_at[p]);
    }
    std::sort(piece_ranks_.begin(), piece_ranks_.end());
    piece_sums_.resize(piece_ranks_.size() + 1);
    for (std::size_t e = 0; e < piece_ranks_.size(); ++e)
        piece_sums_[e + 1] = piece_sums_[e] + order.ascending_[piece_ranks_[e]];
    total_ += piece_sums_.back();
    below_.assign(order.buckets_ + 1, Below{});
    known_.assign(order.buckets_ + 1, 0);
    known_[0] = 1;
    below_[order.buckets_] = {draw.values, total_};
    known_[order.buckets_] = 1;
}

const BlockOrder::View::Below& BlockOrder::View::below(std::size_t g) const {
    if (!known_[g]) {
        const std::size_t k = order_.tiling_.blocks();
        const std::uint32_t* counts = order_.count_below_.data() + g * k;
        const std::int64_t* sums = order_.sum_below_.data() + g * k;
        const std::uint32_t* times = draw_.times.data();
        std::uint64_t count = 0;
        std::int64_t sum = 0;
        for (std::size_t j = 0; j < k; ++j) {
            count += static_cast<std::uint64_t>(times[j]) * counts[j];
            sum += static_cast<std::int64_t>(times[j]) * sums[j];
        }
        const std::size_t pieces = static_cast<std::size_t>(
            std::lower_bound(piece_ranks_.begin(), piece_ranks_.end(), g * order_.bucket_ranks_) -
            piece_ranks_.begin());
        below_[g] = {count + pieces, sum + piece_sums_[pieces]};
        known_[g] = 1;
    }
    return below_[g];
}

// Walks go up through the ranks; `next_piece_rank` is where the walk stands in piece_ranks_,
// started with first_piece_at.
std::uint64_t BlockOrder::View::copies(std::size_t r, std::size_t& next_piece_rank) const {
    std::uint64_t w = draw_.times[order_.block_of_rank_[r]];
    while (next_piece_rank < piece_ranks_.size() && piece_ranks_[next_piece_rank] == r) {
        ++w;
        ++next_piece_rank;
    }
    return w;
}

BlockOrder::View::Below BlockOrder::View::below_rank(std::size_t r) const {
    if (order_.size() == 0)
        return {};
    const std::size_t g = r / order_.bucket_ranks_;
    if (g >= order_.buckets_)
        return below(order_.buckets_);
    Below b = below(g);
    std::size_t piece = first_piece_at(g * order_.bucket_ranks_);
    for (std::size_t q = g * order_.bucket_ranks_; q < r; ++q) {
        const std::uint64_t w = copies(q, piece);
        b.count += w;
        b.sum += static_cast<std::int64_t>(w) * order_.ascending_[q];
    }
    return b;
}

std::size_t BlockOrder::View::bucket_of_rank(std::size_t rank) const {
    std::size_t lo = 0, hi = order_.buckets_;  // below(lo).count <= rank < below(hi).count
    while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (below(mid).count <= rank)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

std::int64_t BlockOrder::View::at(std::size_t rank) const {
    const std::size_t g = bucket_of_rank(rank);
    std::uint64_t seen = below(g).count;
    const std::size_t end = std::min(order_.size(), (g + 1) * order_.bucket_ranks_);
    std::size_t piece = first_piece_at(g * order_.bucket_ranks_);
    for (std::size_t q = g * order_.bucket_ranks_; q < end; ++q) {
        seen += copies(q, piece);
        if (seen > rank)
            return order_.ascending_[q];
    }
    return order_.ascending_[end - 1];  // not reached for rank < size()
}

std::int64_t BlockOrder::View::sum_from(std::size_t rank) const {
    if (rank >= draw_.values)
        return 0;
    const std::size_t g = bucket_of_rank(rank);
    Below b = below(g);
    const std::size_t end = std::min(order_.size(), (g + 1) * order_.bucket_ranks_);
    std::size_t piece = first_piece_at(g * order_.bucket_ranks_);
    for (std::size_t q = g * order_.bucket_ranks_; q < end; ++q) {
        const std::uint64_t w = copies(q, piece);
        const std::int64_t v = order_.ascending_[q];
        if (b.count + w > rank) {
            b.sum += static_cast<std::int64_t>(rank - b.count) * v;
            break;
        }
        b.count += w;
        b.sum += static_cast<std::int64_t>(w) * v;
    }
    return total_ - b.sum;
}

std::size_t BlockOrder::View::rank_above(std::int64_t value) const {
    const auto& a = order_.ascending_;
    return below_rank(
               static_cast<std::size_t>(std::upper_bound(a.begin(), a.end(), value) - a.begin()))
        .count;
}

std::size_t BlockOrder::View::rank_at_least(double threshold) const {
    const auto& a = order_.ascending_;
    const auto first =
        std::lower_bound(a.begin(), a.end(), threshold,
                         [](std::int64_t v, double t) { return static_cast<double>(v) < t; });
    return below_rank(static_cast<std::size_t>(first - a.begin())).count;
}

// The running sum from the top passes the target inside the last bucket whose values and all
// above it sum to the target or more; inside it, a value drawn w times adds w copies, and with
// values of at least 0 the sum reaches the target at one of them exactly when it does after
// all w.
std::int64_t BlockOrder::View::top_sum_reaching(double target) const {
    if (static_cast<double>(total_) < target)
        return front();
    const std::size_t buckets = order_.buckets_;
    const auto from = [&](std::size_t g) { return total_ - below(g).sum; };
    std::size_t lo = 0, hi = buckets;  // from(lo) reaches the target; hi is past the last bucket
    while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (static_cast<double>(from(mid)) >= target)
            lo = mid;
        else
            hi = mid;
    }
    std::int64_t sum = lo + 1 < buckets ? from(lo + 1) : 0;
    const std::size_t begin = lo * order_.bucket_ranks_;
    const std::size_t end = std::min(order_.size(), (lo + 1) * order_.bucket_ranks_);
    // The pieces' ranks in this bucket, walked downward beside the ranks.
    std::size_t piece = first_piece_at(end);
    for (std::size_t q = end; q > begin;) {
        --q;
        std::uint64_t w = draw_.times[order_.block_of_rank_[q]];
        while (piece > 0 && piece_ranks_[piece - 1] == q) {
            ++w;
            --piece;
        }
        if (w == 0)
            continue;
        sum += static_cast<std::int64_t>(w) * order_.ascending_[q];
        if (static_cast<double>(sum) >= target)
            return order_.ascending_[q];
    }
    return front();  // not reached: the bucket's values bring the sum to from(lo)
}

float BlockOrder::View::mangohud_sum_ms() const {
    return static_cast<float>(ns_to_ms(static_cast<double>(total_)));
}

double BlockOrder::View::squares_about(double mean_ns) const {
    double squares = 0;
    const std::size_t k = order_.tiling_.blocks();
    for (std::size_t j = 0; j < k; ++j) {
        const std::uint32_t w = draw_.times[j];
        if (w == 0)
            continue;
        const double d = order_.block_mean_[j] - mean_ns;
        squares += static_cast<double>(w) * (order_.block_squares_[j] +
                                             static_cast<double>(order_.tiling_.length(j)) * d * d);
    }
    for (const std::uint32_t r : piece_ranks_) {
        const double d = static_cast<double>(order_.ascending_[r]) - mean_ns;
        squares += d * d;
    }
    return squares;
}

}  // namespace loopscope
