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

// A one-line progress display on standard error, redrawn in place; silent when standard error
// is not a terminal (CI logs, pipes), so captured output stays clean.
class Progress {
  public:
    explicit Progress(std::string label, bool enabled = stderr_is_terminal());
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
};

}  // namespace loopscope
