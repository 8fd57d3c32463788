// loopscope's own trace format v1 (docs/loop-engine.md, "The trace format (v1)"):
// `# loopscope-trace v1`, `# key: value` metadata lines, a header row that starts with
// kTraceColumns, one row a frame in integer nanoseconds. The loop columns go to Capture::loop, or,
// for a report that needs only their figures, into the loop figures computed row by row
// (Capture::loop_figures); raw_ns is the frame time. A last row without its line break (a trace cut
// off mid-write, as a crashing game leaves it) is ignored with a warning on stderr; a malformed row
// anywhere else is an error.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <type_traits>

#include "common/errors.hpp"
#include "core/analysis.hpp"
#include "core/trace_record.hpp"
#include "recorder/trace_text.hpp"
#include "readers/csv_scanner.hpp"
#include "readers/read_formats.hpp"

namespace loopscope::detail {

namespace {

std::vector<std::string> split_names(std::string_view text) {
    std::vector<std::string> names;
    std::size_t pos = 0;
    for (;;) {
        const std::size_t comma = text.find(',', pos);
        names.emplace_back(
            text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos));
        if (comma == std::string_view::npos)
            return names;
        pos = comma + 1;
    }
}

// Vectors that grow by doubling reserve up to twice their rows, and copy them all at each
// growth: at 9 M frames the last growth of the loop records (112 bytes a frame) copied 0.94 GB
// into a new block of 1.9 GB. Once the first rows show how long a row is, room for the rows the
// rest of the file holds is reserved at once. Rows get longer as frame numbers and start times
// gain digits, so the first rows over-estimate the count a little, and the vectors never need to
// grow again; a file whose later rows are longer (or not rows) reserves at most the file's size /
// the first rows' length.
constexpr std::size_t kRowsToMeasure = 4096;

std::size_t estimated_rows(std::uint64_t file_bytes, std::uint64_t measured_bytes,
                           std::size_t measured_rows) {
    if (file_bytes == 0 || measured_bytes == 0)
        return 0;
    const double per_row = static_cast<double>(measured_bytes) / static_cast<double>(measured_rows);
    return static_cast<std::size_t>(static_cast<double>(file_bytes) / per_row * 1.01) + 1024;
}

}  // namespace

