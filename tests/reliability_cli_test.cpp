// Reproductions of ways a command could lose a user's data, hang or report success wrongly,
// each kept as a test named after what it shows: an output that would replace its own input,
// output that cannot be written, a sweep value refused only after the trace was written, an
// empty output folder, an HTML time axis of no length, and the live ball under a tiny dt.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/test_support.hpp"

#ifdef LOOPSCOPE_HAVE_VIEWER
#include "tool/viewer/ball_physics.hpp"
#endif

namespace loopscope::test {
namespace {

namespace fs = std::filesystem;

TEST(Reliability, AReportNeverReplacesItsOwnInputEvenThroughALink) {
    const std::string dir = make_temp_dir("loopscope-rel");
    const std::string cap = dir + "/cap.csv";
    fs::copy_file(test_data("presentmon1.csv"), cap);
    const std::string before = read_text(cap);
    fs::create_symlink(cap, dir + "/link.csv");
    for (const std::string& out : {cap, dir + "/link.csv", dir + "/./cap.csv"}) {
        const RunResult r = run_loopscope("report '" + cap + "' -o '" + out + "'");
        EXPECT_EQ(r.exit_code, 2) << out;
        EXPECT_NE(r.err.find("is the input"), std::string::npos) << r.err;
        EXPECT_EQ(read_text(cap), before) << out;
    }
    const RunResult replay = run_loopscope("replay '" + cap + "' -o '" + cap + "'");
    EXPECT_EQ(replay.exit_code, 2);
    EXPECT_EQ(read_text(cap), before);
#ifdef LOOPSCOPE_HAVE_VIEWER
    const RunResult view = run_loopscope("view '" + cap + "' --screenshot '" + cap + "'");
    EXPECT_EQ(view.exit_code, 2) << view.err;
    EXPECT_NE(view.err.find("--screenshot"), std::string::npos) << view.err;
    EXPECT_EQ(read_text(cap), before);
#endif
    fs::remove_all(dir);
}

TEST(Reliability, OutputThatCannotBeWrittenToStandardOutputIsAnError) {
    if (!fs::exists("/dev/full"))
        GTEST_SKIP() << "/dev/full is not there";
    const std::string dir = make_temp_dir("loopscope-rel");
    for (const char* format : {"terminal", "json"}) {
        const std::string cmd = std::string("'") + LOOPSCOPE_EXE + "' report --format " + format +
                                " '" + test_data("presentmon1.csv") + "' >/dev/full 2>'" + dir +
                                "/err'";
        EXPECT_EQ(system_exit_code(std::system(cmd.c_str())), 2) << format;
        EXPECT_NE(read_text(dir + "/err").find("loopscope: error: cannot write to standard output"),
                  std::string::npos)
            << format << ": " << read_text(dir + "/err");
    }
    fs::remove_all(dir);
}

TEST(Reliability, CtrlCOrSigtermLeavesNoTemporaryFileBehind) {
    // A long virtual run writing its trace; the signal arrives once the temporary file has
    // data. Afterwards neither the trace nor its temporary may be there.
    for (const char* signal : {"INT", "TERM"}) {
        const std::string dir = make_temp_dir("loopscope-rel");
        // A script file, so that $pid is the shell's own and no quoting layer expands it early.
        const std::string script = dir + "/../" + fs::path(dir).filename().string() + ".sh";
        write_text(script, quoted(LOOPSCOPE_EXE) + " run --clock virtual --frames 200000000 -o '" +
                               dir +
                               "/out.csv' >/dev/null 2>&1 &\n"
                               "pid=$!\ni=0\n"
                               "while [ ! -s '" +
                               dir +
                               "/out.csv.tmp.'$pid ] && [ $i -lt 1000 ]; do\n"
                               "  sleep 0.01; i=$((i+1))\ndone\n"
                               "kill -" +
                               signal + " $pid\nwait $pid\necho $? >'" + dir + "/status'\n");
        ASSERT_EQ(std::system(("sh '" + script + "'").c_str()), 0) << signal;
        fs::remove(script);
        std::vector<std::string> left;
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (entry.path().filename() != "status")
                left.push_back(entry.path().filename().string());
        }
        EXPECT_TRUE(left.empty()) << signal << ": " << (left.empty() ? "" : left.front());
        // Ended by the signal (the shell reports 128 + its number), not by finishing.
        EXPECT_GT(std::stoi(read_text(dir + "/status")), 128) << signal;
        fs::remove_all(dir);
    }
}

// A capture on standard input ("-") or through a pipe is read once (copied aside), so format
// detection sees its first line and an error names the input and the line as given.
TEST(Reliability, StandardInputAndPipesAreReadOnce) {
    const std::string dir = make_temp_dir("loopscope-rel");
    const std::string capture = test_data("presentmon1.csv");
    const std::string exe = std::string("'") + LOOPSCOPE_EXE + "'";
    const auto shell = [&](const std::string& command) {
        return system_exit_code(std::system(("sh -c \"" + command + "\"").c_str()));
    };
    const RunResult direct = run_loopscope("report --format json '" + capture + "'");
    ASSERT_EQ(direct.exit_code, 0) << direct.err;
    nlohmann::json expected = nlohmann::json::parse(direct.out);
    for (const std::string input : {"-", "/dev/stdin"}) {
        ASSERT_EQ(shell("cat '" + capture + "' | " + exe + " report --format json " + input +
                        " >'" + dir + "/out' 2>'" + dir + "/err'"),
                  0)
            << read_text(dir + "/err");
        nlohmann::json got = nlohmann::json::parse(read_text(dir + "/out"));
        EXPECT_EQ(got["source"]["file"], input);
        got["source"]["file"] = expected["source"]["file"];
        EXPECT_EQ(got, expected) << input;
    }
    // `report --list` from a pipe: the file's listing, format included, under the name given.
    const RunResult listed = run_loopscope("report --list '" + capture + "'");
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    ASSERT_EQ(listed.out.rfind(capture + " (presentmon-1): ", 0), 0u) << listed.out;
    ASSERT_EQ(shell("cat '" + capture + "' | " + exe + " report --list - >'" + dir + "/out' 2>'" +
                    dir + "/err'"),
              0)
        << read_text(dir + "/err");
    EXPECT_EQ(read_text(dir + "/out"), std::string("-").append(listed.out, capture.size()));
    // A bad line 3 through a pipe: blamed on line 3 of "-", nothing left in the temporary folder.
    EXPECT_EQ(shell("printf '16.6\\n16.7\\nabc\\n' | " + exe + " report --strict - >/dev/null 2>'" +
                    dir + "/err'"),
              2);
    EXPECT_EQ(read_text(dir + "/err").rfind("loopscope: error: -:3:1: ", 0), 0u)
        << read_text(dir + "/err");
    EXPECT_EQ(read_text(dir + "/err").find("loopscope-input."), std::string::npos);
    fs::remove_all(dir);
}

// A trace that cannot be created is refused before the loop runs, with the OS's reason and exit
// code 2, on the real clock as on the virtual one.
TEST(Reliability, ATraceInAMissingFolderIsRefusedOnEveryClock) {
    for (const char* clock : {"virtual", "steady_clock"}) {
        const RunResult r = run_loopscope(std::string("run --clock ") + clock +
                                          " --frames 5 -o /nonexistent-folder/t.csv");
        EXPECT_EQ(r.exit_code, 2) << clock;
        EXPECT_EQ(r.err,
                  "loopscope: error: cannot write '/nonexistent-folder/t.csv': No such file or "
                  "directory\n")
            << clock;
        EXPECT_EQ(r.out, "") << clock;
    }
}

TEST(Reliability, ABadSweepValueIsRefusedBeforeTheTraceIsWritten) {
    const std::string dir = make_temp_dir("loopscope-rel");
    const RunResult r = run_loopscope("replay --sweep --sweep-dt abc '" + test_data("plain.txt") +
                                      "' -o '" + dir + "/out.csv'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--sweep-dt"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir + "/out.csv"));
    fs::remove_all(dir);
}

