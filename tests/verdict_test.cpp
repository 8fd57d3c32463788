// The verdict every report opens with (core/verdict.hpp): its rules on made-up captures whose
// answer is known, every line checked against the analysis on every shared capture, and where
// the terminal, Markdown, HTML and JSON reports put it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/errors.hpp"
#include "core/analysis.hpp"
#include "core/comparison.hpp"
#include "core/verdict.hpp"
#include "readers/readers.hpp"
#include "tests/frames_capture.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

constexpr std::int64_t kMs = 1'000'000;

Capture make_capture(const std::vector<std::int64_t>& frame_ns) {
    return test::frames_capture(frame_ns, "presentmon-2.4");
}

std::vector<std::string> keys(const CaptureVerdict& v) {
    std::vector<std::string> k;
    for (const VerdictLine& l : v.lines)
        k.push_back(l.key);
    return k;
}

TEST(Verdict, EvenFramesAreSmooth) {
    const Capture c = make_capture(std::vector<std::int64_t>(1000, 10 * kMs));
    const CaptureReport r = analyse_capture(c, {});
    const CaptureVerdict v = capture_verdict(r);
    EXPECT_EQ(v.smoothness, Smoothness::smooth);
    ASSERT_TRUE(v.hitch_count.has_value());
    EXPECT_EQ(*v.hitch_count, 0u);
    EXPECT_EQ(v.line("hitches")->text, "none");
    ASSERT_TRUE(v.average_fps && v.low1_fps);
    EXPECT_DOUBLE_EQ(*v.average_fps, 100.0);
    EXPECT_DOUBLE_EQ(*v.low1_fps, 100.0);
    EXPECT_EQ(keys(v), (std::vector<std::string>{"smoothness", "hitches", "fps", "frame_generation",
                                                 "display", "latency", "data_quality"}));
    // Frame times alone say nothing of the display or latency: said so, no number.
    EXPECT_FALSE(v.line("display")->available);
    EXPECT_FALSE(v.line("latency")->available);
    EXPECT_TRUE(v.line("data_quality")->available);
    EXPECT_EQ(v.line("smoothness")->text.rfind("smooth: 0 hitches", 0), 0u)
        << v.line("smoothness")->text;
}

TEST(Verdict, FramesOfNoTimeGetNoRateAndNoSmoothness) {
    const Capture c = make_capture(std::vector<std::int64_t>(10, 0));
    const CaptureReport r = analyse_capture(c, {});
    const CaptureVerdict v = capture_verdict(r);
    EXPECT_EQ(v.smoothness, Smoothness::unknown);
    EXPECT_FALSE(v.stutter_time_share.has_value());
    EXPECT_FALSE(v.average_fps.has_value());
    EXPECT_FALSE(v.low1_fps.has_value());
    EXPECT_FALSE(v.line("fps")->available);
    EXPECT_EQ(v.line("fps")->text.find("0.00 FPS"), std::string::npos);
}

TEST(Verdict, OneHitchIsNotSmoothAndNamedWithItsLength) {
    std::vector<std::int64_t> frames(1000, 10 * kMs);
    frames[500] = 100 * kMs;  // > 60 ms and >= 1.5 x the frame before: an Unreal hitch
    frames[700] = 80 * kMs;
    const Capture c = make_capture(frames);
    const CaptureReport r = analyse_capture(c, {});
    const CaptureVerdict v = capture_verdict(r);
    EXPECT_EQ(v.smoothness, Smoothness::not_smooth);
    EXPECT_EQ(*v.hitch_count, 2u);
    ASSERT_EQ(v.longest_hitches.size(), 2u);
    EXPECT_EQ(v.longest_hitches[0].length_ns, 100 * kMs);  // longest first
    EXPECT_EQ(v.longest_hitches[0].index, 500u);
    EXPECT_EQ(v.longest_hitches[1].length_ns, 80 * kMs);
    EXPECT_EQ(v.line("hitches")->text.rfind("2 (", 0), 0u) << v.line("hitches")->text;
}

