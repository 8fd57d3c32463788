// Streaming line reader, field splitter and number parsing for the capture readers (see
// csv_scanner.hpp). The reader keeps one buffer of the file; lines are views into it.
#include "readers/csv_scanner.hpp"

#include <fast_float/fast_float.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "common/errors.hpp"
#include "core/units.hpp"

#if defined(__SSE2__)
#include "readers/csv_scanner_x86.hpp"
#endif

namespace loopscope {

namespace {
constexpr std::size_t kChunkBytes = 1 << 20;
constexpr std::size_t kMinBufferBytes = 4 << 10;
// A line longer than this is not a capture row; stop before holding a whole garbage file.
constexpr std::size_t kMaxLineBytes = 16 << 20;
// Files from this size on show their reading's progress (on a terminal, or when asked).
constexpr std::uint64_t kProgressFromBytes = 64u << 20;
}  // namespace

[[noreturn]] void throw_at(const LinePlace& place, std::int64_t column, const std::string& what) {
    throw InputError(place.path ? *place.path : std::string(), place.line, column, what);
}

LineReader::LineReader(std::string path) : LineReader(std::move(path), kChunkBytes) {}

LineReader::LineReader(std::string path, std::size_t first_read_bytes) : path_(std::move(path)) {
    file_ = std::fopen(path_.c_str(), "rb");
    if (!file_)
        throw InputError(path_, fmt::format("cannot open: {}", std::strerror(errno)));
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_, ec);
    // A small file gets a buffer its size (a power of two, so that doubling still meets the line
    // cap exactly): opening many small files, as format detection and fuzzing do, should not
    // take a whole chunk each time.
    std::size_t initial = std::clamp(std::bit_ceil(first_read_bytes), kMinBufferBytes, kChunkBytes);
    if (!ec && size < initial)
        initial = std::max<std::size_t>(kMinBufferBytes, std::bit_ceil(size + 1));
    buffer_.resize(initial);
    if (!ec)
        file_bytes_ = size;
    // A UTF-16 byte-order mark: the text is transcoded as it is read (rewound to the start, so
    // the mark becomes UTF-8's, which next() strips).
    char mark[2];
    const std::size_t marked = std::fread(mark, 1, 2, file_);
    encoding_ = encoding_of(std::string_view(mark, marked));
    if (marked > 0 && std::fseek(file_, 0, SEEK_SET) != 0)
        throw InputError(path_, fmt::format("cannot read: {}", std::strerror(errno)));
    if (!ec && size >= kProgressFromBytes)
        size_bytes_ = size;
}

LineReader::~LineReader() {
    for (MappedRange& view : views_)
        unmap_file_range(view);
    if (file_)
        std::fclose(file_);
}

// Moves the unread tail to the front and reads more; false when nothing more came.
bool LineReader::fill() {
    if (eof_)
        return false;
    if (begin_ > 0) {
        std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
    }
    if (end_ == buffer_.size()) {
        if (buffer_.size() >= kMaxLineBytes) {
            throw InputError(path_, line_number_ + 1, 1,
                             fmt::format("line longer than {} MiB: expected a text capture with "
                                         "one row a line",
                                         kMaxLineBytes >> 20));
        }
        buffer_.resize(buffer_.size() * 2);
    }
    const std::size_t got = read_some(buffer_.data() + end_, buffer_.size() - end_);
    show_progress(got);
    if (got == 0) {
        if (std::ferror(file_)) {
            throw InputError(path_, line_number_ + 1, 0,
                             fmt::format("read error: {}", std::strerror(errno)));
        }
        eof_ = true;
        return false;
    }
    end_ += got;
    return true;
}

// Up to `room` bytes of the text into `to` (transcoded from UTF-16 where the file is), counting
// the file's bytes read; 0 at the end of the file or on a read error.
std::size_t LineReader::read_some(char* to, std::size_t room) {
    if (encoding_ == TextEncoding::utf8) {
        const std::size_t got = std::fread(to, 1, room, file_);
        read_bytes_ += got;
        return got;
    }
    while (utf8_out_.empty()) {
        char raw[1 << 16];
        const std::size_t n = std::fread(raw, 1, sizeof raw, file_);
        read_bytes_ += n;
        utf16_rest_.append(raw, n);
        const std::size_t used =
            utf16_to_utf8(utf16_rest_, encoding_ == TextEncoding::utf16be, n == 0, utf8_out_);
        utf16_rest_.erase(0, used);
        if (n == 0)
            break;
    }
    const std::size_t k = std::min(room, utf8_out_.size());
    std::memcpy(to, utf8_out_.data(), k);
    utf8_out_.erase(0, k);
    return k;
}

TextEncoding encoding_of(std::string_view head) {
    if (head.size() >= 2 && head[0] == '\xFF' && head[1] == '\xFE')
        return TextEncoding::utf16le;
    if (head.size() >= 2 && head[0] == '\xFE' && head[1] == '\xFF')
        return TextEncoding::utf16be;
    return TextEncoding::utf8;
}

std::size_t utf16_to_utf8(std::string_view in, bool big_endian, bool at_end, std::string& out) {
    const auto unit = [&](std::size_t i) -> std::uint32_t {
        const auto a = static_cast<unsigned char>(in[i]);
        const auto b = static_cast<unsigned char>(in[i + 1]);
        return big_endian ? (a << 8 | b) : (b << 8 | a);
    };
    const auto put = [&](std::uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | cp >> 6);
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | cp >> 12);
            out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | cp >> 18);
            out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
            out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    };
    constexpr std::uint32_t kReplacement = 0xFFFD;
    std::size_t i = 0;
    while (i + 2 <= in.size()) {
        const std::uint32_t u = unit(i);
        if (u >= 0xD800 && u < 0xDC00) {  // a high surrogate: its pair follows
            if (i + 4 > in.size()) {
                if (!at_end)
                    return i;
                put(kReplacement);
                i += 2;
                continue;
            }
            const std::uint32_t low = unit(i + 2);
            if (low >= 0xDC00 && low < 0xE000) {
                put(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00));
                i += 4;
            } else {
                put(kReplacement);
                i += 2;
            }
            continue;
        }
        put(u >= 0xDC00 && u < 0xE000 ? kReplacement : u);
        i += 2;
    }
    if (at_end && i < in.size()) {  // an odd last byte
        put(kReplacement);
        i = in.size();
    }
    return i;
}

