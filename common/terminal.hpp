// What the program may assume about where its output goes: colour only on a terminal and when
// NO_COLOR is unset; progress only when standard error is a terminal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/platform.hpp"  // stdout_is_terminal, stderr_is_terminal

namespace loopscope {

// True when standard output is a terminal and NO_COLOR is not set (https://no-color.org).
bool use_colour();

// Whether progress is shown: when standard error is a terminal, unless LOOPSCOPE_PROGRESS=0;
// on a log or pipe only when LOOPSCOPE_PROGRESS=1 asks for it, so captured output stays clean.
bool progress_wanted();

// A one-line progress display on standard error with the time left once it can be estimated,
// redrawn in place on a terminal; on a log (LOOPSCOPE_PROGRESS=1) a line at each tenth.
class Progress {
  public:
    explicit Progress(std::string label, bool enabled = progress_wanted());
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // fraction in [0, 1]; detail is a short text such as the item being measured.
    void update(double fraction, std::string_view detail = {});
    void done();

  private:
    std::string label_;
    bool enabled_;
    bool shown_ = false;
    std::int64_t last_draw_ns_ = 0;
    std::int64_t start_ns_ = -1;  // the first update's time, for the estimate of the time left
    int last_tenth_ = -1;         // the last tenth written as a line (on a log)
};

}  // namespace loopscope
