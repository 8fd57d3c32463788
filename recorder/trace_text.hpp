// The trace format v1 as text and on the live stream's wire, from the one list of columns in
// loopscope/recorder.hpp (LOOPSCOPE_TRACE_COLUMNS): the preamble, a row's text, a row's bytes.
// The recorder writes with these, and so do loopscope's own trace writer, `record` and the
// live client, so that every trace and every stream has the same columns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "loopscope/recorder.hpp"  // the column list and FrameRecord

namespace loopscope::trace_v1 {

// What a reader accepts in a column (the `kind` of LOOPSCOPE_TRACE_COLUMNS).
enum class ColumnKind { index, ns, count, fraction };

// Each column's position, name and kind, in order.
enum class Column : std::size_t {
#define LOOPSCOPE_COLUMN_ENUM_(name, type, kind, what) name,
    LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_COLUMN_ENUM_)
#undef LOOPSCOPE_COLUMN_ENUM_
};
struct ColumnInfo {
    const char* name;
    ColumnKind kind;
};
inline constexpr ColumnInfo kColumnInfo[] = {
#define LOOPSCOPE_COLUMN_INFO_(name, type, kind, what) {#name, ColumnKind::kind},
    LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_COLUMN_INFO_)
#undef LOOPSCOPE_COLUMN_INFO_
};
static_assert(sizeof kColumnInfo / sizeof kColumnInfo[0] == std::size_t(kColumnCount));
constexpr std::size_t index(Column c) {
    return static_cast<std::size_t>(c);
}

// The longest row format_row writes: every column as a 20-digit integer with its sign and
// separator, and alpha's six decimals.
inline constexpr std::size_t kMaxRowChars = std::size_t(kColumnCount) * 21 + 32;

// An integer in decimal; returns the end.
char* put_int(char* out, std::int64_t v);
// Alpha with six decimals, truncated rather than rounded so that an alpha below 1 never prints
// as 1.000000.
char* put_alpha(char* out, double alpha);
// One row (with its '\n'); `out` must have room for kMaxRowChars characters.
char* format_row(char* out, const FrameRecord& r);

// What the preamble says: the `# key: value` lines between the magic line and the header row.
// A policy of "" and a dt_ns of 0 are left out (the game did not say).
struct Preamble {
    int version = 1;  // 2: the trace may hold zone and mark records (the recorder's)
    std::string clock;
    std::string policy;
    std::int64_t dt_ns = 0;
    std::int64_t clamp_ns = 0;
    std::int64_t max_steps = 0;
    double timescale = 1.0;
    std::string machine;
    std::string start_time;
    std::string metadata;  // more lines, "key: value\n" each
};
// The magic line, the metadata lines and the header row, each ending in '\n'.
std::string preamble_text(const Preamble& p);
// "2026-11-22T03:41:17Z" for now, for the start_time line.
std::string utc_now_iso8601();

// A zone or a mark the game recorded (trace format v2): what the recorder keeps, the live
// stream sends and a trace's `zone,` and `mark,` lines hold. Times are on the rows' time axis
// (start_ns's: since the recorder started).
enum class EventKind : std::uint32_t { zone = 1, mark = 2 };
struct EventRecord {
    EventKind kind = EventKind::mark;
    std::uint32_t thread = 0;
    std::uint32_t depth = 0;
    std::uint32_t label_bytes = 0;
    std::int64_t frame = -1;    // the frame open when it began; -1 before the first frame
    std::int64_t begin_ns = 0;  // a mark's time
    std::int64_t end_ns = 0;    // = begin_ns for a mark
    char label[kMaxLabelBytes] = {};
};
// Copies `label` into `e` as a record holds it: at most kMaxLabelBytes bytes, cut before a
// character that does not fit whole (UTF-8), control characters (a line break) as spaces.
void set_label(EventRecord& e, const char* label);
// The longest line format_event writes.
inline constexpr std::size_t kMaxEventChars = 5 * 21 + 8 + std::size_t(kMaxLabelBytes) + 2;
// `zone,FRAME,BEGIN_NS,END_NS,THREAD,DEPTH,LABEL\n` or `mark,FRAME,T_NS,LABEL\n`; `out` must
// have room for kMaxEventChars characters.
char* format_event(char* out, const EventRecord& e);

}  // namespace loopscope::trace_v1

// The live stream's wire format (docs/live.md): little-endian, version 2. The game listens; a
// client connects. The game sends a handshake, then messages: batches of rows (each row the
// columns in order, 8 bytes each: integers as two's complement, alpha as an IEEE-754 double),
// batches of zones and marks and, when the recorder closes, an end message with the trace's
// last lines. The client sends acknowledgements: the stream's bytes its application has taken.
namespace loopscope::live_wire {
inline constexpr char kMagic[8] = {'L', 'S', 'C', 'P', 'L', 'I', 'V', 'E'};
inline constexpr std::uint32_t kVersion = 2;
inline constexpr std::uint32_t kRowBytes = std::uint32_t(trace_v1::kColumnCount) * 8;
inline constexpr std::uint32_t kBatch = 1;   // u32 rows, u64 dropped for this client, u64 total
inline constexpr std::uint32_t kEnd = 2;     // u32 length, the trailer text
inline constexpr std::uint32_t kEvents = 3;  // u32 count, the events
inline constexpr std::uint32_t kBatchHeaderBytes = 4 + 4 + 8 + 8;
inline constexpr std::uint32_t kMaxBatchRows = 256;
inline constexpr std::uint32_t kEventsHeaderBytes = 4 + 4;
inline constexpr std::uint32_t kMaxBatchEvents = 256;
// An event: u32 kind, thread, depth, label bytes; i64 frame, begin_ns, end_ns; the label in
// kMaxLabelBytes bytes (zeros after it).
inline constexpr std::uint32_t kEventBytes =
    4 * 4 + 3 * 8 + std::uint32_t(trace_v1::kMaxLabelBytes);
// From the client: u32 kAck, u64 the stream's bytes (from its first, the handshake's) taken.
inline constexpr std::uint32_t kAck = 1;
inline constexpr std::uint32_t kAckBytes = 4 + 8;

char* put_u32(char* out, std::uint32_t v);
char* put_u64(char* out, std::uint64_t v);
std::uint32_t get_u32(const char* p);
std::uint64_t get_u64(const char* p);
// One row, kRowBytes bytes, and back.
char* put_row(char* out, const FrameRecord& r);
FrameRecord get_row(const char* p);
// One event, kEventBytes bytes, and back (nullopt-free: a label length past the field is cut).
char* put_event(char* out, const trace_v1::EventRecord& e);
trace_v1::EventRecord get_event(const char* p);
}  // namespace loopscope::live_wire
