// The few OS services the plumbing needs, behind one small interface: one file per OS
// (platform_linux.cpp; a platform_windows.cpp answers with _isatty, GetCurrentProcessId and
// SetConsoleCtrlHandler),
// picked by CMake. Everything else in common/ is standard C++ and knows no OS.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>

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

// Gives `replacement` the owner and group of `replaced`, as editors do when they write a new file
// over an old one: a report another user owns stays theirs when root rewrites it. Only where the
// process may (root; else the group alone, when it is one of the process's); otherwise, and on
// Windows, where a new file takes its folder's permissions, nothing changes.
void keep_file_owner(const char* replaced, const char* replacement);

// Part of a regular file seen through a read-only memory mapping. Reading a large capture this
// way saves the kernel's copy of every byte into a buffer.
struct MappedRange {
    const char* data = nullptr;  // the bytes asked for; nullptr when nothing is mapped
    std::size_t bytes = 0;
    void* base = nullptr;  // the mapping itself, from the page that holds data[0]
    std::size_t base_bytes = 0;
};

// Whether this process may map files, making it so on the first call. A mapped file that another
// program shortens while it is read has no bytes behind the pages past its new end: touching
// them raises SIGBUS, which would end the program without a word. So the first call also sets a
// handler that, for an address inside a range mapped here, prints one line naming the file
// ("loopscope: error: FILE: the file became shorter while it was being read ..."), removes the
// temporary output files as on_interrupt's cleanup does, and exits with status 2; a fault
// anywhere else ends the program as before. False where files are not mapped (Windows), and the
// readers then copy.
bool prepare_file_mapping();

// Maps `bytes` bytes of `file` from `offset` (any offset: the mapping starts at the page before).
// `path` names the file in the message above and must outlive the mapping. An empty range when
// the OS refuses, or when more ranges are mapped at once than the handler keeps (16); the caller
// then reads instead.
MappedRange map_file_range(std::FILE* file, std::uint64_t offset, std::size_t bytes,
                           const char* path);
// Ends a mapping (nothing for an empty range) and empties `range`.
void unmap_file_range(MappedRange& range);

// Asks that the whole large pages (2 MiB) inside [data, data + bytes) be backed by large pages
// when first touched (Linux's transparent huge pages, where the system allows them on request):
// a column of a million rows filled row by row then takes a few page faults instead of
// thousands. Nothing on Windows, or where the system refuses.
void advise_large_pages(void* data, std::size_t bytes);

}  // namespace loopscope
