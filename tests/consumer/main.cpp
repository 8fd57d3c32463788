// A game loop of a consumer of loopscope's recorder package, through the README's FixedStep
// snippet ("Recording a game") as written: 40 frames of about 5 ms on the real clock, recorded
// to the trace named on the command line. Built as C++17 and C++20 with LOOPSCOPE_RECORDER=1
// (the trace must hold the 40 frames and the loop's knobs before them) and without it (nothing
// written, the loop runs the same). Exit 0 when everything worked.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "loopscope/recorder.hpp"

namespace {
int frames_left = 40;
std::int64_t steps = 0;
void step() {
    ++steps;
}
void render(double alpha) {
    if (alpha < 0 || alpha >= 1)
        std::fprintf(stderr, "consumer: alpha %f out of [0, 1)\n", alpha);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: consumer TRACE.csv\n");
        return 2;
    }
    bool running = true;
    // The README's snippet, with the trace's path from the command line.
    loopscope::RecorderOptions options;
    options.path = argv[1];
    loopscope::Recorder recorder(options);
    loopscope::FixedStepConfig config;  // dt 1/60 s, clamp 250 ms
    config.max_steps = 8;
    loopscope::FixedStep loop(config, recorder);  // writes dt, clamp, step cap into the trace
    while (running) {
        const loopscope::LoopFrame f = loop.advance();  // reads the clock, records the frame
        for (std::int64_t i = 0; i < f.steps; ++i)
            step();
        recorder.end_steps();  // optional: time spent in the steps
        render(f.alpha);
        running = --frames_left > 0;
    }
    recorder.close();

    int rows = 0;
    std::string metadata;
    if (std::FILE* trace = std::fopen(argv[1], "r")) {
        char line[512];
        while (std::fgets(line, sizeof line, trace)) {
            rows += line[0] >= '0' && line[0] <= '9';
            if (line[0] == '#')
                metadata += line;
        }
        std::fclose(trace);
    }
    const bool on = loopscope::Recorder::kEnabled;
    const int expected_rows = on ? 40 : 0;
    const bool knobs = !on || (metadata.find("# dt_ns: 16666667\n") != std::string::npos &&
                               metadata.find("# clamp_ns: 250000000\n") != std::string::npos &&
                               metadata.find("# max_steps: 8\n") != std::string::npos &&
                               metadata.find("# policy: fixed-interp\n") != std::string::npos);
    if (!recorder.ok() || rows != expected_rows || !knobs) {
        std::fprintf(stderr, "consumer: %d rows in %s (expected %d), ok=%d, metadata:\n%s", rows,
                     argv[1], expected_rows, recorder.ok() ? 1 : 0, metadata.c_str());
        return 1;
    }
    std::printf("consumer (C++%ld, recording %s): %d rows, %lld steps\n", __cplusplus / 100 % 100,
                on ? "on" : "off", rows, static_cast<long long>(steps));
    return 0;
}
