// Block-bootstrap comparison of two captures; method in comparison.hpp.
#include "core/comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>

#include "common/errors.hpp"
#include "common/parallel_for.hpp"
#include "core/beside.hpp"
#include "core/block_bootstrap.hpp"
#include "core/figures.hpp"
#include "core/frame_stats.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {

// Percentile of an unsorted copy, same interpolation as the frame-time percentiles.
double interval_point(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    const double h = p * static_cast<double>(values.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    if (lo + 1 >= values.size())
        return values.back();
    return values[lo] + (h - static_cast<double>(lo)) * (values[lo + 1] - values[lo]);
}

// A figure's B - A with the interval of its resampled differences.
FigureDifference figure_difference(const Figure& figure, double a, double b,
                                   const std::vector<double>& resampled) {
    FigureDifference d;
    d.name = std::string(figure.key);
    d.a = a;
    d.b = b;
    d.difference = b - a;
    if (!resampled.empty()) {
        d.low = interval_point(resampled, 0.025);
        d.high = interval_point(resampled, 0.975);
        d.significant = d.low > 0 || d.high < 0;
    }
    if (d.significant) {
        switch (figure_better(figure)) {
            case Better::higher:
                d.verdict = d.low > 0 ? Verdict::better : Verdict::worse;
                break;
            case Better::lower:
                d.verdict = d.high < 0 ? Verdict::better : Verdict::worse;
                break;
            case Better::unknown:
                d.verdict = Verdict::changed;
                break;
        }
    }
    return d;
}

}  // namespace

std::size_t bootstrap_block_frames(std::size_t frames) {
    const auto b = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(frames))));
    return std::clamp<std::size_t>(b, 1, std::max<std::size_t>(frames, 1));
}

std::vector<std::int64_t> block_resample(std::span<const std::int64_t> frame_ns, std::size_t block,
                                         std::uint64_t& state) {
    if (frame_ns.empty())
        return {};
    const BlockTiling tiling(frame_ns.size(), block);
    BlockDraw draw;
    draw_blocks(tiling, state, draw);
    return join_blocks(frame_ns, tiling, draw);
}

std::vector<const Figure*> compared_figures() {
    std::vector<const Figure*> figures;
    for (const Figure& f : figure_catalogue()) {
        if (f.compared && (f.frame_value || (f.column_values && f.column_value)))
            figures.push_back(&f);
    }
    return figures;
}

std::vector<const Figure*> compared_figures(const CaptureReport& a, const CaptureReport& b) {
    // Two sampled logs compare on their samples' figures, two per-frame captures on their
    // frames': a figure is compared where both captures have it.
    std::vector<const Figure*> figures;
    for (const Figure* f : compared_figures()) {
        if (!figure_missing(*f, a) && !figure_missing(*f, b))
            figures.push_back(f);
    }
    return figures;
}

const char* verdict_name(Verdict verdict) {
    switch (verdict) {
        case Verdict::better:
            return "better";
        case Verdict::worse:
            return "worse";
        case Verdict::no_significant_change:
            return "no significant change";
        case Verdict::changed:
            return "changed";
        case Verdict::unchanged:
            return "unchanged";
    }
    return "no significant change";
}

const char* compared_timeline_name(ComparedTimeline timeline) {
    switch (timeline) {
        case ComparedTimeline::application:
            return "application";
        case ComparedTimeline::display:
            return "display";
        case ComparedTimeline::present:
            return "present";
    }
    return "present";
}

namespace {

// What a capture's present timeline holds, for telling whether two present timelines are alike.
std::string present_kind(const CaptureReport& r) {
    if (r.timeline == Timeline::display)
        return "displayed frames (the display timeline)";
    if (r.generation.detected)
        return "application and generated frames mixed (frame generation detected)";
    if (timeline_mixes_generated(r))
        return "application and generated frames mixed";
    if (r.generated_without_frame_time > 0)
        return "application frames only";
    return "every present";
}

std::string application_source(const CaptureReport& r) {
    if (r.application_estimated)
        return "estimated from the cycles of frame generation detected";
    if (r.has_generated)
        return "generated frames marked";
    return "the application's frame-start column";
}

}  // namespace

TimelineSeries timeline_series(const CaptureReport& r, ComparedTimeline timeline) {
    TimelineSeries s;
    const Capture* c = r.capture;
    switch (timeline) {
        case ComparedTimeline::application:
            if (!r.application_intervals_ns.empty()) {
                s.ns = r.application_intervals_ns;
                s.source = application_source(r);
            }
            break;
        case ComparedTimeline::display:
            if (r.timeline == Timeline::display) {
                s.ns = r.series.frame_ns;
                s.source = "the display timeline";
            } else if (!r.displayed_intervals_ns.empty()) {
                s.ns = r.displayed_intervals_ns;
                s.source = "display-change times";
            } else if (c && c->per_frame && c->display_ns.size() == c->frames() &&
                       r.range.end <= c->display_ns.size()) {
                s.owned = displayed_intervals(std::span<const std::int64_t>(c->display_ns)
                                                  .subspan(r.range.begin, r.range.size()));
                s.ns = s.owned;
                s.source = "display-change times";
            }
            break;
        case ComparedTimeline::present:
            s.ns = r.series.frame_ns;
            s.source = present_kind(r);
            break;
    }
    if (s.ns.empty())
        s.source.clear();
    return s;
}

