// A capture of the given frame times, laid end to end from `first_start_ns`, described as the
// reader of `format` describes its captures: the synthetic input of the model's tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/capture.hpp"
#include "readers/readers.hpp"

namespace loopscope::test {

inline Capture frames_capture(const std::vector<std::int64_t>& frame_ns, std::string format,
                              std::int64_t first_start_ns = 0) {
    Capture c;
    describe_as(c, std::move(format));
    c.source.file = "test.csv";
    c.source.process = "Game.exe";
    c.frame_ns = frame_ns;
    std::int64_t t = first_start_ns;
    for (const std::int64_t f : frame_ns) {
        c.start_ns.push_back(t);
        t += f;
    }
    return c;
}

}  // namespace loopscope::test