// After `got` more bytes (0 at the end): shown once the reading is well under way, since
// detecting the format reads only the start.
void LineReader::show_progress(std::uint64_t got) {
    if (size_bytes_ > 0 && !progress_ && got > 0 && read_bytes_ >= (8u << 20)) {
        progress_ = std::make_unique<Progress>(
            fmt::format("reading {}", std::filesystem::path(path_).filename().string()));
    }
    if (progress_) {
        progress_->update(static_cast<double>(read_bytes_) / static_cast<double>(size_bytes_));
        if (got == 0)
            progress_.reset();
    }
}

bool LineReader::next(std::string_view& line) {
    std::size_t scanned = begin_;  // bytes before this have no line break
    for (;;) {
        const void* nl = std::memchr(buffer_.data() + scanned, '\n', end_ - scanned);
        if (nl) {
            const std::size_t at = static_cast<const char*>(nl) - buffer_.data();
            line = std::string_view(buffer_.data() + begin_, at - begin_);
            begin_ = at + 1;
            had_break_ = true;
            break;
        }
        const std::size_t consumed = begin_;
        scanned = end_;
        if (!fill()) {
            if (begin_ == end_)
                return false;
            line = std::string_view(buffer_.data() + begin_, end_ - begin_);
            begin_ = end_;
            had_break_ = false;
            break;
        }
        scanned -= consumed;  // fill() moved the unread bytes to the front
    }
    ++line_number_;
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (line_number_ == 1 && line.substr(0, 3) == "\xEF\xBB\xBF")
        line.remove_prefix(3);
    return true;
}

bool LineReader::next_block(std::size_t bytes, std::string_view& block) {
    // At most half the line cap, so that the buffer never passes the cap and every line of a
    // block is shorter than it.
    bytes = std::clamp<std::size_t>(bytes, 1, kMaxLineBytes / 2);
    if (map_blocks_ && !mapped_ && file_bytes_ > 0 && encoding_ == TextEncoding::utf8 &&
        prepare_file_mapping()) {
        // From the first byte next() has not given out; the buffer is not used again.
        mapped_ = true;
        map_offset_ = read_bytes_ - (end_ - begin_);
        begin_ = end_;
    }
    if (mapped_)
        return next_mapped_block(bytes, block);
    // A buffer of a block, or of the whole file when that is smaller (a power of two, as in the
    // constructor).
    std::size_t wanted = std::bit_ceil(bytes);
    if (file_bytes_ > 0)
        wanted = std::min(wanted, std::bit_ceil(static_cast<std::size_t>(file_bytes_) + 1));
    if (block_given_) {
        if (eof_ && begin_ == end_)
            return false;  // (without taking a second buffer for nothing)
        // The block given out last may still be parsed: the unread rest (part of a line) moves
        // to the other buffer, and the reading goes on there.
        const std::size_t unread = end_ - begin_;
        const std::size_t size = std::max(wanted, std::bit_ceil(unread));
        if (other_buffer_.size() < size)
            other_buffer_.resize(size);
        std::memcpy(other_buffer_.data(), buffer_.data() + begin_, unread);
        buffer_.swap(other_buffer_);
        begin_ = 0;
        end_ = unread;
        block_given_ = false;
    }
    if (buffer_.size() < wanted)
        buffer_.resize(wanted);
    for (;;) {
        // Lines longer than the cap are refused as next() refuses them, wherever they stand in
        // the block: only the first kMaxLineBytes bytes of the unread line are looked at.
        const std::size_t unread = end_ - begin_;
        const std::size_t first_line_scan = std::min(unread, kMaxLineBytes);
        const bool has_break =
            std::memchr(buffer_.data() + begin_, '\n', first_line_scan) != nullptr;
        if (!has_break && unread >= kMaxLineBytes) {
            throw InputError(path_, line_number_ + 1, 1,
                             fmt::format("line longer than {} MiB: expected a text capture with "
                                         "one row a line",
                                         kMaxLineBytes >> 20));
        }
        // Enough unread bytes, or a full buffer with at least one whole line: cut at the last
        // break. Otherwise read more; at the end of the file the rest is the last line.
        if (has_break && (unread >= bytes || end_ == buffer_.size() || eof_)) {
            const char* const first = buffer_.data() + begin_;
            const char* last_break = first + unread - 1;
            while (*last_break != '\n')
                --last_break;
            const std::size_t length = static_cast<std::size_t>(last_break - first) + 1;
            block = std::string_view(first, length);
            begin_ += length;
            block_given_ = true;
            return true;
        }
        if (begin_ == 0 && end_ == buffer_.size())
            buffer_.resize(buffer_.size() * 2);  // one line longer than the buffer
        if (!fill()) {
            if (begin_ == end_)
                return false;
            block = std::string_view(buffer_.data() + begin_, end_ - begin_);
            begin_ = end_;
            block_given_ = true;
            return true;
        }
    }
}

