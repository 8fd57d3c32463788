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
#include "readers/csv_scanner.hpp"
#include "readers/read_formats.hpp"
#include "recorder/trace_text.hpp"

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

using trace_v1::Column;

// The reading of one trace: its state (the capture so far, where the reader is, the running
// totals) shared by the steps, each a member of its own.
class TraceReader {
  public:
    TraceReader(const std::string& path, TraceLoopColumns loop)
        : path_(path), loop_(loop), reader_(path), place_{&path_, 0} {
        describe_as(c_, "loopscope-trace");
        c_.source.file = path;
    }

    // The capture, or nullopt when a loop key after the rows asks for the file to be read
    // again keeping the records.
    std::optional<Capture> read();

  private:
    struct Totals {
        std::int64_t raw = 0, clamped = 0, clamp_lost = 0, consumed = 0, steps = 0, cap_dropped = 0,
                     step_cost = 0, render = 0, wait = 0, spent = 0, sim = 0;
    };

    void read_magic();
    void take_metadata(std::string_view text);
    bool next_line();
    void read_header();
    void add_up(std::int64_t& total, std::int64_t value, Column column, std::string_view what);
    void add_up_row(const FrameRecord& r);
    std::optional<FrameRecord> parse_row(std::string_view text, bool count_bad);
    void take_event(std::string_view text);
    // The last line, without its line break; false when it is left out (reading stops).
    bool take_unfinished_row(std::string_view text, std::optional<FrameRecord>& parsed);
    void keep_row(const FrameRecord& r, std::size_t line_bytes);
    void read_rows();
    void add_oddities();
    void check_dt_after_rows();

    const std::string& path_;
    const TraceLoopColumns loop_;
    LineReader reader_;
    LinePlace place_;
    std::string_view line_;
    Capture c_;
    bool v2_ = false;
    std::size_t metadata_bytes_ = 0;
    bool loop_key_after_rows_ = false;
    std::int64_t dt_line_after_rows_ = 0;  // a dt_ns key after the rows (no writer puts one there)
    std::int64_t header_line_ = 0;
    std::vector<std::string> expected_;  // the column names of the format
    std::vector<std::string> found_;     // the header row's
    std::uint64_t file_bytes_ = 0;
    bool size_known_ = false;
    std::uint64_t row_bytes_ = 0;
    std::optional<TraceLoopFigures> figures_;
    std::int64_t dt_ns_ = LoopConfig{}.dt_ns;
    Totals totals_;
    std::vector<Field> fields_;
    BadCellTally bad_;
    // Frame numbers that do not grow, and alpha outside [0, 1] (the blend of two states): odd,
    // counted and said, the rows read as they are.
    std::int64_t repeated_frames_ = 0, first_repeated_line_ = 0, odd_alpha_ = 0,
                 first_alpha_line_ = 0;
    std::optional<std::int64_t> previous_frame_;
};

void TraceReader::read_magic() {
    // Blank lines before the magic line are skipped, as format detection skips them.
    bool have_line = false;
    while ((have_line = reader_.next(line_)) && trim(line_).empty()) {
    }
    if (!have_line || (trim(line_) != kTraceMagic && trim(line_) != kTraceMagicV2)) {
        const std::string_view found = have_line ? trim(line_) : std::string_view();
        throw InputError(
            path_, have_line ? reader_.line_number() : 1, 1,
            fmt::format(
                "expected '{}' or '{}' as the first line that is not blank, found {}{}",
                kTraceMagic, kTraceMagicV2,
                have_line ? quote_for_message(found) : "the end of the file",
                found.substr(0, 17) == "# loopscope-trace" ? " (a newer trace version?)" : ""));
    }
    // Version 2 adds the game's zones and marks: lines that start with `zone,` or `mark,`.
    v2_ = trim(line_) == kTraceMagicV2;
}

