// The probe panel: runs the clock probe and the timer probe (the same functions as `loopscope
// probe`) on a background thread so the window keeps answering, shows their progress, and lays
// out their Markdown results (the same text the terminal gets) as tables.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tool/viewer/markdown_view.hpp"

namespace loopscope {

class ProbePanel {
  public:
    enum class Which { clocks, timers, both };

    // log: print a line on standard output when a probe finishes (headless runs and tests).
    explicit ProbePanel(bool log);
    // Waits for a running probe: the probes have no way to stop half-way.
    ~ProbePanel();
    ProbePanel(const ProbePanel&) = delete;
    ProbePanel& operator=(const ProbePanel&) = delete;

    // Starts a run on the background thread; ignored while one runs. quick: the clock probe for
    // 1 s and the timer probe's quick run (as `loopscope probe --quick`), else 5 s and about 13 s.
    void start(Which which, bool quick);
    // A run is under way, or finished but its results are not yet taken in by poll() and laid
    // out.
    bool busy() const;
    // Takes in finished results; call once per viewer frame whichever tab is shown.
    void poll();
    void draw();

  private:
    using Clock = std::chrono::steady_clock;

    struct Result {
        std::vector<MarkdownBlock> blocks;
        double seconds = 0.0;  // wall time the probe took, as it measured itself
        bool quick = false;
    };
    // Written by the worker, read by the window's thread, under mutex_.
    struct Shared {
        bool running = false;
        std::string probe;  // "clock probe", "timer probe"
        double fraction = 0.0;
        std::string detail;
        std::optional<Result> context, clocks, timers;  // finished, not yet taken by poll()
        std::string error;
        double run_s = 0.0;  // wall time of the last finished run, as the viewer saw it
    };

    void work(Which which, bool quick);
    void take(std::optional<Result>& pending, std::optional<Result>& shown, const char* what);

    bool log_;
    bool quick_ = true;
    mutable std::mutex mutex_;
    Shared shared_;
    std::thread worker_;
    Clock::time_point started_;  // set before the worker starts, then only read
    double last_run_s_ = 0.0;
    int settle_frames_ = 0;  // frames still to draw before new tables are laid out
    std::optional<Result> context_, clocks_, timers_;
    std::string error_;
};

}  // namespace loopscope
