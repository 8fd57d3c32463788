// Sections of results (TextSection, common/markdown_table.hpp: the probes' headings, paragraphs,
// lists and tables) drawn with ImGui: the tables as real ImGui tables, the histogram cells as bars
// (the default font has no block characters). The same data the terminal prints as Markdown,
// drawn from the structs, with no Markdown in between.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "common/markdown_table.hpp"

namespace loopscope {

// Colours of the parts, distinct from every other panel's so the tests can find the tables in a
// screenshot.
inline constexpr ImU32 kProbeHeadingColour = IM_COL32(255, 214, 120, 255);
inline constexpr ImU32 kProbeHeaderColour = IM_COL32(120, 230, 160, 255);
inline constexpr ImU32 kProbeSparkColour = IM_COL32(190, 150, 255, 255);
inline constexpr ImU32 kProbeSparkDotColour = IM_COL32(110, 110, 130, 255);

// What draw_text_section handed to ImGui, table by table: the column titles and, per cell, the
// text drawn, or for a histogram drawn as bars sparkline_text() of the bars drawn. The viewer's
// headless test hook writes it, so that a test can compare the tab with the model.
struct DrawnTable {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
};
struct DrawnSection {
    std::string title;
    std::vector<DrawnTable> tables;
};

// Draws the section's blocks into the current ImGui window; `id` keeps the tables' ids apart.
// drawn: when given, receives what was drawn.
void draw_text_section(const TextSection& section, const char* id, DrawnSection* drawn = nullptr);

}  // namespace loopscope
