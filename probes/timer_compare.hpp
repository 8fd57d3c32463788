// `probe compare` for timer results: the "timers" section of two probe documents, row by row
// (the same method and request, scheduling, slack, limiter and rate), as CompareRows for
// probe_compare's tables. A difference matters when it changes what a game should do: a wait
// that became much later, a periodic timer that now misses whole periods, a limiter that now
// misses the bound, a different recommendation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "probes/probe_compare.hpp"
#include "probes/timer_probe.hpp"

namespace loopscope {

// One compare_sections() entry per table; each compares its own part of the two timer results.
std::vector<CompareRow> compare_timer_one_shot(const TimerReport& a, const TimerReport& b);
std::vector<CompareRow> compare_timer_periodic(const TimerReport& a, const TimerReport& b);
std::vector<CompareRow> compare_timer_slack(const TimerReport& a, const TimerReport& b);
std::vector<CompareRow> compare_timer_limiters(const TimerReport& a, const TimerReport& b);

// A lateness figure (an overshoot, a wake-up latency) in both documents, "-" where one has none.
// It matters when the later one is at least twice the other and at least floor_ns more: below
// that, run-to-run noise on a busy machine.
CompareCell compare_lateness(std::optional<std::int64_t> a_ns, std::optional<std::int64_t> b_ns,
                             std::int64_t floor_ns);

// The OS variant of a periodic row, after the scheduling ("hi-res timer abs" of
// "THREAD_PRIORITY_NORMAL, hi-res timer abs"); empty for the plain row.
std::string periodic_variant(const PeriodicRow& row);

// The entries above, ready for compare_sections().
std::vector<SectionSpec> timer_compare_sections();

}  // namespace loopscope
