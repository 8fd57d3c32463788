// The "Game (live)" tab of `loopscope view --connect HOST:PORT`: a running game's frames as its
// recorder serves them (docs/live.md), plotted as they arrive (frame time, accumulator, steps,
// alpha) with the report's analysis run over everything received so far: the same figures a
// trace file of those frames gives.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "tool/live_client.hpp"
#include "tool/viewer/document.hpp"
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
    std::size_t frames() const { return doc_.frames(); }

  private:
    std::string where_;
    LiveClient client_;
    Document doc_;
    TimeView view_;
    GraphSettings settings_;
    std::vector<FrameRecord> incoming_;
    std::chrono::steady_clock::time_point last_analysis_;
    std::size_t analysed_frames_ = 0;
    std::int64_t missing_frames_ = 0;  // gaps in the frame numbers received
    bool open_ = true;
};

}  // namespace loopscope