// A `# key: value` line: before the header (the preamble) or after the rows (what the
// recorder found while recording, such as a clock that went back).
void TraceReader::take_metadata(std::string_view text) {
    const std::string_view kv = trim(text.substr(1));
    const std::size_t colon = kv.find(':');
    if (colon == std::string_view::npos)
        return;
    metadata_bytes_ += kv.size();
    if (metadata_bytes_ > kMaxMetadataBytes) {
        throw InputError(path_, place_.line, 1,
                         fmt::format("the '# key: value' lines pass {} KiB: expected "
                                     "a few lines of trace information",
                                     kMaxMetadataBytes / 1024));
    }
    const std::string key(trim(kv.substr(0, colon)));
    if (key == "dt_ns" && !c_.frame_ns.empty())
        dt_line_after_rows_ = place_.line;
    loop_key_after_rows_ =
        loop_key_after_rows_ || (!c_.frame_ns.empty() && is_loop_metadata_key(key));
    const std::string_view value = trim(kv.substr(colon + 1));
    // The loop keys are checked here, where the line is known.
    if (const auto problem = loop_metadata_problem(key, std::string(value))) {
        throw InputError(path_, place_.line, (value.data() - text.data()) + 1,
                         fmt::format("metadata '{}: {}': {}", key, value, *problem));
    }
    if (key == kTraceAttachedAtFrameKey)
        c_.attached_mid_run = value != "0";
    if (key == kTraceClockWentBackKey) {
        c_.warnings.push_back(
            fmt::format("{}:{}: the game's clock went back while recording ({}); each such frame's "
                        "times were recorded as 0, never negative, and the time counts on from the "
                        "latest reading",
                        path_, place_.line, value));
    }
    c_.metadata[key] = std::string(value);
}

// The next line that is neither empty nor a metadata line, which it takes: false at the end.
bool TraceReader::next_line() {
    while (reader_.next(line_)) {
        place_.line = reader_.line_number();
        if (line_.empty())
            continue;
        if (line_.front() == '#') {
            take_metadata(line_);
            continue;
        }
        return true;
    }
    return false;
}

// The preamble's metadata lines, then the header row.
void TraceReader::read_header() {
    if (!next_line()) {
        throw InputError(path_, reader_.line_number(), 0,
                         fmt::format("no header row: expected '{}'", kTraceColumns));
    }
    header_line_ = place_.line;
    expected_ = split_names(kTraceColumns);
    found_ = split_names(line_);
    if (found_.size() < expected_.size() ||
        !std::equal(expected_.begin(), expected_.end(), found_.begin())) {
        throw InputError(path_, header_line_, 1,
                         fmt::format("unknown trace column layout: found '{}'; expected the "
                                     "columns '{}' first, in this order",
                                     line_, kTraceColumns));
    }
    auto it = c_.metadata.find("process");
    if (it != c_.metadata.end())
        c_.source.process = it->second;

    std::error_code size_error;
    file_bytes_ = std::filesystem::file_size(path_, size_error);
    size_known_ = !size_error;

    // The loop figures, with the configuration the metadata before the rows states, when the
    // records are not kept.
    if (loop_ == TraceLoopColumns::figures)
        figures_.emplace(loop_config_from_metadata(c_));
    // The dt_ns of the preamble, for the time simulated (steps × dt_ns); without one the figures
    // of the recorded columns step with the default dt (TraceLoopFigures).
    if (const auto dt = c_.metadata.find("dt_ns"); dt != c_.metadata.end())
        std::from_chars(dt->second.data(), dt->second.data() + dt->second.size(), dt_ns_);
}

// The loop figures add the loop columns up over the frames (the time simulated, the steps,
// the step costs, the time besides the steps and the wait), and a sum that passes the int64
// range is undefined: a column whose running total passes it (2^63 ns is 292 years) is
// refused at the row where it does, as the analysis refuses a frame-time column.
void TraceReader::add_up(std::int64_t& total, std::int64_t value, Column column,
                         std::string_view what) {
    if (__builtin_add_overflow(total, value, &total)) {
        throw_at(place_, fields_[trace_v1::index(column)].column,
                 fmt::format("{} add up past the int64 range by this row (2^63 ns, 292 "
                             "years): expected a trace whose loop columns add up to less",
                             what));
    }
}

