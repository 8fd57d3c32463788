// Runs the clock probe over every clock source; see clock_probe.hpp for what is measured.
#include "probes/clock_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

namespace loopscope {

namespace {

constexpr std::size_t kBatchReads = 65536;  // samples per granularity batch (512 KiB)

// A clock reading and the reference time it was taken at (middle of two reference reads).
struct Pair {
    std::int64_t clock_ticks = 0;
    std::int64_t reference_ns = 0;
    std::int64_t gap_ns = 0;  // how far apart in time the clock read may lie from reference_ns
    bool at_step = false;     // read as a coarse clock stepped, how late measured: no step error
};

// The pair whose two reference reads lie closest together: least disturbed by preemption.
// A coarse clock that holds a finer clock's time as of its last step (the kernel tick) is read
// just after it steps, together with the finer clock, which says how long ago the step was: the
// pair is then as good as a fine clock's, instead of off by up to a whole step.
Pair read_pair(const ClockSource& s) {
    if (s.sampled_from) {
        const std::int64_t give_up =
            reference_now_ns() + 20 * static_cast<std::int64_t>(std::max(s.resolution_ns, 1e6));
        std::int64_t previous = s.read();
        for (;;) {
            const std::int64_t a = reference_now_ns();
            const std::int64_t v = s.read();
            const std::int64_t fine_ns = s.sampled_from();
            const std::int64_t b = reference_now_ns();
            const std::int64_t late_ns = fine_ns - s.scale.to_ns(v);
            // A pair whose reads were preempted waits for the next step.
            if (v != previous && late_ns >= 0 && late_ns < 50'000'000 && b - a < 20'000) {
                return {v, a + (b - a) / 2 - late_ns, b - a, true};
            }
            previous = v;
            if (b > give_up)
                break;
        }
    }
    Pair best;
    std::int64_t best_gap = std::numeric_limits<std::int64_t>::max();
    for (int i = 0; i < 7; ++i) {
        const std::int64_t a = reference_now_ns();
        const std::int64_t v = s.read();
        const std::int64_t b = reference_now_ns();
        if (b - a < best_gap) {
            best_gap = b - a;
            best = {v, a + (b - a) / 2, b - a, false};
        }
    }
    return best;
}

void measure_granularity(const ClockSource& s, std::int64_t budget_ns, std::int64_t min_reads,
                         DeltaCounts& counts, std::int64_t& reads,
                         const std::function<void(double)>& progress) {
    std::vector<std::int64_t> batch(kBatchReads);
    const std::int64_t start = reference_now_ns();
    // Enough reads and enough time; but never more than five budgets on a slow clock.
    for (;;) {
        s.fill(batch.data(), batch.size());
        counts.add_batch(batch);
        reads += static_cast<std::int64_t>(batch.size());
        const std::int64_t elapsed = reference_now_ns() - start;
        if ((reads >= min_reads && elapsed >= budget_ns) || elapsed >= 5 * budget_ns)
            break;
        const double by_reads = static_cast<double>(reads) / static_cast<double>(min_reads);
        const double by_time = static_cast<double>(elapsed) / static_cast<double>(budget_ns);
        progress(std::min(1.0, std::min(by_reads, by_time)));
    }
}

void measure_cost(const ClockSource& s, std::int64_t budget_ns, int min_batches, ClockResult& r) {
    static std::atomic<std::int64_t> sink{0};  // keeps the reads from being thrown away
    // Short batches (about 200 us) fit between the scheduler's preemptions on a busy machine, so
    // the median batch is an undisturbed one. A first small batch estimates the cost.
    constexpr double kBatchNs = 200'000.0;
    const std::int64_t t0 = reference_now_ns();
    sink.fetch_add(s.spin(1000), std::memory_order_relaxed);
    const double estimate_ns = std::max(1.0, static_cast<double>(reference_now_ns() - t0) / 1000.0);
    const int batches =
        std::max(min_batches, static_cast<int>(static_cast<double>(budget_ns) / kBatchNs));
    const auto n = static_cast<std::int64_t>(std::clamp(kBatchNs / estimate_ns, 1000.0, 1e7));
    r.reads_per_batch = n;
    // On a busy machine batches take longer than planned: stop at the budget, but never
    // before the minimum number of batches.
    const std::int64_t start = reference_now_ns();
    std::vector<double> batch_costs_ns;
    for (int b = 0; b < batches; ++b) {
        if (b >= min_batches && reference_now_ns() - start >= budget_ns)
            break;
        const std::int64_t a = reference_now_ns();
        sink.fetch_add(s.spin(static_cast<std::size_t>(n)), std::memory_order_relaxed);
        const std::int64_t e = reference_now_ns();
        batch_costs_ns.push_back(static_cast<double>(e - a) / static_cast<double>(n));
    }
    r.read_cost_batches = static_cast<std::int64_t>(batch_costs_ns.size());
    r.read_cost_ns = median(std::move(batch_costs_ns));
}

struct CrossCount {
    std::int64_t reads = 0;
    std::int64_t backward = 0;
    bool pinned = true;
};

// Two threads on two CPUs read the clock and publish the largest reading seen. A reading
// smaller than a value already published before it was taken is a step back across cores, if
// the read really happened after the load of the published value: `read` must be ordered.
CrossCount count_cross_thread(ClockReadFn read, const std::vector<int>& cpus,
                              std::int64_t budget_ns) {
    std::atomic<std::int64_t> last{std::numeric_limits<std::int64_t>::min()};
    std::atomic<int> ready{0};
    std::atomic<bool> stop{false};
    std::atomic<bool> pinned{true};
    std::int64_t reads[2] = {0, 0};
    std::int64_t backward[2] = {0, 0};
    auto worker = [&](int index) {
        if (!pin_current_thread(cpus[static_cast<std::size_t>(index)])) {
            pinned = false;
        }
        ready.fetch_add(1);
        while (ready.load() < 2) {
        }
        std::int64_t n = 0;
        std::int64_t back = 0;
        while (!stop.load(std::memory_order_relaxed)) {
            std::int64_t seen = last.load(std::memory_order_acquire);
            const std::int64_t now = read();
            if (now < seen)
                ++back;
            while (now > seen &&
                   !last.compare_exchange_weak(seen, now, std::memory_order_acq_rel)) {
            }
            ++n;
        }
        reads[index] = n;
        backward[index] = back;
    };
    std::thread a(worker, 0);
    std::thread b(worker, 1);
    while (ready.load() < 2)
        std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::nanoseconds(budget_ns));
    stop = true;
    a.join();
    b.join();
    return {reads[0] + reads[1], backward[0] + backward[1], pinned.load()};
}

// The verdict comes from the ordered read; a clock with a separate ordered read also gets the
// plain read's count, reported apart as reordering.
void measure_cross_thread(const ClockSource& s, std::int64_t budget_ns, ClockResult& r) {
    const std::vector<int> cpus = usable_cpus();
    if (cpus.size() < 2)
        return;
    r.cross_thread_checked = true;
    r.cross_thread_cpus = {cpus[0], cpus[1]};
    const bool two_reads = s.ordered_read != nullptr;
    const CrossCount ordered =
        count_cross_thread(two_reads ? s.ordered_read : s.read, r.cross_thread_cpus,
                           two_reads ? budget_ns / 2 : budget_ns);
    r.cross_thread_pinned = ordered.pinned;
    r.cross_thread_reads = ordered.reads;
    r.cross_thread_backward_steps = ordered.backward;
    if (two_reads) {
        r.cross_thread_read = s.ordered_read_name;
        const CrossCount plain = count_cross_thread(s.read, r.cross_thread_cpus, budget_ns / 2);
        r.cross_thread_pinned = r.cross_thread_pinned && plain.pinned;
        r.cross_thread_unordered_reads = plain.reads;
        r.cross_thread_unordered_backward_steps = plain.backward;
    }
}

// Reads a coarse clock and the finer clock it samples back to back for budget_ns and records
// every step with the time between the two reads around it.
void watch_coarse_steps(const ClockSource& s, std::int64_t budget_ns, std::int64_t tick_ns,
                        ClockResult& r) {
    std::vector<CoarseStep> steps;
    std::int64_t previous = s.read();
    std::int64_t previous_fine = s.sampled_from();
    const std::int64_t start = previous_fine;
    std::int64_t reads = 0;
    for (;;) {
        const std::int64_t v = s.read();
        const std::int64_t fine = s.sampled_from();
        ++reads;
        if (v != previous) {
            steps.push_back({s.scale.to_ns(v - previous), fine - previous_fine});
            previous = v;
        }
        previous_fine = fine;
        if (fine - start >= budget_ns)
            break;
    }
    r.steps_watched = true;
    r.steps_watch_ns = previous_fine - start;
    r.steps_watch_reads = reads;
    r.steps = coarse_step_stats(steps, tick_ns, tick_ns / 50);
}

TickScale calibrated_scale(const Pair& a, const Pair& b) {
    const std::int64_t ticks = b.clock_ticks - a.clock_ticks;
    const std::int64_t ns = b.reference_ns - a.reference_ns;
    if (ticks <= 0 || ns <= 0)
        return {1, 1};
    const auto hz = static_cast<std::int64_t>(
        std::llround(static_cast<double>(ticks) * 1e9 / static_cast<double>(ns)));
    return {1'000'000'000, std::max<std::int64_t>(1, hz)};
}

}  // namespace

ClockProbeResult run_clock_probe(const ClockProbeOptions& options) {
    return run_clock_probe(options, clock_sources());
}

ClockProbeResult run_clock_probe(const ClockProbeOptions& options,
                                 std::vector<ClockSource> sources) {
    ClockProbeResult out;
    out.platform = this_platform();
    out.reference_clock = reference_clock_name();
    out.duration_ns = options.duration_ns;
    out.min_reads = options.min_reads;
    out.kernel_tick_ns = options.kernel_tick_ns;
    out.config_hz = options.config_hz;
    out.config_hz_from = options.config_hz_from;
    const std::int64_t run_start = reference_now_ns();

    const std::size_t n = sources.size();
    std::vector<Pair> start(n), middle(n), end(n);
    for (std::size_t i = 0; i < n; ++i)
        start[i] = read_pair(sources[i]);

    const std::int64_t per_clock_ns =
        options.duration_ns / static_cast<std::int64_t>(std::max<std::size_t>(n, 1));
    std::vector<DeltaCounts> counts(n);
    out.clocks.resize(n);
    const std::size_t half = n / 2;
    for (std::size_t i = 0; i < n; ++i) {
        // The calibrated clocks (TSC) get their rate from the first half of the run and their
        // drift from the second, so the drift is not zero by construction.
        if (i == half) {
            for (std::size_t j = 0; j < n; ++j)
                middle[j] = read_pair(sources[j]);
        }
        const ClockSource& s = sources[i];
        ClockResult& r = out.clocks[i];
        auto report = [&](double phase_fraction) {
            if (options.progress) {
                options.progress((static_cast<double>(i) + phase_fraction) / static_cast<double>(n),
                                 s.name);
            }
        };
        report(0.0);
        // A coarse clock needs few reads for its granularity but a long watch to see enough
        // of its steps, so it gives two thirds of the granularity's time to the watch.
        const bool watch = s.sampled_from != nullptr && options.kernel_tick_ns > 0;
        measure_granularity(s, per_clock_ns * (watch ? 2 : 6) / 10, options.min_reads, counts[i],
                            r.reads, [&](double f) { report((watch ? 0.2 : 0.6) * f); });
        if (watch) {
            report(0.2);
            watch_coarse_steps(s, per_clock_ns * 4 / 10, options.kernel_tick_ns, r);
        }
        report(0.6);
        measure_cost(s, per_clock_ns * 2 / 10, options.cost_batches, r);
        report(0.8);
        if (options.cross_thread)
            measure_cross_thread(s, per_clock_ns * 2 / 10, r);
    }
    if (half == 0) {
        for (std::size_t j = 0; j < n; ++j)
            middle[j] = start[j];
    }
    for (std::size_t i = 0; i < n; ++i)
        end[i] = read_pair(sources[i]);

    for (std::size_t i = 0; i < n; ++i) {
        ClockSource& s = sources[i];
        ClockResult& r = out.clocks[i];
        Pair drift_from = start[i];
        if (s.calibrate_scale) {
            s.scale = calibrated_scale(start[i], middle[i]);
            s.resolution_ns = s.scale.ns_per_tick();
            drift_from = middle[i];
        }
        r.name = s.name;
        r.description = s.description;
        r.backing = s.calibrate_scale
                        ? fmt::format("{}: {:.6f} GHz", s.backing, s.scale.ticks_per_second() / 1e9)
                        : s.backing;
        r.claims_steady = s.claims_steady;
        r.resolution_ns = s.resolution_ns;
        r.resolution_from = s.resolution_from;
        r.ticks_per_second = s.scale.ticks_per_second();
        r.granularity = granularity_stats(counts[i]);
        r.granularity_min_ns = s.scale.to_ns_double(r.granularity.min_ticks);
        r.granularity_median_ns = s.scale.to_ns_double(r.granularity.median_ticks);
        r.histogram = delta_histogram(counts[i], s.scale);
        if (options.kernel_tick_ns > 0 &&
            r.granularity_median_ns >= static_cast<double>(options.kernel_tick_ns) / 2) {
            r.whole_tick_share = share_in_whole_ticks(counts[i], s.scale, options.kernel_tick_ns,
                                                      options.kernel_tick_ns / 50);
        }
        r.drift_interval_ns = end[i].reference_ns - drift_from.reference_ns;
        r.drift_ppm =
            drift_ppm(end[i].clock_ticks - drift_from.clock_ticks, s.scale, r.drift_interval_ns);
        if (r.drift_interval_ns > 0) {
            // A pair read at a coarse clock's step is good to its gaps; any other reading may be
            // off by a step, and not always downwards (SDL_GetTicks64 was seen here off by more
            // than one step over two readings), so two readings by two steps.
            const double step_ns =
                drift_from.at_step && end[i].at_step
                    ? 0.0
                    : 2 * std::max({r.granularity_median_ns, r.resolution_ns, 1.0});
            r.drift_uncertainty_ppm =
                (step_ns + static_cast<double>(drift_from.gap_ns + end[i].gap_ns)) * 1e6 /
                static_cast<double>(r.drift_interval_ns);
        }
    }
    if (options.progress)
        options.progress(1.0, "");
    out.elapsed_ns = reference_now_ns() - run_start;
    return out;
}

}  // namespace loopscope