// next_block() over mappings: the same blocks of whole lines, cut at the last line break of
// each `bytes` of the file, and the same errors, with no copy. The mapping two calls back is
// ended, as the buffer two calls back is reused.
bool LineReader::next_mapped_block(std::size_t bytes, std::string_view& block) {
    if (map_offset_ >= file_bytes_) {
        // A capture still being written may have grown since it was opened.
        std::error_code ec;
        const auto size = std::filesystem::file_size(path_, ec);
        if (!ec && size > file_bytes_) {
            file_bytes_ = size;
            if (size_bytes_ > 0)
                size_bytes_ = size;
        }
        if (map_offset_ >= file_bytes_) {
            show_progress(0);
            return false;
        }
    }
    std::size_t wanted = bytes;
    for (;;) {
        const std::uint64_t left = file_bytes_ - map_offset_;
        const auto length = static_cast<std::size_t>(std::min<std::uint64_t>(left, wanted));
        MappedRange& view = views_[view_next_];
        unmap_file_range(view);
        view = map_file_range(file_, map_offset_, length, path_.c_str());
        if (!view.data) {
            // Refused (out of address space, a file system that cannot map): read from here on.
            if (std::fseek(file_, static_cast<long>(map_offset_), SEEK_SET) != 0) {
                throw InputError(path_, line_number_ + 1, 0,
                                 fmt::format("read error: {}", std::strerror(errno)));
            }
            mapped_ = false;
            map_blocks_ = false;
            begin_ = end_ = 0;
            read_bytes_ = map_offset_;
            eof_ = false;
            block_given_ = false;
            return next_block(bytes, block);
        }
        const char* const first = view.data;
        const bool has_break = std::memchr(first, '\n', std::min(length, kMaxLineBytes)) != nullptr;
        if (!has_break && length >= kMaxLineBytes) {
            throw InputError(path_, line_number_ + 1, 1,
                             fmt::format("line longer than {} MiB: expected a text capture with "
                                         "one row a line",
                                         kMaxLineBytes >> 20));
        }
        if (has_break || length == left) {
            std::size_t cut = length;  // at the end of the file, the last line without a break
            if (has_break) {
                while (first[cut - 1] != '\n')
                    --cut;
            }
            block = std::string_view(first, cut);
            map_offset_ += cut;
            read_bytes_ = map_offset_;
            show_progress(cut);
            view_next_ ^= 1;
            return true;
        }
        wanted = std::min(wanted * 2, kMaxLineBytes);  // one line longer than a block
    }
}

namespace {

// Byte scanning eight bytes at a time. Fields are short (a few to twenty bytes), where a call to
// memchr per field costs more than the scan itself.
constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;

// 0x80 in every byte of `word` equal to `c`, 0 elsewhere (exact, no false positives).
inline std::uint64_t bytes_equal(std::uint64_t word, char c) {
    const std::uint64_t x = word ^ (kOnes * static_cast<unsigned char>(c));
    return ~(((x & kLow7) + kLow7) | x | kLow7);
}

inline std::uint64_t load8(const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;  // little-endian: byte 0 is the lowest
}

// Position of the first `c` in [pos, size) of `s`, or size.
inline std::size_t find_byte(std::string_view s, std::size_t pos, char c) {
    const char* const p = s.data();
    while (pos + 8 <= s.size()) {
        const std::uint64_t m = bytes_equal(load8(p + pos), c);
        if (m)
            return pos + static_cast<std::size_t>(std::countr_zero(m) >> 3);
        pos += 8;
    }
    while (pos < s.size() && p[pos] != c)
        ++pos;
    return pos;
}

// Counts the fields of the rest of a line that split_fields does not keep (the line has at least
// one more field, starting at `pos`).
std::size_t count_rest(std::string_view line, std::size_t pos, const LinePlace& place) {
    std::size_t commas = 0;
    std::size_t i = pos;
    bool any_quote = false;
#if defined(__SSE2__)
    // The whole blocks up to the line's end (a line holds no break); the loops below count the
    // bytes left from `i`.
    commas += csv_x86::count_commas_before_break(line.data(), i, line.size(), any_quote);
#endif
    for (; i + 8 <= line.size(); i += 8) {
        const std::uint64_t w = load8(line.data() + i);
        // One bit 7 per matching byte: shifted to bit 0 and summed into the top byte by the
        // multiply (std::popcount is a library call without -mpopcnt).
        commas += static_cast<std::size_t>(((bytes_equal(w, ',') >> 7) * kOnes) >> 56);
        any_quote |= bytes_equal(w, '"') != 0;
    }
    for (; i < line.size(); ++i) {
        commas += line[i] == ',';
        any_quote |= line[i] == '"';
    }
    if (!any_quote)
        return commas + 1;
    // Quoted cells in the tail: count properly (commas inside quotes do not separate).
    std::size_t count = 1;
    bool quoted = false;
    std::size_t quote_at = 0;
    for (i = pos; i < line.size(); ++i) {
        const char c = line[i];
        if (c == ',') {
            count += quoted ? 0 : 1;
        } else if (c == '"') {
            quoted = !quoted;  // a doubled quote toggles twice
            quote_at = i;
        }
    }
    if (quoted) {
        throw_at(place, static_cast<std::int64_t>(quote_at) + 1,
                 "quoted field is never closed: expected a closing '\"' on this line");
    }
    return count;
}

}  // namespace

