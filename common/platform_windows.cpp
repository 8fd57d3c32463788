// The plumbing's OS services on Windows (see platform.hpp): _isatty, GetCurrentProcessId, and
// the console control events (Ctrl+C, Ctrl+Break, a closed console, log-off, shutdown) that stop
// the program. Files are not mapped.
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <io.h>
#include <windows.h>

#include <atomic>
#include <cstdio>

#include "common/platform.hpp"

namespace loopscope {

bool stdout_is_terminal() {
    return ::_isatty(::_fileno(stdout)) != 0;
}

bool stderr_is_terminal() {
    return ::_isatty(::_fileno(stderr)) != 0;
}

std::int64_t current_process_id() {
    return static_cast<std::int64_t>(::GetCurrentProcessId());
}

namespace {

std::atomic<void (*)()> g_cleanup{nullptr};

// Runs on a thread of its own that Windows starts for the event. FALSE hands the event on to
// the next handler, in the end the default one, which ends the process as Ctrl+C would have.
BOOL WINAPI on_console_event(DWORD /*event*/) {
    if (void (*cleanup)() = g_cleanup.load())
        cleanup();
    return FALSE;
}

}  // namespace

void on_interrupt(void (*cleanup)()) {
    g_cleanup.store(cleanup);
    static const bool installed = ::SetConsoleCtrlHandler(on_console_event, TRUE) != 0;
    (void)installed;
}

void keep_file_owner(const char*, const char*) {}

void remove_file_in_handler(const char* path) {
    ::DeleteFileA(path);
}

// Files are read with copies here: a view of a file on a network share that fails raises an
// in-page exception, which would need structured exception handling around every reader.
bool prepare_file_mapping() {
    return false;
}

MappedRange map_file_range(std::FILE*, std::uint64_t, std::size_t, const char*) {
    return {};
}

void unmap_file_range(MappedRange& range) {
    range = MappedRange{};
}

void advise_large_pages(void*, std::size_t) {}

}  // namespace loopscope
