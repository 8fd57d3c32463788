// Frame generation per cadence: the figures of the application and the displayed frames on
// their own cadence, the mixed present timeline named as such, and frame generation detected
// from the cycles of per-frame columns when a capture does not mark generated frames.
// Synthetic frames pin the rule exactly; the shared real captures show where it fires.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "core/analysis.hpp"
#include "core/comparison.hpp"
#include "core/figures.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"
#include "writers/writer.hpp"

namespace loopscope {
namespace {

constexpr std::int64_t ms(std::int64_t v) {
    return v * 1'000'000;
}

// n frames alternating long / short, starting with a long one.
std::vector<std::int64_t> alternating(std::size_t n, std::int64_t long_ns, std::int64_t short_ns) {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(i % 2 == 0 ? long_ns : short_ns);
    return out;
}

// The cycle rule on one column of present-to-present times (periods 2 to 4), no refresh grid,
// taken as decisive so that the rule's mechanics (cycles, shares, the estimate) are what is
// tested; which columns decide is tested on its own (DetectedOnlyOnADecisiveColumn).
GenerationDetection detect_on_presents(const std::vector<std::int64_t>& frames,
                                       int refresh_hz = 0) {
    const std::vector<GenerationColumn> columns = {{"msBetweenPresents", frames, true, true}};
    return detect_frame_generation(columns, frames, refresh_hz);
}

TEST(FrameGenerationDetection, FiresOnPresentsAlternatingBetweenTwoClusters) {
    // 15 ms / 1 ms: 2-peaks at the even frames 2..398 (frame 0 has no neighbour before it),
    // one chain covering frames 1..399.
    const auto frames = alternating(400, ms(15), ms(1));
    const GenerationDetection g = detect_on_presents(frames);
    ASSERT_TRUE(g.detected);
    ASSERT_EQ(g.evidence.size(), 1u);
    const GenerationEvidence& e = g.evidence.front();
    EXPECT_EQ(e.period, 2);
    EXPECT_EQ(e.known_frames, 400u);
    EXPECT_EQ(e.covered_frames, 399u);
    EXPECT_DOUBLE_EQ(e.share, 399.0 / 400.0);
    EXPECT_EQ(e.cycles, 1u);
    EXPECT_EQ(e.longest_cycle_frames, 399u);
    EXPECT_DOUBLE_EQ(e.peak_mean_ms, 15.0);
    EXPECT_DOUBLE_EQ(e.other_mean_ms, 1.0);
    // The application timed between the peaks: 198 intervals of 1 + 15 ms.
    EXPECT_EQ(g.period, 2);
    EXPECT_EQ(g.estimated_frames, 399u);
    ASSERT_EQ(g.application_intervals_ns.size(), 198u);
    for (const std::int64_t v : g.application_intervals_ns)
        EXPECT_EQ(v, ms(16));
}

TEST(FrameGenerationDetection, ThreeFrameCyclesOfXeSSFrameGeneration) {
    // XeSS-FG's presents: 0.6 / 11.4 / 0.4 ms, one application frame every 12.4 ms.
    std::vector<std::int64_t> frames;
    for (int i = 0; i < 300; ++i)
        frames.push_back(std::array{600'000, 11'400'000, 400'000}[i % 3]);
    const GenerationDetection g = detect_on_presents(frames);
    ASSERT_TRUE(g.detected);
    EXPECT_EQ(g.period, 3);
    EXPECT_EQ(g.evidence.front().period, 3);
    EXPECT_GT(g.evidence.front().share, 0.98);
    ASSERT_FALSE(g.application_intervals_ns.empty());
    for (const std::int64_t v : g.application_intervals_ns)
        EXPECT_EQ(v, 12'400'000);
    // Other columns are examined at period 2 only: the same cycle there is no evidence.
    const std::vector<GenerationColumn> latency = {{"MsPCLatency", frames, false, true}};
    const GenerationDetection l = detect_frame_generation(latency, frames, 0);
    EXPECT_FALSE(l.detected);
    EXPECT_EQ(l.evidence.front().period, 2);
}

TEST(FrameGenerationDetection, APeakStandsOutByATwentiethOfItsValue) {
    // 100 / 95: 5 below a peak of 100 is exactly 1/20: a peak. 100 / 96 is not.
    EXPECT_TRUE(detect_on_presents(alternating(400, 100'000, 95'000)).detected);
    const GenerationDetection near = detect_on_presents(alternating(400, 100'000, 96'000));
    EXPECT_FALSE(near.detected);
    EXPECT_EQ(near.evidence.front().covered_frames, 0u);
    // Steady frames with jitter of a few percent, and isolated short frames, have no cycle.
    std::vector<std::int64_t> steady;
    for (std::size_t i = 0; i < 1000; ++i)
        steady.push_back(ms(16) + static_cast<std::int64_t>((i * 7919) % 1000) * 1000);
    EXPECT_FALSE(detect_on_presents(steady).detected);
    EXPECT_EQ(detect_on_presents(steady).evidence.front().cycles, 0u);
    std::vector<std::int64_t> isolated(1000, ms(16));
    for (std::size_t i = 5; i < isolated.size(); i += 10)
        isolated[i] = ms(1);
    EXPECT_FALSE(detect_on_presents(isolated).detected);
    EXPECT_FALSE(detect_on_presents({}).detected);
    EXPECT_FALSE(detect_on_presents({}).examined);
}

TEST(FrameGenerationDetection, ThresholdsOnCycleLengthAndShare) {
    // A chain of 7 2-peaks covers 15 frames: not a cycle; 8 cover 17: one.
    const auto with_chain = [](std::size_t peaks, std::size_t n) {
        std::vector<std::int64_t> f(n, ms(2));
        for (std::size_t k = 0; k < peaks; ++k)
            f[1 + 2 * k] = ms(16);
        return f;
    };
    const GenerationEvidence seven = generation_evidence("x", with_chain(7, 100), 2);
    EXPECT_EQ(seven.cycles, 0u);
    EXPECT_FALSE(seven.shows_generation);
    const GenerationEvidence eight = generation_evidence("x", with_chain(8, 68), 2);
    EXPECT_EQ(eight.cycles, 1u);
    EXPECT_EQ(eight.covered_frames, 17u);
    EXPECT_DOUBLE_EQ(eight.share, 0.25);  // 17 of 68: the least share that shows it
    EXPECT_TRUE(eight.shows_generation);
    const GenerationEvidence diluted = generation_evidence("x", with_chain(8, 69), 2);
    EXPECT_EQ(diluted.cycles, 1u);
    EXPECT_FALSE(diluted.shows_generation);
    // Unknown cells break a cycle: a peak needs every neighbour known.
    auto gap = with_chain(8, 68);
    gap[8] = -1;
    EXPECT_EQ(generation_evidence("x", gap, 2).cycles, 0u);
}

TEST(FrameGenerationDetection, PresentsOnAFixedRefreshGridAreNoEvidence) {
    // A game limited by vsync at 80 FPS on 120 Hz presents one and two periods in turn: the
    // display's quantization, not frame generation.
    std::vector<std::int64_t> frames;
    for (int i = 0; i < 400; ++i)
        frames.push_back(i % 2 ? 8'333'333 : 16'666'667);
    const GenerationDetection g = detect_on_presents(frames, 120);
    EXPECT_FALSE(g.detected);
    EXPECT_TRUE(g.evidence.front().on_refresh_grid);
    EXPECT_DOUBLE_EQ(g.evidence.front().covered_on_grid_share, 1.0);
    // Without a fixed refresh the same cycles count.
    EXPECT_TRUE(detect_on_presents(frames, 0).detected);
    // Another column's alternation is not the display's doing.
    std::vector<std::int64_t> latency;
    for (int i = 0; i < 400; ++i)
        latency.push_back(i % 2 ? ms(30) : ms(40));
    const std::vector<GenerationColumn> both = {{"MsPCLatency", latency, false, true},
                                                {"msBetweenPresents", frames, true}};
    const GenerationDetection d = detect_frame_generation(both, frames, 120);
    ASSERT_TRUE(d.detected);
    EXPECT_EQ(d.evidence.front().column, "MsPCLatency");
}

// Only a decisive column (MsPCLatency) makes a detection; cycles of any other column alone are
// "possible", with their evidence, and nothing is estimated from them.
TEST(FrameGenerationDetection, DetectedOnlyOnADecisiveColumn) {
    const auto frames = alternating(400, ms(15), ms(1));
    const std::vector<GenerationColumn> presents = {{"msBetweenPresents", frames, true}};
    const GenerationDetection p = detect_frame_generation(presents, frames, 0);
    EXPECT_FALSE(p.detected);
    EXPECT_TRUE(p.possible);
    EXPECT_TRUE(p.application_intervals_ns.empty());
    EXPECT_EQ(p.evidence.front().column, "msBetweenPresents");
    // The decisive column first when both show cycles, though its share is lower.
    std::vector<std::int64_t> latency(400, ms(30));
    for (std::size_t i = 100; i < 400; i += 2)
        latency[i] = ms(40);
    const std::vector<GenerationColumn> both = {{"msBetweenPresents", frames, true},
                                                {"MsPCLatency", latency, false, true}};
    const GenerationDetection d = detect_frame_generation(both, frames, 0);
    ASSERT_TRUE(d.detected);
    EXPECT_FALSE(d.possible);
    EXPECT_EQ(d.evidence.front().column, "MsPCLatency");
    EXPECT_TRUE(d.evidence.front().decisive);
    EXPECT_FALSE(d.application_intervals_ns.empty());
}

TEST(FrameGenerationCadence, ApplicationAndDisplayedFiguresAreExact) {
    // Application frames every 16 ms (a 15 ms generated present then a 1 ms application
    // present), one application frame late by 40 ms: its interval is 56 ms.
    auto frames = alternating(200, ms(15), ms(1));
    frames[100] += ms(40);
    std::vector<std::uint8_t> generated(200);
    for (std::size_t i = 0; i < generated.size(); ++i)
        generated[i] = i % 2 == 0 ? 1 : 0;
    const CadenceFigures app = cadence_figures(frames, generated, false);
    EXPECT_EQ(app.frames, 100u);
    EXPECT_EQ(app.interval.frames, 99u);
    EXPECT_DOUBLE_EQ(app.interval.min_ms, 16.0);
    EXPECT_DOUBLE_EQ(app.interval.max_ms, 56.0);
    EXPECT_DOUBLE_EQ(app.interval.p50_ms, 16.0);
    // The one 56 ms interval is the only stutter: mean = (98·16 + 56) / 99 ≈ 16.4 ms, window
    // round(10·√16.4) = 40; 56 > 2.5 × its moving average and 56 > 2.5 × the mean.
    EXPECT_EQ(app.stutter.frames.size(), 1u);
    EXPECT_EQ(app.stutter.above_mean, 1u);
    EXPECT_DOUBLE_EQ(app.stutter.time_share, 56.0 / (98.0 * 16.0 + 56.0));
    EXPECT_DOUBLE_EQ(app.stutter.count_share, 1.0 / 99.0);
    // Lows over the application intervals: the 0.99 quantile of 99 values lies inside the
    // top one, so the 1 % low average is 1000 / 56.
    EXPECT_DOUBLE_EQ(app.fps.low1_average, 1000.0 / 56.0);

    // The displayed frames: every present displayed 8 ms apart but two never displayed.
    std::vector<std::int64_t> display(200, ms(8));
    display[10] = -1;
    display[11] = -1;
    const CadenceFigures shown = displayed_cadence(display, frames);
    EXPECT_EQ(shown.frames, 198u);
    EXPECT_EQ(shown.interval.frames, 198u);
    EXPECT_DOUBLE_EQ(shown.interval.p99_ms, 8.0);
    EXPECT_DOUBLE_EQ(shown.fps.p1_low, 125.0);
    EXPECT_TRUE(shown.stutter.frames.empty());
    EXPECT_DOUBLE_EQ(shown.average_fps, 198.0 / ((100.0 * 16.0 + 40.0) / 1000.0));
}

Capture synthetic_capture(std::vector<std::int64_t> frames) {
    Capture c;
    describe_as(c, "presentmon-1");
    c.source.file = "synthetic.csv";
    c.display_ns = std::vector<std::int64_t>(frames.size(), ms(8));
    c.frame_ns = std::move(frames);
    return c;
}

TEST(FrameGenerationReport, UnmarkedAlternationIsDetectedAndSaid) {
    // Presents alternating and the PC latency with them, as frame generation makes them.
    Capture c = synthetic_capture(alternating(400, ms(15), ms(1)));
    for (std::size_t i = 0; i < c.frames(); ++i)
        c.pc_latency_ns.push_back(i % 2 ? ms(40) : ms(33));
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_TRUE(r.generation.detected);
    EXPECT_FALSE(r.has_generated);
    EXPECT_EQ(timeline_label(r),
              "present timeline (frame generation detected: application and generated frames "
              "mixed)");
    EXPECT_EQ(r.displayed.frames, 400u);
    EXPECT_DOUBLE_EQ(*figure_value(r, "detected_generation_share"), 399.0 / 400.0);
    EXPECT_EQ(r.generation.evidence.front().column, "MsPCLatency");
    EXPECT_DOUBLE_EQ(*figure_value(r, "displayed_p99_ms"), 8.0);
    // The application frames are estimated: every second present, 16 ms apart.
    EXPECT_TRUE(r.application_estimated);
    EXPECT_DOUBLE_EQ(*figure_value(r, "app_p99_ms"), 16.0);
    EXPECT_DOUBLE_EQ(*figure_value(r, "app_fps"), 62.5);
    const auto rows = summary_rows(r);
    bool said = false, estimated = false;
    for (const SummaryRow& row : rows) {
        if (row.label == "frame generation") {
            said = true;
            EXPECT_NE(row.value.find("detected: MsPCLatency repeats every 2 frames"),
                      std::string::npos)
                << row.value;
        }
        if (row.label == "application percentiles") {
            estimated = true;
            EXPECT_TRUE(row.value.starts_with("estimated: ")) << row.value;
            EXPECT_TRUE(row.definition.starts_with("estimated")) << row.definition;
        }
    }
    EXPECT_TRUE(said);
    EXPECT_TRUE(estimated);

    // The display timeline is not split and says nothing is detected there.
    AnalysisOptions display;
    display.timeline = Timeline::display;
    const CaptureReport d = analyse_capture(c, display);
    EXPECT_FALSE(d.generation.detected);
    EXPECT_EQ(timeline_label(d), "display timeline");
}

TEST(FrameGenerationReport, PCLatencyAlternationIsEvidenceWhenPresentsAreEven) {
    // Evenly paced generated frames: the presents do not alternate, the PC latency does (the
    // application's frame and the generated one differ), as on FrameView logs.
    Capture c = synthetic_capture(std::vector<std::int64_t>(400, ms(8)));
    for (std::size_t i = 0; i < c.frames(); ++i)
        c.pc_latency_ns.push_back(i % 2 ? ms(40) : ms(33));
    const CaptureReport r = analyse_capture(c, {});
    ASSERT_TRUE(r.generation.detected);
    EXPECT_EQ(r.generation.evidence.front().column, "MsPCLatency");
    EXPECT_DOUBLE_EQ(*figure_value(r, "app_p99_ms"), 16.0);
    // NA throughout: not examined, and the presents alone do not tell.
    c.pc_latency_ns.assign(c.frames(), -1);
    const CaptureReport na = analyse_capture(c, {});
    EXPECT_FALSE(na.generation.detected);
    EXPECT_FALSE(figure_value(na, "app_p99_ms").has_value());
}

TEST(FrameGenerationReport, LoopscopeTracesAreNotExamined) {
    // The game's own loop never sees generated frames: an alternation there is the loop's.
    Capture c = synthetic_capture(alternating(400, ms(15), ms(1)));
    describe_as(c, "loopscope-trace");
    c.display_ns.clear();
    c.loop.resize(c.frames());
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_FALSE(r.generation.detected);
    const FigureValue v = figure_value(r, "detected_generation_share");
    EXPECT_NE(v.reason.find("game's own loop"), std::string::npos) << v.reason;
}

TEST(FrameGenerationReport, OrdinaryFramesAreNotDetectableAndTheReasonGivesTheEvidence) {
    const Capture c = synthetic_capture(std::vector<std::int64_t>(400, ms(16)));
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_FALSE(r.generation.detected);
    EXPECT_EQ(timeline_label(r), "present timeline");
    EXPECT_EQ(r.displayed.frames, 0u);
    const FigureValue v = figure_value(r, "detected_generation_share");
    EXPECT_FALSE(v.has_value());
    EXPECT_NE(v.reason.find("not detectable from this capture"), std::string::npos) << v.reason;
    EXPECT_NE(v.reason.find("covers 0.00 %"), std::string::npos) << v.reason;
    // Said in the summary, not left out.
    bool said = false;
    for (const SummaryRow& row : summary_rows(r))
        said = said || (row.label == "frame generation" &&
                        row.value.starts_with("not detectable from this capture"));
    EXPECT_TRUE(said);
}

// The patterns that made false claims on logs recorded without frame generation, each alone in
// a column that is not MsPCLatency: possible at most, never detected, and the timeline stays the
// presents'.
TEST(FrameGenerationReport, PatternsWithoutFrameGenerationAreNeverDetected) {
    const std::size_t n = 600;
    const auto check = [](const Capture& c, const std::string& column) {
        SCOPED_TRACE(column);
        const CaptureReport r = analyse_capture(c, {});
        EXPECT_FALSE(r.generation.detected);
        EXPECT_TRUE(r.generation.possible);
        EXPECT_EQ(r.generation.evidence.front().column, column);
        EXPECT_FALSE(r.application_estimated);
        EXPECT_EQ(timeline_label(r), "present timeline");
        EXPECT_FALSE(figure_value(r, "detected_generation_share").has_value());
        bool said = false;
        for (const SummaryRow& row : summary_rows(r)) {
            said = said || (row.label == "frame generation" &&
                            row.value.starts_with("possible, not detected: " + column));
        }
        EXPECT_TRUE(said);
    };
    // A steady PC latency beside every pattern (a few percent of jitter, no cycle).
    const auto steady_latency = [&] {
        std::vector<std::int64_t> v;
        for (std::size_t i = 0; i < n; ++i)
            v.push_back(ms(25) + static_cast<std::int64_t>((i * 7919) % 500) * 1000);
        return v;
    };
    // 1. Above the refresh rate at low resolution: every other present waits a refresh, so
    //    MsUntilDisplayed alternates 0 and 21 ms.
    Capture until = synthetic_capture(std::vector<std::int64_t>(n, ms(5)));
    until.pc_latency_ns = steady_latency();
    for (std::size_t i = 0; i < n; ++i)
        until.until_displayed_ns.push_back(i % 2 ? ms(21) : 0);
    check(until, "MsUntilDisplayed");
    // 2. The present call's cost alternating slightly (0.50 / 0.47 ms).
    Capture in_api = synthetic_capture(std::vector<std::int64_t>(n, ms(7)));
    in_api.pc_latency_ns = steady_latency();
    for (std::size_t i = 0; i < n; ++i)
        in_api.in_present_api_ns.push_back(i % 2 ? 470'000 : 500'000);
    check(in_api, "MsInPresentAPI");
    // 3. The render-present latency alternating slightly (2.00 / 1.88 ms).
    Capture render = synthetic_capture(std::vector<std::int64_t>(n, ms(7)));
    for (std::size_t i = 0; i < n; ++i)
        render.render_present_latency_ns.push_back(i % 2 ? 1'880'000 : 2'000'000);
    check(render, "MsRenderPresentLatency");
    // 4. A frame cap's period-4 pattern in the presents (6.9, 6.9, 6.9, 7.6 ms), off any grid.
    std::vector<std::int64_t> capped;
    for (std::size_t i = 0; i < n; ++i)
        capped.push_back(i % 4 == 3 ? 7'600'000 : 6'900'000);
    Capture cap = synthetic_capture(capped);
    cap.display_ns.clear();  // a plain list of frame times
    check(cap, "msBetweenPresents");
}

TEST(FrameGenerationReport, MarkedFramesGiveEveryCadenceAndNameTheMixedTimeline) {
    Capture c = synthetic_capture(alternating(400, ms(15), ms(1)));
    c.generated.resize(c.frames());
    for (std::size_t i = 0; i < c.generated.size(); ++i)
        c.generated[i] = i % 2 == 0 ? 1 : 0;
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_TRUE(r.has_generated);
    EXPECT_FALSE(r.generation.detected);  // marked: nothing to detect
    EXPECT_EQ(timeline_label(r), "present timeline (application and generated frames mixed)");
    EXPECT_DOUBLE_EQ(*figure_value(r, "app_p99_ms"), 16.0);
    EXPECT_DOUBLE_EQ(*figure_value(r, "app_stutter_time_share"), 0.0);
    EXPECT_DOUBLE_EQ(*figure_value(r, "displayed_fps"), 400.0 / (200.0 * 16.0 / 1000.0));
    EXPECT_FALSE(figure_value(r, "detected_generation_share").has_value());

    // PresentMon 2.x: the present timeline holds the application frames only, nothing mixed,
    // and the heading says so.
    describe_as(c, "presentmon-2");
    const CaptureReport v2 = analyse_capture(c, {});
    EXPECT_TRUE(v2.has_generated);
    EXPECT_EQ(v2.generated_without_frame_time, 200u);
    EXPECT_FALSE(timeline_mixes_generated(v2));
    EXPECT_EQ(timeline_label(v2),
              "present timeline (application frames only: this layout has no present times for "
              "generated frames)");
}

// Marked frame generation: generated (even) and application (odd) presents alternating.
Capture marked_capture(std::vector<std::int64_t> frames) {
    Capture c = synthetic_capture(std::move(frames));
    c.generated.resize(c.frames());
    for (std::size_t i = 0; i < c.generated.size(); ++i)
        c.generated[i] = i % 2 == 0 ? 1 : 0;
    return c;
}

TEST(FrameGenerationReport, WithoutStartUpEachCadenceIsGivenAfterTheSegment) {
    // 30 loading presents of 100 ms, then 400 evenly paced presents 8 ms apart, generated and
    // application in turn. (Presents alternating 15 / 1 ms would leave no start-up segment to
    // find on the mixed timeline: half of them are far off its median.)
    std::vector<std::int64_t> frames(30, ms(100));
    frames.insert(frames.end(), 400, ms(8));
    const Capture c = marked_capture(frames);
    const CaptureReport r = analyse_capture(c, {});
    ASSERT_GT(r.startup.frames, 0u) << r.startup.reason;
    // Over the whole range the loading presents sit in the application intervals (200 ms each);
    // after the segment the application runs every 16 ms.
    EXPECT_GT(r.application.interval.p99_ms, 100.0);
    const std::size_t after = r.startup.frames;
    const std::span<const std::int64_t> steady_frames =
        std::span<const std::int64_t>(c.frame_ns).subspan(after);
    const std::span<const std::uint8_t> steady_generated =
        std::span<const std::uint8_t>(c.generated).subspan(after);
    const CadenceFigures expected = cadence_figures(steady_frames, steady_generated, false);
    EXPECT_EQ(r.steady_application.frames, expected.frames);
    EXPECT_DOUBLE_EQ(r.steady_application.interval.p99_ms, expected.interval.p99_ms);
    EXPECT_DOUBLE_EQ(r.steady_application.average_fps, expected.average_fps);
    EXPECT_EQ(after, 30u);
    EXPECT_DOUBLE_EQ(r.steady_application.interval.p99_ms, 16.0);
    EXPECT_EQ(r.steady_displayed.frames, c.frames() - after);

    // Both rows in the summary's "Without start-up" section, beside the mixed headline.
    int rows = 0;
    for (const SummaryRow& row : summary_rows(r)) {
        if (row.section == "Without start-up" &&
            (row.label == "application frames" || row.label == "displayed frames"))
            ++rows;
    }
    EXPECT_EQ(rows, 2);

    // Without frame generation the rows are absent, not zero.
    // (A report points into its capture: the capture must outlive it.)
    const Capture plain_capture =
        synthetic_capture(std::vector<std::int64_t>(frames.begin(), frames.begin() + 60));
    const CaptureReport plain = analyse_capture(plain_capture, {});
    for (const SummaryRow& row : summary_rows(plain))
        EXPECT_NE(row.label, "application frames") << row.section;
}

TEST(FrameGenerationCompare, BothMarkedCompareOnTheApplicationsFrames) {
    // A: the application every 16 ms. B: every 20 ms (a 19 ms generated present then 1 ms).
    const Capture ca = marked_capture(alternating(600, ms(15), ms(1)));
    const Capture cb = marked_capture(alternating(600, ms(19), ms(1)));
    const CaptureReport a = analyse_capture(ca, {});
    const CaptureReport b = analyse_capture(cb, {});
    const Comparison one = compare_captures(a, b, 60, kBootstrapSeed, {}, 1);
    EXPECT_EQ(one.timeline, ComparedTimeline::application);
    const auto find = [&](const Comparison& c, const std::string& key) {
        const auto it = std::find_if(c.figures.begin(), c.figures.end(),
                                     [&](const FigureDifference& d) { return d.name == key; });
        EXPECT_NE(it, c.figures.end()) << key;
        return it == c.figures.end() ? FigureDifference{} : *it;
    };
    // The headline figures of the application's intervals, not of the mixed presents.
    const FigureDifference p99 = find(one, "p99_ms");
    EXPECT_DOUBLE_EQ(p99.a, 16.0);
    EXPECT_DOUBLE_EQ(p99.b, 20.0);
    EXPECT_TRUE(p99.significant);
    EXPECT_EQ(p99.verdict, Verdict::worse);
    EXPECT_EQ(find(one, "avg_fps").verdict, Verdict::worse);
    EXPECT_NEAR(find(one, "avg_fps").b, 50.0, 1e-9);
    // Each tool's figures are of the present-to-present times: absent, with the reason.
    const auto absent =
        std::find_if(one.absent.begin(), one.absent.end(),
                     [](const AbsentDifference& d) { return d.name == "frameview_avg_fps"; });
    ASSERT_NE(absent, one.absent.end());
    EXPECT_NE(absent->reason.find("application timeline"), std::string::npos);
    for (const FigureDifference& d : one.figures)
        EXPECT_FALSE(d.name.starts_with("frameview_")) << d.name;

    // The threads change nothing but the time taken.
    const Comparison two = compare_captures(a, b, 60, kBootstrapSeed, {}, 2);
    ASSERT_EQ(one.figures.size(), two.figures.size());
    for (std::size_t i = 0; i < one.figures.size(); ++i) {
        EXPECT_EQ(one.figures[i].low, two.figures[i].low) << one.figures[i].name;
        EXPECT_EQ(one.figures[i].high, two.figures[i].high) << one.figures[i].name;
    }

    // Marked against unmarked: the unmarked capture (every fifth frame longer: no cycle of two
    // to four frames) has no application frames of its own, and its present timeline is not
    // the marked one's; both have display-change times, so the displayed frames are compared.
    std::vector<std::int64_t> plain_frames(600, ms(16));
    for (std::size_t i = 0; i < plain_frames.size(); i += 5)
        plain_frames[i] = ms(17);
    const Capture cp = synthetic_capture(plain_frames);
    const CaptureReport p = analyse_capture(cp, {});
    std::string reason;
    EXPECT_EQ(choose_timeline(a, p, &reason), ComparedTimeline::display);
    EXPECT_NE(reason.find("mixed"), std::string::npos) << reason;
    const Comparison mixed = compare_captures(a, p, 60);
    EXPECT_EQ(mixed.timeline, ComparedTimeline::display);
    // Both displayed a frame every 8 ms.
    EXPECT_DOUBLE_EQ(find(mixed, "p99_ms").difference, 0.0);
    EXPECT_TRUE(mixed.paired);
    // Two unmarked captures of every present compare on the present timeline.
    EXPECT_EQ(choose_timeline(p, p), ComparedTimeline::present);
}

// A copy of a CSV capture without its FrameType column: what a log that cannot mark generated
// frames (FrameView, PresentMon 1.x) would hold for the same recording.
std::string without_frame_type(const std::string& path, const std::string& dir) {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream lines(text);
    std::string line, out;
    std::size_t column = std::string::npos;
    while (std::getline(lines, line)) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ','))
            cells.push_back(cell);
        if (column == std::string::npos) {
            for (std::size_t i = 0; i < cells.size(); ++i) {
                if (cells[i] == "FrameType")
                    column = i;
            }
        }
        if (column < cells.size())
            cells.erase(cells.begin() + static_cast<std::ptrdiff_t>(column));
        for (std::size_t i = 0; i < cells.size(); ++i)
            out += (i ? "," : "") + cells[i];
        out += "\n";
    }
    const std::string copy = dir + "/no_frame_type.csv";
    test::write_text(copy, out);
    return copy;
}

