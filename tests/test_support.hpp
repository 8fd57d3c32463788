// Helpers for end-to-end tests: run the built `loopscope` program and capture what it printed.
#pragma once

#include <string>
#include <vector>

namespace loopscope::test {

struct RunResult {
    int exit_code = -1;
    std::string out;  // standard output
    std::string err;  // standard error
};

// Runs `loopscope ARGS` through the shell (ARGS is shell text, quote paths yourself).
RunResult run_loopscope(const std::string& args);

// A fresh empty folder under the system's temporary folder, removed by the caller if wanted.
std::string make_temp_dir(const std::string& prefix);

std::string read_text(const std::string& path);
// The data rows of a loopscope trace: every line after the column header, skipping comments.
std::vector<std::string> trace_data_rows(const std::string& text);
// The same rows split at the commas.
std::vector<std::vector<std::string>> trace_cells(const std::string& text);
void write_text(const std::string& path, const std::string& text);

inline std::string captures_dir() {
    return LOOPSCOPE_CAPTURES_DIR;
}
inline std::string capture(const std::string& name) {
    return captures_dir() + "/" + name;
}

}  // namespace loopscope::test
