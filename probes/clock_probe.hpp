// Running the clock probe: for every clock source, a stream of back-to-back reads (granularity,
// zero deltas, backward steps, histogram), timed batches (read cost), two threads on two cores
// (backward steps across cores) and a reading against the reference at the start and the end
// (drift). The time budget is split evenly over the clocks; a longer --duration gives longer
// streams, more reads per batch and a longer drift interval, so steadier figures.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "probes/clock_source.hpp"
#include "probes/clock_stats.hpp"
#include "probes/platform_terms.hpp"

namespace loopscope {

struct ClockProbeOptions {
    std::int64_t duration_ns = 5'000'000'000;  // whole run, roughly
    std::int64_t min_reads = 1'000'000;        // per clock, for the granularity stream
    int cost_batches = 9;                      // at least; read cost = median over batches
    std::int64_t kernel_tick_ns = 0;           // to judge coarse clocks; 0 = unknown
    int config_hz = 0;                         // the kernel's CONFIG_HZ; 0 = unknown
    std::string config_hz_from;                // where config_hz was read
    bool cross_thread = true;                  // read each clock from two cores at once
    std::function<void(double fraction, std::string_view clock)> progress;
};

struct ClockResult {
    std::string name;
    std::string description;
    std::string backing;
    bool claims_steady = false;
    double resolution_ns = -1.0;  // negative: not reported
    std::string resolution_from;
    double ticks_per_second = 0.0;

    std::int64_t reads = 0;  // in the granularity stream
    GranularityStats granularity;
    double granularity_min_ns = 0.0;
    double granularity_median_ns = 0.0;
    std::vector<HistogramBucket> histogram;
    // Share of the positive deltas within 2% of a whole number of kernel ticks; negative when
    // not judged (no known tick, or a clock finer than half a tick).
    double whole_tick_share = -1.0;

    double read_cost_ns = 0.0;           // median over the batches
    std::int64_t read_cost_batches = 0;  // timed batches the median is over
    std::int64_t reads_per_batch = 0;

    bool cross_thread_checked = false;
    std::vector<int> cross_thread_cpus;  // the two CPUs the threads were pinned to
    bool cross_thread_pinned = false;
    std::int64_t cross_thread_reads = 0;
    std::int64_t cross_thread_backward_steps = 0;
    // How the cross-core reads were taken: the ordered read (e.g. "lfence;rdtsc") for a clock
    // that has one, else empty (the clock's own read, already ordered). The verdict above.
    std::string cross_thread_read;
    // The same check with the clock's plain read, for a clock that has an ordered one: its
    // backward steps are reads executed ahead of the load before them (out-of-order execution).
    // -1 when not measured.
    std::int64_t cross_thread_unordered_reads = -1;
    std::int64_t cross_thread_unordered_backward_steps = -1;

    // A coarse clock watched step by step against the finer clock it samples; see CoarseStep.
    bool steps_watched = false;
    std::int64_t steps_watch_ns = 0;
    std::int64_t steps_watch_reads = 0;
    CoarseStepStats steps;

    double drift_ppm = 0.0;
    // How far the drift may be off from reading the clock at two instants only: a step of the
    // clock's granularity plus the time the two readings took, over the interval.
    double drift_uncertainty_ppm = 0.0;
    std::int64_t drift_interval_ns = 0;
    friend bool operator==(const ClockResult&, const ClockResult&) = default;
};

struct ClockProbeResult {
    // The OS measured (its words in the findings). In the JSON it is the context's platform.
    Platform platform = Platform::Linux;
    std::vector<ClockResult> clocks;
    std::string reference_clock;
    std::int64_t elapsed_ns = 0;
    std::int64_t duration_ns = 0;  // as asked
    std::int64_t min_reads = 0;
    std::int64_t kernel_tick_ns = 0;  // as given in the options; 0 = unknown
    int config_hz = 0;
    std::string config_hz_from;
    friend bool operator==(const ClockProbeResult&, const ClockProbeResult&) = default;
};

// Probes every clock source of this machine.
ClockProbeResult run_clock_probe(const ClockProbeOptions& options);
// Probes the given sources (tests give made-up ones).
ClockProbeResult run_clock_probe(const ClockProbeOptions& options,
                                 std::vector<ClockSource> sources);

}  // namespace loopscope
