// core/ decides from what a capture says of itself (Capture::description) and takes typed values
// from the command line: it names no capture format and no command-line flag. These tests read
// core/'s sources as they are when the tests run (LOOPSCOPE_SOURCE_DIR), so new code is checked
// too. Comments are left out: a comment may say where a definition comes from. The names of the
// tools whose published rules a figure reproduces ("CapFrameX", "FrameView"'s "1% Low FPS") are
// not format names: they say whose definition a figure follows, whatever capture it is of.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The source with its comments removed, string and character literals kept as written.
std::string without_comments(const std::string& s) {
    std::string out;
    std::size_t i = 0;
    const std::size_t n = s.size();
    const auto literal_end = [&](std::size_t from, char quote) {
        std::size_t j = from + 1;
        while (j < n && s[j] != quote && s[j] != '\n')
            j += s[j] == '\\' ? 2 : 1;
        return std::min(j + 1, n);
    };
    // 1'000'000: a quote inside a number is a digit separator, not a character literal.
    const auto digit_separator = [&](std::size_t at) {
        std::size_t run = at;
        while (run > 0 &&
               (std::isalnum(static_cast<unsigned char>(s[run - 1])) || s[run - 1] == '\''))
            --run;
        return run < at && std::isdigit(static_cast<unsigned char>(s[run]));
    };
    while (i < n) {
        if (s.compare(i, 2, "//") == 0) {
            i = s.find('\n', i);
            if (i == std::string::npos)
                i = n;
        } else if (s.compare(i, 2, "/*") == 0) {
            const std::size_t end = s.find("*/", i + 2);
            i = end == std::string::npos ? n : end + 2;
        } else if (s.compare(i, 2, "R\"") == 0) {
            // A raw literal R"d(...)d": kept whole.
            const std::size_t open = s.find('(', i);
            // Built by append: GCC 12 at -O3 takes `")" + std::string(...)` for an overlapping copy
            // (a false -Wrestrict).
            std::string close(")");
            close.append(s, i + 2, open - i - 2).append("\"");
            const std::size_t end = s.find(close, open);
            const std::size_t stop = end == std::string::npos ? n : end + close.size();
            out.append(s, i, stop - i);
            i = stop;
        } else if (s[i] == '\'' && digit_separator(i)) {
            out.push_back(s[i++]);
        } else if (s[i] == '"' || s[i] == '\'') {
            const std::size_t end = literal_end(i, s[i]);
            out.append(s, i, end - i);
            i = end;
        } else {
            out.push_back(s[i++]);
        }
    }
    return out;
}

struct Source {
    std::string path;  // relative to the source tree
    std::string code;  // without comments
};

std::vector<Source> sources_under(const std::string& folder) {
    std::vector<Source> out;
    const fs::path root(LOOPSCOPE_SOURCE_DIR);
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
        const std::string ext = entry.path().extension().string();
        if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h"))
            continue;
        out.push_back({fs::relative(entry.path(), root).generic_string(),
                       without_comments(read_text(entry.path()))});
    }
    std::sort(out.begin(), out.end(),
              [](const Source& a, const Source& b) { return a.path < b.path; });
    return out;
}

