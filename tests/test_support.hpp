// Helpers for end-to-end tests: run the built `loopscope` program and capture what it printed.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace loopscope::test {

struct RunResult {
    int exit_code = -1;
    std::string out;  // standard output
    std::string err;  // standard error
};

// A path in single quotes, for the shell text of run_loopscope (paths without a quote).
inline std::string quoted(const std::string& path) {
    return "'" + path + "'";
}

// Runs `loopscope ARGS` through the shell (ARGS is shell text, quote paths yourself: quoted).
RunResult run_loopscope(const std::string& args);
// The same behind a shell prefix such as "env -u DISPLAY timeout 60".
RunResult run_loopscope_env(const std::string& prefix, const std::string& args);

// What std::system's status says the command exited with; -1 when it did not exit (a signal).
// Per OS (test_support_linux.cpp): the status is encoded differently on each.
int system_exit_code(int status);

// Standard output (file descriptor 1, not only std::cout) sent to the file at `path` for the
// object's lifetime, for tests of code that writes "-" to stdout. Per OS (Linux only so far).
class StdoutToFile {
  public:
    explicit StdoutToFile(const std::string& path);
    ~StdoutToFile();
    StdoutToFile(const StdoutToFile&) = delete;
    StdoutToFile& operator=(const StdoutToFile&) = delete;
    bool ok() const { return saved_fd_ >= 0; }

  private:
    int saved_fd_ = -1;
};

// A fresh empty folder under the system's temporary folder, removed by the caller if wanted.
std::string make_temp_dir(const std::string& prefix);

std::string read_text(const std::string& path);
// The data rows of a loopscope trace: every line after the column header, skipping comments.
std::vector<std::string> trace_data_rows(const std::string& text);
// The same rows split at the commas.
std::vector<std::vector<std::string>> trace_cells(const std::string& text);
void write_text(const std::string& path, const std::string& text);

// The real captures (see tests/CMakeLists.txt): the environment variable
// LOOPSCOPE_CAPTURES_DIR when set, else the folder CMake was given. They are not in the
// repository; tests that need them start with LOOPSCOPE_REQUIRE_REAL_CAPTURES().
std::string captures_dir();
inline std::string capture(const std::string& name) {
    return captures_dir() + "/" + name;
}
// Whether captures_dir() exists; otherwise the reason, for the skip message.
bool have_real_captures();
std::string no_real_captures_reason();

// The synthetic captures in tests/data/, one per layout, always there.
inline std::string test_data_dir() {
    return LOOPSCOPE_TEST_DATA_DIR;
}
inline std::string test_data(const std::string& name) {
    return test_data_dir() + "/" + name;
}
// Every capture in tests/data/ (not the expectations, the README or the generator), by name.
std::vector<std::string> test_data_captures();

// tests/data/loopscope.trace with the `policy` and `dt_ns` metadata lines taken out (a trace
// that states no loop configuration), written as DIR/unconfigured.trace; returns its path.
std::string write_unconfigured_trace(const std::string& dir);

}  // namespace loopscope::test

// Skips the calling test, saying why, when the real captures are not there (a clone without
// them); ctest then reports the test as skipped instead of passed or failed.
#define LOOPSCOPE_REQUIRE_REAL_CAPTURES()                                 \
    do {                                                                  \
        if (!::loopscope::test::have_real_captures())                     \
            GTEST_SKIP() << ::loopscope::test::no_real_captures_reason(); \
    } while (0)

namespace loopscope::test {

// examples/game_loop.cpp running with `--serve 0 FRAMES /dev/null` (Linux): the port it serves
// on, read from its first line; the destructor waits for it to finish its frames.
class ServingGame {
  public:
    explicit ServingGame(int frames);
    ~ServingGame();
    ServingGame(const ServingGame&) = delete;
    ServingGame& operator=(const ServingGame&) = delete;
    int port() const { return port_; }

  private:
    std::FILE* pipe_ = nullptr;
    int port_ = 0;
};

}  // namespace loopscope::test
