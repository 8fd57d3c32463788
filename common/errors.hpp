// The errors a user can cause, and the exit codes the program maps them to. Bad input is never a
// crash: readers throw InputError with the place it went wrong, the command line throws
// UsageError, and main() prints one line and exits with the code below.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace loopscope {

enum ExitCode : int {
    kExitOk = 0,
    kExitFailure = 1,    // the machine or the OS let us down (a probe could not run)
    kExitBadInput = 2,   // bad command line, missing or malformed input file
    kExitGateFailed = 3  // a --fail-if condition held
};

// A malformed file: names the file and, where known, the 1-based line and column.
class InputError : public std::runtime_error {
  public:
    InputError(std::string file, std::int64_t line, std::int64_t column, const std::string& what);
    InputError(std::string file, const std::string& what)
        : InputError(std::move(file), 0, 0, what) {}

    const std::string& file() const { return file_; }
    std::int64_t line() const { return line_; }
    std::int64_t column() const { return column_; }
    // What went wrong, without the place in front (what() has both).
    const std::string& message() const { return message_; }

  private:
    std::string file_;
    std::string message_;
    std::int64_t line_;
    std::int64_t column_;
};

// A bad command-line value (exit code 2), e.g. a duration without a unit.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace loopscope
