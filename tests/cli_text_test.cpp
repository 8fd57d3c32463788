// The command line's own text, end to end: every error is one line in the same form naming the
// option or file, mistyped names get the nearest valid one, and every command's --help reads
// well (80 columns, loopscope's placeholders, none of the option library's artefacts).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace loopscope::test {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        lines.push_back(text.substr(start, end == std::string::npos ? end : end - start));
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return lines;
}

// The top-level commands as the error text lists them; `view` exists only where the viewer is
// built (the sanitizer build leaves it out).
#ifdef LOOPSCOPE_HAVE_VIEWER
const std::string kTopCommands =
    "probe, run, replay, record, view, report, diagnose, history or fleet";
#else
const std::string kTopCommands = "probe, run, replay, record, report, diagnose, history or fleet";
#endif

// Runs a command that must fail with exit code 2 and one error line; returns that line.
std::string one_error_line(const std::string& args) {
    const RunResult r = run_loopscope(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    const auto lines = lines_of(r.err);
    EXPECT_EQ(lines.size(), 1u) << args << "\n" << r.err;
    const std::string line = lines.empty() ? std::string() : lines.front();
    EXPECT_EQ(line.rfind("loopscope: error: ", 0), 0u) << args << "\n" << r.err;
    return line;
}

TEST(CliErrors, TheOptionLibrarysErrorsAreOneLineNamingTheCommand) {
    const std::string pm = test_data("presentmon1.csv");
    EXPECT_EQ(one_error_line("report " + pm + " " + pm + " " + pm),
              "loopscope: error: 3 captures: a report takes one, or two to compare; --summary "
              "takes any number");
    EXPECT_EQ(one_error_line("report"),
              "loopscope: error: report: FILE is missing (see loopscope report --help)");
    EXPECT_EQ(one_error_line("run --timescale"),
              "loopscope: error: run: --timescale needs a value (see loopscope run --help)");
    EXPECT_EQ(one_error_line("probe timers --loops 0"),
              "loopscope: error: probe timers: invalid --loops '0': expected a number from 1 to "
              "1000000 (see loopscope probe timers --help)");
    EXPECT_EQ(one_error_line(""), "loopscope: error: a command is required: " + kTopCommands +
                                      " (see loopscope --help)");
}

TEST(CliErrors, AMistypedCommandOrOptionGetsTheNearestName) {
    EXPECT_EQ(one_error_line("reprot x.csv"),
              "loopscope: error: unknown command 'reprot' (did you mean 'report'?); expected " +
                  kTopCommands + " (see loopscope --help)");
    EXPECT_EQ(one_error_line("probe clockz"),
              "loopscope: error: probe: unknown command 'clockz' (did you mean 'clocks'?); "
              "expected clocks, timers or compare (see loopscope probe --help)");
    EXPECT_EQ(one_error_line("report --formt json x.csv"),
              "loopscope: error: report: unknown option '--formt' (did you mean '--format'?) "
              "(see loopscope report --help)");
    // Nothing near: no guess.
    EXPECT_EQ(one_error_line("probe timers --duration 5"),
              "loopscope: error: probe timers: unknown option '--duration' (see loopscope probe "
              "timers --help)");
    EXPECT_EQ(one_error_line("frobnicate"),
              "loopscope: error: unknown command 'frobnicate'; expected " + kTopCommands +
                  " (see loopscope --help)");
}

TEST(CliErrors, ABadDurationNamesItsOption) {
    EXPECT_NE(one_error_line("probe clocks --duration 5").find("--duration: invalid duration '5'"),
              std::string::npos);
    EXPECT_NE(one_error_line("probe timers --interval x").find("--interval: invalid duration 'x'"),
              std::string::npos);
    EXPECT_NE(one_error_line("probe timers --bound 2").find("--bound: invalid duration '2'"),
              std::string::npos);
    EXPECT_NE(one_error_line("replay --step-cost 3 " + test_data("plain.txt"))
                  .find("--step-cost: invalid duration '3'"),
              std::string::npos);
}

TEST(CliErrors, SweepValuesAreBlamedOnTheirOwnOptionAndNeedSweep) {
    const std::string plain = test_data("plain.txt");
    const std::string dt = one_error_line("replay --sweep --sweep-dt 1/60,abc " + plain);
    EXPECT_NE(dt.find("--sweep-dt: invalid duration 'abc'"), std::string::npos) << dt;
    EXPECT_EQ(dt.find("--dt:"), std::string::npos) << dt;
    EXPECT_NE(one_error_line("replay --sweep --sweep-dt 0 " + plain)
                  .find("invalid --sweep-dt '0': a step must be longer than 0"),
              std::string::npos);
    EXPECT_NE(one_error_line("replay --sweep --sweep-clamp 5 " + plain)
                  .find("--sweep-clamp: invalid duration '5'"),
              std::string::npos);
    EXPECT_EQ(one_error_line("replay --sweep-dt 1/60 " + plain),
              "loopscope: error: replay: --sweep-dt requires --sweep (see loopscope replay "
              "--help)");
}

TEST(CliErrors, UnitIsCheckedWhateverTheInput) {
    // A PresentMon capture does not use the unit, but a typo in it is still a typo.
    for (const char* command : {"report", "replay"}) {
        EXPECT_EQ(
            one_error_line(std::string(command) + " --unit msec " + test_data("presentmon1.csv")),
            "loopscope: error: invalid --unit 'msec': expected ns, us, ms or s")
            << command;
    }
}

TEST(CliErrors, ASwapChainMatchesByValue) {
    // The capture writes 0x000001F3A5C20B00; the same address without leading zeros, in
    // lower case, names the same swap chain.
    const RunResult r = run_loopscope("report --format json --process 0x1f3a5c20b00 " +
                                      test_data("presentmon1.csv"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("0x000001F3A5C20B00"), std::string::npos);
    // The all-zero swap chain is a different stream.
    const RunResult zero =
        run_loopscope("report --format json --process 0x0 " + test_data("presentmon1.csv"));
    ASSERT_EQ(zero.exit_code, 0) << zero.err;
    EXPECT_NE(zero.out.find("0x0000000000000000"), std::string::npos);
    EXPECT_NE(one_error_line("report --process 0x1f3a5c20b01 " + test_data("presentmon1.csv"))
                  .find("no stream matches process '0x1f3a5c20b01'"),
              std::string::npos);
}

#ifdef LOOPSCOPE_HAVE_VIEWER
TEST(CliErrors, TheViewerWithoutADisplayFailsAtOnceSayingTheWayOut) {
    // No display and no driver chosen: SDL falls back to one that shows nothing. `timeout`
    // turns the old behaviour (an invisible window until killed) into a failure, not a hang.
    const RunResult r =
        run_loopscope_env("env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 60",
                          "view " + test_data("presentmon1.csv"));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("loopscope: error: view: no display"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--screenshot"), std::string::npos) << r.err;
    EXPECT_EQ(one_error_line("view --frames 10 " + test_data("presentmon1.csv")),
              "loopscope: error: view: --frames requires --screenshot (see loopscope view "
              "--help)");
}
#endif

const std::vector<std::string> kCommands = {
    "",       "probe",   "probe clocks", "probe timers", "probe compare", "run", "replay",
#ifdef LOOPSCOPE_HAVE_VIEWER
    "view",
#endif
    "report", "diagnose"};

TEST(CliHelp, EveryCommandsHelpFitsEightyColumnsWithoutLibraryArtefacts) {
    for (const std::string& command : kCommands) {
        const RunResult r = run_loopscope(command + " --help");
        ASSERT_EQ(r.exit_code, 0) << command;
        ASSERT_FALSE(r.out.empty()) << command;
        for (const std::string& line : lines_of(r.out)) {
            EXPECT_LE(line.size(), 80u) << command << ": " << line;
            for (const char* artefact :
                 {" TEXT", " INT", " FLOAT", " in [", "Needs:", "Excludes:", "REQUIRED", "(1x)",
                  "(2x)", " x 2", "SUBCOMMAND", "Positionals"}) {
                EXPECT_EQ(line.find(artefact), std::string::npos)
                    << command << ": '" << artefact << "' in: " << line;
            }
        }
    }
}

TEST(CliHelp, OptionDescriptionsStartWithACapitalOrAValueName) {
    // An option row is "  --name PLACEHOLDER" padded to the description column (28).
    for (const std::string& command : kCommands) {
        const RunResult r = run_loopscope(command + " --help");
        for (const std::string& line : lines_of(r.out)) {
            if (line.rfind("  -", 0) != 0 || line.size() <= 28 || line[27] != ' ' ||
                line[28] == ' ')
                continue;
            const char first = line[28];
            const bool capital = first >= 'A' && first <= 'Z';
            // A few start with the value's own word, as typed: "present (...) or display".
            EXPECT_TRUE(capital || first == 'p') << command << ": " << line;
        }
    }
}

TEST(CliHelp, UsageShowsReportTakesOneOrTwoFilesAndRunListsItsClocks) {
    EXPECT_NE(
        run_loopscope("report --help").out.find("Usage: loopscope report [OPTIONS] FILE [FILE...]"),
        std::string::npos);
    EXPECT_NE(run_loopscope("probe compare --help").out.find("probe compare [OPTIONS] FILE FILE"),
              std::string::npos);
    const std::string run = run_loopscope("run --help").out;
    EXPECT_NE(run.find("--clock CLOCK"), std::string::npos) << run;
    EXPECT_NE(run.find("virtual, steady_clock"), std::string::npos) << run;
    const std::string diagnose = run_loopscope("diagnose --help").out;
    for (const char* written : {"index.html", "diagnosis.md", "probe.json", "traces/"})
        EXPECT_NE(diagnose.find(written), std::string::npos) << written;
}

}  // namespace
}  // namespace loopscope::test

namespace loopscope::test {
namespace {

TEST(CliProgress, NothingOnALogUnlessAskedThenALineEachTenth) {
    // run_loopscope sends standard error to a file: not a terminal.
    const RunResult quiet = run_loopscope("probe clocks --duration 300ms --reads 1000");
    ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
    const RunResult asked =
        run_loopscope_env("LOOPSCOPE_PROGRESS=1", "probe clocks --duration 300ms --reads 1000");
    ASSERT_EQ(asked.exit_code, 0) << asked.err;
    EXPECT_NE(asked.err.find("probe clocks:   0%"), std::string::npos) << asked.err;
    EXPECT_NE(asked.err.find("probe clocks: 100%"), std::string::npos) << asked.err;
    // Lines, not a terminal's redraw sequence.
    EXPECT_EQ(asked.err.find('\r'), std::string::npos);
    EXPECT_EQ(asked.err.find("\033["), std::string::npos);
}

}  // namespace
}  // namespace loopscope::test