TEST(Reliability, DiagnoseRefusesAnEmptyOutputFolder) {
    const RunResult r = run_loopscope("diagnose --quick -o ''");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("-o: expected a folder"), std::string::npos) << r.err;
}

TEST(Reliability, HtmlOfACaptureWhoseStartsDoNotAdvanceEnds) {
    // `timeout` turns a hang into a failure.
    const std::string header =
        "Application,ProcessID,SwapChainAddress,TimeInSeconds,MsBetweenPresents\n";
    const struct {
        std::string name, rows;
    } cases[] = {
        // One 0 ms frame at 100000 s: the time axis spans nothing, far from 0, where adding a
        // tick step to the tick value no longer changes it.
        {"one", "game.exe,1,0x1,100000,0\n"},
        // Starts that go back, from 8008000000 s: the axis spans 1 us at 8·10^9 s, where the
        // ticks' index (8·10^16) is past 2^53 and adding one to it no longer changes it.
        {"far", "game.exe,1,0x1,8008000000,16.6\ngame.exe,1,0x1,8000000002,16.6\n"},
    };
    const std::string dir = make_temp_dir("loopscope-rel");
    for (const auto& c : cases) {
        const std::string csv = dir + "/" + c.name + ".csv";
        const std::string html = dir + "/" + c.name + ".html";
        write_text(csv, header + c.rows);
        const RunResult r =
            run_loopscope_env("timeout 60", "report --format html -o '" + html + "' '" + csv + "'");
        EXPECT_EQ(r.exit_code, 0) << c.name << ": " << r.err;
        EXPECT_LT(fs::file_size(html), 1'000'000u) << c.name;
    }
    fs::remove_all(dir);
}

