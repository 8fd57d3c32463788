// CapFrameX's JSON session: {Hash, Info: {ProcessName, GameName, ...}, Runs: [{CaptureData:
// {TimeInSeconds: [...], MsBetweenPresents: [...], MsBetweenDisplayChange: [...], Dropped:
// [...], MsInPresentAPI, MsUntilRenderComplete, MsUntilDisplayed: [...]}}]}. Each run is one
// stream (named "run N"); the arrays are parallel, one entry a frame.
// nlohmann-json's SAX interface keeps only these arrays and the Info strings, so memory grows
// with the frames, not with everything else a session holds (sensor data, ...).
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string_view>

#include "common/errors.hpp"
#include "common/text_position.hpp"
#include "core/units.hpp"
#include "readers/csv_scanner.hpp"
#include "readers/read_formats.hpp"

namespace loopscope::detail {

namespace {

struct Run {
    // NaN where an entry is not a number (null, a string), with its text in `not_numbers`.
    std::vector<double> time_s, frame_ms, display_ms;
    std::map<std::pair<std::string, std::size_t>, std::string> not_numbers;
    std::vector<std::uint8_t> dropped;
    bool has_time = false, has_frame = false, has_display = false, has_dropped = false;
    // Evidence arrays (Capture's in_present_api_ns, ...): where a hitch's time went.
    std::vector<double> in_present_ms, until_render_complete_ms, until_displayed_ms;
    bool has_in_present = false, has_until_render_complete = false, has_until_displayed = false;
};

// Tracks where in the document each value sits and keeps the arrays and Info strings that
// matter; everything else is skipped as it streams by.
class SessionSax : public nlohmann::json_sax<nlohmann::json> {
  public:
    static constexpr std::size_t kMaxDepth = 64;
    std::vector<Run> runs;
    std::map<std::string, std::string> info;
    std::string problem;  // why parsing stopped
    std::size_t problem_byte = 0;

    bool null() override { return value(std::nan(""), false, "null"); }
    bool boolean(bool v) override { return value(v ? 1.0 : 0.0, true, v ? "true" : "false"); }
    bool number_integer(number_integer_t v) override {
        return value(static_cast<double>(v), true, std::to_string(v));
    }
    bool number_unsigned(number_unsigned_t v) override {
        return value(static_cast<double>(v), true, std::to_string(v));
    }
    bool number_float(number_float_t v, const string_t& text) override {
        return value(v, true, text);
    }
    bool string(string_t& v) override {
        if (stack_.size() == 2 && stack_[1].label == "Info" && !stack_[1].is_array)
            info[key_] = v;
        return value(std::nan(""), false, "\"" + v.substr(0, 30) + "\"");
    }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override {
        if (!push(false))
            return false;
        // Runs[i]: a new run starts. Each is a stream, so their number is capped as PresentMon's.
        if (stack_.size() == 3 && stack_[1].label == "Runs" && stack_[1].is_array) {
            if (runs.size() == kMaxStreams) {
                problem =
                    fmt::format("more than {} runs: expected a capture of a few runs", kMaxStreams);
                return false;
            }
            runs.emplace_back();
        }
        return true;
    }
    bool end_object() override { return pop(); }
    bool start_array(std::size_t) override {
        if (!push(true))
            return false;
        const std::string_view name = capture_array();
        if (!name.empty()) {
            Run& r = runs.back();
            r.has_time |= name == "TimeInSeconds";
            r.has_frame |= name == "MsBetweenPresents";
            r.has_display |= name == "MsBetweenDisplayChange";
            r.has_dropped |= name == "Dropped";
        }
        return true;
    }
    bool end_array() override { return pop(); }
    bool key(string_t& k) override {
        key_ = k;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) override {
        // nlohmann's text repeats the place ("... parse error at line 3, column 49: syntax
        // error ..."); keep the part that says what was wrong, the place is ours.
        problem = e.what();
        const std::size_t at = problem.find("column ");
        const std::size_t colon = at == std::string::npos ? at : problem.find(": ", at);
        if (colon != std::string::npos)
            problem = problem.substr(colon + 2);
        problem_byte = position;
        return false;
    }

  private:
    struct Level {
        bool is_array;
        std::string label;  // key in the parent object, "[]" inside an array, "" for the root
    };

