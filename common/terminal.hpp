// What the program may assume about where its output goes: colour only on a terminal and when
// NO_COLOR is unset; progress only when standard error is a terminal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/platform.hpp"  // stdout_is_terminal, stderr_is_terminal

namespace loopscope {

// True when standard output is a terminal and NO_COLOR is not set (https://no-color.org).
bool use_colour();

// Whether progress is shown: when standard error is a terminal, unless LOOPSCOPE_PROGRESS=0;
// on a log or pipe only when LOOPSCOPE_PROGRESS=1 asks for it, so captured output stays clean.
bool progress_wanted();

// The time left of a task from its fraction done, as a text ("about 12 s left", "less than 1 s
// left"; empty until it can be told). The rate is the one over the last kTimeLeftWindowNs, not
// since the start: the parts of a task need not take the share of its time their fraction says
// (a stage whose first half runs fast and second half slow showed "about 1 s left" from 52 % to
// 99 % with the rate since the start). Nothing before a twentieth is done and a second has
// passed, nor while the fraction does not move.
inline constexpr std::int64_t kTimeLeftWindowNs = 2'000'000'000;
class TimeLeft {
  public:
    std::string update(double fraction, std::int64_t now_ns);

  private:
    struct Reading {
        std::int64_t ns;
        double fraction;
    };
    std::int64_t start_ns_ = -1;
    std::vector<Reading> readings_;  // at least 100 ms apart, the last window's
};

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
    TimeLeft left_;
    int last_tenth_ = -1;  // the last tenth written as a line (on a log)
};

}  // namespace loopscope
