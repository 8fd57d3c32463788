// The clock probe's results as Markdown (tables that paste into a bug report) and the findings
// drawn from them: pure functions of a ClockProbeResult, tested without running a probe.
#pragma once

#include <string>
#include <vector>

#include "probes/clock_probe.hpp"

namespace loopscope {

// "9.87 ns", "24.1 ns", "4.000 ms"; "n/a" for a negative value.
std::string format_ns(double ns);

// The results table, the table of what each clock is, and the delta histograms.
std::string clocks_markdown(const ClockProbeResult& result);

// Plain statements computed from the results, e.g. whether the coarse clocks advance in whole
// kernel ticks, how the TSC's cost compares with clock_gettime's, steps back by clocks that
// promise to be steady, a high_resolution_clock that is not steady.
std::vector<std::string> clock_findings(const ClockProbeResult& result);

// The "Clock sources" section of the probe output: what was measured, the tables, findings.
std::string clocks_section_markdown(const ClockProbeResult& result);

}  // namespace loopscope
