// The command line's help and errors in loopscope's words (see cli_text.hpp). A parse error is
// told by its type (CLI11's ExtrasError, RequiredError, ...) and described from the parse's own
// data: the options given and their values, the arguments left over, the checks an option
// has. The library's message text is printed as it is, with the command in front, only for an
// error that data does not describe.
#include "tool/cli_text.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <memory>
#include <sstream>
#include <vector>

#include "core/near_name.hpp"

namespace loopscope {

namespace {

// "loopscope probe timers": the chain of subcommands the parse had entered.
const CLI::App* deepest_command(const CLI::App& app) {
    const CLI::App* at = &app;
    for (;;) {
        const auto parsed = at->get_subcommands();
        if (parsed.empty())
            return at;
        at = parsed.back();
    }
}

std::string command_path(const CLI::App* app) {
    std::vector<std::string> names;
    for (const CLI::App* at = app; at != nullptr; at = at->get_parent())
        names.push_back(at->get_name());
    std::reverse(names.begin(), names.end());
    std::string path;
    for (const auto& n : names)
        path += (path.empty() ? "" : " ") + n;
    return path;
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        names.push_back(sub->get_name());
    return names;
}

std::vector<std::string> option_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::Option* opt : app.get_options()) {
        for (const auto& l : opt->get_lnames())
            names.push_back("--" + l);
    }
    return names;
}

std::string join_or(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            out += i + 1 == names.size() ? " or " : ", ";
        out += names[i];
    }
    return out;
}

std::string suggestion(std::string_view typed, const std::vector<std::string>& candidates) {
    const auto near = nearest_name(typed, candidates);
    return near ? fmt::format(" (did you mean '{}'?)", *near) : std::string();
}

// What a value of the option's type is, in words, for a value that did not convert.
std::string expected_value(const CLI::Option& option) {
    const std::string type = option.get_type_name();
    if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0)
        return "a whole number";
    if (type.rfind("FLOAT", 0) == 0)
        return "a number";
    return "a valid value";
}

// Whether `value` converts to what the option's type name says (the conversions the option
// library would make for INT, UINT and FLOAT; other types are taken as converting).
bool converts(const CLI::Option& option, const std::string& value) {
    const std::string type = option.get_type_name();
    if (type.rfind("UINT", 0) == 0) {
        std::uint64_t v = 0;
        return CLI::detail::lexical_cast(value, v);
    }
    if (type.rfind("INT", 0) == 0) {
        std::int64_t v = 0;
        return CLI::detail::lexical_cast(value, v);
    }
    if (type.rfind("FLOAT", 0) == 0) {
        double v = 0;
        return CLI::detail::lexical_cast(value, v);
    }
    return true;
}

// The options of `command` that were given on the command line, in their order of definition.
std::vector<const CLI::Option*> given_options(const CLI::App& command) {
    std::vector<const CLI::Option*> given;
    for (const CLI::Option* opt : command.get_options()) {
        if (opt->count() > 0)
            given.push_back(opt);
    }
    return given;
}

// The largest number of values an option takes, as the library counts it (0 and 1 both mean
// one), or nullopt when it takes any number.
std::optional<std::size_t> most_values(const CLI::Option& option) {
    const int most = option.get_items_expected_max();
    if (most >= CLI::detail::expected_max_vector_size)
        return std::nullopt;
    return static_cast<std::size_t>(std::max(most, 1));
}

std::string lower_first(std::string text) {
    if (!text.empty())
        text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
}

// The arguments the parse left over, from the command where it stopped or, when that one has
// none, the nearest command above it that has some.
std::vector<std::string> left_over(const CLI::App& command) {
    for (const CLI::App* at = &command; at != nullptr; at = at->get_parent()) {
        std::vector<std::string> words = at->remaining(false);
        if (!words.empty())
            return words;
    }
    return {};
}

