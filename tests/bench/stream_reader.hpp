// A client of the recorder's live stream for the benchmarks, and the CPU clocks: per
// OS (stream_reader_linux.cpp).
#pragma once

#include <cstdint>
#include <thread>

namespace loopscope::bench {

// A viewer of the live stream: a thread that connects to 127.0.0.1:port and reads everything
// until the game closes, acknowledging it as it goes, counting the bytes and its own CPU time.
class StreamReader {
  public:
    explicit StreamReader(int port);
    std::int64_t finish();  // after the recorder closed: joins, returns the bytes received
    std::int64_t cpu_ns() const { return cpu_ns_; }

  private:
    std::thread thread_;
    std::int64_t bytes_ = 0;
    std::int64_t cpu_ns_ = 0;
};

// The CPU time of the whole process, every thread's.
std::int64_t process_cpu_ns();
// The user + system CPU time of the child processes waited for so far, every thread's.
std::int64_t children_cpu_ns();
// Waits, for at most `timeout_s`, until every CPU of the machine has been idle for at least
// `idle_share` of a 0.2 s window (other programs' work ends), so that a whole-process wall time
// on a machine shared with other work measures the program rather than its neighbours. False
// when the machine never was that idle before the timeout.
bool wait_for_idle_cpus(double idle_share, double timeout_s);

}  // namespace loopscope::bench
