// The few OS services the plumbing needs, behind one small interface: one file per OS
// (platform_linux.cpp; a platform_windows.cpp answers with _isatty and GetCurrentProcessId),
// picked by CMake. Everything else in common/ is standard C++ and knows no OS.
#pragma once

#include <cstdint>

namespace loopscope {

// Whether standard output / standard error is an interactive terminal (not a file or a pipe).
bool stdout_is_terminal();
bool stderr_is_terminal();

// This process's id: makes temporary file names unique between concurrent runs.
std::int64_t current_process_id();

}  // namespace loopscope
