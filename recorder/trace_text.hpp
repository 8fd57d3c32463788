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

}  // namespace loopscope::trace_v1

// The live stream's wire format (docs/live.md): little-endian, version 1. The game listens; a
// client connects and only reads. The game sends a handshake, then messages: batches of rows
// (each row the columns in order, 8 bytes each: integers as two's complement, alpha as an
// IEEE-754 double) and, when the recorder closes, an end message with the trace's last lines.
namespace loopscope::live_v1 {
inline constexpr char kMagic[8] = {'L', 'S', 'C', 'P', 'L', 'I', 'V', 'E'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::uint32_t kRowBytes = std::uint32_t(trace_v1::kColumnCount) * 8;
inline constexpr std::uint32_t kBatch = 1;  // u32 rows, u64 dropped for this client, u64 total
inline constexpr std::uint32_t kEnd = 2;    // u32 length, the trailer text
inline constexpr std::uint32_t kBatchHeaderBytes = 4 + 4 + 8 + 8;
inline constexpr std::uint32_t kMaxBatchRows = 256;

char* put_u32(char* out, std::uint32_t v);
char* put_u64(char* out, std::uint64_t v);
std::uint32_t get_u32(const char* p);
std::uint64_t get_u64(const char* p);
// One row, kRowBytes bytes, and back.
char* put_row(char* out, const FrameRecord& r);
FrameRecord get_row(const char* p);
}  // namespace loopscope::live_v1
