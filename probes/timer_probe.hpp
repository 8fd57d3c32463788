// `loopscope probe timers`: how late each way of waiting wakes up, and what frame limiters cost.
// Four measurements, each a list of rows with a summary, a histogram and a one-line verdict:
//   1. one-shot sleep overshoot (actual wait - requested wait) per method and requested wait;
//   2. periodic wake-up latency at absolute deadlines, as cyclictest measures it;
//   3. the one-shot overshoot with the thread's timer slack as it is and at 1 ns;
//   4. frame limiters at several rates: pacing error and CPU time per frame.
// The measuring loops are portable; the OS is reached only through timer_waits.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "probes/frame_limiter.hpp"
#include "probes/platform_terms.hpp"
#include "probes/timer_stats.hpp"

namespace loopscope {

struct TimerProbeConfig {
    // Which of the four measurements run (all by default).
    bool run_one_shot = true;
    bool run_periodic = true;
    bool run_slack = true;
    bool run_limiters = true;

    std::vector<std::int64_t> requests_ns;  // one-shot requested waits
    // A one-shot cell (one method, one request) samples until it has spent cell_budget_ns and
    // has min_samples, or has max_samples: long waits get fewer samples, short ones more.
    std::int64_t cell_budget_ns = 0;
    int min_samples = 0;
    int max_samples = 0;

    std::int64_t periodic_interval_ns = 0;
    int periodic_loops = 0;
    bool periodic_realtime = true;  // also run with SCHED_FIFO + mlockall when allowed

    std::vector<std::int64_t> slack_requests_ns;
    std::int64_t test_slack_ns = 1;  // the slack compared with the current one

    std::vector<int> limiter_rates_hz;
    std::int64_t limiter_budget_ns = 0;  // per limiter and rate
    int limiter_min_frames = 0;
    std::int64_t bound_ns = 0;  // p99 |pacing error| a recommended limiter stays under

