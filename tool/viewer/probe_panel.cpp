// The probe panel (see probe_panel.hpp). The worker thread runs the probe sequence that `loopscope
// probe` runs (probes/probe_run.hpp) and renders their results with the same Markdown writers; only
// the finished text crosses to the window's thread.
#include "tool/viewer/probe_panel.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string_view>

#include "core/units.hpp"
#include "probes/clock_probe.hpp"
#include "probes/clock_report.hpp"
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

ProbePanel::ProbePanel(bool log) : log_(log) {}

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
                r.blocks = parse_markdown_blocks(context_section_markdown(results.context));
            } else if (stage == ProbeStage::clocks) {
                r.blocks = parse_markdown_blocks(clocks_section_markdown(*results.clocks));
                r.seconds = static_cast<double>(results.clocks->elapsed_ns) / 1e9;
            } else {
                r.blocks = parse_markdown_blocks(render_timer_markdown(*results.timers));
                r.seconds = static_cast<double>(results.timers->elapsed_ns) / 1e9;
            }
            const std::lock_guard lock(mutex_);
            (stage == ProbeStage::context  ? shared_.context
             : stage == ProbeStage::clocks ? shared_.clocks
                                           : shared_.timers) = std::move(r);
        };
        run_probes(options, callbacks);
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
           shared_.timers || !shared_.error.empty();
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
        std::printf("probes: %s finished in %.1f s, %zu blocks\n", what, shown->seconds,
                    shown->blocks.size());
        std::fflush(stdout);
    }
}

void ProbePanel::poll() {
    const std::lock_guard lock(mutex_);
    settle_frames_ = std::max(0, settle_frames_ - 1);
    take(shared_.context, context_, nullptr);
    take(shared_.clocks, clocks_, "clock probe");
    take(shared_.timers, timers_, "timer probe");
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
        "%s", quick_ ? "(clocks 1 s, timers about 2.5 s)" : "(clocks 5 s, timers about 13 s)");

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

    const float w = ImGui::GetContentRegionAvail().x;
    ImGui::BeginChild("##probe_clocks", ImVec2(w * 0.5f - 4.0f, 0.0f), true);
    if (context_ && ImGui::CollapsingHeader("Machine context")) {
        draw_markdown_blocks(context_->blocks, "context");
    }
    if (clocks_) {
        ImGui::TextDisabled("clock probe: %s run, %.1f s", clocks_->quick ? "quick" : "full",
                            clocks_->seconds);
        draw_markdown_blocks(clocks_->blocks, "clocks");
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
        draw_markdown_blocks(timers_->blocks, "timers");
    } else {
        ImGui::TextDisabled(running && probe == "timer probe" ? "measuring the timers ..."
                                                              : "Timers: not run yet.");
    }
    ImGui::EndChild();
}

}  // namespace loopscope