    // A level per depth is kept, so the depth is capped: a capture is 5 levels deep, and a
    // document nested millions of levels would otherwise cost memory per level.
    bool push(bool is_array) {
        if (stack_.size() >= kMaxDepth) {
            problem = fmt::format(
                "nested deeper than {} levels (a CapFrameX capture has 5): not a CapFrameX "
                "capture",
                kMaxDepth);
            return false;
        }
        std::string label = stack_.empty() ? "" : (stack_.back().is_array ? "[]" : key_);
        stack_.push_back({is_array, std::move(label)});
        key_.clear();
        return true;
    }
    bool pop() {
        stack_.pop_back();
        key_.clear();
        return true;
    }
    // The array a value belongs to when it is an element of Runs[i].CaptureData.<name>.
    std::string_view capture_array() const {
        if (stack_.size() != 5 || !stack_[4].is_array || stack_[1].label != "Runs" ||
            stack_[3].label != "CaptureData" || runs.empty()) {
            return {};
        }
        return stack_[4].label;
    }
    bool value(double v, bool is_number, const std::string& text) {
        const std::string_view name = capture_array();
        if (name.empty())
            return true;
        Run& r = runs.back();
        if (name == "Dropped") {
            r.has_dropped = true;
            r.dropped.push_back(is_number && v != 0 ? 1 : 0);
            return true;
        }
        std::vector<double>* t = nullptr;
        if (name == "TimeInSeconds")
            t = &r.time_s, r.has_time = true;
        if (name == "MsBetweenPresents")
            t = &r.frame_ms, r.has_frame = true;
        if (name == "MsBetweenDisplayChange")
            t = &r.display_ms, r.has_display = true;
        if (name == "MsInPresentAPI")
            t = &r.in_present_ms, r.has_in_present = true;
        if (name == "MsUntilRenderComplete")
            t = &r.until_render_complete_ms, r.has_until_render_complete = true;
        if (name == "MsUntilDisplayed")
            t = &r.until_displayed_ms, r.has_until_displayed = true;
        if (!t)
            return true;
        if (!is_number || !std::isfinite(v)) {
            // Counted where the frames are made (a bad cell), not a reason to refuse the file.
            if (r.not_numbers.size() < 64)
                r.not_numbers[{std::string(name), t->size()}] = text.substr(0, 40);
            t->push_back(std::nan(""));
            return true;
        }
        t->push_back(v);
        return true;
    }

