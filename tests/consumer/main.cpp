// A consumer of loopscope through add_subdirectory: records ten frames with the recorder header
// (loopscope::recorder) and runs the same frame times through the loop engine (loopscope::core),
// then checks that the two agree on the steps taken. Exit 0 when everything worked.
#include <cstdint>
#include <cstdio>

#include "core/loop_engine.hpp"
#include "loopscope/recorder.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: consumer TRACE.csv\n");
        return 2;
    }
    loopscope::LoopConfig config;  // fixed-interp, 1/60 s
    loopscope::LoopEngine engine(config);
    loopscope::RecorderOptions options;
    options.path = argv[1];
    options.policy = "fixed-interp";
    options.dt_ns = config.dt_ns;
    loopscope::Recorder recorder(options);
    std::int64_t now_ns = 0;
    std::int64_t steps = 0;
    for (int frame = 0; frame < 10; ++frame) {
        const std::int64_t frame_ns = 20'000'000;  // 50 Hz: some frames take two steps
        recorder.begin_frame(now_ns);
        const loopscope::FrameRecord r = engine.advance(frame == 0 ? 0 : frame_ns);
        recorder.loop({.acc_before_ns = r.acc_before_ns,
                       .steps = r.steps,
                       .acc_after_ns = r.acc_after_ns,
                       .alpha = r.alpha});
        steps += r.steps;
        now_ns += frame_ns;
    }
    recorder.close(now_ns);
    if (!recorder.ok() || recorder.recorded_frames() != 10 || steps == 0) {
        std::fprintf(stderr, "consumer: recorded %lld frames, %lld steps, ok=%d\n",
                     static_cast<long long>(recorder.recorded_frames()),
                     static_cast<long long>(steps), recorder.ok() ? 1 : 0);
        return 1;
    }
    std::printf("consumer: 10 frames, %lld steps\n", static_cast<long long>(steps));
    return 0;
}