TEST(FrameGenerationRealCaptures, DetectedOnlyWhereTheRecordingHasFrameGeneration) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    // test_case_9 in the 1.x layout is the XeSS-FG recording whose 2.x layout marks the frames;
    // every other capture without FrameType is an ordinary one (frameview_set has its own test).
    std::vector<std::string> paths;
    for (const auto& e : std::filesystem::directory_iterator(test::captures_dir())) {
        if (e.path().extension() == ".csv")
            paths.push_back(e.path().string());
    }
    for (const std::string& name : test::test_data_captures())
        paths.push_back(test::test_data(name));
    ASSERT_GE(paths.size(), 20u);
    for (const std::string& path : paths) {
        const Capture c = read_capture(path);
        const CaptureReport r = analyse_capture(c, {});
        const bool fg = path.ends_with("IPMAuxTestData_test_case_9_v1.csv") ||
                        path.ends_with("presentmon1_xess_fg.csv");
        // No MsPCLatency in any of them: the cycles make frame generation possible, never
        // detected.
        EXPECT_FALSE(r.generation.detected) << path;
        EXPECT_EQ(r.generation.possible, fg) << path;
        if (!fg && r.generation.examined) {
            // Not a near miss: ordinary captures stay far below the share (docs/reports.md).
            EXPECT_LT(r.generation.evidence.front().share, kGenerationMinShare / 2) << path;
        }
    }
    const CaptureReport v1 =
        analyse_capture(read_capture(test::capture("IPMAuxTestData_test_case_9_v1.csv")), {});
    ASSERT_TRUE(v1.generation.possible);
    EXPECT_GT(v1.generation.evidence.front().share, 0.6);
    EXPECT_EQ(v1.generation.evidence.front().period, 2);
    // Possible only: nothing is estimated, and the present timeline is the presents'.
    EXPECT_FALSE(v1.application_estimated);
    EXPECT_EQ(timeline_label(v1), "present timeline");
    EXPECT_GT(v1.displayed.frames, 0u);
}