TEST(Verdict, StutterWithoutHitchesIsNotSmooth) {
    // Every 20th frame 40 ms among 10 ms frames: no hitch (< 60 ms), but CapFrameX's rule flags
    // each one (> 2.5 x the moving average), about 14 % of the time.
    std::vector<std::int64_t> frames(2000, 10 * kMs);
    for (std::size_t i = 10; i < frames.size(); i += 20)
        frames[i] = 40 * kMs;
    const Capture c = make_capture(frames);
    const CaptureReport r = analyse_capture(c, {});
    const CaptureVerdict v = capture_verdict(r);
    EXPECT_EQ(*v.hitch_count, 0u);
    ASSERT_TRUE(v.stutter_time_share.has_value());
    EXPECT_GE(*v.stutter_time_share, kSmoothMaxStutterShare);
    EXPECT_EQ(v.smoothness, Smoothness::not_smooth);
}

// A loop in a spiral presents evenly paced frames, yet its motion falls behind real time: the
// verdict is not smooth, and says why (the virtual clock: exact).
TEST(Verdict, ALoopInASpiralIsNotSmoothThoughItsFramesAreEven) {
    const std::string dir = test::make_temp_dir("verdict_loop");
    for (const auto& [scenario, smooth] :
         {std::pair<std::string, std::string>{"steady-60", "smooth"},
          std::pair<std::string, std::string>{"spiral-clamp-cap", "not smooth"}}) {
        SCOPED_TRACE(scenario);
        const std::string trace = dir + "/" + scenario + ".trace";
        test::RunResult run = test::run_loopscope("run --scenario " + scenario +
                                                  " --clock virtual -o " + test::quoted(trace));
        ASSERT_EQ(run.exit_code, 0) << run.err;
        run = test::run_loopscope("report --format json " + test::quoted(trace));
        ASSERT_EQ(run.exit_code, 0) << run.err;
        const nlohmann::json v = nlohmann::json::parse(run.out)["verdict"];
        EXPECT_EQ(v["smoothness"], smooth);
        EXPECT_EQ(v["hitch_count"], 0);
        const auto loop = std::find_if(v["lines"].begin(), v["lines"].end(),
                                       [](const nlohmann::json& l) { return l["key"] == "loop"; });
        ASSERT_NE(loop, v["lines"].end());
        const std::string text = (*loop)["text"];
        EXPECT_EQ(text.rfind(smooth == "smooth" ? "ok" : "spiral from frame", 0), 0u) << text;
        const std::string said = v["lines"][0]["text"];
        EXPECT_EQ(said.find("the loop is spiral") != std::string::npos, smooth != "smooth") << said;
    }
    std::filesystem::remove_all(dir);
}

// On the display timeline generated frames are frames like the others, but FrameType still
// marks them: the verdict says so rather than "none".
TEST(VerdictRealCaptures, DisplayTimelineStillNamesMarkedGeneratedFrames) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const Capture c = read_capture(test::capture("IPMAuxTestData_test_case_8.csv"));
    AnalysisOptions options;
    options.timeline = Timeline::display;
    const CaptureReport r = analyse_capture(c, options);
    const CaptureVerdict v = capture_verdict(r);
    const std::size_t generated = static_cast<std::size_t>(std::count_if(
        c.generated.begin(), c.generated.end(), [](std::uint8_t x) { return x != 0; }));
    ASSERT_GT(generated, 0u);
    EXPECT_EQ(v.line("frame_generation")
                  ->text.rfind("marked: " + std::to_string(generated) + " of the range's", 0),
              0u)
        << v.line("frame_generation")->text;
}

