// Pinning the benchmarks' threads to CPUs, per OS (thread_placement_linux.cpp): where the
// recorder's writer runs, on the loop's CPU or on another, changes what the loop's thread pays.
#pragma once

#include <vector>

namespace loopscope::bench {

// The CPUs the calling thread may run on, lowest first (empty if the OS does not say).
std::vector<int> allowed_cpus();

// Lets the calling thread run on `cpus` only; false when the OS refuses. A thread started
// afterwards by this one starts with the same CPUs.
bool run_this_thread_on(const std::vector<int>& cpus);

}  // namespace loopscope::bench
