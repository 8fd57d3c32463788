// MSI Afterburner's hardware monitoring log (HML, "Hardware monitoring log v1.6"), which it also
// writes with a .csv name. Every line starts with its type and a time stamp
// (dd-mm-yyyy hh:mm:ss, whole seconds): 00 the header and version, 01 the GPU, 02 the sensors'
// names (padded with spaces; a name may appear twice), 03 one line per sensor with its unit and
// scale, 80 one row per polling period (1 s by default) with each sensor's value, `N/A` where it
// had none (no 3D application running). Logging again into the same file appends a new session
// that starts with its own 00 to 03 lines. Each session is one stream ("session N").
//
// The frame figures come from the Framerate sensor: a row stands for its polling interval,
// whose frame time is 1000 / Framerate (Capture::SampleKind::interval_rate). The Frametime
// sensor is kept beside it (Capture::sensor_frame_ns); docs/input-formats.md says what is and
// is not known of both.
#include <fmt/format.h>

#include <charconv>

#include "common/errors.hpp"
#include "readers/csv_scanner.hpp"
#include "readers/read_formats.hpp"

namespace loopscope::detail {

namespace {

// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool digits(std::string_view s, std::size_t at, std::size_t n, unsigned& out) {
    if (at + n > s.size())
        return false;
    const char* first = s.data() + at;
    const auto [ptr, ec] = std::from_chars(first, first + n, out);
    return ec == std::errc() && ptr == first + n;
}

// "24-10-2025 15:41:23" as seconds since 1970 (the clock's own time zone, which only the
// differences between stamps use).
std::int64_t stamp_seconds(const Field& field, const LinePlace& place) {
    const std::string_view s = trim(field.text);
    unsigned day = 0, month = 0, year = 0, hour = 0, minute = 0, second = 0;
    const bool ok = s.size() == 19 && s[2] == '-' && s[5] == '-' && s[10] == ' ' && s[13] == ':' &&
                    s[16] == ':' && digits(s, 0, 2, day) && digits(s, 3, 2, month) &&
                    digits(s, 6, 4, year) && digits(s, 11, 2, hour) && digits(s, 14, 2, minute) &&
                    digits(s, 17, 2, second) && day >= 1 && day <= 31 && month >= 1 &&
                    month <= 12 && hour < 24 && minute < 60 && second < 61;
    if (!ok) {
        throw_at(place, field.column,
                 fmt::format("expected a time stamp dd-mm-yyyy hh:mm:ss, found {}",
                             quote_for_message(field.text)));
    }
    return days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
}

// Afterburner writes N/A where a sensor had no value; other readers' empty cells and NA too.
bool not_available(std::string_view cell) {
    return trim(cell) == "N/A" || is_missing(cell);
}

// The stamps are whole seconds: with a polling period under a second (a setting) several rows
// share one, and a row polled late shares its neighbour's. Rows that share a stamp are spread
// evenly over that second, in order, so that the samples keep their order and spacing within
// a second instead of piling up on one instant.
void spread_within_seconds(std::vector<std::int64_t>& start_ns) {
    for (std::size_t a = 0; a < start_ns.size();) {
        std::size_t b = a + 1;
        while (b < start_ns.size() && start_ns[b] == start_ns[a])
            ++b;
        const auto m = static_cast<std::int64_t>(b - a);
        for (std::size_t j = 1; j < b - a; ++j)
            start_ns[a + j] += static_cast<std::int64_t>(j) * 1'000'000'000 / m;
        a = b;
    }
}

struct Session {
    Capture capture;
    std::int64_t header_line = 0;
    std::int64_t origin_s = 0;  // the 00 line's stamp: when this session's logging began
    std::string begun;          // the 00 line's stamp as written
    std::vector<std::string> names;
    std::int64_t names_line = 0;
    int framerate = -1, frametime = -1;
    std::size_t framerate_na = 0, frametime_na = 0;
    std::int64_t first_framerate_na = 0;
};

std::int64_t line_type(const std::vector<Field>& fields, const LinePlace& place) {
    std::int64_t type = -1;
    const std::string_view t = trim(fields[0].text);
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), type);
    if (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) {
        throw_at(place, 1,
                 fmt::format("expected a line type (00 header, 01 GPU, 02 sensor names, "
                             "03 sensor formats, 80 data), found {}",
                             quote_for_message(fields[0].text)));
    }
    return type;
}

