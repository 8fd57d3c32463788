// The clock probe's results as a section of tables (printed as Markdown that pastes into a bug
// report, drawn by the viewer's probe tab) and the findings drawn from them: pure functions of a
// ClockProbeResult, tested without running a probe.
#pragma once

#include <string>
#include <vector>

#include "common/markdown_table.hpp"
#include "probes/clock_probe.hpp"

namespace loopscope {

// "9.87 ns", "24.1 ns", "4.000 ms"; "n/a" for a negative value.
std::string format_ns(double ns);

// Plain statements computed from the results, e.g. whether the coarse clocks advance in whole
// kernel ticks, how the TSC's cost compares with clock_gettime's, steps back by clocks that
// promise to be steady, a high_resolution_clock that is not steady.
std::vector<std::string> clock_findings(const ClockProbeResult& result);

// The "Clock sources" section of the probe output: what was measured, the results table, the
// table of what each clock is, the delta histograms and the findings.
TextSection clocks_section(const ClockProbeResult& result);
// That section as Markdown, as `loopscope probe` prints it.
std::string clocks_section_markdown(const ClockProbeResult& result);

}  // namespace loopscope
