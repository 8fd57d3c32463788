// Streaming text scanning for the capture readers: a line reader that holds one buffer of the
// file at a time (never the whole text), a field splitter for comma-separated lines with quoted
// fields, and number parsing with fast_float. Everything that goes wrong becomes an InputError
// naming the file and the 1-based line and column, so a user can open the file at the spot.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/platform.hpp"
#include "common/terminal.hpp"
#include "common/text.hpp"  // trim(): the one whitespace rule, every reader uses it on cells
#include "core/capture.hpp"

namespace loopscope {

// How a text file is encoded, from its byte-order mark: UTF-8 (or none), or UTF-16, which
// Windows PowerShell's `>` and `Out-File` write (little-endian, with a mark).
enum class TextEncoding { utf8, utf16le, utf16be };
TextEncoding encoding_of(std::string_view head);
// Appends the UTF-8 of the UTF-16 code units of `in` to `out` and returns the bytes taken: all
// but an odd last byte or a high surrogate whose pair is not in `in` yet (unless `at_end`). A
// surrogate without its pair becomes U+FFFD.
std::size_t utf16_to_utf8(std::string_view in, bool big_endian, bool at_end, std::string& out);

// An allocator for buffers that reads write into before any byte is looked at: the room it makes
// in a vector is left as it is, not zero-filled.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = UninitializedAllocator<U>;
    };
    UninitializedAllocator() = default;
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
using ReadBuffer = std::vector<char, UninitializedAllocator<char>>;

// Reads a text file line by line. Strips a UTF-8 byte-order mark at the start (columns count
// from the first character after it, as editors show them), and "\n" or "\r\n" at the end of
// each line. A UTF-16 file (with its byte-order mark) is read as its UTF-8 text, the same lines
// and columns. The returned view stays valid until the next call to next().
class LineReader {
  public:
    // Throws InputError when the file cannot be opened.
    explicit LineReader(std::string path);
    // A reader of the first lines only (format detection): its first read takes at most
    // `first_read_bytes` (a power of two) of the file rather than a whole chunk, which the
    // reader that parses the file reads again; a longer line grows the buffer as it does for any
    // reader.
    LineReader(std::string path, std::size_t first_read_bytes);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    // The next line, or false at the end of the file.
    bool next(std::string_view& line);
    // 1-based number of the line next() returned last (0 before the first).
    std::int64_t line_number() const { return line_number_; }
    // Whether the last line returned ended with a line break (a file cut off mid-write has not).
    bool line_had_break() const { return had_break_; }
    // The next block of whole lines, about `bytes` long (more when one line is longer), for
    // readers that cut it into pieces parsed in parallel: the lines with their breaks, the last
    // one without a break only at the end of the file. False at the end of the file. The lines
    // are not counted (line_number() stays where next() left it): the caller counts them. The
    // view stays valid until the call after next (blocks alternate between two buffers), so
    // that a caller can read the next block while it parses this one. A line of 16 MiB or more
    // is the same error as in next(), naming the line after those counted so far. Nothing is
    // stripped: there is no byte-order mark after the first line.
    bool next_block(std::size_t bytes, std::string_view& block);
    // Makes next_block() see a regular file through memory mappings (two blocks at a time, as
    // its buffers) where prepare_file_mapping() allows, instead of copying it: less CPU for a
    // large capture read in pieces. The blocks, the errors and the lines are the same. Set
    // before the first next_block(); after it, next() is no longer called.
    void map_blocks() { map_blocks_ = true; }
    // Counts `lines` lines read through next_block(), so that later errors name the right line.
    void count_lines(std::int64_t lines) { line_number_ += lines; }
    // Total size of the file when known (0 for a pipe or an unknown size).
    std::uint64_t file_size_bytes() const { return file_bytes_; }
    const std::string& path() const { return path_; }
    // The file's encoding (its byte-order mark); UTF-16 is read as UTF-8.
    TextEncoding encoding() const { return encoding_; }

  private:
    bool fill();
    std::size_t read_some(char* to, std::size_t room);
    void show_progress(std::uint64_t got);
    bool next_mapped_block(std::size_t bytes, std::string_view& block);