ComparedTimeline choose_timeline(const CaptureReport& a, const CaptureReport& b,
                                 std::string* reason) {
    const auto say = [&](std::string text) {
        if (reason)
            *reason = std::move(text);
    };
    const bool per_frame =
        !(a.capture && !a.capture->per_frame) && !(b.capture && !b.capture->per_frame);
    if (!per_frame) {
        say("sampled logs: their samples");
        return ComparedTimeline::present;
    }
    const TimelineSeries app_a = timeline_series(a, ComparedTimeline::application);
    const TimelineSeries app_b = timeline_series(b, ComparedTimeline::application);
    const bool both_app = !app_a.ns.empty() && !app_b.ns.empty();
    const std::string apps =
        both_app ? fmt::format("A: {}; B: {}", app_a.source, app_b.source) : std::string();
    if (both_app && !a.application_estimated && !b.application_estimated) {
        say(fmt::format("both captures have the application's frames ({})", apps));
        return ComparedTimeline::application;
    }
    const std::string kind_a = present_kind(a), kind_b = present_kind(b);
    const bool plain = kind_a == "every present" && kind_b == "every present";
    const TimelineSeries shown_a = timeline_series(a, ComparedTimeline::display);
    const TimelineSeries shown_b = timeline_series(b, ComparedTimeline::display);
    // Two present timelines of every present are alike: the frames the game presented. Where
    // either holds something else (generated frames mixed in, or left out), the frames the
    // display showed are what both have in common. An estimated application cadence times only
    // the frames inside frame generation's cycles, so displayed frames, all of them timed, come
    // before it.
    if (!plain && !shown_a.ns.empty() && !shown_b.ns.empty()) {
        say(fmt::format("{}the present timelines differ (A: {}; B: {}): the frames both displayed",
                        both_app ? "the application's frames of one capture are estimated, and "
                                 : "the application's frames are not in both, and ",
                        kind_a, kind_b));
        return ComparedTimeline::display;
    }
    if (both_app) {
        say(
            fmt::format("both captures have the application's frames ({}); estimated ones are "
                        "timed inside frame generation's cycles only",
                        apps));
        return ComparedTimeline::application;
    }
    if (kind_a == kind_b) {
        say(fmt::format("both present timelines hold {}", kind_a));
    } else {
        say(fmt::format(
            "neither the application's frames nor displayed frames are in both; the present "
            "timelines differ (A: {}; B: {}), so the figures compare unlike frames",
            kind_a, kind_b));
    }
    return ComparedTimeline::present;
}

namespace {

// A series prepared so that the figures of each of its resamples come from the drawn blocks
// without joining them. The order figures (percentiles, lows, each tool's figures) come from
// the resample's values in ascending order as BlockOrder gives them, from how often each block
// was drawn. The rules that look at neighbouring frames (CapFrameX's stutter time, Unreal's
// hitches, the variation buckets) see of a resample what they see of the series except where
// two blocks meet and, for a rule that looks back over a window, over the first frames of a
// block: each rule is run once over the series (prefix sums of its outcome, so a block counts
// in O(1)) and again only at the junctions. Those figures are formed in integers, the same as
// compute_frame_stats forms them over the joined resample; so are the order figures. The
// standard deviation comes from the blocks' own means and squares, equal to the joined
// resample's up to the rounding of the sums, and MangoHud's average from the exact sum
// (ascending.hpp) — resampled_frame_stats, tested against the joined resample.
class BlockSeries {
  public:
    BlockSeries(std::span<const std::int64_t> frame_ns, std::size_t block)
        : frame_ns_(frame_ns), tiling_(frame_ns.size(), block) {
        const std::size_t n = frame_ns.size();
        if (n == 0)
            return;
        const auto [shortest, longest] = std::minmax_element(frame_ns.begin(), frame_ns.end());
        // capframex_stutter decides with plain 64-bit products when they cannot overflow and with
        // compare_products otherwise; both decide exactly, so the rules below use plain products
        // where no resample can overflow them (a resample has at most N + K frames, and no window
        // exceeds the one of a mean equal to the longest frame) and leave any other series to the
        // straightforward path.
        const std::size_t widest = capframex_window(ns_to_ms(static_cast<double>(*longest)));
        const std::uint64_t factor =
            5 * static_cast<std::uint64_t>(std::max<std::size_t>(n + tiling_.blocks(), widest)) + 5;
        direct_ = *shortest < 0 || static_cast<std::uint64_t>(*longest) > UINT64_MAX / factor ||
                  n > UINT32_MAX;  // BlockDraw counts draws in four bytes
        if (direct_)
            return;
        order_.emplace(frame_ns, tiling_);
        // Each block's own part of the rules, which every resample drawing it whole shares: its
        // hitches and variation buckets after its first frame.
        const std::size_t k = tiling_.blocks();
        blocks_.resize(k);
        for (std::size_t j = 0; j < k; ++j) {
            Block& block = blocks_[j];
            const std::size_t start = tiling_.start(j), end = start + tiling_.length(j);
            for (std::size_t i = start + 1; i < end; ++i) {
                if (hitch(frame_ns[i], frame_ns[i - 1])) {
                    ++block.hitches;
                    block.hitch_ns += frame_ns[i];
                }
                const std::size_t bucket = variation_bucket(frame_ns[i], frame_ns[i - 1]);
                if (bucket < kVariationEdgesNs.size())
                    ++block.variation[bucket];
            }
        }
    }

