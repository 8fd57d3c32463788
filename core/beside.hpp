// Two independent pieces of work at the same time: one on a second thread, one on this one.
#pragma once

#include <algorithm>
#include <exception>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

namespace loopscope {

// The threads a `threads` option asks for: itself, or one per hardware thread for 0.
inline unsigned threads_or_hardware(unsigned threads) {
    return threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
}

// Runs `beside` on a second thread while this thread runs `here`, when `use_thread` is true and
// the OS gives a thread; otherwise `here`, then `beside`, on this thread. The two must touch
// disjoint data. Both have finished when it returns (unless `here` throws, which ends it after
// `beside` has finished, without running `beside` when there is no second thread). An exception
// is thrown here as on one thread: `here`'s first, then `beside`'s.
template <typename Beside, typename Here>
void run_beside(bool use_thread, Beside&& beside, Here&& here) {
    std::exception_ptr beside_failure;
    const auto guarded = [&] {
        try {
            std::forward<Beside>(beside)();
        } catch (...) {
            beside_failure = std::current_exception();
        }
    };
    std::optional<std::thread> helper;
    if (use_thread) {
        try {
            helper.emplace(guarded);
        } catch (const std::system_error&) {
        }  // no thread to be had: both run below, on this one
    }
    try {
        std::forward<Here>(here)();
    } catch (...) {
        if (helper)
            helper->join();
        throw;
    }
    if (helper)
        helper->join();
    else
        guarded();
    if (beside_failure)
        std::rethrow_exception(beside_failure);
}

}  // namespace loopscope