// One recording in two or three layouts gets one verdict: the same answer, the same longest
// hitch (frame and length to the 0.1 ms the verdict prints), the same refresh.
TEST(VerdictRealCaptures, LayoutsOfOneRecordingAgree) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const std::vector<std::string>& layouts :
         {std::vector<std::string>{"presentmon_gold_test_case_5.csv",
                                   "presentmon_gold_test_case_5_v1.csv",
                                   "presentmon_gold_test_case_5_v2.csv"},
          std::vector<std::string>{"IPMAuxTestData_test_case_9_v1.csv",
                                   "IPMAuxTestData_test_case_9_v2.csv"}}) {
        std::vector<Capture> captures;
        for (const std::string& name : layouts)
            captures.push_back(read_capture(test::capture(name)));
        std::vector<CaptureVerdict> verdicts;
        for (const Capture& c : captures)
            verdicts.push_back(capture_verdict(analyse_capture(c, {})));
        for (std::size_t i = 1; i < layouts.size(); ++i) {
            SCOPED_TRACE(layouts[0] + " vs " + layouts[i]);
            EXPECT_EQ(verdicts[i].smoothness, verdicts[0].smoothness);
            // The refresh, not the dropped share: 1.x keeps the last present, which 2.x drops.
            const auto refresh = [](const CaptureVerdict& v) {
                const std::string& t = v.line("display")->text;
                return t.substr(0, t.find(';'));
            };
            EXPECT_EQ(refresh(verdicts[i]), refresh(verdicts[0]));
            ASSERT_EQ(verdicts[i].longest_hitches.empty(), verdicts[0].longest_hitches.empty());
            if (verdicts[0].longest_hitches.empty())
                continue;
            const VerdictHitch& a = verdicts[0].longest_hitches.front();
            const VerdictHitch& b = verdicts[i].longest_hitches.front();
            EXPECT_NEAR(static_cast<double>(a.length_ns), static_cast<double>(b.length_ns), 5e4);
            EXPECT_EQ(a.cause_kind, b.cause_kind);
        }
    }
}

