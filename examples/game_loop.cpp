// A minimal fixed-timestep game loop (no SDL, no window) recording itself with loopscope's
// recorder header: the accumulator pattern with interpolation, a 250 ms clamp, a frame limiter
// at 60 Hz, and one deliberate 100 ms hitch so the trace has something to show.
//
//     example_game_loop [FRAMES] [TRACE.csv]      (defaults: 120 frames, game-loop-trace.csv)
//     loopscope replay TRACE.csv                  (then look at what the loop did)
//
// Built with LOOPSCOPE_RECORDER=1; without it the recorder calls compile to nothing.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "loopscope/recorder.hpp"

namespace {

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct State {
    double x = 0;
    double v = 1.0;  // units per second
};

void step(State& s, double dt_s) {
    s.x += s.v * dt_s;
    if (s.x > 1.0 || s.x < 0.0)
        s.v = -s.v;
}

}  // namespace

int main(int argc, char** argv) {
    const long frames = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 120;
    const std::string path = argc > 2 ? argv[2] : "game-loop-trace.csv";
    if (frames <= 0) {
        std::fprintf(stderr, "usage: example_game_loop [FRAMES > 0] [TRACE.csv]\n");
        return 2;
    }

    constexpr std::int64_t kDtNs = 16'666'667;      // 1/60 s
    constexpr std::int64_t kClampNs = 250'000'000;  // 250 ms
    constexpr std::int64_t kFrameNs = 16'666'667;   // limiter target

    loopscope::RecorderOptions options;
    options.path = path;
    options.policy = "fixed-interp";
    options.dt_ns = kDtNs;
    options.clamp_ns = kClampNs;
    options.flush_every = 60;  // a crash loses at most a second of frames
    loopscope::Recorder recorder(options);

    State previous, current;
    std::int64_t acc_ns = 0;
    std::int64_t last_ns = recorder.start_ns() != 0 ? recorder.start_ns() : now_ns();
    for (long frame = 0; frame < frames; ++frame) {
        const std::int64_t frame_start = now_ns();
        recorder.begin_frame(frame_start);
        const std::int64_t raw_ns = frame_start - last_ns;
        last_ns = frame_start;

        const std::int64_t clamped_ns = raw_ns < kClampNs ? raw_ns : kClampNs;
        acc_ns += clamped_ns;
        const std::int64_t acc_before_ns = acc_ns;
        std::int64_t steps = 0;
        while (acc_ns >= kDtNs) {
            previous = current;
            step(current, static_cast<double>(kDtNs) * 1e-9);
            acc_ns -= kDtNs;
            ++steps;
        }
        const double alpha = static_cast<double>(acc_ns) / static_cast<double>(kDtNs);
        recorder.loop(steps, acc_before_ns, acc_ns, alpha);
        recorder.guards(clamped_ns, clamped_ns, 0);
        recorder.end_steps(now_ns());

        // "Render": the interpolated position, and a hitch at frame 60.
        const double drawn = previous.x + (current.x - previous.x) * alpha;
        if (frame == 60)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        recorder.end_render(now_ns());

        // Limiter: sleep to the frame's deadline; the recorder counts this as the wait.
        const std::int64_t deadline = frame_start + kFrameNs;
        const std::int64_t left = deadline - now_ns();
        if (left > 0)
            std::this_thread::sleep_for(std::chrono::nanoseconds(left));
        if (frame + 1 == frames)
            std::printf("last drawn x = %.3f\n", drawn);
    }
    recorder.close();
    std::printf("%lld frames recorded to %s, %lld dropped%s\n",
                static_cast<long long>(recorder.recorded_frames()), path.c_str(),
                static_cast<long long>(recorder.dropped_frames()),
                decltype(recorder)::kEnabled ? "" : " (recording disabled)");
    if (!recorder.ok()) {
        std::fprintf(stderr, "example_game_loop: writing the trace %s failed (%lld frames lost)\n",
                     path.c_str(), static_cast<long long>(recorder.dropped_frames()));
        return 1;
    }
    return 0;
}
