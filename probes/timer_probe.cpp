// The timer probe's measuring loops (portable: the OS is reached through timer_waits.hpp) and
// its pure parts: the cyclictest loop on an injectable clock, verdicts and the recommendation.
#include "probes/timer_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/duration.hpp"
#include "core/units.hpp"
#include "probes/timer_waits.hpp"

namespace loopscope {

TimerProbeConfig TimerProbeConfig::standard() {
    TimerProbeConfig c;
    c.requests_ns = {0,        50 * kNsPerUs, 100 * kNsPerUs, 500 * kNsPerUs,
                     kNsPerMs, 2 * kNsPerMs,  5 * kNsPerMs,   16 * kNsPerMs};
    c.cell_budget_ns = 100 * kNsPerMs;
    c.min_samples = 8;
    c.max_samples = 2000;
    c.periodic_interval_ns = kNsPerMs;
    c.periodic_loops = 1000;
    c.slack_requests_ns = {100 * kNsPerUs, kNsPerMs};
    c.limiter_rates_hz = {60, 144, 240};
    // 2 s a limiter and rate over the runs (120 frames at 60 Hz, 480 at 240 Hz): a p99 of a few
    // dozen frames is their maximum, and a recommendation resting on it changed between runs.
    c.limiter_budget_ns = 2 * kNsPerS;
    c.limiter_min_frames = 16;
    c.bound_ns = kNsPerMs / 2;
    return c;
}

TimerProbeConfig TimerProbeConfig::quick() {
    TimerProbeConfig c = standard();
    c.cell_budget_ns = 12 * kNsPerMs;
    c.min_samples = 3;
    c.max_samples = 200;
    c.periodic_loops = 200;
    c.limiter_budget_ns = 500 * kNsPerMs;
    c.limiter_min_frames = 16;
    return c;
}

// ---- pure parts ----

std::vector<std::int64_t> measure_periodic_latency(LimiterClock& clock, std::int64_t interval_ns,
                                                   int loops, std::int64_t* missed_periods) {
    std::vector<std::int64_t> latency_ns;
    latency_ns.reserve(static_cast<std::size_t>(std::max(loops, 0)));
    std::int64_t missed = 0;
    std::int64_t next_ns = clock.now_ns() + interval_ns;
    for (int i = 0; i < loops; ++i) {
        clock.sleep_until_ns(next_ns);
        const std::int64_t now_ns = clock.now_ns();
        latency_ns.push_back(now_ns - next_ns);
        next_ns += interval_ns;
        // As cyclictest: deadlines already behind us are skipped, not slept to one by one.
        while (now_ns > next_ns) {
            next_ns += interval_ns;
            ++missed;
        }
    }
    if (missed_periods)
        *missed_periods = missed;
    return latency_ns;
}

std::string one_shot_verdict(const SampleSummary& overshoot, std::int64_t requested_ns,
                             std::int64_t waited_ns) {
    const std::int64_t p99 = overshoot.p99_ns;
    std::string v;
    if (p99 < 20 * kNsPerUs) {
        v = fmt::format("tight: {} late at p99", format_duration(p99));
    } else if (p99 < 200 * kNsPerUs) {
        v = fmt::format("fair: {} late at p99", format_duration(p99));
    } else if (p99 < kNsPerMs) {
        v = fmt::format("loose: {} late at p99, spin the rest for tight pacing",
                        format_duration(p99));
    } else {
        v = fmt::format("coarse: {} late at p99, too late to pace frames alone",
                        format_duration(p99));
    }
    if (waited_ns != requested_ns) {
        v += fmt::format(" (asked for {}, waits {})", format_duration(requested_ns),
                         format_duration(waited_ns));
    }
    if (overshoot.max_ns > kNsPerMs && overshoot.max_ns > 4 * std::max<std::int64_t>(p99, 1)) {
        v += fmt::format("; outlier of {}", format_duration(overshoot.max_ns));
    }
    return v;
}

namespace {
const char* ordinal(std::size_t i) {
    static constexpr const char* kNames[] = {"first", "second", "third", "fourth", "fifth"};
    return i < std::size(kNames) ? kNames[i] : "next";
}
}  // namespace

std::string periodic_repeats_text(const std::vector<SampleSummary>& repeats) {
    if (repeats.empty())
        return "";
    std::string out = "p99";
    std::int64_t low = repeats[0].p99_ns, high = repeats[0].p99_ns;
    for (std::size_t i = 0; i < repeats.size(); ++i) {
        out += fmt::format("{} {} in the {}", i == 0 ? "" : ",", format_duration(repeats[i].p99_ns),
                           i == 0 ? "first run" : ordinal(i));
        low = std::min(low, repeats[i].p99_ns);
        high = std::max(high, repeats[i].p99_ns);
    }
    // Twice apart: more than the run-to-run spread of a p99 on a quiet machine.
    if (high > 2 * std::max<std::int64_t>(low, 1))
        out += " (not stable: the load changed between the runs)";
    return out;
}

std::string periodic_verdict(const SampleSummary& latency, std::int64_t interval_ns,
                             std::int64_t overflows) {
    const std::string avg = format_duration(std::llround(latency.mean_ns));
    if (overflows > 0) {
        return fmt::format("{} of {} wake-ups a whole interval or more late (max {}), avg {}",
                           overflows, latency.count, format_duration(latency.max_ns), avg);
    }
    const double share = 100.0 * static_cast<double>(latency.max_ns) /
                         static_cast<double>(std::max<std::int64_t>(interval_ns, 1));
    if (latency.max_ns * 10 < interval_ns) {
        return fmt::format("steady: avg {}, max {} ({:.0f}% of the interval)", avg,
                           format_duration(latency.max_ns), share);
    }
    return fmt::format("jittery: avg {}, max {} ({:.0f}% of the interval)", avg,
                       format_duration(latency.max_ns), share);
}

std::string slack_verdict(const SampleSummary& with_current, std::int64_t current_slack_ns,
                          const SampleSummary& with_test, std::int64_t test_slack_ns) {
    const std::int64_t saved_p50 = with_current.p50_ns - with_test.p50_ns;
    const std::string p99s = fmt::format("p99 {} vs {}", format_duration(with_test.p99_ns),
                                         format_duration(with_current.p99_ns));
    if (std::llabs(saved_p50) < 5 * kNsPerUs) {
        return fmt::format("no clear effect: p50 {} at {} slack vs {} at {}; {}",
                           format_duration(with_test.p50_ns), format_duration(test_slack_ns),
                           format_duration(with_current.p50_ns), format_duration(current_slack_ns),
                           p99s);
    }
    return fmt::format("{} slack wakes {} {} at p50 than {} slack ({} vs {}); {}",
                       format_duration(test_slack_ns), format_duration(std::llabs(saved_p50)),
                       saved_p50 > 0 ? "earlier" : "later", format_duration(current_slack_ns),
                       format_duration(with_test.p50_ns), format_duration(with_current.p50_ns),
                       p99s);
}

LimiterRow summarize_limiter(std::string limiter, int rate_hz, std::int64_t period_ns,
                             const std::vector<std::int64_t>& error_ns,
                             const std::vector<std::int64_t>& cpu_ns, std::int64_t resyncs,
                             std::int64_t bound_ns) {
    LimiterRow row;
    row.limiter = std::move(limiter);
    row.rate_hz = rate_hz;
    row.period_ns = period_ns;
    row.error = summarize(error_ns);
    std::vector<std::int64_t> abs_error;
    abs_error.reserve(error_ns.size());
    for (auto e : error_ns)
        abs_error.push_back(e < 0 ? -e : e);
    std::sort(abs_error.begin(), abs_error.end());
    row.abs_error_p99_ns = quantile_sorted_ns(abs_error, 0.99);
    row.cpu = summarize(cpu_ns);
    row.resyncs = resyncs;
    row.histogram = make_histogram(error_ns, signed_log_edges_ns(20 * kNsPerMs));
    row.meets_bound = !error_ns.empty() && row.abs_error_p99_ns <= bound_ns;
    row.verdict = limiter_verdict(row, bound_ns);
    return row;
}

std::string limiter_verdict(const LimiterRow& row, std::int64_t bound_ns) {
    const double cpu_share = 100.0 * row.cpu.mean_ns / static_cast<double>(row.period_ns);
    std::string v = fmt::format("{} {}: p99 |error| {}, CPU {} per frame ({:.1f}% of a core)",
                                row.meets_bound ? "within" : "misses", format_duration(bound_ns),
                                format_duration(row.abs_error_p99_ns),
                                format_duration(std::llround(row.cpu.mean_ns)), cpu_share);
    if (row.resyncs > 0)
        v += fmt::format("; {} frames lost a whole period", row.resyncs);
    return v;
}

void note_repeat_stability(std::vector<LimiterRecommendation>& recs,
                           const std::vector<std::vector<LimiterRecommendation>>& per_repeat) {
    const auto pick = [](const std::vector<LimiterRecommendation>& v, int rate) {
        for (const auto& r : v) {
            if (r.rate_hz == rate)
                return r.limiter;
        }
        return std::optional<std::string>{};
    };
    for (auto& rec : recs) {
        rec.repeats.clear();
        bool same = true;
        for (const auto& run : per_repeat) {
            rec.repeats.push_back(pick(run, rec.rate_hz));
            same = same && rec.repeats.back() == rec.limiter;
        }
        if (rec.repeats.empty())
            continue;
        if (same) {
            rec.text += rec.repeats.size() == 2
                            ? std::string("; the same in both runs")
                            : fmt::format("; the same in all {} runs", rec.repeats.size());
            continue;
        }
        rec.text += "; not stable:";
        for (std::size_t i = 0; i < rec.repeats.size(); ++i) {
            rec.text += fmt::format("{} the {} run gives {}", i == 0 ? "" : ",", ordinal(i),
                                    rec.repeats[i].value_or("none"));
        }
    }
}

std::vector<LimiterRecommendation> recommend_limiters(const std::vector<LimiterRow>& rows,
                                                      std::int64_t bound_ns) {
    std::vector<int> rates;
    for (const auto& r : rows) {
        if (std::find(rates.begin(), rates.end(), r.rate_hz) == rates.end()) {
            rates.push_back(r.rate_hz);
        }
    }
    std::vector<LimiterRecommendation> out;
    for (int rate : rates) {
        const LimiterRow* best = nullptr;     // cheapest within the bound
        const LimiterRow* closest = nullptr;  // smallest p99 |error| of all
        for (const auto& r : rows) {
            if (r.rate_hz != rate)
                continue;
            if (!closest || r.abs_error_p99_ns < closest->abs_error_p99_ns)
                closest = &r;
            if (r.meets_bound && (!best || r.cpu.mean_ns < best->cpu.mean_ns))
                best = &r;
        }
        LimiterRecommendation rec;
        rec.rate_hz = rate;
        if (best) {
            rec.limiter = best->limiter;
            rec.text = fmt::format(
                "{} Hz: {}, the cheapest within {} (p99 |error| {}, CPU {} per frame)", rate,
                best->limiter, format_duration(bound_ns), format_duration(best->abs_error_p99_ns),
                format_duration(std::llround(best->cpu.mean_ns)));
        } else if (closest) {
            rec.text =
                fmt::format("{} Hz: no limiter within {}; the closest is {} (p99 |error| {})", rate,
                            format_duration(bound_ns), closest->limiter,
                            format_duration(closest->abs_error_p99_ns));
        }
        out.push_back(std::move(rec));
    }
    return out;
}

// ---- measuring ----

namespace {

std::int64_t round_up(std::int64_t ns, std::int64_t granularity_ns) {
    if (granularity_ns <= 1)
        return ns;
    return (ns + granularity_ns - 1) / granularity_ns * granularity_ns;
}

// Overshoot samples of one method at one requested wait, within the config's sampling budget.
std::vector<std::int64_t> sample_overshoot(const WaitMethod& method, std::int64_t requested_ns,
                                           const TimerProbeConfig& config) {
    const std::int64_t waited_ns = round_up(requested_ns, method.granularity_ns);
    std::vector<std::int64_t> samples;
    const std::int64_t start_ns = monotonic_now_ns();
    for (;;) {
        const auto n = static_cast<int>(samples.size());
        if (n >= config.max_samples)
            break;
        if (n >= config.min_samples && monotonic_now_ns() - start_ns >= config.cell_budget_ns) {
            break;
        }
        const std::int64_t t0_ns = monotonic_now_ns();
        method.wait(method.absolute ? t0_ns + waited_ns : waited_ns);
        const std::int64_t t1_ns = monotonic_now_ns();
        samples.push_back(t1_ns - t0_ns - requested_ns);
    }
    return samples;
}

// Rough durations, only to make the progress display move evenly.
std::int64_t cell_estimate_ns(std::int64_t wait_ns, const TimerProbeConfig& c) {
    return std::max(c.cell_budget_ns, c.min_samples * (wait_ns + 60 * kNsPerUs));
}

int limiter_frames(int rate_hz, const TimerProbeConfig& c) {
    const auto frames = static_cast<int>(c.limiter_budget_ns * rate_hz / kNsPerS);
    return std::max(frames, c.limiter_min_frames);
}

class ProgressTracker {
  public:
    ProgressTracker(const TimerProgress& report, std::int64_t total_ns)
        : report_(report), total_ns_(std::max<std::int64_t>(total_ns, 1)) {}
    void start(std::int64_t estimate_ns, std::string_view what) {
        if (report_)
            report_(static_cast<double>(done_ns_) / static_cast<double>(total_ns_), what);
        done_ns_ += estimate_ns;
    }
    void finish() {
        if (report_)
            report_(1.0, "done");
    }