    const BlockTiling& tiling() const { return tiling_; }

    // Scratch that one thread reuses from resample to resample.
    struct Buffers {
        BlockDraw draw;
        // Per drawn piece: where it starts in the series, its length, where it starts in the
        // resample (one more entry: the resample's length).
        std::vector<std::size_t> start, length, position;
        std::vector<std::int64_t> resample;         // the straightforward path only
        std::vector<std::int64_t> local, averaged;  // the frames before and at a junction
    };

    // The CapFrameX window of the resample drawn from `state`, which its stutter rule needs a
    // table for (prepare_window).
    std::size_t window_of(std::uint64_t state, Buffers& b) const {
        // Nothing is drawn; or the straightforward path, which needs no table and has no prefix
        // sums to form the resample's total from.
        if (frame_ns_.empty() || direct_)
            return capframex_window(0);
        draw(state, b);
        return capframex_window(
            ns_to_ms(static_cast<double>(total_of(b)) / static_cast<double>(b.draw.values)));
    }

    // The stutter rule's outcome over the series for window `window`: before any resample that
    // has that window, and before the threads start (the tables are then only read).
    void prepare_window(std::size_t window) {
        if (direct_ || frame_ns_.empty() || stutter_.count(window))
            return;
        StutterTable& t = stutter_[window];
        t.count.assign(tiling_.blocks(), 0);
        t.ns.assign(tiling_.blocks(), 0);
        t.low_fps_ns.assign(tiling_.blocks(), 0);
        t.tail_sum.assign(tiling_.blocks(), -1);
        for (std::size_t b = 0; b < tiling_.blocks(); ++b) {
            const std::size_t start = tiling_.start(b), end = start + tiling_.length(b);
            if (end - start < window + 1)
                continue;
            std::int64_t sum = 0;
            for (std::size_t i = end - window; i < end; ++i)
                sum += averaged(i);
            t.tail_sum[b] = sum;
        }
        // capframex_stutter's time-share rule over the series (see it), counted per block over
        // its frames from `window` on: those have a full window of the block's own frames
        // behind them, in the series as in any resample.
        const std::size_t n = frame_ns_.size();
        std::int64_t window_sum = 0;
        std::size_t k = 0;
        std::size_t j = 0;
        for (std::size_t i = 0; i < n; ++i) {
            window_sum += averaged(i);
            if (k < window)
                ++k;
            else
                window_sum -= averaged(i - window);
            if (i >= tiling_.start(j) + tiling_.length(j))
                ++j;
            if (i - tiling_.start(j) < window)
                continue;
            if (2 * k * u(frame_ns_[i]) > 5 * u(window_sum)) {
                ++t.count[j];
                t.ns[j] += frame_ns_[i];
            } else if (frame_ns_[i] > kCapFrameXLowFpsNs) {
                t.low_fps_ns[j] += frame_ns_[i];
            }
        }
    }

    // The figures the comparison reads of the resample drawn from `state`, as
    // compute_frame_stats(join_blocks(...), {}, false) forms them: the frame-time summary, the
    // FPS figures, CapFrameX's stutter, the hitch count and rate and the variation buckets. The
    // hitches and the stutter frames are there in number only (their details are not formed),
    // and the refresh guess is left out.
    void figures(std::uint64_t state, Buffers& b, FrameStats& s) const {
        s.frame_time = {};
        s.stutter = {};
        s.hitches = {};
        s.variation = {};
        if (frame_ns_.empty()) {
            s.fps = {};
            return;
        }
        draw(state, b);
        if (direct_) {
            b.resample = join_blocks(frame_ns_, tiling_, b.draw);
            s = compute_frame_stats(b.resample, {}, false);
            return;
        }
        const std::size_t n = b.draw.values;
        const BlockOrder::View ascending(*order_, b.draw);
        const std::int64_t total = ascending.total();
        const double mean_ns = static_cast<double>(total) / static_cast<double>(n);
        s.frame_time = summarize_ascending(ascending, total, ascending.squares_about(mean_ns));
        s.fps = fps_figures(s.frame_time);
        stutter_of(b, ascending, total, s.stutter);
        // Hitches and variation: a whole block's own part from its table, an end piece's counted
        // over its frames, and each junction decided from the frames on either side of it.
        std::size_t count = 0;
        VariationBuckets& variation = s.variation;
        const auto count_pair = [&](std::int64_t frame, std::int64_t previous) {
            if (hitch(frame, previous)) {
                ++count;
                s.hitches.hitch_ns += frame;
            }
            const std::size_t bucket = variation_bucket(frame, previous);
            if (bucket < kVariationEdgesNs.size())
                ++variation.counts[bucket];
        };
        for (std::size_t i = 0; i < b.draw.order.size(); ++i) {
            const std::size_t start = b.start[i], length = b.length[i];
            if (b.draw.cut[i] == 0) {
                const Block& block = blocks_[b.draw.order[i]];
                count += block.hitches;
                s.hitches.hitch_ns += block.hitch_ns;
                for (std::size_t e = 0; e < kVariationEdgesNs.size(); ++e)
                    variation.counts[e] += block.variation[e];
            } else {
                for (std::size_t f = start + 1; f < start + length; ++f)
                    count_pair(frame_ns_[f], frame_ns_[f - 1]);
            }
            if (i > 0)
                count_pair(frame_ns_[start], frame_ns_[b.start[i - 1] + b.length[i - 1] - 1]);
        }
        s.hitches.hitches.resize(count);
        s.hitches.per_minute =
            total > 0 ? static_cast<double>(count) / (ns_to_s(total) / 60.0) : 0.0;
        variation.total = n - 1;
        std::size_t below = 0;
        for (std::size_t e = 0; e < kVariationEdgesNs.size(); ++e)
            below += variation.counts[e];
        variation.counts[kVariationEdgesNs.size()] = variation.total - below;
    }

