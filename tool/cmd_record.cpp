// `loopscope record --connect HOST:PORT`: records a game's live stream (a game whose recorder
// serves its frames, RecorderOptions::serve_port) into a trace file that report, replay and view
// read like any other: the game's own preamble, the rows received, the game's closing lines.
// The file is written beside the target and renamed into place at the end.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "recorder/trace_text.hpp"
#include "tool/commands.hpp"
#include "tool/live_client.hpp"
#include "tool/loop_options.hpp"

namespace loopscope {

namespace {

struct RecordArgs {
    std::string connect;
    std::string output = "-";
    std::string seconds;  // a duration; "" = until the game stops serving
};

int record_command(const RecordArgs& args) {
    std::int64_t limit_ns = 0;
    if (!args.seconds.empty()) {
        const double seconds = parse_decimal("--seconds", args.seconds);
        if (!(seconds > 0 && seconds < 1e6))
            throw UsageError("--seconds: expected a number of seconds above 0, got '" +
                             args.seconds + "'");
        limit_ns = static_cast<std::int64_t>(seconds * 1e9);
    }
    LiveClient client(args.connect);
    OutputFile out(args.output);
    out.write(client.preamble());

    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    std::vector<FrameRecord> rows;
    std::string text;
    std::int64_t frames = 0;
    std::int64_t first_frame = -1;
    std::int64_t last_frame = -1;
    for (;;) {
        const auto elapsed_ns =
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
        if (limit_ns > 0 && elapsed_ns >= limit_ns)
            break;
        rows.clear();
        const bool more = client.read(rows, 50);
        text.clear();
        char row[trace_v1::kMaxRowChars];
        for (const FrameRecord& r : rows) {
            text.append(row, trace_v1::format_row(row, r));
            if (first_frame < 0)
                first_frame = r.frame;
            last_frame = r.frame;
        }
        frames += static_cast<std::int64_t>(rows.size());
        out.write(text);
        if (!more)
            break;
    }
    if (!client.trailer().empty())
        out.write(client.trailer());
    out.commit();
    // A summary for the person watching, on standard error (the trace may be on standard output).
    const std::int64_t missing =
        last_frame >= first_frame && first_frame >= 0 ? last_frame - first_frame + 1 - frames : 0;
    fmt::print(stderr,
               "{} frames recorded from {} ({} clock) to {}; {} frames missing between the first "
               "and the last received, {} rows the game could not send to this client; {}\n",
               frames, args.connect, client.clock(), args.output, missing,
               client.dropped_for_client(),
               client.ended_cleanly() ? "the game closed its recorder"
               : client.connected()   ? "stopped after --seconds"
                                      : "the connection was lost");
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
    cmd->callback([args, &exit_code] { exit_code = record_command(*args); });
}

}  // namespace loopscope
