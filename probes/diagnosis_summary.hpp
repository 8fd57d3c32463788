// What a diagnosis means for a game on this machine, in a few lines drawn from the probe results
// and the loop scenarios: the clock to time frames with, the wait for a 1 ms and a shorter sleep,
// the limiter for each rate and whether the repeated runs agreed, the timer slack or resolution in
// force, whether the machine was busy, and each scenario's verdict. Each line names the section
// (heading) whose table it rests on, so the Markdown and HTML can link to it. Pure: the rules are
// in diagnosis_summary.cpp and the README (command 1).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/markdown_table.hpp"
#include "probes/probe_run.hpp"

namespace loopscope {

struct ScenarioVerdict {
    std::string scenario;  // "steady-60"
    std::string verdict;   // "ok", "spiral from frame 15 at 500.001 ms"
};

struct DiagnosisLine {
    std::string topic;    // "Clock", "Wait 1 ms", ...
    std::string text;     // the finding, with its figures
    std::string section;  // the heading of the table it rests on
};

std::vector<DiagnosisLine> diagnosis_summary(const ProbeResults& probes,
                                             std::span<const ScenarioVerdict> scenarios,
                                             std::string_view loops_heading);

// "## What this means for a game on this machine" and one bullet a line, each ending in a link
// to its section ("[Clock sources](#clock-sources)", GitHub's heading anchors).
TextSection diagnosis_summary_section(std::span<const DiagnosisLine> lines);
std::string diagnosis_summary_markdown(std::span<const DiagnosisLine> lines);

}  // namespace loopscope