TEST(FrameGenerationRealCaptures, RemovingFrameTypeTurnsMarksIntoADetection) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string path = test::capture("IPMAuxTestData_test_case_8.csv");
    const Capture marked = read_capture(path);
    const CaptureReport m = analyse_capture(marked, {});
    ASSERT_TRUE(m.has_generated);
    // The application frames run near 65 FPS while the presents alternate: their stutter and
    // percentiles are their own, not those of the mixed timeline.
    EXPECT_GT(m.application.interval.p50_ms, 2 * m.stats.frame_time.p50_ms);
    EXPECT_GT(m.displayed.frames, 0u);

    const std::string dir = test::make_temp_dir("loopscope-fg");
    const Capture stripped = read_capture(without_frame_type(path, dir));
    ASSERT_TRUE(stripped.generated.empty());
    const CaptureReport s = analyse_capture(stripped, {});
    // Its MsPCLatency cells are NA: only other columns cycle, so frame generation is possible.
    EXPECT_FALSE(s.generation.detected);
    EXPECT_TRUE(s.generation.possible);
    EXPECT_GT(s.generation.evidence.front().share, 0.99);
    // The displayed cadence does not need the marks: the same with and without them.
    EXPECT_EQ(s.displayed.frames, m.displayed.frames);
    EXPECT_DOUBLE_EQ(s.displayed.interval.p99_ms, m.displayed.interval.p99_ms);
    EXPECT_DOUBLE_EQ(s.displayed.stutter.time_share, m.displayed.stutter.time_share);
    std::filesystem::remove_all(dir);
}

