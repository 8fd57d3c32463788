// The plumbing's OS services on Linux (see platform.hpp): isatty and getpid.
#include <unistd.h>

#include "common/platform.hpp"

namespace loopscope {

bool stdout_is_terminal() {
    return ::isatty(STDOUT_FILENO) == 1;
}

bool stderr_is_terminal() {
    return ::isatty(STDERR_FILENO) == 1;
}

std::int64_t current_process_id() {
    return static_cast<std::int64_t>(::getpid());
}

}  // namespace loopscope
