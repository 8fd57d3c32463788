// Line and column of a byte offset: see text_position.hpp.
#include "common/text_position.hpp"

namespace loopscope {

TextPosition text_position(std::istream& in, std::size_t offset) {
    TextPosition p;
    char ch;
    for (std::size_t i = 0; i < offset && in.get(ch); ++i) {
        if (ch == '\n') {
            ++p.line;
            p.column = 1;
        } else {
            ++p.column;
        }
    }
    return p;
}

}  // namespace loopscope
