// Opening the recorder's trace file, one file per OS (open_file_linux.cpp: POSIX;
// open_file_windows.cpp), so that recorder.cpp stays portable.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace loopscope {

// `path` opened for writing, truncated ("wb"), or nullptr. A path that would block the open (a
// POSIX FIFO without a reader) is tried every 10 ms for at most `wait_ms`, then given up:
// nullptr. The file's writes block as usual once it is open.
std::FILE* open_trace_file(const std::string& path, std::int64_t wait_ms);

}  // namespace loopscope