  private:
    struct StutterTable {  // per block: its frames from the window on that stutter
        std::vector<std::uint32_t> count;
        std::vector<std::int64_t> ns;          // their summed time
        std::vector<std::int64_t> low_fps_ns;  // and the time of the others below 25 FPS
        // The moving average's samples of its last `window` frames summed, for a block of more
        // than `window` frames (-1 otherwise): the window a following block's first frame has.
        std::vector<std::int64_t> tail_sum;
    };
    struct Block {
        std::uint32_t hitches = 0;                                        // after its first frame
        std::int64_t hitch_ns = 0;                                        // their time
        std::array<std::uint32_t, kVariationEdgesNs.size()> variation{};  // the same
    };

    static std::uint64_t u(std::int64_t v) { return static_cast<std::uint64_t>(v); }

    // unreal_hitches' rule for a frame after `previous`.
    static bool hitch(std::int64_t frame, std::int64_t previous) {
        return frame > kHitchThresholdNs && compare_products(2, u(frame), 3, u(previous)) >= 0;
    }
    // variation_buckets' bucket of the change from `previous` to `frame`.
    static std::size_t variation_bucket(std::int64_t frame, std::int64_t previous) {
        const std::int64_t d = std::llabs(frame - previous);
        for (std::size_t e = 0; e < kVariationEdgesNs.size(); ++e) {
            if (d < kVariationEdgesNs[e])
                return e;
        }
        return kVariationEdgesNs.size();
    }
    // The value the CapFrameX moving average sees for frame i of the series (capframex_rules).
    std::int64_t averaged(std::size_t i) const {
        return i > 0 && u(frame_ns_[i]) > 3 * u(frame_ns_[i - 1]) ? frame_ns_[i - 1] : frame_ns_[i];
    }

    // The blocks drawn from `state`, into b.draw, and where each starts in the resample.
    void draw(std::uint64_t state, Buffers& b) const {
        draw_blocks(tiling_, state, b.draw);
        const std::size_t k = b.draw.order.size();
        b.start.resize(k);
        b.length.resize(k);
        b.position.resize(k + 1);
        b.position[0] = 0;
        for (std::size_t i = 0; i < k; ++i) {
            b.start[i] = piece_start(tiling_, b.draw, i);
            b.length[i] = piece_length(tiling_, b.draw, i);
            b.position[i + 1] = b.position[i] + b.length[i];
        }
    }
    // f(i, start, length, position) for the i-th piece drawn: where it starts in the series,
    // its length and where it starts in the resample.
    template <class F>
    void for_each_block(const Buffers& b, F f) const {
        for (std::size_t i = 0; i < b.draw.order.size(); ++i)
            f(i, b.start[i], b.length[i], b.position[i]);
    }
    std::int64_t total_of(const Buffers& b) const {
        return BlockOrder::View(*order_, b.draw).total();
    }

