// Block-bootstrap comparison of two captures; method in comparison.hpp.
#include "core/comparison.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

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

std::vector<std::int64_t> block_resample(std::span<const std::int64_t> frame_ns, std::size_t block,
                                         std::uint64_t& state) {
    const std::size_t n = frame_ns.size();
    std::vector<std::int64_t> out;
    if (n == 0)
        return out;
    block = std::clamp<std::size_t>(block, 1, n);
    out.reserve(n + block);
    draw_block_starts(n, block, state, [&](std::size_t start) {
        out.insert(out.end(), frame_ns.begin() + static_cast<std::ptrdiff_t>(start),
                   frame_ns.begin() + static_cast<std::ptrdiff_t>(start + block));
    });
    out.resize(n);
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

    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    auto work = [&](bool report) {
        try {
            for (std::size_t k = next++; k < resamples; k = next++) {
                std::uint64_t sa_state = state_a[k];
                std::uint64_t sb_state = state_b[k];
                const auto ra = block_resample(frames_a, c.block_a, sa_state);
                const auto rb = block_resample(frames_b, c.block_b, sb_state);
                const FrameStats sa = compute_frame_stats(ra, {}, false);
                const FrameStats sb = compute_frame_stats(rb, {}, false);
                for (std::size_t f = 0; f < names.size(); ++f) {
                    diffs[f][k] = *names[f]->frame_value(sb) - *names[f]->frame_value(sa);
                }
                for (std::size_t i = 0; i < cadences.size(); ++i) {
                    const CadenceResampling& cr = cadences[i];
                    if (cr.state_a.empty())
                        continue;
                    std::uint64_t ca_state = cr.state_a[k];
                    std::uint64_t cb_state = cr.state_b[k];
                    // Frames and total time only set average_fps, which is not compared.
                    const CadenceFigures ca =
                        summarise_cadence(block_resample(cr.a, cr.block_a, ca_state), 0, 0);
                    const CadenceFigures cb =
                        summarise_cadence(block_resample(cr.b, cr.block_b, cb_state), 0, 0);
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
    // One thread per core, at most kMaxThreads: each holds two resamples and their sorted
    // copies (about 40 MB at a million frames a side).
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
