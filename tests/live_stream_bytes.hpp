// A live stream's bytes as docs/live.md ("The protocol (version 2)") defines them, written from
// that description for the tests that play a game (or a hostile peer) to the client: the
// handshake, batches of rows, the end message. Every integer little-endian.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "core/trace_record.hpp"

namespace loopscope::test {

inline void put_u32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xff);
}
inline void put_u64(std::string& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xff);
}

// The header row and a preamble as a game's recorder writes one (a 60 Hz fixed step).
inline const std::string kLiveColumns =
    "frame,start_ns,raw_ns,clamped_ns,clamp_lost_ns,consumed_ns,acc_before_ns,steps,"
    "cap_dropped_ns,acc_after_ns,alpha,step_cost_ns,render_ns,wait_ns";
inline std::string live_preamble() {
    return "# loopscope-trace v2\n# clock: steady_clock\n# policy: fixed-interp\n"
           "# dt_ns: 16666667\n# clamp_ns: 250000000\n# max_steps: 8\n# timescale: 1\n" +
           kLiveColumns + "\n";
}

// Magic "LSCPLIVE", version 2, 112-byte rows, then the clock and the preamble as u32 length +
// text.
inline std::string live_handshake(const std::string& preamble = live_preamble(),
                                  const std::string& clock = "steady_clock",
                                  std::uint32_t version = 2) {
    std::string out = "LSCPLIVE";
    put_u32(out, version);
    put_u32(out, 14 * 8);
    put_u32(out, static_cast<std::uint32_t>(clock.size()));
    out += clock;
    put_u32(out, static_cast<std::uint32_t>(preamble.size()));
    out += preamble;
    return out;
}

// Message 1: u32 rows (1 to 256), u64 dropped for this client, u64 dropped in all, the rows (the
// 14 columns in the header's order, alpha as a double's bits).
inline std::string live_batch(std::span<const FrameRecord> rows, std::uint64_t dropped = 0) {
    std::string out;
    put_u32(out, 1);
    put_u32(out, static_cast<std::uint32_t>(rows.size()));
    put_u64(out, dropped);
    put_u64(out, dropped);
    for (const FrameRecord& r : rows) {
        std::uint64_t alpha = 0;
        std::memcpy(&alpha, &r.alpha, 8);
        for (std::uint64_t v :
             {std::uint64_t(r.frame), std::uint64_t(r.start_ns), std::uint64_t(r.raw_ns),
              std::uint64_t(r.clamped_ns), std::uint64_t(r.clamp_lost_ns),
              std::uint64_t(r.consumed_ns), std::uint64_t(r.acc_before_ns), std::uint64_t(r.steps),
              std::uint64_t(r.cap_dropped_ns), std::uint64_t(r.acc_after_ns), alpha,
              std::uint64_t(r.step_cost_ns), std::uint64_t(r.render_ns), std::uint64_t(r.wait_ns)})
            put_u64(out, v);
    }
    return out;
}

// Message 2: u32 length, the lines the game's trace ends with.
inline std::string live_end(const std::string& trailer) {
    std::string out;
    put_u32(out, 2);
    put_u32(out, static_cast<std::uint32_t>(trailer.size()));
    return out + trailer;
}

// Message 3: u32 count, then each zone or mark: u32 kind (1 zone, 2 mark), thread, depth, label
// bytes; i64 frame, begin, end; the label in 64 bytes.
struct LiveEvent {
    std::uint32_t kind = 1;
    std::uint32_t depth = 0;
    std::int64_t frame = 0;
    std::int64_t begin_ns = 0;
    std::int64_t end_ns = 0;
    std::string label;
};
inline std::string live_events(std::span<const LiveEvent> events) {
    std::string out;
    put_u32(out, 3);
    put_u32(out, static_cast<std::uint32_t>(events.size()));
    for (const LiveEvent& e : events) {
        put_u32(out, e.kind);
        put_u32(out, 0);
        put_u32(out, e.depth);
        put_u32(out, static_cast<std::uint32_t>(e.label.size()));
        put_u64(out, static_cast<std::uint64_t>(e.frame));
        put_u64(out, static_cast<std::uint64_t>(e.begin_ns));
        put_u64(out, static_cast<std::uint64_t>(e.end_ns));
        std::string label = e.label;
        label.resize(64, '\0');
        out += label;
    }
    return out;
}

// A plausible frame `n` of a 60 Hz loop.
inline FrameRecord live_frame(std::int64_t n) {
    FrameRecord r;
    r.frame = n;
    r.start_ns = n * 16'666'667;
    r.raw_ns = 16'666'667;
    r.clamped_ns = r.raw_ns;
    r.consumed_ns = r.raw_ns;
    r.acc_before_ns = r.raw_ns + 1000;
    r.steps = 1;
    r.acc_after_ns = 1000;
    r.alpha = 0.5;
    r.step_cost_ns = 500'000;
    r.render_ns = 2'000'000;
    r.wait_ns = 14'000'000;
    return r;
}

}  // namespace loopscope::test
