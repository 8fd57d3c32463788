// The viewer's own main loop: opens the documents, then each frame polls events (dropped files
// open as new documents), runs one live-harness frame when its tab is shown, lays out the tabs
// and their panels, renders, and in screenshot mode writes the PNG after the last frame.
#include <SDL.h>
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "core/loop_scenarios.hpp"
#include "tool/viewer/demo_panel.hpp"
#include "tool/viewer/document.hpp"
#include "tool/viewer/live_panel.hpp"
#include "tool/viewer/panels.hpp"
#include "tool/viewer/probe_panel.hpp"
#include "tool/viewer/remote_panel.hpp"
#include "tool/viewer/screenshot.hpp"
#include "tool/viewer/viewer.hpp"
#include "tool/viewer/window.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

std::unique_ptr<Document> scenario_document(const std::string& name) {
    const Scenario* s = find_scenario(name);
    if (!s) {
        std::string names;
        for (const Scenario& known : builtin_scenarios()) {
            names += (names.empty() ? "" : ", ") + known.name;
        }
        throw UsageError(fmt::format("--scenario: no scenario '{}' (there are: {})", name, names));
    }
    std::vector<FrameRecord> records;
    run_virtual(s->model, s->config, s->frames,
                [&](const FrameRecord& r) { records.push_back(r); });
    return document_from_records("scenario " + s->name, std::move(records), s->config);
}

class App {
  public:
    explicit App(const ViewerOptions& options)
        : options_(options),
          live_(options.live_config, options.live_trace_path),
          probes_(!options.screenshot_path.empty(), !options.save_probe_tables_path.empty()),
          log_(!options.screenshot_path.empty()) {
        if (options.select_ns) {
            // As a shift-drag across the graph would, through the same TimeView.
            view_.select(static_cast<double>(options.select_ns->first),
                         static_cast<double>(options.select_ns->second));
        }
        for (const std::string& name : options.scenarios) {
            add(scenario_document(name));
        }
        for (const std::string& path : options.files) {
            add(load_document(path, options.process, options.strict));
        }
        if (!options.connect.empty()) {
            game_ = std::make_unique<RemoteGame>(options.connect);
        }
    }

    bool live_shown() const { return live_shown_; }
    // Headless: what the game's tab received, for the tests.
    void print_game_summary() const {
        if (game_) {
            fmt::print("connect: {} frames received from {}\n", game_->frames(), options_.connect);
            std::fflush(stdout);
        }
    }
    // A probe run is under way (or its results are still to be shown).
    bool probes_busy() const { return probes_.busy(); }
    bool save_probe_tables(const std::string& path) const { return probes_.save_tables(path); }

    void open_dropped(const std::vector<std::string>& paths) {
        for (const std::string& path : paths) {
            try {
                status_ = "opened " + path;
                add(load_document(path, options_.process, options_.strict));
            } catch (const std::exception& e) {
                status_ = e.what();  // a bad dropped file must not close the viewer
            }
            if (log_) {
                fmt::print("dropped: {}\n", status_);
                std::fflush(stdout);
            }
        }
    }

    // The scripted "save trace" click of a headless run: the live panel's own save. False when
    // it failed (the panel shows and this prints why).
    bool save_live_trace(const std::string& path) {
        const bool saved = live_.save_trace_as(path);
        fmt::print("live: {}\n", live_.save_message());
        std::fflush(stdout);
        return saved;
    }

    void tick_live() {
        if (live_shown_) {
            live_.tick();
        }
        if (game_) {
            game_->poll();
        }
    }

