// The benchmarks' thread pinning on Linux (see thread_placement.hpp).
#include "tests/bench/thread_placement.hpp"

#include <pthread.h>
#include <sched.h>

namespace loopscope::bench {

std::vector<int> allowed_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0)
        return cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set))
            cpus.push_back(cpu);
    }
    return cpus;
}

bool run_this_thread_on(const std::vector<int>& cpus) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (const int cpu : cpus) {
        if (cpu < 0 || cpu >= CPU_SETSIZE)
            return false;
        CPU_SET(cpu, &set);
    }
    return !cpus.empty() && pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

}  // namespace loopscope::bench
