// A live stream made into a trace file's text (see live_record.hpp).
#include "tool/live_record.hpp"

#include <fmt/format.h>

#include <map>

#include "common/errors.hpp"
#include "recorder/trace_text.hpp"

namespace loopscope {

namespace {

std::map<std::string, std::string> checked_metadata(const std::string& where,
                                                    const std::string& preamble,
                                                    std::size_t& metadata_bytes) {
    return check_trace_preamble(where, preamble, metadata_bytes);
}

}  // namespace

LiveRecording::LiveRecording(const std::string& where, const std::string& preamble,
                             std::uint64_t max_bytes)
    : preamble_(preamble),
      max_bytes_(max_bytes),
      check_(trace_dt_ns(checked_metadata(where, preamble, metadata_bytes_))) {
    if (preamble_.empty() || preamble_.back() != '\n')
        preamble_ += '\n';
    if (preamble_.size() > max_bytes_) {
        throw UsageError(
            fmt::format("--max-bytes: {} bytes is less than the game's trace "
                        "preamble ({} bytes)",
                        max_bytes_, preamble_.size()));
    }
    bytes_ = preamble_.size();
    // The preamble's first line that is not blank is a magic line (checked above).
    const std::size_t magic = preamble_.find("# loopscope-trace v");
    v2_ = magic != std::string::npos &&
          preamble_.compare(magic, std::string_view(kTraceMagicV2).size(), kTraceMagicV2) == 0;
}

bool LiveRecording::take(std::span<const FrameRecord> rows, std::string& text) {
    char row[trace_v1::kMaxRowChars];
    for (const FrameRecord& r : rows) {
        if (const auto problem = check_.take(r)) {
            if (left_out_++ == 0)
                first_left_out_ = fmt::format("frame {}: {}", r.frame, *problem);
            continue;
        }
        const auto length = static_cast<std::size_t>(trace_v1::format_row(row, r) - row);
        if (bytes_ + length > max_bytes_)
            return false;
        text.append(row, length);
        bytes_ += length;
        if (last_frame_ && r.frame > *last_frame_) {
            // The frames between: r.frame - last - 1, which a frame number far from the last
            // (a peer's nonsense) can put past the int64 range.
            std::int64_t gap = 0;
            if (__builtin_sub_overflow(r.frame, *last_frame_, &gap) ||
                __builtin_add_overflow(missing_, gap - 1, &missing_))
                missing_ = INT64_MAX;
        }
        last_frame_ = r.frame;
        if (!first_frame_)
            first_frame_ = r.frame;
        ++frames_;
    }
    return true;
}

bool LiveRecording::take_events(std::span<const trace_v1::EventRecord> events, std::string& text) {
    char line[trace_v1::kMaxEventChars];
    for (const trace_v1::EventRecord& e : events) {
        // As the reader takes them: in a version 2 trace, times >= 0, a zone ending no earlier
        // than it began.
        if (!v2_ || e.begin_ns < 0 || e.end_ns < e.begin_ns) {
            if (left_out_++ == 0) {
                first_left_out_ =
                    fmt::format("a {} at frame {}: {}",
                                e.kind == trace_v1::EventKind::zone ? "zone" : "mark", e.frame,
                                v2_ ? fmt::format("its times {} to {} ns", e.begin_ns, e.end_ns)
                                    : std::string("the game's preamble is a version 1 trace's"));
            }
            continue;
        }
        const auto length = static_cast<std::size_t>(trace_v1::format_event(line, e) - line);
        if (bytes_ + length > max_bytes_)
            return false;
        text.append(line, length);
        bytes_ += length;
        ++events_;
    }
    return true;
}

std::string LiveRecording::closing(std::string trailer) {
    // The count of rows left out first: it is this program's own line, and the metadata bound
    // holds for all the lines together.
    std::string own;
    if (left_out_ > 0) {
        own = fmt::format(
            "# live_rows_left_out: {} (the trace reader refuses them; the first, "
            "{})\n",
            left_out_, first_left_out_);
        if (trace_trailer_problem(own, metadata_bytes_))
            own.clear();
    }
    if (!trailer.empty()) {
        if (trailer.back() != '\n')
            trailer += '\n';
        if (const auto problem = trace_trailer_problem(trailer, metadata_bytes_)) {
            closing_note_ = "the game's closing lines were left out: " + *problem;
            trailer.clear();
        }
    }
    if (first_frame_ && *first_frame_ > 0) {
        std::string attached = fmt::format("# {}: {}\n", kTraceAttachedAtFrameKey, *first_frame_);
        if (!trace_trailer_problem(attached, metadata_bytes_))
            own += attached;
    }
    trailer += own;
    if (!trailer.empty() && bytes_ + trailer.size() > max_bytes_) {
        closing_note_ = "the closing lines were left out: they would pass --max-bytes";
        trailer.clear();
    }
    bytes_ += trailer.size();
    return trailer;
}

}  // namespace loopscope
