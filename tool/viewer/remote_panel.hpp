// The "Game (live)" tab of `loopscope view --connect HOST:PORT`: a running game's frames as its
// recorder serves them (docs/live.md), plotted as they arrive (frame time, accumulator, steps,
// alpha) with the report's analysis run over the newest frames received (LiveWindow: the older
// ones are kept decimated, so memory stays bounded however long the game runs): the same figures
// a trace file of those frames gives.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tool/live_client.hpp"
#include "tool/viewer/document.hpp"
#include "tool/viewer/live_window.hpp"
#include "tool/viewer/panels.hpp"
#include "tool/viewer/time_plot.hpp"

namespace loopscope {

class RemoteGame {
  public:
    // Connects and reads the handshake; throws as LiveClient does (before any window opens).
    explicit RemoteGame(const std::string& host_port);

    // Takes in what has arrived (never waits), and re-runs the analysis a few times a second.
    void poll();
    void draw();
    std::size_t frames() const { return static_cast<std::size_t>(window_.frames_received()); }

  private:
    std::string where_;
    LiveClient client_;
    LiveWindow window_;
    Document& doc_;  // the window's
    TimeView view_;
    GraphSettings settings_;
    std::vector<FrameRecord> incoming_;
    std::vector<trace_v1::EventRecord> incoming_events_;
    std::vector<float> history_ms_;  // the history's longest frames, for its plot
    std::chrono::steady_clock::time_point last_analysis_;
    std::int64_t analysed_frames_ = 0;  // frames received when the analysis last ran
    bool open_ = true;
};

}  // namespace loopscope