    // capframex_stutter over the resample. Count share: the frames over 2.5 × the mean are the
    // values above ⌊5·total / (2·n)⌋ (2·n·ft > 5·total in integers). Time share: a frame at least
    // `window` frames into its block has a window of its own block's frames only, as it had in
    // the series, so the series' table decides it; the first `window` frames of a block are
    // decided again here over the frames that precede them in the resample.
    void stutter_of(Buffers& b, const AscendingValues& ascending, std::int64_t total,
                    CapFrameXStutter& r) const {
        const std::size_t n = b.draw.values;
        r.window = capframex_window(ns_to_ms(static_cast<double>(total) / static_cast<double>(n)));
        const std::size_t w = r.window;
        const std::uint64_t limit = 5 * u(total) / (2 * static_cast<std::uint64_t>(n));
        r.above_mean = n - ascending.rank_above(static_cast<std::int64_t>(limit));
        const StutterTable& table = stutter_.at(w);
        std::size_t flagged = 0;
        for_each_block(b, [&](std::size_t i, std::size_t start, std::size_t length, std::size_t p) {
            // A whole block's frames from the window on are the table's; an end piece's are all
            // decided here.
            const bool whole = b.draw.cut[i] == 0;
            const std::size_t head = whole ? std::min(w, length) : length;
            if (whole) {
                flagged += table.count[b.draw.order[i]];
                r.stutter_ns += table.ns[b.draw.order[i]];
                r.low_fps_ns += table.low_fps_ns[b.draw.order[i]];
            }
            // Most blocks follow one longer than the window: the window before the head is that
            // block's last frames, their samples summed in the table, and each head frame's
            // window gives up one of them (whose sample has its predecessor in its own block).
            if (whole && i > 0 && p >= w && b.draw.cut[i - 1] == 0 &&
                table.tail_sum[b.draw.order[i - 1]] >= 0) {
                const std::uint32_t previous = b.draw.order[i - 1];
                const std::size_t previous_end = b.start[i - 1] + b.length[i - 1];
                const std::int64_t previous_last = frame_ns_[previous_end - 1];
                std::int64_t window_sum = table.tail_sum[previous];
                for (std::size_t o = 0; o < head; ++o) {
                    const std::int64_t ft = frame_ns_[start + o];
                    window_sum += o > 0 ? averaged(start + o)
                                        : (u(ft) > 3 * u(previous_last) ? previous_last : ft);
                    window_sum -= averaged(previous_end - w + o);
                    if (2 * w * u(ft) > 5 * u(window_sum)) {
                        ++flagged;
                        r.stutter_ns += ft;
                    } else if (ft > kCapFrameXLowFpsNs) {
                        r.low_fps_ns += ft;
                    }
                }
                return;
            }
            // Resample positions [from, p + head): the head, the window before it and the frame
            // before that window (whose value the window's first sample may take), copied run
            // by run from the blocks they lie in.
            const std::size_t from = p > w ? p - w - 1 : 0;
            b.local.clear();
            std::size_t d = i;
            while (b.position[d] > from)
                --d;
            for (std::size_t q = from; q < p + head; ++d) {
                const std::size_t end = std::min(b.position[d + 1], p + head);
                const auto first = frame_ns_.begin() +
                                   static_cast<std::ptrdiff_t>(b.start[d] + (q - b.position[d]));
                b.local.insert(b.local.end(), first, first + static_cast<std::ptrdiff_t>(end - q));
                q = end;
            }
            const auto frame = [&](std::size_t q) { return b.local[q - from]; };
            b.averaged.resize(b.local.size());
            for (std::size_t q = from; q < p + head; ++q) {
                b.averaged[q - from] = q > 0 && q > from && u(frame(q)) > 3 * u(frame(q - 1))
                                           ? frame(q - 1)
                                           : frame(q);
            }
            const auto avg = [&](std::size_t q) { return b.averaged[q - from]; };
            // The window as it stands after position p - 1: [max(0, p - w), p - 1].
            const std::size_t low = p >= w ? p - w : 0;
            std::int64_t window_sum = 0;
            for (std::size_t q = low; q < p; ++q)
                window_sum += avg(q);
            std::size_t k = p - low;
            for (std::size_t q = p; q < p + head; ++q) {
                window_sum += avg(q);
                if (k < w)
                    ++k;
                else
                    window_sum -= avg(q - w);
                if (2 * k * u(frame(q)) > 5 * u(window_sum)) {
                    ++flagged;
                    r.stutter_ns += frame(q);
                } else if (frame(q) > kCapFrameXLowFpsNs) {
                    r.low_fps_ns += frame(q);
                }
            }
        });
        r.frames.resize(flagged);  // their indices are not formed; the comparison counts them
        r.count_share = static_cast<double>(r.above_mean) / static_cast<double>(n);
        r.time_share =
            total > 0 ? static_cast<double>(r.stutter_ns) / static_cast<double>(total) : 0;
    }

    std::span<const std::int64_t> frame_ns_;
    BlockTiling tiling_;
    bool direct_ = false;  // compute_frame_stats over the joined resample instead
    std::optional<BlockOrder> order_;
    std::vector<Block> blocks_;
    std::map<std::size_t, StutterTable> stutter_;  // by window
};

// A resample joins K blocks drawn with replacement, so its total can reach K times the dearest
// block's, far past the series' own total, which analyse_capture keeps in the int64 range. A
// series whose resamples could pass it (blocks of months) is refused rather than summed past
// the range.
void check_resample_totals(std::span<const std::int64_t> values, std::size_t block,
                           const CaptureReport& r) {
    if (values.empty())
        return;
    const BlockTiling tiling(values.size(), block);
    std::int64_t dearest = 0;
    for (std::size_t j = 0; j < tiling.blocks(); ++j) {
        std::int64_t sum = 0;
        for (std::size_t i = tiling.start(j); i < tiling.start(j) + tiling.length(j); ++i)
            sum += std::max<std::int64_t>(values[i], 0);
        dearest = std::max(dearest, sum);
    }
    const auto blocks = static_cast<std::int64_t>(tiling.blocks());
    std::int64_t most = 0;
    if (__builtin_mul_overflow(blocks, dearest, &most)) {
        throw InputError(r.capture ? r.capture->source.file : std::string(),
                         fmt::format("too long to compare: {} blocks of {} frames like its "
                                     "longest ({:.0f} s) add up to more than 292 years; expected "
                                     "a capture of hours",
                                     blocks, tiling.length(tiling.blocks() - 1), ns_to_s(dearest)));
    }
}

// The generator state at the start of each resample of two series, drawn in turn as a single
// thread would draw them; paired: B's resample is A's.
void draw_states(std::uint64_t seed, const BlockTiling& a, const BlockTiling& b, bool paired,
                 std::vector<std::uint64_t>& state_a, std::vector<std::uint64_t>& state_b) {
    std::uint64_t state = seed;
    BlockDraw scratch;
    for (std::size_t k = 0; k < state_a.size(); ++k) {
        state_a[k] = state;
        if (a.values() > 0)
            draw_blocks(a, state, scratch);
        state_b[k] = paired ? state_a[k] : state;
        if (!paired && b.values() > 0)
            draw_blocks(b, state, scratch);
    }
}

// A per-frame column other than the frame time (a latency, where the time went) and the
// figures compared of it, resampled in blocks of its own values as the frame times are.
struct ColumnSeries {
    std::vector<std::int64_t> (*values)(const CaptureReport&);
    std::vector<const Figure*> figures;
    std::vector<std::int64_t> a, b;
    BlockTiling tiling_a, tiling_b;
    std::optional<BlockOrder> order_a, order_b;  // view a and b: built once the list is whole
    bool paired = false;
    std::vector<std::uint64_t> state_a, state_b;
    std::vector<std::vector<double>> diffs;  // per figure, per resample

