// The live game tab (see remote_panel.hpp).
#include "tool/viewer/remote_panel.hpp"

#include <imgui.h>

#include <string_view>

namespace loopscope {

namespace {

constexpr double kAnalyseEveryS = 0.25;

// The `# key: value` lines of the trace preamble the game sent, as a trace file's reader takes
// them into the capture's metadata (the loop knobs among them, for the loop figures).
void take_preamble(Capture& capture, const std::string& preamble) {
    std::string_view text(preamble);
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (line.size() < 3 || line.substr(0, 2) != "# ")
            continue;
        const auto colon = line.find(": ");
        if (colon == std::string_view::npos)
            continue;  // the magic line
        capture.metadata[std::string(line.substr(2, colon - 2))] =
            std::string(line.substr(colon + 2));
    }
}

}  // namespace

RemoteGame::RemoteGame(const std::string& host_port) : where_(host_port), client_(host_port) {
    doc_.name = "game at " + host_port;
    doc_.capture.source.format = "loopscope-trace";
    take_preamble(doc_.capture, client_.preamble());
    view_.follow = true;
    view_.t0_ns = -10e9;
    view_.t1_ns = 0.0;
    last_analysis_ = std::chrono::steady_clock::now();
}

void RemoteGame::poll() {
    if (!open_)
        return;
    incoming_.clear();
    open_ = client_.read(incoming_, 0);
    for (const FrameRecord& r : incoming_) {
        if (!doc_.capture.loop.empty() && r.frame > doc_.capture.loop.back().frame + 1)
            missing_frames_ += r.frame - doc_.capture.loop.back().frame - 1;
        append_record(doc_, r);
    }
    if (!incoming_.empty())
        doc_.sync_series();
    const auto now = std::chrono::steady_clock::now();
    if (doc_.frames() != analysed_frames_ &&
        (std::chrono::duration<double>(now - last_analysis_).count() >= kAnalyseEveryS || !open_)) {
        doc_.analyse();
        analysed_frames_ = doc_.frames();
        last_analysis_ = now;
    }
}

void RemoteGame::draw() {
    const float controls_w = 330.0f;
    ImGui::BeginChild("##remote_status", ImVec2(controls_w, 0), true);
    ImGui::TextWrapped("%s", doc_.name.c_str());
    ImGui::Text("clock: %s", client_.clock().c_str());
    ImGui::Text("%s", open_                     ? "connected, receiving"
                      : client_.ended_cleanly() ? "the game closed its recorder"
                                                : "the connection was lost");
    ImGui::Separator();
    ImGui::Text("frames %zu   time %.1f s", doc_.frames(),
                doc_.frames() ? (doc_.end_ns() - doc_.x_ns.front()) / 1e9 : 0.0);
    ImGui::Text("missing frames: %lld", static_cast<long long>(missing_frames_));
    ImGui::TextWrapped(
        "rows the game could not send to this viewer: %llu (its live stream "
        "dropped %llu in all)",
        static_cast<unsigned long long>(client_.dropped_for_client()),
        static_cast<unsigned long long>(client_.dropped_total()));
    ImGui::Text("received %.1f KiB", static_cast<double>(client_.bytes_received()) / 1024.0);
    ImGui::Separator();
    draw_loop_verdict(doc_);
    ImGui::EndChild();

    ImGui::SameLine();
    ImGui::BeginChild("##remote_graphs", ImVec2(0, 0), false);
    draw_growing_document_graphs(doc_, view_, settings_, 0.3f, 0.12f);
    Document* docs[] = {&doc_};
    draw_stats_table(docs, std::nullopt);
    ImGui::EndChild();
}

}  // namespace loopscope
