// The portable part of the clock lists (see clock_read_helpers.hpp): the check of which OS clock
// a library clock's readings match.
#include "probes/clock_read_helpers.hpp"

namespace loopscope {

std::string clocks_matching(const std::vector<NamedClock>& candidates, ClockReadFn read,
                            TickScale scale) {
    std::string out;
    for (const auto& c : candidates) {
        // A reading taken between two readings of the OS clock must fall between them if it
        // comes from that clock; a few tries rule out a lucky hit.
        bool all = true;
        for (int i = 0; i < 5 && all; ++i) {
            const std::int64_t before = c.read();
            const std::int64_t v = scale.to_ns(read());
            const std::int64_t after = c.read();
            all = before <= v && v <= after;
        }
        if (all)
            out += out.empty() ? c.name : std::string(", ") + c.name;
    }
    return out;
}

}  // namespace loopscope
