// The trace writer: the preamble and the rows through the recorder's trace text (trace_v1), the
// one owner of the trace format.
#include "writers/trace_writer.hpp"

#include "recorder/trace_text.hpp"

namespace loopscope {

// The recorder's preamble, so that a trace written here and one a game records start
// with the same lines for the same knobs.
std::string trace_preamble(const TraceInfo& info) {
    trace_v1::Preamble p;
    p.clock = info.clock;
    copy_loop_knobs(info.config, p);
    p.machine = info.machine;
    p.start_time = info.start_time;
    for (const auto& [key, value] : info.metadata)
        p.metadata += key + ": " + value + "\n";
    return trace_v1::preamble_text(p);
}

TraceWriter::TraceWriter(OutputFile& out, const TraceInfo& info) : out_(out), buffer_(1 << 16) {
    out_.write(trace_preamble(info));
}

TraceWriter::~TraceWriter() = default;

void TraceWriter::write(const FrameRecord& record) {
    if (used_ + trace_v1::kMaxRowChars > buffer_.size())
        finish();
    char* end = trace_v1::format_row(buffer_.data() + used_, record);
    used_ = static_cast<std::size_t>(end - buffer_.data());
}

void TraceWriter::finish() {
    out_.write(std::string_view(buffer_.data(), used_));
    used_ = 0;
}

}  // namespace loopscope
