// Internal to the readers: one function per format family, each returning every stream of the
// file as a Capture (the caller picks one). Not part of the public API; see readers.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/capture.hpp"
#include "readers/readers.hpp"

namespace loopscope::detail {

// Limits that keep a reader's memory proportional to the frames it keeps, whatever the rows say.
// Every stream costs about 1.2 KB however few frames it has, so a file whose rows each name a new
// process or swap chain would take 17× its size (docs/reliability.md, "Limits"): real captures
// hold a few streams (PresentMon's -captureall of a busy desktop, a few hundred), so more than
// kMaxStreams is refused.
inline constexpr std::size_t kMaxStreams = 4096;
// The metadata lines (CapFrameX's `//Key=Value` lines, a trace's `# key: value`) hold a few lines
// of system information in practice, so their total size is bounded.
inline constexpr std::size_t kMaxMetadataBytes = 64 * 1024;

// The streams of a file whose metadata belongs to the file, not to a stream (PresentMon's
// family, CapFrameX JSON): the metadata is kept once, here, and given only to the stream the
// caller keeps. Copied into every stream, 64 KiB of `//Key=Value` lines and 4096 streams took
// 280 MB for a 352 KB file.
struct FileStreams {
    std::vector<Capture> streams;  // their own metadata only (none, for these formats)
    std::map<std::string, std::string> metadata;
    std::string format;  // as detect_format() names it, where the reading detected it
    // The file's bad cells and oddities, given with the metadata to the stream kept.
    DataQuality quality;
};

// What the trace reader makes of the loop columns (ReadOptions::frame_times_only and
// loop_figures_only): the records (Capture::loop), only the loop figures of all the frames
// computed while reading (Capture::loop_figures), or nothing.
enum class TraceLoopColumns { records, figures, none };
std::vector<Capture> read_trace_streams(const std::string& path,
                                        TraceLoopColumns loop = TraceLoopColumns::records);
std::vector<Capture> read_plain_streams(const std::string& path, const std::string& unit);
// How a reader may split a large file across threads (ReadOptions::threads, chunk_bytes).
struct ParallelRead {
    std::size_t threads = 1;              // 1 = the whole file on the calling thread
    std::size_t chunk_bytes = 8u << 20;   // a block of lines, cut into pieces for the threads
    std::uint64_t from_bytes = 1u << 20;  // smaller files are read on one thread
    bool map_file = false;                // ReadOptions::map_large_files
};
ParallelRead parallel_read_of(const ReadOptions& options);

// PresentMon in all its layouts, OCAT, FrameView and CapFrameX's legacy CSV; a large file in
// pieces on `parallel.threads` threads, with the result and the errors of one thread.
FileStreams read_presentmon_streams(const std::string& path, const ParallelRead& parallel = {});
std::vector<Capture> read_mangohud_streams(const std::string& path);
std::vector<Capture> read_afterburner_streams(const std::string& path);
FileStreams read_capframex_json_streams(const std::string& path);

// The PresentMon-family format a header row belongs to ("presentmon-1", "presentmon-2",
// "presentmon-2.4", "ocat", "frameview", "capframex-csv"), "" when it has no Application column.
// Throws InputError listing the columns found and expected when it has one but no known
// frame-time column.
std::string classify_presentmon_header(const std::vector<std::string>& columns,
                                       const std::string& path, std::int64_t line,
                                       bool after_capframex_preamble);

// How much of a file's beginning is checked for binary data.
inline constexpr std::size_t kBinaryCheckBytes = 4096;
// Throws InputError, with the line and column, at the first byte of `head`'s first
// kBinaryCheckBytes that no text capture holds: a control byte other than tab, CR and LF.
void reject_binary_head(const std::string& path, std::string_view head);

// Recognises the format from the first line of a text file (after "//" and MangoHud preamble
// handling). Shared by detect_format() and the PresentMon reader, which needs the layout.
std::string detect_format_of(const std::string& path);

}  // namespace loopscope::detail
