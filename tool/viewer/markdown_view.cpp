// Markdown blocks as ImGui widgets (see markdown_view.hpp).
#include "tool/viewer/markdown_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

namespace loopscope {

namespace {

void draw_sparkline(const Sparkline& s) {
    if (!s.left.empty()) {
        ImGui::TextUnformatted(s.left.c_str());
        ImGui::SameLine(0.0f, 4.0f);
    }
    const float bar_w = 6.0f, gap = 1.0f;
    const float h = ImGui::GetTextLineHeight();
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(static_cast<float>(s.levels.size()) * (bar_w + gap), h));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (std::size_t i = 0; i < s.levels.size(); ++i) {
        const float x = pos.x + static_cast<float>(i) * (bar_w + gap);
        if (s.levels[i] == 0) {
            // An empty bucket between used ones: a dot on the baseline, as "·" on a terminal.
            draw->AddRectFilled(ImVec2(x + bar_w * 0.5f - 1.0f, pos.y + h - 3.0f),
                                ImVec2(x + bar_w * 0.5f + 1.0f, pos.y + h - 1.0f),
                                kProbeSparkDotColour);
            continue;
        }
        const float bar_h = std::max(1.0f, h * static_cast<float>(s.levels[i]) / 8.0f);
        draw->AddRectFilled(ImVec2(x, pos.y + h - bar_h), ImVec2(x + bar_w, pos.y + h),
                            kProbeSparkColour);
    }
    if (!s.right.empty()) {
        ImGui::SameLine(0.0f, 4.0f);
        ImGui::TextUnformatted(s.right.c_str());
    }
}

void draw_table(const MarkdownBlock& b, int index, const char* id) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float row_h = ImGui::GetTextLineHeight() + style.CellPadding.y * 2.0f;
    // With ScrollX the table is a child window and needs its height: every row, the header and
    // room for the horizontal scroll bar, so it never scrolls vertically.
    const float height = row_h * static_cast<float>(b.rows.size() + 1) + style.ScrollbarSize + 6.0f;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
    ImGui::PushID(id);
    ImGui::PushID(index);
    if (ImGui::BeginTable("##md", static_cast<int>(b.header.size()), flags, ImVec2(0.0f, height))) {
        for (const std::string& h : b.header) {
            ImGui::TableSetupColumn(h.c_str());
        }
        ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
        ImGui::PushStyleColor(ImGuiCol_Text, kProbeHeaderColour);
        for (std::size_t c = 0; c < b.header.size(); ++c) {
            ImGui::TableSetColumnIndex(static_cast<int>(c));
            ImGui::TableHeader(b.header[c].c_str());
        }
        ImGui::PopStyleColor();
        Sparkline spark;
        for (const auto& row : b.rows) {
            ImGui::TableNextRow();
            for (std::size_t c = 0; c < row.size(); ++c) {
                ImGui::TableSetColumnIndex(static_cast<int>(c));
                const std::string& cell = row[c];
                if (parse_sparkline(cell, spark)) {
                    draw_sparkline(spark);
                    continue;
                }
                if (b.right_aligned[c]) {
                    const float w = ImGui::CalcTextSize(cell.c_str()).x;
                    const float room = ImGui::GetContentRegionAvail().x;
                    if (room > w) {
                        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room - w);
                    }
                }
                ImGui::TextUnformatted(cell.c_str());
            }
        }
        ImGui::EndTable();
    }
    ImGui::PopID();
    ImGui::PopID();
}

}  // namespace

void draw_markdown_blocks(const std::vector<MarkdownBlock>& blocks, const char* id) {
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const MarkdownBlock& b = blocks[i];
        switch (b.kind) {
            case MarkdownBlock::Kind::heading:
                if (i > 0) {
                    ImGui::Spacing();
                }
                ImGui::PushStyleColor(ImGuiCol_Text, kProbeHeadingColour);
                ImGui::TextUnformatted(b.text.c_str());
                ImGui::PopStyleColor();
                ImGui::Separator();
                break;
            case MarkdownBlock::Kind::paragraph:
                ImGui::TextWrapped("%s", b.text.c_str());
                break;
            case MarkdownBlock::Kind::bullet:
                ImGui::Bullet();
                ImGui::TextWrapped("%s", b.text.c_str());
                break;
            case MarkdownBlock::Kind::table:
                draw_table(b, static_cast<int>(i), id);
                break;
        }
    }
}

}  // namespace loopscope