    std::string path_;
    std::FILE* file_ = nullptr;
    ReadBuffer buffer_;
    ReadBuffer other_buffer_;   // next_block(): the buffer of the block given out last
    bool block_given_ = false;  // a block in buffer_ is still in use
    std::size_t begin_ = 0;     // first unread byte in buffer_
    std::size_t end_ = 0;       // one past the last valid byte in buffer_
    bool eof_ = false;
    bool had_break_ = false;
    std::int64_t line_number_ = 0;
    std::uint64_t file_bytes_ = 0;
    // next_block() through mappings: the two blocks given out last, the one to map next, and
    // the file offset of the first byte not given out.
    bool map_blocks_ = false;
    bool mapped_ = false;
    MappedRange views_[2];
    std::size_t view_next_ = 0;
    std::uint64_t map_offset_ = 0;
    // A large file shows how far its reading is (reading 1 GB takes seconds).
    std::uint64_t size_bytes_ = 0;
    std::uint64_t read_bytes_ = 0;
    std::unique_ptr<Progress> progress_;
    // UTF-16: the bytes read but not transcoded yet (half a code unit, half a surrogate pair).
    TextEncoding encoding_ = TextEncoding::utf8;
    std::string utf16_rest_;
    std::string utf8_out_;
};

// One cell of a line: its text (without surrounding quotes) and the 1-based column where it starts.
struct Field {
    std::string_view text;
    std::int64_t column = 1;
};

// Where a line came from, for error messages.
struct LinePlace {
    const std::string* path = nullptr;
    std::int64_t line = 0;
};

// Splits a comma-separated line into `fields` (cleared first), keeping at most `max_fields` of
// them, and returns how many fields the line has in all (the ones past `max_fields` are only
// counted, which is much cheaper for wide rows whose tail is not needed). Quoted fields ("a,b")
// keep their inner text as is (a doubled quote stays doubled: readers only use quoted cells as
// names). Throws InputError for a quote that is never closed.
std::size_t split_fields(std::string_view line, const LinePlace& place, std::vector<Field>& fields,
                         std::size_t max_fields = static_cast<std::size_t>(-1));

// split_fields for the line of `text` that starts at offset `begin`, whose end is found in the
// same pass over its bytes (rather than a second pass over every line to find its break): sets
// `count` to the line's fields in all and `line` to the line without its break (nor a "\r" before
// it), and returns the offset of the break (text.size() at the end).
std::size_t split_line_fields(std::string_view text, std::size_t begin, const LinePlace& place,
                              std::vector<Field>& fields, std::size_t max_fields,
                              std::size_t& count, std::string_view& line);

// True for the cells that mean "no value": `NA` (PresentMon, FrameView) and empty cells,
// surrounding spaces allowed. (Where a number is expected, an empty cell is a bad cell: see
// read_time_cell.)
bool is_missing_text(std::string_view cell);
inline bool is_missing(std::string_view cell) {
    // A cell that starts with a digit holds a value: the common case, decided without trimming.
    if (!cell.empty() && static_cast<unsigned>(cell.front() - '0') < 10)
        return false;
    return is_missing_text(cell);
}

// Parses a finite decimal number (surrounding spaces allowed). Throws InputError naming the
// column `what` when the cell holds text, NaN or an infinity.
double parse_number(const Field& field, const LinePlace& place, std::string_view what);
// As parse_number, and the value must be >= 0 (times and durations).
double parse_non_negative(const Field& field, const LinePlace& place, std::string_view what);
// Parses a whole number (surrounding spaces allowed).
std::int64_t parse_integer(const Field& field, const LinePlace& place, std::string_view what);

// Whether the whole text is one finite number (for recognising plain lists).
bool looks_like_number(std::string_view text);

// Text shortened for an error message, with non-printing bytes escaped.
std::string quote_for_message(std::string_view text, std::size_t max_chars = 40);