    void draw(int frame_index) {
        if (frame_index == 0 && options_.start_probes) {
            probes_.start(ProbePanel::Which::both, true);
        }
        probes_.poll();
        const ImGuiViewport* vp = ImGui::GetMainViewport();
        ImGui::SetNextWindowPos(vp->WorkPos);
        ImGui::SetNextWindowSize(vp->WorkSize);
        ImGui::Begin("loopscope", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                         ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
        live_shown_ = false;
        if (ImGui::BeginTabBar("##tabs")) {
            const auto flags = [&](ViewerTab tab) {
                return frame_index == 0 && options_.first_tab == tab ? ImGuiTabItemFlags_SetSelected
                                                                     : ImGuiTabItemFlags_None;
            };
            if (game_ && ImGui::BeginTabItem("Game (live)", nullptr, flags(ViewerTab::game))) {
                game_->draw();
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("Captures", nullptr, flags(ViewerTab::captures))) {
                draw_captures();
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("Live", nullptr, flags(ViewerTab::live))) {
                live_shown_ = true;
                live_.draw();
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("Loops demo", nullptr, flags(ViewerTab::demo))) {
                demo_.update_and_draw();
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("Probes", nullptr, flags(ViewerTab::probes))) {
                probes_.draw();
                ImGui::EndTabItem();
            }
            ImGui::EndTabBar();
        }
        ImGui::End();
    }

  private:
    void add(std::unique_ptr<Document> doc) {
        // What the reader doubted (a cut last row): on the status line and on stderr.
        for (const std::string& w : doc->capture.warnings) {
            fmt::print(stderr, "loopscope: warning: {}\n", w);
            status_ = "warning: " + w;
        }
        // What was odd or not a number in its data: the same, as the reports state it.
        for (const std::string& note : data_quality_notes(doc->capture.data_quality)) {
            fmt::print(stderr, "loopscope: {}: {}\n", doc->path, note);
            status_ = note;
        }
        doc->colour_index = next_colour_++;
        docs_.push_back(std::move(doc));
        primary_ = docs_.size() - 1;
        view_.fitted = false;
    }

    void draw_document_list() {
        if (docs_.empty()) {
            ImGui::TextDisabled(
                "Open traces and captures with `loopscope view FILE...` or drop files on this "
                "window.");
        }
        for (std::size_t i = 0; i < docs_.size(); ++i) {
            Document& d = *docs_[i];
            ImGui::PushID(static_cast<int>(i));
            ImGui::ColorButton("##c",
                               ImGui::ColorConvertU32ToFloat4(document_colour(d.colour_index)),
                               ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
            ImGui::SameLine();
            ImGui::Checkbox("##shown", &d.shown);
            ImGui::SameLine();
            if (ImGui::RadioButton(d.name.c_str(), primary_ == i)) {
                primary_ = i;
            }
            ImGui::SameLine();
            if (ImGui::SmallButton("close")) {
                close_ = i;
            }
            ImGui::SameLine();
            // The frame-time graph is the present timeline: say when it mixes application and
            // generated frames, as the report's heading does (shorter where the line has no
            // room for it). The duration is the time the frames cover, not a time on the axis.
            const std::string facts =
                fmt::format("{}, {} {}, {:.1f} s", d.capture.source.format, d.frames(),
                            d.capture.per_frame ? "frames" : "samples (not per frame)",
                            static_cast<double>(d.duration_ns()) / 1e9);
            const bool mixed = d.report && timeline_mixes_generated(*d.report);
            const std::string full = mixed ? facts + ", " + timeline_label(*d.report) : facts;
            const std::string shorter =
                mixed ? facts + ", application and generated frames mixed" : facts;
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
            fitted_text({full, shorter, facts});
            ImGui::PopStyleColor();
            ImGui::PopID();
        }
        if (!status_.empty()) {
            ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.4f, 1.0f), "%s", status_.c_str());
        }
    }

    // The primary document's frames under the selection, or nullopt without a selection.
    std::optional<SelectedFrames> selected_frames(const Document* primary) const {
        if (!primary || !view_.has_selection())
            return std::nullopt;
        const SelectedFrames f =
            frames_in_range(*primary, *view_.selection_begin_ns, *view_.selection_end_ns);
        if (f.last <= f.first)
            return std::nullopt;
        return f;
    }

    std::optional<RangeReportView> selection_report(const Document* primary) {
        const auto f = selected_frames(primary);
        if (!f)
            return std::nullopt;
        if (!range_ || range_doc_ != primary || range_->first != f->first ||
            range_->last != f->last) {
            range_.emplace(RangeReportView{
                fmt::format("frames {}-{} of {}", f->first, f->last - 1, primary->name), f->first,
                f->last, range_report(*primary, f->first, f->last)});
            range_doc_ = primary;
            if (log_) {
                log_range(*range_);
            }
        }
        return range_;
    }

    // The figures of a selected range, exactly (shortest round-trip form), for scripted runs.
    static void log_range(const RangeReportView& r) {
        const FrameStats& s = r.report.stats;
        const FrameTimeSummary& t = s.frame_time;
        fmt::print(
            "selection: {}: frames={} mean_ms={} p50_ms={} p99_ms={} max_ms={} fps={} "
            "fps_1pct_low={} hitches={}\n",
            r.label, t.frames, t.mean_ms, t.p50_ms, t.p99_ms, t.max_ms, s.fps.average, s.fps.p1_low,
            s.hitches.hitches.size());
        std::fflush(stdout);
    }

