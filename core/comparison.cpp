// Block-bootstrap comparison of two captures; method in comparison.hpp.
#include "core/comparison.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "core/figures.hpp"
#include "core/frame_stats.hpp"

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
    return d;
}

// Salt of the per-cadence figures' generator ("cadence" in ASCII).
constexpr std::uint64_t kCadenceSeedSalt = 0x63616465'6e6365ULL;

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

std::vector<const Figure*> compared_cadence_figures(const CaptureReport& a,
                                                    const CaptureReport& b) {
    const auto both = [&](Cadence c) {
        const auto has = [c](const CaptureReport& r) {
            return c == Cadence::application
                       ? r.has_generated && !r.application_intervals_ns.empty()
                       : r.displayed.frames > 0 && !r.displayed_intervals_ns.empty();
        };
        return has(a) && has(b);
    };
    std::vector<const Figure*> figures;
    for (const Figure& f : figure_catalogue()) {
        if (f.compared && f.cadence_value && both(f.cadence))
            figures.push_back(&f);
    }
    return figures;
}

namespace {

// One cadence's intervals of A and B, resampled as the frame times are: the blocks and the
// generator state at the start of each resample, fixed before any thread runs.
struct CadenceResampling {
    std::span<const std::int64_t> a, b;
    std::size_t block_a = 0, block_b = 0;
    std::vector<std::uint64_t> state_a, state_b;
};

// A series prepared for resampling without sorting. Every figure but the order-dependent ones
// (stutter, hitches, variation) needs a resample's values in ascending order, and sorting a
// million of them for each of 200 resamples was most of a comparison's time. A resample is
// made of the series' own frames, each taken some number of times (the blocks that cover it):
// walking the series' values in ascending order, sorted once here, and writing each as many
// times as it was taken gives the resample in ascending order, the very values a sort would
// give, in one pass.
class SortedResampler {
  public:
    SortedResampler(std::span<const std::int64_t> frame_ns, std::size_t block)
        : frame_ns_(frame_ns),
          block_(frame_ns.empty() ? 0 : std::clamp<std::size_t>(block, 1, frame_ns.size())) {
        ascending_.resize(frame_ns.size());
        for (std::size_t i = 0; i < frame_ns.size(); ++i)
            ascending_[i] = {frame_ns[i], i};
        std::sort(ascending_.begin(), ascending_.end(),
                  [](const Entry& x, const Entry& y) { return x.value_ns < y.value_ns; });
    }

    // Scratch that one thread reuses from resample to resample.
    struct Buffers {
        std::vector<std::int64_t> resample;  // in the order drawn
        std::vector<std::int64_t> sorted;    // the same values, ascending
        // Per frame of the series, how often it was drawn: at most the ceil(N / b) blocks, which
        // 32 bits hold for any series that fits in memory; half the size keeps more in cache.
        std::vector<std::uint32_t> taken;
    };

    // The resample block_resample draws from `state`, into b.resample, and its values ascending
    // into b.sorted.
    void draw(std::uint64_t state, Buffers& b) const {
        const std::size_t n = frame_ns_.size();
        b.resample.clear();
        b.sorted.clear();
        if (n == 0)
            return;
        // taken[] as differences first: +1 where a block starts, -1 just past its end.
        b.taken.assign(n + 1, 0);
        append_blocks(frame_ns_, block_, state, b.resample,
                      [&](std::size_t start, std::size_t length) {
                          ++b.taken[start];
                          --b.taken[start + length];  // unsigned: wraps, and the sums unwrap it
                      });
        std::uint32_t running = 0;
        for (std::size_t i = 0; i < n; ++i) {
            running += b.taken[i];
            b.taken[i] = running;
        }
        // Most frames are drawn 0, 1 or 2 times: four copies are written unconditionally (the
        // buffer has room past its end) and the pointer advances by the count, so the loop has
        // no branch to mispredict but for the rare frame drawn more often.
        b.sorted.resize(n + kUnconditionalCopies);
        std::int64_t* out = b.sorted.data();
        for (const Entry& e : ascending_) {
            const std::uint32_t times = b.taken[e.index];
            for (std::size_t k = 0; k < kUnconditionalCopies; ++k)
                out[k] = e.value_ns;
            for (std::uint32_t k = kUnconditionalCopies; k < times; ++k)
                out[k] = e.value_ns;
            out += times;
        }
        b.sorted.resize(n);
    }

  private:
    struct Entry {
        std::int64_t value_ns;
        std::size_t index;  // into the series
    };
    static constexpr std::uint32_t kUnconditionalCopies = 4;
    std::span<const std::int64_t> frame_ns_;
    std::size_t block_;
    std::vector<Entry> ascending_;
};

const std::vector<std::int64_t>& intervals_of(const CaptureReport& r, Cadence c) {
    return c == Cadence::application ? r.application_intervals_ns : r.displayed_intervals_ns;
}

}  // namespace

