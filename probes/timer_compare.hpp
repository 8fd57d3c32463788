// `probe compare` for timer results: the "timers" section of two probe documents, row by row
// (the same method and request, scheduling, slack, limiter and rate), as CompareRows for
// probe_compare's tables. A difference matters when it changes what a game should do: a wait
// that became much later, a periodic timer that now misses whole periods, a limiter that now
// misses the bound, a different recommendation.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "probes/probe_compare.hpp"

namespace loopscope {

// Checks the fields compare reads; throws InputError naming the file and the field otherwise.
void validate_timers_section(const nlohmann::json& timers, const std::string& path);

// One compare_sections() entry per table; each reads its own part of the "timers" section.
std::vector<CompareRow> compare_timer_one_shot(const nlohmann::json& a, const nlohmann::json& b);
std::vector<CompareRow> compare_timer_periodic(const nlohmann::json& a, const nlohmann::json& b);
std::vector<CompareRow> compare_timer_slack(const nlohmann::json& a, const nlohmann::json& b);
std::vector<CompareRow> compare_timer_limiters(const nlohmann::json& a, const nlohmann::json& b);

// The entries above, ready for compare_sections(); the first validates the whole section.
std::vector<SectionSpec> timer_compare_sections();

}  // namespace loopscope
