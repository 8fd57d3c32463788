// Internal to the readers: one function per format family, each returning every stream of the
// file as a Capture (the caller picks one). Not part of the public API; see readers.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/capture.hpp"
#include "reports/readers.hpp"

namespace loopscope::detail {

// Limits that keep a reader's memory proportional to the frames it keeps, whatever the rows say.
// Every stream costs about 1 KB however few frames it has, so a file whose rows each name a new
// process or swap chain would take 25× its size: real captures hold a few streams (PresentMon's
// -captureall of a busy desktop, a few hundred), so more than kMaxStreams is refused.
inline constexpr std::size_t kMaxStreams = 4096;
// The file's metadata (CapFrameX's `//Key=Value` lines, a trace's `# key: value`) is given to
// every stream, so its total size is bounded: a few lines of system information in practice.
inline constexpr std::size_t kMaxMetadataBytes = 64 * 1024;

std::vector<Capture> read_trace_streams(const std::string& path, bool frame_times_only = false);
std::vector<Capture> read_plain_streams(const std::string& path, const std::string& unit);
// PresentMon in all its layouts, OCAT, FrameView and CapFrameX's legacy CSV.
std::vector<Capture> read_presentmon_streams(const std::string& path);
std::vector<Capture> read_mangohud_streams(const std::string& path);
std::vector<Capture> read_capframex_json_streams(const std::string& path);

// The PresentMon-family format a header row belongs to ("presentmon-1", "presentmon-2",
// "presentmon-2.4", "ocat", "frameview", "capframex-csv"), "" when it has no Application column.
// Throws InputError listing the columns found and expected when it has one but no known
// frame-time column.
std::string classify_presentmon_header(const std::vector<std::string>& columns,
                                       const std::string& path, std::int64_t line,
                                       bool after_capframex_preamble);

// Recognises the format from the first line of a text file (after "//" and MangoHud preamble
// handling). Shared by detect_format() and the PresentMon reader, which needs the layout.
std::string detect_format_of(const std::string& path);

}  // namespace loopscope::detail