void TraceReader::add_up_row(const FrameRecord& r) {
    add_up(totals_.raw, r.raw_ns, Column::raw_ns, "the frames' raw_ns");
    add_up(totals_.clamped, r.clamped_ns, Column::clamped_ns, "the frames' clamped_ns");
    add_up(totals_.clamp_lost, r.clamp_lost_ns, Column::clamp_lost_ns, "the frames' clamp_lost_ns");
    add_up(totals_.consumed, r.consumed_ns, Column::consumed_ns, "the frames' consumed_ns");
    add_up(totals_.steps, r.steps, Column::steps, "the frames' steps");
    std::int64_t sim_ns = 0;
    if (__builtin_mul_overflow(r.steps, dt_ns_, &sim_ns))
        sim_ns = INT64_MAX;  // a product past the range is a total past it
    if (sim_ns == INT64_MAX || __builtin_add_overflow(totals_.sim, sim_ns, &totals_.sim)) {
        throw_at(place_, fields_[trace_v1::index(Column::steps)].column,
                 fmt::format("the frames' steps times dt_ns {} (the time simulated) add up "
                             "past the int64 range by this row (2^63 ns, 292 years): "
                             "expected a trace whose loop columns add up to less",
                             dt_ns_));
    }
    add_up(totals_.cap_dropped, r.cap_dropped_ns, Column::cap_dropped_ns,
           "the frames' cap_dropped_ns");
    add_up(totals_.step_cost, r.step_cost_ns, Column::step_cost_ns, "the frames' step_cost_ns");
    add_up(totals_.render, r.render_ns, Column::render_ns, "the frames' render_ns");
    add_up(totals_.wait, r.wait_ns, Column::wait_ns, "the frames' wait_ns");
    add_up(totals_.spent, r.step_cost_ns, Column::step_cost_ns,
           "the frames' step_cost_ns and wait_ns");
    add_up(totals_.spent, r.wait_ns, Column::wait_ns, "the frames' step_cost_ns and wait_ns");
}

// A row with a cell that is not the whole number (or alpha) its column holds is left out:
// a frame record has no "absent" column. Counted in `bad_`; nullopt then.
std::optional<FrameRecord> TraceReader::parse_row(std::string_view text, bool count_bad) {
    constexpr std::string_view kRowLeftOut = "the row is left out";
    split_fields(text, place_, fields_);
    if (fields_.size() != found_.size()) {
        throw_at(place_, static_cast<std::int64_t>(text.size()) + 1,
                 fmt::format("expected {} comma-separated columns as in the header, found {}",
                             found_.size(), fields_.size()));
    }
    bool row_bad = false;
    const auto mark = [&](std::size_t i, CellState state) {
        row_bad = true;
        if (count_bad)
            bad_.add(expected_[i], state, kRowLeftOut, place_, fields_[i]);
    };
    const auto integer = [&](std::size_t i) {
        std::int64_t v = 0;
        const CellState state = read_integer_cell(fields_[i], v);
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
    const auto value = [&](Column column, trace_v1::ColumnKind kind, auto& out) {
        const std::size_t i = trace_v1::index(column);
        using T = std::remove_reference_t<decltype(out)>;
        if constexpr (std::is_same_v<T, double>) {
            if (const CellState state = read_number_cell(fields_[i], out);
                state != CellState::value) {
                mark(i, state);
            }
        } else
            out = kind == trace_v1::ColumnKind::index ? integer(i) : duration(i);
    };
    FrameRecord r;
#define LOOPSCOPE_READ_COLUMN_(name, type, kind, what) \
    value(Column::name, trace_v1::ColumnKind::kind, r.name);
    LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_READ_COLUMN_)
#undef LOOPSCOPE_READ_COLUMN_
    if (row_bad)
        return std::nullopt;
    add_up_row(r);
    return r;
}

