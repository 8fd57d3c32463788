// `probe compare` for timer results: the "timers" section of two probe documents, row by row
// (the same method and request, scheduling, slack, limiter and rate), as CompareRows for
// probe_compare's tables. A difference matters when it changes what a game should do: a wait
// that became much later, a periodic timer that now misses whole periods, a limiter that now
// misses the bound, a different recommendation.
#pragma once

#include <vector>

#include "probes/probe_compare.hpp"
#include "probes/timer_probe.hpp"

namespace loopscope {

// One compare_sections() entry per table; each compares its own part of the two timer results.
std::vector<CompareRow> compare_timer_one_shot(const TimerReport& a, const TimerReport& b);
std::vector<CompareRow> compare_timer_periodic(const TimerReport& a, const TimerReport& b);
std::vector<CompareRow> compare_timer_slack(const TimerReport& a, const TimerReport& b);
std::vector<CompareRow> compare_timer_limiters(const TimerReport& a, const TimerReport& b);

// The entries above, ready for compare_sections().
std::vector<SectionSpec> timer_compare_sections();

}  // namespace loopscope
