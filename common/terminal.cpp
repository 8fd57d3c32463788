// Colour and progress on the terminal (see terminal.hpp); whether a stream is a terminal is asked
// of the OS through common/platform.hpp.
#include "common/terminal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace loopscope {

bool use_colour() {
    const char* no_colour = std::getenv("NO_COLOR");
    if (no_colour && *no_colour)
        return false;
    return stdout_is_terminal();
}

bool progress_wanted() {
    const char* asked = std::getenv("LOOPSCOPE_PROGRESS");
    if (asked && std::string_view(asked) == "0")
        return false;
    if (asked && std::string_view(asked) == "1")
        return true;
    return stderr_is_terminal();
}

std::string TimeLeft::update(double fraction, std::int64_t now_ns) {
    if (start_ns_ < 0)
        start_ns_ = now_ns;
    if (readings_.empty() || now_ns - readings_.back().ns >= 100'000'000)
        readings_.push_back({now_ns, fraction});
    // The oldest reading kept is the last one at or before the window's start.
    std::size_t first = 0;
    while (first + 1 < readings_.size() && now_ns - readings_[first + 1].ns >= kTimeLeftWindowNs)
        ++first;
    readings_.erase(readings_.begin(), readings_.begin() + static_cast<std::ptrdiff_t>(first));
    if (fraction < 0.05 || fraction >= 1.0 || now_ns - start_ns_ < 1'000'000'000)
        return {};
    const Reading& from = readings_.front();
    const double done = fraction - from.fraction;
    const std::int64_t took_ns = now_ns - from.ns;
    if (done <= 0 || took_ns <= 0)
        return {};
    const double left_s = static_cast<double>(took_ns) / 1e9 * (1.0 - fraction) / done;
    if (left_s < 1)
        return "less than 1 s left";
    return left_s < 90 ? fmt::format("about {:.0f} s left", left_s)
                       : fmt::format("about {:.0f} min left", left_s / 60.0);
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
    fraction = std::clamp(fraction, 0.0, 1.0);
    std::string text(detail);
    if (const std::string left = left_.update(fraction, now_ns); !left.empty())
        text += (text.empty() ? "" : ", ") + left;
    if (!stderr_is_terminal()) {
        // A log gets a line at each tenth, not a redraw sequence it cannot show.
        const int tenth = static_cast<int>(fraction * 10.0);
        if (tenth == last_tenth_)
            return;
        last_tenth_ = tenth;
        fmt::print(stderr, "{}: {:3.0f}% {}\n", label_, tenth * 10.0, text);
        std::fflush(stderr);
        return;
    }
    if (shown_ && now_ns - last_draw_ns_ < 50'000'000 && fraction < 1.0)
        return;
    last_draw_ns_ = now_ns;
    const int width = 24;
    const int filled = static_cast<int>(fraction * width + 0.5);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    fmt::print(stderr, "\r\033[K{} [{}] {:3.0f}% {}", label_, bar, fraction * 100.0, text);
    std::fflush(stderr);
    shown_ = true;
}

void Progress::done() {
    if (enabled_ && shown_ && stderr_is_terminal()) {
        fmt::print(stderr, "\r\033[K");
        std::fflush(stderr);
    }
    shown_ = false;
}

}  // namespace loopscope