// A zone or mark record (v2): `zone,FRAME,BEGIN_NS,END_NS,THREAD,DEPTH,LABEL` or
// `mark,FRAME,T_NS,LABEL`, the label being the rest of the line (commas included).
void TraceReader::take_event(std::string_view text) {
    const bool zone = text.front() == 'z';
    const int numbers = zone ? 5 : 2;
    std::size_t at = 5;
    std::int64_t v[5] = {};
    static constexpr const char* kZoneFields[] = {"frame", "begin_ns", "end_ns", "thread", "depth"};
    static constexpr const char* kMarkFields[] = {"frame", "t_ns"};
    for (int i = 0; i < numbers; ++i) {
        const std::size_t comma = text.find(',', at);
        const std::string_view cell =
            text.substr(at, comma == std::string_view::npos ? text.npos : comma - at);
        const char* name = zone ? kZoneFields[i] : kMarkFields[i];
        const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v[i]);
        if (ec != std::errc() || end != cell.data() + cell.size() || cell.empty() ||
            (i > 0 && v[i] < 0) || comma == std::string_view::npos) {
            throw_at(place_, static_cast<std::int64_t>(at) + 1,
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
            throw_at(
                place_, 1,
                fmt::format("zone record: ends at {} ns, before it begins ({} ns)", v[2], v[1]));
        }
        if (v[3] > INT64_C(0xFFFFFFFF) || v[4] > INT64_C(0xFFFFFFFF))
            throw_at(place_, 1, "zone record: a thread or depth past 2^32 - 1");
        c_.zones.push_back({std::move(label), v[1], v[2], v[0], static_cast<std::uint32_t>(v[3]),
                            static_cast<std::uint32_t>(v[4])});
    } else {
        c_.marks.push_back({std::move(label), v[1], v[0]});
    }
}

// Only the last line can lack its line break: a file saved without a final one, or a trace
// cut off while a row was being written (a game that crashed). A row that parses whole is kept;
// one that does not is the cut piece and is left out.
bool TraceReader::take_unfinished_row(std::string_view text, std::optional<FrameRecord>& parsed) {
    try {
        parsed = parse_row(text, false);
        if (!parsed) {
            c_.warnings.push_back(fmt::format(
                "{}:{}: the last row has no line break and a cell that is not a number: "
                "the trace was cut off while being written, and the row is left out",
                path_, place_.line));
            return false;
        }
        c_.warnings.push_back(fmt::format(
            "{}:{}: the last row has no line break; it is kept, but if the trace was cut "
            "off while being written its last number may be cut short",
            path_, place_.line));
        return true;
    } catch (const InputError& e) {
        c_.warnings.push_back(
            fmt::format("{}; this last row has no line break: the trace was "
                        "cut off while being written, and the row is left out",
                        e.what()));
        return false;
    }
}

void TraceReader::keep_row(const FrameRecord& r, std::size_t line_bytes) {
    if (previous_frame_ && r.frame <= *previous_frame_ && repeated_frames_++ == 0)
        first_repeated_line_ = place_.line;
    previous_frame_ = r.frame;
    if (!(r.alpha >= 0.0 && r.alpha <= 1.0) && odd_alpha_++ == 0)
        first_alpha_line_ = place_.line;
    c_.frame_ns.push_back(r.raw_ns);
    c_.start_ns.push_back(r.start_ns);
    // raw_ns is measured at the frame's start: the length of the frame before it.
    c_.start_ends_frame_time = true;
    if (loop_ == TraceLoopColumns::records)
        c_.loop.push_back(r);
    else if (figures_)
        figures_->add(r);
    row_bytes_ += line_bytes;
    if (c_.frame_ns.size() == kRowsToMeasure && size_known_) {
        const std::size_t rows = estimated_rows(file_bytes_, row_bytes_, kRowsToMeasure);
        c_.frame_ns.reserve(rows);
        c_.start_ns.reserve(rows);
        if (loop_ == TraceLoopColumns::records)
            c_.loop.reserve(rows);
    }
}

