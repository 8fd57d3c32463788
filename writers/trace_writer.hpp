// Writes frame records as a loopscope trace (format v1) through an OutputFile: what `run` on the
// virtual clock and `replay` save. The rows are formatted by the recorder's trace_v1::format_row,
// so a trace written here and one a game records are the same text.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/output_file.hpp"
#include "core/loop_engine.hpp"
#include "core/trace_record.hpp"

namespace loopscope {

struct TraceInfo {
    std::string clock;  // "virtual", "steady_clock", ...
    LoopConfig config;
    std::string machine;     // "" = left out
    std::string start_time;  // "" = left out (virtual runs, so the same seed gives the same bytes)
    std::vector<std::pair<std::string, std::string>> metadata;  // more `# key: value` lines
};

// The magic line, the `# key: value` lines and the header row.
std::string trace_preamble(const TraceInfo& info);

class TraceWriter {
  public:
    TraceWriter(OutputFile& out, const TraceInfo& info);
    ~TraceWriter();
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    void write(const FrameRecord& record);
    // Writes what is buffered (the caller commits the OutputFile).
    void finish();

  private:
    OutputFile& out_;
    std::vector<char> buffer_;
    std::size_t used_ = 0;
};

}  // namespace loopscope
