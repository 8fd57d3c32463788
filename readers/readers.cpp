// The public side of the readers: recognising a file's format from its first bytes, handing it
// to the reader of its family, and choosing one stream (process / swap chain) of the result.
#include "readers/readers.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "core/beside.hpp"
#include "core/trace_record.hpp"
#include "readers/csv_scanner.hpp"
#include "readers/read_formats.hpp"

namespace loopscope {

namespace detail {

namespace {

const char* const kKnownFormats =
    "expected a loopscope trace ('# loopscope-trace v1'), a PresentMon / OCAT / FrameView / "
    "CapFrameX CSV (a header row with Application, ProcessID, SwapChainAddress, "
    "MsBetweenPresents or FrameTime ...), CapFrameX JSON, a MangoHud CSV, an MSI Afterburner log "
    "('Hardware monitoring log'), or a plain list of frame times (one number a line)";

// The top-level keys of a JSON object, read as they stream by until one of CapFrameX's appears.
class TopLevelKeys : public nlohmann::json_sax<nlohmann::json> {
  public:
    bool capframex = false;     // a key of CapFrameX's session at the top level
    bool whole = false;         // the top-level value ended within what was read
    bool object = false;        // the top-level value is an object
    std::size_t keys_seen = 0;  // top-level keys before the answer

    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t&) override { return scalar(); }
    bool string(string_t&) override { return scalar(); }
    bool binary(binary_t&) override { return scalar(); }
    bool start_object(std::size_t) override {
        if (depth_ == 0)
            object = true;
        ++depth_;
        return true;
    }
    bool end_object() override { return end(); }
    bool start_array(std::size_t) override {
        ++depth_;
        return true;
    }
    bool end_array() override { return end(); }
    bool key(string_t& k) override {
        if (depth_ != 1)
            return true;
        ++keys_seen;
        // CapFrameX writes Hash, Info, Runs first; the reader needs only Runs.
        capframex = k == "Runs" || k == "Info" || k == "Hash";
        return !capframex;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;
    }