void TraceReader::read_rows() {
    while (next_line()) {
        if (v2_ && (line_.starts_with("zone,") || line_.starts_with("mark,"))) {
            if (!reader_.line_had_break()) {
                c_.warnings.push_back(fmt::format(
                    "{}:{}: the last line, a zone or mark, has no line break: the trace was cut "
                    "off while being written, and it is left out",
                    path_, place_.line));
                break;
            }
            take_event(line_);
            continue;
        }
        std::optional<FrameRecord> parsed;
        if (reader_.line_had_break())
            parsed = parse_row(line_, true);
        else if (!take_unfinished_row(line_, parsed))
            break;
        if (parsed)
            keep_row(*parsed, line_.size() + 1);
    }
}

void TraceReader::add_oddities() {
    if (repeated_frames_ > 0) {
        c_.data_quality.oddities.push_back(
            {"frame_numbers_not_increasing", repeated_frames_,
             fmt::format("{} row{} a frame number not above the row before's (first: line {}): "
                         "duplicated or out-of-order frames, read in file order.",
                         repeated_frames_, repeated_frames_ == 1 ? " has" : "s have",
                         first_repeated_line_)});
    }
    if (odd_alpha_ > 0) {
        c_.data_quality.oddities.push_back(
            {"alpha_out_of_range", odd_alpha_,
             fmt::format("{} row{} an alpha outside [0, 1] (first: line {}), the blend between "
                         "two simulation states that a loop keeps within it.",
                         odd_alpha_, odd_alpha_ == 1 ? " has" : "s have", first_alpha_line_)});
    }
}

// The figures take the last dt_ns: the time simulated is checked again with it.
void TraceReader::check_dt_after_rows() {
    if (dt_line_after_rows_ == 0 || loop_ != TraceLoopColumns::records)
        return;
    std::int64_t last_dt_ns = 0;
    const std::string& text = c_.metadata["dt_ns"];
    std::from_chars(text.data(), text.data() + text.size(), last_dt_ns);
    std::int64_t sim_total = 0;
    for (const FrameRecord& r : c_.loop) {
        std::int64_t sim_ns = 0;
        if (__builtin_mul_overflow(r.steps, last_dt_ns, &sim_ns))
            sim_ns = INT64_MAX;
        if (sim_ns == INT64_MAX || __builtin_add_overflow(sim_total, sim_ns, &sim_total)) {
            throw InputError(
                path_, dt_line_after_rows_, 1,
                fmt::format("metadata 'dt_ns: {}' after the rows: the frames' steps times it "
                            "(the time simulated) add up past the int64 range (2^63 ns, 292 "
                            "years): expected a trace whose loop columns add up to less",
                            last_dt_ns));
        }
    }
}

std::optional<Capture> TraceReader::read() {
    read_magic();
    read_header();
    read_rows();
    if (c_.frame_ns.empty()) {
        throw InputError(path_, header_line_, 0,
                         bad_.empty()
                             ? std::string("header only: expected frame rows after the header")
                             : std::string("no row whose cells are all numbers: expected "
                                           "frame rows of whole numbers"));
    }
    // Sorted by begin (zones) and time (marks): the writer puts a zone at its end.
    std::stable_sort(c_.zones.begin(), c_.zones.end(),
                     [](const Zone& a, const Zone& b) { return a.begin_ns < b.begin_ns; });
    std::stable_sort(c_.marks.begin(), c_.marks.end(),
                     [](const Mark& a, const Mark& b) { return a.t_ns < b.t_ns; });
    bad_.append_to(c_.data_quality);
    add_oddities();
    check_dt_after_rows();
    if (figures_) {
        // A loop key after the rows (no writer puts one there) changes the configuration the
        // figures were computed with: read again, keeping the records, rather than guess.
        if (loop_key_after_rows_)
            return std::nullopt;
        c_.loop_figures = std::make_shared<const LoopFigures>(figures_->figures());
    }
    return std::move(c_);
}

}  // namespace

std::vector<Capture> read_trace_streams(const std::string& path, TraceLoopColumns loop) {
    std::optional<Capture> c = TraceReader(path, loop).read();
    if (!c)
        return read_trace_streams(path, TraceLoopColumns::records);
    return {std::move(*c)};
}

}  // namespace loopscope::detail