    ColumnSeries(const Figure& f, const CaptureReport& ra, const CaptureReport& rb)
        : values(f.column_values), figures{&f}, a(f.column_values(ra)), b(f.column_values(rb)) {}

    void prepare(std::uint64_t seed, std::size_t resamples) {
        if (a.empty() || b.empty())
            return;  // not compared (figure_missing says why); no interval
        tiling_a = BlockTiling(a.size(), bootstrap_block_frames(a.size()));
        tiling_b = BlockTiling(b.size(), bootstrap_block_frames(b.size()));
        paired = a == b;
        state_a.resize(resamples);
        state_b.resize(resamples);
        draw_states(seed, tiling_a, tiling_b, paired, state_a, state_b);
        order_a.emplace(a, tiling_a);
        if (!paired)
            order_b.emplace(b, tiling_b);
        diffs.assign(figures.size(), std::vector<double>(resamples));
    }

    // Resample k (each k from one thread only).
    void resample(std::size_t k, BlockDraw& draw_a, BlockDraw& draw_b) {
        if (diffs.empty())
            return;
        std::uint64_t state = state_a[k];
        draw_blocks(tiling_a, state, draw_a);
        const BlockOrder::View va(*order_a, draw_a);
        if (paired) {
            for (std::vector<double>& d : diffs)
                d[k] = 0;
            return;
        }
        state = state_b[k];
        draw_blocks(tiling_b, state, draw_b);
        const BlockOrder::View vb(*order_b, draw_b);
        for (std::size_t i = 0; i < figures.size(); ++i)
            diffs[i][k] = *figures[i]->column_value(vb) - *figures[i]->column_value(va);
    }
};

}  // namespace

namespace {

// Each tool's own figures follow the tool's rule on its own timeline: the present-to-present
// times (figures.cpp, "Each tool's own figures").
bool tool_figure(const Figure& f) {
    return f.section == "Each tool's own figures";
}

}  // namespace

std::vector<const Figure*> compared_figures(const CaptureReport& a, const CaptureReport& b,
                                            ComparedTimeline timeline,
                                            std::vector<AbsentDifference>* absent) {
    std::vector<const Figure*> figures;
    for (const Figure* f : compared_figures()) {
        const auto missing_a = figure_missing(*f, a);
        const auto missing_b = figure_missing(*f, b);
        if (missing_a && missing_b)
            continue;  // of the other kind of capture (samples against frames)
        if (missing_a || missing_b) {
            if (absent) {
                absent->push_back(
                    {std::string(f->key), missing_a ? "A: " + *missing_a : "B: " + *missing_b});
            }
            continue;
        }
        if (f->unlike) {
            if (auto why = f->unlike(a, b)) {
                if (absent)
                    absent->push_back({std::string(f->key), std::move(*why)});
                continue;
            }
        }
        if (timeline != ComparedTimeline::present && tool_figure(*f)) {
            if (absent) {
                absent->push_back(
                    {std::string(f->key),
                     fmt::format("a tool's own figure, of its present-to-present times; the "
                                 "comparison is on the {} timeline",
                                 compared_timeline_name(timeline))});
            }
            continue;
        }
        figures.push_back(f);
    }
    return figures;
}

