// The trace file's open on Windows (see open_file.hpp): a named pipe path is opened as a file;
// there is no FIFO whose open waits for a reader.
#include "recorder/open_file.hpp"

namespace loopscope {

std::FILE* open_trace_file(const std::string& path, std::int64_t wait_ms) {
    (void)wait_ms;
    return std::fopen(path.c_str(), "wb");
}

}  // namespace loopscope
