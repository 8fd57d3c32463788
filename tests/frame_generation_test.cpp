// Frame generation per cadence: the figures of the application and the displayed frames on
// their own cadence, the mixed present timeline named as such, and the suspicion raised from
// the alternation of present-to-present times when a capture does not mark generated frames.
// Synthetic frames pin the rule exactly; the shared real captures show where it fires.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/comparison.hpp"
#include "core/figures.hpp"
#include "reports/readers.hpp"
#include "reports/writer.hpp"
#include "tests/test_support.hpp"

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

TEST(FrameGenerationSuspicion, FiresOnPresentsAlternatingBetweenTwoClusters) {
    // 15 ms / 1 ms: dips at the odd frames 1..397 (frame 399 is last, with no neighbour after
    // it), so frames 0..398 are covered.
    const auto frames = alternating(400, ms(15), ms(1));
    const GenerationSuspicion g = suspect_frame_generation(frames);
    EXPECT_TRUE(g.suspected);
    EXPECT_EQ(g.frames, 400u);
    EXPECT_EQ(g.covered_frames, 399u);
    EXPECT_DOUBLE_EQ(g.alternating_share, 399.0 / 400.0);
    EXPECT_EQ(g.runs, 1u);
    EXPECT_EQ(g.longest_run_dips, 199u);
    EXPECT_DOUBLE_EQ(g.short_mean_ms, 1.0);
    EXPECT_DOUBLE_EQ(g.long_mean_ms, 15.0);
}

TEST(FrameGenerationSuspicion, DoesNotFireOnOrdinaryFrames) {
    // Steady frames with jitter of a few percent.
    std::vector<std::int64_t> steady;
    for (std::size_t i = 0; i < 1000; ++i)
        steady.push_back(ms(16) + static_cast<std::int64_t>((i * 7919) % 1000) * 1000);
    const GenerationSuspicion s = suspect_frame_generation(steady);
    EXPECT_FALSE(s.suspected);
    EXPECT_EQ(s.longest_run_dips, 0u);
    EXPECT_EQ(s.covered_frames, 0u);

    // Isolated short frames (one every 10 frames) are dips but not an alternation.
    std::vector<std::int64_t> isolated(1000, ms(16));
    for (std::size_t i = 5; i < isolated.size(); i += 10)
        isolated[i] = ms(1);
    const GenerationSuspicion iso = suspect_frame_generation(isolated);
    EXPECT_FALSE(iso.suspected);
    EXPECT_EQ(iso.longest_run_dips, 1u);
    EXPECT_EQ(iso.runs, 0u);

    // Alternation by less than a factor of two (10 ms / 6 ms) is frame-time noise, not a dip.
    EXPECT_FALSE(suspect_frame_generation(alternating(400, ms(10), ms(6))).suspected);
    // Exactly half a neighbour is not below half of it.
    EXPECT_EQ(suspect_frame_generation(alternating(400, ms(10), ms(5))).longest_run_dips, 0u);
    EXPECT_FALSE(suspect_frame_generation({}).suspected);
}

TEST(FrameGenerationSuspicion, ThresholdsOnRunLengthAndShare) {
    // A run of kGenerationMinRunDips - 1 dips is not counted; one of kGenerationMinRunDips is.
    const auto with_run = [](std::size_t dips, std::size_t n) {
        std::vector<std::int64_t> f(n, ms(16));
        for (std::size_t k = 0; k < dips; ++k)
            f[1 + 2 * k] = ms(2);
        return f;
    };
    const GenerationSuspicion seven = suspect_frame_generation(with_run(7, 100));
    EXPECT_EQ(seven.longest_run_dips, 7u);
    EXPECT_EQ(seven.runs, 0u);
    EXPECT_FALSE(seven.suspected);
    // 8 dips cover frames 0..16: 17 of 100 frames, above the 10 % share.
    const GenerationSuspicion eight = suspect_frame_generation(with_run(8, 100));
    EXPECT_EQ(eight.runs, 1u);
    EXPECT_EQ(eight.covered_frames, 17u);
    EXPECT_TRUE(eight.suspected);
    EXPECT_DOUBLE_EQ(eight.short_mean_ms, 2.0);
    EXPECT_DOUBLE_EQ(eight.long_mean_ms, 16.0);
    // The same run in 200 frames covers 8.5 %: below the share, not suspected.
    const GenerationSuspicion diluted = suspect_frame_generation(with_run(8, 200));
    EXPECT_EQ(diluted.runs, 1u);
    EXPECT_FALSE(diluted.suspected);
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
    c.source.format = "presentmon-1";
    c.source.file = "synthetic.csv";
    c.display_ns = std::vector<std::int64_t>(frames.size(), ms(8));
    c.frame_ns = std::move(frames);
    return c;
}

