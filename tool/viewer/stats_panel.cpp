// The statistics table (see panels.hpp): the report's own figures (reports/frame_stats), one
// column per document, each row with its definition, so the viewer and `loopscope report` never
// disagree.
#include <fmt/format.h>
#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

#include "tool/viewer/panels.hpp"

namespace loopscope {

namespace {

struct Row {
    const char* figure;
    const char* definition;
    bool per_frame_only;  // meaningless for sampled logs (MangoHud)
    std::function<std::string(const FrameStats&)> value;
};

std::string ms(double v) {
    return fmt::format("{:.3f} ms", v);
}
std::string fps(double v) {
    return fmt::format("{:.1f}", v);
}

const std::vector<Row>& rows() {
    static const std::vector<Row> table = {
        {"frames", "frames in the series", false,
         [](const FrameStats& s) { return fmt::format("{}", s.frame_time.frames); }},
        {"duration", "sum of frame times", false,
         [](const FrameStats& s) { return fmt::format("{:.3f} s", s.frame_time.total_ns / 1e9); }},
        {"average FPS", "frames / total frame time", false,
         [](const FrameStats& s) { return fps(s.fps.average); }},
        {"min", "smallest frame time", false,
         [](const FrameStats& s) { return ms(s.frame_time.min_ms); }},
        {"mean", "total / frames", false,
         [](const FrameStats& s) { return ms(s.frame_time.mean_ms); }},
        {"stdev", "sample standard deviation", false,
         [](const FrameStats& s) { return ms(s.frame_time.stdev_ms); }},
        {"CV", "stdev / mean", false,
         [](const FrameStats& s) { return fmt::format("{:.3f}", s.frame_time.cv); }},
        {"p50", "linear interp. at p(N-1)", true,
         [](const FrameStats& s) { return ms(s.frame_time.p50_ms); }},
        {"p90", "linear interp. at p(N-1)", true,
         [](const FrameStats& s) { return ms(s.frame_time.p90_ms); }},
        {"p95", "linear interp. at p(N-1)", true,
         [](const FrameStats& s) { return ms(s.frame_time.p95_ms); }},
        {"p99", "linear interp. at p(N-1)", true,
         [](const FrameStats& s) { return ms(s.frame_time.p99_ms); }},
        {"p99.9", "linear interp. at p(N-1)", true,
         [](const FrameStats& s) { return ms(s.frame_time.p999_ms); }},
        {"max", "largest frame time", false,
         [](const FrameStats& s) { return ms(s.frame_time.max_ms); }},
        {"1% low", "FPS of the p99 frame time", true,
         [](const FrameStats& s) { return fps(s.fps.p1_low); }},
        {"0.1% low", "FPS of the p99.9 frame time", true,
         [](const FrameStats& s) { return fps(s.fps.p01_low); }},
        {"1% low average", "1000 / mean(ft >= p99) (CapFrameX)", true,
         [](const FrameStats& s) { return fps(s.fps.low1_average); }},
        {"0.1% low average", "1000 / mean(ft >= p99.9) (CapFrameX)", true,
         [](const FrameStats& s) { return fps(s.fps.low01_average); }},
        {"stutter (CapFrameX)", "ft > 2.5 x moving average; count, share of time", true,
         [](const FrameStats& s) {
             return fmt::format("{} ({:.2f}%)", s.stutter.frames.size(),
                                100 * s.stutter.time_share);
         }},
        {"hitches (Unreal)", "> 60 ms and >= 1.5 x previous; count, per minute", true,
         [](const FrameStats& s) {
             return fmt::format("{} ({:.2f}/min)", s.hitches.hitches.size(), s.hitches.per_minute);
         }},
        {"refresh", "rate frame times cluster on; share on grid", true,
         [](const FrameStats& s) {
             return s.refresh.rate_hz > 0 ? fmt::format("{} Hz ({:.1f}%)", s.refresh.rate_hz,
                                                        100 * s.refresh.on_grid_share)
                                          : std::string("none");
         }},
        {"variation < 2 ms", "|ft_i - ft_i-1|, share", true,
         [](const FrameStats& s) { return fmt::format("{:.1f}%", 100 * s.variation.share(0)); }},
        {"variation 2-4 ms", "|ft_i - ft_i-1|, share", true,
         [](const FrameStats& s) { return fmt::format("{:.1f}%", 100 * s.variation.share(1)); }},
        {"variation 4-8 ms", "|ft_i - ft_i-1|, share", true,
         [](const FrameStats& s) { return fmt::format("{:.1f}%", 100 * s.variation.share(2)); }},
        {"variation 8-12 ms", "|ft_i - ft_i-1|, share", true,
         [](const FrameStats& s) { return fmt::format("{:.1f}%", 100 * s.variation.share(3)); }},
        {"variation >= 12 ms", "|ft_i - ft_i-1|, share", true,
         [](const FrameStats& s) { return fmt::format("{:.1f}%", 100 * s.variation.share(4)); }},
    };
    return table;
}

}  // namespace

void draw_stats_table(std::span<Document* const> docs, const std::optional<RangeStatsView>& range) {
    struct Column {
        std::string title;
        const FrameStats* stats;
        bool per_frame;
        ImU32 colour;
    };
    std::vector<Column> columns;
    for (const Document* d : docs) {
        if (d->shown && d->stats_frames > 0) {
            columns.push_back(
                {d->name, &d->stats, d->capture.per_frame, document_colour(d->colour_index)});
        }
    }
    if (range) {
        columns.push_back({range->label, &range->stats, true, IM_COL32(90, 160, 255, 255)});
    }
    if (columns.empty()) {
        ImGui::TextDisabled("No frames yet.");
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("##stats", static_cast<int>(columns.size()) + 2, flags,
                           ImGui::GetContentRegionAvail())) {
        return;
    }
    ImGui::TableSetupScrollFreeze(1, 1);
    // The values come before the long definitions, so a narrow window still shows them.
    ImGui::TableSetupColumn("figure");
    for (const Column& c : columns) {
        ImGui::TableSetupColumn(c.title.c_str());
    }
    ImGui::TableSetupColumn("definition");
    ImGui::TableHeadersRow();
    for (const Row& row : rows()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row.figure);
        for (const Column& c : columns) {
            ImGui::TableNextColumn();
            if (row.per_frame_only && !c.per_frame) {
                ImGui::TextDisabled("n/a: sampled log");
            } else {
                ImGui::PushStyleColor(ImGuiCol_Text, c.colour);
                ImGui::TextUnformatted(row.value(*c.stats).c_str());
                ImGui::PopStyleColor();
            }
        }
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", row.definition);
    }
    ImGui::EndTable();
}

}  // namespace loopscope
