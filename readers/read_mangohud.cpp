// MangoHud's CSV log. Optional `v1` and version lines, a system-information block (a header
// row and one row of values, sometimes framed by `---SYSTEM INFO---` / `---FRAME METRICS---`
// lines), then `fps,frametime,...,elapsed`. Every log interval (100 ms by default) MangoHud
// writes one row holding the time of the latest single frame (`frametime`, in ms) and
// `fps = 1000 / frametime` (src/logging.cpp, Logger::try_log, and src/overlay.cpp, which sets
// the frame time on every frame; so since 2023-01-23): a point sample of one frame, not an
// average over the interval. The result is marked per_frame = false and
// sample_kind = latest_frame. `elapsed` is the logging clock (ns since logging began).
#include <fmt/format.h>

#include <limits>

#include "common/errors.hpp"
#include "readers/csv_scanner.hpp"
#include "readers/read_formats.hpp"

namespace loopscope::detail {

namespace {
int find_name(const std::vector<Field>& fields, std::string_view name) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].text == name)
            return static_cast<int>(i);
    }
    return -1;
}
}  // namespace

std::vector<Capture> read_mangohud_streams(const std::string& path) {
    LineReader reader(path);
    LinePlace place{&path, 0};
    std::string_view line;
    std::vector<Field> fields;
    Capture c;
    describe_as(c, "mangohud");
    c.source.file = path;
    c.per_frame = false;
    c.sample_kind = Capture::SampleKind::latest_frame;

    // The preamble, up to the header row that names the frametime column.
    std::vector<std::string> header;
    int frametime = -1, elapsed = -1;
    std::vector<std::string> info_names;
    bool info_values_next = false;
    while (reader.next(line)) {
        place.line = reader.line_number();
        if (line.empty() || line.substr(0, 3) == "---")
            continue;
        split_fields(line, place, fields);
        if (info_values_next) {
            for (std::size_t i = 0; i < fields.size() && i < info_names.size(); ++i) {
                if (!fields[i].text.empty())
                    c.metadata[info_names[i]] = std::string(fields[i].text);
            }
            info_values_next = false;
            continue;
        }
        if (reader.line_number() <= 2 && fields.size() == 1) {
            c.metadata[reader.line_number() == 1 ? "mangohud_log" : "mangohud_version"] =
                std::string(line);
            continue;
        }
        frametime = find_name(fields, "frametime");
        if (frametime >= 0) {
            elapsed = find_name(fields, "elapsed");
            for (const auto& f : fields)
                header.emplace_back(f.text);
            break;
        }
        if (!fields.empty() && fields[0].text == "os") {
            for (const auto& f : fields)
                info_names.emplace_back(f.text);
            info_values_next = true;
            continue;
        }
        throw_at(place, 1,
                 fmt::format("unknown MangoHud layout: found {}; expected a system-information "
                             "block and then a header row with a 'frametime' column",
                             quote_for_message(line, 80)));
    }
    if (frametime < 0) {
        throw InputError(path, reader.line_number(), 0,
                         "no MangoHud header row: expected 'fps,frametime,...,elapsed'");
    }
    const std::int64_t header_line = place.line;
    std::int64_t running_ns = 0;
    BadCellTally bad;
    std::size_t missing = 0;
    std::int64_t first_missing = 0;
    while (reader.next(line)) {
        place.line = reader.line_number();
        if (line.empty())
            continue;
        split_fields(line, place, fields);
        if (fields.size() != header.size()) {
            throw_at(place, static_cast<std::int64_t>(line.size()) + 1,
                     fmt::format("expected {} comma-separated columns as in the header, found {}{}",
                                 header.size(), fields.size(),
                                 reader.line_had_break() ? "" : " (the file ends mid-line)"));
        }
        const Field& ft = fields[frametime];
        // MangoHud writes NA where it had no frame time to log: that row has no sample, and
        // is counted, as the other readers count NA cells; a cell that is not a time is counted
        // among the data-quality findings.
        std::int64_t frame_ns = 0;
        if (const CellState state = read_time_cell(ft, 6, frame_ns); state != CellState::value) {
            if (state == CellState::not_available) {
                if (missing++ == 0)
                    first_missing = place.line;
            } else {
                bad.add("frametime", state, "the row is left out", place, ft);
            }
            continue;
        }
        std::int64_t start_ns = running_ns;
        if (elapsed >= 0) {
            const Field& e = fields[elapsed];
            std::int64_t at_ns = 0;
            const CellState state = read_time_cell(e, 0, at_ns);
            if (state == CellState::value)
                start_ns = at_ns;
            else if (state != CellState::not_available)
                bad.add("elapsed", state, "that row's time is the running sum of the frame times",
                        place, e);
        }
        if (running_ns > std::numeric_limits<std::int64_t>::max() - frame_ns)
            throw_at(place, ft.column, "the frame times add up to more than 292 years");
        running_ns += frame_ns;
        c.frame_ns.push_back(frame_ns);
        c.start_ns.push_back(start_ns);
    }
    bad.append_to(c.data_quality);
    // The sample is the frame that ended last before the row was logged.
    c.start_ends_frame_time = elapsed >= 0;
    if (missing > 0) {
        c.metadata["rows_without_frame_time"] = std::to_string(missing);
        c.warnings.push_back(fmt::format(
            "{}:{}: {} row{} with frametime NA (first at this line): no frame time was logged "
            "there, so {} no sample",
            path, first_missing, missing, missing == 1 ? "" : "s",
            missing == 1 ? "it gives" : "they give"));
    }
    if (c.frame_ns.empty()) {
        throw InputError(path, header_line, 0,
                         missing > 0 ? "no sample: every row's frametime is NA"
                                     : "header only: expected sample rows after the header");
    }
    return {std::move(c)};
}

}  // namespace loopscope::detail
