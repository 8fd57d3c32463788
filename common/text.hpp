// Small text helpers every stage shares.
#pragma once

#include <string_view>

namespace loopscope {

// The whitespace trim() removes: space, tab, carriage return, line feed, vertical tab and form
// feed (what std::isspace accepts in the "C" locale), so that CRLF line ends, tab-separated
// cells and stray form feeds all trim the same way, whatever the program's locale.
inline constexpr std::string_view kWhitespace = " \t\r\n\v\f";

// s without leading and trailing kWhitespace; a view into s. The capture readers call it on
// every cell, so the common case (nothing to trim) returns before any search.
constexpr std::string_view trim(std::string_view s) {
    const auto blank = [](char c) { return kWhitespace.find(c) != std::string_view::npos; };
    if (s.empty() || (!blank(s.front()) && !blank(s.back())))
        return s;
    const auto first = s.find_first_not_of(kWhitespace);
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(kWhitespace);
    return s.substr(first, last - first + 1);
}

}  // namespace loopscope
