// `loopscope record --connect HOST:PORT`: records a game's live stream (a game whose recorder
// serves its frames, RecorderOptions::serve_port) into a trace file that report, replay and view
// read like any other: the game's own preamble, the rows received, the game's closing lines.
// The file is written beside the target and renamed into place at the end. Whatever the peer
// sends, the file stays one the trace reader takes (readers/trace_check.hpp) and bounded
// (--max-bytes), and a silent peer ends the recording (--idle-seconds).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "recorder/trace_text.hpp"
#include "tool/commands.hpp"
#include "tool/live_client.hpp"
#include "tool/live_record.hpp"
#include "tool/loop_options.hpp"

namespace loopscope {

namespace {

struct RecordArgs {
    std::string connect;
    std::string output = "-";
    std::string seconds;              // a duration; "" = until the game stops serving
    std::string idle_seconds = "30";  // stop when nothing arrives for this long
    std::string max_bytes = "1G";     // the trace file's size at most
};

// "1G", "512M", "64K" or a plain number of bytes (binary multiples), above 0.
std::uint64_t parse_byte_count(const std::string& option, const std::string& text) {
    std::uint64_t value = 0;
    std::size_t i = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (__builtin_mul_overflow(value, 10u, &value) ||
            __builtin_add_overflow(value, static_cast<unsigned>(text[i] - '0'), &value))
            i = text.size() + 1;  // too large: refused below
    }
    int shift = 0;
    if (i + 1 == text.size()) {
        switch (text[i]) {
            case 'K': shift = 10; break;
            case 'M': shift = 20; break;
            case 'G': shift = 30; break;
            case 'T': shift = 40; break;
            default: shift = -1;
        }
        ++i;
    }
    if (i == 0 || i != text.size() || shift < 0 || value == 0 || value > (UINT64_MAX >> shift))
        throw UsageError(option + ": expected a number of bytes above 0, e.g. 1G, 512M, 64K or "
                                  "1000000, got '" + text + "'");
    return value << shift;
}

// --seconds and --idle-seconds: a number of seconds above 0, as nanoseconds.
std::int64_t parse_seconds(const std::string& option, const std::string& text) {
    const double seconds = parse_decimal(option, text);
    if (!(seconds > 0 && seconds < 1e6))
        throw UsageError(option + ": expected a number of seconds above 0, got '" + text + "'");
    return static_cast<std::int64_t>(seconds * 1e9);
}

int record_command(const RecordArgs& args) {
    const std::int64_t limit_ns = args.seconds.empty() ? 0 : parse_seconds("--seconds", args.seconds);
    const std::int64_t idle_ns = parse_seconds("--idle-seconds", args.idle_seconds);
    const std::uint64_t max_bytes = parse_byte_count("--max-bytes", args.max_bytes);
    LiveClient client(args.connect);
    // A preamble the trace reader would refuse stops here, before anything is written.
    LiveRecording recording(args.connect, client.preamble(), max_bytes);
    OutputFile out(args.output);
    out.write(recording.preamble());

    using Clock = std::chrono::steady_clock;
    const auto since_ns = [](Clock::time_point t) {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t).count();
    };
    const auto start = Clock::now();
    auto last_data = start;
    std::int64_t bytes_seen = client.bytes_received();
    std::vector<FrameRecord> rows;
    std::vector<trace_v1::EventRecord> events;
    std::string text;
    enum class Stop { stream_ended, seconds, idle, max_bytes } stop = Stop::stream_ended;
    for (;;) {
        if (limit_ns > 0 && since_ns(start) >= limit_ns) {
            stop = Stop::seconds;
            break;
        }
        rows.clear();
        events.clear();
        const bool more = client.read(rows, 50, &events);
        if (client.bytes_received() != bytes_seen) {
            bytes_seen = client.bytes_received();
            last_data = Clock::now();
        } else if (more && since_ns(last_data) >= idle_ns) {
            stop = Stop::idle;
            break;
        }
        text.clear();
        const bool fits = recording.take(rows, text) && recording.take_events(events, text);
        out.write(text);
        if (!fits) {
            stop = Stop::max_bytes;
            break;
        }
        if (!more)
            break;
    }
    if (recording.frames() == 0) {
        // A trace without rows is one `report` refuses: nothing is written.
        throw InputError(
            args.connect,
            fmt::format("no frames received ({}{}): no trace written",
                        !client.error().empty()   ? client.error()
                        : stop == Stop::seconds   ? "in the --seconds given"
                        : stop == Stop::idle      ? "nothing arrived for --idle-seconds"
                        : stop == Stop::max_bytes ? "the first row would pass --max-bytes"
                        : client.ended_cleanly()  ? "the game closed its recorder first"
                                                  : "the connection was lost first",
                        recording.left_out() > 0
                            ? fmt::format("; {} rows left out, the first {}", recording.left_out(),
                                          recording.first_left_out())
                            : std::string()));
    }
    const std::string closing = recording.closing(client.trailer());
    if (!closing.empty())
        out.write(closing);
    out.commit();
    // A summary for the person watching, on standard error (the trace may be on standard output).
    std::string notes;
    if (recording.left_out() > 0) {
        notes += fmt::format("; {} rows left out because the trace reader refuses them (the "
                             "first, {})",
                             recording.left_out(), recording.first_left_out());
    }
    if (!recording.closing_note().empty())
        notes += "; " + recording.closing_note();
    if (recording.events() > 0)
        notes += fmt::format("; {} zones and marks", recording.events());
    const std::string why =
        stop == Stop::seconds ? "stopped after --seconds"
        : stop == Stop::idle
            ? fmt::format("stopped: nothing received for {} s (--idle-seconds)", args.idle_seconds)
        : stop == Stop::max_bytes
            ? fmt::format("stopped: the trace reached --max-bytes ({} bytes)", max_bytes)
        : client.ended_cleanly()  ? "the game closed its recorder"
        : !client.error().empty() ? "stopped: the game sent what the live protocol does not allow"
                                  : "the connection was lost";
    fmt::print(stderr,
               "{} frames recorded from {} ({} clock) to {}; {} frames missing between the first "
               "and the last received, {} rows the game could not send to this client{}; {}\n",
               recording.frames(), args.connect, client.clock(), args.output, recording.missing(),
               client.dropped_for_client(), notes, why);
    if (!client.error().empty()) {
        // The rows received before the error are in the file, which the reader takes.
        fmt::print(stderr, "loopscope: error: {}: {}; the {} frames received before it are in {}\n",
                   args.connect, client.error(), recording.frames(), args.output);
        return kExitBadInput;
    }
    return kExitOk;
}

}  // namespace

void add_record_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<RecordArgs>();
    CLI::App* cmd = app.add_subcommand(
        "record", "Record a running game's live stream (its recorder serving frames) to a trace");
    cmd->add_option("--connect", args->connect,
                    "HOST:PORT of the game (its RecorderOptions::serve_port; the game listens on "
                    "127.0.0.1 unless it asks for another address)")
        ->required();
    cmd->add_option("-o,--output", args->output,
                    "Trace file to write (default -: standard output)");
    cmd->add_option("--seconds", args->seconds,
                    "Stop after this many seconds (default: until the game closes its recorder)");
    cmd->add_option("--idle-seconds", args->idle_seconds,
                    "Stop when the game sends nothing for this many seconds (default 30)");
    cmd->add_option("--max-bytes", args->max_bytes,
                    "Stop before the trace passes this size: bytes, or with K, M, G or T "
                    "(default 1G)");
    cmd->callback([args, &exit_code] { exit_code = record_command(*args); });
}

}  // namespace loopscope
