// Durations on the command line: "16.7ms", "250 ms", "100us", "1/60" (a fraction of a second),
// "0". A number needs a unit unless it is 0 or a fraction, so "16" is refused instead of
// guessed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace loopscope {

// Throws UsageError naming the text and what was expected. Negative durations are refused.
std::int64_t parse_duration_ns(std::string_view text);

// "16.667 ms", "250 us", "1.5 s": the shortest of ns/us/ms/s that keeps the value >= 1.
std::string format_duration(std::int64_t ns);

}  // namespace loopscope
