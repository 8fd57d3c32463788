// The summary `run` and `replay` print after a loop: the loop figures of core/loop_figures.hpp
// with the definition next to each number, and the time-accumulation error for a long run.
#pragma once

#include <cstddef>
#include <string>

#include "core/loop_engine.hpp"
#include "core/loop_figures.hpp"
#include "core/trace_record.hpp"

namespace loopscope {

std::string format_loop_config(const LoopConfig& config);

// Everything but the long-run accumulation error.
std::string format_loop_summary(const LoopFigures& figures, const LoopConfig& config);

// The verdict lines (state, onset, slow motion, cause, headroom) of the summary.
std::string format_loop_verdict(const LoopFigures& figures);

// Float / double / int64 error of summing frame times: over the run (`run`, fed every frame's
// raw_ns), and over ten hours at 144 Hz on the virtual display.
std::string format_time_accumulation(const TimeAccumulation& run);

// The whole summary gathered one frame at a time, so that `run` and `replay` keep no records:
// memory stays the same whatever the run's length.
class LoopSummaryBuilder {
  public:
    explicit LoopSummaryBuilder(const LoopConfig& config)
        : config_(config), figures_(config, kDefaultSpiralWindow, kEngagementsShown) {}
    void add(const FrameRecord& r) {
        figures_.add(r);
        time_.add(r.raw_ns);
    }
    std::int64_t frames() const { return time_.frames; }
    LoopFigures figures() const { return figures_.figures(); }
    // format_loop_summary followed by format_time_accumulation.
    std::string text() const;

    static constexpr std::size_t kEngagementsShown = 5;  // the summary lists the first five

  private:
    LoopConfig config_;
    LoopFiguresBuilder figures_;
    TimeAccumulation time_;
};

}  // namespace loopscope
