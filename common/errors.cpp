#include "common/errors.hpp"

#include <fmt/format.h>

namespace loopscope {

namespace {
std::string place(const std::string& file, std::int64_t line, std::int64_t column) {
    if (line > 0 && column > 0)
        return fmt::format("{}:{}:{}", file, line, column);
    if (line > 0)
        return fmt::format("{}:{}", file, line);
    return file;
}
}  // namespace

InputError::InputError(std::string file, std::int64_t line, std::int64_t column,
                       const std::string& what)
    : std::runtime_error(fmt::format("{}: {}", place(file, line, column), what)),
      file_(std::move(file)),
      message_(what),
      line_(line),
      column_(column) {}

}  // namespace loopscope
