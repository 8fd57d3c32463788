// The entry point of `loopscope view`: everything the command line decides, and the call that
// opens the window. This header knows nothing of SDL or Dear ImGui, so cmd_view.cpp stays plain.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/loop_engine.hpp"

namespace loopscope {

enum class ViewerTab { captures, live, demo, probes, game };

struct ViewerOptions {
    std::vector<std::string> files;      // traces and captures to open
    std::string process;                 // stream to read from each capture ("" = most frames)
    bool strict = false;                 // refuse captures with bad cells (ReadOptions::strict)
    std::vector<std::string> scenarios;  // built-in loop scenarios to run virtually and show
    std::string connect;                 // HOST:PORT of a game serving its frames live ("" = none)
    ViewerTab first_tab = ViewerTab::captures;
    bool start_probes = false;    // run the quick clock and timer probes at once (probe tab)
    LoopConfig live_config;       // the live harness's starting knobs
    std::string live_trace_path;  // where "Save as trace" writes ("" = ask for none)
    std::string screenshot_path;  // "" = interactive
    int frames = 60;              // frames to render before the screenshot
    int width = 1600;
    int height = 1000;

    // Scripted input for tests: each goes through the code the mouse or the window uses.
    std::vector<std::string> drop_files;  // pushed as SDL drop events before the first frame
    std::optional<std::pair<std::int64_t, std::int64_t>> select_ns;  // a range on the Captures tab
    std::string save_live_trace_path;  // the live run saved here at the last screenshot frame
    // The probe tab's tables (as held and as drawn) and the results they came from, saved here
    // at the screenshot (JSON).
    std::string save_probe_tables_path;
    // The report of what the Captures tab shows, saved here at the last screenshot frame as
    // the "Save report..." button does, in this writer format.
    std::string save_report_path;
    std::string save_report_format;
};

// Runs the viewer until its window closes, or for `frames` frames when a screenshot is asked for.
// Returns the process exit code; throws InputError for a file that cannot be read.
int run_viewer(const ViewerOptions& options);

}  // namespace loopscope