TEST(FrameGenerationReport, UnmarkedAlternationIsSuspectedAndSaid) {
    const Capture c = synthetic_capture(alternating(400, ms(15), ms(1)));
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_TRUE(r.generation_suspicion.suspected);
    EXPECT_FALSE(r.has_generated);
    EXPECT_EQ(timeline_label(r),
              "present timeline (frame generation suspected: application and generated frames "
              "mixed)");
    EXPECT_EQ(r.displayed.frames, 400u);
    EXPECT_DOUBLE_EQ(*figure_value(r, "suspected_generation_share"), 399.0 / 400.0);
    EXPECT_DOUBLE_EQ(*figure_value(r, "displayed_p99_ms"), 8.0);
    // The application frames cannot be told apart without FrameType.
    EXPECT_FALSE(figure_value(r, "app_p99_ms").has_value());

    // The display timeline is not split and says nothing is suspected there.
    AnalysisOptions display;
    display.timeline = Timeline::display;
    const CaptureReport d = analyse_capture(c, display);
    EXPECT_FALSE(d.generation_suspicion.suspected);
    EXPECT_EQ(timeline_label(d), "display timeline");
}

TEST(FrameGenerationReport, LoopscopeTracesAreNotExamined) {
    // The game's own loop never sees generated frames: an alternation there is the loop's.
    Capture c = synthetic_capture(alternating(400, ms(15), ms(1)));
    c.source.format = "loopscope-trace";
    c.display_ns.clear();
    c.loop.resize(c.frames());
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_FALSE(r.generation_suspicion.suspected);
    const FigureValue v = figure_value(r, "suspected_generation_share");
    EXPECT_NE(v.reason.find("game's own loop"), std::string::npos) << v.reason;
}

TEST(FrameGenerationReport, OrdinaryFramesAreNotSuspectedAndTheReasonGivesTheEvidence) {
    const Capture c = synthetic_capture(std::vector<std::int64_t>(400, ms(16)));
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_FALSE(r.generation_suspicion.suspected);
    EXPECT_EQ(timeline_label(r), "present timeline");
    EXPECT_EQ(r.displayed.frames, 0u);
    const FigureValue v = figure_value(r, "suspected_generation_share");
    EXPECT_FALSE(v.has_value());
    EXPECT_NE(v.reason.find("frame generation not suspected: 0.00 %"), std::string::npos)
        << v.reason;
}

