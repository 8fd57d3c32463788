// `probe compare`: two probe documents side by side (two machines, two OSes, before and after a
// kernel or BIOS change), with the differences that matter marked and explained.
//
// Both documents are read into their structs (probe_json.hpp), which checks their shape (a
// one-line error on malformed input). Each section ("context", "clocks", and those other probes
// add) has one entry in compare_sections(): a pure function from the two documents' results to
// rows. A section missing from either document is skipped and said so. Adding a probe's section
// is its fields in probe_json and one more entry here; nothing else changes.
#pragma once

#include <string>
#include <vector>

#include "probes/probe_json.hpp"

namespace loopscope {

// One figure of one item in both documents.
struct CompareCell {
    std::string a;  // formatted value in document A ("-" when absent)
    std::string b;
    bool matters = false;
    std::string why;  // for a difference that matters, e.g. "2.4x dearer in B"
};

struct CompareRow {
    std::string item;                // a clock's name, a context key
    std::vector<CompareCell> cells;  // one per figure of the section
};

struct CompareSection {
    std::string key;    // "clocks"
    std::string title;  // "Clock sources"
    std::vector<std::string> figures;
    std::vector<CompareRow> rows;
    std::string skipped;  // why the section was not compared, or empty
};

struct SectionSpec {
    const char* key;
    const char* title;
    std::vector<std::string> figures;
    bool (*present)(const ProbeDocument& document);  // whether a document has the section
    std::vector<CompareRow> (*compare)(const ProbeDocument& a, const ProbeDocument& b);
    // Whether the section applies to this pair at all (nullptr: always); one that does not is
    // left out without a word (the Linux/Windows equivalents of two runs on one OS).
    bool (*applies)(const ProbeDocument& a, const ProbeDocument& b) = nullptr;
};

// The sections `probe compare` knows, in the order it prints them.
const std::vector<SectionSpec>& compare_sections();

// Reads a probe document for comparison (read_probe_results): a field that does not fit gives
// one line naming the file and the field.
ProbeDocument load_probe_for_compare(const std::string& path);

std::vector<CompareRow> compare_context(const SystemContext& a, const SystemContext& b);
// Clocks are matched by name; a clock in one document only is a difference that matters.
std::vector<CompareRow> compare_clocks(const std::vector<ClockResult>& a,
                                       const std::vector<ClockResult>& b);

// The load each run was measured under (probes/machine_load.hpp). cpus: the document's logical
// CPUs (0 = unknown). A run busy by the warnings' rules when the other was not matters.
std::vector<CompareRow> compare_load(const MachineLoad& a, int cpus_a, const MachineLoad& b,
                                     int cpus_b);

// A Linux and a Windows document: the facilities each OS offers for the same job, lined up
// (QueryPerformanceCounter and CLOCK_MONOTONIC, Sleep and nanosleep, the high-resolution
// waitable timer to an absolute deadline and clock_nanosleep to one, the timer resolution and
// the timer slack and kernel tick). One row a figure; its first cell names the two facilities.
// Empty when the documents are of one platform.
std::vector<CompareRow> compare_equivalents(const ProbeDocument& a, const ProbeDocument& b);

std::vector<CompareSection> compare_documents(const ProbeDocument& a, const ProbeDocument& b);

// Markdown: one table per section (cells "A / B", differences that matter in bold), then the
// list of differences that matter with the reason for each.
std::string comparison_markdown(const std::vector<CompareSection>& sections,
                                const std::string& name_a, const std::string& name_b);

// How many differences matter over all sections.
int differences_that_matter(const std::vector<CompareSection>& sections);

}  // namespace loopscope