TEST(Reliability, JsonNestedMillionsOfLevelsDeepIsRefusedAtADepthLimit) {
    const std::string dir = make_temp_dir("loopscope-rel");
    // Under CapFrameX's Runs key, so that it is read as a session (a top-level array is not one).
    write_text(dir + "/deep.json",
               "{\"Runs\": " + std::string(2'000'000, '[') + std::string(2'000'000, ']') + "}");
    const RunResult r = run_loopscope("report '" + dir + "/deep.json'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("nested deeper than 64 levels"), std::string::npos) << r.err;
    fs::remove_all(dir);
}

TEST(Reliability, AMinifiedCapFrameXJsonOverSixteenMebibytesIsRead) {
    // One line of 17 MiB: the JSON is known by its first character, not by reading a line.
    const std::string dir = make_temp_dir("loopscope-rel");
    std::string text = read_text(test_data("capframex.json"));
    std::string one_line;
    for (const char c : text) {
        if (c != '\n')
            one_line += c;
    }
    const std::string comment = "\"Comment\": \"synthetic\"";
    const auto at = one_line.find(comment);
    ASSERT_NE(at, std::string::npos);
    one_line.replace(at, comment.size(), "\"Comment\": \"" + std::string(17u << 20, 'x') + "\"");
    write_text(dir + "/big.json", one_line);
    const RunResult r = run_loopscope("report --format json '" + dir + "/big.json'");
    EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 300);
    EXPECT_NE(r.out.find("\"format\": \"capframex-json\""), std::string::npos);
    fs::remove_all(dir);
}

