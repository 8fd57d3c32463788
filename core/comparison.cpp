// Block-bootstrap comparison of two captures; method in comparison.hpp.
#include "core/comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "common/errors.hpp"
#include "core/beside.hpp"
#include "core/figures.hpp"
#include "core/frame_stats.hpp"
#include "core/units.hpp"

namespace loopscope {

namespace {

// splitmix64: tiny, fully specified, identical on every platform (std:: distributions are not).
std::uint64_t next_random(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// Uniform in [0, bound) without modulo bias, by rejection.
std::uint64_t uniform_below(std::uint64_t bound, std::uint64_t& state) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t r = 0;
    do {
        r = next_random(state);
    } while (r >= limit);
    return r % bound;
}

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

namespace {

// Draws the start of each block of one resample, in order: ceil(N / b) draws. block_resample
// and the comparison's generator bookkeeping both go through here, so they consume the
// generator identically.
template <class OnStart>
void draw_block_starts(std::size_t n, std::size_t block, std::uint64_t& state, OnStart on_start) {
    const std::size_t blocks = (n + block - 1) / block;
    for (std::size_t i = 0; i < blocks; ++i)
        on_start(static_cast<std::size_t>(uniform_below(n - block + 1, state)));
}

}  // namespace

namespace {

// Appends one resample's blocks to `out`, the last one cut so that `out` gains N frames, and
// calls on_block(start, length) for each. block_resample and the comparison's resamples both
// go through here, so they are the same resample.
template <class OnBlock>
void append_blocks(std::span<const std::int64_t> frame_ns, std::size_t block, std::uint64_t& state,
                   std::vector<std::int64_t>& out, OnBlock on_block) {
    const std::size_t n = frame_ns.size();
    const std::size_t first = out.size();
    draw_block_starts(n, block, state, [&](std::size_t start) {
        const std::size_t length = std::min(block, n - (out.size() - first));
        out.insert(out.end(), frame_ns.begin() + static_cast<std::ptrdiff_t>(start),
                   frame_ns.begin() + static_cast<std::ptrdiff_t>(start + length));
        on_block(start, length);
    });
}

}  // namespace

std::vector<std::int64_t> block_resample(std::span<const std::int64_t> frame_ns, std::size_t block,
                                         std::uint64_t& state) {
    const std::size_t n = frame_ns.size();
    std::vector<std::int64_t> out;
    if (n == 0)
        return out;
    block = std::clamp<std::size_t>(block, 1, n);
    out.reserve(n);
    append_blocks(frame_ns, block, state, out, [](std::size_t, std::size_t) {});
    return out;
}

std::vector<const Figure*> compared_figures() {
    std::vector<const Figure*> figures;
    for (const Figure& f : figure_catalogue()) {
        if (f.compared && f.frame_value)
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
        return "displayed frames (--timeline display)";
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
// without joining them. A resample is made of the series' own blocks, so most of what a figure
// sees of it is what it sees of the series: only where two blocks meet, and over the first
// frames of a block for a rule that looks back over a window, does the resample differ. Each
// rule is therefore run once over the series (prefix sums of its outcome, so a block counts in
// O(1)) and again only at the junctions. Every figure is formed in integers or with the same
// floating operations in the same order as compute_frame_stats forms it over the joined
// resample, so the figures are the same to the bit (resampled_frame_stats, tested against it).
//
// The order statistics need the resample's values in ascending order, and sorting a million of
// them for each of 200 resamples was most of a comparison's time. Each frame of the series is
// taken some number of times (the blocks that cover it): walking the series' values in
// ascending order, sorted once here, and writing each as many times as it was taken gives the
// resample in ascending order, the very values a sort would give, in one pass.
class BlockSeries {
  public:
    BlockSeries(std::span<const std::int64_t> frame_ns, std::size_t block)
        : frame_ns_(frame_ns),
          block_(frame_ns.empty() ? 0 : std::clamp<std::size_t>(block, 1, frame_ns.size())) {
        const std::size_t n = frame_ns.size();
        if (n == 0)
            return;
        const auto [shortest, longest] = std::minmax_element(frame_ns.begin(), frame_ns.end());
        // capframex_stutter decides with plain 64-bit products when they cannot overflow and with
        // compare_products otherwise; both decide exactly, so the rules below use plain products
        // where no resample can overflow them (no window exceeds the one of a mean equal to the
        // longest frame) and leave any other series to the straightforward path.
        const std::size_t widest = capframex_window(ns_to_ms(static_cast<double>(*longest)));
        const std::uint64_t factor =
            5 * static_cast<std::uint64_t>(std::max<std::size_t>(n, widest)) + 5;
        direct_ = *shortest < 0 || static_cast<std::uint64_t>(*longest) > UINT64_MAX / factor ||
                  n > UINT32_MAX;  // the walk's indices take four bytes
        if (direct_)
            return;
        // The series in ascending order, values and indices apart so that the walk streams
        // twelve bytes a frame, not sixteen.
        std::vector<Entry> ascending(n);
        for (std::size_t i = 0; i < n; ++i)
            ascending[i] = {frame_ns[i], static_cast<std::uint32_t>(i)};
        std::sort(ascending.begin(), ascending.end(),
                  [](const Entry& x, const Entry& y) { return x.value_ns < y.value_ns; });
        ascending_ns_.resize(n);
        ascending_index_.resize(n);
        for (std::size_t r = 0; r < n; ++r) {
            ascending_ns_[r] = ascending[r].value_ns;
            ascending_index_[r] = ascending[r].index;
        }
        prefix_ns_.resize(n + 1);
        hitch_prefix_.resize(n + 1);
        variation_prefix_.resize(n + 1);
        for (std::size_t i = 0; i < n; ++i) {
            prefix_ns_[i + 1] = prefix_ns_[i] + frame_ns[i];
            hitch_prefix_[i + 1] =
                hitch_prefix_[i] + (i > 0 && hitch(frame_ns[i], frame_ns[i - 1]));
            variation_prefix_[i + 1] = variation_prefix_[i];
            if (i > 0) {
                const std::size_t bucket = variation_bucket(frame_ns[i], frame_ns[i - 1]);
                if (bucket < kVariationEdgesNs.size())
                    ++variation_prefix_[i + 1][bucket];
            }
        }
    }

    // Scratch that one thread reuses from resample to resample.
    struct Buffers {
        std::vector<std::size_t> starts;     // the blocks drawn, in order
        std::vector<std::int64_t> resample;  // the straightforward path only
        std::vector<std::int64_t> sorted;    // the resample's values, ascending
        // Per frame of the series, how often it was drawn: at most the ceil(N / b) blocks, which
        // 32 bits hold for any series that fits in memory; half the size keeps more in cache.
        std::vector<std::uint32_t> taken;
        std::vector<std::uint8_t> taken_narrow;  // the same in a byte, when no count passes 255
        bool wide_counts = false;                // four bytes even so (a test's choice)
        std::vector<std::size_t> sorted_starts;
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
            ns_to_ms(static_cast<double>(total_of(b)) / static_cast<double>(frame_ns_.size())));
    }

    // The stutter rule's outcome over the series for window `window`: before any resample that
    // has that window, and before the threads start (the tables are then only read).
    void prepare_window(std::size_t window) {
        if (direct_ || frame_ns_.empty() || stutter_.count(window))
            return;
        StutterTable& t = stutter_[window];
        const std::size_t n = frame_ns_.size();
        t.count_prefix.resize(n + 1);
        t.ns_prefix.resize(n + 1);
        // capframex_stutter's time-share rule over the series (see it); only the frames with a
        // full window behind them are read from this table.
        std::int64_t window_sum = 0;
        std::size_t k = 0;
        for (std::size_t i = 0; i < n; ++i) {
            window_sum += averaged(i);
            if (k < window)
                ++k;
            else
                window_sum -= averaged(i - window);
            const bool stutters = 2 * k * u(frame_ns_[i]) > 5 * u(window_sum);
            t.count_prefix[i + 1] = t.count_prefix[i] + (stutters ? 1 : 0);
            t.ns_prefix[i + 1] = t.ns_prefix[i] + (stutters ? frame_ns_[i] : 0);
        }
    }

    // What compute_frame_stats(block_resample(frame_ns, block, state), {}, false) gives for every
    // figure the comparison reads: the frame-time summary, the FPS figures, CapFrameX's stutter,
    // the hitch count and rate and the variation buckets. The hitches and the stutter frames are
    // there in number only (their details are not formed), and the refresh guess is left out.
    void figures(std::uint64_t state, Buffers& b, FrameTimeSummary& summary,
                 CapFrameXStutter& stutter, UnrealHitches* hitches,
                 VariationBuckets* variation) const {
        const std::size_t n = frame_ns_.size();
        summary = {};
        stutter = {};
        if (n == 0) {
            if (hitches)
                *hitches = {};
            if (variation)
                *variation = {};
            return;
        }
        if (direct_) {
            b.resample = block_resample(frame_ns_, block_, state);
            FrameStats s = compute_frame_stats(b.resample, {}, false);
            summary = s.frame_time;
            stutter = std::move(s.stutter);
            if (hitches)
                *hitches = std::move(s.hitches);
            if (variation)
                *variation = s.variation;
            return;
        }
        draw(state, b);
        const std::int64_t total = total_of(b);
        // The squares about the mean in the resample's order, as compute_frame_stats sums them.
        const double mean_ns = static_cast<double>(total) / static_cast<double>(n);
        const double squares = sort_resample(b, mean_ns);
        summary = summarize_sorted_frame_times(b.sorted, total, squares);
        stutter_of(b, total, stutter);
        if (hitches) {
            std::size_t count = 0;
            for_each_block(b, [&](std::size_t j, std::size_t start, std::size_t length) {
                count += hitch_prefix_[start + length] - hitch_prefix_[start + 1];
                if (j > 0 && hitch(frame_ns_[start], last_of_block(b, j - 1)))
                    ++count;
            });
            *hitches = {};
            hitches->hitches.resize(count);
            hitches->per_minute =
                total > 0 ? static_cast<double>(count) / (ns_to_s(total) / 60.0) : 0.0;
        }
        if (variation) {
            *variation = {};
            for_each_block(b, [&](std::size_t j, std::size_t start, std::size_t length) {
                for (std::size_t e = 0; e < kVariationEdgesNs.size(); ++e) {
                    variation->counts[e] +=
                        variation_prefix_[start + length][e] - variation_prefix_[start + 1][e];
                }
                if (j > 0) {
                    const std::size_t bucket =
                        variation_bucket(frame_ns_[start], last_of_block(b, j - 1));
                    if (bucket < kVariationEdgesNs.size())
                        ++variation->counts[bucket];
                }
            });
            variation->total = n - 1;
            std::size_t below = 0;
            for (std::size_t e = 0; e < kVariationEdgesNs.size(); ++e)
                below += variation->counts[e];
            variation->counts[kVariationEdgesNs.size()] = variation->total - below;
        }
    }

  private:
    struct Entry {
        std::int64_t value_ns;
        std::uint32_t index;  // into the series
    };
    struct StutterTable {
        std::vector<std::uint32_t> count_prefix;  // frames flagged before each index
        std::vector<std::int64_t> ns_prefix;      // their summed time
    };
    static constexpr std::uint32_t kUnconditionalCopies = 4;

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

    // The block starts block_resample draws from `state`, into b.starts.
    void draw(std::uint64_t state, Buffers& b) const {
        b.starts.clear();
        draw_block_starts(frame_ns_.size(), block_, state,
                          [&](std::size_t start) { b.starts.push_back(start); });
    }
    // f(block number, start, length) for each block of the resample, in order; every block but
    // the last has block_ frames, the last is cut so that the resample has N.
    template <class F>
    void for_each_block(const Buffers& b, F f) const {
        const std::size_t n = frame_ns_.size();
        for (std::size_t j = 0; j < b.starts.size(); ++j)
            f(j, b.starts[j], std::min(block_, n - j * block_));
    }
    std::int64_t last_of_block(const Buffers& b, std::size_t j) const {
        return frame_ns_[b.starts[j] + block_ - 1];  // never the cut last block
    }
    std::int64_t total_of(const Buffers& b) const {
        std::int64_t total = 0;
        for_each_block(b, [&](std::size_t, std::size_t start, std::size_t length) {
            total += prefix_ns_[start + length] - prefix_ns_[start];
        });
        return total;
    }

    // The resample's values in ascending order, into b.sorted; returns the sum of the squares
    // about mean_ns in the resample's order.
    double sort_resample(Buffers& b, double mean_ns) const {
        // The walk below looks up each frame's count at random; one byte a frame keeps the
        // counts of a million frames in the core's own cache, four did not. A count can pass 255
        // only where 256 blocks start within one block's length of each other, which the
        // sorted starts show; then the counts take four bytes.
        b.sorted_starts = b.starts;
        std::sort(b.sorted_starts.begin(), b.sorted_starts.end());
        bool narrow = !b.wide_counts;
        constexpr std::size_t kNarrowMax = UINT8_MAX;
        for (std::size_t j = 0; j + kNarrowMax < b.sorted_starts.size() && narrow; ++j)
            narrow = b.sorted_starts[j + kNarrowMax] - b.sorted_starts[j] >= block_;
        return narrow ? sort_resample_counting(b, b.taken_narrow, mean_ns)
                      : sort_resample_counting(b, b.taken, mean_ns);
    }

    template <class Count>
    double sort_resample_counting(Buffers& b, std::vector<Count>& taken, double mean_ns) const {
        const std::size_t n = frame_ns_.size();
        // taken[] as differences first: +1 where a block starts, -1 just past its end.
        taken.assign(n + 1, 0);
        for_each_block(b, [&](std::size_t, std::size_t start, std::size_t length) {
            ++taken[start];
            --taken[start + length];  // unsigned: wraps, and the sums unwrap it
        });
        Count running = 0;
        for (std::size_t i = 0; i < n; ++i) {
            running = static_cast<Count>(running + taken[i]);
            taken[i] = running;
        }
        // Most frames are drawn 0, 1 or 2 times: four copies are written unconditionally (the
        // buffer has room past its end) and the pointer advances by the count, so the loop has
        // no branch to mispredict but for the rare frame drawn more often.
        b.sorted.resize(n + kUnconditionalCopies);
        std::int64_t* out = b.sorted.data();
        // The squares are summed in the same loop, the resample's r-th frame beside the r-th
        // value of the walk: their sum is one long chain of dependent additions, and the walk's
        // work fills some of the time each addition waits for the one before it
        // (BM_ReportCompare1M says how much).
        double squares = 0;
        std::size_t block = 0;
        const std::int64_t* in = frame_ns_.data() + b.starts[0];
        const std::int64_t* block_end = in + std::min(block_, n);
        for (std::size_t r = 0; r < n; ++r) {
            const double d = static_cast<double>(*in) - mean_ns;
            squares += d * d;
            if (++in == block_end && ++block < b.starts.size()) {
                in = frame_ns_.data() + b.starts[block];
                block_end = in + std::min(block_, n - block * block_);
            }
            const std::int64_t value = ascending_ns_[r];
            const std::uint32_t times = taken[ascending_index_[r]];
            for (std::size_t k = 0; k < kUnconditionalCopies; ++k)
                out[k] = value;
            for (std::uint32_t k = kUnconditionalCopies; k < times; ++k)
                out[k] = value;
            out += times;
        }
        b.sorted.resize(n);
        return squares;
    }

    // capframex_stutter over the resample. Count share: the frames over 2.5 × the mean are a
    // suffix of the sorted values. Time share: a frame at least `window` frames into its block
    // has a window of its own block's frames only, as it had in the series, so the series'
    // table decides it; the first `window` frames of a block are decided again here over the
    // frames that precede them in the resample.
    void stutter_of(Buffers& b, std::int64_t total, CapFrameXStutter& r) const {
        const std::size_t n = frame_ns_.size();
        r.window = capframex_window(ns_to_ms(static_cast<double>(total) / static_cast<double>(n)));
        const std::size_t w = r.window;
        const auto first_above =
            std::partition_point(b.sorted.begin(), b.sorted.end(), [&](std::int64_t ft) {
                return !(2 * static_cast<std::uint64_t>(n) * u(ft) > 5 * u(total));
            });
        r.above_mean = static_cast<std::size_t>(b.sorted.end() - first_above);
        const StutterTable& table = stutter_.at(w);
        std::size_t flagged = 0;
        for_each_block(b, [&](std::size_t j, std::size_t start, std::size_t length) {
            const std::size_t head = std::min(w, length);
            flagged += table.count_prefix[start + length] - table.count_prefix[start + head];
            r.stutter_ns += table.ns_prefix[start + length] - table.ns_prefix[start + head];
            // Resample positions [from, p + head): the head, the window before it and the frame
            // before that window (whose value the window's first sample may take).
            const std::size_t p = j * block_;
            const std::size_t from = p > w ? p - w - 1 : 0;
            b.local.clear();
            for (std::size_t q = from, jj = from / block_, off = from % block_; q < p + head; ++q) {
                b.local.push_back(frame_ns_[b.starts[jj] + off]);
                if (++off == block_) {
                    ++jj;
                    off = 0;
                }
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
                }
            }
        });
        r.frames.resize(flagged);  // their indices are not formed; the comparison counts them
        r.count_share = static_cast<double>(r.above_mean) / static_cast<double>(n);
        r.time_share =
            total > 0 ? static_cast<double>(r.stutter_ns) / static_cast<double>(total) : 0;
    }

    std::span<const std::int64_t> frame_ns_;
    std::size_t block_;
    bool direct_ = false;  // compute_frame_stats over the joined resample instead
    std::vector<std::int64_t> ascending_ns_;      // the series' values, ascending
    std::vector<std::uint32_t> ascending_index_;  // where each of them is in the series
    std::vector<std::int64_t> prefix_ns_;         // sum of the frames before each index
    std::vector<std::uint32_t>
        hitch_prefix_;  // hitches before each index, frames after their predecessor
    std::vector<std::array<std::uint32_t, kVariationEdgesNs.size()>> variation_prefix_;
    std::map<std::size_t, StutterTable> stutter_;  // by window
};

// A resample joins ceil(N / b) blocks of b values drawn with replacement, so its total can reach
// that many times the dearest block's, far past the series' own total, which analyse_capture
// keeps in the int64 range. A series whose resamples could pass it (blocks of months) is refused
// rather than summed past the range. Every value is at least 0 and every window at most the
// series' total, so the windows themselves are summed safely.
void check_resample_totals(std::span<const std::int64_t> values, std::size_t block,
                           const CaptureReport& r) {
    if (values.empty())
        return;
    block = std::clamp<std::size_t>(block, 1, values.size());
    std::int64_t window = 0, dearest = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        window += std::max<std::int64_t>(values[i], 0);
        if (i >= block)
            window -= std::max<std::int64_t>(values[i - block], 0);
        dearest = std::max(dearest, window);
    }
    const auto blocks = static_cast<std::int64_t>((values.size() + block - 1) / block);
    std::int64_t most = 0;
    if (__builtin_mul_overflow(blocks, dearest, &most)) {
        throw InputError(r.capture ? r.capture->source.file : std::string(),
                         fmt::format("too long to compare: {} blocks of {} frames like its "
                                     "longest ({:.0f} s) add up to more than 292 years; expected "
                                     "a capture of hours",
                                     blocks, block, ns_to_s(dearest)));
    }
}

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
    const std::span<const std::int64_t> frames_a = series_of_a.ns;
    const std::span<const std::int64_t> frames_b = series_of_b.ns;
    c.block_a = bootstrap_block_frames(frames_a.size());
    c.block_b = bootstrap_block_frames(frames_b.size());
    const std::vector<const Figure*> names = compared_figures(a, b, c.timeline, &c.absent);
    std::vector<std::vector<double>> diffs(names.size(), std::vector<double>(resamples));