  private:
    const TimerProgress& report_;
    std::int64_t total_ns_;
    std::int64_t done_ns_ = 0;
};

// The whole run's expected length, for the progress display.
std::int64_t planned_ns(const TimerProbeConfig& config, const std::vector<WaitMethod>& methods,
                        const std::vector<LimiterSpec>& limiters, bool slack_possible) {
    std::int64_t total_ns = 0;
    for (const auto& m : methods) {
        for (auto r : config.requests_ns)
            total_ns += cell_estimate_ns(round_up(r, m.granularity_ns), config);
    }
    if (config.run_periodic) {
        const auto runs = (config.periodic_realtime ? 2 : 1) +
                          static_cast<std::int64_t>(periodic_variants().size());
        total_ns += runs * config.periodic_loops * config.periodic_interval_ns;
    }
    if (slack_possible) {
        for (auto r : config.slack_requests_ns)
            total_ns += 2 * cell_estimate_ns(r, config);
    }
    for (int rate : config.run_limiters ? config.limiter_rates_hz : std::vector<int>{}) {
        total_ns += static_cast<std::int64_t>(limiters.size()) * limiter_frames(rate, config) *
                    (kNsPerS / rate);
    }
    return total_ns;
}

// 1. One-shot overshoot of each wait method at each requested wait.
void measure_one_shot(const TimerProbeConfig& config, const std::vector<WaitMethod>& methods,
                      ProgressTracker& tracker, TimerReport& report) {
    for (const auto& m : methods) {
        for (auto requested_ns : config.requests_ns) {
            const std::int64_t waited_ns = round_up(requested_ns, m.granularity_ns);
            tracker.start(cell_estimate_ns(waited_ns, config),
                          fmt::format("{} {}", m.name, format_duration(requested_ns)));
            const auto samples = sample_overshoot(m, requested_ns, config);
            OneShotRow row;
            row.method = m.name;
            row.requested_ns = requested_ns;
            row.waited_ns = waited_ns;
            row.overshoot = summarize(samples);
            row.histogram = make_histogram(samples, log_edges_ns(20 * kNsPerMs));
            row.verdict = one_shot_verdict(row.overshoot, requested_ns, waited_ns);
            report.one_shot.push_back(std::move(row));
        }
    }
}

// The share of `total` that repeat `r` of kTimerRepeats takes (the remainder to the first ones).
int repeat_share(int total, int r) {
    return total / kTimerRepeats + (r < total % kTimerRepeats ? 1 : 0);
}

// 2. Periodic wake-up latency, at default scheduling and then real-time when allowed, in
// kTimerRepeats rounds over both.
void measure_periodic(const TimerProbeConfig& config, ProgressTracker& tracker,
                      TimerReport& report) {
    if (!config.run_periodic)
        return;
    const int histogram_buckets =
        static_cast<int>(std::max<std::int64_t>(config.periodic_interval_ns / kNsPerUs, 1));
    struct Scheduled {
        bool realtime = false;
        // An OS variant of the sleep (periodic_variants()): its clock, name and why it is
        // missing; at default scheduling. nullptr: system_limiter_clock().
        LimiterClock* clock = nullptr;
        std::string variant;
        std::string unavailable;
        std::string setup_note;  // why its thread setup failed (LimiterClock::begin_run)
        bool ran = false;
        bool refused = false;
        ScheduledRun first;  // how the first round ran
        std::vector<std::int64_t> latency_ns;
        std::vector<SampleSummary> repeats;
        std::int64_t missed = 0;
    };
    std::vector<Scheduled> runs;
    runs.emplace_back();
    if (config.periodic_realtime) {
        runs.emplace_back();
        runs.back().realtime = true;
    }
    for (const PeriodicVariant& v : periodic_variants()) {
        runs.emplace_back();
        runs.back().clock = v.clock;
        runs.back().variant = v.name;
        runs.back().unavailable = v.unavailable;
    }
    for (int r = 0; r < kTimerRepeats; ++r) {
        const int loops = repeat_share(config.periodic_loops, r);
        for (Scheduled& s : runs) {
            if (s.refused || loops <= 0 || !s.unavailable.empty())
                continue;
            tracker.start(loops * config.periodic_interval_ns,
                          fmt::format("{}, run {} of {}",
                                      s.realtime          ? "periodic, SCHED_FIFO"
                                      : s.variant.empty() ? "periodic, default scheduling"
                                                          : "periodic, " + s.variant,
                                      r + 1, kTimerRepeats));
            std::vector<std::int64_t> latency_ns;
            std::int64_t missed = 0;
            LimiterClock& clock = s.clock ? *s.clock : system_limiter_clock();
            const ScheduledRun run = run_on_thread(s.realtime, [&] {
                const std::string note = clock.begin_run();
                if (s.setup_note.empty())
                    s.setup_note = note;
                latency_ns =
                    measure_periodic_latency(clock, config.periodic_interval_ns, loops, &missed);
                clock.end_run();
            });
            if (!s.ran)
                s.first = run;
            s.ran = true;
            // Real-time was refused: the run was another default-scheduling run. Keep it only
            // to say so; its numbers would repeat the first row's meaning.
            if (s.realtime && !run.realtime) {
                s.refused = true;
                continue;
            }
            s.repeats.push_back(summarize(latency_ns));
            s.latency_ns.insert(s.latency_ns.end(), latency_ns.begin(), latency_ns.end());
            s.missed += missed;
        }
    }
    for (const Scheduled& s : runs) {
        PeriodicRow row;
        row.interval_ns = config.periodic_interval_ns;
        if (!s.unavailable.empty()) {
            row.scheduling = s.variant;
            row.verdict = "not run: " + s.unavailable;
            report.periodic.push_back(std::move(row));
            continue;
        }
        if (!s.ran)
            continue;
        row.note = s.first.note;
        if (!s.setup_note.empty())
            row.note += (row.note.empty() ? "" : "; ") + s.setup_note;
        if (s.refused) {
            row.scheduling = "SCHED_FIFO";
            row.verdict = "not run: " + s.first.note;
            report.periodic.push_back(std::move(row));
            continue;
        }
        row.scheduling =
            s.variant.empty() ? s.first.scheduling : s.first.scheduling + ", " + s.variant;
        row.realtime = s.first.realtime;
        row.memory_locked = s.first.memory_locked;
        row.latency = summarize(s.latency_ns);
        row.histogram = make_histogram(s.latency_ns, linear_edges_ns(kNsPerUs, histogram_buckets));
        row.log_histogram = make_histogram(s.latency_ns, log_edges_ns(20 * kNsPerMs));
        row.missed_periods = s.missed;
        row.repeats = s.repeats;
        row.verdict = periodic_verdict(row.latency, row.interval_ns, row.histogram.overflows()) +
                      "; " + periodic_repeats_text(row.repeats);
        report.periodic.push_back(std::move(row));
    }
}

// 3. Timer slack: as found, then at the test slack, then restored.
void measure_slack(const TimerProbeConfig& config, const std::optional<std::int64_t>& slack_before,
                   const WaitMethod* slack_method, ProgressTracker& tracker, TimerReport& report) {
    if (!config.run_slack) {
        // not asked for
    } else if (!slack_before) {
        report.slack_note = "this OS has no per-thread timer slack";
    } else if (!slack_method) {
        report.slack_note = "no wait method to measure timer slack with";
    } else {
        std::vector<SlackRow> current_rows, test_rows;
        for (bool test : {false, true}) {
            if (test && !set_timer_slack_ns(config.test_slack_ns)) {
                report.slack_note = "setting the timer slack was refused";
                break;
            }
            const std::int64_t slack_ns = test ? config.test_slack_ns : *slack_before;
            for (auto requested_ns : config.slack_requests_ns) {
                tracker.start(cell_estimate_ns(requested_ns, config),
                              fmt::format("timer slack {}, {}", format_duration(slack_ns),
                                          format_duration(requested_ns)));
                const auto samples = sample_overshoot(*slack_method, requested_ns, config);
                SlackRow row;
                row.requested_ns = requested_ns;
                row.slack_ns = slack_ns;
                row.current = !test;
                row.overshoot = summarize(samples);
                row.histogram = make_histogram(samples, log_edges_ns(20 * kNsPerMs));
                (test ? test_rows : current_rows).push_back(std::move(row));
            }
        }
        if (!set_timer_slack_ns(*slack_before) || current_timer_slack_ns() != slack_before) {
            report.slack_note = fmt::format("could not restore the timer slack to {}",
                                            format_duration(*slack_before));
        }
        // Side by side: each request as found, then at the test slack, the verdict on the pair.
        for (std::size_t i = 0; i < current_rows.size(); ++i) {
            if (i < test_rows.size()) {
                test_rows[i].verdict =
                    slack_verdict(current_rows[i].overshoot, current_rows[i].slack_ns,
                                  test_rows[i].overshoot, test_rows[i].slack_ns);
            }
            current_rows[i].verdict =
                one_shot_verdict(current_rows[i].overshoot, current_rows[i].requested_ns,
                                 current_rows[i].requested_ns);
            report.slack.push_back(std::move(current_rows[i]));
            if (i < test_rows.size())
                report.slack.push_back(std::move(test_rows[i]));
        }
    }
}

// 4. Frame limiters at each rate, in kTimerRepeats rounds over every rate and limiter. The rows
// are over the frames of all rounds; `per_repeat` gets each round's rows alone.
void measure_limiters(const TimerProbeConfig& config, const std::vector<LimiterSpec>& limiters,
                      ProgressTracker& tracker, TimerReport& report,
                      std::vector<std::vector<LimiterRow>>& per_repeat) {
    struct Frames {
        std::string name;
        int rate_hz = 0;
        std::int64_t period_ns = 0;
        std::vector<std::int64_t> error_ns, cpu_ns;
        std::int64_t resyncs = 0;
        std::string setup_note;
    };
    std::vector<Frames> all;  // rate by rate, each limiter in turn: the rows' order
    const std::vector<int> rates =
        config.run_limiters ? config.limiter_rates_hz : std::vector<int>{};
    for (int r = 0; r < kTimerRepeats; ++r) {
        std::vector<LimiterRow> round;
        std::size_t next = 0;
        for (int rate : rates) {
            const std::int64_t period_ns = (kNsPerS + rate / 2) / rate;
            const int frames = repeat_share(limiter_frames(rate, config), r);
            for (const auto& spec : limiters) {
                if (r == 0)
                    all.push_back({spec.name(), rate, period_ns, {}, {}, 0, {}});
                Frames& f = all[next++];
                if (frames <= 0)
                    continue;
                tracker.start(frames * period_ns,
                              fmt::format("{} at {} Hz, run {} of {}", spec.name(), rate, r + 1,
                                          kTimerRepeats));
                const LimiterRun run = run_limiter(
                    spec, spec.clock ? *spec.clock : system_limiter_clock(), period_ns, frames);
                if (f.setup_note.empty())
                    f.setup_note = run.setup_note;
                round.push_back(summarize_limiter(spec.name(), rate, period_ns, run.error_ns,
                                                  run.cpu_ns, run.resyncs, config.bound_ns));
                f.error_ns.insert(f.error_ns.end(), run.error_ns.begin(), run.error_ns.end());
                f.cpu_ns.insert(f.cpu_ns.end(), run.cpu_ns.begin(), run.cpu_ns.end());
                f.resyncs += run.resyncs;
            }
        }
        per_repeat.push_back(std::move(round));
    }
    for (const Frames& f : all) {
        report.limiters.push_back(summarize_limiter(f.name, f.rate_hz, f.period_ns, f.error_ns,
                                                    f.cpu_ns, f.resyncs, config.bound_ns));
        // The thread setup its clock asked for failed (MMCSS refused): the row measured the
        // limiter without it, and says so.
        if (!f.setup_note.empty())
            report.limiters.back().verdict += "; " + f.setup_note;
    }
}

}  // namespace

TimerReport run_timer_probe(const TimerProbeConfig& config, const TimerProgress& progress) {
    TimerReport report;
    report.platform = this_platform();
    report.bound_ns = config.bound_ns;
    const std::int64_t started_ns = monotonic_now_ns();
    const auto all_methods = one_shot_wait_methods();
    const auto methods = config.run_one_shot ? all_methods : std::vector<WaitMethod>{};
    const auto limiters = config.run_limiters ? frame_limiter_specs() : std::vector<LimiterSpec>{};
    const auto slack_before = current_timer_slack_ns();
    const WaitMethod* slack_method = nullptr;
    for (const auto& m : all_methods) {
        if (m.measures_timer_slack)
            slack_method = &m;
    }
    const bool slack_possible = config.run_slack && slack_before.has_value() && slack_method;
    ProgressTracker tracker(progress, planned_ns(config, methods, limiters, slack_possible));

    measure_one_shot(config, methods, tracker, report);
    measure_periodic(config, tracker, report);
    measure_slack(config, slack_before, slack_method, tracker, report);
    std::vector<std::vector<LimiterRow>> per_repeat;
    measure_limiters(config, limiters, tracker, report, per_repeat);
    report.recommendations = recommend_limiters(report.limiters, config.bound_ns);
    std::vector<std::vector<LimiterRecommendation>> repeat_recommendations;
    for (const auto& rows : per_repeat)
        repeat_recommendations.push_back(recommend_limiters(rows, config.bound_ns));
    note_repeat_stability(report.recommendations, repeat_recommendations);
    tracker.finish();
    report.elapsed_ns = monotonic_now_ns() - started_ns;
    return report;
}

}  // namespace loopscope