std::vector<std::string> shared_capture_files() {
    std::vector<std::string> files;
    for (const std::string& dir : {test::captures_dir(), test::captures_dir() + "/frameview_set",
                                   test::captures_dir() + "/afterburner"}) {
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            if (e.path().extension() != ".csv")
                continue;
            try {
                detect_format(e.path().string());
            } catch (const InputError&) {
                continue;  // FrameView's summary of whole captures: no frames
            }
            files.push_back(e.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Each line of the verdict agrees with the figures it rests on, on every shared capture.
TEST(VerdictRealCaptures, EveryLineHoldsOnEveryCapture) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::vector<std::string> files = shared_capture_files();
    ASSERT_GE(files.size(), 40u);
    std::size_t smooth = 0, not_smooth = 0, unknown = 0;
    // The threshold's margins (core/verdict.hpp): the most stutter of a hitch-free capture, the
    // least of a capture at or above the threshold without hitches (none on the shared ones).
    double hitch_free_most = 0;
    std::size_t stutter_only = 0;
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        const Capture c = read_capture(path);
        const CaptureReport r = analyse_capture(c, {});
        const CaptureVerdict v = capture_verdict(r);
        for (const VerdictLine& l : v.lines) {
            EXPECT_FALSE(l.text.empty()) << l.key;
            EXPECT_FALSE(l.evidence.empty()) << l.key;
        }
        if (!c.per_frame) {
            // Rows are samples: no hitch, stutter or smoothness can be said.
            ++unknown;
            EXPECT_EQ(v.smoothness, Smoothness::unknown);
            EXPECT_FALSE(v.hitch_count.has_value());
            EXPECT_FALSE(v.line("smoothness")->available);
            EXPECT_FALSE(v.line("hitches")->available);
            EXPECT_FALSE(v.low1_fps.has_value());
            continue;
        }
        const auto& hitches = r.stats.hitches.hitches;
        ASSERT_TRUE(v.hitch_count.has_value());
        EXPECT_EQ(*v.hitch_count, hitches.size());
        // "smooth" is never said of a capture with a hitch or with stutter at the threshold.
        if (v.smoothness == Smoothness::smooth) {
            ++smooth;
            EXPECT_TRUE(hitches.empty());
            ASSERT_TRUE(v.stutter_time_share.has_value());
            EXPECT_LT(*v.stutter_time_share, kSmoothMaxStutterShare);
        } else {
            ++not_smooth;
            EXPECT_EQ(v.smoothness, Smoothness::not_smooth);
            EXPECT_TRUE(!hitches.empty() || *v.stutter_time_share >= kSmoothMaxStutterShare);
        }
        EXPECT_EQ(v.line("smoothness")->text.rfind(smoothness_name(v.smoothness), 0), 0u);
        if (hitches.empty() && v.stutter_time_share) {
            hitch_free_most = std::max(hitch_free_most, *v.stutter_time_share);
            stutter_only += *v.stutter_time_share >= kSmoothMaxStutterShare ? 1 : 0;
        }
        // The longest hitches, longest first, the longest being the longest of all.
        ASSERT_EQ(v.longest_hitches.size(), std::min(hitches.size(), kVerdictHitches));
        for (std::size_t k = 1; k < v.longest_hitches.size(); ++k)
            EXPECT_GE(v.longest_hitches[k - 1].length_ns, v.longest_hitches[k].length_ns);
        if (!hitches.empty()) {
            std::int64_t longest = 0;
            for (const Hitch& h : hitches)
                longest = std::max(longest, h.frame_ns);
            EXPECT_EQ(v.longest_hitches.front().length_ns, longest);
            EXPECT_FALSE(v.longest_hitches.front().cause.empty());
        } else {
            EXPECT_EQ(v.line("hitches")->text, "none");
        }
        // Average FPS and the 1 % low are the report's own figures.
        ASSERT_TRUE(v.average_fps && v.low1_fps);
        EXPECT_EQ(*v.average_fps, r.stats.fps.average);
        EXPECT_EQ(*v.low1_fps, r.stats.fps.p1_low);
        // On a timeline mixing generated frames, stutter is judged on what the player saw.
        if (timeline_mixes_generated(r) && r.displayed.frames > 1) {
            EXPECT_EQ(v.stutter_cadence, "the displayed frames");
        }
        // Frame generation: marked, detected or possible exactly when the analysis says so.
        const std::string& gen = v.line("frame_generation")->text;
        EXPECT_EQ(gen.rfind("marked", 0) == 0, r.has_generated || r.generated_without_frame_time);
        EXPECT_EQ(gen.rfind("detected", 0) == 0, r.generation.detected);
        EXPECT_EQ(gen.rfind("possible", 0) == 0, r.generation.possible && !r.has_generated);
        // The display line has a refresh only where the capture says anything of the display.
        if (!has_display_information(c)) {
            EXPECT_FALSE(v.line("display")->available);
        }
        if (r.stats.refresh.state == RefreshGuess::State::fixed) {
            EXPECT_NE(v.line("display")->text.find(std::to_string(r.stats.refresh.rate_hz) + " Hz"),
                      std::string::npos);
        }
        // Data quality: "clean" exactly when the reader found nothing.
        EXPECT_EQ(v.line("data_quality")->text.rfind("clean", 0) == 0, c.data_quality.empty());
    }
    // As docs/reports.md states: no shared capture is "not smooth" for its stutter alone, and
    // the hitch-free ones stay well under the threshold (0.28 % at most).
    EXPECT_EQ(stutter_only, 0u);
    EXPECT_LT(hitch_free_most, 0.003);
    // Both answers occur among the shared captures: the rule decides something.
    EXPECT_GE(smooth, 10u);
    EXPECT_GE(not_smooth, 5u);
    EXPECT_GE(unknown, 2u);
}

// The terminal report holds the verdict, the hitches and the 1 % low within its first 15 lines.
TEST(VerdictRealCaptures, TerminalShowsHitchesAndLowWithinFifteenLines) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    for (const std::string name :
         {"IPMAuxTestData_test_case_8.csv", "IPMAuxTestData_test_case_9_v1.csv",
          "frameview_police2.csv", "mangohud_overwatch.csv"}) {
        SCOPED_TRACE(name);
        const test::RunResult run =
            test::run_loopscope("report " + test::quoted(test::capture(name)));
        ASSERT_EQ(run.exit_code, 0) << run.err;
        std::istringstream in(run.out);
        std::string head, line;
        for (int i = 0; i < 15 && std::getline(in, line); ++i)
            head += line + "\n";
        EXPECT_NE(head.find("Verdict\n"), std::string::npos) << head;
        EXPECT_NE(head.find("  hitches"), std::string::npos) << head;
        EXPECT_NE(head.find("  smooth?"), std::string::npos) << head;
        if (name != "mangohud_overwatch.csv") {
            EXPECT_NE(head.find("1% low"), std::string::npos) << head;
        }
    }
}