// A 00 line: a logging session begins.
Session begin_session(const std::string& path, const std::vector<Field>& fields,
                      const LinePlace& place) {
    Session s;
    s.header_line = place.line;
    describe_as(s.capture, "afterburner");
    s.capture.source.file = path;
    s.capture.per_frame = false;
    s.capture.sample_kind = Capture::SampleKind::interval_rate;
    s.capture.start_ends_frame_time = true;  // a row ends its polling interval
    if (fields.size() >= 2) {
        s.origin_s = stamp_seconds(fields[1], place);
        s.begun = std::string(trim(fields[1].text));
    }
    if (fields.size() >= 3)
        s.capture.metadata["afterburner_log"] = std::string(trim(fields[2].text));
    return s;
}

// A 02 line: the sensors' names.
void take_sensor_names(Session& s, const std::vector<Field>& fields, const LinePlace& place) {
    s.names.clear();
    s.names_line = place.line;
    s.framerate = s.frametime = -1;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        s.names.emplace_back(trim(fields[i].text));
        // A sensor may be logged twice (shown in two places): the first is read.
        if (s.names.back() == "Framerate" && s.framerate < 0)
            s.framerate = static_cast<int>(i);
        if (s.names.back() == "Frametime" && s.frametime < 0)
            s.frametime = static_cast<int>(i);
    }
    if (s.framerate < 0) {
        throw_at(place, 1,
                 "no Framerate sensor among the logged sensors: expected 'Framerate' in "
                 "the 02 line (Afterburner logs it when Framerate is chosen for logging)");
    }
}

