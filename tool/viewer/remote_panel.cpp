// The live game tab (see remote_panel.hpp).
#include "tool/viewer/remote_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <string_view>

#include "readers/readers.hpp"

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

RemoteGame::RemoteGame(const std::string& host_port)
    : where_(host_port), client_(host_port), doc_(window_.doc()) {
    doc_.name = "game at " + host_port;
    describe_as(doc_.capture, "loopscope-trace");
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
    incoming_events_.clear();
    open_ = client_.read(incoming_, 0, &incoming_events_);
    // Joined after the game's frame 0: its first frames are no start-up.
    if (!incoming_.empty() && window_.frames_received() == 0 && incoming_.front().frame > 0)
        doc_.capture.attached_mid_run = true;
    if (!incoming_.empty())
        window_.add(incoming_);
    // A zone arrives when it ends, so an inner zone comes before the zone around it: each is put
    // in its place, as the capture keeps them sorted by begin (and marks by time).
    for (const trace_v1::EventRecord& e : incoming_events_) {
        std::string label(e.label, e.label_bytes);
        if (e.kind == trace_v1::EventKind::zone) {
            auto& zones = doc_.capture.zones;
            const auto at = std::upper_bound(
                zones.begin(), zones.end(), e.begin_ns,
                [](std::int64_t begin, const Zone& z) { return begin < z.begin_ns; });
            zones.insert(at, {std::move(label), e.begin_ns, e.end_ns, e.frame, e.thread, e.depth});
        } else {
            auto& marks = doc_.capture.marks;
            const auto at =
                std::upper_bound(marks.begin(), marks.end(), e.begin_ns,
                                 [](std::int64_t t, const Mark& m) { return t < m.t_ns; });
            marks.insert(at, {std::move(label), e.begin_ns, e.frame});
        }
    }
    // Bounded as the frames are: past 65,536, the older half leaves.
    if (doc_.capture.zones.size() > 65536)
        doc_.capture.zones.erase(doc_.capture.zones.begin(), doc_.capture.zones.begin() + 32768);
    if (doc_.capture.marks.size() > 65536)
        doc_.capture.marks.erase(doc_.capture.marks.begin(), doc_.capture.marks.begin() + 32768);
    const auto now = std::chrono::steady_clock::now();
    if (window_.frames_received() != analysed_frames_ &&
        (std::chrono::duration<double>(now - last_analysis_).count() >= kAnalyseEveryS || !open_)) {
        doc_.analyse();
        analysed_frames_ = window_.frames_received();
        last_analysis_ = now;
    }
}

void RemoteGame::draw() {
    const float controls_w = 330.0f;
    ImGui::BeginChild("##remote_status", ImVec2(controls_w, 0), true);
    ImGui::TextWrapped("%s", doc_.name.c_str());
    ImGui::Text("clock: %s", client_.clock().c_str());
    ImGui::TextWrapped("%s", open_                      ? "connected, receiving"
                             : client_.ended_cleanly()  ? "the game closed its recorder"
                             : !client_.error().empty() ? client_.error().c_str()
                                                        : "the connection was lost");
    ImGui::Separator();
    ImGui::Text("frames %lld   time %.1f s", static_cast<long long>(window_.frames_received()),
                doc_.frames() ? doc_.end_ns() / 1e9 : 0.0);
    ImGui::Text("missing frames: %lld", static_cast<long long>(window_.missing_frames()));
    if (!window_.history().empty()) {
        // The frames before the window, decimated: the longest frame of each bucket.
        const auto& history = window_.history();
        std::int64_t longest = 0;
        history_ms_.resize(history.size());
        for (std::size_t i = 0; i < history.size(); ++i) {
            history_ms_[i] = static_cast<float>(history[i].max_frame_ns / 1e6);
            longest = std::max(longest, history[i].max_frame_ns);
        }
        ImGui::TextWrapped("the graphs and figures cover the newest %zu frames; the %lld before "
                           "them, longest frame of every %lld:",
                           doc_.frames(), static_cast<long long>(window_.history_frames()),
                           static_cast<long long>(window_.bucket_frames()));
        ImGui::PlotLines("##history", history_ms_.data(), static_cast<int>(history_ms_.size()), 0,
                         nullptr, 0.0f, FLT_MAX, ImVec2(controls_w - 20.0f, 50.0f));
        ImGui::Text("longest there: %.1f ms", longest / 1e6);
    }
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
