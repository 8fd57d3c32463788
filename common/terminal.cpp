// Colour and progress on the terminal (see terminal.hpp); whether a stream is a terminal is asked
// of the OS through common/platform.hpp.
#include "common/terminal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace loopscope {

bool use_colour() {
    const char* no_colour = std::getenv("NO_COLOR");
    if (no_colour && *no_colour)
        return false;
    return stdout_is_terminal();
}

Progress::Progress(std::string label, bool enabled) : label_(std::move(label)), enabled_(enabled) {}

Progress::~Progress() {
    done();
}

void Progress::update(double fraction, std::string_view detail) {
    if (!enabled_)
        return;
    // Redraw at most every 50 ms: drawing must not disturb the measurement it reports on.
    const auto now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
    if (shown_ && now_ns - last_draw_ns_ < 50'000'000 && fraction < 1.0)
        return;
    last_draw_ns_ = now_ns;
    fraction = std::clamp(fraction, 0.0, 1.0);
    const int width = 24;
    const int filled = static_cast<int>(fraction * width + 0.5);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    fmt::print(stderr, "\r\033[K{} [{}] {:3.0f}% {}", label_, bar, fraction * 100.0, detail);
    std::fflush(stderr);
    shown_ = true;
}

void Progress::done() {
    if (enabled_ && shown_) {
        fmt::print(stderr, "\r\033[K");
        std::fflush(stderr);
    }
    shown_ = false;
}

}  // namespace loopscope
