// A game loop of a consumer of loopscope's recorder package: ten frames of 20 ms through
// loopscope::FixedStep at 60 Hz, recorded to the trace named on the command line. Built twice,
// with LOOPSCOPE_RECORDER=1 (the trace must hold the ten frames) and without (nothing written,
// the loop runs the same). Exit 0 when everything worked.
#include <cstdint>
#include <cstdio>

#include "loopscope/recorder.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: consumer TRACE.csv\n");
        return 2;
    }
    loopscope::Recorder recorder({.path = argv[1], .policy = "fixed-interp"});
    loopscope::FixedStep loop({.dt_ns = 16'666'667}, recorder);
    std::int64_t now_ns = recorder.start_ns();
    std::int64_t steps = 0;
    for (int frame = 0; frame < 10; ++frame) {
        const loopscope::LoopFrame f = loop.advance(now_ns);
        steps += f.steps;
        now_ns += 20'000'000;  // 50 Hz: some frames take two steps
    }
    recorder.close(now_ns);
    // 9 frame times of 20 ms = 180 ms: 10 steps of 16.7 ms, 13.3 ms left.
    const bool loop_ok = steps == 10 && loop.accumulator_ns() == 180'000'000 - 10 * 16'666'667;
    int rows = 0;
    if (std::FILE* trace = std::fopen(argv[1], "r")) {
        char line[512];
        while (std::fgets(line, sizeof line, trace))
            rows += line[0] >= '0' && line[0] <= '9';
        std::fclose(trace);
    }
    const int expected_rows = loopscope::Recorder::kEnabled ? 10 : 0;
    if (!loop_ok || !recorder.ok() || rows != expected_rows) {
        std::fprintf(stderr, "consumer: %lld steps, %d rows in %s (expected %d), ok=%d\n",
                     static_cast<long long>(steps), rows, argv[1], expected_rows,
                     recorder.ok() ? 1 : 0);
        return 1;
    }
    std::printf("consumer (recording %s): %d rows, %lld steps\n",
                loopscope::Recorder::kEnabled ? "on" : "off", rows, static_cast<long long>(steps));
    return 0;
}
