// Sections of results as ImGui widgets (see section_view.hpp).
#include "tool/viewer/section_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

namespace loopscope {

namespace {

void draw_sparkline(const Sparkline& s) {
    if (s.levels.empty()) {
        ImGui::TextUnformatted(sparkline_text(s).c_str());  // "(empty)"
        return;
    }
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
        if (s.levels[i] <= 0) {
            // An empty bucket between used ones: a dot on the baseline, as "·" on a terminal.
            draw->AddRectFilled(ImVec2(x + bar_w * 0.5f - 1.0f, pos.y + h - 3.0f),
                                ImVec2(x + bar_w * 0.5f + 1.0f, pos.y + h - 1.0f),
                                kProbeSparkDotColour);
            continue;
        }
        const float bar_h = std::max(1.0f, h * static_cast<float>(std::min(s.levels[i], 8)) / 8.0f);
        draw->AddRectFilled(ImVec2(x, pos.y + h - bar_h), ImVec2(x + bar_w, pos.y + h),
                            kProbeSparkColour);
    }
    if (!s.right.empty()) {
        ImGui::SameLine(0.0f, 4.0f);
        ImGui::TextUnformatted(s.right.c_str());
    }
}

void draw_table(const MarkdownTable& table, int index, const char* id, DrawnTable* drawn) {
    const auto& columns = table.columns();
    if (columns.empty()) {
        return;  // ImGui refuses a table of no columns
    }
    const ImGuiStyle& style = ImGui::GetStyle();
    const float row_h = ImGui::GetTextLineHeight() + style.CellPadding.y * 2.0f;
    // With ScrollX the table is a child window and needs its height: every row, the header and
    // room for the horizontal scroll bar, so it never scrolls vertically.
    const float height =
        row_h * static_cast<float>(table.rows().size() + 1) + style.ScrollbarSize + 6.0f;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
    ImGui::PushID(id);
    ImGui::PushID(index);
    if (ImGui::BeginTable("##table", static_cast<int>(columns.size()), flags,
                          ImVec2(0.0f, height))) {
        for (const auto& c : columns) {
            ImGui::TableSetupColumn(c.title.c_str());
        }
        ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
        ImGui::PushStyleColor(ImGuiCol_Text, kProbeHeaderColour);
        for (std::size_t c = 0; c < columns.size(); ++c) {
            ImGui::TableSetColumnIndex(static_cast<int>(c));
            ImGui::TableHeader(columns[c].title.c_str());
            if (drawn) {
                drawn->columns.push_back(columns[c].title);
            }
        }
        ImGui::PopStyleColor();
        for (const auto& row : table.rows()) {
            ImGui::TableNextRow();
            if (drawn) {
                drawn->rows.emplace_back();
            }
            for (std::size_t c = 0; c < row.size(); ++c) {
                ImGui::TableSetColumnIndex(static_cast<int>(c));
                const TableCell& cell = row[c];
                if (cell.bars) {
                    draw_sparkline(*cell.bars);
                    if (drawn) {
                        drawn->rows.back().push_back(sparkline_text(*cell.bars));
                    }
                    continue;
                }
                if (columns[c].align == MarkdownTable::Align::right) {
                    const float w = ImGui::CalcTextSize(cell.text.c_str()).x;
                    const float room = ImGui::GetContentRegionAvail().x;
                    if (room > w) {
                        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room - w);
                    }
                }
                ImGui::TextUnformatted(cell.text.c_str());
                if (drawn) {
                    drawn->rows.back().push_back(cell.text);
                }
            }
        }
        ImGui::EndTable();
    }
    // A table ImGui skipped (scrolled out of view) is left with no columns in `drawn`: none of
    // it was drawn.
    ImGui::PopID();
    ImGui::PopID();
}

// A paragraph's line breaks end the terminal's lines; here the text wraps to the panel instead.
std::string joined_lines(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
}

}  // namespace

void draw_text_section(const TextSection& section, const char* id, DrawnSection* drawn) {
    if (drawn) {
        drawn->title = section.title;
        drawn->tables.clear();
    }
    for (std::size_t i = 0; i < section.blocks.size(); ++i) {
        const TextBlock& b = section.blocks[i];
        switch (b.kind) {
            case TextBlock::Kind::heading:
                if (i > 0) {
                    ImGui::Spacing();
                }
                ImGui::PushStyleColor(ImGuiCol_Text, kProbeHeadingColour);
                ImGui::TextUnformatted(b.text.c_str());
                ImGui::PopStyleColor();
                ImGui::Separator();
                break;
            case TextBlock::Kind::paragraph:
                ImGui::TextWrapped("%s", joined_lines(b.text).c_str());
                break;
            case TextBlock::Kind::bullets:
                for (const std::string& item : b.items) {
                    ImGui::Bullet();
                    ImGui::TextWrapped("%s", item.c_str());
                }
                break;
            case TextBlock::Kind::table:
                draw_table(b.table, static_cast<int>(i), id,
                           drawn ? &drawn->tables.emplace_back() : nullptr);
                break;
        }
    }
}

}  // namespace loopscope