Comparison compare_captures(const CaptureReport& a, const CaptureReport& b, std::size_t resamples,
                            std::uint64_t seed, const std::function<void(double)>& progress,
                            unsigned threads) {
    Comparison c;
    c.resamples = resamples;
    c.seed = seed;
    c.block_a = bootstrap_block_frames(a.series.frame_ns.size());
    c.block_b = bootstrap_block_frames(b.series.frame_ns.size());
    const std::vector<const Figure*> names = compared_figures();
    std::vector<std::vector<double>> diffs(names.size(), std::vector<double>(resamples));

    // The generator state at the start of each resample of A and of B, drawn in the order a
    // single thread would draw them, so the threads change nothing but the time taken.
    const std::span<const std::int64_t> frames_a = a.series.frame_ns;
    const std::span<const std::int64_t> frames_b = b.series.frame_ns;
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
        state_b[k] = state;
        skip(frames_b, c.block_b);
    }

    // The per-cadence figures draw from a generator of their own, so adding them leaves the
    // frame-time figures' intervals as they were.
    const std::vector<const Figure*> cadence_names = compared_cadence_figures(a, b);
    std::vector<std::vector<double>> cadence_diffs(cadence_names.size(),
                                                   std::vector<double>(resamples));
    std::array<CadenceResampling, 2> cadences;  // application, displayed
    std::uint64_t cadence_state = seed ^ kCadenceSeedSalt;
    for (const Cadence which : {Cadence::application, Cadence::displayed}) {
        const bool compared = std::any_of(cadence_names.begin(), cadence_names.end(),
                                          [which](const Figure* f) { return f->cadence == which; });
        if (!compared)
            continue;
        CadenceResampling& cr = cadences[which == Cadence::application ? 0 : 1];
        cr.a = intervals_of(a, which);
        cr.b = intervals_of(b, which);
        cr.block_a = bootstrap_block_frames(cr.a.size());
        cr.block_b = bootstrap_block_frames(cr.b.size());
        cr.state_a.resize(resamples);
        cr.state_b.resize(resamples);
        for (std::size_t k = 0; k < resamples; ++k) {
            cr.state_a[k] = cadence_state;
            draw_block_starts(cr.a.size(), cr.block_a, cadence_state, [](std::size_t) {});
            cr.state_b[k] = cadence_state;
            draw_block_starts(cr.b.size(), cr.block_b, cadence_state, [](std::size_t) {});
        }
        (which == Cadence::application ? c.block_application_a : c.block_displayed_a) = cr.block_a;
        (which == Cadence::application ? c.block_application_b : c.block_displayed_b) = cr.block_b;
    }

    const SortedResampler resampler_a(frames_a, c.block_a);
    const SortedResampler resampler_b(frames_b, c.block_b);
    std::array<std::optional<std::pair<SortedResampler, SortedResampler>>, 2> cadence_resamplers;
    for (std::size_t i = 0; i < cadences.size(); ++i) {
        if (!cadences[i].state_a.empty()) {
            cadence_resamplers[i].emplace(SortedResampler(cadences[i].a, cadences[i].block_a),
                                          SortedResampler(cadences[i].b, cadences[i].block_b));
        }
    }

    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    auto work = [&](bool report) {
        try {
            SortedResampler::Buffers ba, bb;
            for (std::size_t k = next++; k < resamples; k = next++) {
                resampler_a.draw(state_a[k], ba);
                resampler_b.draw(state_b[k], bb);
                const FrameStats sa = compute_frame_stats(ba.resample, {}, false, ba.sorted);
                const FrameStats sb = compute_frame_stats(bb.resample, {}, false, bb.sorted);
                for (std::size_t f = 0; f < names.size(); ++f) {
                    diffs[f][k] = *names[f]->frame_value(sb) - *names[f]->frame_value(sa);
                }
                for (std::size_t i = 0; i < cadences.size(); ++i) {
                    const CadenceResampling& cr = cadences[i];
                    if (!cadence_resamplers[i])
                        continue;
                    cadence_resamplers[i]->first.draw(cr.state_a[k], ba);
                    // Frames and total time only set average_fps, which is not compared.
                    const CadenceFigures ca = summarise_cadence(ba.resample, 0, 0, ba.sorted);
                    cadence_resamplers[i]->second.draw(cr.state_b[k], bb);
                    const CadenceFigures cb = summarise_cadence(bb.resample, 0, 0, bb.sorted);
                    const Cadence which = i == 0 ? Cadence::application : Cadence::displayed;
                    for (std::size_t f = 0; f < cadence_names.size(); ++f) {
                        if (cadence_names[f]->cadence == which) {
                            cadence_diffs[f][k] = *cadence_names[f]->cadence_value(cb) -
                                                  *cadence_names[f]->cadence_value(ca);
                        }
                    }
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
    // One thread per core, at most kMaxThreads: each holds two resamples, their sorted copies and
    // their per-frame counts (about 48 MB at a million frames a side).
    constexpr unsigned kMaxThreads = 8;
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
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
        c.figures.push_back(figure_difference(*names[f], *names[f]->frame_value(a.stats),
                                              *names[f]->frame_value(b.stats), diffs[f]));
    }
    for (std::size_t f = 0; f < cadence_names.size(); ++f) {
        c.figures.push_back(figure_difference(*cadence_names[f], *cadence_names[f]->value(a),
                                              *cadence_names[f]->value(b), cadence_diffs[f]));
    }
    return c;
}

}  // namespace loopscope
