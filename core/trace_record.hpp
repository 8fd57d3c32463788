// One frame of a game loop as loopscope records it: the columns of the trace format v1 (see
// README.md, "Trace format"), in their order. The engine produces these, the recorder header
// writes them, `run` and `replay` save them and the reports read them back. The public recorder
// header owns the format (the column list, the row, the magic line; recorder/trace_text.hpp the
// row's text): this file gives its names to the rest of loopscope, so there is one definition.
#pragma once

#include <cstdint>

#include "loopscope/recorder.hpp"  // its always-on part: FrameRecord and trace_v1

namespace loopscope {

// FrameRecord is the header's.

// The header row of the trace format v1, in column order.
inline constexpr const char* kTraceColumns = trace_v1::kColumns;
inline constexpr const char* kTraceMagic = trace_v1::kMagic;
// A `# clock_went_back: ...` line after the rows: the recorder saw the game's clock go back.
inline constexpr const char* kTraceClockWentBackKey = trace_v1::kClockWentBackKey;
// Version 2: version 1 with the game's zones and marks (`zone,` and `mark,` lines).
inline constexpr const char* kTraceMagicV2 = trace_v1::kMagicV2;
// A `# live_attached_at_frame: N` line: the trace was recorded from a live stream joined while
// the game ran, its first row being the game's frame N > 0 (no start-up in it).
inline constexpr const char* kTraceAttachedAtFrameKey = "live_attached_at_frame";

}  // namespace loopscope
