// Helpers for the tests (see test_support.hpp): running the built program, temporary folders,
// reading traces, and where the real and the synthetic captures are.
#include "tests/test_support.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace loopscope::test {

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

std::vector<std::string> trace_data_rows(const std::string& text) {
    std::vector<std::string> rows;
    std::istringstream in(text);
    bool header_seen = false;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        if (!header_seen) {
            header_seen = true;
            continue;
        }
        rows.push_back(line);
    }
    return rows;
}

std::vector<std::vector<std::string>> trace_cells(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    for (const std::string& line : trace_data_rows(text)) {
        std::vector<std::string> cells;
        std::istringstream cols(line);
        for (std::string cell; std::getline(cols, cell, ',');)
            cells.push_back(cell);
        rows.push_back(std::move(cells));
    }
    return rows;
}

std::string captures_dir() {
    const char* from_env = std::getenv("LOOPSCOPE_CAPTURES_DIR");
    return from_env && *from_env ? std::string(from_env) : std::string(LOOPSCOPE_CAPTURES_DIR);
}

bool have_real_captures() {
    std::error_code ec;
    return std::filesystem::is_directory(captures_dir(), ec);
}

std::string no_real_captures_reason() {
    return "needs the real captures, not found in " + captures_dir() +
           " (configure with -DLOOPSCOPE_CAPTURES_DIR=PATH or set the environment variable "
           "LOOPSCOPE_CAPTURES_DIR)";
}

std::vector<std::string> test_data_captures() {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(test_data_dir())) {
        const std::string name = entry.path().filename().string();
        const std::string ext = entry.path().extension().string();
        if (name != "expected_streams.json" &&
            (ext == ".csv" || ext == ".json" || ext == ".txt" || ext == ".trace")) {
            names.push_back(name);
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

RunResult run_loopscope(const std::string& args) {
    return run_loopscope_env("", args);
}

RunResult run_loopscope_env(const std::string& prefix, const std::string& args) {
    const std::string dir = make_temp_dir("loopscope-run");
    const std::string out_path = dir + "/out";
    const std::string err_path = dir + "/err";
    const std::string cmd = prefix + " '" + LOOPSCOPE_EXE + "' " + args + " >'" + out_path +
                            "' 2>'" + err_path + "' </dev/null";
    const int status = std::system(cmd.c_str());
    RunResult r;
    r.exit_code = system_exit_code(status);
    r.out = read_text(out_path);
    r.err = read_text(err_path);
    std::filesystem::remove_all(dir);
    return r;
}

std::string write_unconfigured_trace(const std::string& dir) {
    std::string text = read_text(test_data("loopscope.trace"));
    for (const char* key : {"# policy: ", "# dt_ns: "}) {
        const std::size_t at = text.find(key);
        if (at == std::string::npos)
            throw std::runtime_error(std::string("tests/data/loopscope.trace has no ") + key);
        text.erase(at, text.find('\n', at) + 1 - at);
    }
    const std::string path = dir + "/unconfigured.trace";
    write_text(path, text);
    return path;
}

}  // namespace loopscope::test
