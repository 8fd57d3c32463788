// Writing records that are read again only much later (a replay into a large array) without
// pulling each line into the cache first: non-temporal stores where the CPU has them
// (streaming_store_x86.hpp), plain copies elsewhere. The instructions are the CPU's, the same on
// every OS, so the split is by architecture.
#pragma once

#include <cstdint>

#include "core/trace_record.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#include "core/streaming_store_x86.hpp"
#else
namespace loopscope {
inline void store_streaming(FrameRecord* to, const FrameRecord& record) {
    *to = record;
}
inline void end_streaming_stores() {}
}  // namespace loopscope
#endif