namespace {

#if defined(__SSE2__)
// The common case, a line without quotes: commas found sixteen bytes at a time as a bit mask,
// fields cut at its set bits. Returns false (having kept nothing) when the line has a quote
// before `max_fields` fields were cut, for the general path to handle.
bool split_unquoted(std::string_view line, const LinePlace& place, std::vector<Field>& fields,
                    std::size_t max_fields, std::size_t& count) {
    const char* const p = line.data();
    const std::size_t n = line.size();
    // Cells are written by index into a vector sized ahead: push_back per cell was the hot
    // spot of the whole reader.
    // Sized to the cells wanted, so that a reader asking for the same number on every row never
    // grows the vector again.
    const std::size_t ahead = std::min<std::size_t>(max_fields, 32);
    if (fields.size() < ahead)
        fields.resize(ahead);
    Field* out = fields.data();
    std::size_t kept = 0;
    std::size_t start = 0;  // first byte of the field being cut
    for (std::size_t block = 0; block < n; block += 16) {
        std::uint32_t commas = 0, quotes = 0;
        if (block + 16 <= n) {
            commas = csv_x86::match16(p + block, ',');
            quotes = csv_x86::match16(p + block, '"');
        } else {
            for (std::size_t i = block; i < n; ++i) {
                commas |= static_cast<std::uint32_t>(p[i] == ',') << (i - block);
                quotes |= static_cast<std::uint32_t>(p[i] == '"') << (i - block);
            }
        }
        if (quotes) {
            fields.clear();
            return false;
        }
        while (commas) {
            const std::size_t at = block + static_cast<std::size_t>(std::countr_zero(commas));
            commas &= commas - 1;
            if (kept == fields.size()) {
                fields.resize(kept * 2);
                out = fields.data();
            }
            out[kept++] = {std::string_view(p + start, at - start),
                           static_cast<std::int64_t>(start) + 1};
            start = at + 1;
            if (kept == max_fields) {
                fields.resize(kept);
                count = kept + count_rest(line, start, place);
                return true;
            }
        }
    }
    if (kept == fields.size())
        fields.resize(kept + 1);
    fields[kept++] = {line.substr(start), static_cast<std::int64_t>(start) + 1};
    fields.resize(kept);
    count = kept;
    return true;
}
#endif

}  // namespace

#if defined(__SSE2__)
namespace {

// count_rest for a line whose end is not known yet: counts the fields from `start` (at least
// one) up to the first line break at or after it, or `size`, and sets `line_end` to where the
// line stops.
std::size_t count_rest_to_break(const char* p, std::size_t start, std::size_t size,
                                const LinePlace& place, std::size_t& line_end) {
    std::size_t i = start;
    bool any_quote = false;
    std::size_t commas = csv_x86::count_commas_before_break(p, i, size, any_quote);
    line_end = size;
    for (; i < size; ++i) {
        const char c = p[i];
        if (c == '\n') {
            line_end = i;
            break;
        }
        commas += c == ',';
        any_quote |= c == '"';
    }
    if (!any_quote)
        return commas + 1;
    return count_rest(std::string_view(p, line_end), start, place);
}

}  // namespace

std::size_t split_line_fields(std::string_view text, std::size_t begin, const LinePlace& place,
                              std::vector<Field>& fields, std::size_t max_fields,
                              std::size_t& count, std::string_view& line) {
    const char* const p = text.data() + begin;
    const std::size_t n = text.size() - begin;
    // The line without its break, nor a CR before it.
    const auto set_line = [&](std::size_t line_end) {
        std::size_t length = line_end;
        if (length > 0 && p[length - 1] == '\r')
            --length;
        line = std::string_view(p, length);
        return length;
    };
    // A quote in the fields wanted (or none wanted): the line as a whole, split as split_fields
    // splits it.
    const auto split_whole_line = [&] {
        const void* nl = std::memchr(p, '\n', n);
        const std::size_t line_end =
            nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - p) : n;
        set_line(line_end);
        count = split_fields(line, place, fields, max_fields);
        return begin + line_end;
    };
    if (max_fields == 0)
        return split_whole_line();
    const std::size_t ahead = std::min<std::size_t>(max_fields, 32);
    if (fields.size() < ahead)
        fields.resize(ahead);
    // Kept in locals: stores through `out` could alias the vector's own pointers, which the
    // compiler would then reload for every field.
    Field* out = fields.data();
    std::size_t room = fields.size();
    std::size_t kept = 0;
    std::size_t start = 0;  // first byte of the field being cut, from the line's start
    std::size_t line_end = n;
    // Thirty-two bytes at a time; quotes and breaks, rare, are told apart only where there is one.
    for (std::size_t block = 0; block < n; block += 32) {
        std::uint32_t commas = 0, quotes = 0, breaks = 0;
        if (block + 32 <= n) {
            commas = csv_x86::match32(p + block, ',');
            if (csv_x86::any32(p + block, '"', '\n')) {
                quotes = csv_x86::match32(p + block, '"');
                breaks = csv_x86::match32(p + block, '\n');
            }
        } else {
            for (std::size_t i = block; i < n; ++i) {
                commas |= static_cast<std::uint32_t>(p[i] == ',') << (i - block);
                quotes |= static_cast<std::uint32_t>(p[i] == '"') << (i - block);
                breaks |= static_cast<std::uint32_t>(p[i] == '\n') << (i - block);
            }
        }
        if (breaks) {
            // Only the bytes before the line's break are this line's.
            const std::uint32_t before = (breaks & (0u - breaks)) - 1;
            commas &= before;
            quotes &= before;
            line_end = block + static_cast<std::size_t>(std::countr_zero(breaks));
        }
        if (quotes)
            return split_whole_line();
        // Room for this block's fields (at most 32), checked once a block rather than once a
        // field; never short when the fields wanted fit the room made above.
        if (room < max_fields && room - kept < 32) {
            fields.resize(room + 32);
            out = fields.data();
            room = fields.size();
        }
        while (commas) {
            const std::size_t at = block + static_cast<std::size_t>(std::countr_zero(commas));
            commas &= commas - 1;
            out[kept++] = {std::string_view(p + start, at - start),
                           static_cast<std::int64_t>(start) + 1};
            start = at + 1;
            if (kept == max_fields) {
                fields.resize(kept);
                if (breaks)
                    count = kept + count_rest(std::string_view(p, line_end), start, place);
                else  // the break is further on
                    count = kept + count_rest_to_break(p, start, n, place, line_end);
                set_line(line_end);
                return begin + line_end;
            }
        }
        if (breaks)
            break;
    }
    const std::size_t length = set_line(line_end);
    if (kept == room)
        fields.resize(kept + 1);
    fields[kept++] = {line.substr(std::min(start, length)), static_cast<std::int64_t>(start) + 1};
    fields.resize(kept);
    count = kept;
    return begin + line_end;
}
#else
std::size_t split_line_fields(std::string_view text, std::size_t begin, const LinePlace& place,
                              std::vector<Field>& fields, std::size_t max_fields,
                              std::size_t& count, std::string_view& line) {
    const void* nl = std::memchr(text.data() + begin, '\n', text.size() - begin);
    const std::size_t line_end =
        nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
    line = text.substr(begin, line_end - begin);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    count = split_fields(line, place, fields, max_fields);
    return line_end;
}
#endif

