// `loopscope diagnose`: the whole diagnosis of this machine in one run. It probes the clock
// sources and the ways to wait, runs the loop scenarios on the real clock (real busy work, a real
// limiter), reads each scenario's trace back through the same reader and analysis as
// `loopscope report`, and writes one report that ties them together: Markdown on the terminal
// and in diagnosis.md, a self-contained index.html, the probe results as JSON and every trace.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/markdown_table.hpp"
#include "common/output_file.hpp"
#include "common/terminal.hpp"
#include "core/analysis.hpp"
#include "core/duration.hpp"
#include "core/loop_figures.hpp"
#include "core/loop_scenarios.hpp"
#include "core/units.hpp"
#include "probes/clock_probe.hpp"
#include "probes/clock_report.hpp"
#include "probes/diagnosis_summary.hpp"
#include "probes/loop_runner.hpp"
#include "probes/probe_json.hpp"
#include "probes/probe_run.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_probe.hpp"
#include "probes/timer_report.hpp"
#include "readers/readers.hpp"
#include "tool/commands.hpp"
#include "tool/loop_summary.hpp"
#include "tool/probe_print.hpp"
#include "writers/html_bars.hpp"
#include "writers/html_chart.hpp"
#include "writers/palette.hpp"
#include "writers/section_html.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

struct DiagnoseArgs {
    std::string output_dir = "loopscope-report";
    bool quick = false;
};

// The scenarios the diagnosis runs on the real clock, each for a bounded time: a steady loop,
// a display faster than the simulation, a hitch, and the spiral held by both guards.
struct DiagnosisScenario {
    const char* name;
    std::int64_t seconds;        // default run
    std::int64_t quick_seconds;  // --quick
};
constexpr DiagnosisScenario kScenarios[] = {
    {"steady-60", 3, 1},
    {"display-144-sim-60", 3, 1},
    {"hitch-200ms", 4, 3},
    {"spiral-clamp-cap", 6, 4},
};

// The spiral scenario ramps its step cost over 600 frames (10 s at 60 Hz); the diagnosis
// compresses the ramp into its first second so the onset falls inside a run of a few seconds.
constexpr std::int64_t kDiagnosisRampFrames = 60;

struct ScenarioOutcome {
    const Scenario* scenario = nullptr;
    std::string trace_path;  // relative to the output folder
    RealRunResult run;
    Capture capture;  // the trace as read back
    LoopConfig config;
};

MarkdownTable scenario_table(const std::vector<ScenarioOutcome>& outcomes,
                             const std::vector<CaptureReport>& reports) {
    MarkdownTable t;
    t.add_column("scenario", MarkdownTable::Align::left);
    t.add_column("frames");
    t.add_column("avg FPS");
    t.add_column("p99 frame");
    t.add_column("max frame");
    t.add_column("stutter time (frames)");
    t.add_column("steps/frame (max)");
    t.add_column("lost to guards");
    t.add_column("verdict", MarkdownTable::Align::left);
    t.add_column("slow motion");
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const CaptureReport& r = reports[i];
        const FrameStats& s = r.stats;
        const LoopFigures& f = *r.loop_figures;
        t.add_row({
            outcomes[i].scenario->name,
            fmt::format("{}", s.frame_time.frames),
            fmt::format("{:.1f}", s.fps.average),
            fmt::format("{:.2f} ms", s.frame_time.p99_ms),
            fmt::format("{:.2f} ms", s.frame_time.max_ms),
            fmt::format("{} ({:.1f}%)", s.stutter.frames.size(), s.stutter.time_share * 100.0),
            fmt::format("{:.2f} ({})", f.mean_steps_per_frame(), f.max_steps_per_frame),
            format_duration(f.clamp_lost_ns + f.cap_dropped_ns),
            verdict_brief(f),
            f.slow_motion_factor ? fmt::format("{:.2f}x", *f.slow_motion_factor) : "-",
        });
    }
    return t;
}

