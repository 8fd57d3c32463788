// `probe compare` for timer results: two "timers" sections of probe documents side by side, row
// by row (the same method and request, scheduling, limiter and rate), with B - A differences.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace loopscope {

// Checks the fields compare reads; throws InputError naming the file and the field otherwise.
void check_timers_section(const nlohmann::json& timers, const std::string& path);

// Markdown tables; rows present on one side only show "-" on the other. a_label and b_label
// name the two columns (e.g. the file names).
std::string compare_timers_markdown(const nlohmann::json& a, const std::string& a_label,
                                    const nlohmann::json& b, const std::string& b_label);

}  // namespace loopscope