    // The figures of each side on the timeline compared: the report's own on the present
    // timeline, else those of that timeline's intervals.
    const bool present = c.timeline == ComparedTimeline::present;
    FrameStats own_a, own_b;
    if (!present) {
        own_a = compute_frame_stats(frames_a, {}, false);
        own_b = compute_frame_stats(frames_b, {}, false);
    }
    const FrameStats& stats_a = present ? a.stats : own_a;
    const FrameStats& stats_b = present ? b.stats : own_b;

    // The generator state at the start of each resample of A and of B, drawn in the order a
    // single thread would draw them, so the threads change nothing but the time taken. The same
    // frames in the same order on both sides are one series: B's resample is A's, so nothing
    // differs but what differs in the data (here, nothing).
    check_resample_totals(frames_a, c.block_a, a);
    check_resample_totals(frames_b, c.block_b, b);
    c.paired = std::equal(frames_a.begin(), frames_a.end(), frames_b.begin(), frames_b.end());
    std::vector<std::uint64_t> state_a(resamples), state_b(resamples);
    std::uint64_t state = seed;
    auto skip = [&](std::span<const std::int64_t> frames, std::size_t block) {
        if (!frames.empty()) {
            draw_block_starts(frames.size(), std::clamp<std::size_t>(block, 1, frames.size()),
                              state, [](std::size_t) {});
        }
    };
    for (std::size_t k = 0; k < resamples; ++k) {
        state_a[k] = state;
        skip(frames_a, c.block_a);
        state_b[k] = c.paired ? state_a[k] : state;
        if (!c.paired)
            skip(frames_b, c.block_b);
    }