std::string extras_message(const CLI::App& command, const std::vector<std::string>& words,
                           const std::string& message) {
    if (words.empty())
        return lower_first(message);
    // An option is the likelier mistake to name: "--duration 5" lists "5" too.
    const auto option =
        std::find_if(words.begin(), words.end(), [](const std::string& w) { return w[0] == '-'; });
    if (option != words.end()) {
        const std::string name = option->substr(0, option->find('='));
        return fmt::format("unknown option '{}'{}", name, suggestion(name, option_names(command)));
    }
    const std::vector<std::string> commands = subcommand_names(command);
    if (!commands.empty()) {
        return fmt::format("unknown command '{}'{}; expected {}", words.front(),
                           suggestion(words.front(), commands), join_or(commands));
    }
    return fmt::format("unexpected argument '{}'", words.front());
}

// The kind by type: the library's error name is sometimes the command's name instead.
template <typename Kind>
bool is(const CLI::ParseError& error) {
    return dynamic_cast<const Kind*>(&error) != nullptr;
}

// The error in loopscope's words, from the error's type and the parse's state (which options
// were given, with which values; what was left over), never from the library's English text,
// which is only the fallback when the state does not say what went wrong.
std::string rephrase(const CLI::App& command, const CLI::ParseError& error,
                     const std::vector<std::string>& args) {
    const std::string message = error.what();
    if (is<CLI::ExtrasError>(error))
        return extras_message(command, left_over(command), message);
    if (is<CLI::RequiredError>(error)) {
        if (command.get_require_subcommand_min() > 0 && command.get_subcommands().empty())
            return fmt::format("a command is required: {}", join_or(subcommand_names(command)));
        for (const CLI::Option* opt : command.get_options()) {
            if (opt->get_required() && opt->count() == 0)
                return fmt::format("{} is missing", opt->get_name());
        }
    }
    if (is<CLI::ArgumentMismatch>(error)) {
        for (const CLI::Option* opt : given_options(command)) {
            const auto most = most_values(*opt);
            const auto least = static_cast<std::size_t>(std::max(opt->get_items_expected_min(), 1));
            if (most && opt->count() > *most) {
                return fmt::format("too many {} arguments: at most {}, got {}", opt->get_name(),
                                   *most, opt->count());
            }
            if (opt->count() < least) {
                return fmt::format("too few {} arguments: {} needed, got {}", opt->get_name(),
                                   least, opt->count());
            }
        }
        // An option that takes a value, last on the command line with none after it.
        if (!args.empty()) {
            const std::string& last = args.back();
            for (const CLI::Option* opt : command.get_options()) {
                if (opt->get_expected_min() > 0 && !opt->get_positional() &&
                    last.rfind('-', 0) == 0 && opt->check_name(last))
                    return fmt::format("{} needs a value", last);
            }
        }
    }
    if (is<CLI::ConversionError>(error)) {
        for (const CLI::Option* opt : given_options(command)) {
            for (const std::string& value : opt->results()) {
                if (!converts(*opt, value)) {
                    return fmt::format("invalid {} '{}': expected {}", opt->get_name(), value,
                                       expected_value(*opt));
                }
            }
        }
    }
    if (is<CLI::ValidationError>(error)) {
        // The option whose value one of its checks turns down, with that check's own words
        // (number_range's: "expected a number from 1 to 1000000").
        for (const CLI::Option* given : given_options(command)) {
            auto* opt = const_cast<CLI::Option*>(given);  // get_validator is not const
            for (int k = 0;; ++k) {
                CLI::Validator* check = nullptr;
                try {
                    check = opt->get_validator(k);
                } catch (const CLI::OptionNotFound&) {
                    break;
                }
                for (const std::string& value : opt->results()) {
                    std::string copy = value;
                    const std::string why = (*check)(copy);
                    if (!why.empty())
                        return fmt::format("invalid {} '{}': {}", opt->get_name(), value, why);
                }
            }
        }
    }
    // RequiresError ("--frames requires --screenshot"), ExcludesError and the rest read well.
    return lower_first(message);
}

constexpr std::size_t kHelpWidth = 80;