TEST(Reliability, TextThatIsNotUtf8IsReplacedInJsonAndTheNotesSaySo) {
    const std::string dir = make_temp_dir("loopscope-rel");
    std::string text = "Application,ProcessID,SwapChainAddress,TimeInSeconds,MsBetweenPresents\n";
    for (int i = 0; i < 120; ++i)
        text += "g\xff\xfeme.exe,1,0x1," + std::to_string(i / 60.0) + ",16.667\n";
    write_text(dir + "/latin.csv", text);
    const RunResult r = run_loopscope("report --format json '" + dir + "/latin.csv'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("g\xef\xbf\xbd\xef\xbf\xbdme.exe"), std::string::npos);
    EXPECT_NE(r.out.find("not valid UTF-8"), std::string::npos);
    fs::remove_all(dir);
}

TEST(Reliability, ControlBytesInANameNeverReachTheTerminal) {
    // Past the first 4 KiB (where binary data is refused), a process name with ESC and NUL.
    const std::string dir = make_temp_dir("loopscope-rel");
    std::string text = "Application,ProcessID,SwapChainAddress,TimeInSeconds,MsBetweenPresents\n";
    for (int i = 0; i < 300; ++i)
        text += "game.exe,1,0x1," + std::to_string(i / 60.0) + ",16.667\n";
    for (int i = 0; i < 400; ++i)
        text +=
            std::string("ga\x1b[31mme\0x.exe,2,0x2,", 22) + std::to_string(i / 60.0) + ",16.667\n";
    write_text(dir + "/esc.csv", text);
    for (const char* args : {"", "--list", "--format md"}) {
        const RunResult r = run_loopscope(std::string("report ") + args + " '" + dir + "/esc.csv'");
        EXPECT_EQ(r.exit_code, 0) << args << r.err;
        EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << args;
        EXPECT_EQ(r.out.find('\0'), std::string::npos) << args;
        // The --list table escapes the backslash itself (Markdown renders it as one).
        const std::string shown = std::string(args) != "--list" ? "ga\\x1b[31mme\\x00x.exe"
                                                                : "ga\\\\x1b[31mme\\\\x00x.exe";
        EXPECT_NE(r.out.find(shown), std::string::npos) << args << r.out;
    }
    fs::remove_all(dir);
}

#ifdef LOOPSCOPE_HAVE_VIEWER
TEST(Reliability, TheLiveBallTakesBoundedStepsUnderATinyDt) {
    // --dt 1ns with the clamp off asks for 10^12 steps for a 1 s frame; the ball covers that
    // time in kMaxBallSteps steps instead of freezing the viewer.
    LoopConfig config;
    config.policy = Policy::fixed;
    config.dt_ns = 1;
    FrameRecord record;
    record.steps = 1'000'000'000'000;
    record.consumed_ns = record.steps;
    BallStates states;
    states.current.vx = 0.1234567;
    simulate_frame(config, record, states);
    EXPECT_GE(states.current.x, 0.0);
    EXPECT_LE(states.current.x, 1.0);
    EXPECT_NE(states.current.x, 0.5);  // it moved
}
#endif

// Messages that name the problem: the figure meant, a number too large, both guards of a frame.
TEST(Reliability, MessagesSayWhatWasMeantAndWhy) {
    const std::string plain = quoted(test_data("plain.txt"));
    RunResult r = run_loopscope("report " + plain + " --fail-if 'p99>20'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown figure 'p99' (did you mean 'p99_ms'?)"), std::string::npos)
        << r.err;
    EXPECT_LT(r.err.size(), 200u) << r.err;  // not every figure's name
    r = run_loopscope("report " + plain + " --fail-if-regressed avg_fsp --history /nonexistent.db");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("did you mean 'avg_fps'?"), std::string::npos) << r.err;
    r = run_loopscope("report " + plain + " --fail-if 'zzzz>1'");
    EXPECT_NE(r.err.find("valid figures: "), std::string::npos) << r.err;  // nothing near
    r = run_loopscope("run --frames 99999999999999999999");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("'99999999999999999999': too large"), std::string::npos) << r.err;
    r = run_loopscope("report " + plain + " -o /dev/full");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot write '/dev/full': No space left on device"), std::string::npos)
        << r.err;
    const std::string dir = make_temp_dir("loopscope-rel");
    // A 350 ms frame: the clamp drops 100 ms, the step cap (6 steps) 150 ms more.
    write_text(dir + "/spike.txt", "16.6\n16.6\n350\n16.6\n16.6\n");
    r = run_loopscope("replay '" + dir + "/spike.txt' --max-steps 6");
    EXPECT_NE(r.out.find("clamp dropped 100.000 ms, cap dropped 150.000 ms"), std::string::npos)
        << r.out;
    fs::remove_all(dir);
}

}  // namespace
}  // namespace loopscope::test
