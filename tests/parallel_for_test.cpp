// parallel_for: every item once, on the threads asked for; a helper thread the OS refuses leaves
// its items to the others; an exception reaches the caller after every helper has finished.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "common/parallel_for.hpp"

namespace loopscope {
namespace {

// Starts the first `allowed` helpers and refuses the rest as the OS does when out of threads.
struct StartSome {
    int& started;
    int allowed;
    template <typename F>
    std::thread operator()(F&& f) const {
        if (started >= allowed)
            throw std::system_error(
                std::make_error_code(std::errc::resource_unavailable_try_again));
        ++started;
        return std::thread(std::forward<F>(f));
    }
};

TEST(ParallelFor, EveryItemOnceOnEachThreadCount) {
    for (unsigned threads : {0u, 1u, 2u, 3u, 8u}) {
        for (std::size_t count :
             {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
            std::vector<std::atomic<int>> seen(count);
            std::atomic<unsigned> highest_worker{0};
            parallel_for(count, threads, [&](std::size_t i, unsigned worker) {
                ++seen[i];
                unsigned h = highest_worker.load();
                while (worker > h && !highest_worker.compare_exchange_weak(h, worker)) {
                }
            });
            for (std::size_t i = 0; i < count; ++i)
                EXPECT_EQ(seen[i].load(), 1)
                    << "item " << i << " of " << count << ", " << threads << " threads";
            EXPECT_LT(highest_worker.load(), std::max(threads, 1u));
        }
    }
}

TEST(ParallelFor, WorkerZeroIsTheCallingThread) {
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<int> wrong{0};
    parallel_for(200, 4, [&](std::size_t, unsigned worker) {
        if ((worker == 0) != (std::this_thread::get_id() == caller))
            ++wrong;
    });
    EXPECT_EQ(wrong.load(), 0);
}

TEST(ParallelFor, RefusedThreadsLeaveTheirItemsToTheOthers) {
    for (int allowed : {0, 1, 2}) {
        int started = 0;
        std::vector<std::atomic<int>> seen(500);
        std::atomic<unsigned> highest_worker{0};
        parallel_for(
            seen.size(), 4,
            [&](std::size_t i, unsigned worker) {
                ++seen[i];
                unsigned h = highest_worker.load();
                while (worker > h && !highest_worker.compare_exchange_weak(h, worker)) {
                }
            },
            [] {}, StartSome{started, allowed});
        EXPECT_EQ(started, allowed);
        EXPECT_LE(highest_worker.load(), static_cast<unsigned>(allowed));
        for (std::size_t i = 0; i < seen.size(); ++i)
            ASSERT_EQ(seen[i].load(), 1) << "item " << i << " with " << allowed << " helpers";
    }
}

TEST(ParallelFor, BodyExceptionReachesTheCallerAndStopsTheRest) {
    std::atomic<std::size_t> ran{0};
    EXPECT_THROW(parallel_for(100000, 3,
                              [&](std::size_t i, unsigned) {
                                  ++ran;
                                  if (i == 10)
                                      throw std::runtime_error("item 10");
                              }),
                 std::runtime_error);
    // The items after the failure are not all taken: each thread finishes the item it holds.
    EXPECT_LT(ran.load(), 100000u);
    EXPECT_GE(ran.load(), 11u);
}

TEST(ParallelFor, HelperExceptionReachesTheCaller) {
    // Only the helper throws: the calling thread holds its first item until the helper has
    // taken one, so the helper throws whatever the scheduling.
    int started = 0;
    std::atomic<bool> helper_took{false};
    try {
        parallel_for(
            64, 2,
            [&](std::size_t, unsigned worker) {
                if (worker != 0) {
                    helper_took = true;
                    throw std::logic_error("helper");
                }
                while (!helper_took)
                    std::this_thread::yield();
            },
            [] {}, StartSome{started, 1});
        ADD_FAILURE() << "no exception";
    } catch (const std::logic_error& e) {
        EXPECT_STREQ(e.what(), "helper");
    }
    EXPECT_EQ(started, 1);
}

TEST(ParallelFor, BeforeRunsOnTheCallerBesideTheHelpers) {
    const std::thread::id caller = std::this_thread::get_id();
    std::thread::id before_on;
    std::vector<std::atomic<int>> seen(300);
    parallel_for(
        seen.size(), 2, [&](std::size_t i, unsigned) { ++seen[i]; },
        [&] { before_on = std::this_thread::get_id(); });
    EXPECT_EQ(before_on, caller);
    for (std::size_t i = 0; i < seen.size(); ++i)
        ASSERT_EQ(seen[i].load(), 1);
}

TEST(ParallelFor, BeforeExceptionComesFirstAfterTheHelpersFinish) {
    std::atomic<int> in_body{0};
    EXPECT_THROW(parallel_for(
                     1000, 3,
                     [&](std::size_t, unsigned) {
                         ++in_body;
                         throw std::logic_error("body");
                     },
                     [] { throw std::runtime_error("before"); }),
                 std::runtime_error);
    EXPECT_LE(in_body.load(), 2);  // one item at most for each of the two helpers
}

}  // namespace
}  // namespace loopscope