constexpr std::string_view kLoopsHeading = "Game loops on the real clock";

TextSection loops_section(const std::vector<ScenarioOutcome>& outcomes,
                          const std::vector<CaptureReport>& reports) {
    TextSection section;
    section.title = kLoopsHeading;
    section.add_heading(section.title);
    section.add_paragraph(
        "Each scenario runs the loop engine on this machine's clock with real busy work for "
        "the step and render costs and a sleep+spin limiter; its trace is read back and "
        "analysed like any capture. Stutter time: CapFrameX's time rule (frames, share of "
        "the time). Lost to "
        "guards: real time the clamp dropped plus simulation time the step cap dropped. "
        "Verdict: ok (the backlog stays bounded), saturated (the guards hold the loop in slow "
        "motion although a step costs less than dt / timescale) or spiral (a step costs at "
        "least dt / timescale), from the frame where the backlog starts to grow. Slow motion: "
        "simulation time / real time from that onset on.");
    section.add_table(scenario_table(outcomes, reports));
    std::vector<std::string> items;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const ScenarioOutcome& o = outcomes[i];
        const LoopFigures& f = *reports[i].loop_figures;
        std::string out =
            fmt::format("`{}`: {} ({}, clock {}", o.scenario->name, o.scenario->description,
                        format_loop_config(o.config), o.run.clock);
        if (o.scenario->model.ramp_frames > 0)
            out += fmt::format("; step-cost ramp compressed into its first {} frames",
                               kDiagnosisRampFrames);
        // Frozen only where nothing bounded the frame time: held by a guard, the loop was still
        // advancing when the run's time limit cut it.
        if (o.run.cut_short && loop_froze(f, o.config))
            out += "; the loop froze and the run was cut short";
        else if (o.run.cut_short)
            out += "; the run's time limit cut it while the loop was still advancing";
        if (o.run.dropped_frames > 0)
            out += fmt::format("; the recorder dropped {} frames", o.run.dropped_frames);
        out += fmt::format("). Trace: `{}`. Cause: {}", o.trace_path, f.cause);
        items.push_back(std::move(out));
    }
    section.add_bullets(std::move(items));
    return section;
}

// Stages 1 and 2: the context, the clocks and the timers (the probe sequence every front end
// runs), under a "1/3 clocks", "2/3 timers" progress line. Their tables are printed with the
// rest, after the summary that rests on them.
ProbeResults probe_machine(bool quick, std::string_view title) {
    ProbeRunOptions options;
    options.clock.duration_ns = (quick ? 2 : 5) * kNsPerS;
    options.clock.min_reads = quick ? 200'000 : 1'000'000;
    options.timer = quick ? TimerProbeConfig::quick() : TimerProbeConfig::standard();
    options.quick = quick;
    return run_probes_and_print(options, title, false, {"1/3 clocks", "2/3 timers"});
}

// Stage 3: the loop scenarios on the real clock, each trace written under DIR/traces and read
// back as a capture.
std::vector<ScenarioOutcome> run_scenarios(bool quick, const std::filesystem::path& dir) {
    std::vector<ScenarioOutcome> outcomes;
    outcomes.reserve(std::size(kScenarios));
    Progress progress("3/3 loops");
    std::size_t done = 0;
    for (const DiagnosisScenario& ds : kScenarios) {
        const Scenario* scenario = find_scenario(ds.name);
        if (!scenario)
            throw std::logic_error(fmt::format("no scenario '{}'", ds.name));
        progress.update(static_cast<double>(done) / std::size(kScenarios), ds.name);
        ScenarioOutcome o;
        o.scenario = scenario;
        o.config = scenario->config;
        o.trace_path = fmt::format("traces/{}.csv", ds.name);
        RealRunOptions ro;
        ro.model = scenario->model;
        if (ro.model.ramp_frames > 0) {
            ro.model.ramp_start_frame = 0;
            ro.model.ramp_frames = kDiagnosisRampFrames;
        }
        ro.config = scenario->config;
        ro.duration_ns = (quick ? ds.quick_seconds : ds.seconds) * kNsPerS;
        ro.hard_limit_ns = ro.duration_ns * 2;
        ro.trace_path = (dir / o.trace_path).string();
        ro.metadata = {{"scenario", scenario->name}};
        o.run = run_real(ro);
        if (!o.run.trace_ok)
            throw std::runtime_error(fmt::format("could not write the trace '{}'", ro.trace_path));
        o.capture = read_capture(ro.trace_path);
        outcomes.push_back(std::move(o));
        ++done;
    }
    return outcomes;
}

