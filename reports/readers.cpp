// The public side of the readers: recognising a file's format from its first bytes, handing it
// to the reader of its family, and choosing one stream (process / swap chain) of the result.
#include "reports/readers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "core/beside.hpp"
#include "core/trace_record.hpp"
#include "reports/csv_scanner.hpp"
#include "reports/read_formats.hpp"

namespace loopscope {

namespace detail {

namespace {

const char* const kKnownFormats =
    "expected a loopscope trace ('# loopscope-trace v1'), a PresentMon / OCAT / FrameView / "
    "CapFrameX CSV (a header row with Application, ProcessID, SwapChainAddress, "
    "MsBetweenPresents or FrameTime ...), CapFrameX JSON, a MangoHud CSV, an MSI Afterburner log "
    "('Hardware monitoring log'), or a plain list of frame times (one number a line)";

}  // namespace

// Text captures hold no control bytes but tab, CR and LF; anything else in the first 4 KiB means
// the file is binary (or not text in an encoding we read), reported where it was found.
void reject_binary_head(const std::string& path, std::string_view head) {
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
    const std::size_t first = n >= 3 && std::memcmp(head, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (std::size_t i = first; i < n; ++i) {
        if (head[i] != ' ' && head[i] != '\t' && head[i] != '\r' && head[i] != '\n')
            return head[i];
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

}  // namespace

std::string detect_format_of(const std::string& path) {
    // JSON is known by its first character, before any line is read: a minified capture is
    // one line of any length, past the line limit of the CSV readers.
    const char first = reject_binary(path);
    if (first == '{' || first == '[')
        return "capframex-json";
    LineReader reader(path);
    std::string_view line;
    while (reader.next(line)) {
        const std::string_view text = trim(line);
        if (text.empty())
            continue;
        const std::int64_t n = reader.line_number();
        if (line.substr(0, 17) == "# loopscope-trace")
            return "loopscope-trace";
        if (text.front() == '{' || text.front() == '[')
            return "capframex-json";
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

// The stream kept, with the file's metadata (a stream's own keys win).
Capture with_file_metadata(Capture&& chosen, detail::FileStreams& file) {
    chosen.metadata.merge(file.metadata);
    return std::move(chosen);
}

CaptureStreamInfo info_of(const Capture& c) {
    CaptureStreamInfo info;
    info.process = c.source.process;
    info.process_id = c.source.process_id;
    info.swap_chain = c.source.swap_chain;
    info.frames = c.frames();
    std::int64_t total_ns = 0;
    if (c.per_frame || c.start_ns.empty()) {
        for (const std::int64_t ns : c.frame_ns)
            total_ns += ns;
    } else {
        // Sampled logs: a row's frame time is one frame's (MangoHud) or an interval's rate
        // (Afterburner), so their sum is not the time covered; the span from the first to the
        // last sample is.
        total_ns = c.start_ns.back() - c.start_ns.front();
    }
    info.duration_s = static_cast<double>(total_ns) / 1e9;
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

std::string detect_format(const std::string& path) {
    return detail::detect_format_of(path);
}

Capture read_capture(const std::string& path, const ReadOptions& options) {
    detail::FileStreams file = read_streams(path, options);
    std::vector<Capture>& streams = file.streams;
    sort_by_frames(streams);
    if (options.process.empty())
        return with_file_metadata(std::move(streams.front()), file);
    for (auto& c : streams) {
        if (matches(c, options.process))
            return with_file_metadata(std::move(c), file);
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