// HTML: the verdict's section comes before any chart, the reference table after them, folded.
TEST(VerdictRealCaptures, HtmlOpensWithTheVerdictAndFoldsTheReference) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string dir = test::make_temp_dir("verdict_html");
    const std::string out = dir + "/r.html";
    const test::RunResult run = test::run_loopscope(
        "report " + test::quoted(test::capture("IPMAuxTestData_test_case_8.csv")) + " -o " +
        test::quoted(out));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::string html = test::read_text(out);
    const std::size_t verdict = html.find("<section id=\"verdict\"");
    ASSERT_NE(verdict, std::string::npos);
    // One only: the id names the verdict of the page.
    EXPECT_EQ(html.find("id=\"verdict\""), verdict + std::string_view("<section ").size());
    EXPECT_EQ(html.rfind("id=\"verdict\""), html.find("id=\"verdict\""));
    const std::size_t body = html.find("<body>");
    for (const char* chart : {"<svg", "<canvas", "<figure"}) {
        const std::size_t at = html.find(chart, body);
        if (at != std::string::npos) {
            EXPECT_LT(verdict, at) << chart;
        }
    }
    EXPECT_LT(verdict, html.find("<table", body) + 1);
    const std::size_t details = html.find("<details");
    ASSERT_NE(details, std::string::npos);
    EXPECT_LT(html.find("<th>section</th><th>figure</th>"), html.find("</details>"));
    EXPECT_GT(html.find("<th>section</th><th>figure</th>"), details);
    std::filesystem::remove_all(dir);
}

// A comparison opens with its own verdict (the comparison table, better, worse or no change),
// before any chart; the two capture sections each open with theirs, under ids of their own.
TEST(VerdictRealCaptures, ComparisonHtmlGivesEachCaptureItsVerdict) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string dir = test::make_temp_dir("verdict_html");
    const std::string out = dir + "/c.html";
    const test::RunResult run = test::run_loopscope(
        "report " + test::quoted(test::capture("presentmon_gold_test_case_5_v1.csv")) + " " +
        test::quoted(test::capture("presentmon_gold_test_case_5.csv")) + " -o " +
        test::quoted(out));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::string html = test::read_text(out);
    const std::size_t first = html.find("<section id=\"verdict\"");
    ASSERT_NE(first, std::string::npos);
    EXPECT_EQ(html.rfind("id=\"verdict\""), first + std::string_view("<section ").size());
    EXPECT_LT(first, html.find("<h2>Comparison"));
    EXPECT_LT(html.find("<h2>Comparison"), html.find("</section>"));
    ASSERT_NE(html.find("<figure"), std::string::npos);
    EXPECT_LT(html.find("</section>"), html.find("<figure"));
    const std::size_t a = html.find("<section id=\"verdict-a\"");
    const std::size_t b = html.find("<section id=\"verdict-b\"");
    ASSERT_NE(a, std::string::npos);
    ASSERT_NE(b, std::string::npos);
    EXPECT_LT(first, a);
    EXPECT_LT(a, b);
    EXPECT_EQ(html.rfind("id=\"verdict-a\""), a + std::string_view("<section ").size());
    EXPECT_LT(html.find("<h2>A: "), a);
    EXPECT_GT(html.find("<h2>B: "), a);
    std::filesystem::remove_all(dir);
}

std::string fmt_counts(const nlohmann::json& v) {
    return "Worse on " + std::to_string(v.at("worse").get<std::size_t>()) + ", better on " +
           std::to_string(v.at("better").get<std::size_t>());
}

