// The recorder header with recording off (LOOPSCOPE_RECORDER not defined): the same calls
// compile, hold no state and write nothing; the options are trivially constructible; the clock
// still runs; FixedStep still runs the loop; and the header stays light (it preprocesses to a
// bounded number of lines, with no <string>, <chrono>, <thread> or <functional>).
#include "loopscope/recorder.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <type_traits>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

static_assert(!Recorder::kEnabled);
static_assert(std::is_empty_v<Recorder>, "a disabled recorder must hold nothing");
// The options construct at compile time (nothing runs, nothing is allocated) and copy and
// destroy trivially. (Not is_trivially_default_constructible: each member's `= {}` initialiser,
// there to keep -Wmissing-field-initializers quiet on designated initialisers, rules that out.)
constexpr RecorderOptions kConstantOptions{};
static_assert(std::is_nothrow_default_constructible_v<RecorderOptions>);
static_assert(std::is_trivially_copyable_v<RecorderOptions>);
static_assert(std::is_trivially_destructible_v<RecorderOptions>);
static_assert(std::is_trivially_destructible_v<Recorder>);
static_assert(std::is_empty_v<ScopedZone>, "a disabled zone must hold nothing");

TEST(RecorderDisabled, CompilesToNothingAndWritesNoFile) {
    const std::string dir = test::make_temp_dir("recorder-off");
    const std::string path = dir + "/never.csv";
    {
        // The options a game fills with recording on compile, and are ignored.
        Recorder rec({.path = path, .capacity = 16, .flush_every = 4, .policy = "fixed"});
        for (int i = 0; i < 100; ++i) {
            rec.begin_frame();
            rec.loop({.acc_before_ns = 2, .steps = 1, .acc_after_ns = 3, .alpha = 0.5});
            rec.end_steps();
            rec.end_render();
            rec.add_times({.render_ns = 5});
            ScopedZone zone(rec, "asset load");
            rec.mark("level 2 streamed in");
        }
        rec.flush();
        rec.wait_for_writer();
        EXPECT_TRUE(rec.writer_caught_up());
        EXPECT_FALSE(rec.has_writer_thread());
        EXPECT_EQ(rec.frames(), 0);
    }
    EXPECT_FALSE(std::filesystem::exists(path));
    std::filesystem::remove_all(dir);
}

TEST(RecorderDisabled, TheClockStillRuns) {
    // The monotonic clock, not a 0: a game may time its loop with it whether recording is on.
    const Recorder rec(RecorderOptions{});
    const std::int64_t a = now_ns();
    const std::int64_t b = rec.now_ns();
    EXPECT_GT(a, 0);
    EXPECT_GE(b, a);
    std::int64_t c = now_ns();
    for (int i = 0; i < 1'000'000 && c == b; ++i)
        c = now_ns();
    EXPECT_GT(c, b);
}

TEST(RecorderDisabled, FixedStepRunsTheLoopWithoutARecorder) {
    Recorder rec(RecorderOptions{});
    FixedStep loop({.dt_ns = 10, .clamp_ns = 100, .max_steps = 3}, rec);
    EXPECT_EQ(loop.advance(1000).steps, 0);  // the first frame has no frame time
    LoopFrame f = loop.advance(1025);        // 25 ns: two steps, 5 left
    EXPECT_EQ(f.steps, 2);
    EXPECT_EQ(f.acc_after_ns, 5);
    EXPECT_DOUBLE_EQ(f.alpha, 0.5);
    f = loop.advance(1525);  // 500 ns clamped to 100, +5: capped at 3 steps, 70 dropped
    EXPECT_EQ(f.clamped_ns, 100);
    EXPECT_EQ(f.steps, 3);
    EXPECT_EQ(f.cap_dropped_ns, 70);
    EXPECT_EQ(f.acc_after_ns, 5);
}

// Runs `command` and returns its standard output ("" when it failed).
std::string output_of(const std::string& command) {
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe)
        return out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;)
        out.append(buf, n);
    return pclose(pipe) == 0 ? out : std::string();
}

