// Non-temporal stores of records on x86-64 (SSE2, which every x86-64 CPU has): see
// streaming_store.hpp. Included by it only.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/trace_record.hpp"

namespace loopscope {

static_assert(std::is_trivially_copyable_v<FrameRecord> && sizeof(FrameRecord) % 8 == 0);

// Writes `record` to `to` around the cache. A record that starts on 16 bytes (every one of a
// std::vector's, 112 being 7 x 16) takes seven 16-byte stores, another fourteen of 8 bytes.
inline void store_streaming(FrameRecord* to, const FrameRecord& record) {
    const auto* from = reinterpret_cast<const char*>(&record);
    if (sizeof(FrameRecord) % 16 == 0 && reinterpret_cast<std::uintptr_t>(to) % 16 == 0) {
        auto* out = reinterpret_cast<__m128i*>(to);
        for (std::size_t k = 0; k < sizeof(FrameRecord) / 16; ++k) {
            __m128i v;
            std::memcpy(&v, from + 16 * k, 16);
            _mm_stream_si128(out + k, v);
        }
        return;
    }
    auto* out = reinterpret_cast<long long*>(to);
    for (std::size_t k = 0; k < sizeof(FrameRecord) / 8; ++k) {
        long long word;
        std::memcpy(&word, from + 8 * k, 8);
        _mm_stream_si64(out + k, word);
    }
}

// Orders the streaming stores before whatever this thread does next.
inline void end_streaming_stores() {
    _mm_sfence();
}

}  // namespace loopscope