    static TimerProbeConfig standard();  // a run of about 13 s
    static TimerProbeConfig quick();     // a run of about 2.5 s
};

struct OneShotRow {
    std::string method;
    std::int64_t requested_ns = 0;
    std::int64_t waited_ns = 0;  // what was passed to the method (rounded up to its granularity)
    SampleSummary overshoot;     // actual wait - requested wait
    Histogram histogram;
    std::string verdict;
    friend bool operator==(const OneShotRow&, const OneShotRow&) = default;
};

// The periodic and limiter measurements run this many times, one round over the whole set after
// the other (so a change of load between rounds shows), each round with its share of the loops or
// frames; their verdicts say whether every round agreed. The rows' figures are over all rounds.
inline constexpr int kTimerRepeats = 2;

struct PeriodicRow {
    std::string scheduling;  // "SCHED_OTHER", "SCHED_FIFO 80"
    bool realtime = false;
    bool memory_locked = false;
    std::string note;
    std::int64_t interval_ns = 0;
    SampleSummary latency;    // actual wake-up - intended wake-up
    Histogram histogram;      // cyclictest's: 1 us buckets up to the interval, then overflows
    Histogram log_histogram;  // the same samples on the 1-2-5 scale, for the terminal
    std::int64_t missed_periods = 0;  // deadlines skipped because a wake-up came a period late
    // The latency of each of the kTimerRepeats runs, in order (`latency` is over all of them).
    std::vector<SampleSummary> repeats;
    std::string verdict;
    friend bool operator==(const PeriodicRow&, const PeriodicRow&) = default;
};

struct SlackRow {
    std::int64_t requested_ns = 0;
    std::int64_t slack_ns = 0;
    bool current = false;  // the thread's slack as found (else the test slack)
    SampleSummary overshoot;
    Histogram histogram;
    std::string verdict;
    friend bool operator==(const SlackRow&, const SlackRow&) = default;
};

struct LimiterRow {
    std::string limiter;  // LimiterSpec::name()
    int rate_hz = 0;
    std::int64_t period_ns = 0;
    SampleSummary error;                // achieved period - target period
    std::int64_t abs_error_p99_ns = 0;  // p99 of |error|: what the bound is checked against
    SampleSummary cpu;                  // thread CPU time per frame
    std::int64_t resyncs = 0;
    Histogram histogram;  // of the error
    bool meets_bound = false;
    std::string verdict;
    friend bool operator==(const LimiterRow&, const LimiterRow&) = default;
};

struct LimiterRecommendation {
    int rate_hz = 0;
    std::optional<std::string> limiter;  // nullopt: none met the bound
    std::string text;
    // The recommendation made from each of the kTimerRepeats runs of the limiters alone (empty:
    // not computed).
    std::vector<std::optional<std::string>> repeats;
    friend bool operator==(const LimiterRecommendation&, const LimiterRecommendation&) = default;
};

struct TimerReport {
    // The OS measured (the clock names in the text). In the JSON it is the context's platform.
    Platform platform = Platform::Linux;
    bool quick = false;
    std::int64_t bound_ns = 0;
    std::vector<OneShotRow> one_shot;
    std::vector<PeriodicRow> periodic;
    std::vector<SlackRow> slack;
    std::string slack_note;  // why the slack comparison is missing or was not restored
    std::vector<LimiterRow> limiters;
    std::vector<LimiterRecommendation> recommendations;
    std::int64_t elapsed_ns = 0;
    friend bool operator==(const TimerReport&, const TimerReport&) = default;
};

// fraction done in [0, 1] and what is being measured.
using TimerProgress = std::function<void(double, std::string_view)>;

TimerReport run_timer_probe(const TimerProbeConfig& config, const TimerProgress& progress = {});

// ---- Pure parts, tested on synthetic data ----

// The cyclictest measurement on any clock: sleep to absolute deadlines one interval apart,
// starting one interval from now; latency = wake-up time - deadline. A wake-up later than the
// next deadline skips the deadlines already passed (counted in missed_periods) as cyclictest
// does. Returns `loops` latencies.
std::vector<std::int64_t> measure_periodic_latency(LimiterClock& clock, std::int64_t interval_ns,
                                                   int loops, std::int64_t* missed_periods);

std::string one_shot_verdict(const SampleSummary& overshoot, std::int64_t requested_ns,
                             std::int64_t waited_ns);
std::string periodic_verdict(const SampleSummary& latency, std::int64_t interval_ns,
                             std::int64_t overflows);
// How the repeated runs of a periodic measurement compare: "p99 X in the first run, Y in the
// second", and "(not stable: ...)" when the highest is more than twice the lowest.
std::string periodic_repeats_text(const std::vector<SampleSummary>& repeats);
std::string slack_verdict(const SampleSummary& with_current, std::int64_t current_slack_ns,
                          const SampleSummary& with_test, std::int64_t test_slack_ns);
std::string limiter_verdict(const LimiterRow& row, std::int64_t bound_ns);

// The limiter with the least mean CPU time per frame among those whose p99 |error| is within
// bound_ns, one per rate, in the order of the rates' first appearance in rows.
std::vector<LimiterRecommendation> recommend_limiters(const std::vector<LimiterRow>& rows,
                                                      std::int64_t bound_ns);

// Records in each recommendation what each repeated run of the limiters recommended (matched by
// rate) and says in its text whether it held in all of them.
void note_repeat_stability(std::vector<LimiterRecommendation>& recs,
                           const std::vector<std::vector<LimiterRecommendation>>& per_repeat);

// Fills in the statistics, histogram and bound check of a limiter row from its per-frame data.
LimiterRow summarize_limiter(std::string limiter, int rate_hz, std::int64_t period_ns,
                             const std::vector<std::int64_t>& error_ns,
                             const std::vector<std::int64_t>& cpu_ns, std::int64_t resyncs,
                             std::int64_t bound_ns);

}  // namespace loopscope