// What each option's value is, by its long name, so that every command names the same value the
// same way; "command --option" entries are for an option whose value differs in one command.
struct Placeholder {
    std::string_view option;
    std::string_view text;
};
constexpr Placeholder kPlaceholders[] = {
    {"diagnose --output", "DIR"},
    {"--json", "FILE"},
    {"--output", "FILE"},
    {"--screenshot", "FILE"},
    {"--drop", "FILE"},
    {"--save-live-trace", "FILE"},
    {"--save-report", "FILE"},
    {"--duration", "DURATION"},
    {"--interval", "DURATION"},
    {"--bound", "DURATION"},
    {"--dt", "DURATION"},
    {"--clamp", "DURATION"},
    {"--step-cost", "DURATION"},
    {"--seconds", "SECONDS"},
    {"--idle-seconds", "SECONDS"},
    {"--max-bytes", "BYTES"},
    {"--frames", "N"},
    {"--loops", "N"},
    {"--reads", "N"},
    {"--seed", "N"},
    {"--max-steps", "N"},
    {"--timescale", "FACTOR"},
    {"--scenario", "NAME"},
    {"--clock", "CLOCK"},
    {"--policy", "POLICY"},
    {"--process", "PROCESS"},
    {"--format", "FORMAT"},
    {"--timeline", "TIMELINE"},
    {"--unit", "UNIT"},
    {"--from", "FRAME|TIME"},
    {"--to", "FRAME|TIME"},
    {"--fail-if", "CONDITION"},
    {"--only", "LIST"},
    {"--sweep-dt", "LIST"},
    {"--sweep-max-steps", "LIST"},
    {"--sweep-clamp", "LIST"},
    {"--size", "WxH"},
    {"--select", "FROM:TO"},
};

std::string placeholder(const CLI::App& command, const CLI::Option& option) {
    const std::string name =
        "--" + (option.get_lnames().empty() ? std::string("value") : option.get_lnames().front());
    const std::string scoped = command.get_name() + " " + name;
    for (const Placeholder& p : kPlaceholders) {
        if (p.option == scoped)
            return std::string(p.text);
    }
    for (const Placeholder& p : kPlaceholders) {
        if (p.option == name)
            return std::string(p.text);
    }
    return "VALUE";
}

// Words of `text` filled into lines of at most `width` columns, the first after `first_column`
// columns already used, every line after it indented by `indent`. A blank line in `text`
// starts a new paragraph; a single line break is a space.
std::string wrap(const std::string& text, std::size_t first_column, std::size_t indent) {
    std::string out;
    std::size_t column = first_column;
    bool line_empty = true;
    std::size_t at = 0;
    while (at < text.size()) {
        if (text.compare(at, 2, "\n\n") == 0) {
            out += "\n\n" + std::string(indent, ' ');
            column = indent;
            line_empty = true;
            at += 2;
            continue;
        }
        if (text[at] == ' ' || text[at] == '\n') {
            ++at;
            continue;
        }
        const std::size_t end = text.find_first_of(" \n", at);
        const std::string word = text.substr(at, end == std::string::npos ? end : end - at);
        at = end == std::string::npos ? text.size() : end;
        if (!line_empty && column + 1 + word.size() > kHelpWidth) {
            out += "\n" + std::string(indent, ' ');
            column = indent;
            line_empty = true;
        }
        if (!line_empty) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
        line_empty = false;
    }
    return out;
}

class HelpFormatter : public CLI::Formatter {
  public:
    HelpFormatter() {
        column_width(28);
        label("Positionals", "Arguments");
        label("SUBCOMMAND", "COMMAND");
    }

    std::string make_description(const CLI::App* app) const override {
        const std::string description = app->get_description();
        return description.empty() ? std::string() : wrap(description, 0, 0) + "\n";
    }

    std::string make_usage(const CLI::App* app, std::string name) const override {
        std::string out = "Usage: " + name;
        if (!app->get_options([](const CLI::Option* o) { return o->nonpositional(); }).empty())
            out += " [OPTIONS]";
        for (const CLI::Option* p :
             app->get_options([](const CLI::Option* o) { return o->get_positional(); })) {
            const std::string n = p->get_name(true, false);
            const int least = p->get_required() ? std::max(1, p->get_expected_min()) : 0;
            const int most = p->get_expected_max();
            for (int i = 0; i < least; ++i)
                out += " " + n;
            if (most >= CLI::detail::expected_max_vector_size)
                out += " [" + n + "...]";
            else
                for (int i = least; i < most; ++i)
                    out += " [" + n + "]";
        }
        if (!app->get_subcommands([](const CLI::App*) { return true; }).empty())
            out += app->get_require_subcommand_min() == 0 ? " [COMMAND]" : " COMMAND";
        return out + "\n";
    }

