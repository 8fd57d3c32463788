// The command line's own text: help and errors in loopscope's words. The option library writes
// help with its own placeholders (TEXT, INT:INT in [1 - 1000000], Needs:) and reports a bad
// command line in its phrasing, over two lines and without the program's name. Here every value
// gets one placeholder by what it is (FILE, DURATION, N ...), help wraps at 80 columns, and each
// parse error becomes the one line every other loopscope error is: what was wrong, which
// command, the nearest valid name when a name was mistyped, and where the help is.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <cstdint>
#include <vector>

namespace CLI {
class App;
class ParseError;
class Validator;
}  // namespace CLI

namespace loopscope {

// Installs the help formatter on `app` and gives every option of every command its placeholder
// and its default in words; call once every command has been added.
void format_help_text(CLI::App& app);

// The message for a parse error of `app` (the top-level app after a failed parse of `args`, the
// command line without the program's name), without the "loopscope: error: " prefix: e.g.
// "report: unknown option '--bogus' (see loopscope report --help)".
std::string parse_error_message(const CLI::App& app, const CLI::ParseError& error,
                                const std::vector<std::string>& args);

// A check that a whole-number option lies in [least, most]; its error reads "invalid --loops
// '0': expected a number from 1 to 1000000". Use it instead of CLI::Range, whose words are the
// library's.
CLI::Validator number_range(std::int64_t least, std::int64_t most);

// An unknown first word where a subcommand is expected ("reprot"), checked before parsing
// because the option library only says "A subcommand is required" then. The message, or
// nullopt when `word` is a subcommand or an option.
std::optional<std::string> unknown_command_message(const CLI::App& app, std::string_view word);

// The candidate closest to `typed` by edit distance, when close enough to be a likely typo.
std::optional<std::string> nearest_name(std::string_view typed,
                                        std::span<const std::string> candidates);

}  // namespace loopscope
