// The loop knobs on the command line, shared by `run`, `replay` and the viewer's live mode so
// that they read the same everywhere: --policy, --dt, --clamp, --max-steps, --timescale, -o,
// --json; and the value parsers every command uses for its options.
#pragma once

#include <cstdio>
#include <string>

#include "core/loop_engine.hpp"

namespace CLI {
class App;
}

namespace loopscope {

// The values as typed; an empty string means "not given" (the base configuration stands).
struct LoopOptions {
    std::string policy;
    std::string dt;
    std::string clamp;
    std::string max_steps;
    std::string timescale;
    std::string output;  // -o FILE for the trace ("" = none, "-" = standard output)
    std::string json;    // --json FILE for the loop figures ("" = none, "-" = standard output)
};

// Adds the options to a subcommand. with_output = false leaves -o and --json out (the viewer).
void add_loop_options(CLI::App& command, LoopOptions& options, bool with_output = true);

// The base configuration with every given option applied. Throws UsageError (exit code 2) with
// the option's name, the value and what was expected.
LoopConfig loop_config(const LoopOptions& options, const LoopConfig& base = {});

// Where the human-readable summary goes: standard error when the trace or the JSON takes
// standard output. Throws UsageError when both -o and --json ask for standard output.
std::FILE* summary_stream(const LoopOptions& options);

// Strict parsing of option values for every command; each throws UsageError naming `option`,
// the value and what was expected, so every bad value reads the same.
std::int64_t parse_count(const std::string& option, const std::string& text);
double parse_decimal(const std::string& option, const std::string& text);
std::int64_t parse_duration_option(const std::string& option, const std::string& text);
// The unit of a plain list of frame times: ns, us, ms or s. Checked whatever the input is, so a
// typo is caught on a PresentMon capture too, where the unit is not used.
void check_plain_unit(const std::string& option, const std::string& text);

}  // namespace loopscope