// The same analysis as `loopscope report` on each scenario's trace.
std::vector<CaptureReport> analyse_scenarios(const std::vector<ScenarioOutcome>& outcomes) {
    std::vector<CaptureReport> reports;
    reports.reserve(outcomes.size());
    for (const ScenarioOutcome& o : outcomes) {
        reports.push_back(analyse_capture(o.capture, AnalysisOptions{}));
        if (!reports.back().loop_figures) {
            throw std::logic_error(
                fmt::format("the trace of {} has no loop columns", o.scenario->name));
        }
    }
    return reports;
}

// Every scenario's frame times on one chart, from each run's first frame: the steady loop, the
// hitch and the spiral side by side, on a log axis so a 16 ms frame and a 200 ms hitch both
// read. The rows of all scenarios are merged in time; a scenario has no value at another's
// rows, and its line joins its own frames.
std::string scenario_frame_times_chart(const std::vector<ScenarioOutcome>& outcomes,
                                       const std::vector<CaptureReport>& reports) {
    struct Row {
        std::int64_t start_ns;
        std::size_t scenario;
        std::int64_t frame_ns;
    };
    std::vector<Row> rows;
    for (std::size_t s = 0; s < reports.size(); ++s) {
        const Series& series = reports[s].series;
        for (std::size_t i = 0; i < series.frame_ns.size(); ++i)
            rows.push_back({series.start_ns[i] - series.start_ns[0], s, series.frame_ns[i]});
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.start_ns < b.start_ns; });
    Chart chart;
    chart.id = "scenario-frame-times";
    chart.title = "Frame times of every scenario (log scale)";
    chart.x_label = "time since the scenario's first frame (s)";
    chart.y_label = "frame time (ms)";
    chart.y_log = true;
    chart.keep = ChartKeep::columns;
    std::vector<std::string> names;
    for (std::size_t s = 0; s < outcomes.size(); ++s) {
        ChartSeries series;
        series.label = outcomes[s].scenario->name;
        series.colour = series_colour(s);
        series.values.assign(rows.size(), kChartNoValue);
        chart.series.push_back(std::move(series));
        names.push_back(outcomes[s].scenario->name);
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        chart.x.push_back(ns_to_s(rows[i].start_ns));
        chart.series[rows[i].scenario].values[i] = ns_to_ms(rows[i].frame_ns);
    }
    return chart_html(chart) + html_series_key(names);
}

// The report: its title, then its sections.
struct DiagnosisText {
    std::string title;
    std::vector<TextSection> sections;
};

// As printed and in diagnosis.md: "# title", then each section's Markdown after a blank line.
std::string diagnosis_markdown(const DiagnosisText& text) {
    std::string markdown = fmt::format("# {}\n", text.title);
    for (const TextSection& section : text.sections)
        markdown += "\n" + render_markdown(section);
    return markdown;
}