TEST(FrameGenerationTestData, XeSSThreeFrameCyclesInThePresentMon1Layout) {
    const Capture c = read_capture(test::test_data("presentmon1_xess_fg.csv"));
    ASSERT_TRUE(c.generated.empty());  // the 1.x layout has no FrameType
    const CaptureReport r = analyse_capture(c, {});
    // The presents' three-frame cycles alone: possible (a frame cap's pattern can make such
    // cycles too), with the evidence, and nothing estimated from them.
    ASSERT_FALSE(r.generation.detected);
    ASSERT_TRUE(r.generation.possible);
    EXPECT_EQ(r.generation.evidence.front().period, 3);
    EXPECT_EQ(r.generation.evidence.front().column, "msBetweenPresents");
    EXPECT_GT(r.generation.evidence.front().share, 0.9);
    EXPECT_FALSE(r.application_estimated);
    // The JSON's frame_generation object says so.
    const std::string dir = test::make_temp_dir("loopscope-xess");
    const auto run = test::run_loopscope("report --format json -o '" + dir + "/r.json' '" +
                                         test::test_data("presentmon1_xess_fg.csv") + "'");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::string json = test::read_text(dir + "/r.json");
    EXPECT_EQ(json.find("\"estimated\": true"), std::string::npos);
    EXPECT_NE(json.find("\"verdict\": \"possible\""), std::string::npos);
    std::filesystem::remove_all(dir);
}

