// What `loopscope record --connect` makes of a live stream, apart from the network and the file:
// the game's preamble checked as the trace reader checks one, each row checked likewise (a row
// the reader would refuse is left out and counted), the frames missing between the first and the
// last, the size bound, and the closing lines. The fuzz target `live` drives it with a stream
// from memory and holds the result to the trace reader.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/trace_record.hpp"
#include "readers/trace_check.hpp"
#include "recorder/trace_text.hpp"

namespace loopscope {

class LiveRecording {
  public:
    // Checks the game's preamble (throws InputError naming `where` when the trace reader would
    // refuse it) and keeps the trace within `max_bytes` (throws UsageError when even the preamble
    // does not fit).
    LiveRecording(const std::string& where, const std::string& preamble, std::uint64_t max_bytes);

    // The preamble as the file starts, ending in a line break.
    const std::string& preamble() const { return preamble_; }

    // Appends the text of `rows` that the reader takes to `text`; false, with the rest left out,
    // once the next row would take the trace past max_bytes.
    bool take(std::span<const FrameRecord> rows, std::string& text);
    // The same for the game's zones and marks (trace format v2 records); after a version 1
    // preamble, where the reader would refuse them, they are left out and counted.
    bool take_events(std::span<const trace_v1::EventRecord> events, std::string& text);

    // The lines the file ends with: the game's closing lines when the reader takes them after the
    // rows, a `# live_rows_left_out:` line when rows were left out, and a
    // `# live_attached_at_frame:` line when the first row kept is not the game's frame 0 (the
    // recording began mid-run: its first frames are no start-up); "" when nothing fits.
    std::string closing(std::string trailer);

    std::int64_t frames() const { return frames_; }
    std::int64_t events() const { return events_; }
    // The frame number of the first row kept (nullopt before one).
    std::optional<std::int64_t> first_frame() const { return first_frame_; }
    // Gaps in the frame numbers between the first and the last row kept (held at the int64
    // maximum rather than wrapping).
    std::int64_t missing() const { return missing_; }
    std::int64_t left_out() const { return left_out_; }
    // The first row left out and why ("frame 17: expected a time >= 0 ..."); "" when none.
    const std::string& first_left_out() const { return first_left_out_; }
    // Why the game's closing lines were not written ("" when they were, or there were none).
    const std::string& closing_note() const { return closing_note_; }
    std::uint64_t bytes() const { return bytes_; }
    std::uint64_t max_bytes() const { return max_bytes_; }

  private:
    std::string preamble_;
    std::uint64_t max_bytes_;
    std::uint64_t bytes_ = 0;
    std::size_t metadata_bytes_ = 0;
    TraceRowCheck check_;
    std::int64_t frames_ = 0;
    std::int64_t missing_ = 0;
    std::optional<std::int64_t> last_frame_;
    std::optional<std::int64_t> first_frame_;
    std::int64_t events_ = 0;
    bool v2_ = false;  // the preamble is a version 2 trace's: zone and mark records may follow
    std::int64_t left_out_ = 0;
    std::string first_left_out_;
    std::string closing_note_;
};

}  // namespace loopscope
