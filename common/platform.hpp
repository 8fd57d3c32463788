// The few OS services the plumbing needs, behind one small interface: one file per OS
// (platform_linux.cpp; a platform_windows.cpp answers with _isatty, GetCurrentProcessId and
// SetConsoleCtrlHandler),
// picked by CMake. Everything else in common/ is standard C++ and knows no OS.
#pragma once

#include <cstdint>

namespace loopscope {

// Whether standard output / standard error is an interactive terminal (not a file or a pipe).
bool stdout_is_terminal();
bool stderr_is_terminal();

// This process's id: makes temporary file names unique between concurrent runs.
std::int64_t current_process_id();

// Calls `cleanup` when the user interrupts or terminates the program (Ctrl+C, SIGTERM, a closed
// terminal), then ends the program as that signal would have. `cleanup` runs inside the signal
// handler, so it may only do what is safe there: remove files with remove_file_in_handler.
void on_interrupt(void (*cleanup)());
void remove_file_in_handler(const char* path);

}  // namespace loopscope