// The rule on the 30 FrameView logs of frameview_set, whose PROVENANCE.md says which had frame
// generation on: every one of them detected, none of the others, with the margins of
// docs/reports.md; and a fixed refresh, where one is claimed, that the PC's 120 Hz display
// explains.
TEST(FrameGenerationRealCaptures, FrameViewSetEveryFrameGenerationLogAndNoOther) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::filesystem::path dir = std::filesystem::path(test::captures_dir()) / "frameview_set";
    if (!std::filesystem::exists(dir / "PROVENANCE.md"))
        GTEST_SKIP() << dir.string() << " is absent";
    std::map<std::string, bool> with_fg;
    std::istringstream provenance(test::read_text((dir / "PROVENANCE.md").string()));
    for (std::string line; std::getline(provenance, line);) {
        const std::size_t end = line.find(".csv | ");
        if (!line.starts_with("| fv") || end == std::string::npos)
            continue;
        with_fg[line.substr(2, end + 4 - 2)] = line.compare(end + 7, 3, "yes") == 0;
    }
    ASSERT_EQ(with_fg.size(), 30u);
    std::size_t read = 0, detected = 0;
    std::string unread;
    for (const auto& [name, fg] : with_fg) {
        SCOPED_TRACE(name);
        Capture c;
        try {
            c = read_capture((dir / name).string());
        } catch (const InputError& e) {
            unread += std::string("\n  ") + e.what();  // cells this reader does not take yet
            continue;
        }
        ++read;
        const CaptureReport r = analyse_capture(c, {});
        ASSERT_TRUE(r.generation.examined);
        const GenerationEvidence& best = r.generation.evidence.front();
        // The file name says which had frame generation ("fg"), as PROVENANCE.md does.
        EXPECT_EQ(name.find("-fg") != std::string::npos, fg);
        const bool have_latency = std::any_of(c.pc_latency_ns.begin(), c.pc_latency_ns.end(),
                                              [](std::int64_t v) { return v >= 0; });
        // Detected on every log with frame generation and MsPCLatency, on none without frame
        // generation; a log with it but without MsPCLatency: possible.
        EXPECT_EQ(r.generation.detected, fg && have_latency) << best.column << " " << best.share;
        EXPECT_EQ(r.generation.possible, fg && !have_latency) << best.column << " " << best.share;
        if (fg) {
            detected += r.generation.detected ? 1 : 0;
            EXPECT_GE(best.share, 0.6) << best.column;  // the margin above the 25 % threshold
            EXPECT_EQ(r.application_estimated, have_latency);
            // The logs with MsPCLatency: it alternates on 99 % of the frames or more.
            if (have_latency) {
                EXPECT_EQ(best.column, "MsPCLatency");
                EXPECT_GE(best.share, 0.99);
            }
        } else {
            EXPECT_LT(best.share, 0.1) << best.column;  // the margin below it
        }
        const RefreshGuess& g = r.stats.refresh;
        if (g.state == RefreshGuess::State::fixed) {
            EXPECT_EQ(120 % g.rate_hz, 0) << g.rate_hz;
        }
        if (g.direct_share >= 0.5 && g.follows_share >= kRefreshMinFollowShare) {
            EXPECT_EQ(g.state, RefreshGuess::State::follows_presents);
        }
        if (g.direct_share == 0.0) {  // composed flips: the display's own 120 Hz grid
            EXPECT_EQ(g.rate_hz, 120);
        }
    }
    if (!unread.empty())
        std::cout << "frameview_set logs not read:" << unread << "\n";
    EXPECT_GE(read, 20u);
    EXPECT_GE(detected, 5u);
}

}  // namespace
}  // namespace loopscope