    std::vector<Level> stack_;
    std::string key_;
};

}  // namespace

FileStreams read_capframex_json_streams(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open");
    SessionSax sax;
    const bool ok = nlohmann::json::sax_parse(in, &sax, nlohmann::json::input_format_t::json, true);
    if (!ok) {
        if (sax.problem_byte > 0) {
            std::ifstream again(path, std::ios::binary);
            const TextPosition at = json_error_position(again, sax.problem_byte);
            throw InputError(path, at.line, at.column,
                             fmt::format("malformed JSON: {}", sax.problem));
        }
        throw InputError(path, sax.problem.empty() ? "malformed CapFrameX JSON" : sax.problem);
    }
    FileStreams file;
    std::vector<Capture>& out = file.streams;
    BadCellTally bad;
    std::string process = sax.info.count("ProcessName") ? sax.info["ProcessName"] : "";
    if (process.empty() && sax.info.count("GameName"))
        process = sax.info["GameName"];
    for (std::size_t i = 0; i < sax.runs.size(); ++i) {
        const Run& r = sax.runs[i];
        const std::string where = fmt::format("Runs[{}].CaptureData", i);
        if (!r.has_frame) {
            throw InputError(path, fmt::format("{} has no MsBetweenPresents array: expected "
                                               "CapFrameX's {{Info, Runs: [{{CaptureData: "
                                               "{{TimeInSeconds, MsBetweenPresents, ...}}}}]}}",
                                               where));
        }
        const std::size_t n = r.frame_ms.size();
        const auto check_length = [&](bool has, std::size_t size, const char* name) {
            if (has && size != n) {
                throw InputError(path, fmt::format("{}.{} has {} entries, MsBetweenPresents {}: "
                                                   "expected parallel arrays",
                                                   where, name, size, n));
            }
        };
        check_length(r.has_time, r.time_s.size(), "TimeInSeconds");
        check_length(r.has_display, r.display_ms.size(), "MsBetweenDisplayChange");
        check_length(r.has_dropped, r.dropped.size(), "Dropped");
        check_length(r.has_in_present, r.in_present_ms.size(), "MsInPresentAPI");
        check_length(r.has_until_render_complete, r.until_render_complete_ms.size(),
                     "MsUntilRenderComplete");
        check_length(r.has_until_displayed, r.until_displayed_ms.size(), "MsUntilDisplayed");
        // An evidence entry that is not a time >= 0 is only unknown (-1), as in the CSV layouts.
        const auto evidence = [](bool has, const std::vector<double>& ms, std::size_t k,
                                 std::vector<std::int64_t>& to) {
            if (!has)
                return;
            const double ns = ms[k] * 1e6;
            to.push_back(std::isfinite(ns) && ns >= 0 && ns < kInt64RangeNs ? round_to_int64(ns)
                                                                            : -1);
        };
        Capture c;
        describe_as(c, "capframex-json");
        c.source.file = path;
        c.source.process = process;
        c.source.swap_chain = fmt::format("run {}", i + 1);
        // An entry that is not a time >= 0 below 292 years is a bad cell: counted, with the
        // entry's place (a JSON array has no line of its own), and the frame read without it.
        const auto to_ns = [&](double v, double scale, const char* name, std::size_t k,
                               std::string_view treated_as) -> std::optional<std::int64_t> {
            const double ns = v * scale;
            if (ns >= 0 && ns < kInt64RangeNs)
                return round_to_int64(ns);  // the same rounding on every platform's libm
            const auto text = r.not_numbers.find({name, k});
            const CellState state = text != r.not_numbers.end() ? CellState::not_a_number
                                    : std::isnan(v)             ? CellState::not_finite
                                    : ns < 0                    ? CellState::negative
                                                                : CellState::too_large;
            bad.add(fmt::format("{}.{}", where, name), cell_state_text(state), treated_as, 0, 0,
                    fmt::format("[{}] = {}", k,
                                text != r.not_numbers.end() ? text->second : fmt::format("{}", v)));
            return std::nullopt;
        };
        for (std::size_t k = 0; k < n; ++k) {
            const auto frame =
                to_ns(r.frame_ms[k], 1e6, "MsBetweenPresents", k, "the frame is left out");
            if (!frame)
                continue;
            c.frame_ns.push_back(*frame);
            if (r.has_time) {
                const auto start = to_ns(r.time_s[k], 1e9, "TimeInSeconds", k,
                                         "that frame's start is the previous one's plus its "
                                         "frame time");
                c.start_ns.push_back(start                ? *start
                                     : c.start_ns.empty() ? 0
                                                          : c.start_ns.back() + *frame);
            }
            evidence(r.has_in_present, r.in_present_ms, k, c.in_present_api_ns);
            evidence(r.has_until_render_complete, r.until_render_complete_ms, k,
                     c.until_render_complete_ns);
            evidence(r.has_until_displayed, r.until_displayed_ms, k, c.until_displayed_ns);
            const bool dropped = r.has_dropped && r.dropped[k] != 0;
            if (r.has_dropped || r.has_display)
                c.dropped.push_back(dropped ? 1 : 0);
            if (r.has_display) {
                c.display_ns.push_back(
                    dropped ? -1
                            : to_ns(r.display_ms[k], 1e6, "MsBetweenDisplayChange", k,
                                    "that frame has no time between display changes")
                                  .value_or(-1));
            }
        }
        if (!r.has_time)
            c.start_ns = running_sum_starts(c.frame_ns);
        c.start_ends_frame_time = r.has_time;  // TimeInSeconds is the present's time
        if (!c.frame_ns.empty())
            out.push_back(std::move(c));
    }
    if (out.empty()) {
        throw InputError(path,
                         "no frames: expected Runs[].CaptureData.MsBetweenPresents with "
                         "at least one entry");
    }
    file.metadata = std::move(sax.info);  // the Info strings, given to the run kept
    bad.append_to(file.quality);
    return file;
}

}  // namespace loopscope::detail