TEST(RecorderDisabled, TheHeaderPreprocessesToAFewLinesInCpp17AndCpp20) {
    // The bound is what <cstdint> and <time.h> take here (about 1100 lines with GCC 12) with
    // room to spare; <string> alone is over 20000.
    constexpr std::size_t kMaxLines = 3000;
    const std::string dir = test::make_temp_dir("recorder-off-lines");
    const std::string source = dir + "/off.cpp";
    test::write_text(source, "#include \"loopscope/recorder.hpp\"\n");
    for (const char* standard : {"c++17", "c++20"}) {
        const std::string text =
            output_of(std::string(LOOPSCOPE_CXX) + " -std=" + standard + " -E -P -I'" +
                      LOOPSCOPE_SOURCE_DIR "/include' '" + source + "'");
        ASSERT_FALSE(text.empty()) << standard;
        std::size_t lines = 0;
        for (const char c : text)
            lines += c == '\n';
        EXPECT_LE(lines, kMaxLines) << standard;
        EXPECT_EQ(text.find("basic_string"), std::string::npos) << standard;
        EXPECT_EQ(text.find("namespace chrono"), std::string::npos) << standard;
        EXPECT_NE(text.find("class Recorder"), std::string::npos) << standard;
    }
    // A C++17 game fills the options and the per-frame struct member by member.
    const std::string game = dir + "/game17.cpp";
    test::write_text(game,
                     "#include \"loopscope/recorder.hpp\"\n"
                     "int main() {\n"
                     "    loopscope::RecorderOptions o;\n"
                     "    o.path = \"t.csv\";\n"
                     "    o.dt_ns = 16666667;\n"
                     "    loopscope::Recorder rec(o);\n"
                     "    loopscope::FixedStep loop(loopscope::FixedStepConfig{}, rec);\n"
                     "    loopscope::LoopFrame f = loop.advance();\n"
                     "    f.steps = 1;\n"
                     "    rec.loop(f);\n"
                     "    return rec.ok() ? 0 : 1;\n"
                     "}\n");
    EXPECT_NE(output_of(std::string(LOOPSCOPE_CXX) +
                        " -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I'" +
                        LOOPSCOPE_SOURCE_DIR "/include' '" + game + "' && echo compiled"),
              "")
        << "the C++17 game did not compile with recording off";
    std::filesystem::remove_all(dir);
}

// With recording on, a game's file gets the Recorder's declaration and its options, not its
// code: at most 30,000 preprocessed lines in C++17 with GCC 12 (<string> is about 22,000 of
// them; <chrono>, <thread>, <atomic> or <functional> would pass the bound), and no OS header of
// sockets, threads' internals or Windows, whichever OS the game is built for.
TEST(RecorderHeader, WithRecordingOnAGameFileStaysSmallAndIncludesNoOsHeader) {
    constexpr std::size_t kMaxLines = 30'000;
    const std::string dir = test::make_temp_dir("recorder-on-lines");
    const std::string source = dir + "/on.cpp";
    test::write_text(source, "#define LOOPSCOPE_RECORDER 1\n#include \"loopscope/recorder.hpp\"\n");
    for (const char* standard : {"c++17", "c++20"}) {
        const std::string text =
            output_of(std::string(LOOPSCOPE_CXX) + " -std=" + standard + " -E -I'" +
                      LOOPSCOPE_SOURCE_DIR "/include' '" + source + "'");
        ASSERT_FALSE(text.empty()) << standard;
        std::size_t lines = 0;
        for (const char c : text)
            lines += c == '\n';
        if (std::string(standard) == "c++17") {
            EXPECT_LE(lines, kMaxLines) << standard;
        }
        EXPECT_NE(text.find("class Recorder"), std::string::npos) << standard;
        EXPECT_EQ(text.find("namespace chrono"), std::string::npos) << standard;
        // The line markers name every file included.
        for (const char* header : {"/sys/socket.h\"", "/netinet/", "/arpa/inet.h\"", "/poll.h\"",
                                   "/unistd.h\"", "/fcntl.h\"", "winsock2.h", "ws2tcpip.h",
                                   "windows.h", "/thread\"", "/atomic\"", "/functional\""}) {
            EXPECT_EQ(text.find(header), std::string::npos) << standard << ": " << header;
        }
    }
    std::filesystem::remove_all(dir);
}

