// `loopscope view`: the Dear ImGui viewer. Opens traces and captures for comparison, runs the
// loop live, shows the loops demo, and headless writes a screenshot (for tests and docs).
// Compiled in only when the viewer is (SDL2, Dear ImGui and OpenGL found).
#ifdef LOOPSCOPE_HAVE_VIEWER
#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "core/duration.hpp"
#include "tool/cli_text.hpp"
#include "tool/commands.hpp"
#include "tool/loop_options.hpp"
#include "tool/viewer/viewer.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

struct ViewArgs {
    ViewerOptions viewer;
    bool live = false;
    bool demo = false;
    bool probes = false;
    std::string size = "1600x1000";
    std::string select;         // FROM:TO
    std::string report_format;  // for --save-report ("" = from the file's extension)
    LoopOptions loop;
};

void parse_size(const std::string& text, int& width, int& height) {
    const auto x = text.find('x');
    try {
        if (x != std::string::npos) {
            std::size_t used_w = 0, used_h = 0;
            width = std::stoi(text.substr(0, x), &used_w);
            height = std::stoi(text.substr(x + 1), &used_h);
            if (used_w == x && used_h == text.size() - x - 1 && width >= 320 && height >= 240 &&
                width <= 8192 && height <= 8192) {
                return;
            }
        }
    } catch (const std::exception&) {
    }
    throw UsageError("--size: expected WIDTHxHEIGHT between 320x240 and 8192x8192, got '" + text +
                     "'");
}

// "2s:5.5s" -> the two times in ns, FROM < TO.
std::pair<std::int64_t, std::int64_t> parse_range(const std::string& text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) {
        throw UsageError("--select: expected FROM:TO, e.g. 2s:5s, got '" + text + "'");
    }
    const std::int64_t from_ns = parse_duration_option("--select", text.substr(0, colon));
    const std::int64_t to_ns = parse_duration_option("--select", text.substr(colon + 1));
    if (to_ns <= from_ns) {
        throw UsageError("--select: expected FROM before TO, got '" + text + "'");
    }
    return {from_ns, to_ns};
}

}  // namespace

