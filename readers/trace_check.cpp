// The trace reader's rules for a trace that arrives in pieces (see trace_check.hpp).
#include "readers/trace_check.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "core/analysis.hpp"
#include "core/loop_engine.hpp"
#include "readers/csv_scanner.hpp"
#include "readers/read_formats.hpp"

namespace loopscope {

namespace {

// The next line of `text` from `at` (without its "\n" or a "\r" before it); false at the end.
bool next_line(std::string_view text, std::size_t& at, std::string_view& line) {
    if (at >= text.size())
        return false;
    const std::size_t end = std::min(text.find('\n', at), text.size());
    line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    at = end + 1;
    return true;
}

// A `# key: value` line (or a comment without a colon, which the reader skips): its problem, or
// nullopt. Adds its size to `metadata_bytes` as the reader counts it.
std::optional<std::string> metadata_line_problem(std::string_view line, std::size_t& metadata_bytes,
                                                 bool loop_keys_allowed, std::string* key_out,
                                                 std::string* value_out) {
    const std::string_view kv = trim(line.substr(1));
    const std::size_t colon = kv.find(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    metadata_bytes += kv.size();
    if (metadata_bytes > detail::kMaxMetadataBytes) {
        return fmt::format(
            "the '# key: value' lines pass {} KiB: expected a few lines of trace "
            "information",
            detail::kMaxMetadataBytes / 1024);
    }
    const std::string key(trim(kv.substr(0, colon)));
    const std::string value(trim(kv.substr(colon + 1)));
    if (is_loop_metadata_key(key) && !loop_keys_allowed)
        return fmt::format("loop setting '{}' after the rows: expected it before them", key);
    if (const auto problem = loop_metadata_problem(key, value))
        return fmt::format("metadata '{}: {}': {}", key, value, *problem);
    if (key_out)
        *key_out = key;
    if (value_out)
        *value_out = value;
    return std::nullopt;
}

}  // namespace

std::map<std::string, std::string> check_trace_preamble(const std::string& where,
                                                        std::string_view text,
                                                        std::size_t& metadata_bytes) {
    std::map<std::string, std::string> metadata;
    std::size_t at = 0;
    std::int64_t line_number = 0;
    std::string_view line;
    bool have_line = false;
    while ((have_line = next_line(text, at, line)) && (++line_number, trim(line).empty())) {
    }
    if (!have_line || (trim(line) != kTraceMagic && trim(line) != kTraceMagicV2)) {
        throw InputError(
            where, std::max<std::int64_t>(line_number, 1), 1,
            fmt::format("the game's trace preamble starts with {}: expected '{}' or '{}'",
                        have_line ? quote_for_message(trim(line)) : "nothing", kTraceMagic,
                        kTraceMagicV2));
    }
    bool have_header = false;
    while (next_line(text, at, line)) {
        ++line_number;
        if (line.empty())
            continue;
        if (line.front() == '#') {
            std::string key, value;
            if (const auto problem =
                    metadata_line_problem(line, metadata_bytes, true, &key, &value)) {
                throw InputError(where, line_number, 1, "the game's trace preamble: " + *problem);
            }
            if (!key.empty())
                metadata[key] = value;
            continue;
        }
        const std::string_view columns(kTraceColumns);
        if (line.substr(0, columns.size()) != columns ||
            (line.size() > columns.size() && line[columns.size()] != ',')) {
            throw InputError(where, line_number, 1,
                             fmt::format("the game's trace preamble has {} where the header row "
                                         "belongs: expected the columns '{}' first, in this order",
                                         quote_for_message(line), kTraceColumns));
        }
        have_header = true;
        break;
    }
    if (!have_header) {
        throw InputError(where, line_number, 0,
                         fmt::format("the game's trace preamble has no header row: expected '{}'",
                                     kTraceColumns));
    }
    while (next_line(text, at, line)) {
        ++line_number;
        if (!line.empty()) {
            throw InputError(where, line_number, 1,
                             "the game's trace preamble goes on after its header row: expected "
                             "the rows to come as the stream's batches");
        }
    }
    return metadata;
}

std::optional<std::string> trace_trailer_problem(std::string_view text,
                                                 std::size_t& metadata_bytes) {
    std::size_t at = 0;
    std::string_view line;
    for (std::int64_t n = 1; next_line(text, at, line); ++n) {
        if (line.empty())
            continue;
        if (line.front() != '#') {
            return fmt::format(
                "line {} of the game's closing lines is {}: expected '# key: "
                "value' lines",
                n, quote_for_message(line));
        }
        if (const auto problem =
                metadata_line_problem(line, metadata_bytes, false, nullptr, nullptr))
            return fmt::format("line {} of the game's closing lines: {}", n, *problem);
    }
    return std::nullopt;
}

std::int64_t trace_dt_ns(const std::map<std::string, std::string>& metadata) {
    std::int64_t dt_ns = LoopConfig{}.dt_ns;
    if (const auto dt = metadata.find("dt_ns"); dt != metadata.end())
        std::from_chars(dt->second.data(), dt->second.data() + dt->second.size(), dt_ns);
    return dt_ns;
}

TraceRowCheck::TraceRowCheck(std::int64_t dt_ns) : dt_ns_(dt_ns) {}

std::optional<std::string> TraceRowCheck::take(const FrameRecord& r) {
    struct Column {
        const char* name;
        std::int64_t value;
    };
    const Column times[] = {
        {"start_ns", r.start_ns},
        {"raw_ns", r.raw_ns},
        {"clamped_ns", r.clamped_ns},
        {"clamp_lost_ns", r.clamp_lost_ns},
        {"consumed_ns", r.consumed_ns},
        {"acc_before_ns", r.acc_before_ns},
        {"steps", r.steps},
        {"cap_dropped_ns", r.cap_dropped_ns},
        {"acc_after_ns", r.acc_after_ns},
        {"step_cost_ns", r.step_cost_ns},
        {"render_ns", r.render_ns},
        {"wait_ns", r.wait_ns},
    };
    for (const Column& c : times) {
        if (c.value < 0)
            return fmt::format("expected a time >= 0 in column '{}', found {}", c.name, c.value);
    }
    if (!std::isfinite(r.alpha))
        return fmt::format("expected a finite number in column 'alpha', found {}", r.alpha);
    Totals t = totals_;
    const auto add = [](std::int64_t& total, std::int64_t value) {
        return !__builtin_add_overflow(total, value, &total);
    };
    std::int64_t sim_ns = 0;
    const bool sim_fits = !__builtin_mul_overflow(r.steps, dt_ns_, &sim_ns) && add(t.sim, sim_ns);
    if (!add(t.raw, r.raw_ns) || !add(t.clamped, r.clamped_ns) ||
        !add(t.clamp_lost, r.clamp_lost_ns) || !add(t.consumed, r.consumed_ns) ||
        !add(t.steps, r.steps) || !sim_fits || !add(t.cap_dropped, r.cap_dropped_ns) ||
        !add(t.step_cost, r.step_cost_ns) || !add(t.render, r.render_ns) ||
        !add(t.wait, r.wait_ns) || !add(t.spent, r.step_cost_ns) || !add(t.spent, r.wait_ns)) {
        return "the loop columns would add up past the int64 range with this row (2^63 ns, 292 "
               "years)";
    }
    totals_ = t;
    return std::nullopt;
}

}  // namespace loopscope