TEST(FrameGenerationReport, MarkedFramesGiveEveryCadenceAndNameTheMixedTimeline) {
    Capture c = synthetic_capture(alternating(400, ms(15), ms(1)));
    c.generated.resize(c.frames());
    for (std::size_t i = 0; i < c.generated.size(); ++i)
        c.generated[i] = i % 2 == 0 ? 1 : 0;
    const CaptureReport r = analyse_capture(c, {});
    EXPECT_TRUE(r.has_generated);
    EXPECT_FALSE(r.generation_suspicion.suspected);  // marked: nothing to suspect
    EXPECT_EQ(timeline_label(r), "present timeline (application and generated frames mixed)");
    EXPECT_DOUBLE_EQ(*figure_value(r, "app_p99_ms"), 16.0);
    EXPECT_DOUBLE_EQ(*figure_value(r, "app_stutter_share"), 0.0);
    EXPECT_DOUBLE_EQ(*figure_value(r, "displayed_fps"), 400.0 / (200.0 * 16.0 / 1000.0));
    EXPECT_FALSE(figure_value(r, "suspected_generation_share").has_value());

    // PresentMon 2.x: the present timeline holds the application frames only, nothing mixed,
    // and the heading says so.
    c.source.format = "presentmon-2";
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

TEST(FrameGenerationCompare, EachCadenceIsComparedOnItsOwnIntervals) {
    // A: the application every 16 ms. B: every 20 ms (a 19 ms generated present then 1 ms).
    const Capture ca = marked_capture(alternating(600, ms(15), ms(1)));
    const Capture cb = marked_capture(alternating(600, ms(19), ms(1)));
    const CaptureReport a = analyse_capture(ca, {});
    const CaptureReport b = analyse_capture(cb, {});
    const Comparison one = compare_captures(a, b, 60, kBootstrapSeed, {}, 1);
    const auto find = [&](const Comparison& c, const std::string& key) {
        const auto it = std::find_if(c.figures.begin(), c.figures.end(),
                                     [&](const FigureDifference& d) { return d.name == key; });
        EXPECT_NE(it, c.figures.end()) << key;
        return *it;
    };
    const FigureDifference app = find(one, "app_p99_ms");
    EXPECT_DOUBLE_EQ(app.a, 16.0);
    EXPECT_DOUBLE_EQ(app.b, 20.0);
    EXPECT_TRUE(app.significant);
    EXPECT_GT(one.block_application_a, 0u);
    // Both have display-change times (8 ms apart): the displayed cadence did not change.
    const FigureDifference shown = find(one, "displayed_p99_ms");
    EXPECT_DOUBLE_EQ(shown.difference, 0.0);
    EXPECT_FALSE(shown.significant);
    EXPECT_NE(comparison_method(one).find("application figures resample that cadence's"),
              std::string::npos);

    // The threads change nothing but the time taken, for these figures too.
    const Comparison two = compare_captures(a, b, 60, kBootstrapSeed, {}, 2);
    ASSERT_EQ(one.figures.size(), two.figures.size());
    for (std::size_t i = 0; i < one.figures.size(); ++i) {
        EXPECT_EQ(one.figures[i].low, two.figures[i].low) << one.figures[i].name;
        EXPECT_EQ(one.figures[i].high, two.figures[i].high) << one.figures[i].name;
    }

    // Captures without frame generation compare the frame-time figures only, with the same
    // intervals as before the per-cadence figures existed (their generator is apart).
    const Capture cpa = synthetic_capture(alternating(600, ms(16), ms(17)));
    const Capture cpb = synthetic_capture(alternating(600, ms(16), ms(18)));
    const CaptureReport pa = analyse_capture(cpa, {});
    const CaptureReport pb = analyse_capture(cpb, {});
    const Comparison plain = compare_captures(pa, pb, 60);
    EXPECT_EQ(plain.figures.size(), compared_figures(pa, pb).size());
    EXPECT_EQ(plain.block_application_a, 0u);
    // One side without marks: the application cadence is not compared.
    const Comparison mixed = compare_captures(a, pb, 60);
    for (const FigureDifference& d : mixed.figures)
        EXPECT_NE(d.name, "app_p99_ms");
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

TEST(FrameGenerationRealCaptures, SuspectedOnlyWhereTheRecordingHasFrameGeneration) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    // test_case_9 in the 1.x layout is the XeSS-FG recording whose 2.x layout marks the frames;
    // every other capture without FrameType is an ordinary one.
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
        const bool fg = path.ends_with("IPMAuxTestData_test_case_9_v1.csv");
        EXPECT_EQ(r.generation_suspicion.suspected, fg)
            << path << ": " << r.generation_suspicion.alternating_share;
        if (!fg && c.generated.size() != c.frames() && c.per_frame) {
            // Not a near miss: no ordinary capture has a single frame below half of both
            // neighbours (docs/reports.md, "Frame generation without FrameType").
            EXPECT_EQ(r.generation_suspicion.longest_run_dips, 0u) << path;
        }
    }
    const CaptureReport v1 =
        analyse_capture(read_capture(test::capture("IPMAuxTestData_test_case_9_v1.csv")), {});
    EXPECT_GT(v1.generation_suspicion.alternating_share, 0.6);
    EXPECT_LT(v1.generation_suspicion.short_mean_ms, 3.0);
    EXPECT_GT(v1.generation_suspicion.long_mean_ms, 10.0);
    EXPECT_GT(v1.displayed.frames, 0u);
}

TEST(FrameGenerationRealCaptures, RemovingFrameTypeTurnsMarksIntoASuspicion) {
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
    EXPECT_TRUE(s.generation_suspicion.suspected);
    EXPECT_GT(s.generation_suspicion.alternating_share, 0.99);
    // The displayed cadence does not need the marks: the same with and without them.
    EXPECT_EQ(s.displayed.frames, m.displayed.frames);
    EXPECT_DOUBLE_EQ(s.displayed.interval.p99_ms, m.displayed.interval.p99_ms);
    EXPECT_DOUBLE_EQ(s.displayed.stutter.time_share, m.displayed.stutter.time_share);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