  public:
    // Writes the report of what the Captures tab shows (the primary document; its selected
    // range, if any) through the report writers: what `loopscope report FILE --from FIRST --to
    // LAST --format FORMAT` writes. False when it failed; save_message() says why.
    bool save_report(const std::string& path, const std::string& format) {
        try {
            if (docs_.empty())
                throw InputError(path, "no capture is open to report on");
            const Document& doc = *docs_[std::min(primary_, docs_.size() - 1)];
            if (doc.frames() == 0)
                throw InputError(path, doc.name + " has no frames yet");
            // Computed afresh: the live run's capture may have grown since the last analysis.
            const auto f = selected_frames(&doc);
            Report report;
            report.captures.push_back(f ? range_report(doc, f->first, f->last)
                                        : analyse_capture(doc.capture, {}));
            const auto writer = make_writer(format, {});
            OutputFile out(path);
            writer->write(report, out);
            out.commit();
            save_message_ =
                f ? fmt::format("saved the {} report of frames {}-{} of {} to {}", format, f->first,
                                f->last - 1, doc.name, path)
                  : fmt::format("saved the {} report of {} to {}", format, doc.name, path);
            return true;
        } catch (const std::exception& e) {
            save_message_ = e.what();
            return false;
        }
    }
    const std::string& save_message() const { return save_message_; }

  private:
    // The "Save report..." row: format, file, button; the outcome on the status line.
    void draw_save_report() {
        const auto formats = writer_formats();
        ImGui::PushItemWidth(90.0f);
        if (ImGui::BeginCombo("##format", formats[report_format_])) {
            for (std::size_t i = 0; i < formats.size(); ++i) {
                if (ImGui::Selectable(formats[i], i == report_format_))
                    report_format_ = i;
            }
            ImGui::EndCombo();
        }
        ImGui::PopItemWidth();
        ImGui::SameLine();
        ImGui::PushItemWidth(220.0f);
        ImGui::InputText("##report-path", report_path_.data(), report_path_.size());
        ImGui::PopItemWidth();
        ImGui::SameLine();
        if (ImGui::Button("Save report...")) {
            save_report(report_path_.data(), formats[report_format_]);
            status_ = save_message_;
        }
        ImGui::SameLine();
        ImGui::TextDisabled(view_.has_selection() ? "(the selected range)" : "(the whole capture)");
    }

    void draw_captures() {
        draw_document_list();
        if (close_ && *close_ < docs_.size()) {
            docs_.erase(docs_.begin() + static_cast<std::ptrdiff_t>(*close_));
            primary_ = docs_.empty() ? 0 : std::min(primary_, docs_.size() - 1);
            range_.reset();
            range_doc_ = nullptr;
        }
        close_.reset();
        if (docs_.empty()) {
            return;
        }
        std::vector<Document*> docs;
        double begin_ns = 0, end_ns = 0;
        for (auto& d : docs_) {
            docs.push_back(d.get());
            begin_ns = std::min(begin_ns, static_cast<double>(d->begin_ns()));
            end_ns = std::max(end_ns, static_cast<double>(d->end_ns()));
        }
        if (!view_.fitted) {
            view_.fit(begin_ns, end_ns);
        }
        Document* primary = docs[primary_];
        const float total = ImGui::GetContentRegionAvail().y;
        const bool loop = primary->has_loop();
        draw_frame_time_graph(docs, primary, view_, settings_, total * (loop ? 0.34f : 0.5f));
        if (loop) {
            draw_loop_graphs(*primary, view_, total * 0.1f);
        }
        const float rest = ImGui::GetContentRegionAvail().y;
        ImGui::BeginChild("##stats", ImVec2(ImGui::GetContentRegionAvail().x * 0.5f, rest), false);
        draw_save_report();
        draw_stats_table(docs, selection_report(primary));
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##hist", ImVec2(0, rest), false);
        draw_histogram_panel(docs, settings_, rest - 8.0f);
        ImGui::EndChild();
    }

