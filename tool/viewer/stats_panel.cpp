// The statistics table (see panels.hpp): the figure catalogue (core/figures.hpp) over each
// document's report, the same rows, values and definitions as `loopscope report`, and for a
// figure a capture cannot have the catalogue's reason instead of a number.
#include <imgui.h>

#include <string>
#include <vector>

#include "core/figures.hpp"
#include "tool/viewer/panels.hpp"

namespace loopscope {

void draw_stats_table(std::span<Document* const> docs,
                      const std::optional<RangeReportView>& range) {
    struct Column {
        std::string title;
        const CaptureReport* report;
        ImU32 colour;
    };
    std::vector<Column> columns;
    for (const Document* d : docs) {
        if (d->shown && d->report)
            columns.push_back({d->name, &*d->report, document_colour(d->colour_index)});
    }
    if (range)
        columns.push_back({range->label, &range->report, IM_COL32(90, 160, 255, 255)});
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
    for (const Column& c : columns)
        ImGui::TableSetupColumn(c.title.c_str());
    ImGui::TableSetupColumn("definition");
    ImGui::TableHeadersRow();
    std::string_view section;
    for (const Figure* f : summary_figures()) {
        // A row no column can have (the loop section of a PresentMon capture) is left out.
        const CaptureReport* first_with = nullptr;
        for (const Column& c : columns) {
            if (!figure_missing(*f, *c.report)) {
                first_with = c.report;
                break;
            }
        }
        if (!first_with)
            continue;
        if (f->section != section) {
            section = f->section;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextDisabled("%.*s", static_cast<int>(section.size()), section.data());
        }
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%.*s", static_cast<int>(f->label.size()), f->label.data());
        for (const Column& c : columns) {
            ImGui::TableNextColumn();
            if (const auto missing = figure_missing(*f, *c.report)) {
                ImGui::TextDisabled("n/a: %s", missing->c_str());
            } else {
                ImGui::PushStyleColor(ImGuiCol_Text, c.colour);
                ImGui::TextUnformatted(f->text(*c.report).c_str());
                ImGui::PopStyleColor();
            }
        }
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", figure_definition(*f, first_with).c_str());
    }
    ImGui::EndTable();
}

}  // namespace loopscope
