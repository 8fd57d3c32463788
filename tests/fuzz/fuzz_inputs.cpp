// Fuzz entry points (see fuzz_inputs.hpp). The readers take a path, so each input is written to
// a file of its own in the temporary folder first, removed again afterwards.
#include "tests/fuzz/fuzz_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "common/platform.hpp"
#include "core/analysis.hpp"
#include "core/comparison.hpp"
#include "readers/read_formats.hpp"
#include "readers/readers.hpp"
#include "tool/live_client.hpp"
#include "tool/live_record.hpp"
#include "writers/writer.hpp"

namespace loopscope::fuzz {

namespace {

// One input file per process and thread of use (the fuzzer is single-threaded).
std::string input_path() {
    static const std::string path = (std::filesystem::temp_directory_path() /
                                     fmt::format("loopscope-fuzz-input.{}", current_process_id()))
                                        .string();
    return path;
}

void write_input(const std::string& path, Bytes bytes) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        throw std::runtime_error("cannot write the fuzz input file " + path);
    if (!bytes.empty())
        std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
}

// Two captures compared, as `loopscope report A B` does: the input up to its first form feed is
// A, the rest B (without a form feed, B is A again). Few resamples and one thread: the
// resampling's arithmetic is what is tried, not its statistics.
void compare_paths(const std::string& path_a, const std::string& path_b) {
    const Capture a = read_capture(path_a);
    const Capture b = read_capture(path_b);
    Report report;
    report.captures.push_back(analyse_capture(a, {}));
    report.captures.push_back(analyse_capture(b, {}));
    report.comparison =
        compare_captures(report.captures[0], report.captures[1], 8, kBootstrapSeed, {}, 1);
    for (const char* format : writer_formats()) {
        OutputFile out("/dev/null");
        make_writer(format, {})->write(report, out);
        out.commit();
    }
}

void report_path(const std::string& path) {
    const Capture capture = read_capture(path);
    Report report;
    report.captures.push_back(analyse_capture(capture, {}));
    for (const char* format : writer_formats()) {
        OutputFile out("/dev/null");
        make_writer(format, {})->write(report, out);
        out.commit();
    }
}

// A live stream as a game sends it (docs/live.md, "The protocol"), read by the client and made
// into a trace as `record --connect` makes one. Whatever the stream holds, the trace written must
// be one the trace reader takes, with every row kept: a trace it refuses is a finding (abort),
// not bad input.
void live_stream(Bytes bytes, const std::string& path) {
    const std::string_view stream(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    LiveClient client("fuzz", stream);
    LiveRecording recording("fuzz", client.preamble(), 1u << 20);
    std::string text = recording.preamble();
    std::vector<FrameRecord> rows;
    std::vector<trace_v1::EventRecord> events;
    for (bool more = true, fits = true; more && fits;) {
        rows.clear();
        events.clear();
        more = client.read(rows, 0, &events);
        fits = recording.take(rows, text) && recording.take_events(events, text);
    }
    text += recording.closing(client.trailer());
    if (recording.frames() == 0)
        return;  // a header without rows, which the reader refuses as it should
    write_input(path, {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
    std::size_t frames = 0;
    try {
        frames = detail::read_trace_streams(path).at(0).frames();
    } catch (const InputError& e) {
        std::fprintf(stderr, "live: the trace made of the stream is refused by the reader: %s\n",
                     e.what());
        std::abort();
    }
    if (frames != static_cast<std::size_t>(recording.frames())) {
        std::fprintf(stderr, "live: %lld rows kept, the reader reads %zu\n",
                     static_cast<long long>(recording.frames()), frames);
        std::abort();
    }
}

}  // namespace

const std::vector<std::string_view>& target_names() {
    static const std::vector<std::string_view> names = {
        "trace",      "plain",  "mangohud", "afterburner", "capframex_json",
        "presentmon", "detect", "report",   "compare",     "live"};
    return names;
}

void run_target(std::string_view target, Bytes bytes) {
    const std::string path = input_path();
    const std::string second_path = path + ".b";
    Bytes first = bytes;
    Bytes second = bytes;
    if (target == "compare") {
        const auto feed = std::find(bytes.begin(), bytes.end(), std::uint8_t{'\f'});
        if (feed != bytes.end()) {
            const auto at = static_cast<std::size_t>(feed - bytes.begin());
            first = bytes.first(at);
            second = bytes.subspan(at + 1);
        }
        write_input(second_path, second);
    }
    write_input(path, first);
    struct Remove {
        const std::string& path;
        const std::string& second_path;
        ~Remove() {
            std::remove(path.c_str());
            std::remove(second_path.c_str());
        }
    } remove{path, second_path};
    try {
        if (target == "trace")
            detail::read_trace_streams(path);
        else if (target == "plain")
            detail::read_plain_streams(path, "ms");
        else if (target == "mangohud")
            detail::read_mangohud_streams(path);
        else if (target == "afterburner")
            detail::read_afterburner_streams(path);
        else if (target == "capframex_json")
            detail::read_capframex_json_streams(path);
        else if (target == "presentmon")
            detail::read_presentmon_streams(path);
        else if (target == "detect")
            read_capture(path);
        else if (target == "report")
            report_path(path);
        else if (target == "compare")
            compare_paths(path, second_path);
        else if (target == "live")
            live_stream(bytes, path);
        else
            throw std::invalid_argument(fmt::format("no fuzz target '{}'", target));
    } catch (const InputError&) {
        // Bad input, reported as promised.
    } catch (const UsageError&) {
    }
}

}  // namespace loopscope::fuzz