std::size_t split_fields(std::string_view line, const LinePlace& place, std::vector<Field>& fields,
                         std::size_t max_fields) {
#if defined(__SSE2__)
    std::size_t count = 0;
    if (max_fields > 0 && split_unquoted(line, place, fields, max_fields, count))
        return count;
#endif
    fields.clear();
    const char* const base = line.data();
    std::size_t pos = 0;
    for (;;) {
        if (fields.size() == max_fields)
            return fields.size() + count_rest(line, pos, place);
        if (pos < line.size() && line[pos] == '"') {
            // Quoted: runs to the next quote that is not doubled.
            std::size_t end = pos + 1;
            for (;;) {
                const void* q = std::memchr(base + end, '"', line.size() - end);
                if (!q) {
                    throw_at(place, static_cast<std::int64_t>(pos) + 1,
                             "quoted field is never closed: expected a closing '\"' on this line");
                }
                end = static_cast<const char*>(q) - base;
                if (end + 1 < line.size() && line[end + 1] == '"') {
                    end += 2;
                    continue;
                }
                break;
            }
            fields.push_back(
                {line.substr(pos + 1, end - pos - 1), static_cast<std::int64_t>(pos) + 1});
            pos = end + 1;
            if (pos >= line.size())
                return fields.size();
            if (line[pos] != ',') {
                throw_at(place, static_cast<std::int64_t>(pos) + 1,
                         "expected ',' after a quoted field");
            }
            ++pos;
            continue;
        }
        const std::size_t end = find_byte(line, pos, ',');
        fields.push_back({line.substr(pos, end - pos), static_cast<std::int64_t>(pos) + 1});
        if (end == line.size())
            return fields.size();
        pos = end + 1;
    }
}

bool is_missing_text(std::string_view cell) {
    cell = trim(cell);
    return cell.empty() || cell == "NA" || cell == "N/A";
}

bool is_not_available_text(std::string_view cell) {
    cell = trim(cell);
    return cell == "NA" || cell == "N/A";
}

const char* cell_state_text(CellState state) {
    switch (state) {
        case CellState::value:
            return "a number";
        case CellState::not_available:
            return "not available (NA)";
        case CellState::empty:
            return "empty";
        case CellState::not_a_number:
            return "not a number";
        case CellState::not_finite:
            return "not a finite number";
        case CellState::negative:
            return "negative";
        case CellState::too_large:
            return "2^63 ns or more (over 292 years: a negative value written as unsigned)";
        case CellState::not_whole:
            return "not a whole number";
    }
    return "not a number";
}

namespace {
// What a cell that is not a plain number holds: NA, empty or text.
CellState state_of_text(std::string_view cell) {
    const std::string_view s = trim(cell);
    if (s.empty())
        return CellState::empty;
    if (s == "NA" || s == "N/A")
        return CellState::not_available;
    return CellState::not_a_number;
}
}  // namespace

CellState read_number_cell(const Field& field, double& value) {
    std::string_view s = trim(field.text);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    const auto [ptr, ec] = fast_float::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size())
        return state_of_text(field.text);
    if (!std::isfinite(value))
        return CellState::not_finite;
    return CellState::value;
}

CellState read_time_cell_by_double(const Field& field, int ns_digits, std::int64_t& ns) {
    double v = 0;
    const CellState state = read_number_cell(field, v);
    if (state != CellState::value)
        return state;
    if (v < 0.0)
        return CellState::negative;
    static constexpr double kScale[10] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    const double scaled = v * kScale[ns_digits];
    if (!(scaled < kInt64RangeNs))
        return CellState::too_large;
    ns = round_to_int64(scaled);
    return CellState::value;
}

CellState read_signed_ms_cell(const Field& field, std::int64_t& ns) {
    double v = 0;
    const CellState state = read_number_cell(field, v);
    if (state != CellState::value)
        return state;
    const double scaled = v * 1e6;
    if (!(std::fabs(scaled) < kInt64RangeNs))
        return CellState::too_large;
    ns = round_to_int64(scaled);
    return CellState::value;
}

CellState read_integer_cell(const Field& field, std::int64_t& value) {
    if (field.text.size() == 1 && static_cast<unsigned>(field.text[0] - '0') < 10) {
        value = field.text[0] - '0';
        return CellState::value;
    }
    std::string_view s = trim(field.text);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (!s.empty() && ec == std::errc() && ptr == s.data() + s.size())
        return CellState::value;
    double d = 0;
    if (read_number_cell(field, d) == CellState::value)
        return CellState::not_whole;
    return state_of_text(field.text);
}

void BadCellTally::add(std::string_view column, std::string_view kind, std::string_view treated_as,
                       std::int64_t line, std::int64_t column_number, std::string_view text) {
    for (BadCells& g : groups_) {
        if (g.column == column && g.kind == kind) {
            ++g.count;
            return;
        }
    }
    BadCells g;
    g.column = std::string(column);
    g.kind = std::string(kind);
    g.treated_as = std::string(treated_as);
    g.count = 1;
    g.first_line = line;
    g.first_column = column_number;
    g.first_text = std::string(text.substr(0, 64));
    groups_.push_back(std::move(g));
}

