// The plumbing's OS services on Linux (see platform.hpp): isatty, getpid, the signals a user
// sends to stop the program, and file mappings with the SIGBUS that a shortened file raises.
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>

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

void keep_file_owner(const char* replaced, const char* replacement) {
    struct stat old_file {};
    struct stat new_file {};
    if (::stat(replaced, &old_file) != 0 || ::stat(replacement, &new_file) != 0)
        return;
    if (old_file.st_uid == new_file.st_uid && old_file.st_gid == new_file.st_gid)
        return;
    if (::chown(replacement, old_file.st_uid, old_file.st_gid) != 0) {
        // Not allowed to give the file away: the group alone, when it is one of ours.
        [[maybe_unused]] const int ignored =
            ::chown(replacement, static_cast<uid_t>(-1), old_file.st_gid);
    }
}

void remove_file_in_handler(const char* path) {
    ::unlink(path);
}

namespace {

// The ranges mapped now, for the SIGBUS handler to tell a shortened file from a bug. Plain
// atomic slots: the handler may only read them. A reader holds two ranges at a time.
struct MappedSlot {
    std::atomic<bool> taken{false};  // claimed first, so that two threads never fill one slot
    std::atomic<std::uintptr_t> begin{0};
    std::atomic<std::uintptr_t> end{0};
    std::atomic<const char*> path{nullptr};
};
constexpr std::size_t kMappedSlots = 16;
std::array<MappedSlot, kMappedSlots> g_mapped{};

void write_in_handler(const char* text) {
    std::size_t left = std::strlen(text);
    while (left > 0) {
        const ssize_t n = ::write(STDERR_FILENO, text, left);
        if (n <= 0)
            return;
        text += n;
        left -= static_cast<std::size_t>(n);
    }
}

extern "C" void on_bus_error(int signal_number, siginfo_t* info, void*) {
    const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (const MappedSlot& slot : g_mapped) {
        const char* path = slot.path.load();
        if (path && slot.begin.load() <= at && at < slot.end.load()) {
            write_in_handler("loopscope: error: ");
            write_in_handler(path);
            write_in_handler(
                ": the file became shorter while it was being read (another program truncated or "
                "rewrote it): expected a file that stays as it is until it has been read\n");
            if (void (*cleanup)() = g_cleanup.load())
                cleanup();
            ::_exit(2);  // kExitBadInput
        }
    }
    // Not a file mapped here (a bug, or a SIGBUS sent with kill): the program ends as it would
    // have. The signal is blocked while its handler runs, so it is delivered on the return.
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);
}

}  // namespace

bool prepare_file_mapping() {
    static const bool installed = [] {
        struct sigaction action {};
        action.sa_sigaction = on_bus_error;
        action.sa_flags = SA_SIGINFO;
        ::sigemptyset(&action.sa_mask);
        return ::sigaction(SIGBUS, &action, nullptr) == 0;
    }();
    return installed;
}

MappedRange map_file_range(std::FILE* file, std::uint64_t offset, std::size_t bytes,
                           const char* path) {
    MappedRange range;
    if (bytes == 0 || !prepare_file_mapping())
        return range;
    static const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t start = offset - offset % page;
    const std::size_t length = static_cast<std::size_t>(offset - start) + bytes;
    // Without MAP_POPULATE: the threads that parse a block fault its pages in themselves, a few
    // at a time, which measured a little faster than one thread populating the whole block.
    void* base =
        ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE, ::fileno(file), static_cast<off_t>(start));
    if (base == MAP_FAILED)
        return range;
    const auto begin = reinterpret_cast<std::uintptr_t>(base);
    for (MappedSlot& slot : g_mapped) {
        bool free = false;
        if (slot.taken.compare_exchange_strong(free, true)) {
            slot.begin.store(begin);
            slot.end.store(begin + length);
            slot.path.store(path);  // the handler reads the slot from here on
            range.base = base;
            range.base_bytes = length;
            range.data = static_cast<const char*>(base) + (offset - start);
            range.bytes = bytes;
            return range;
        }
    }
    // More ranges at once than slots: a fault in this one could not be explained, so the
    // caller reads instead.
    ::munmap(base, length);
    return range;
}

void unmap_file_range(MappedRange& range) {
    if (!range.base)
        return;
    const auto begin = reinterpret_cast<std::uintptr_t>(range.base);
    for (MappedSlot& slot : g_mapped) {
        if (slot.path.load() && slot.begin.load() == begin) {
            slot.path.store(nullptr);
            slot.taken.store(false);
            break;
        }
    }
    ::munmap(range.base, range.base_bytes);
    range = MappedRange{};
}

void advise_large_pages(void* data, std::size_t bytes) {
    constexpr std::uintptr_t kLargePage = std::uintptr_t{1} << 21;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (begin + kLargePage - 1) & ~(kLargePage - 1);
    const std::uintptr_t last = (begin + bytes) & ~(kLargePage - 1);
    if (last > first)
        madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace loopscope
