// A minimal fixed-timestep game loop (no SDL, no window) recording itself with loopscope's
// recorder header: loopscope::FixedStep runs the accumulator with interpolation and a 250 ms
// clamp and records each frame; a frame limiter at 60 Hz, and one deliberate 100 ms hitch so the
// trace has something to show, named by the game: a ScopedZone "asset load" around it and a mark
// "assets loaded" after it (trace format v2).
//
//     example_game_loop [--serve PORT] [FRAMES] [TRACE.csv]   (defaults: 120 frames,
//                                                             game-loop-trace.csv; the
//                                                             option may come anywhere)
//     loopscope replay TRACE.csv                  (then look at what the loop did)
//
// With --serve PORT the recorder also serves the frames live on 127.0.0.1:PORT (0 = any free
// port; the line "serving on 127.0.0.1:PORT" says which) to `loopscope view --connect` or
// `loopscope record --connect`; a hitch then comes every 300 frames.
//
// Built with LOOPSCOPE_RECORDER=1; without it the recorder calls compile to nothing and the loop
// runs the same (the clock, loopscope::now_ns(), works either way).
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "loopscope/recorder.hpp"

namespace {

struct State {
    double x = 0;
    double v = 1.0;  // units per second
};

void step(State& s, double dt_s) {
    s.x += s.v * dt_s;
    if (s.x > 1.0 || s.x < 0.0)
        s.v = -s.v;
}

constexpr const char* kUsage =
    "usage: example_game_loop [--serve PORT] [FRAMES > 0] [TRACE.csv]  (options anywhere)\n";

// A whole number within [low, high] written alone, or nothing.
bool parse_whole(const char* text, long low, long high, long& value) {
    char* end = nullptr;
    errno = 0;
    value = std::strtol(text, &end, 10);
    return end != text && *end == '\0' && errno == 0 && value >= low && value <= high;
}

}  // namespace

int main(int argc, char** argv) {
    // Options may come before or after the positional arguments; anything not understood is
    // refused, so a misplaced or misspelt option never runs the loop without it.
    long serve_port = -1;
    long frames = 120;
    std::string path = "game-loop-trace.csv";
    int positional = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--serve") {
            if (i + 1 == argc || !parse_whole(argv[i + 1], 0, 65535, serve_port)) {
                std::fprintf(stderr,
                             "example_game_loop: --serve: expected a port 0-65535, got '%s'\n",
                             i + 1 == argc ? "" : argv[i + 1]);
                return 2;
            }
            ++i;
        } else if (arg == "-h" || arg == "--help") {
            std::printf("%s", kUsage);
            return 0;
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::fprintf(stderr, "example_game_loop: unknown option '%s'\n%s", argv[i], kUsage);
            return 2;
        } else if (positional == 0) {
            if (!parse_whole(argv[i], 1, 1'000'000'000, frames)) {
                std::fprintf(stderr,
                             "example_game_loop: FRAMES: expected a whole number > 0, "
                             "got '%s'\n%s",
                             argv[i], kUsage);
                return 2;
            }
            ++positional;
        } else if (positional == 1) {
            path = arg;
            ++positional;
        } else {
            std::fprintf(stderr, "example_game_loop: unexpected argument '%s'\n%s", argv[i],
                         kUsage);
            return 2;
        }
    }

    constexpr std::int64_t kFrameNs = 16'666'667;  // limiter target
    const loopscope::FixedStepConfig config{.dt_ns = 16'666'667, .clamp_ns = 250'000'000};

    loopscope::RecorderOptions options{.path = path, .flush_every = 60};  // a crash loses <= 1 s
    if (serve_port >= 0) {
        options.serve_port = static_cast<int>(serve_port);
        options.flush_every = 6;  // the live stream gets rows at each hand-over: 10 times a second
    }
    loopscope::Recorder recorder(options);
    if (serve_port >= 0) {
        if (recorder.serving_port() == 0 && decltype(recorder)::kEnabled) {
            std::fprintf(stderr, "example_game_loop: --serve %ld: cannot listen\n", serve_port);
            return 1;
        }
        std::printf("serving on 127.0.0.1:%d\n", recorder.serving_port());
        std::fflush(stdout);
    }
    loopscope::FixedStep loop(config, recorder);

    State previous, current;
    for (long frame = 0; frame < frames; ++frame) {
        const std::int64_t frame_start = loopscope::now_ns();
        // The frame time through clamp, accumulator and step cap; the frame is recorded.
        const loopscope::LoopFrame f = loop.advance(frame_start);
        for (std::int64_t i = 0; i < f.steps; ++i) {
            previous = current;
            step(current, loop.dt_s());
        }
        recorder.end_steps(loopscope::now_ns());

        // "Render": the interpolated position, and a hitch at frame 60 (every 300 frames when
        // serving, so that a live view has some to show).
        const double drawn = previous.x + (current.x - previous.x) * f.alpha;
        if (frame == 60 || (serve_port >= 0 && frame % 300 == 60)) {
            // The game names what the time went to: a zone in the trace, and an instant.
            loopscope::ScopedZone zone(recorder, "asset load");
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            recorder.mark("assets loaded");
        }
        recorder.end_render(loopscope::now_ns());

        // Limiter: sleep to the frame's deadline; the recorder counts this as the wait.
        const std::int64_t left = frame_start + kFrameNs - loopscope::now_ns();
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
