// A plain list of frame times: one number a line, in the unit the user names (ns, us, ms, s).
// Blank lines are skipped. Frame starts are the running sum of the frame times.
#include <fmt/format.h>

#include <limits>

#include "common/errors.hpp"
#include "readers/csv_scanner.hpp"
#include "readers/read_formats.hpp"

namespace loopscope::detail {

namespace {
// The unit's nanoseconds as a power of ten (parse_time_ns's ns_digits).
int ns_digits_of_unit(const std::string& unit) {
    if (unit == "ns")
        return 0;
    if (unit == "us")
        return 3;
    if (unit == "ms")
        return 6;
    if (unit == "s")
        return 9;
    throw UsageError(
        fmt::format("unknown unit '{}' for a plain list: expected ns, us, ms or s", unit));
}
}  // namespace

std::vector<Capture> read_plain_streams(const std::string& path, const std::string& unit) {
    const int ns_digits = ns_digits_of_unit(unit);
    LineReader reader(path);
    LinePlace place{&path, 0};
    std::string_view line;
    Capture c;
    describe_as(c, "plain");
    c.source.file = path;
    c.metadata["unit"] = unit;
    std::int64_t start_ns = 0;
    BadCellTally bad;
    while (reader.next(line)) {
        place.line = reader.line_number();
        if (trim(line).empty())
            continue;
        const Field f{line, 1};
        if (line.find(',') != std::string_view::npos || line.find(';') != std::string_view::npos) {
            throw_at(
                place, 1,
                fmt::format("expected one frame time a line, found {}", quote_for_message(line)));
        }
        std::int64_t frame_ns = 0;
        const CellState state = read_time_cell(f, ns_digits, frame_ns);
        if (state != CellState::value) {
            // NA is "no value"; anything else is counted. The line is not a frame either way.
            if (state != CellState::not_available)
                bad.add("frame time", state, "the line is left out", place, f);
            continue;
        }
        if (start_ns > std::numeric_limits<std::int64_t>::max() - frame_ns) {
            throw_at(place, 1, "the frame times add up to more than 292 years");
        }
        c.frame_ns.push_back(frame_ns);
        c.start_ns.push_back(start_ns);
        start_ns += frame_ns;
    }
    if (c.frame_ns.empty())
        throw InputError(path, "no frame times: expected one number a line");
    bad.append_to(c.data_quality);
    return {std::move(c)};
}

}  // namespace loopscope::detail