std::optional<RecordingAlignment> align_one_recording(const Capture& a, const Capture& b) {
    const std::size_t na = a.frames(), nb = b.frames();
    if (na == nb || !a.per_frame || !b.per_frame || has_loop_columns(a) || has_loop_columns(b))
        return std::nullopt;
    const std::size_t common = std::min(na, nb);
    // A frame without a time in one layout (the first of a rebuilt present timeline, a
    // generated frame) is not compared; every other must agree.
    std::size_t compared = 0;
    bool varies = false;
    std::int64_t first_ns = -1;
    for (std::size_t i = 0; i < common; ++i) {
        const std::int64_t fa = a.frame_ns[i], fb = b.frame_ns[i];
        if (fa <= 0 || fb <= 0)
            continue;
        if (std::abs(fa - fb) > kSameRecordingToleranceNs)
            return std::nullopt;
        ++compared;
        if (first_ns < 0)
            first_ns = fa;
        varies = varies || std::abs(fa - first_ns) > kSameRecordingToleranceNs;
    }
    if (compared < kSameRecordingMinFrames || !varies || compared * 2 < common)
        return std::nullopt;
    RecordingAlignment r;
    r.frames_a = common;
    r.frames_b = common;
    const bool a_longer = na > nb;
    const std::size_t extra = (a_longer ? na : nb) - common;
    const char* longer = a_longer ? "A" : "B";
    r.note = fmt::format(
        "; A and B are two layouts of one recording (every present both hold is at the same "
        "time since the first, within {} us), so the comparison is over the {} frames both "
        "hold: {}'s last {}, after {}'s last, {} left out of it ({}'s own report keeps {})",
        kSameRecordingToleranceNs / 1000, common, longer,
        extra == 1 ? std::string("present") : fmt::format("{} presents", extra),
        a_longer ? "B" : "A", extra == 1 ? "is" : "are", longer, extra == 1 ? "it" : "them");
    return r;
}

namespace {

// The compared figures split by what they resample: the frame-time figures, resampled on the
// timeline compared, and the figures of another per-frame column (latency, where the time
// went), each column resampled on its own.
void group_by_series(const std::vector<const Figure*>& compared, const CaptureReport& a,
                     const CaptureReport& b, std::vector<const Figure*>& names,
                     std::vector<ColumnSeries>& columns) {
    for (const Figure* f : compared) {
        if (f->frame_value) {
            names.push_back(f);
            continue;
        }
        const auto same = std::find_if(columns.begin(), columns.end(), [&](const ColumnSeries& s) {
            return s.values == f->column_values;
        });
        if (same != columns.end()) {
            same->figures.push_back(f);
        } else {
            columns.emplace_back(*f, a, b);
        }
    }
}

// The two sides' frame times on the timeline compared and the generator state of each resample.
struct ResampledPair {
    std::span<const std::int64_t> frames_a, frames_b;
    std::size_t block_a = 0, block_b = 0;
    bool paired = false;
    std::vector<std::uint64_t> state_a, state_b;
};

// Each resample's difference in every frame-time figure (diffs, per figure, per resample) and
// in every column's figures (the columns' own diffs). The series' tables, and the stutter table
// of every window a resample will have, are built before the threads start: they only read
// them. B's are built beside A's when there is a second core (each takes a sort of its series).
void resample_differences(const ResampledPair& p, const std::vector<const Figure*>& names,
                          std::vector<ColumnSeries>& columns,
                          std::vector<std::vector<double>>& diffs,
                          const std::function<void(double)>& progress, unsigned threads) {
    const std::size_t resamples = p.state_a.size();
    threads = threads_or_hardware(threads);
    const auto prepare = [](BlockSeries& series, const std::vector<std::uint64_t>& states) {
        BlockSeries::Buffers scratch;
        for (const std::uint64_t s : states)
            series.prepare_window(series.window_of(s, scratch));
    };
    std::optional<BlockSeries> series_a, series_b;
    run_beside(
        threads > 1 && !p.paired,
        [&] {
            if (!p.paired) {
                series_b.emplace(p.frames_b, p.block_b);
                prepare(*series_b, p.state_b);
            }
        },
        [&] {
            series_a.emplace(p.frames_a, p.block_a);
            prepare(*series_a, p.state_a);
        });
    const BlockSeries& resampled_a = *series_a;
    const BlockSeries& resampled_b = p.paired ? *series_a : *series_b;

    // One thread per core, at most kMaxThreads, each with buffers of its own.
    constexpr unsigned kMaxThreads = 8;
    threads = std::min(threads, kMaxThreads);
    struct Scratch {
        BlockSeries::Buffers buffers;
        BlockDraw draw_a, draw_b;
        FrameStats sa, sb;
    };
    std::vector<Scratch> scratch(threads);
    std::atomic<std::size_t> done{0};
    parallel_for(resamples, threads, [&](std::size_t k, unsigned worker) {
        Scratch& s = scratch[worker];
        resampled_a.figures(p.state_a[k], s.buffers, s.sa);
        if (p.paired)
            s.sb = s.sa;
        else
            resampled_b.figures(p.state_b[k], s.buffers, s.sb);
        for (std::size_t f = 0; f < names.size(); ++f)
            diffs[f][k] = *names[f]->frame_value(s.sb) - *names[f]->frame_value(s.sa);
        for (ColumnSeries& column : columns)
            column.resample(k, s.draw_a, s.draw_b);
        const std::size_t finished = ++done;
        if (worker == 0 && progress)
            progress(static_cast<double>(finished) / static_cast<double>(resamples));
    });
    if (progress)
        progress(1.0);
}

// The figures without a direction, by their values: the frames and the time on the timeline
// compared, and the display's refresh rate (the capture's, whatever the timeline).
std::vector<FigureDifference> context_differences(const CaptureReport& a, const CaptureReport& b,
                                                  const FrameStats& stats_a,
                                                  const FrameStats& stats_b) {
    std::vector<FigureDifference> context;
    for (const Figure& f : figure_catalogue()) {
        if (f.key.empty() || f.compared || !f.frame_value || figure_better(f) != Better::unknown)
            continue;
        if (figure_missing(f, a) || figure_missing(f, b))
            continue;
        const bool of_capture = (f.needs & kNeedsRefreshGrid) != 0;
        const std::optional<double> va = of_capture ? f.value(a) : f.frame_value(stats_a);
        const std::optional<double> vb = of_capture ? f.value(b) : f.frame_value(stats_b);
        if (!va || !vb)
            continue;
        FigureDifference d;
        d.name = std::string(f.key);
        d.a = *va;
        d.b = *vb;
        d.difference = *vb - *va;
        d.has_interval = false;
        d.verdict = *va == *vb ? Verdict::unchanged : Verdict::changed;
        context.push_back(std::move(d));
    }
    return context;
}

}  // namespace

