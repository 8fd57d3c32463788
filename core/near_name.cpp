// The likely meant name (see near_name.hpp).
#include "core/near_name.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace loopscope {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::optional<std::string> likely_meant_name(std::string_view typed,
                                             std::span<const std::string_view> candidates) {
    if (typed.empty())
        return std::nullopt;
    std::optional<std::string_view> prefixed;
    for (const std::string_view c : candidates) {
        if (c.size() > typed.size() + 1 && c.starts_with(typed) && c[typed.size()] == '_' &&
            (!prefixed || c.size() < prefixed->size())) {
            prefixed = c;
        }
    }
    if (prefixed)
        return std::string(*prefixed);
    std::optional<std::string_view> best;
    std::size_t best_distance = 0;
    bool tie = false;
    for (const std::string_view c : candidates) {
        const std::size_t d = edit_distance(typed, c);
        if (!best || d < best_distance) {
            best = c;
            best_distance = d;
            tie = false;
        } else if (d == best_distance) {
            tie = true;
        }
    }
    // A third of the word (at least 1, at most 3 edits) is a typo; more is another word. Two
    // names as near ("p98_ms": p90_ms, p99_ms) are no guess.
    const std::size_t limit = std::clamp<std::size_t>(typed.size() / 3, 1, 3);
    if (!best || best_distance > limit || tie)
        return std::nullopt;
    return std::string(*best);
}

}  // namespace loopscope