void BadCellTally::add(std::string_view column, CellState state, std::string_view treated_as,
                       const LinePlace& place, const Field& field) {
    add(column, cell_state_text(state), treated_as, place.line, field.column, field.text);
}

void BadCellTally::merge(const BadCellTally& later, std::int64_t line_base) {
    for (const BadCells& g : later.groups_) {
        auto it = std::find_if(groups_.begin(), groups_.end(), [&](const BadCells& mine) {
            return mine.column == g.column && mine.kind == g.kind;
        });
        if (it != groups_.end()) {
            it->count += g.count;
            continue;
        }
        groups_.push_back(g);
        groups_.back().first_line += line_base;
    }
}

void BadCellTally::append_to(DataQuality& quality) const {
    for (const BadCells& g : groups_) {
        auto it = std::find_if(
            quality.bad_cells.begin(), quality.bad_cells.end(),
            [&](const BadCells& q) { return q.column == g.column && q.kind == g.kind; });
        if (it != quality.bad_cells.end())
            it->count += g.count;
        else
            quality.bad_cells.push_back(g);
    }
}

double parse_number(const Field& field, const LinePlace& place, std::string_view what) {
    std::string_view s = trim(field.text);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    double value = 0.0;
    const auto [ptr, ec] = fast_float::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
        throw_at(place, field.column,
                 fmt::format("expected a number in column '{}', found {}", what,
                             quote_for_message(field.text)));
    }
    if (!std::isfinite(value)) {
        throw_at(place, field.column,
                 fmt::format("expected a finite number in column '{}', found {}", what,
                             quote_for_message(field.text)));
    }
    return value;
}

double parse_non_negative(const Field& field, const LinePlace& place, std::string_view what) {
    const double value = parse_number(field, place, what);
    if (value < 0.0) {
        throw_at(place, field.column,
                 fmt::format("expected a time >= 0 in column '{}', found {}", what,
                             quote_for_message(field.text)));
    }
    return value;
}

std::int64_t parse_integer(const Field& field, const LinePlace& place, std::string_view what) {
    // One digit, as a flag column holds (PresentMon's Dropped on every row): no trimming.
    if (field.text.size() == 1 && static_cast<unsigned>(field.text[0] - '0') < 10)
        return field.text[0] - '0';
    std::string_view s = trim(field.text);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
        throw_at(place, field.column,
                 fmt::format("expected a whole number in column '{}', found {}", what,
                             quote_for_message(field.text)));
    }
    return value;
}

bool looks_like_number(std::string_view text) {
    std::string_view s = trim(text);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    if (s.empty())
        return false;
    double value = 0.0;
    const auto [ptr, ec] = fast_float::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && ptr == s.data() + s.size();
}

std::string quote_for_message(std::string_view text, std::size_t max_chars) {
    std::string out = "'";
    std::size_t n = 0;
    for (const char c : text) {
        if (n++ == max_chars) {
            out += "...";
            break;
        }
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
            out += fmt::format("\\x{:02x}", u);
        } else {
            out += c;
        }
    }
    return out + "'";
}

std::int64_t scaled_to_ns(double value, double ns_per_unit, const Field& field,
                          const LinePlace& place) {
    const double ns = value * ns_per_unit;
    // Past the int64 range the rounding is undefined.
    if (!(std::fabs(ns) < kInt64RangeNs)) {
        throw_at(place, field.column,
                 fmt::format("time {} is out of range: expected less than 292 years",
                             quote_for_message(field.text)));
    }
    return round_to_int64(ns);
}

std::int64_t ms_cell_to_ns(double ms, const Field& field, const LinePlace& place) {
    return scaled_to_ns(ms, 1e6, field, place);
}