// Milliseconds / seconds as a double to integer nanoseconds; throws InputError when the value
// cannot be represented (over ~292 years).
std::int64_t ms_cell_to_ns(double ms, const Field& field, const LinePlace& place);
std::int64_t scaled_to_ns(double value, double ns_per_unit, const Field& field,
                          const LinePlace& place);

// A time cell >= 0 in a unit of 10^`ns_digits` ns (6: milliseconds, 9: seconds, 0 ≤ ns_digits ≤
// 9) to integer nanoseconds: always the value and the errors of
// scaled_to_ns(parse_non_negative(field, place, what), 10^ns_digits, field, place). Plain digits
// ("16.66670000000000") are read straight to nanoseconds in integers, eight digits at a time,
// which skips the double and its rounding for the cells nearly every capture row holds.
std::int64_t parse_time_ns(const Field& field, const LinePlace& place, std::string_view what,
                           int ns_digits);
// The integer part of parse_time_ns: true with `ns` set when `text` is plain digits whose value
// the double path is certain to round to the same nanosecond; false (for the double path)
// otherwise. Exposed for the test that holds the two paths equal.
bool plain_decimal_to_ns(std::string_view text, int ns_digits, std::int64_t& ns);

// What a cell holds where a number is expected. `NA` and `N/A` are how the tools write "no
// value" (not_available); the other states but `value` are bad cells (BadCellTally).
enum class CellState : std::uint8_t {
    value,
    not_available,  // NA, N/A
    empty,
    not_a_number,  // text such as FrameView's `Error`
    not_finite,    // nan, inf
    negative,      // a time below 0
    too_large,     // 2^63 ns or more: a negative difference written as unsigned, often
    not_whole,     // a fraction where a whole number is expected
};
// "not a number", "negative", ... for the reports.
const char* cell_state_text(CellState state);
// True for `NA` / `N/A` (surrounding spaces allowed), the tools' "no value".
bool is_not_available_text(std::string_view cell);
inline bool is_not_available(std::string_view cell) {
    // A cell that starts with a digit holds a value: decided without trimming.
    if (!cell.empty() && static_cast<unsigned>(cell.front() - '0') < 10)
        return false;
    return is_not_available_text(cell);
}
// Non-throwing forms of parse_time_ns, parse_number and parse_integer: the value where the
// state is `value`, else the state says what the cell holds (read_time_cell below).
CellState read_number_cell(const Field& field, double& value);
// read_time_cell for a cell that is not a plain decimal (plain_decimal_to_ns said false): the
// double path. read_time_cell's first step is inline, as every time cell of a row takes it.
CellState read_time_cell_by_double(const Field& field, int ns_digits, std::int64_t& ns);
inline CellState read_time_cell(const Field& field, int ns_digits, std::int64_t& ns) {
    if (plain_decimal_to_ns(field.text, ns_digits, ns))
        return CellState::value;
    return read_time_cell_by_double(field, ns_digits, ns);
}
CellState read_integer_cell(const Field& field, std::int64_t& value);
// A signed time in milliseconds (PresentMon's animation error) to nanoseconds.
CellState read_signed_ms_cell(const Field& field, std::int64_t& ns);

// Counts the bad cells of a file by column and kind, with the first place of each, for
// Capture::data_quality. A reader calls add() where a cell is not the number its column holds
// and reads on as `treated_as` says; any column, any reader (a new column needs only its name
// and what the row does without it).
class BadCellTally {
  public:
    void add(std::string_view column, CellState state, std::string_view treated_as,
             const LinePlace& place, const Field& field);
    void add(std::string_view column, std::string_view kind, std::string_view treated_as,
             std::int64_t line, std::int64_t column_number, std::string_view text);
    // The tally of a later part of the file whose lines were counted from `line_base` + 1.
    void merge(const BadCellTally& later, std::int64_t line_base);
    bool empty() const { return groups_.empty(); }
    const std::vector<BadCells>& groups() const { return groups_; }
    // Adds the groups to `quality` (same column and kind: counts summed).
    void append_to(DataQuality& quality) const;

  private:
    std::vector<BadCells> groups_;
};

[[noreturn]] void throw_at(const LinePlace& place, std::int64_t column, const std::string& what);

}  // namespace loopscope