// One game source, compiled with recording on and with it off: every function of Recorder, every
// option by designated initialiser in the order of the members, and the texts path() and
// serve_error() return used as a game would. Before, the two headers drifted apart: with
// recording off path() and serve_error() were missing and writer_poll_us came last.
TEST(RecorderDisabled, TheSameGameCompilesWithRecordingOnAndOff) {
    const std::string dir = test::make_temp_dir("recorder-on-off");
    const std::string game = dir + "/game.cpp";
    test::write_text(
        game,
        "#include \"loopscope/recorder.hpp\"\n"
        "#include <cstdio>\n"
        "#include <iostream>\n"
        "#include <string>\n"
        "int main() {\n"
        "    loopscope::Recorder rec({.path = \"t.csv\",\n"
        "                             .on_rows = [](void*, const loopscope::FrameRecord*, "
        "std::size_t) {},\n"
        "                             .on_rows_user = nullptr,\n"
        "                             .capacity = 64,\n"
        "                             .flush_every = 8,\n"
        "                             .background_writer = true,\n"
        "                             .writer_poll_us = 500,\n"
        "                             .close_timeout_ms = 2000,\n"
        "                             .clock_ns = nullptr,\n"
        "                             .clock_name = \"game\",\n"
        "                             .policy = \"fixed\",\n"
        "                             .dt_ns = 1000,\n"
        "                             .clamp_ns = 0,\n"
        "                             .max_steps = 4,\n"
        "                             .timescale = 1.0,\n"
        "                             .machine = \"m\",\n"
        "                             .write_start_time = false,\n"
        "                             .metadata = {},\n"
        "                             .serve_port = -1,\n"
        "                             .serve_address = \"127.0.0.1\",\n"
        "                             .serve_stall_ms = 2000});\n"
        "    rec.describe_loop(loopscope::FixedStepConfig{}, \"fixed\");\n"
        "    const std::int64_t t = rec.now_ns();\n"
        "    rec.begin_frame(t);\n"
        "    rec.begin_frame();\n"
        "    rec.loop({.acc_before_ns = 2, .steps = 1, .acc_after_ns = 3, .alpha = 0.5});\n"
        "    rec.end_steps(t);\n"
        "    rec.end_steps();\n"
        "    rec.end_render(t);\n"
        "    rec.end_render();\n"
        "    rec.add_times({.render_ns = 5});\n"
        "    {\n"
        "        loopscope::ScopedZone zone(rec, \"asset load\");\n"
        "        rec.mark(\"level 2 streamed in\");\n"
        "        rec.mark(\"at t\", t);\n"
        "    }\n"
        "    rec.flush();\n"
        "    rec.wait_for_writer();\n"
        "    const std::string error = rec.serve_error();\n"
        "    const std::string& path = rec.path();\n"
        "    std::string where(rec.path());\n"
        "    if (!rec.serve_error().empty() || rec.path().size() > 9)\n"
        "        std::fprintf(stderr, \"%s %s\\n\", rec.path().c_str(), "
        "rec.serve_error().data());\n"
        "    std::cerr << rec.path() << rec.serve_error() << error << path << where << '\\n';\n"
        "    const loopscope::LiveStats live = rec.live_stats();\n"
        "    const std::int64_t n = rec.frames() + rec.recorded_frames() + rec.dropped_frames() +\n"
        "                           rec.clock_backward_steps() + rec.largest_clock_backward_ns() "
        "+\n"
        "                           rec.start_ns() + rec.serving_port() + live.rows_sent;\n"
        "    const bool fine = rec.ok() && rec.writer_caught_up() && !rec.has_writer_thread();\n"
        "    rec.close(t);\n"
        "    rec.close();\n"
        "    return fine && n >= 0 ? 0 : 1;\n"
        "}\n");
    for (const char* recording : {"-DLOOPSCOPE_RECORDER=1", "-DLOOPSCOPE_RECORDER=0"}) {
        EXPECT_NE(output_of(std::string(LOOPSCOPE_CXX) + " -std=c++20 " + recording +
                            " -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I'" +
                            LOOPSCOPE_SOURCE_DIR "/include' '" + game + "' && echo compiled"),
                  "")
            << "the game did not compile with " << recording;
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
