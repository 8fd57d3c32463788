// Where a byte offset falls in a text, as the line and column an error message names. JSON
// parsers report a byte count; users want file:line:column.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>

namespace loopscope {

struct TextPosition {
    std::int64_t line = 1;    // 1-based
    std::int64_t column = 1;  // 1-based, in bytes
};

// The position of the byte at 0-based `offset`, reading `in` from where it stands up to there
// (an offset past the end gives the position just after the last byte).
TextPosition text_position(std::istream& in, std::size_t offset);

// The same for nlohmann::json's parse_error::byte and SAX positions, which count the bytes read
// up to and including the offending one (1-based; 0 = before the first byte).
inline TextPosition json_error_position(std::istream& in, std::size_t bytes_read) {
    return text_position(in, bytes_read > 0 ? bytes_read - 1 : 0);
}

}  // namespace loopscope
