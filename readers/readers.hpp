// Reading frame captures: loopscope traces, PresentMon (1.x, 2.x, 2.4+), OCAT, FrameView,
// CapFrameX (JSON and legacy CSV), MangoHud and plain lists of frame times. The format is
// recognised from the content, never from the file name. A capture holding several processes
// and swap chains is split into streams; one stream becomes the Capture that the statistics see.
// docs/input-formats.md describes every format and the choices made here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/capture.hpp"

namespace loopscope {

// Frame starts as the running sum of the frame times, from 0: for formats without a time column.
std::vector<std::int64_t> running_sum_starts(const std::vector<std::int64_t>& frame_ns);

struct ReadOptions {
    // Which stream to read: a process name (case-insensitive, ".exe" may be left out), a process
    // ID, or a swap chain address. "" = the stream with the most frames.
    std::string process;
    // Unit of the numbers in a plain list: ns, us, ms or s.
    std::string plain_unit = "ms";
    // Keep only the frame times and starts (frame_ns, start_ns): what a replay needs. A
    // loopscope trace's loop columns are then not kept (Capture::loop stays empty), which
    // takes its memory from about 150 to 16 bytes a frame.
    bool frame_times_only = false;
    // For a loopscope trace: compute the loop figures of all its frames while reading
    // (Capture::loop_figures) instead of keeping the loop records (Capture::loop), which takes
    // the trace from 128 to 16 bytes a frame. Enough for a report over the whole trace in a
    // format without per-frame loop columns; a range (--from, --to), the per-frame writers and
    // the viewer need the records.
    bool loop_figures_only = false;
    // Threads that parse a large PresentMon-family file, each a piece of every block of lines
    // (0 = one per hardware thread). The result, warnings and errors are those of one thread.
    unsigned threads = 0;
    // Bytes per block of lines when reading in pieces; 0 = the default (8 MiB, and files under
    // 1 MiB on one thread). A value set here also reads small files in pieces: for tests.
    std::size_t chunk_bytes = 0;
    // A file read in pieces is seen through memory mappings instead of copied into buffers
    // (Linux; elsewhere it is copied): the same result with less CPU. This sets a SIGBUS
    // handler for the process (see prepare_file_mapping in common/platform.hpp), so that a file
    // shortened by another program while it is read ends the program with one line and exit
    // status 2 instead of a crash; off by default for programs that handle signals themselves.
    bool map_large_files = false;
    // Refuse a capture that holds cells that are not the numbers their column holds (`Error`,
    // an empty cell, a negative or wrapped time; Capture::data_quality.bad_cells), naming the
    // file, line and column of the first. By default such cells are counted and the capture
    // read without them; `NA` cells are never refused.
    bool strict = false;
};

// One stream of a capture (one process's swap chain), as `report --list` shows it.
struct CaptureStreamInfo {
    std::string process;           // application name ("" when the format has none)
    std::int64_t process_id = -1;  // -1 when the format has none
    std::string swap_chain;        // swap chain address as text ("" when the format has none)
    std::size_t frames = 0;        // frames (samples for MangoHud and Afterburner)
    // Sum of the frame times; for sampled logs (MangoHud, Afterburner) the span from the first
    // sample's time to the last one's.
    double duration_s = 0.0;
};

// The format name of a file ("loopscope-trace", "presentmon-1", "presentmon-2",
// "presentmon-2.4", "ocat", "frameview", "capframex-json", "capframex-csv", "mangohud",
// "afterburner", "plain"), recognised from its first lines. Throws InputError for a missing, empty,
// binary or unknown file; an unknown column layout lists the columns found and the ones expected.
std::string detect_format(const std::string& path);

// What a capture of a format (as detect_format() names it) is, for the analysis to decide from:
// its columns, frame 0, generated frames, latency bases and tool rules (docs/input-formats.md).
// A name it does not know gets the default description.
CaptureDescription describe_format(std::string_view format);
// Names the capture's format and gives it that format's description: what every reader (and
// anything else that builds a Capture) calls.
void describe_as(Capture& capture, std::string format);

// Reads the stream chosen by `options` (by default the one with the most frames). Throws
// InputError (file:line:column where there is one) for anything malformed (no header, a row
// of the wrong width, binary data, a tool's summary instead of its capture), when
// options.process matches no stream (the message lists the streams there are), and for a bad
// cell with options.strict. Cells that are not numbers and odd rows are in data_quality.
Capture read_capture(const std::string& path, const ReadOptions& options = {});

// Every stream of a capture, most frames first.
std::vector<CaptureStreamInfo> list_capture_streams(const std::string& path,
                                                    const ReadOptions& options = {});

// The format (as detect_format() names it) and every stream, most frames first, from one
// reading: standard input ("-") and pipes, which can be read only once, are listed too.
struct CaptureListing {
    std::string format;
    std::vector<CaptureStreamInfo> streams;
};
CaptureListing list_capture(const std::string& path, const ReadOptions& options = {});

}  // namespace loopscope