Comparison compare_captures(const CaptureReport& a, const CaptureReport& b, std::size_t resamples,
                            std::uint64_t seed, const std::function<void(double)>& progress,
                            unsigned threads) {
    Comparison c;
    c.resamples = resamples;
    c.seed = seed;
    if (a.capture && b.capture && a.capture->per_frame != b.capture->per_frame) {
        throw UsageError(fmt::format(
            "cannot compare '{}' with '{}': a sampled log's rows are not frames, so it compares "
            "only with another sampled log",
            a.capture->source.file, b.capture->source.file));
    }
    c.timeline = choose_timeline(a, b, &c.timeline_reason);
    const TimelineSeries series_of_a = timeline_series(a, c.timeline);
    const TimelineSeries series_of_b = timeline_series(b, c.timeline);
    ResampledPair p;
    p.frames_a = series_of_a.ns;
    p.frames_b = series_of_b.ns;
    c.block_a = p.block_a = bootstrap_block_frames(p.frames_a.size());
    c.block_b = p.block_b = bootstrap_block_frames(p.frames_b.size());
    std::vector<const Figure*> names;
    std::vector<ColumnSeries> columns;
    const std::vector<const Figure*> compared = compared_figures(a, b, c.timeline, &c.absent);
    group_by_series(compared, a, b, names, columns);
    std::vector<std::vector<double>> diffs(names.size(), std::vector<double>(resamples));

    // The figures of each side on the timeline compared: the report's own on the present
    // timeline, else those of that timeline's intervals.
    const bool present = c.timeline == ComparedTimeline::present;
    FrameStats own_a, own_b;
    if (!present) {
        own_a = compute_frame_stats(p.frames_a, {}, false);
        own_b = compute_frame_stats(p.frames_b, {}, false);
    }
    const FrameStats& stats_a = present ? a.stats : own_a;
    const FrameStats& stats_b = present ? b.stats : own_b;

    // The generator state at the start of each resample of A and of B, drawn in the order a
    // single thread would draw them, so the threads change nothing but the time taken. The same
    // frames in the same order on both sides are one series: B's resample is A's, so nothing
    // differs but what differs in the data (here, nothing). Each column has a generator of its
    // own, seeded from the seed and the column's place.
    check_resample_totals(p.frames_a, c.block_a, a);
    check_resample_totals(p.frames_b, c.block_b, b);
    c.paired = p.paired =
        std::equal(p.frames_a.begin(), p.frames_a.end(), p.frames_b.begin(), p.frames_b.end());
    const BlockTiling tiling_a(p.frames_a.size(), c.block_a);
    const BlockTiling tiling_b(p.frames_b.size(), c.block_b);
    p.state_a.resize(resamples);
    p.state_b.resize(resamples);
    draw_states(seed, tiling_a, tiling_b, c.paired, p.state_a, p.state_b);
    for (std::size_t i = 0; i < columns.size(); ++i) {
        std::uint64_t column_seed = seed + 0x9e3779b97f4a7c15ULL * (i + 1);
        columns[i].prepare(next_random(column_seed), resamples);
    }
    resample_differences(p, names, columns, diffs, progress, threads);

    // In catalogue order, as compared_figures gave them.
    std::size_t next_frame_figure = 0;
    for (const Figure* f : compared) {
        if (f->frame_value) {
            const std::size_t i = next_frame_figure++;
            c.figures.push_back(figure_difference(*f, *f->frame_value(stats_a),
                                                  *f->frame_value(stats_b), diffs[i]));
            continue;
        }
        for (const ColumnSeries& column : columns) {
            const auto it = std::find(column.figures.begin(), column.figures.end(), f);
            if (it != column.figures.end()) {
                c.figures.push_back(figure_difference(
                    *f, *f->value(a), *f->value(b),
                    column.diffs[static_cast<std::size_t>(it - column.figures.begin())]));
            }
        }
    }
    c.context = context_differences(a, b, stats_a, stats_b);
    return c;
}

FrameStats resampled_frame_stats(std::span<const std::int64_t> frame_ns, std::size_t block,
                                 std::uint64_t state) {
    BlockSeries series(frame_ns, block);
    BlockSeries::Buffers buffers;
    series.prepare_window(series.window_of(state, buffers));
    FrameStats s;
    series.figures(state, buffers, s);
    return s;
}

}  // namespace loopscope