namespace {
constexpr std::uint64_t kPow10[20] = {1ULL,
                                      10ULL,
                                      100ULL,
                                      1000ULL,
                                      10000ULL,
                                      100000ULL,
                                      1000000ULL,
                                      10000000ULL,
                                      100000000ULL,
                                      1000000000ULL,
                                      10000000000ULL,
                                      100000000000ULL,
                                      1000000000000ULL,
                                      10000000000000ULL,
                                      100000000000000ULL,
                                      1000000000000000ULL,
                                      10000000000000000ULL,
                                      100000000000000000ULL,
                                      1000000000000000000ULL,
                                      10000000000000000000ULL};
// Results from here on go to the double path: there a double's spacing nears a nanosecond.
constexpr std::uint64_t kPlainLimitNs = kPow10[15];
// kPlainLimitNs / kPow10[k], looked up: a cell's digits are checked against it on every cell,
// and a division there would be the dearest step of the parse.
constexpr std::array<std::uint64_t, 20> kPlainLimitOverPow10 = [] {
    std::array<std::uint64_t, 20> limits{};
    for (std::size_t k = 0; k < limits.size(); ++k)
        limits[k] = kPlainLimitNs / kPow10[k];
    return limits;
}();
constexpr int kMaxPlainDigits = 19;  // any 19 digits fit a uint64

constexpr std::uint64_t kHighNibbles = 0xF0F0F0F0F0F0F0F0ULL;
constexpr std::uint64_t kZeros = 0x3030303030303030ULL;  // eight '0'

// A set high nibble in every byte of `w` that is not '0'..'9' (high nibble 3, and adding 6 keeps
// it 3 only up to '9'). A byte of 0xFA or more carries into the next one up, so only the lowest
// flagged byte is certain, which is the one wanted: where the digits stop.
inline std::uint64_t non_digits(std::uint64_t w) {
    return ((w & kHighNibbles) ^ kZeros) | (((w + 0x0606060606060606ULL) & kHighNibbles) ^ kZeros);
}

// The value of eight digits, the first in the lowest byte, in three multiplications instead of
// eight: neighbouring digits are joined into pairs, pairs into fours, fours into eight.
inline std::uint64_t eight_digits_value(std::uint64_t w) {
    w -= kZeros;
    w = w * 10 + (w >> 8);  // byte 2i: the pair (2i, 2i+1), as 10·first + second
    constexpr std::uint64_t kPairs = 0x000000FF000000FFULL;
    // Pairs 0 and 2 times 10^6 and 10^2, pairs 1 and 3 times 10^4 and 1, summed in bits 32..63.
    return (((w & kPairs) * (100 + (1000000ULL << 32))) +
            (((w >> 16) & kPairs) * (1 + (10000ULL << 32)))) >>
           32;
}

// m / 10^digits (1 ≤ digits ≤ kMaxBelowNsDigits) by a constant divisor in each case, which the
// compiler makes a multiplication: a division by a variable was a third of parsing a cell.
constexpr int kMaxBelowNsDigits = 18;
inline std::uint64_t divide_by_pow10(std::uint64_t m, int digits) {
    switch (digits) {
        case 1:
            return m / kPow10[1];
        case 2:
            return m / kPow10[2];
        case 3:
            return m / kPow10[3];
        case 4:
            return m / kPow10[4];
        case 5:
            return m / kPow10[5];
        case 6:
            return m / kPow10[6];
        case 7:
            return m / kPow10[7];
        case 8:
            return m / kPow10[8];
        case 9:
            return m / kPow10[9];
        case 10:
            return m / kPow10[10];
        case 11:
            return m / kPow10[11];
        case 12:
            return m / kPow10[12];
        case 13:
            return m / kPow10[13];
        case 14:
            return m / kPow10[14];
        case 15:
            return m / kPow10[15];
        case 16:
            return m / kPow10[16];
        case 17:
            return m / kPow10[17];
        default:
            return m / kPow10[18];
    }
}

// Appends the `count` (1..8) digits in the top bytes of `w` to `m`: the bytes below are made
// '0', which leaves the value as it is.
inline bool append_top_digits(std::uint64_t w, int count, std::uint64_t& m, int& digits) {
    if ((digits += count) > kMaxPlainDigits)
        return false;
    const int below = 8 * (8 - count);
    const std::uint64_t top = below == 0 ? w : ((w >> below) << below) | (kZeros >> (8 * count));
    m = m * kPow10[count] + eight_digits_value(top);
    return true;
}

// Appends the digits at `p` (in a cell that starts at `begin`) to `m`, eight bytes at a time: a
// word is loaded only where its eight bytes lie in the cell. False when the number passes
// kMaxPlainDigits digits.
inline bool take_digits(const char* begin, const char*& p, const char* end, std::uint64_t& m,
                        int& digits) {
    while (end - p >= 8) {
        const std::uint64_t w = load8(p);
        const std::uint64_t other = non_digits(w);
        const int count = other == 0 ? 8 : std::countr_zero(other) >> 3;
        if (count == 0)
            return true;  // (a shift by 64 below would be undefined)
        // The first `count` bytes, moved to the top of the word.
        const std::uint64_t first = count == 8 ? w : w << (8 * (8 - count));
        if (!append_top_digits(first, count, m, digits))
            return false;
        p += count;
        if (count < 8)
            return true;
    }
    const auto left = static_cast<int>(end - p);
    if (left > 0 && end - begin >= 8) {
        // The last bytes, read as the top of the word that ends the cell.
        const std::uint64_t w = load8(end - 8);
        const int below = 8 * (8 - left);
        if (non_digits(((w >> below) << below) | (kZeros >> (8 * left))) == 0) {
            p = end;
            return append_top_digits(w, left, m, digits);
        }
    }
    while (p != end && static_cast<unsigned>(*p - '0') < 10) {
        if (++digits > kMaxPlainDigits)
            return false;
        m = m * 10 + static_cast<unsigned>(*p++ - '0');
    }
    return true;
}

// The digits of `count` (0..8) bytes at `p` as a number: false when one of them is not a digit.
// The cell ending at `end` holds eight bytes or more before `end`, so the word is read where it
// lies wholly in the cell: at `p` when eight bytes follow it, else the cell's last eight bytes.
inline bool few_digits_value(const char* p, int count, const char* end, std::uint64_t& value) {
    if (count == 0) {
        value = 0;
        return true;
    }
    const std::uint64_t w =
        end - p >= 8 ? load8(p) : load8(end - 8) >> (8 * static_cast<int>(p - (end - 8)));
    // The `count` bytes moved to the top of the word, '0' below them (leading zeros).
    const std::uint64_t top = count == 8 ? w : (w << (8 * (8 - count))) | (kZeros >> (8 * count));
    if (non_digits(top) != 0)
        return false;
    value = eight_digits_value(top);
    return true;
}

// `whole` ns and a sub-nanosecond part of below / unit ns, rounded to the nearest ns as the
// double path rounds it: false (for that path) where the two could differ (see below).
inline bool round_below_ns(std::uint64_t whole, std::uint64_t below, std::uint64_t unit,
                           std::int64_t& ns) {
    if (whole >= kPlainLimitNs)
        return false;
    const std::uint64_t above = unit - below;
    // |2·below − unit|: twice the distance from a half, in units of 1/unit ns. Every value here
    // is below 10^18, so the conversions are the quick signed ones.
    const std::uint64_t from_half = below > above ? below - above : above - below;
    if (static_cast<double>(static_cast<std::int64_t>(from_half)) <=
        2e-15 * static_cast<double>(static_cast<std::int64_t>(unit)) *
            static_cast<double>(static_cast<std::int64_t>(whole + 1)))
        return false;
    ns = static_cast<std::int64_t>(whole + (below > above ? 1 : 0));
    return true;
}

// The common shape, a cell of 8 to 20 bytes with a point in its first eight (a capture's
// "16.66670000000000" or "1.01040000"): the whole digits, the fraction digits down to the
// nanosecond and those below it are each at most eight, so each is one word, read and checked
// at once, with no division. 0 when the cell has another shape (for the general path), else
// 1 with `ns` set or -1 for the double path.
inline int short_decimal_to_ns(std::string_view text, int ns_digits, std::int64_t& ns) {
    const std::size_t n = text.size();
    if (n < 8 || n > 20)
        return 0;
    const char* const begin = text.data();
    const char* const end = begin + n;
    const std::uint64_t point = bytes_equal(load8(begin), '.');
    if (point == 0)
        return 0;
    const int whole_digits = std::countr_zero(point) >> 3;
    const int fraction_digits = static_cast<int>(n) - whole_digits - 1;
    const int ns_fraction_digits = std::min(fraction_digits, ns_digits);
    const int below_ns_digits = fraction_digits - ns_fraction_digits;
    if (whole_digits == 0 || fraction_digits == 0)
        return -1;  // ".5", "1234567.": not plain digits
    if (ns_fraction_digits > 8 || below_ns_digits > 8)
        return 0;
    std::uint64_t whole = 0, fraction = 0, below = 0;
    if (!few_digits_value(begin, whole_digits, end, whole) ||
        !few_digits_value(begin + whole_digits + 1, ns_fraction_digits, end, fraction) ||
        !few_digits_value(end - below_ns_digits, below_ns_digits, end, below))
        return -1;
    // At most 7 whole digits: below 10^16, no overflow.
    const std::uint64_t whole_ns =
        whole * kPow10[ns_digits] + fraction * kPow10[ns_digits - ns_fraction_digits];
    if (below_ns_digits == 0) {
        if (whole_ns >= kPlainLimitNs)
            return -1;
        ns = static_cast<std::int64_t>(whole_ns);
        return 1;
    }
    return round_below_ns(whole_ns, below, kPow10[below_ns_digits], ns) ? 1 : -1;
}

// A cell of at most seven bytes ("33.252", "0.380": most of the time cells of a FrameView row),
// too short for a word to be read within it: its few digits are taken one by one. 0 when the
// cell has another shape or a value the general path should judge (which then gives its answer),
// else 1 with `ns` set to what the general path sets.
inline int tiny_decimal_to_ns(std::string_view text, int ns_digits, std::int64_t& ns) {
    if (text.empty() || text.size() >= 8 || text.front() == '.')
        return 0;
    std::uint64_t m = 0;  // every digit, the point left out
    int fraction_digits = 0;
    bool point = false;
    for (const char c : text) {
        const unsigned digit = static_cast<unsigned>(static_cast<unsigned char>(c)) - '0';
        if (digit < 10) {
            m = m * 10 + digit;
            fraction_digits += point ? 1 : 0;
        } else if (c == '.' && !point) {
            point = true;
        } else {
            return 0;
        }
    }
    if ((point && fraction_digits == 0) || fraction_digits > ns_digits)
        return 0;
    const std::uint64_t scale = kPow10[ns_digits - fraction_digits];
    if (m >= kPlainLimitOverPow10[ns_digits - fraction_digits])
        return 0;
    ns = static_cast<std::int64_t>(m * scale);
    return 1;
}
}  // namespace

