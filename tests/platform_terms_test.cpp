// The shared probe text speaks the words of the platform a result was measured on, not of the OS
// the program runs on: a Windows document read on Linux names QueryPerformanceCounter,
// GetThreadTimes and NtQueryTimerResolution, a Linux one CLOCK_MONOTONIC,
// CLOCK_THREAD_CPUTIME_ID and clock_getres (the golden tests hold the Linux text byte for byte).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/errors.hpp"
#include "probes/clock_report.hpp"
#include "probes/platform_terms.hpp"
#include "probes/probe_json.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_report.hpp"
#include "tests/test_support.hpp"

using namespace loopscope;

namespace {

constexpr std::int64_t kMs = 1'000'000;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A machine whose TSC is not invariant and whose tick is coarse: both warnings name clocks.
SystemContext context_on(Platform platform) {
    SystemContext c;
    c.platform = platform;
    c.os = "Example OS";
    c.logical_cpus = 2;
    c.usable_cpus = 2;
    c.has_tsc = true;
    c.kernel_tick_ns = 15'625'000;
    c.kernel_tick_from = "somewhere";
    return c;
}

// A coarse clock watched against the clock it samples, and a TSC beside the platform's
// monotonic clock: the two findings that name the platform's calls.
ClockProbeResult clocks_on(Platform platform) {
    ClockProbeResult r;
    r.platform = platform;
    r.kernel_tick_ns = 4 * kMs;
    ClockResult coarse;
    coarse.name = "coarse clock";
    coarse.steps_watched = true;
    coarse.steps_watch_ns = 100 * kMs;
    coarse.steps.steps = 25;
    coarse.steps.one_tick = 25;
    coarse.steps.median_step_ns = 4 * kMs;
    ClockResult mono;
    mono.name = platform_terms(platform).wait_clock;
    mono.read_cost_ns = 25.0;
    ClockResult tsc;
    tsc.name = "rdtsc";
    tsc.read_cost_ns = 10.0;
    r.clocks = {coarse, mono, tsc};
    return r;
}

std::string all_findings(const ClockProbeResult& r) {
    std::string out;
    for (const auto& f : clock_findings(r))
        out += f + "\n";
    return out;
}

}  // namespace

TEST(PlatformTerms, EachPlatformHasItsOwnWordsAndJsonName) {
    const PlatformTerms& l = platform_terms(Platform::Linux);
    const PlatformTerms& w = platform_terms(Platform::Windows);
    EXPECT_STREQ(l.wait_clock, "CLOCK_MONOTONIC");
    EXPECT_STREQ(w.wait_clock, "QueryPerformanceCounter");
    EXPECT_STREQ(l.cpu_time_clock, "CLOCK_THREAD_CPUTIME_ID");
    EXPECT_STREQ(w.cpu_time_clock, "GetThreadTimes");
    EXPECT_STREQ(l.tick_call, "clock_getres");
    EXPECT_STREQ(w.tick_call, "NtQueryTimerResolution");
    EXPECT_EQ(platform_from_json_name("windows"), Platform::Windows);
    EXPECT_EQ(platform_from_json_name("linux"), Platform::Linux);
    EXPECT_FALSE(platform_from_json_name("Windows").has_value());
#ifdef _WIN32
    EXPECT_EQ(this_platform(), Platform::Windows);
#else
    EXPECT_EQ(this_platform(), Platform::Linux);
#endif
}

