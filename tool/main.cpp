// The `loopscope` program: parses the command line, runs one subcommand and turns the errors a
// user can cause into one line on standard error and a documented exit code.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>

#include "common/errors.hpp"
#include "tool/cli_text.hpp"
#include "tool/commands.hpp"
#include "tool/option_values.hpp"

int main(int argc, char** argv) {
    CLI::App app{
        "loopscope: timing diagnostics for game developers.\n"
        "Measures this machine's clocks and timers, runs and replays fixed-timestep game loops,\n"
        "and reports frame pacing from loopscope traces and PresentMon, CapFrameX, OCAT,\n"
        "FrameView and MangoHud captures.\n\n"
        "Exit codes: 0 ok, 1 a probe or run failed, 2 bad command line or input,\n"
        "3 a --fail-if condition held or a --fail-if-regressed figure regressed.",
        "loopscope"};
    app.set_version_flag("--version",
                         "loopscope " LOOPSCOPE_VERSION " (" LOOPSCOPE_BUILD_TYPE " build)");
    app.require_subcommand(1);
    app.fallthrough(false);

    [[maybe_unused]] int exit_code = loopscope::kExitOk;
    // One line per subcommand, in the order --help lists them.
    loopscope::add_probe_command(app, exit_code);
    loopscope::add_run_command(app, exit_code);
    loopscope::add_replay_command(app, exit_code);
    loopscope::add_record_command(app, exit_code);
#ifdef LOOPSCOPE_HAVE_VIEWER
    loopscope::add_view_command(app, exit_code);
#endif
    loopscope::add_report_command(app, exit_code);
    loopscope::add_diagnose_command(app, exit_code);
    loopscope::add_history_command(app, exit_code);
    loopscope::add_fleet_command(app, exit_code);
    loopscope::format_help_text(app);

    try {
        if (argc > 1) {
            if (auto unknown = loopscope::unknown_command_message(app, argv[1])) {
                fmt::print(stderr, "loopscope: error: {}\n", *unknown);
                return loopscope::kExitBadInput;
            }
        }
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "loopscope: error: {}\n",
                   loopscope::parse_error_message(app, e,
                                                  std::vector<std::string>(argv + 1, argv + argc)));
        return loopscope::kExitBadInput;
    } catch (const loopscope::InputError& e) {
        fmt::print(stderr, "loopscope: error: {}\n", e.what());
        return loopscope::kExitBadInput;
    } catch (const loopscope::UsageError& e) {
        fmt::print(stderr, "loopscope: error: {}\n", loopscope::command_line_error_text(e));
        return loopscope::kExitBadInput;
    } catch (const std::exception& e) {
        fmt::print(stderr, "loopscope: failed: {}\n", e.what());
        return loopscope::kExitFailure;
    }
    // Output that could not be written (a full disk behind standard output) is an error, not
    // a success: the report the user asked for is not there.
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
        fmt::print(stderr, "loopscope: error: cannot write to standard output: {}\n",
                   std::strerror(errno));
        return loopscope::kExitBadInput;
    }
    return exit_code;
}