// Why the two paths agree: fast_float rounds the decimal to the nearest double (relative error
// at most 2^-53), the product with 10^ns_digits (exact in a double) rounds once more (2^-53), so
// the product lies within D·2^-52 of the exact value D in ns. round_to_int64 then gives what
// rounding D itself gives, half away from zero, unless D lies within that distance of a half.
// Here D < 10^15, and a result whose sub-nanosecond digits lie within (D+1)·10^-15 of a half (an
// exact half included) goes to the double path, so both always give the same nanosecond.
bool plain_decimal_to_ns(std::string_view text, int ns_digits, std::int64_t& ns) {
    if (tiny_decimal_to_ns(text, ns_digits, ns) != 0)
        return true;
    if (const int shaped = short_decimal_to_ns(text, ns_digits, ns); shaped != 0)
        return shaped > 0;
    const char* p = text.data();
    const char* const end = p + text.size();
    std::uint64_t m = 0;  // every digit, the point left out
    int digits = 0;
    if (!take_digits(text.data(), p, end, m, digits) || digits == 0)
        return false;
    int fraction_digits = 0;
    if (p != end) {
        if (*p++ != '.')
            return false;
        const int whole_digits = digits;
        if (!take_digits(text.data(), p, end, m, digits))
            return false;
        fraction_digits = digits - whole_digits;
        if (fraction_digits == 0 || p != end)
            return false;
    }
    if (fraction_digits <= ns_digits) {
        const std::uint64_t scale = kPow10[ns_digits - fraction_digits];
        if (m >= kPlainLimitOverPow10[ns_digits - fraction_digits])
            return false;
        ns = static_cast<std::int64_t>(m * scale);
        return true;
    }
    const int below_ns_digits = fraction_digits - ns_digits;
    if (below_ns_digits > kMaxBelowNsDigits)
        return false;
    const std::uint64_t unit = kPow10[below_ns_digits];  // the sub-nanosecond digits' weight
    const std::uint64_t whole = divide_by_pow10(m, below_ns_digits);
    return round_below_ns(whole, m - whole * unit, unit, ns);
}

std::int64_t parse_time_ns(const Field& field, const LinePlace& place, std::string_view what,
                           int ns_digits) {
    std::int64_t ns = 0;
    if (plain_decimal_to_ns(field.text, ns_digits, ns))
        return ns;
    return scaled_to_ns(parse_non_negative(field, place, what),
                        static_cast<double>(kPow10[ns_digits]), field, place);
}

}  // namespace loopscope