// An 80 line: a sample of the sensors.
void take_data_row(Session& s, const std::vector<Field>& fields, const LinePlace& place,
                   std::size_t line_chars, bool line_had_break) {
    if (s.names.empty())
        throw_at(place, 1, "a data row (80) before the sensor names (02 line)");
    if (fields.size() != s.names.size()) {
        throw_at(place, static_cast<std::int64_t>(line_chars) + 1,
                 fmt::format("expected {} comma-separated columns as in the 02 line "
                             "(line {}), found {}{}",
                             s.names.size(), s.names_line, fields.size(),
                             line_had_break ? "" : " (the file ends mid-line)"));
    }
    const std::int64_t at_s = stamp_seconds(fields[1], place);
    const Field& rate = fields[static_cast<std::size_t>(s.framerate)];
    const double fps =
        not_available(rate.text) ? 0.0 : parse_non_negative(rate, place, "Framerate");
    if (!(fps > 0)) {
        if (s.framerate_na++ == 0)
            s.first_framerate_na = place.line;
        return;
    }
    Capture& c = s.capture;
    c.frame_ns.push_back(ms_cell_to_ns(1000.0 / fps, rate, place));
    // A time stamp centuries from the session's first would pass the int64 range in ns.
    std::int64_t start_ns = 0;
    if (__builtin_mul_overflow(at_s - s.origin_s, std::int64_t{1'000'000'000}, &start_ns)) {
        throw_at(place, fields[1].column,
                 "a time stamp more than 292 years from the session's first: expected "
                 "the times of one recording");
    }
    c.start_ns.push_back(start_ns);
    std::int64_t sensor_ns = -1;
    if (s.frametime >= 0) {
        const Field& ft = fields[static_cast<std::size_t>(s.frametime)];
        if (not_available(ft.text))
            ++s.frametime_na;
        else
            sensor_ns = ms_cell_to_ns(parse_non_negative(ft, place, "Frametime"), ft, place);
    }
    c.sensor_frame_ns.push_back(sensor_ns);
}

// The sessions with samples as captures, each saying what the log held besides.
std::vector<Capture> session_captures(const std::string& path, std::vector<Session>& sessions,
                                      std::size_t other_lines, std::int64_t first_other) {
    std::vector<Capture> out;
    std::string listing;
    for (std::size_t k = 0; k < sessions.size(); ++k) {
        const Session& s = sessions[k];
        if (!listing.empty())
            listing += "; ";
        listing += fmt::format("session {} from line {} ({}): {} rows", k + 1, s.header_line,
                               s.begun, s.capture.frames());
    }
    for (std::size_t k = 0; k < sessions.size(); ++k) {
        Session& s = sessions[k];
        Capture& c = s.capture;
        if (c.frames() == 0)
            continue;
        if (sessions.size() > 1) {
            c.source.swap_chain = fmt::format("session {}", k + 1);
            c.warnings.push_back(fmt::format(
                "{}: the log holds {} logging sessions, each with its own header ({}); this is "
                "session {} (--process 'session N' picks another)",
                path, sessions.size(), listing, k + 1));
        }
        if (s.framerate_na > 0) {
            c.metadata["rows_without_frame_time"] = std::to_string(s.framerate_na);
            c.warnings.push_back(fmt::format(
                "{}:{}: {} row{} of session {} with Framerate N/A or 0 (first at this line): no "
                "3D application was running, so {} no sample",
                path, s.first_framerate_na, s.framerate_na, s.framerate_na == 1 ? "" : "s", k + 1,
                s.framerate_na == 1 ? "it gives" : "they give"));
        }
        spread_within_seconds(c.start_ns);
        out.push_back(std::move(c));
    }
    if (other_lines > 0 && !out.empty()) {
        for (Capture& c : out) {
            c.warnings.push_back(fmt::format(
                "{}:{}: {} line{} of a type other than 00, 01, 02, 03 and 80 (first at this "
                "line) left out",
                path, first_other, other_lines, other_lines == 1 ? "" : "s"));
        }
    }
    if (out.empty()) {
        throw InputError(path, sessions.front().header_line, 0,
                         "no sample: no data row (80) with a Framerate value");
    }
    return out;
}

}  // namespace

std::vector<Capture> read_afterburner_streams(const std::string& path) {
    LineReader reader(path);
    LinePlace place{&path, 0};
    std::string_view line;
    std::vector<Field> fields;
    std::vector<Session> sessions;
    std::size_t other_lines = 0;
    std::int64_t first_other = 0;

    while (reader.next(line)) {
        place.line = reader.line_number();
        if (trim(line).empty())
            continue;
        split_fields(line, place, fields);
        const std::int64_t type = line_type(fields, place);
        if (type == 0) {
            sessions.push_back(begin_session(path, fields, place));
            continue;
        }
        if (sessions.empty()) {
            throw_at(place, 1,
                     "expected the 00 header line ('Hardware monitoring log') before any other");
        }
        Session& s = sessions.back();
        if (fields.size() < 2) {
            throw_at(place, static_cast<std::int64_t>(line.size()) + 1,
                     "expected a time stamp after the line type");
        }
        if (type == 1) {
            // One 01 line a GPU.
            if (fields.size() >= 3 && !trim(fields[2].text).empty()) {
                std::string& gpu = s.capture.metadata["gpu"];
                gpu += (gpu.empty() ? "" : "; ") + std::string(trim(fields[2].text));
            }
        } else if (type == 2) {
            take_sensor_names(s, fields, place);
        } else if (type == 3) {
            // The sensors' units and scales: nothing the frame figures need.
        } else if (type == 80) {
            take_data_row(s, fields, place, line.size(), reader.line_had_break());
        } else if (other_lines++ == 0) {
            // A line type this reader does not know (a later Afterburner's): left out, said.
            first_other = place.line;
        }
    }
    if (sessions.empty())
        throw InputError(path, "no 00 header line: expected an MSI Afterburner log");
    return session_captures(path, sessions, other_lines, first_other);
}

}  // namespace loopscope::detail