std::vector<std::string> string_literals(const std::string& code) {
    std::vector<std::string> out;
    static const std::regex literal(R"re("((?:[^"\\\n]|\\.)*)")re");
    for (auto it = std::sregex_iterator(code.begin(), code.end(), literal);
         it != std::sregex_iterator(); ++it)
        out.push_back((*it)[1].str());
    return out;
}

std::size_t line_of(const std::string& code, std::size_t offset) {
    return static_cast<std::size_t>(std::count(code.begin(), code.begin() + offset, '\n')) + 1;
}

// The format names the readers give captures: every name they pass to describe_as() or compare
// a format with in describe_format(), wherever the readers live, so a new format is covered.
std::set<std::string> reader_format_names() {
    std::set<std::string> names;
    static const std::regex given(R"re(describe_as\([^;]*?,\s*"([^"]+)"\s*\))re");
    static const std::regex compared(R"re(format\s*==\s*"([^"]+)")re");
    const auto collect = [&](const std::string& text, const std::regex& re) {
        for (auto it = std::sregex_iterator(text.begin(), text.end(), re);
             it != std::sregex_iterator(); ++it)
            names.insert((*it)[1].str());
    };
    for (const Source& s : sources_under("readers")) {
        collect(s.code, given);
        const std::size_t at = s.code.find("CaptureDescription describe_format(");
        if (at != std::string::npos && s.code.find('{', at) < s.code.find(';', at))
            collect(s.code.substr(at, s.code.find("\n}\n", at) - at), compared);
    }
    return names;
}

TEST(CoreBoundary, TheReadersFormatNamesAreFound) {
    // The scan below is only as good as this list: it must find the formats the readers read.
    const std::set<std::string> names = reader_format_names();
    for (const char* expected :
         {"loopscope-trace", "presentmon-1", "presentmon-2", "presentmon-2.4", "ocat", "frameview",
          "capframex-json", "capframex-csv", "mangohud", "afterburner", "plain"})
        EXPECT_TRUE(names.count(expected)) << expected;
}

TEST(CoreBoundary, CoreNamesNoCaptureFormat) {
    const std::set<std::string> names = reader_format_names();
    ASSERT_FALSE(names.empty());
    std::vector<std::string> found;
    for (const Source& s : sources_under("core")) {
        for (const std::string& literal : string_literals(s.code)) {
            if (names.count(literal) || literal.starts_with("presentmon-") ||
                literal.starts_with("capframex-") || literal.starts_with("mangohud-"))
                found.push_back(s.path + ": \"" + literal + "\"");
        }
    }
    EXPECT_TRUE(found.empty()) << "core/ names a reader's format (decide from "
                                  "Capture::description instead):\n"
                               << ::testing::PrintToString(found);
}

TEST(CoreBoundary, CoreDecidesNothingOnTheFormatName) {
    // A capture's format name is for the reports to show; a comparison, a prefix test or a
    // lookup of it is a decision on the format.
    static const std::regex decision(
        std::string(R"re(format\s*(==|!=|<=>)|(==|!=)\s*[\w.>-]*format\b)re") +
        R"re(|format\s*\.\s*(starts_with|ends_with|find|rfind|compare|substr)\s*\()re" +
        R"re(|starts_with\s*\(\s*[\w.>-]*format\b)re");
    std::vector<std::string> found;
    for (const Source& s : sources_under("core")) {
        for (auto it = std::sregex_iterator(s.code.begin(), s.code.end(), decision);
             it != std::sregex_iterator(); ++it) {
            found.push_back(
                s.path + ":" +
                std::to_string(line_of(s.code, static_cast<std::size_t>(it->position()))) + ": " +
                it->str());
        }
    }
    EXPECT_TRUE(found.empty()) << "core/ decides on a capture's format name:\n"
                               << ::testing::PrintToString(found);
}

// A text of core's that names a flag ties the model to one front end: core says what is missing
// in its own words, and the command line words its errors with the flags
// (tool/option_values.hpp).
TEST(CoreBoundary, CoreNamesNoCommandLineFlag) {
    static const std::regex flag(R"re((^|[^\w-])--[A-Za-z][\w-]*)re");
    std::vector<std::string> found;
    for (const Source& s : sources_under("core")) {
        for (const std::string& literal : string_literals(s.code)) {
            if (std::regex_search(literal, flag))
                found.push_back(s.path + ": \"" + literal + "\"");
        }
    }
    EXPECT_TRUE(found.empty()) << "core/ names a command-line flag (take a typed value, throw a "
                                  "typed error and let tool/ word it):\n"
                               << ::testing::PrintToString(found);
}

TEST(CoreBoundary, TheScanSeesWhatItLooksFor) {
    // The helpers themselves: a literal is found, a comment is not, a flag and a decision match.
    const std::string code = without_comments(
        "// \"presentmon-1\" --from\nif (c.source.format == \"ocat\") f(\"--fail-if x\");");
    EXPECT_EQ(string_literals(code), (std::vector<std::string>{"ocat", "--fail-if x"}));
    EXPECT_TRUE(std::regex_search(code, std::regex(R"(format\s*==)")));
    EXPECT_TRUE(std::regex_search(std::string("--target-fps"),
                                  std::regex(R"re((^|[^\w-])--[A-Za-z][\w-]*)re")));
    EXPECT_FALSE(std::regex_search(std::string("a -- b, x--y"),
                                   std::regex(R"re((^|[^\w-])--[A-Za-z][\w-]*)re")));
}

}  // namespace
