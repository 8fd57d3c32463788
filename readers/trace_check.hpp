// A trace put together from pieces another program sent (`loopscope record --connect`: the
// game's preamble, its rows, its closing lines) is checked piece by piece with the trace reader's
// rules (readers/read_trace.cpp), so that the file written is one that `report`, `replay` and
// `view` read: a preamble the reader would refuse stops the recording before anything is written,
// a row it would refuse is left out and counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/trace_record.hpp"

namespace loopscope {

// The preamble `text`: blank lines, the magic line, `# key: value` lines (the loop keys with
// values the reader takes), the header row (the trace columns first, in order), and nothing after
// it. Returns the metadata; throws InputError naming `where` and the line and column of the
// first problem. `metadata_bytes` counts the `# key: value` text (the reader's bound holds for
// the whole trace, closing lines included).
std::map<std::string, std::string> check_trace_preamble(const std::string& where,
                                                        std::string_view text,
                                                        std::size_t& metadata_bytes);

// What is wrong with the closing lines (the `# key: value` lines after the rows), or nullopt
// when the reader takes them after the rows of this trace. A loop key there is refused: the
// reader would compute the loop figures with a configuration the rows were not checked with.
std::optional<std::string> trace_trailer_problem(std::string_view text,
                                                 std::size_t& metadata_bytes);

// The rows of one trace in order, as the reader checks them: every time column >= 0, alpha a
// finite number, and no loop column whose running total passes the int64 range (the steps
// counted as steps × dt_ns as well).
class TraceRowCheck {
  public:
    // dt_ns: the preamble's (`# dt_ns:`), or the engine's default when it states none.
    explicit TraceRowCheck(std::int64_t dt_ns);
    // nullopt, with the row added to the totals, when the reader takes it; otherwise what is
    // wrong with it, and the totals stay as they were.
    std::optional<std::string> take(const FrameRecord& row);

  private:
    struct Totals {
        std::int64_t raw = 0, clamped = 0, clamp_lost = 0, consumed = 0, steps = 0, cap_dropped = 0,
                     step_cost = 0, render = 0, wait = 0, spent = 0, sim = 0;
    };
    std::int64_t dt_ns_;
    Totals totals_;
};

// The dt_ns a trace's metadata states, or the loop engine's default step.
std::int64_t trace_dt_ns(const std::map<std::string, std::string>& metadata);

}  // namespace loopscope