TEST(PlatformTerms, AWindowsContextWarnsInWindowsWordsAndHasNoClocksourceOrSlackRows) {
    const std::string win = context_section_markdown(context_on(Platform::Windows));
    EXPECT_TRUE(has(win, "steady_clock / QueryPerformanceCounter")) << win;
    EXPECT_TRUE(has(win,
                    "the coarse clocks (GetTickCount64, timeGetTime, "
                    "GetSystemTimeAsFileTime, QueryInterruptTime) advance only every "
                    "15.625 ms"))
        << win;
    EXPECT_FALSE(has(win, "CLOCK_")) << win;
    EXPECT_FALSE(has(win, "| clocksource")) << win;
    EXPECT_FALSE(has(win, "| timer slack")) << win;

    const std::string lin = context_section_markdown(context_on(Platform::Linux));
    EXPECT_TRUE(has(lin, "steady_clock / CLOCK_MONOTONIC")) << lin;
    EXPECT_TRUE(has(lin, "the coarse clocks (CLOCK_*_COARSE)")) << lin;
    EXPECT_TRUE(has(lin, "| clocksource")) << lin;
    EXPECT_TRUE(has(lin, "| timer slack")) << lin;
}

TEST(PlatformTerms, WindowsClockFindingsNameTheTimerResolutionAndQpc) {
    const std::string win = all_findings(clocks_on(Platform::Windows));
    EXPECT_TRUE(has(win, "(NtQueryTimerResolution 4.000 ms)")) << win;
    EXPECT_TRUE(has(win, "rdtsc costs 10.0 ns a read, QueryPerformanceCounter 25.0 ns")) << win;
    EXPECT_FALSE(has(win, "clock_get")) << win;

    const std::string lin = all_findings(clocks_on(Platform::Linux));
    EXPECT_TRUE(has(lin, "(clock_getres 4.000 ms)")) << lin;
    EXPECT_TRUE(has(lin, "rdtsc costs 10.0 ns a read, clock_gettime(CLOCK_MONOTONIC) 25.0 ns"))
        << lin;
}

// The golden real run (a Linux document) read back with its context's platform set to windows:
// the platform reaches the timer section through the document, and its text changes words only.
TEST(PlatformTerms, ADocumentsPlatformGivesItsTimerSectionTheWindowsWords) {
    const std::string golden =
        std::string(LOOPSCOPE_SOURCE_DIR) + "/tests/golden/probe_sections/probe.json";
    ProbeJson j = ProbeJson::parse(test::read_text(golden));
    j["context"]["platform"] = "windows";
    const std::string dir = test::make_temp_dir("loopscope-platform-terms");
    const std::string path = dir + "/windows.json";
    test::write_text(path, j.dump(2));
    const ProbeDocument win = read_probe_results(path);
    const ProbeDocument lin = read_probe_results(golden);
    ASSERT_TRUE(win.timers && win.clocks && lin.timers);
    EXPECT_EQ(win.context->platform, Platform::Windows);
    EXPECT_EQ(win.clocks->platform, Platform::Windows);
    EXPECT_EQ(lin.timers->platform, Platform::Linux);

    const std::string w = render_timer_markdown(*win.timers);
    EXPECT_TRUE(has(w, "requested wait on QueryPerformanceCounter;")) << w;
    EXPECT_TRUE(has(w, "CPU time per frame (GetThreadTimes)")) << w;
    EXPECT_FALSE(has(w, "CLOCK_MONOTONIC")) << w;
    EXPECT_FALSE(has(w, "CLOCK_THREAD_CPUTIME_ID")) << w;
    const std::string l = render_timer_markdown(*lin.timers);
    EXPECT_TRUE(has(l, "requested wait on CLOCK_MONOTONIC;")) << l;
    EXPECT_TRUE(has(l, "CPU time per frame (CLOCK_THREAD_CPUTIME_ID)")) << l;

    // Written again, the platform is the context's "platform" key.
    EXPECT_EQ(ProbeJson(win)["context"]["platform"], "windows");
    EXPECT_EQ(ProbeJson(lin)["context"]["platform"], "linux");

    j["context"]["platform"] = "macos";
    test::write_text(path, j.dump(2));
    try {
        read_probe_results(path);
        ADD_FAILURE() << "no error for an unknown platform";
    } catch (const InputError& e) {
        EXPECT_TRUE(has(e.what(), "context.platform: expected \"linux\" or \"windows\""))
            << e.what();
    }
    std::filesystem::remove_all(dir);
}
