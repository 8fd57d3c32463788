// The CSV scanner's byte searches on x86-64 (SSE2, which every x86-64 CPU has): which of 16 or
// 32 bytes are a given character, as a bit mask, and the commas of a line's long tail counted
// 64 bytes at a time. Included by readers/csv_scanner.cpp only where __SSE2__ is defined; the
// scanner has a plain path for every other CPU.
#pragma once

#include <emmintrin.h>

#include <cstddef>
#include <cstdint>

namespace loopscope::csv_x86 {

inline __m128i load16(const char* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

inline std::uint32_t mask16(__m128i v, char c) {
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c))));
}

// Bit i set where p[i] == c, for the 16 bytes at p.
inline std::uint32_t match16(const char* p, char c) {
    return mask16(load16(p), c);
}

// Bit i set where p[i] == c, for the 32 bytes at p.
inline std::uint32_t match32(const char* p, char c) {
    return mask16(load16(p), c) | mask16(load16(p + 16), c) << 16;
}

// Whether any of the 32 bytes at p is `a` or `b` (rare characters, looked for before their
// positions are worked out).
inline bool any32(const char* p, char a, char b) {
    const __m128i v0 = load16(p), v1 = load16(p + 16);
    const __m128i ca = _mm_set1_epi8(a), cb = _mm_set1_epi8(b);
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v0, ca), _mm_cmpeq_epi8(v1, ca)),
                                     _mm_or_si128(_mm_cmpeq_epi8(v0, cb), _mm_cmpeq_epi8(v1, cb)));
    return _mm_movemask_epi8(hit) != 0;
}

// Counts the commas from p[i] on, in whole blocks up to the first 16-byte block that holds a line
// break (or has fewer than 16 bytes before `size`), and notes any quote on the way. Leaves `i` at
// the first byte not looked at, for the caller's byte-by-byte end. Sixty-four bytes at a time
// where no break lies among them; each comma adds one to its byte lane (a match is all ones,
// subtracted), the lanes summed before they can overflow.
inline std::size_t count_commas_before_break(const char* p, std::size_t& i, std::size_t size,
                                             bool& any_quote) {
    const __m128i comma = _mm_set1_epi8(',');
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i newline = _mm_set1_epi8('\n');
    const __m128i zero = _mm_setzero_si128();
    __m128i lanes = zero;   // commas in each byte lane: at most 4 a chunk, 63 chunks
    __m128i quotes = zero;  // any quote, in any lane
    std::size_t commas = 0;
    const auto add_lanes = [&] {
        const __m128i total = _mm_sad_epu8(lanes, zero);
        commas += static_cast<std::size_t>(_mm_cvtsi128_si32(total)) +
                  static_cast<std::size_t>(_mm_extract_epi16(total, 4));
        lanes = zero;
    };
    std::size_t chunks = 0;
    for (; i + 64 <= size; i += 64) {
        const __m128i v0 = load16(p + i), v1 = load16(p + i + 16);
        const __m128i v2 = load16(p + i + 32), v3 = load16(p + i + 48);
        const __m128i breaks =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v0, newline), _mm_cmpeq_epi8(v1, newline)),
                         _mm_or_si128(_mm_cmpeq_epi8(v2, newline), _mm_cmpeq_epi8(v3, newline)));
        if (_mm_movemask_epi8(breaks))
            break;  // the line ends in this chunk: the loop below finds the block
        lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v0, comma));
        lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v1, comma));
        lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v2, comma));
        lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v3, comma));
        quotes = _mm_or_si128(
            quotes,
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v0, quote), _mm_cmpeq_epi8(v1, quote)),
                         _mm_or_si128(_mm_cmpeq_epi8(v2, quote), _mm_cmpeq_epi8(v3, quote))));
        if (++chunks == 63) {
            add_lanes();
            chunks = 0;
        }
    }
    // Sixteen bytes at a time up to the block with the break (at most four blocks after the
    // chunks, so the lanes cannot overflow).
    for (; i + 16 <= size; i += 16) {
        const __m128i v = load16(p + i);
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline)))
            break;
        lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v, comma));
        quotes = _mm_or_si128(quotes, _mm_cmpeq_epi8(v, quote));
    }
    add_lanes();
    any_quote |= _mm_movemask_epi8(quotes) != 0;
    return commas;
}

}  // namespace loopscope::csv_x86
