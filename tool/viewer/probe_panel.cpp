// The probe panel (see probe_panel.hpp). The worker thread runs the probe sequence that `loopscope
// probe` runs (probes/probe_run.hpp) and builds each stage's section with the functions the
// terminal's Markdown comes from; only the finished sections cross to the window's thread.
#include "tool/viewer/probe_panel.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string_view>

#include "common/output_file.hpp"
#include "core/units.hpp"
#include "probes/clock_probe.hpp"
#include "probes/clock_report.hpp"
#include "probes/machine_load.hpp"
#include "probes/probe_json.hpp"
#include "probes/probe_run.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_probe.hpp"
#include "probes/timer_report.hpp"

namespace loopscope {

namespace {

// The clock probe's run length, as `loopscope probe clocks` (5 s) and `loopscope probe --quick`.
constexpr std::int64_t kClockProbeNs = 5 * kNsPerS;
constexpr std::int64_t kQuickClockProbeNs = kNsPerS;
// ImGui sizes a table's columns to their contents over its first frames: a table shown for the
// first time needs these frames before it is laid out (and ready for a screenshot).
constexpr int kSettleFrames = 3;

}  // namespace

ProbePanel::ProbePanel(bool log, bool record) : log_(log), record_(record) {}

ProbePanel::~ProbePanel() {
    if (worker_.joinable()) {
        worker_.join();
    }
}

void ProbePanel::start(Which which, bool quick) {
    {
        const std::lock_guard lock(mutex_);
        if (shared_.running) {
            return;
        }
        shared_.running = true;
        shared_.probe.clear();
        shared_.fraction = 0.0;
        shared_.detail.clear();
        shared_.error.clear();
    }
    if (worker_.joinable()) {
        worker_.join();  // the previous run has finished: running was false
    }
    error_.clear();
    // The load was read over the previous run and says nothing of this one; the new run's
    // comes when it ends.
    load_.reset();
    quick_ = quick;
    started_ = Clock::now();
    try {
        worker_ = std::thread([this, which, quick] { work(which, quick); });
    } catch (const std::exception& e) {
        // No thread (std::system_error: the process is out of threads): back to idle with the
        // reason in the panel, rather than buttons disabled for good and an exception through
        // the ImGui frame.
        const std::lock_guard lock(mutex_);
        shared_.running = false;
        shared_.error = std::string("could not start the probe thread: ") + e.what();
    }
}

void ProbePanel::work(Which which, bool quick) {
    const auto set_stage = [this](const char* probe) {
        const std::lock_guard lock(mutex_);
        shared_.probe = probe;
        shared_.fraction = 0.0;
        shared_.detail.clear();
    };
    const auto progress = [this](double fraction, std::string_view detail) {
        const std::lock_guard lock(mutex_);
        shared_.fraction = fraction;
        shared_.detail.assign(detail);
    };
    try {
        ProbeRunOptions options;
        options.clocks = which != Which::timers;
        options.timers = which != Which::clocks;
        options.clock.duration_ns = quick ? kQuickClockProbeNs : kClockProbeNs;
        options.timer = quick ? TimerProbeConfig::quick() : TimerProbeConfig::standard();
        options.quick = quick;
        ProbeRunCallbacks callbacks;
        callbacks.stage_started = [&](ProbeStage stage) {
            set_stage(stage == ProbeStage::context  ? "machine context"
                      : stage == ProbeStage::clocks ? "clock probe"
                                                    : "timer probe");
        };
        callbacks.progress = progress;
        // Each stage's tables cross to the window's thread as soon as they are measured.
        callbacks.stage_done = [&](ProbeStage stage, const ProbeResults& results) {
            Result r;
            r.quick = quick;
            if (stage == ProbeStage::context) {
                r.section = context_section(results.context);
            } else if (stage == ProbeStage::clocks) {
                r.section = clocks_section(*results.clocks);
                r.seconds = ns_to_s(results.clocks->elapsed_ns);
            } else {
                r.section = timers_section(*results.timers);
                r.seconds = ns_to_s(results.timers->elapsed_ns);
            }
            const std::lock_guard lock(mutex_);
            (stage == ProbeStage::context  ? shared_.context
             : stage == ProbeStage::clocks ? shared_.clocks
                                           : shared_.timers) = std::move(r);
        };
        ProbeResults results = run_probes(options, callbacks);
        // The load is read once more when the last stage has finished: its section comes last.
        Result load;
        load.quick = quick;
        load.section = machine_load_section(results.load, results.context.logical_cpus,
                                            results.timers.has_value());
        const std::lock_guard lock(mutex_);
        shared_.load = std::move(load);
        shared_.results = std::move(results);
    } catch (const std::exception& e) {
        const std::lock_guard lock(mutex_);
        shared_.error = e.what();
    } catch (...) {
        // Anything leaving the thread would end the viewer (std::terminate).
        const std::lock_guard lock(mutex_);
        shared_.error = "an exception that is not a std::exception";
    }
    const std::lock_guard lock(mutex_);
    shared_.run_s = std::chrono::duration<double>(Clock::now() - started_).count();
    shared_.running = false;
}

bool ProbePanel::busy() const {
    const std::lock_guard lock(mutex_);
    return settle_frames_ > 0 || shared_.running || shared_.context || shared_.clocks ||
           shared_.timers || shared_.load || !shared_.error.empty();
}

void ProbePanel::take(std::optional<Result>& pending, std::optional<Result>& shown,
                      const char* what) {
    if (!pending) {
        return;
    }
    shown = std::move(pending);
    pending.reset();
    settle_frames_ = kSettleFrames;
    if (log_ && what) {
        const auto& blocks = shown->section.blocks;
        const auto tables = std::count_if(blocks.begin(), blocks.end(), [](const TextBlock& b) {
            return b.kind == TextBlock::Kind::table;
        });
        std::printf("probes: %s finished in %.1f s, %td tables\n", what, shown->seconds, tables);
        std::fflush(stdout);
    }
}

void ProbePanel::poll() {
    const std::lock_guard lock(mutex_);
    settle_frames_ = std::max(0, settle_frames_ - 1);
    take(shared_.context, context_, nullptr);
    take(shared_.clocks, clocks_, "clock probe");
    take(shared_.timers, timers_, "timer probe");
    take(shared_.load, load_, nullptr);
    if (shared_.results) {
        results_ = std::move(shared_.results);
        shared_.results.reset();
    }
    if (!shared_.error.empty()) {
        error_ = std::move(shared_.error);
        shared_.error.clear();
        if (log_) {
            std::printf("probes: failed: %s\n", error_.c_str());
            std::fflush(stdout);
        }
    }
    if (!shared_.running) {
        last_run_s_ = shared_.run_s;
    }
}

void ProbePanel::draw() {
    bool running = false;
    std::string probe, detail;
    double fraction = 0.0;
    {
        const std::lock_guard lock(mutex_);
        running = shared_.running;
        probe = shared_.probe;
        detail = shared_.detail;
        fraction = shared_.fraction;
    }

    ImGui::BeginDisabled(running);
    if (ImGui::Button("Run clock probe")) {
        start(Which::clocks, quick_);
    }
    ImGui::SameLine();
    if (ImGui::Button("Run timer probe")) {
        start(Which::timers, quick_);
    }
    ImGui::SameLine();
    if (ImGui::Button("Run both")) {
        start(Which::both, quick_);
    }
    ImGui::SameLine();
    ImGui::Checkbox("quick", &quick_);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextDisabled(
        "%s", quick_ ? "(clocks 1 s, timers about 14 s)" : "(clocks 5 s, timers about 52 s)");

    if (running) {
        const double elapsed_s = std::chrono::duration<double>(Clock::now() - started_).count();
        ImGui::Text("running the %s, %.1f s", probe.c_str(), elapsed_s);
        ImGui::SameLine();
        ImGui::ProgressBar(static_cast<float>(fraction), ImVec2(240.0f, 0.0f));
        if (!detail.empty()) {
            ImGui::SameLine();
            ImGui::TextUnformatted(detail.c_str());
        }
    } else if (last_run_s_ > 0.0) {
        ImGui::Text("last run: %.1f s", last_run_s_);
    }
    if (!error_.empty()) {
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "the probe failed: %s", error_.c_str());
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped(
        "The probes time this machine, and the viewer competes with them for the CPU: while one "
        "runs the viewer redraws only 10 times a second and the Live tab's harness should stay "
        "closed. For figures to quote, close the viewer and run `loopscope probe` (the same "
        "measurements and tables).");
    ImGui::PopStyleColor();

    drawn_.clear();
    const auto draw_section = [this](const Result& r, const char* id) {
        draw_text_section(r.section, id, record_ ? &drawn_.emplace_back() : nullptr);
    };
    const float w = ImGui::GetContentRegionAvail().x;
    ImGui::BeginChild("##probe_clocks", ImVec2(w * 0.5f - 4.0f, 0.0f), true);
    // The machine first, as the terminal prints it: open, collapsible to leave the clocks room.
    if (context_ &&
        ImGui::CollapsingHeader(context_->section.title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
        draw_section(*context_, "context");
    }
    if (load_ &&
        ImGui::CollapsingHeader(load_->section.title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
        draw_section(*load_, "load");
    }
    if (clocks_) {
        ImGui::TextDisabled("clock probe: %s run, %.1f s", clocks_->quick ? "quick" : "full",
                            clocks_->seconds);
        draw_section(*clocks_, "clocks");
    } else {
        ImGui::TextDisabled(running && probe == "clock probe" ? "measuring the clocks ..."
                                                              : "Clock sources: not run yet.");
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("##probe_timers", ImVec2(0.0f, 0.0f), true);
    if (timers_) {
        ImGui::TextDisabled("timer probe: %s run, %.1f s", timers_->quick ? "quick" : "full",
                            timers_->seconds);
        draw_section(*timers_, "timers");
    } else {
        ImGui::TextDisabled(running && probe == "timer probe" ? "measuring the timers ..."
                                                              : "Timers: not run yet.");
    }
    ImGui::EndChild();
}

namespace {

ProbeJson drawn_table_json(const std::vector<std::string>& columns,
                           const std::vector<std::vector<std::string>>& rows) {
    ProbeJson t;
    t["columns"] = columns;
    t["rows"] = rows;
    return t;
}

}  // namespace

bool ProbePanel::save_tables(const std::string& path) const {
    if (!record_ || !results_) {
        std::fprintf(stderr, "loopscope view: %s: no finished probe run to save\n", path.c_str());
        return false;
    }
    ProbeJson sections = ProbeJson::array();
    const std::optional<Result>* const shown[] = {&context_, &load_, &clocks_, &timers_};
    std::size_t next_drawn = 0;
    for (const auto* r : shown) {
        if (!*r) {
            continue;
        }
        const TextSection& model = (*r)->section;
        ProbeJson section;
        section["title"] = model.title;
        section["model"] = ProbeJson::array();
        for (const TextBlock& b : model.blocks) {
            if (b.kind != TextBlock::Kind::table) {
                continue;
            }
            std::vector<std::string> columns;
            for (const auto& c : b.table.columns()) {
                columns.push_back(c.title);
            }
            std::vector<std::vector<std::string>> rows;
            for (const auto& row : b.table.rows()) {
                auto& cells = rows.emplace_back();
                for (const TableCell& cell : row) {
                    cells.push_back(cell.text);
                }
            }
            section["model"].push_back(drawn_table_json(columns, rows));
        }
        // A collapsed section was not drawn: its "drawn" is null.
        section["drawn"] = nullptr;
        if (next_drawn < drawn_.size() && drawn_[next_drawn].title == model.title) {
            section["drawn"] = ProbeJson::array();
            for (const DrawnTable& t : drawn_[next_drawn].tables) {
                section["drawn"].push_back(drawn_table_json(t.columns, t.rows));
            }
            ++next_drawn;
        }
        sections.push_back(std::move(section));
    }
    ProbeJson out;
    out["probe"] = probe_results_to_json(*results_);
    out["sections"] = std::move(sections);
    try {
        write_file_atomically(path, out.dump(1) + "\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "loopscope view: %s\n", e.what());
        return false;
    }
    return true;
}

}  // namespace loopscope
