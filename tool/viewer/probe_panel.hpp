// The probe panel: runs the probe sequence (the same run_probes as `loopscope probe`) on a
// background thread so the window keeps answering, shows its progress, and draws the results'
// sections (machine context, machine load, clock sources, timers: the same TextSections the
// terminal prints as Markdown) as ImGui tables.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "probes/probe_run.hpp"
#include "tool/viewer/section_view.hpp"

namespace loopscope {

class ProbePanel {
  public:
    enum class Which { clocks, timers, both };

    // log: print a line on standard output when a probe finishes (headless runs and tests).
    // record: keep what each draw() drew, for save_tables.
    ProbePanel(bool log, bool record);
    // Waits for a running probe: the probes have no way to stop half-way.
    ~ProbePanel();
    ProbePanel(const ProbePanel&) = delete;
    ProbePanel& operator=(const ProbePanel&) = delete;

    // Starts a run on the background thread; ignored while one runs. quick: the clock probe for
    // 1 s and the timer probe's quick run (as `loopscope probe --quick`), else 5 s and about 52 s.
    void start(Which which, bool quick);
    // A run is under way, or finished but its results are not yet taken in by poll() and laid
    // out.
    bool busy() const;
    // Takes in finished results; call once per viewer frame whichever tab is shown.
    void poll();
    void draw();
    // The headless test hook: writes the probe results of the last run (the probe JSON document)
    // and the tables of the last draw(), as the model held them and as they were drawn (JSON).
    // Needs `record` at construction. False, with the reason on standard error, on failure.
    bool save_tables(const std::string& path) const;

  private:
    using Clock = std::chrono::steady_clock;

    struct Result {
        TextSection section;
        double seconds = 0.0;  // wall time the probe took, as it measured itself
        bool quick = false;
    };
    // Written by the worker, read by the window's thread, under mutex_.
    struct Shared {
        bool running = false;
        std::string probe;  // "clock probe", "timer probe"
        double fraction = 0.0;
        std::string detail;
        std::optional<Result> context, clocks, timers, load;  // finished, not yet taken by poll()
        std::optional<ProbeResults> results;                  // the whole run, when it has finished
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
    std::optional<Result> context_, clocks_, timers_, load_;
    std::optional<ProbeResults> results_;  // of the last finished run
    std::string error_;
    bool record_ = false;
    std::vector<DrawnSection> drawn_;  // what the last draw() drew, when record_
};

}  // namespace loopscope
