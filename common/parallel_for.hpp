// One loop over independent items shared among a few threads, the calling thread one of them.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace loopscope {

// Starts the helper threads of parallel_for; a test passes its own to refuse some.
struct StartStdThread {
    template <typename F>
    std::thread operator()(F&& f) const {
        return std::thread(std::forward<F>(f));
    }
};

// Calls body(item, worker) once for every item in [0, count), on up to `threads` threads: the
// calling thread (worker 0) and helpers (workers 1, 2, ...). Each thread takes the next item not
// yet taken, so a thread the OS sets aside holds up one item, not a share of them. A helper
// the OS does not give (std::system_error) is not waited for: the threads that run, the calling
// one at least, take its items. `before` runs on the calling thread once the helpers have
// started and before it takes items (work of its own beside theirs).
//
// An exception from `before` or `body` stops the others taking new items; it is thrown here
// once every helper has finished, `before`'s first, else the first a body threw. The caller
// keeps workers' state apart by `worker` (below `threads`): body runs concurrently with itself.
template <typename Body, typename Before, typename Start = StartStdThread>
void parallel_for(std::size_t count, unsigned threads, Body&& body, Before&& before,
                  Start&& start = Start{}) {
    std::atomic<std::size_t> next{0};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    const auto work = [&](unsigned worker) {
        try {
            for (std::size_t i = next++; i < count; i = next++)
                body(i, worker);
        } catch (...) {
            const std::lock_guard lock(failure_mutex);
            if (!failure)
                failure = std::current_exception();
            next = count;  // the others stop after their current item
        }
    };
    const std::size_t wanted = std::min<std::size_t>(std::max(threads, 1u), count);
    std::exception_ptr before_failure;
    {
        std::vector<std::thread> helpers;
        helpers.reserve(wanted);
        struct JoinAll {  // joins on every way out of this block
            std::vector<std::thread>& threads;
            ~JoinAll() {
                for (std::thread& t : threads)
                    t.join();
            }
        } join_all{helpers};
        for (unsigned t = 1; t < wanted; ++t) {
            try {
                helpers.push_back(start([&work, t] { work(t); }));
            } catch (const std::system_error&) {
                break;  // no more threads to be had
            }
        }
        try {
            std::forward<Before>(before)();
        } catch (...) {
            before_failure = std::current_exception();
            next = count;
        }
        if (!before_failure)
            work(0);
    }
    if (before_failure)
        std::rethrow_exception(before_failure);
    if (failure)
        std::rethrow_exception(failure);
}

template <typename Body>
void parallel_for(std::size_t count, unsigned threads, Body&& body) {
    parallel_for(count, threads, std::forward<Body>(body), [] {});
}

}  // namespace loopscope