std::vector<Capture> read_trace_streams(const std::string& path, TraceLoopColumns loop) {
    LineReader reader(path);
    LinePlace place{&path, 0};
    std::string_view line;
    Capture c;
    describe_as(c, "loopscope-trace");
    c.source.file = path;

    // Blank lines before the magic line are skipped, as format detection skips them.
    bool have_line = false;
    while ((have_line = reader.next(line)) && trim(line).empty()) {
    }
    if (!have_line || (trim(line) != kTraceMagic && trim(line) != kTraceMagicV2)) {
        const std::string_view found = have_line ? trim(line) : std::string_view();
        throw InputError(
            path, have_line ? reader.line_number() : 1, 1,
            fmt::format(
                "expected '{}' or '{}' as the first line that is not blank, found {}{}",
                kTraceMagic, kTraceMagicV2,
                have_line ? quote_for_message(found) : "the end of the file",
                found.substr(0, 17) == "# loopscope-trace" ? " (a newer trace version?)" : ""));
    }
    // Version 2 adds the game's zones and marks: lines that start with `zone,` or `mark,`.
    const bool v2 = trim(line) == kTraceMagicV2;
    bool have_header = false;
    std::size_t metadata_bytes = 0;
    bool loop_key_after_rows = false;
    std::int64_t dt_line_after_rows = 0;  // a dt_ns key after the rows (no writer puts one there)
    // A `# key: value` line: before the header (the preamble) or after the rows (what the
    // recorder found while recording, such as a clock that went back).
    const auto take_metadata = [&](std::string_view text) {
        const std::string_view kv = trim(text.substr(1));
        const std::size_t colon = kv.find(':');
        if (colon == std::string_view::npos)
            return;
        metadata_bytes += kv.size();
        if (metadata_bytes > kMaxMetadataBytes) {
            throw InputError(path, place.line, 1,
                             fmt::format("the '# key: value' lines pass {} KiB: expected "
                                         "a few lines of trace information",
                                         kMaxMetadataBytes / 1024));
        }
        const std::string key(trim(kv.substr(0, colon)));
        if (key == "dt_ns" && !c.frame_ns.empty())
            dt_line_after_rows = place.line;
        loop_key_after_rows =
            loop_key_after_rows || (!c.frame_ns.empty() && is_loop_metadata_key(key));
        const std::string_view value = trim(kv.substr(colon + 1));
        // The loop keys are checked here, where the line is known.
        if (const auto problem = loop_metadata_problem(key, std::string(value))) {
            throw InputError(path, place.line, (value.data() - text.data()) + 1,
                             fmt::format("metadata '{}: {}': {}", key, value, *problem));
        }
        if (key == kTraceAttachedAtFrameKey)
            c.attached_mid_run = value != "0";
        if (key == kTraceClockWentBackKey) {
            c.warnings.push_back(fmt::format(
                "{}:{}: the game's clock went back while recording ({}); each such frame's "
                "times were recorded as 0, never negative, and the time counts on from the "
                "latest reading",
                path, place.line, value));
        }
        c.metadata[key] = std::string(value);
    };
    while (reader.next(line)) {
        place.line = reader.line_number();
        if (line.empty())
            continue;
        if (line.front() == '#') {
            take_metadata(line);
            continue;
        }
        have_header = true;
        break;
    }
    if (!have_header) {
        throw InputError(path, reader.line_number(), 0,
                         fmt::format("no header row: expected '{}'", kTraceColumns));
    }
    const std::int64_t header_line = place.line;
    const std::vector<std::string> expected = split_names(kTraceColumns);
    const std::vector<std::string> found = split_names(line);
    if (found.size() < expected.size() ||
        !std::equal(expected.begin(), expected.end(), found.begin())) {
        throw InputError(path, header_line, 1,
                         fmt::format("unknown trace column layout: found '{}'; expected the "
                                     "columns '{}' first, in this order",
                                     line, kTraceColumns));
    }
    auto it = c.metadata.find("process");
    if (it != c.metadata.end())
        c.source.process = it->second;

    std::error_code size_error;
    const std::uint64_t file_bytes = std::filesystem::file_size(path, size_error);
    std::uint64_t row_bytes = 0;

    // The loop figures, with the configuration the metadata before the rows states, when the
    // records are not kept.
    std::optional<TraceLoopFigures> figures;
    if (loop == TraceLoopColumns::figures)
        figures.emplace(loop_config_from_metadata(c));

    // The loop figures add the loop columns up over the frames (the time simulated, the steps,
    // the step costs, the time besides the steps and the wait), and a sum that passes the int64
    // range is undefined: a column whose running total passes it (2^63 ns is 292 years) is
    // refused at the row where it does, as the analysis refuses a frame-time column.
    // The dt_ns of the preamble, for the time simulated (steps × dt_ns); without one the figures
    // of the recorded columns step with the default dt (TraceLoopFigures).
    std::int64_t dt_ns = LoopConfig{}.dt_ns;
    if (const auto dt = c.metadata.find("dt_ns"); dt != c.metadata.end())
        std::from_chars(dt->second.data(), dt->second.data() + dt->second.size(), dt_ns);
    struct Totals {
        std::int64_t raw = 0, clamped = 0, clamp_lost = 0, consumed = 0, steps = 0, cap_dropped = 0,
                     step_cost = 0, render = 0, wait = 0, spent = 0, sim = 0;
    } totals;
    std::vector<Field> fields;
    BadCellTally bad;
    // Frame numbers that do not grow, and alpha outside [0, 1] (the blend of two states): odd,
    // counted and said, the rows read as they are.
    std::int64_t repeated_frames = 0, first_repeated_line = 0, odd_alpha = 0, first_alpha_line = 0;
    std::optional<std::int64_t> previous_frame;
    const auto add_up = [&](std::int64_t& total, std::int64_t value, std::size_t column,
                            std::string_view what) {
        if (__builtin_add_overflow(total, value, &total)) {
            throw_at(place, fields[column].column,
                     fmt::format("{} add up past the int64 range by this row (2^63 ns, 292 "
                                 "years): expected a trace whose loop columns add up to less",
                                 what));
        }
    };
    const auto add_up_row = [&](const FrameRecord& r) {
        add_up(totals.raw, r.raw_ns, 2, "the frames' raw_ns");
        add_up(totals.clamped, r.clamped_ns, 3, "the frames' clamped_ns");
        add_up(totals.clamp_lost, r.clamp_lost_ns, 4, "the frames' clamp_lost_ns");
        add_up(totals.consumed, r.consumed_ns, 5, "the frames' consumed_ns");
        add_up(totals.steps, r.steps, 7, "the frames' steps");
        std::int64_t sim_ns = 0;
        if (__builtin_mul_overflow(r.steps, dt_ns, &sim_ns))
            sim_ns = INT64_MAX;  // a product past the range is a total past it
        if (sim_ns == INT64_MAX || __builtin_add_overflow(totals.sim, sim_ns, &totals.sim)) {
            throw_at(place, fields[7].column,
                     fmt::format("the frames' steps times dt_ns {} (the time simulated) add up "
                                 "past the int64 range by this row (2^63 ns, 292 years): "
                                 "expected a trace whose loop columns add up to less",
                                 dt_ns));
        }
        add_up(totals.cap_dropped, r.cap_dropped_ns, 8, "the frames' cap_dropped_ns");
        add_up(totals.step_cost, r.step_cost_ns, 11, "the frames' step_cost_ns");
        add_up(totals.render, r.render_ns, 12, "the frames' render_ns");
        add_up(totals.wait, r.wait_ns, 13, "the frames' wait_ns");
        add_up(totals.spent, r.step_cost_ns, 11, "the frames' step_cost_ns and wait_ns");
        add_up(totals.spent, r.wait_ns, 13, "the frames' step_cost_ns and wait_ns");
    };
    // A row with a cell that is not the whole number (or alpha) its column holds is left out:
    // a frame record has no "absent" column. Counted in `bad`; nullopt then.
    constexpr std::string_view kRowLeftOut = "the row is left out";
    const auto parse_row = [&](std::string_view text,
                               bool count_bad) -> std::optional<FrameRecord> {
        split_fields(text, place, fields);
        if (fields.size() != found.size()) {
            throw_at(place, static_cast<std::int64_t>(text.size()) + 1,
                     fmt::format("expected {} comma-separated columns as in the header, found {}",
                                 found.size(), fields.size()));
        }
        bool row_bad = false;
        const auto mark = [&](std::size_t i, CellState state) {
            row_bad = true;
            if (count_bad)
                bad.add(expected[i], state, kRowLeftOut, place, fields[i]);
        };
        const auto integer = [&](std::size_t i) {
            std::int64_t v = 0;
            const CellState state = read_integer_cell(fields[i], v);
            if (state != CellState::value)
                mark(i, state);
            return v;
        };
        const auto duration = [&](std::size_t i) {
            const std::int64_t v = integer(i);
            if (v < 0) {
                mark(i, CellState::negative);
                return std::int64_t{0};
            }
            return v;
        };
        // Each column as its kind in the column list says: any integer, a time or count >= 0,
        // a number.
        const auto value = [&](std::size_t i, trace_v1::ColumnKind kind, auto& out) {
            using T = std::remove_reference_t<decltype(out)>;
            if constexpr (std::is_same_v<T, double>) {
                if (const CellState state = read_number_cell(fields[i], out);
                    state != CellState::value) {
                    mark(i, state);
                }
            } else
                out = kind == trace_v1::ColumnKind::index ? integer(i) : duration(i);
        };
        FrameRecord r;
        std::size_t column = 0;
#define LOOPSCOPE_READ_COLUMN_(name, type, kind, what) \
    value(column++, trace_v1::ColumnKind::kind, r.name);
        LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_READ_COLUMN_)
#undef LOOPSCOPE_READ_COLUMN_
        if (row_bad)
            return std::nullopt;
        add_up_row(r);
        return r;
    };
    // A zone or mark record (v2): `zone,FRAME,BEGIN_NS,END_NS,THREAD,DEPTH,LABEL` or
    // `mark,FRAME,T_NS,LABEL`, the label being the rest of the line (commas included).
    const auto take_event = [&](std::string_view text) {
        const bool zone = text.front() == 'z';
        const int numbers = zone ? 5 : 2;
        std::size_t at = 5;
        std::int64_t v[5] = {};
        static constexpr const char* kZoneFields[] = {"frame", "begin_ns", "end_ns", "thread",
                                                      "depth"};
        static constexpr const char* kMarkFields[] = {"frame", "t_ns"};
        for (int i = 0; i < numbers; ++i) {
            const std::size_t comma = text.find(',', at);
            const std::string_view cell =
                text.substr(at, comma == std::string_view::npos ? text.npos : comma - at);
            const char* name = zone ? kZoneFields[i] : kMarkFields[i];
            const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v[i]);
            if (ec != std::errc() || end != cell.data() + cell.size() || cell.empty() ||
                (i > 0 && v[i] < 0) || comma == std::string_view::npos) {
                throw_at(place, static_cast<std::int64_t>(at) + 1,
                         fmt::format("{} record: expected {} as a whole number{} followed by a "
                                     "comma, found {}",
                                     zone ? "zone" : "mark", name, i > 0 ? " >= 0" : "",
                                     quote_for_message(cell)));
            }
            at = comma + 1;
        }
        std::string label(text.substr(at));
        if (zone) {
            if (v[2] < v[1]) {
                throw_at(place, 1,
                         fmt::format("zone record: ends at {} ns, before it begins ({} ns)", v[2],
                                     v[1]));
            }
            if (v[3] > INT64_C(0xFFFFFFFF) || v[4] > INT64_C(0xFFFFFFFF))
                throw_at(place, 1, "zone record: a thread or depth past 2^32 - 1");
            c.zones.push_back({std::move(label), v[1], v[2], v[0], static_cast<std::uint32_t>(v[3]),
                               static_cast<std::uint32_t>(v[4])});
        } else {
            c.marks.push_back({std::move(label), v[1], v[0]});
        }
    };
    while (reader.next(line)) {
        place.line = reader.line_number();
        if (line.empty())
            continue;
        if (line.front() == '#') {
            take_metadata(line);
            continue;
        }
        if (v2 && (line.starts_with("zone,") || line.starts_with("mark,"))) {
            if (!reader.line_had_break()) {
                c.warnings.push_back(fmt::format(
                    "{}:{}: the last line, a zone or mark, has no line break: the trace was cut "
                    "off while being written, and it is left out",
                    path, place.line));
                break;
            }
            take_event(line);
            continue;
        }
        std::optional<FrameRecord> parsed;
        if (reader.line_had_break()) {
            parsed = parse_row(line, true);
        } else {
            // Only the last line can lack its line break: a file saved without a final one,
            // or a trace cut off while a row was being written (a game that crashed). A row
            // that parses whole is kept; one that does not is the cut piece and is left out.
            try {
                parsed = parse_row(line, false);
                if (!parsed) {
                    c.warnings.push_back(fmt::format(
                        "{}:{}: the last row has no line break and a cell that is not a number: "
                        "the trace was cut off while being written, and the row is left out",
                        path, place.line));
                    break;
                }
                c.warnings.push_back(fmt::format(
                    "{}:{}: the last row has no line break; it is kept, but if the trace was cut "
                    "off while being written its last number may be cut short",
                    path, place.line));
            } catch (const InputError& e) {
                c.warnings.push_back(
                    fmt::format("{}; this last row has no line break: the trace was cut off "
                                "while being written, and the row is left out",
                                e.what()));
                break;
            }
        }
        if (!parsed)
            continue;
        const FrameRecord& r = *parsed;
        if (previous_frame && r.frame <= *previous_frame && repeated_frames++ == 0)
            first_repeated_line = place.line;
        previous_frame = r.frame;
        if (!(r.alpha >= 0.0 && r.alpha <= 1.0) && odd_alpha++ == 0)
            first_alpha_line = place.line;
        c.frame_ns.push_back(r.raw_ns);
        c.start_ns.push_back(r.start_ns);
        // raw_ns is measured at the frame's start: the length of the frame before it.
        c.start_ends_frame_time = true;
        if (loop == TraceLoopColumns::records)
            c.loop.push_back(r);
        else if (figures)
            figures->add(r);
        row_bytes += line.size() + 1;
        if (c.frame_ns.size() == kRowsToMeasure && !size_error) {
            const std::size_t rows = estimated_rows(file_bytes, row_bytes, kRowsToMeasure);
            c.frame_ns.reserve(rows);
            c.start_ns.reserve(rows);
            if (loop == TraceLoopColumns::records)
                c.loop.reserve(rows);
        }
    }
    if (c.frame_ns.empty()) {
        throw InputError(path, header_line, 0,
                         bad.empty()
                             ? std::string("header only: expected frame rows after the header")
                             : std::string("no row whose cells are all numbers: expected "
                                           "frame rows of whole numbers"));
    }
    // Sorted by begin (zones) and time (marks): the writer puts a zone at its end.
    std::stable_sort(c.zones.begin(), c.zones.end(),
                     [](const Zone& a, const Zone& b) { return a.begin_ns < b.begin_ns; });
    std::stable_sort(c.marks.begin(), c.marks.end(),
                     [](const Mark& a, const Mark& b) { return a.t_ns < b.t_ns; });
    bad.append_to(c.data_quality);
    if (repeated_frames > 0) {
        c.data_quality.oddities.push_back(
            {"frame_numbers_not_increasing", repeated_frames,
             fmt::format("{} row{} a frame number not above the row before's (first: line {}): "
                         "duplicated or out-of-order frames, read in file order.",
                         repeated_frames, repeated_frames == 1 ? " has" : "s have",
                         first_repeated_line)});
    }
    if (odd_alpha > 0) {
        c.data_quality.oddities.push_back(
            {"alpha_out_of_range", odd_alpha,
             fmt::format("{} row{} an alpha outside [0, 1] (first: line {}), the blend between "
                         "two simulation states that a loop keeps within it.",
                         odd_alpha, odd_alpha == 1 ? " has" : "s have", first_alpha_line)});
    }
    if (dt_line_after_rows > 0 && loop == TraceLoopColumns::records) {
        // The figures take the last dt_ns: the time simulated is checked again with it.
        std::int64_t last_dt_ns = 0;
        const std::string& text = c.metadata["dt_ns"];
        std::from_chars(text.data(), text.data() + text.size(), last_dt_ns);
        std::int64_t sim_total = 0;
        for (const FrameRecord& r : c.loop) {
            std::int64_t sim_ns = 0;
            if (__builtin_mul_overflow(r.steps, last_dt_ns, &sim_ns))
                sim_ns = INT64_MAX;
            if (sim_ns == INT64_MAX || __builtin_add_overflow(sim_total, sim_ns, &sim_total)) {
                throw InputError(
                    path, dt_line_after_rows, 1,
                    fmt::format("metadata 'dt_ns: {}' after the rows: the frames' steps times it "
                                "(the time simulated) add up past the int64 range (2^63 ns, 292 "
                                "years): expected a trace whose loop columns add up to less",
                                last_dt_ns));
            }
        }
    }
    if (figures) {
        // A loop key after the rows (no writer puts one there) changes the configuration the
        // figures were computed with: read again, keeping the records, rather than guess.
        if (loop_key_after_rows)
            return read_trace_streams(path, TraceLoopColumns::records);
        c.loop_figures = std::make_shared<const LoopFigures>(figures->figures());
    }
    return {std::move(c)};
}

}  // namespace loopscope::detail
