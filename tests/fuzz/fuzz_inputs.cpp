// Fuzz entry points (see fuzz_inputs.hpp). The readers take a path, so each input is written to
// a file of its own in the temporary folder first, removed again afterwards.
#include "tests/fuzz/fuzz_inputs.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "common/platform.hpp"
#include "core/analysis.hpp"
#include "reports/read_formats.hpp"
#include "reports/readers.hpp"
#include "reports/writer.hpp"

namespace loopscope::fuzz {

namespace {

// One input file per process and thread of use (the fuzzer is single-threaded).
std::string input_path() {
    static const std::string path = (std::filesystem::temp_directory_path() /
                                     fmt::format("loopscope-fuzz-input.{}", current_process_id()))
                                        .string();
    return path;
}

void write_input(const std::string& path, Bytes bytes) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        throw std::runtime_error("cannot write the fuzz input file " + path);
    if (!bytes.empty())
        std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
}

void report_path(const std::string& path) {
    const Capture capture = read_capture(path);
    Report report;
    report.captures.push_back(analyse_capture(capture, {}));
    for (const char* format : writer_formats()) {
        OutputFile out("/dev/null");
        make_writer(format, {})->write(report, out);
        out.commit();
    }
}

}  // namespace

const std::vector<std::string_view>& target_names() {
    static const std::vector<std::string_view> names = {
        "trace", "plain", "mangohud", "capframex_json", "presentmon", "detect", "report"};
    return names;
}

void run_target(std::string_view target, Bytes bytes) {
    const std::string path = input_path();
    write_input(path, bytes);
    struct Remove {
        const std::string& path;
        ~Remove() { std::remove(path.c_str()); }
    } remove{path};
    try {
        if (target == "trace")
            detail::read_trace_streams(path);
        else if (target == "plain")
            detail::read_plain_streams(path, "ms");
        else if (target == "mangohud")
            detail::read_mangohud_streams(path);
        else if (target == "capframex_json")
            detail::read_capframex_json_streams(path);
        else if (target == "presentmon")
            detail::read_presentmon_streams(path);
        else if (target == "detect")
            read_capture(path);
        else if (target == "report")
            report_path(path);
        else
            throw std::invalid_argument(fmt::format("no fuzz target '{}'", target));
    } catch (const InputError&) {
        // Bad input, reported as promised.
    } catch (const UsageError&) {
    }
}

}  // namespace loopscope::fuzz