    // The series' tables, and the stutter table of every window a resample will have, before
    // the threads start: they only read them. B's are built beside A's when there is a second
    // core (each takes a sort of its series).
    threads = threads_or_hardware(threads);
    const auto prepare = [](BlockSeries& series, const std::vector<std::uint64_t>& states) {
        BlockSeries::Buffers scratch;
        for (const std::uint64_t s : states)
            series.prepare_window(series.window_of(s, scratch));
    };
    std::optional<BlockSeries> series_a, series_b;
    run_beside(
        threads > 1 && !c.paired,
        [&] {
            if (!c.paired) {
                series_b.emplace(frames_b, c.block_b);
                prepare(*series_b, state_b);
            }
        },
        [&] {
            series_a.emplace(frames_a, c.block_a);
            prepare(*series_a, state_a);
        });
    const BlockSeries& resampled_a = *series_a;
    const BlockSeries& resampled_b = c.paired ? *series_a : *series_b;

    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    auto work = [&](bool report) {
        try {
            BlockSeries::Buffers buffers;
            FrameStats sa, sb;
            for (std::size_t k = next++; k < resamples; k = next++) {
                resampled_a.figures(state_a[k], buffers, sa.frame_time, sa.stutter, &sa.hitches,
                                    &sa.variation);
                sa.fps = fps_figures(sa.frame_time);
                if (c.paired) {
                    sb = sa;
                } else {
                    resampled_b.figures(state_b[k], buffers, sb.frame_time, sb.stutter, &sb.hitches,
                                        &sb.variation);
                    sb.fps = fps_figures(sb.frame_time);
                }
                for (std::size_t f = 0; f < names.size(); ++f) {
                    diffs[f][k] = *names[f]->frame_value(sb) - *names[f]->frame_value(sa);
                }
                const std::size_t finished = ++done;
                if (report && progress)
                    progress(static_cast<double>(finished) / static_cast<double>(resamples));
            }
        } catch (...) {
            const std::lock_guard lock(failure_mutex);
            if (!failure)
                failure = std::current_exception();
            next = resamples;  // the others stop after their current resample
        }
    };
    // One thread per core, at most kMaxThreads: each holds one resample's sorted values and
    // per-frame counts (about 12 MB at a million frames).
    constexpr unsigned kMaxThreads = 8;
    threads = static_cast<unsigned>(
        std::min<std::size_t>({threads, kMaxThreads, std::max<std::size_t>(resamples, 1)}));
    {
        std::vector<std::thread> helpers;
        struct JoinAll {  // joins on every way out of this block, an exception's too
            std::vector<std::thread>& threads;
            ~JoinAll() {
                for (std::thread& t : threads)
                    t.join();
            }
        } join_all{helpers};
        for (unsigned t = 1; t < threads; ++t) {
            try {
                helpers.emplace_back(work, false);
            } catch (const std::system_error&) {
                break;  // no more threads to be had: those running, and this one, do it all
            }
        }
        work(true);
    }
    if (failure)
        std::rethrow_exception(failure);
    if (progress)
        progress(1.0);

    for (std::size_t f = 0; f < names.size(); ++f) {
        c.figures.push_back(figure_difference(*names[f], *names[f]->frame_value(stats_a),
                                              *names[f]->frame_value(stats_b), diffs[f]));
    }
    // The figures without a direction, by their values: the frames and the time on the timeline
    // compared, and the display's refresh rate (the capture's, whatever the timeline).
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
        c.context.push_back(std::move(d));
    }
    return c;
}

FrameStats resampled_frame_stats(std::span<const std::int64_t> frame_ns, std::size_t block,
                                 std::uint64_t state, bool wide_counts) {
    BlockSeries series(frame_ns, block);
    BlockSeries::Buffers buffers;
    buffers.wide_counts = wide_counts;
    series.prepare_window(series.window_of(state, buffers));
    FrameStats s;
    series.figures(state, buffers, s.frame_time, s.stutter, &s.hitches, &s.variation);
    s.fps = fps_figures(s.frame_time);
    return s;
}

}  // namespace loopscope
