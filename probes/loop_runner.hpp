// The loop on a real clock: the engine driven by a chosen clock source, with real busy work for
// the per-step and render costs of a FrameModel, real stalls for its spikes and hitches, and a
// real frame limiter (sleep, then spin on the clock, to absolute deadlines) standing in for the
// model's display or limiter. Headless: nothing is drawn. Frames are recorded through the
// recorder header, as a game would record them.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/loop_engine.hpp"
#include "core/loop_scenarios.hpp"
#include "core/trace_record.hpp"

namespace loopscope {

// A clock the loop can run on: one of the clock sources (clock_source.hpp, the one list of this
// OS's clocks) that counts nanoseconds, promises never to go back and is not a coarse clock.
struct RealClockSource {
    std::string name;  // the --clock name and the trace's `clock` metadata: "steady_clock",
                       // "monotonic_raw" (the source's name without "std::chrono::" or
                       // "CLOCK_", in lower case for the latter)
    std::string
        source;  // the clock source's name: "std::chrono::steady_clock", "CLOCK_MONOTONIC_RAW"
    std::string description;
    std::int64_t (*now_ns)() = nullptr;
};

// In the order of clock_sources(); the first is the default.
std::span<const RealClockSource> real_clock_sources();
// Finds a clock by its short name or by its clock source's name; nullptr when unknown.
const RealClockSource* find_real_clock(std::string_view name);

struct RealRunOptions {
    FrameModel model;
    LoopConfig config;
    std::int64_t frames = 0;       // stop after this many frames (0 = no frame limit)
    std::int64_t duration_ns = 0;  // stop once this much time has passed (0 = no time limit)
    // A run never lasts longer than this, whatever the loop does: without guards a spiral makes
    // frames ever longer, and the step work of a frame is cut at this limit.
    std::int64_t hard_limit_ns = 60 * 1'000'000'000LL;
    const RealClockSource* clock = nullptr;   // nullptr = the first of real_clock_sources()
    std::int64_t spin_margin_ns = 1'000'000;  // the limiter sleeps until this close, then spins
    std::string trace_path;                   // "" = no trace file
    std::vector<std::pair<std::string, std::string>> metadata;  // more trace metadata
    // Called with each frame's record once the frame has ended (its wait is known, so a frame
    // is reported when the next one begins, and the last one when the run ends). Nothing is
    // kept in memory: a run of any length costs the same.
    std::function<void(const FrameRecord&)> on_frame;
};

struct RealRunResult {
    std::int64_t frames = 0;  // frames run (and passed to on_frame)
    std::string clock;
    std::int64_t dropped_frames = 0;  // frames the recorder could not keep
    bool trace_ok = true;             // false when the trace file could not be written
    bool cut_short = false;           // the hard limit cut a frame's step work
};

// Throws UsageError for a bad configuration.
RealRunResult run_real(const RealRunOptions& options);

}  // namespace loopscope