    std::string make_option_opts(const CLI::Option* option) const override {
        return option->get_option_text().empty() ? std::string() : " " + option->get_option_text();
    }

    std::string make_option(const CLI::Option* option, bool is_positional) const override {
        return row(make_option_name(option, is_positional) + make_option_opts(option),
                   make_option_desc(option));
    }

    std::string make_subcommand(const CLI::App* sub) const override {
        return row(sub->get_name(), sub->get_description());
    }

  private:
    // "  NAME   description" with the description wrapped at column_width_.
    std::string row(const std::string& name, const std::string& description) const {
        std::string out = "  " + name;
        if (out.size() + 1 > column_width_)
            out += "\n" + std::string(column_width_, ' ');
        else
            out += std::string(column_width_ - out.size(), ' ');
        return out + wrap(description, column_width_, column_width_) + "\n";
    }
};

void format_command(CLI::App& command, const std::shared_ptr<HelpFormatter>& formatter) {
    command.formatter(formatter);
    for (CLI::Option* option : command.get_options()) {
        if (option->get_positional() || option->get_expected_max() == 0)
            continue;
        option->option_text(placeholder(command, *option));
        const std::string default_value = option->get_default_str();
        if (!default_value.empty() &&
            option->get_description().find("default") == std::string::npos)
            option->description(option->get_description() + " (default " + default_value + ")");
    }
    for (CLI::App* sub : command.get_subcommands([](CLI::App*) { return true; })) {
        sub->group("Commands");
        format_command(*sub, formatter);
    }
}

}  // namespace

void format_help_text(CLI::App& app) {
    format_command(app, std::make_shared<HelpFormatter>());
}

std::optional<std::string> nearest_name(std::string_view typed,
                                        std::span<const std::string> candidates) {
    std::optional<std::string> best;
    std::size_t best_distance = 0;
    for (const std::string& c : candidates) {
        const std::size_t d = edit_distance(typed, c);
        if (!best || d < best_distance) {
            best = c;
            best_distance = d;
        }
    }
    // A third of the word (at least 1, at most 3 edits) is a typo; more is another word.
    const std::size_t limit = std::clamp<std::size_t>(typed.size() / 3, 1, 3);
    if (!best || best_distance > limit)
        return std::nullopt;
    return best;
}

std::optional<std::string> unknown_command_message(const CLI::App& app, std::string_view word) {
    if (word.empty() || word[0] == '-')
        return std::nullopt;
    const std::vector<std::string> commands = subcommand_names(app);
    if (std::find(commands.begin(), commands.end(), word) != commands.end())
        return std::nullopt;
    return fmt::format("unknown command '{}'{}; expected {} (see {} --help)", word,
                       suggestion(word, commands), join_or(commands), app.get_name());
}

CLI::Validator number_range(std::int64_t least, std::int64_t most) {
    CLI::Validator check(
        [least, most](std::string& value) -> std::string {
            std::int64_t v = 0;
            if (CLI::detail::lexical_cast(value, v) && v >= least && v <= most)
                return {};
            return fmt::format("expected a number from {} to {}", least, most);
        },
        fmt::format("in [{} - {}]", least, most));
    return check;
}

std::string parse_error_message(const CLI::App& app, const CLI::ParseError& error,
                                const std::vector<std::string>& args) {
    const CLI::App* command = deepest_command(app);
    const std::string path = command_path(command);
    const std::string what = rephrase(*command, error, args);
    if (command == &app)
        return fmt::format("{} (see {} --help)", what, path);
    // "report: unknown option ..." names the subcommand without the program's name, which
    // the "loopscope: error:" prefix already gives.
    const std::string sub_path = path.substr(app.get_name().size() + 1);
    return fmt::format("{}: {} (see {} --help)", sub_path, what, path);
}

}  // namespace loopscope
