// The name a user most likely meant by one that is not known ("p99" for "p99_ms", "avg_fsp" for
// "avg_fps"), for messages that suggest it instead of listing every name.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace loopscope {

// The number of single-letter insertions, deletions and substitutions that turn one word into
// the other (Levenshtein), letter case ignored.
std::size_t edit_distance(std::string_view a, std::string_view b);

// A candidate that is `typed` followed by '_' and more (a name without its unit suffix: the
// shortest such), else the candidate nearest by edit distance (letter case ignored) when it is
// within a third of the word (1 to 3 edits) and no other is as near, else none.
std::optional<std::string> likely_meant_name(std::string_view typed,
                                             std::span<const std::string_view> candidates);

}  // namespace loopscope