// A comparison's verdict counts the compared figures by their verdicts: the same frames give no
// significant change anywhere; B with every frame 40 % longer is worse on the frame-time figures
// and better on none (its coefficient of variation is A's), and its headline holds the figures both
// captures have, in their order.
TEST(ComparisonVerdictTest, CountsTheFiguresAndNamesTheHeadline) {
    std::vector<std::int64_t> frames_a;
    for (int i = 0; i < 600; ++i)
        frames_a.push_back((10 + i % 3) * kMs);
    std::vector<std::int64_t> frames_b;
    for (const std::int64_t ns : frames_a)
        frames_b.push_back(ns * 14 / 10);  // every frame 40 % longer: the same shape, slower
    const Capture a = make_capture(frames_a);
    const Capture b = make_capture(frames_b);
    const CaptureReport ra = analyse_capture(a, {});
    const CaptureReport rb = analyse_capture(b, {});

    const Comparison same = compare_captures(ra, ra, 50);
    const ComparisonVerdict s = comparison_verdict(same);
    EXPECT_EQ(s.outcome, ComparisonOutcome::no_significant_change);
    EXPECT_EQ(s.better + s.worse, 0u);
    EXPECT_EQ(s.compared, same.figures.size());
    EXPECT_EQ(s.better + s.worse + s.no_significant_change + s.changed, s.compared);

    const Comparison slower = compare_captures(ra, rb, 50);
    const ComparisonVerdict v = comparison_verdict(slower);
    EXPECT_EQ(v.outcome, ComparisonOutcome::worse);
    EXPECT_GT(v.worse, 0u);
    EXPECT_EQ(v.better, 0u);
    EXPECT_EQ(v.better + v.worse + v.no_significant_change + v.changed, v.compared);
    std::vector<std::string> headline;
    for (const FigureDifference* d : v.headline)
        headline.push_back(d->name);
    ASSERT_GE(headline.size(), 3u);
    EXPECT_EQ(headline[0], "avg_fps");
    EXPECT_EQ(headline[1], "p1_low_fps");
    EXPECT_EQ(headline[2], "p99_ms");
    EXPECT_EQ(v.headline[0]->verdict, Verdict::worse);
    EXPECT_STREQ(comparison_outcome_name(v.outcome), "worse");
}

// Two captures in a terminal: the comparison's verdict comes first, within 15 lines, before
// either capture's report; the JSON's comparison carries the same counts.
TEST(VerdictRealCaptures, ComparisonOpensWithItsVerdict) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    const std::string a = test::quoted(test::capture("presentmon_gold_test_case_5_v1.csv"));
    const std::string b = test::quoted(test::capture("frameview_police2.csv"));
    const test::RunResult run = test::run_loopscope("report " + a + " " + b);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::istringstream lines(run.out);
    std::string line;
    std::vector<std::string> first;
    while (first.size() < 15 && std::getline(lines, line))
        first.push_back(line);
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(first[0], "Comparison verdict (B - A)");
    const auto has = [&](std::string_view text) {
        return std::any_of(first.begin(), first.end(),
                           [&](const std::string& l) { return l.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(has("figures compared"));
    EXPECT_TRUE(has("  avg_fps "));
    EXPECT_TRUE(has("  p1_low_fps "));
    EXPECT_LT(run.out.find("Comparison verdict"), run.out.find("A PresentBench"));

    const test::RunResult json = test::run_loopscope("report --format json " + a + " " + b);
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const nlohmann::json j = nlohmann::json::parse(json.out);
    const nlohmann::json& v = j.at("comparison").at("verdict");
    EXPECT_EQ(v.at("better").get<std::size_t>() + v.at("worse").get<std::size_t>() +
                  v.at("no_significant_change").get<std::size_t>() +
                  v.at("changed").get<std::size_t>(),
              v.at("compared").get<std::size_t>());
    EXPECT_EQ(v.at("headline").at(0), "avg_fps");
    EXPECT_NE(run.out.find(fmt_counts(v)), std::string::npos) << fmt_counts(v);
}

}  // namespace
}  // namespace loopscope