void add_view_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ViewArgs>();
    CLI::App* cmd = app.add_subcommand(
        "view",
        "Open traces and captures in the viewer (drag more files onto its window), run the loop "
        "live, or watch the loops demo. --screenshot renders headless and writes a PNG.");
    cmd->add_option("FILE", args->viewer.files,
                    "Traces and PresentMon / CapFrameX / OCAT / FrameView / MangoHud "
                    "captures, compared in one view");
    cmd->add_option("--process", args->viewer.process,
                    "Stream to read from each capture: process name, PID or swap chain (default: "
                    "the one with the most frames)");
    cmd->add_flag("--strict", args->viewer.strict,
                  "Refuse a capture holding cells that are not the numbers their column holds, "
                  "naming file, line and column (by default they are counted and said)");
    cmd->add_option("--scenario", args->viewer.scenarios,
                    "Also show a built-in loop scenario, run on the virtual clock (see `loopscope "
                    "run --list-scenarios`)");
    cmd->add_option("--connect", args->viewer.connect,
                    "HOST:PORT of a running game whose recorder serves its frames: plot them live "
                    "and run the report over what has arrived (starts on that tab)");
    cmd->add_flag("--live", args->live, "Start on the live harness (the engine on the real clock)");
    cmd->add_flag("--demo", args->demo, "Start on the loops demo");
    cmd->add_flag("--probes", args->probes,
                  "Start on the probe tab and run the quick clock and timer probes at once (with "
                  "--screenshot, the PNG waits for their tables)");
    CLI::Option* screenshot =
        cmd->add_option("--screenshot", args->viewer.screenshot_path,
                        "Render headless (SDL_VIDEODRIVER=offscreen when there is no display), "
                        "write this PNG and exit");
    cmd->add_option("--frames", args->viewer.frames,
                    "Frames to render before the screenshot (default 60)")
        ->check(number_range(1, 100000))
        ->needs(screenshot);
    cmd->add_option("--save-report", args->viewer.save_report_path,
                    "With --screenshot: write the report of what is shown (the primary document, "
                    "the last file given, or the range --select chose) as the Save report button "
                    "does; the format from the extension (.json .md .csv .html .txt) or --format");
    cmd->add_option("--format", args->report_format,
                    "Format of --save-report: terminal, json, md, csv, html or chrome");
    cmd->add_option("--size", args->size, "Window size in pixels")->capture_default_str();
    // The loop knobs set the live harness; of the loop commands' outputs only the trace has a
    // meaning here (the harness's "Save as trace"), so --json is not offered.
    add_loop_options(*cmd, args->loop, false);
    cmd->add_option("-o,--output", args->loop.output,
                    "With --live: where the live harness's \"Save as trace\" writes the per-frame "
                    "trace (default live.trace.csv); with --screenshot too, the run is saved "
                    "there at the screenshot");
    // Scripted input for the tests: hidden from --help (group ""), described in docs/viewer.md.
    cmd->add_option("--drop", args->viewer.drop_files,
                    "test hook: drop this file on the window before the first frame")
        ->group("");
    cmd->add_option("--select", args->select,
                    "test hook: select FROM:TO (e.g. 2s:5s) on the Captures tab and print the "
                    "range's statistics")
        ->group("");
    cmd->add_option("--save-live-trace", args->viewer.save_live_trace_path,
                    "test hook: with --live and --screenshot, save the live run here at the last "
                    "frame as the save button does")
        ->group("");
    cmd->add_option("--save-probe-tables", args->viewer.save_probe_tables_path,
                    "test hook: with --probes and --screenshot, write the probe tab's tables (as "
                    "held and as drawn) and the probe results here (JSON) at the screenshot")
        ->group("");
    cmd->callback([args, &exit_code] {
        ViewerOptions options = args->viewer;
        parse_size(args->size, options.width, options.height);
        if (int(args->live) + int(args->demo) + int(args->probes) > 1) {
            throw UsageError("--live, --demo and --probes choose the first tab: give one of them");
        }
        if (!options.connect.empty() && int(args->live) + int(args->demo) + int(args->probes) > 0)
            throw UsageError(
                "--connect starts on the game's tab: leave out --live, --demo and --probes");
        options.first_tab = !options.connect.empty() ? ViewerTab::game
                            : args->live             ? ViewerTab::live
                            : args->demo             ? ViewerTab::demo
                            : args->probes           ? ViewerTab::probes
                                                     : ViewerTab::captures;
        options.start_probes = args->probes;
        refuse_output_over_input(options.screenshot_path, options.files, "--screenshot");
        refuse_output_over_input(options.save_report_path, options.files, "--save-report");
        refuse_output_over_input(args->loop.output, options.files, "-o");
        if (!args->select.empty()) {
            options.select_ns = parse_range(args->select);
        }
        if (!options.save_live_trace_path.empty() &&
            (!args->live || options.screenshot_path.empty())) {
            throw UsageError("--save-live-trace: needs --live and --screenshot");
        }
        if (!options.save_probe_tables_path.empty() &&
            (!args->probes || options.screenshot_path.empty())) {
            throw UsageError("--save-probe-tables: needs --probes and --screenshot");
        }
        if (!args->report_format.empty() && options.save_report_path.empty()) {
            throw UsageError("--format: only with --save-report FILE");
        }
        if (!options.save_report_path.empty()) {
            if (options.files.empty() || options.screenshot_path.empty()) {
                throw UsageError(
                    "--save-report: needs a file to view and --screenshot (e.g. loopscope view "
                    "FILE --screenshot out.png --save-report r.json)");
            }
            if (!args->report_format.empty()) {
                make_writer(args->report_format, {});  // an unknown name is a usage error
                options.save_report_format = args->report_format;
            } else if (const auto format = writer_format_for_path(options.save_report_path)) {
                options.save_report_format = *format;
            } else {
                throw UsageError("--save-report '" + options.save_report_path +
                                 "': no format for this extension (.json .md .csv .html .txt); "
                                 "give --format");
            }
        }
        if (!args->loop.output.empty()) {
            if (!args->live)
                throw UsageError("-o: the live harness's trace: only with --live");
            if (args->loop.output == "-")
                throw UsageError("-o: the viewer saves the live trace to a file, not to '-'");
            if (!options.screenshot_path.empty() && options.save_live_trace_path.empty())
                options.save_live_trace_path = args->loop.output;
        }
        options.live_config = loop_config(args->loop);
        options.live_trace_path = args->loop.output;
        exit_code = run_viewer(options);
    });
}

}  // namespace loopscope

#endif  // LOOPSCOPE_HAVE_VIEWER