// The files: Markdown (the report as printed), HTML (the same sections plus each scenario's
// plots), the probe JSON.
void write_diagnosis_files(const std::filesystem::path& dir, const DiagnosisText& text,
                           const std::vector<ScenarioOutcome>& outcomes,
                           const std::vector<CaptureReport>& reports, const ProbeResults& probes) {
    write_file_atomically((dir / "diagnosis.md").string(), diagnosis_markdown(text));

    std::string html = html_document_start("loopscope diagnosis");
    HtmlHeadingIds ids;
    html += html_heading(1, text.title, TextMarkup::inline_markup, ids);
    for (const TextSection& section : text.sections) {
        html += html_section(section, TextMarkup::inline_markup, ids);
        if (section.title == kLoopsHeading)
            html += scenario_frame_times_chart(outcomes, reports);
    }
    html += "<h1>Scenario reports</h1>\n";
    for (std::size_t i = 0; i < reports.size(); ++i)
        html += html_capture_section(reports[i], fmt::format("{}: ", outcomes[i].scenario->name));
    html += "</body></html>\n";
    write_file_atomically((dir / "index.html").string(), html);

    write_file_atomically((dir / "probe.json").string(),
                          probe_results_to_json(probes).dump(2) + "\n");
}

int run_diagnose(const DiagnoseArgs& args) {
    namespace fs = std::filesystem;
    if (args.output_dir.empty())
        throw UsageError("-o: expected a folder to write the report to, got ''");
    const fs::path dir = args.output_dir;
    std::error_code ec;
    fs::create_directories(dir / "traces", ec);
    if (ec) {
        throw UsageError(
            fmt::format("cannot create the output folder '{}': {}", dir.string(), ec.message()));
    }

    constexpr std::string_view kTitle = "loopscope diagnosis of this machine";
    const ProbeResults probes = probe_machine(args.quick, kTitle);
    const SystemContext& context = probes.context;

    const std::vector<ScenarioOutcome> outcomes = run_scenarios(args.quick, dir);
    const std::vector<CaptureReport> reports = analyse_scenarios(outcomes);

    // The answer first, then the tables it rests on.
    std::vector<ScenarioVerdict> verdicts;
    for (std::size_t i = 0; i < outcomes.size(); ++i)
        verdicts.push_back({outcomes[i].scenario->name, verdict_brief(*reports[i].loop_figures)});
    const std::vector<DiagnosisLine> summary = diagnosis_summary(probes, verdicts, kLoopsHeading);
    DiagnosisText text;
    text.title = kTitle;
    text.sections = {
        diagnosis_summary_section(summary),
        context_section(context),
        clocks_section(*probes.clocks),
        timers_section(*probes.timers),
        machine_load_section(probes.load, context.logical_cpus, probes.timers.has_value()),
        loops_section(outcomes, reports),
    };
    fmt::print("{}", diagnosis_markdown(text));
    std::fflush(stdout);
    write_diagnosis_files(dir, text, outcomes, reports, probes);

    fmt::print(
        "\n## Files\n\n- `{0}/index.html`: this report with plots of every scenario\n"
        "- `{0}/diagnosis.md`: this report as Markdown\n"
        "- `{0}/probe.json`: the probe results (compare two machines with `loopscope probe "
        "compare`)\n- `{0}/traces/*.csv`: the loop traces (open with `loopscope report` or "
        "`loopscope view`)\n",
        dir.string());
    return kExitOk;
}

}  // namespace

void add_diagnose_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<DiagnoseArgs>();
    CLI::App* cmd = app.add_subcommand(
        "diagnose",
        "Diagnose this machine: its context, the clock and timer probes, and the game-loop "
        "scenarios on the real clock. Prints the report as Markdown and writes the output "
        "folder: index.html (the whole report, with plots), diagnosis.md (the report as "
        "printed), probe.json (for probe compare) and traces/*.csv (the scenario traces, for "
        "report, replay and view).");
    cmd->add_option("-o,--output", args->output_dir, "Output folder (created if missing)")
        ->capture_default_str();
    cmd->add_flag("--quick", args->quick,
                  "A shorter run: about 24 s instead of about 70 s, with fewer samples");
    cmd->callback([args, &exit_code] { exit_code = run_diagnose(*args); });
}

}  // namespace loopscope
