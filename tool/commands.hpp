// Each subcommand of `loopscope` lives in its own tool/cmd_*.cpp and registers itself on the
// application here. A command's callback stores its exit code in `exit_code`; errors a user
// caused are thrown as UsageError or InputError and reported by main() with exit code 2.
#pragma once

namespace CLI {
class App;
}

namespace loopscope {

// One declaration per subcommand, e.g. void add_probe_command(CLI::App& app, int& exit_code);
void add_probe_command(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_replay_command(CLI::App& app, int& exit_code);
void add_record_command(CLI::App& app, int& exit_code);
#ifdef LOOPSCOPE_HAVE_VIEWER
void add_view_command(CLI::App& app, int& exit_code);
#endif
void add_report_command(CLI::App& app, int& exit_code);
void add_diagnose_command(CLI::App& app, int& exit_code);
void add_history_command(CLI::App& app, int& exit_code);
void add_fleet_command(CLI::App& app, int& exit_code);

// `probe timers`, registered on the `probe` command.
void add_probe_timers_command(CLI::App& probe, int& exit_code);

}  // namespace loopscope
