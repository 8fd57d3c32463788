// Small text helpers every stage shares.
#pragma once

#include <string_view>

namespace loopscope {

// The whitespace trim() removes: space, tab, carriage return, line feed, vertical tab and form
// feed (what std::isspace accepts in the "C" locale), so that CRLF line ends, tab-separated
// cells and stray form feeds all trim the same way, whatever the program's locale.
inline constexpr std::string_view kWhitespace = " \t\r\n\v\f";

// Whether c is one of kWhitespace: a space or \t \n \v \f \r, which are 9 to 13. Two
// comparisons instead of a search of kWhitespace: trim() asks it of both ends of every cell a
// reader parses (a search there took a tenth of reading a PresentMon capture).
constexpr bool is_whitespace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}
static_assert([] {
    int agree = 0;
    for (int c = -128; c < 128; ++c) {
        const bool listed = kWhitespace.find(static_cast<char>(c)) != std::string_view::npos;
        agree += listed == is_whitespace(static_cast<char>(c)) ? 1 : 0;
    }
    return agree == 256;
}());

// s without leading and trailing kWhitespace; a view into s. The capture readers call it on
// every cell, so the common case (nothing to trim) returns before any search.
constexpr std::string_view trim(std::string_view s) {
    if (s.empty() || (!is_whitespace(s.front()) && !is_whitespace(s.back())))
        return s;
    const auto first = s.find_first_not_of(kWhitespace);
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(kWhitespace);
    return s.substr(first, last - first + 1);
}

}  // namespace loopscope
