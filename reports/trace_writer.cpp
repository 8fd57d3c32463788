// The trace writer: preamble from TraceInfo, rows through trace_v1::format_row.
#include "reports/trace_writer.hpp"

#include <fmt/format.h>

#include "loopscope/recorder.hpp"

namespace loopscope {

static_assert(std::string_view(trace_v1::kColumns) == std::string_view(kTraceColumns),
              "the recorder header and trace_record.hpp must name the same columns");
static_assert(std::string_view(trace_v1::kMagic) == std::string_view(kTraceMagic));

std::string trace_preamble(const TraceInfo& info) {
    std::string out = fmt::format("{}\n", kTraceMagic);
    out += fmt::format("# clock: {}\n", info.clock);
    out += fmt::format("# policy: {}\n", policy_name(info.config.policy));
    out += fmt::format("# dt_ns: {}\n", info.config.dt_ns);
    out += fmt::format("# clamp_ns: {}\n", info.config.clamp_ns);
    out += fmt::format("# max_steps: {}\n", info.config.max_steps);
    out += fmt::format("# timescale: {}\n", info.config.timescale);
    if (!info.machine.empty())
        out += fmt::format("# machine: {}\n", info.machine);
    if (!info.start_time.empty())
        out += fmt::format("# start_time: {}\n", info.start_time);
    for (const auto& [key, value] : info.metadata)
        out += fmt::format("# {}: {}\n", key, value);
    out += kTraceColumns;
    out += '\n';
    return out;
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
