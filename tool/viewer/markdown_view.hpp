// Markdown blocks (markdown_blocks.hpp) drawn with ImGui: the tables as real ImGui tables, the
// histogram sparklines as bars (the default font has no block characters).
#pragma once

#include <imgui.h>

#include <vector>

#include "reports/markdown_blocks.hpp"

namespace loopscope {

// Colours of the parts, distinct from every other panel's so the tests can find the tables in a
// screenshot.
inline constexpr ImU32 kProbeHeadingColour = IM_COL32(255, 214, 120, 255);
inline constexpr ImU32 kProbeHeaderColour = IM_COL32(120, 230, 160, 255);
inline constexpr ImU32 kProbeSparkColour = IM_COL32(190, 150, 255, 255);
inline constexpr ImU32 kProbeSparkDotColour = IM_COL32(110, 110, 130, 255);

// Draws the blocks into the current ImGui window; `id` keeps the tables' ids apart.
void draw_markdown_blocks(const std::vector<MarkdownBlock>& blocks, const char* id);

}  // namespace loopscope
