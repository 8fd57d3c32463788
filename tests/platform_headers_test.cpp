// Platform code stays in per-OS files: no source outside *_linux.cpp / *_windows.cpp includes an
// OS header or calls an OS clock directly, so that a port adds files instead of editing portable
// ones. The one exception is the public recorder header, whose inline clock (now_ns) serves
// every OS itself. The test reads the source tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

bool has_suffix(const fs::path& p, std::initializer_list<const char*> suffixes) {
    const std::string stem = p.stem().string();
    for (const char* suffix : suffixes) {
        const std::string s = suffix;
        if (stem.size() > s.size() && stem.compare(stem.size() - s.size(), s.size(), s) == 0)
            return true;
    }
    return false;
}

bool is_per_os_file(const fs::path& p) {
    return has_suffix(p, {"_linux", "_windows"});
}
// CPU intrinsics are the same on every OS: they live in per-architecture files (*_x86).
bool is_per_cpu_file(const fs::path& p) {
    return has_suffix(p, {"_x86"});
}

// Intrinsics headers: every compiler's <*intrin.h> (<emmintrin.h> for SSE2, <immintrin.h>,
// <x86intrin.h>, MSVC's <intrin.h> ...), <arm_neon.h> and <cpuid.h>. They may be included in
// per-OS files (the TSC probes read it through the OS's compiler) or in per-architecture ones.
const std::regex& cpu_header() {
    static const std::regex re(
        R"(^\s*#\s*include\s*<(cpuid\.h|[A-Za-z0-9_]*intrin\.h|arm_neon\.h|arm_acle\.h)>)");
    return re;
}

// Every violation as "path:line: text", paths relative to the source tree.
std::vector<std::string> violations() {
    // OS and compiler-intrinsic headers; <ctime> and <chrono> are standard C++ and allowed.
    const std::regex os_header(
        R"(^\s*#\s*include\s*<(unistd\.h|sys/[^>]*|windows\.h|winternl\.h|mmsystem\.h|)"
        R"(timeapi\.h|avrt\.h|intrin\.h|pthread\.h|)"
        R"(sched\.h|dlfcn\.h|time\.h|fcntl\.h|signal\.h|mach/[^>]*)>)");
    // A direct POSIX clock call (comments and messages that name clock_gettime are fine).
    const std::regex os_call(R"(\bclock_gettime\s*\(\s*CLOCK_\w+\s*,)");
    const fs::path root = LOOPSCOPE_SOURCE_DIR;
    std::vector<std::string> found;
    for (const char* dir : {"common", "core", "probes", "readers", "writers", "stores", "recorder",
                            "tool", "include", "examples", "tests"}) {
        if (!fs::exists(root / dir))
            continue;
        for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
            const fs::path& p = entry.path();
            const std::string ext = p.extension().string();
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h"))
                continue;
            const fs::path rel = fs::relative(p, root);
            if (is_per_os_file(p) || rel == fs::path("include/loopscope/recorder.hpp"))
                continue;
            std::ifstream in(p);
            std::string line;
            for (int n = 1; std::getline(in, line); ++n) {
                if (std::regex_search(line, os_header) || std::regex_search(line, os_call) ||
                    (!is_per_cpu_file(p) && std::regex_search(line, cpu_header())))
                    found.push_back(rel.generic_string() + ":" + std::to_string(n) + ": " + line);
            }
        }
    }
    return found;
}

TEST(PlatformHeaders, OnlyPerOsFilesIncludeOsHeaders) {
    const std::vector<std::string> found = violations();
    std::string list;
    for (const std::string& v : found)
        list += "  " + v + "\n";
    EXPECT_TRUE(found.empty())
        << "OS code outside a per-OS file (move it into a *_linux.cpp / *_windows.cpp file "
           "behind a portable function; CPU intrinsics may also go in a *_x86 file):\n"
        << list;
}

// The check itself: it must see the OS headers that the per-OS files do include, or it
// would pass on a tree it cannot read.
TEST(PlatformHeaders, TheCheckSeesThePerOsFiles) {
    const fs::path file = fs::path(LOOPSCOPE_SOURCE_DIR) / "common" / "platform_linux.cpp";
    std::ifstream in(file);
    ASSERT_TRUE(in) << file;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("#include <unistd.h>"), std::string::npos);
    // Per-architecture files are told apart by name only, and only from intrinsics.
    EXPECT_TRUE(is_per_cpu_file("readers/csv_scanner_x86.hpp"));
    EXPECT_FALSE(is_per_cpu_file("core/loop_engine.cpp"));
    EXPECT_FALSE(is_per_os_file("readers/csv_scanner_x86.hpp"));
}

// Every intrinsics header counts, whatever its instruction set, and the scanner's SSE2 code is
// in its *_x86 header.
TEST(PlatformHeaders, EveryIntrinsicsHeaderIsSeen) {
    for (const char* header : {"emmintrin.h", "xmmintrin.h", "pmmintrin.h", "tmmintrin.h",
                               "smmintrin.h", "nmmintrin.h", "immintrin.h", "x86intrin.h",
                               "intrin.h", "arm_neon.h", "cpuid.h"}) {
        EXPECT_TRUE(std::regex_search("#include <" + std::string(header) + ">", cpu_header()))
            << header;
    }
    EXPECT_FALSE(std::regex_search(std::string("#include <cstdint>"), cpu_header()));
    const fs::path x86 = fs::path(LOOPSCOPE_SOURCE_DIR) / "readers" / "csv_scanner_x86.hpp";
    std::ifstream in(x86);
    ASSERT_TRUE(in) << x86;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("#include <emmintrin.h>"), std::string::npos);
}

}  // namespace
