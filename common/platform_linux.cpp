// The plumbing's OS services on Linux (see platform.hpp): isatty, getpid, and the signals a user
// sends to stop the program.
#include <signal.h>
#include <unistd.h>

#include <atomic>

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

namespace {

std::atomic<void (*)()> g_cleanup{nullptr};

extern "C" void on_stop_signal(int signal_number) {
    if (void (*cleanup)() = g_cleanup.load())
        cleanup();
    // End as the signal would have (the exit status says which), now that the files are gone.
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);
}

}  // namespace

void on_interrupt(void (*cleanup)()) {
    g_cleanup.store(cleanup);
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    ::sigemptyset(&action.sa_mask);
    for (const int s : {SIGINT, SIGTERM, SIGHUP})
        ::sigaction(s, &action, nullptr);
}

void remove_file_in_handler(const char* path) {
    ::unlink(path);
}

}  // namespace loopscope
