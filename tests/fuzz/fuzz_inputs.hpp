// The entry points the fuzz targets drive, shared with the test that replays the corpus: one per
// capture reader, one for format detection plus reading, one for the whole report path
// (reader → analysis → every writer), one for a comparison of two captures (the input cut
// at its first form feed), and one for the live stream's client (the bytes a game sends, made
// into a trace as `record --connect` makes one, which the trace reader must then take). Each
// takes the bytes of a would-be capture file or stream; bad input must end in InputError or
// UsageError (which these swallow), never in anything else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace loopscope::fuzz {

using Bytes = std::span<const std::uint8_t>;

// The target names: "trace", "plain", "mangohud", "capframex_json", "presentmon", "detect",
// "report", "compare", "live".
const std::vector<std::string_view>& target_names();

// Runs `bytes` through the named target. Throws std::invalid_argument for an unknown name.
void run_target(std::string_view target, Bytes bytes);

}  // namespace loopscope::fuzz