  private:
    bool scalar() {
        whole = depth_ == 0;
        return true;
    }
    bool end() {
        whole = --depth_ == 0;
        return true;
    }
    std::size_t depth_ = 0;
};

// JSON is taken for a CapFrameX session unless its first MiB shows it is not: an array or a
// value other than an object at the top, or an object whose top-level keys read so far (at least
// one, or all of them) hold none of CapFrameX's. A malformed start is left to the reader, which
// says where.
void require_capframex_shape(const std::string& path) {
    constexpr std::size_t kShapeReadBytes = 1 << 20;
    std::ifstream in(path, std::ios::binary);
    std::string head(kShapeReadBytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    if (head.starts_with("\xEF\xBB\xBF"))
        head.erase(0, 3);
    TopLevelKeys sax;
    nlohmann::json::sax_parse(head, &sax, nlohmann::json::input_format_t::json, false);
    if (sax.capframex)
        return;
    if (!sax.object && sax.whole) {
        throw InputError(path,
                         "JSON that is not a CapFrameX session (its top level is not an object "
                         "with Runs)");
    }
    if (sax.object && (sax.keys_seen > 0 || sax.whole)) {
        throw InputError(path,
                         "JSON that is not a CapFrameX session (no Hash, Info or Runs at its top "
                         "level)");
    }
    if (!sax.object && head.find_first_not_of(" \t\r\n") != std::string::npos &&
        head[head.find_first_not_of(" \t\r\n")] == '[') {
        throw InputError(path,
                         "JSON that is not a CapFrameX session (an array at its top level, not "
                         "an object with Runs)");
    }
}

}  // namespace

// Text captures hold no control bytes but tab, CR and LF; anything else in the first 4 KiB means
// the file is binary (or not text in an encoding we read), reported where it was found.
void reject_binary_head(const std::string& path, std::string_view head) {
    // UTF-16 (PowerShell's redirection writes it) is text: its UTF-8 is checked.
    const TextEncoding encoding = encoding_of(head);
    std::string utf8;
    if (encoding != TextEncoding::utf8) {
        utf16_to_utf8(head.substr(0, std::min<std::size_t>(head.size(), 2 * kBinaryCheckBytes)),
                      encoding == TextEncoding::utf16be, false, utf8);
        head = utf8;
    }
    const std::size_t n = std::min<std::size_t>(head.size(), kBinaryCheckBytes);
    std::int64_t line = 1, column = 1;
    // Columns count from after a byte-order mark, as everywhere else.
    const std::size_t first = n >= 3 && head.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    for (std::size_t i = first; i < n; ++i) {
        const auto u = static_cast<unsigned char>(head[i]);
        if (u == '\n') {
            ++line;
            column = 1;
            continue;
        }
        if ((u < 0x20 && u != '\t' && u != '\r') || u == 0x7f) {
            throw InputError(
                path, line, column,
                fmt::format("binary data (byte 0x{:02x}): expected a text capture", u));
        }
        ++column;
    }
}

namespace {

// Refuses a file that is not text; returns the first character that is not blank or a byte-order
// mark (0 when the first 4 KiB are blank).
char reject_binary(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        throw InputError(path, fmt::format("cannot open: {}", std::strerror(errno)));
    char head[kBinaryCheckBytes];
    const std::size_t n = std::fread(head, 1, sizeof head, f);
    const int read_errno = std::ferror(f) ? errno : 0;
    std::fclose(f);
    if (read_errno != 0) {  // a folder, for one
        throw InputError(path, fmt::format("cannot read: {}", std::strerror(read_errno)));
    }
    if (n == 0) {
        throw InputError(path, fmt::format("empty file: {}", kKnownFormats));
    }
    reject_binary_head(path, std::string_view(head, n));
    std::string text(head, n);
    if (const TextEncoding encoding = encoding_of(text); encoding != TextEncoding::utf8) {
        std::string utf8;
        utf16_to_utf8(text, encoding == TextEncoding::utf16be, false, utf8);
        text = std::move(utf8);
    }
    const std::size_t first = text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    for (std::size_t i = first; i < text.size(); ++i) {
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n')
            return text[i];
    }
    return 0;
}

std::vector<std::string> header_names(std::string_view line, const std::string& path,
                                      std::int64_t line_number) {
    std::vector<Field> fields;
    split_fields(line, LinePlace{&path, line_number}, fields);
    std::vector<std::string> names;
    for (const auto& f : fields)
        names.emplace_back(f.text);
    return names;
}

bool has_name(const std::vector<std::string>& names, std::string_view name) {
    return std::any_of(names.begin(), names.end(),
                       [&](const std::string& n) { return trim(n) == name; });
}

// A tool's summary of a capture (one row of figures, no frames) given instead of the capture:
// refused in one line that says what it is and which file to give. FrameView's
// `FrameView_Summary.csv` starts `TimeStamp,Application,Log Name,...,Avg FPS,1% Low FPS,...`
// (one row per capture, `Log Name` naming the capture); MangoHud's `<log>_summary.csv`
// (src/logging.cpp, writeSummary) is `0.1% Min FPS,1% Min FPS,97% Percentile FPS,Average
// FPS,...` and one row, beside the log of the same name without `_summary`.
void reject_summary(const std::string& path, const std::vector<std::string>& names,
                    LineReader& reader, std::int64_t line) {
    if (has_name(names, "Avg FPS") && has_name(names, "1% Low FPS")) {
        std::string log;
        const auto at = std::find_if(names.begin(), names.end(),
                                     [](const std::string& n) { return trim(n) == "Log Name"; });
        std::string_view row;
        if (at != names.end() && reader.next(row)) {
            std::vector<Field> cells;
            split_fields(row, LinePlace{&path, reader.line_number()}, cells);
            const auto i = static_cast<std::size_t>(at - names.begin());
            if (i < cells.size() && !trim(cells[i].text).empty())
                log = fmt::format(" (its first row summarises '{}')", trim(cells[i].text));
        }
        throw InputError(path, line, 1,
                         fmt::format("a FrameView summary (FrameView_Summary.csv: figures of "
                                     "whole captures, no frames): give the capture instead, "
                                     "FrameView's per-frame log FrameView_<game>_<time>_Log.csv{}",
                                     log));
    }
    if (has_name(names, "Average FPS") &&
        (has_name(names, "1% Min FPS") || has_name(names, "0.1% Min FPS"))) {
        std::string log = "the log of the same name without '_summary'";
        const std::string_view tail = "_summary.csv";
        if (path.size() > tail.size() && path.ends_with(tail))
            log = fmt::format("'{}.csv'", path.substr(0, path.size() - tail.size()));
        throw InputError(path, line, 1,
                         fmt::format("a MangoHud summary (<log>_summary.csv: figures of a whole "
                                     "log, no samples): give the log instead, {}",
                                     log));
    }
}

}  // namespace

std::string detect_format_of(const std::string& path) {
    // JSON is known by its first character, before any line is read: a minified capture is
    // one line of any length, past the line limit of the CSV readers.
    const char first = reject_binary(path);
    if (first == '{' || first == '[') {
        require_capframex_shape(path);
        return "capframex-json";
    }
    // The first lines decide: a header row and, after a CapFrameX preamble or above a summary's
    // row, a few more, far less than the chunk a reader of the whole file starts with.
    constexpr std::size_t kDetectionReadBytes = 64 << 10;
    LineReader reader(path, kDetectionReadBytes);
    std::string_view line;
    while (reader.next(line)) {
        const std::string_view text = trim(line);
        if (text.empty())
            continue;
        const std::int64_t n = reader.line_number();
        if (line.substr(0, 17) == "# loopscope-trace")
            return "loopscope-trace";
        if (text.front() == '{' || text.front() == '[') {
            require_capframex_shape(path);
            return "capframex-json";
        }
        if (line.substr(0, 2) == "//") {
            // CapFrameX's preamble: the header row after it decides the layout.
            while (reader.next(line) && (line.empty() || line.substr(0, 2) == "//")) {
            }
            const std::string kind = classify_presentmon_header(
                header_names(line, path, reader.line_number()), path, reader.line_number(), true);
            if (kind.empty()) {
                throw InputError(path, reader.line_number(), 1,
                                 fmt::format("unknown format after '//' lines: {}", kKnownFormats));
            }
            return kind;
        }
        if (line == "v1" || line.find("SYSTEM INFO") != std::string_view::npos)
            return "mangohud";
        if (line.find("Hardware monitoring log") != std::string_view::npos)
            return "afterburner";
        if (looks_like_number(line))
            return "plain";
        const std::vector<std::string> names = header_names(line, path, n);
        reject_summary(path, names, reader, n);
        if (!names.empty() && names[0] == "os" && names.size() > 1 && names[1] == "cpu") {
            return "mangohud";
        }
        if (std::find(names.begin(), names.end(), "frametime") != names.end())
            return "mangohud";
        const std::string kind = classify_presentmon_header(names, path, n, false);
        if (!kind.empty())
            return kind;
        if (names.size() == 1) {
            for (const char sep : {';', '\t', '|'}) {
                const std::size_t at = line.find(sep);
                if (at != std::string_view::npos) {
                    throw InputError(
                        path, n, static_cast<std::int64_t>(at) + 1,
                        fmt::format("found '{}' between columns: expected comma-separated values",
                                    sep == '\t' ? std::string("\\t") : std::string(1, sep)));
                }
            }
        }
        throw InputError(path, n, 1,
                         fmt::format("unknown format: the first line is {}; {}",
                                     quote_for_message(line, 80), kKnownFormats));
    }
    throw InputError(path, fmt::format("empty file (blank lines only): {}", kKnownFormats));
}

ParallelRead parallel_read_of(const ReadOptions& options) {
    ParallelRead p;
    p.threads = threads_or_hardware(options.threads);
    p.map_file = options.map_large_files;
    if (options.chunk_bytes > 0) {
        p.chunk_bytes = options.chunk_bytes;
        p.from_bytes = 0;
    }
    return p;
}

}  // namespace detail

namespace {

detail::FileStreams read_streams_of_file(const std::string& path, const ReadOptions& options) {
    detail::FileStreams file;
    const std::string format = detail::detect_format_of(path);
    if (format == "loopscope-trace")
        file.streams = detail::read_trace_streams(
            path, options.frame_times_only    ? detail::TraceLoopColumns::none
                  : options.loop_figures_only ? detail::TraceLoopColumns::figures
                                              : detail::TraceLoopColumns::records);
    else if (format == "plain")
        file.streams = detail::read_plain_streams(path, options.plain_unit);
    else if (format == "mangohud")
        file.streams = detail::read_mangohud_streams(path);
    else if (format == "afterburner")
        file.streams = detail::read_afterburner_streams(path);
    else if (format == "capframex-json")
        file = detail::read_capframex_json_streams(path);
    else
        file = detail::read_presentmon_streams(path, detail::parallel_read_of(options));
    file.format = format;
    return file;
}

// Standard input ("-") and pipes are copied once (the readers open a file more than once); the
// errors and the captures then name the input as given, never the copy.
detail::FileStreams read_streams(const std::string& path, const ReadOptions& options) {
    // A device that never ends (/dev/zero) is refused at its first block, not copied forever.
    const SpooledInput input(path, [&](std::string_view head) {
        if (!head.empty())
            detail::reject_binary_head(path, head);
    });
    if (!input.spooled())
        return read_streams_of_file(path, options);
    detail::FileStreams file;
    try {
        file = read_streams_of_file(input.path(), options);
    } catch (const InputError& e) {
        throw InputError(path, e.line(), e.column(), e.message());
    }
    for (Capture& c : file.streams)
        c.source.file = path;
    return file;
}

// The stream kept, with the file's metadata (a stream's own keys win) and data quality.
Capture with_file_metadata(Capture&& chosen, detail::FileStreams& file) {
    chosen.metadata.merge(file.metadata);
    DataQuality& q = chosen.data_quality;
    q.bad_cells.insert(q.bad_cells.begin(), file.quality.bad_cells.begin(),
                       file.quality.bad_cells.end());
    q.oddities.insert(q.oddities.begin(), file.quality.oddities.begin(),
                      file.quality.oddities.end());
    return std::move(chosen);
}

CaptureStreamInfo info_of(const Capture& c) {
    CaptureStreamInfo info;
    info.process = c.source.process;
    info.process_id = c.source.process_id;
    info.swap_chain = c.source.swap_chain;
    info.frames = c.frames();
    // Summed as double: frame times the reader accepts (each below 2^63 ns) may add up past the
    // int64 range, and a listing must not refuse them (the analysis does, at the frame).
    double total_ns = 0;
    if (c.per_frame || c.start_ns.empty()) {
        for (const std::int64_t ns : c.frame_ns)
            total_ns += static_cast<double>(ns);
    } else {
        // Sampled logs: a row's frame time is one frame's (MangoHud) or an interval's rate
        // (Afterburner), so their sum is not the time covered; the span from the first to the
        // last sample is.
        total_ns = static_cast<double>(c.start_ns.back()) - static_cast<double>(c.start_ns.front());
    }
    info.duration_s = total_ns / 1e9;
    return info;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& ch : out)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

// A swap chain's address as a number: PresentMon writes 0x0000019D7F1BA8F0, a debugger or
// another tool 0x19D7F1BA8F0, and both name the same swap chain.
std::optional<std::uint64_t> hex_address(std::string_view text) {
    if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
        return std::nullopt;
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data() + 2, end, value, 16);
    if (ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

bool matches(const Capture& c, const std::string& wanted) {
    const std::string w = lower(wanted);
    const std::string name = lower(c.source.process);
    if (!name.empty() && (name == w || name == w + ".exe"))
        return true;
    if (c.source.process_id >= 0 && std::to_string(c.source.process_id) == wanted)
        return true;
    if (c.source.swap_chain.empty())
        return false;
    const auto wanted_address = hex_address(wanted);
    const auto address = hex_address(c.source.swap_chain);
    if (wanted_address && address)
        return *wanted_address == *address;
    return lower(c.source.swap_chain) == w;
}

std::string describe(const CaptureStreamInfo& s) {
    std::string out = s.process.empty() ? std::string("(unnamed)") : s.process;
    if (s.process_id >= 0)
        out += fmt::format(" PID {}", s.process_id);
    if (!s.swap_chain.empty())
        out += fmt::format(" swap chain {}", s.swap_chain);
    return out + fmt::format(" ({} frames)", s.frames);
}

// What is odd about the rows of the stream kept, whatever the format: counted and said
// (DataQuality::oddities). A start column's times that go back are rows out of time order (the
// rows after them go on from before) or a clock that went back (they go on from the earlier
// time); equal starts of equal frames are duplicated rows. A generated frame shares its
// application frame's start (and, in PresentMon 2.x, has a FrameTime of 0): not odd.
void note_row_oddities(Capture& c, bool has_start_column) {
    std::vector<DataOddity>& out = c.data_quality.oddities;
    const std::vector<std::int64_t>& start = c.start_ns;
    const std::size_t n = c.frames();
    const bool marks_generated = c.generated.size() == n;
    const auto generated = [&](std::size_t i) { return marks_generated && c.generated[i] != 0; };
    // Several frames of a trace start together only if its clock stood still; presents of the
    // PresentMon family may share a time stamp's resolution.
    const bool trace = c.source.format == "loopscope-trace";
    if (has_start_column && start.size() == n) {
        std::int64_t out_of_order = 0, went_back = 0, duplicated = 0, same_start = 0;
        std::size_t first_back = 0, first_duplicate = 0;
        for (std::size_t i = 1; i < n; ++i) {
            if (generated(i) || generated(i - 1))
                continue;
            if (start[i] == start[i - 1]) {
                if (c.frame_ns[i] == c.frame_ns[i - 1]) {
                    if (duplicated++ == 0)
                        first_duplicate = i;
                } else if (trace) {
                    ++same_start;
                }
                continue;
            }
            if (start[i] > start[i - 1])
                continue;
            if (out_of_order + went_back == 0)
                first_back = i;
            if (i + 1 < n && start[i + 1] < start[i - 1])
                ++went_back;
            else
                ++out_of_order;
        }
        if (duplicated > 0) {
            out.push_back({"duplicated_rows", duplicated,
                           fmt::format("{} row{} repeat the row before (same start and frame time, "
                                       "first: frame {}): each is read as a frame of its own.",
                                       duplicated, duplicated == 1 ? "" : "s", first_duplicate)});
        }
        if (same_start > 0) {
            out.push_back({"duplicate_start_times", same_start,
                           fmt::format("{} frame{} start at the same time as the frame before.",
                                       same_start, same_start == 1 ? "" : "s")});
        }
        if (out_of_order > 0) {
            out.push_back(
                {"rows_out_of_time_order", out_of_order,
                 fmt::format("{} row{} out of time order (first: frame {}, whose start "
                             "is before the previous frame's): read in file order.",
                             out_of_order, out_of_order == 1 ? " is" : "s are", first_back)});
        }
        if (went_back > 0) {
            out.push_back({"clock_went_back", went_back,
                           fmt::format("The start times go back {} time{} and go on from there "
                                       "(first: frame {}): a clock that went back, or captures "
                                       "joined; frames are read in file order.",
                                       went_back, went_back == 1 ? "" : "s", first_back)});
        }
    }
    std::int64_t zero = 0, counted = 0;
    // A trace's frame 0 has no frame time (first_frame_is_frame_time), nor have the first frames
    // of a PresentMon 2.x stream (leading_frames_without_time): their 0 is not odd.
    const std::size_t first_timed =
        std::max<std::size_t>(first_frame_is_frame_time(c) ? 0 : 1, c.leading_frames_without_time);
    for (std::size_t i = first_timed; i < n; ++i) {
        if (generated(i))
            continue;
        ++counted;
        zero += c.frame_ns[i] == 0 ? 1 : 0;
    }
    if (counted > 0 && zero == counted) {
        out.push_back({"zero_frame_times", zero,
                       "Every frame time is 0: the capture has no frame rate, and figures in "
                       "frames per second are absent."});
    } else if (zero > 0) {
        out.push_back({"zero_frame_times", zero,
                       fmt::format("{} frame time{} 0 ms.", zero, zero == 1 ? " is" : "s are")});
    }
}

// When the stream kept by default (the most frames) has others of similar size beside it (at
// least half its frames), which one was chosen and what else the capture holds.
void note_other_streams(DataQuality& chosen, const std::vector<Capture>& sorted) {
    if (sorted.size() < 2 || 2 * sorted[1].frames() < sorted[0].frames())
        return;
    std::string others;
    std::int64_t similar = 0;
    for (std::size_t i = 1; i < sorted.size(); ++i) {
        if (2 * sorted[i].frames() < sorted[0].frames())
            break;
        ++similar;
        if (!others.empty())
            others += "; ";
        others += describe(info_of(sorted[i]));
    }
    chosen.oddities.push_back(
        {"similar_streams", similar,
         fmt::format("The capture holds {} other stream{} of similar size: {}. This report is of "
                     "{}, the one with the most frames; --process chooses another.",
                     similar, similar == 1 ? "" : "s", others, describe(info_of(sorted[0])))});
}

// Refuses a capture with bad cells (ReadOptions::strict), at the first one in the file.
void refuse_bad_cells(const Capture& c) {
    const std::vector<BadCells>& bad = c.data_quality.bad_cells;
    if (bad.empty())
        return;
    const auto first =
        std::min_element(bad.begin(), bad.end(), [](const BadCells& a, const BadCells& b) {
            return std::pair(a.first_line, a.first_column) <
                   std::pair(b.first_line, b.first_column);
        });
    const std::int64_t count = c.data_quality.bad_cell_count();
    // A JSON capture's cells have no line: the entry is named instead.
    const std::string what = first->first_line > 0
                                 ? fmt::format("column '{}' holds {}", first->column,
                                               quote_for_message(first->first_text))
                                 : fmt::format("{}{}", first->column, first->first_text);
    throw InputError(c.source.file, first->first_line, first->first_column,
                     fmt::format("{}, {} ({} bad cell{} in all): --strict refuses cells that are "
                                 "not the numbers their column holds",
                                 what, first->kind, count, count == 1 ? "" : "s"));
}

// Most frames first; ties keep file order.
void sort_by_frames(std::vector<Capture>& streams) {
    std::stable_sort(streams.begin(), streams.end(),
                     [](const Capture& a, const Capture& b) { return a.frames() > b.frames(); });
}

}  // namespace

std::vector<std::int64_t> running_sum_starts(const std::vector<std::int64_t>& frame_ns) {
    std::vector<std::int64_t> start_ns(frame_ns.size());
    std::int64_t t = 0;
    for (std::size_t i = 0; i < frame_ns.size(); ++i) {
        start_ns[i] = t;
        // A sum past int64 would need 292 years of frames: saturate rather than wrap.
        t = frame_ns[i] > std::numeric_limits<std::int64_t>::max() - t
                ? std::numeric_limits<std::int64_t>::max()
                : t + frame_ns[i];
    }
    return start_ns;
}

namespace {

// Every time a report gives counts from the chosen stream's first row (t = 0); the capture's
// own clock origin is kept once, in clock_origin_ns, never mixed into those times.
void move_clock_origin_to_first_row(Capture& c) {
    if (c.start_ns.empty() || c.start_ns.front() == 0)
        return;
    const std::int64_t origin = c.start_ns.front();
    c.clock_origin_ns += origin;
    // Differences of two start times the readers accepted: they fit (analysis checks the span).
    for (std::int64_t& t : c.start_ns)
        t = static_cast<std::int64_t>(static_cast<std::uint64_t>(t) -
                                      static_cast<std::uint64_t>(origin));
    for (FrameRecord& r : c.loop)
        r.start_ns -= origin;
    // The game's zones and marks are on the start_ns axis too (a zone may begin before the
    // first row: a load before the first frame).
    for (Zone& z : c.zones) {
        z.begin_ns -= origin;
        z.end_ns -= origin;
    }
    for (Mark& m : c.marks)
        m.t_ns -= origin;
    if (c.loop_figures) {
        // Shared and const once computed: shifted in a copy that replaces it.
        auto shifted = std::make_shared<LoopFigures>(*c.loop_figures);
        if (shifted->onset_ns)
            *shifted->onset_ns -= origin;
        for (GuardEngagement& g : shifted->engagements)
            g.start_ns -= origin;
        c.loop_figures = std::move(shifted);
    }
}

}  // namespace

std::string detect_format(const std::string& path) {
    return detail::detect_format_of(path);
}

CaptureDescription describe_format(std::string_view format) {
    CaptureDescription d;
    const bool presentmon_1 = format == "presentmon-1" || format == "ocat";
    const bool presentmon_2 = format == "presentmon-2";  // the "v2 metrics" layout
    if (presentmon_1 || format == "capframex-csv")
        d.display_column = "msBetweenDisplayChange";
    if (presentmon_1)
        d.present_column = "msBetweenPresents";
    if (presentmon_2) {
        d.present_column = "application FrameTime";
        d.display_column = "DisplayedTime";
        d.rebuilt_present_column = "present-to-present, rebuilt from CPUStart + CPUBusy";
        // FrameTime is the time between the application's frame starts: 0 on generated frames.
        d.generated_frames_have_no_frame_time = true;
        d.click_to_photon_column = "ClickToPhotonLatency";
        d.all_input_to_photon_column = "AllInputToPhotonLatency";
    }
    if (format == "presentmon-2.4") {
        d.app_interval_column = "MsBetweenAppStart";
        // 2.4+ has no DisplayLatency column (docs/input-formats.md).
        d.display_latency_from_cpu_start = true;
    }
    if (format == "presentmon-1") {
        d.application_cadence_absent_reason =
            "PresentMon 1.x writes presents only: no application frame-start column (FrameTime or "
            "MsBetweenAppStart)";
    }
    if (format == "ocat")
        d.time_counts_from_recording_start = true;  // OCAT's TimeInSeconds
    if (format == "frameview") {
        d.bottleneck_absent_reason =
            "FrameView logs have neither CPU / GPU busy and wait columns (PresentMon 2.x "
            "MsCPUBusy, MsCPUWait, MsGPUBusy) nor msUntilRenderComplete (PresentMon 1.x)";
    }
    if (format == "loopscope-trace") {
        d.present_column = "raw_ns";
        // Frame 0 has no previous frame: its raw_ns is the time since the trace began.
        d.first_frame_is_frame_time = false;
    }
    if (format == "mangohud") {
        d.present_column = "frametime";
        d.tool_name = "MangoHud";
    }
    if (format == "afterburner") {
        d.present_column = "1000 / Framerate";
        d.tool_name = "MSI Afterburner";
    }
    if (format == "plain")
        d.present_column = "the listed numbers";
    return d;
}

void describe_as(Capture& capture, std::string format) {
    capture.description = describe_format(format);
    capture.source.format = std::move(format);
}

Capture read_capture(const std::string& path, const ReadOptions& options) {
    detail::FileStreams file = read_streams(path, options);
    std::vector<Capture>& streams = file.streams;
    sort_by_frames(streams);
    // Formats whose frames start at the running sum of their frame times cannot go back.
    const bool has_start_column = file.format != "plain";
    const auto kept = [&](Capture&& c) {
        Capture out = with_file_metadata(std::move(c), file);
        note_row_oddities(out, has_start_column);
        move_clock_origin_to_first_row(out);
        if (options.strict)
            refuse_bad_cells(out);
        return out;
    };
    if (options.process.empty()) {
        DataQuality others;
        note_other_streams(others, streams);
        Capture out = kept(std::move(streams.front()));
        for (DataOddity& o : others.oddities)
            out.data_quality.oddities.push_back(std::move(o));
        return out;
    }
    for (auto& c : streams) {
        if (matches(c, options.process))
            return kept(std::move(c));
    }
    std::string held;
    for (const auto& c : streams) {
        if (!held.empty())
            held += "; ";
        held += describe(info_of(c));
    }
    throw InputError(path, fmt::format("no stream matches process '{}': expected a process name, "
                                       "PID or swap chain of: {}",
                                       options.process, held));
}

CaptureListing list_capture(const std::string& path, const ReadOptions& options) {
    detail::FileStreams file = read_streams(path, options);
    sort_by_frames(file.streams);
    CaptureListing out;
    out.format = std::move(file.format);
    out.streams.reserve(file.streams.size());
    for (const auto& c : file.streams)
        out.streams.push_back(info_of(c));
    return out;
}

std::vector<CaptureStreamInfo> list_capture_streams(const std::string& path,
                                                    const ReadOptions& options) {
    return list_capture(path, options).streams;
}

}  // namespace loopscope