    ViewerOptions options_;
    std::vector<std::unique_ptr<Document>> docs_;
    std::size_t primary_ = 0;
    int next_colour_ = 0;
    std::optional<std::size_t> close_;
    std::string status_;
    TimeView view_;
    GraphSettings settings_;
    std::optional<RangeReportView> range_;
    const Document* range_doc_ = nullptr;
    std::size_t report_format_ = 1;  // writer_formats()[1]: json
    std::array<char, 512> report_path_{"report.json"};
    std::string save_message_;
    LiveRun live_;
    std::unique_ptr<RemoteGame> game_;  // view --connect
    LoopsDemo demo_;
    ProbePanel probes_;
    bool log_ = false;  // headless: print what the scripted input did on standard output
    bool live_shown_ = false;
};

}  // namespace

int run_viewer(const ViewerOptions& options) {
    const bool screenshot = !options.screenshot_path.empty();
    // Headless screenshots need no display: SDL's offscreen driver gives GL through EGL.
    if (screenshot && !std::getenv("SDL_VIDEODRIVER") && !std::getenv("DISPLAY") &&
        !std::getenv("WAYLAND_DISPLAY")) {
        setenv("SDL_VIDEODRIVER", "offscreen", 1);
    }
    int exit_code = kExitOk;
    App app(options);  // reads every file before a window opens: bad input fails fast
    ViewerWindow window("loopscope view", options.width, options.height, screenshot);
    for (const std::string& path : options.drop_files) {
        window.push_drop_event(path);  // taken in by the first poll, as a real drop would be
    }
    using Clock = std::chrono::steady_clock;
    const auto viewer_start = Clock::now();
    // Headless with --probes, the screenshot waits for the probes' tables, but not forever.
    constexpr auto kProbeWaitLimit = std::chrono::seconds(120);
    for (int frame = 0;; ++frame) {
        const auto frame_start = Clock::now();
        std::vector<std::string> dropped;
        if (!window.poll_events(dropped)) {
            break;
        }
        app.open_dropped(dropped);
        // The live harness paces itself with its render cap; vsync would add its own waits.
        window.set_vsync(!app.live_shown());
        app.tick_live();
        if (screenshot && frame + 1 == options.frames && !options.save_live_trace_path.empty() &&
            !app.save_live_trace(options.save_live_trace_path)) {
            exit_code = kExitFailure;
        }
        window.begin_frame();
        clear_cut_labels();
        app.draw(frame);
        // After the frame that laid out the selection: the scripted click on "Save report...".
        if (screenshot && frame + 1 == options.frames && !options.save_report_path.empty()) {
            const bool saved =
                app.save_report(options.save_report_path, options.save_report_format);
            fmt::print("report: {}\n", app.save_message());
            std::fflush(stdout);
            if (!saved)
                exit_code = kExitFailure;
        }
        window.render();
        const bool probes_busy = app.probes_busy();
        const bool waited_too_long = Clock::now() - viewer_start > kProbeWaitLimit;
        if (screenshot && frame + 1 >= options.frames && (!probes_busy || waited_too_long)) {
            if (probes_busy) {
                std::fprintf(stderr,
                             "loopscope view: the probes did not finish within %lld s; the "
                             "screenshot shows them still running\n",
                             static_cast<long long>(kProbeWaitLimit.count()));
                exit_code = kExitFailure;
            }
            if (!options.save_probe_tables_path.empty() &&
                !app.save_probe_tables(options.save_probe_tables_path)) {
                exit_code = kExitFailure;
            }
            app.print_game_summary();
            // What the screenshot shows cut short, on standard error and only when there is
            // any: tests require none at the sizes they check.
            if (!cut_labels().empty()) {
                fmt::print(stderr, "labels cut: {}\n", cut_labels().size());
                for (const CutLabel& l : cut_labels()) {
                    fmt::print(stderr, "label cut: \"{}\" needs {:.0f} px, had {:.0f} px\n", l.text,
                               l.width_px, l.room_px);
                }
            }
            std::fflush(stdout);
            write_back_buffer_png(options.screenshot_path, window.drawable_width(),
                                  window.drawable_height());
            break;
        }
        window.present();
        if (probes_busy) {
            // The probes time this machine: leave them the CPU, redraw 10 times a second.
            std::this_thread::sleep_until(frame_start + std::chrono::milliseconds(100));
        } else if (screenshot && !app.live_shown()) {
            // Headless, vsync never blocks: pace at 60 Hz so animations advance as on a screen.
            std::this_thread::sleep_until(frame_start + std::chrono::microseconds(16'667));
        }
    }
    return exit_code;
}

}  // namespace loopscope
