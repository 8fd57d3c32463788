// A cause for every hitch (core/hitch_cause.hpp): parts built from synthetic captures whose
// answer is known, and a golden test on the shared PresentMon 2.x captures and FrameView logs
// whose decomposition is rebuilt here from each row's time stamps (CPU start, present start,
// present end), not from the rule's own durations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "core/analysis.hpp"
#include "core/figures.hpp"
#include "core/hitch_cause.hpp"
#include "readers/readers.hpp"
#include "tests/csv_table.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

constexpr std::int64_t kMs = 1'000'000;

std::int64_t part_ns(const HitchCause& c, std::string_view kind) {
    std::int64_t ns = 0;
    for (const CausePart& p : c.parts)
        ns += p.kind == kind ? p.ns : 0;
    return ns;
}
const CausePart* find_part(const HitchCause& c, std::string_view kind) {
    for (const CausePart& p : c.parts)
        if (p.kind == kind)
            return &p;
    return nullptr;
}
bool has_evidence(const HitchCause& c, std::string_view needle) {
    return std::any_of(c.evidence.begin(), c.evidence.end(), [&](const CauseEvidence& e) {
        return e.text.find(needle) != std::string::npos;
    });
}

// A PresentMon 2.4-like capture: CPU starts (start_ns), MsCPUBusy, MsInPresentAPI, each frame's
// CPU start the previous present's end.
Capture present_call_capture(const std::vector<std::int64_t>& busy_ms,
                             const std::vector<std::int64_t>& in_present_ms) {
    Capture c;
    describe_as(c, "synthetic");
    std::int64_t cpu_start = 0, previous_present = -1;
    for (std::size_t i = 0; i < busy_ms.size(); ++i) {
        const std::int64_t present = cpu_start + busy_ms[i] * kMs;
        c.start_ns.push_back(cpu_start);
        c.frame_ns.push_back(previous_present < 0 ? 16 * kMs : present - previous_present);
        c.cpu_busy_ns.push_back(busy_ms[i] * kMs);
        c.in_present_api_ns.push_back(in_present_ms[i] * kMs);
        c.time_column_to_fill(TimeColumn::gpu_busy).push_back(10 * kMs);
        c.time_column_to_fill(TimeColumn::gpu_wait).push_back(in_present_ms[i] * kMs);
        previous_present = present;
        cpu_start = present + in_present_ms[i] * kMs;
    }
    return c;
}

TEST(HitchCause, PreviousPresentCallAndThisFramesCpuWorkAddUp) {
    // Frame 3's interval is frame 2's 75 ms in Present plus its own 31 ms of CPU work (the shape
    // of the F01 TimeSpy hitches).
    const Capture c = present_call_capture({15, 15, 15, 31, 15}, {1, 1, 75, 1, 1});
    ASSERT_EQ(c.frame_ns[3], 106 * kMs);
    const HitchCause cause = hitch_cause(c, 3, c.frame_ns[3]);
    EXPECT_EQ(cause.kind, kPartPresent);
    EXPECT_EQ(cause.total_ns(), 106 * kMs);
    const CausePart* present = find_part(cause, kPartPresent);
    ASSERT_NE(present, nullptr);
    EXPECT_EQ(present->ns, 75 * kMs);
    EXPECT_EQ(present->frame, 2);
    EXPECT_EQ(present->source, "MsInPresentAPI");
    const CausePart* cpu = find_part(cause, kPartCpu);
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(cpu->ns, 31 * kMs);
    EXPECT_EQ(cpu->frame, 3);
    EXPECT_EQ(part_ns(cause, kPartUnexplained), 0);
    EXPECT_TRUE(has_evidence(cause, "waited 75.0 ms")) << cause.summary;
    EXPECT_NE(cause.summary.find("75.0 ms in frame 2's Present call"), std::string::npos)
        << cause.summary;
}

TEST(HitchCause, WithoutCpuBusyTheApplicationPartIsDerived) {
    Capture c = present_call_capture({15, 15, 80, 15}, {1, 5, 1, 1});
    c.cpu_busy_ns.clear();
    const HitchCause cause = hitch_cause(c, 2, c.frame_ns[2]);
    EXPECT_EQ(part_ns(cause, kPartPresent), 5 * kMs);
    EXPECT_EQ(part_ns(cause, kPartCpu), 80 * kMs);
    EXPECT_EQ(cause.kind, kPartCpu);
    EXPECT_NE(find_part(cause, kPartCpu)->source.find("derived"), std::string::npos);
}

TEST(HitchCause, GeneratedFrameGetsTheNextApplicationFramesCpuWork) {
    // Rows: app 0, generated 1, app 2 (sharing 1's CPU start), generated 3, app 4. Application
    // frame 2 works 400 ms: its work ends at generated frame 1's present.
    Capture c;
    describe_as(c, "synthetic");
    const auto row = [&](bool gen, std::int64_t start, std::int64_t frame, std::int64_t busy,
                         std::int64_t in_present) {
        c.generated.push_back(gen ? 1 : 0);
        c.start_ns.push_back(start);
        c.frame_ns.push_back(frame);
        c.cpu_busy_ns.push_back(busy);
        c.in_present_api_ns.push_back(in_present);
    };
    row(false, 0, 16 * kMs, 15 * kMs, 0);
    row(true, 15 * kMs, 400 * kMs, 0, kMs / 10);
    row(false, 15 * kMs, kMs / 10, 400 * kMs, kMs / 10);
    row(true, 415 * kMs, 8 * kMs, 0, 86 * kMs);
    row(false, 415 * kMs, 87 * kMs, 8 * kMs, kMs / 10);
    const HitchCause gen = hitch_cause(c, 1, c.frame_ns[1]);
    EXPECT_EQ(gen.kind, kPartCpu);
    ASSERT_NE(find_part(gen, kPartCpu), nullptr);
    EXPECT_EQ(find_part(gen, kPartCpu)->frame, 2);
    EXPECT_EQ(gen.total_ns(), 400 * kMs);
    // An application frame right after its generated frame: its interval is the generated
    // frame's Present call.
    const HitchCause app = hitch_cause(c, 4, c.frame_ns[4]);
    EXPECT_EQ(app.kind, kPartPresent);
    EXPECT_EQ(find_part(app, kPartPresent)->frame, 3);
    EXPECT_EQ(part_ns(app, kPartCpu), 0);
}

TEST(HitchCause, ShaderCompileIsCutOutOfTheCpuPart) {
    Capture c = present_call_capture({15, 15, 93, 15}, {1, 1, 1, 1});
    auto& pso = c.time_column_to_fill(TimeColumn::pso_compile);
    pso = {0, 0, 70 * kMs, 0};
    const HitchCause cause = hitch_cause(c, 2, c.frame_ns[2]);
    EXPECT_EQ(cause.kind, kPartShaderCompile);
    EXPECT_EQ(part_ns(cause, kPartShaderCompile), 70 * kMs);
    EXPECT_EQ(part_ns(cause, kPartCpu), 23 * kMs);
    EXPECT_EQ(cause.total_ns(), c.frame_ns[2]);
}

TEST(HitchCause, PsoFixtureReadsAShaderCompilePart) {
    // A made-up PresentMon 2.6 capture (no shared capture compiles shaders): frame 6 presents
    // 94 ms after frame 5, 1 ms of it in frame 5's Present call and 93 ms of CPU work, 70 ms of
    // it compiling 12 pipeline state objects.
    const Capture c =
        read_capture(std::string(LOOPSCOPE_SOURCE_DIR) + "/tests/golden/presentmon26_pso.csv");
    const CaptureReport r = analyse_capture(c, {});
    ASSERT_EQ(r.stats.hitches.hitches.size(), 1u);
    const std::vector<HitchCause> causes = report_hitch_causes(r);
    ASSERT_EQ(causes.size(), 1u);
    EXPECT_EQ(causes[0].kind, kPartShaderCompile);
    EXPECT_EQ(part_ns(causes[0], kPartShaderCompile), 70 * kMs);
    EXPECT_EQ(part_ns(causes[0], kPartCpu), 23 * kMs);
    EXPECT_EQ(part_ns(causes[0], kPartPresent), 1 * kMs);
    EXPECT_EQ(find_part(causes[0], kPartShaderCompile)->frame, 6);
    EXPECT_EQ(dominant_hitch_cause(r), kPartShaderCompile);
    const FigureValue ms = figure_value(r, "hitch_shader_compile_ms");
    ASSERT_TRUE(ms.has_value()) << ms.reason;
    EXPECT_NEAR(*ms, 70.0, 1e-9);
    const FigureValue share = figure_value(r, "hitch_shader_compile_share");
    ASSERT_TRUE(share.has_value()) << share.reason;
    EXPECT_NEAR(*share, 70.0 / 94.0, 1e-9);
}

// A loopscope trace: row k's raw_ns is frame k - 1's length; frame k - 1's phases split it.
Capture loop_capture(bool with_render) {
    Capture c;
    describe_as(c, "loopscope-trace");
    c.start_ends_frame_time = true;
    std::int64_t t = 0;
    for (int k = 0; k < 6; ++k) {
        FrameRecord r{};
        r.frame = k;
        const std::int64_t length = k == 3 ? 120 * kMs : 16 * kMs;  // frame 3 is long
        r.start_ns = t;
        r.raw_ns =
            k == 0 ? 0
                   : c.loop.back().step_cost_ns + c.loop.back().render_ns + c.loop.back().wait_ns;
        r.step_cost_ns = k == 3 ? 100 * kMs : 6 * kMs;
        r.render_ns = with_render ? 4 * kMs : 0;
        r.wait_ns = length - r.step_cost_ns - r.render_ns;
        r.steps = k == 3 ? 5 : 1;
        if (k == 4)
            r.cap_dropped_ns = 20 * kMs;
        c.loop.push_back(r);
        c.frame_ns.push_back(r.raw_ns);
        c.start_ns.push_back(t);
        t += length;
    }
    // start_ns[k] = sum of raw_ns up to k: frame k begins where frame k - 1 ended.
    for (std::size_t k = 1; k < c.start_ns.size(); ++k)
        c.start_ns[k] = c.start_ns[k - 1] + c.frame_ns[k];
    return c;
}

TEST(HitchCause, LoopTraceSplitsIntoStepsRenderAndWait) {
    const Capture c = loop_capture(true);
    const HitchCause cause = hitch_cause(c, 4, c.frame_ns[4]);
    EXPECT_EQ(c.frame_ns[4], 120 * kMs);
    EXPECT_EQ(cause.kind, kPartSteps);
    EXPECT_EQ(part_ns(cause, kPartSteps), 100 * kMs);
    EXPECT_EQ(part_ns(cause, kPartRender), 4 * kMs);
    EXPECT_EQ(part_ns(cause, kPartWait), 16 * kMs);
    EXPECT_EQ(find_part(cause, kPartSteps)->frame, 3);
    EXPECT_TRUE(has_evidence(cause, "step cap dropped 20.0 ms")) << cause.summary;
}

TEST(HitchCause, LoopTraceWithoutEndRenderHasOnePartAfterTheSteps) {
    const Capture c = loop_capture(false);
    const HitchCause cause = hitch_cause(c, 4, c.frame_ns[4]);
    EXPECT_EQ(part_ns(cause, kPartAfterSteps), 20 * kMs);
    EXPECT_EQ(part_ns(cause, kPartRender), 0);
    EXPECT_EQ(part_ns(cause, kPartWait), 0);
    EXPECT_EQ(cause.total_ns(), 120 * kMs);
}

TEST(HitchCause, LoopRecordsKeptAroundHitchesWhileReadingGiveTheSameCause) {
    const Capture kept = loop_capture(true);
    // A report of the whole trace that keeps no records: the loop figures computed one record
    // at a time, with the records around each hitch.
    Capture streamed = kept;
    TraceLoopFigures figures{std::nullopt};
    for (const FrameRecord& r : kept.loop)
        figures.add(r);
    streamed.loop_figures = std::make_shared<const LoopFigures>(figures.figures());
    streamed.loop.clear();
    ASSERT_EQ(streamed.loop_figures->hitch_records.size(), 2u);  // rows 3 and 4
    const HitchCause a = hitch_cause(kept, 4, kept.frame_ns[4]);
    const HitchCause b = hitch_cause(streamed, 4, kept.frame_ns[4]);
    EXPECT_EQ(a.summary, b.summary);
    ASSERT_EQ(a.parts.size(), b.parts.size());
    for (std::size_t k = 0; k < a.parts.size(); ++k) {
        EXPECT_EQ(a.parts[k].kind, b.parts[k].kind);
        EXPECT_EQ(a.parts[k].ns, b.parts[k].ns);
        EXPECT_EQ(a.parts[k].frame, b.parts[k].frame);
    }
    EXPECT_EQ(a.evidence.size(), b.evidence.size());
    // A row that is no hitch has no kept records: its phases are unknown, and it says so.
    const HitchCause none = hitch_cause(streamed, 2, kept.frame_ns[2]);
    EXPECT_EQ(none.kind, kPartUnexplained);
    EXPECT_TRUE(has_evidence(none, "not kept"));
}

TEST(HitchCause, ZonesAreCutOutOfThePartTheyFallIn) {
    Capture c = loop_capture(true);
    // Frame 3 begins at start_ns[3]; a 90 ms "asset load" inside its 100 ms of steps, with a
    // nested zone (not counted again) and a zone of another frame (not in this hitch).
    const std::int64_t begin = c.start_ns[3];
    c.zones.push_back({"asset load", begin + 5 * kMs, begin + 95 * kMs, 3, 0, 0});
    c.zones.push_back({"decompress", begin + 10 * kMs, begin + 60 * kMs, 3, 0, 1});
    c.zones.push_back({"other", c.start_ns[5] + kMs, c.start_ns[5] + 2 * kMs, 5, 0, 0});
    c.marks.push_back({"level 2 streamed in", begin + 96 * kMs, 3});
    c.marks.push_back({"far away", c.start_ns[5] + kMs, 5});
    const HitchCause cause = hitch_cause(c, 4, c.frame_ns[4]);
    const CausePart* zone = find_part(cause, kPartZone);
    ASSERT_NE(zone, nullptr) << cause.summary;
    EXPECT_EQ(zone->label, "asset load");
    EXPECT_EQ(zone->ns, 90 * kMs);
    EXPECT_EQ(part_ns(cause, kPartZone), 90 * kMs);
    EXPECT_EQ(part_ns(cause, kPartSteps), 10 * kMs);
    EXPECT_EQ(cause.total_ns(), 120 * kMs);
    EXPECT_EQ(cause.kind, kPartZone);
    EXPECT_TRUE(has_evidence(cause, "level 2 streamed in"));
    EXPECT_FALSE(has_evidence(cause, "far away"));
}

TEST(HitchCause, ZonesNeverExceedTheirPart) {
    Capture c = loop_capture(true);
    const std::int64_t begin = c.start_ns[3];
    // Two threads' zones overlapping each other and reaching past the steps.
    c.zones.push_back({"a", begin, begin + 150 * kMs, 3, 0, 0});
    c.zones.push_back({"b", begin + 50 * kMs, begin + 200 * kMs, 3, 1, 0});
    const HitchCause cause = hitch_cause(c, 4, c.frame_ns[4]);
    EXPECT_EQ(cause.total_ns(), 120 * kMs);
    EXPECT_LE(part_ns(cause, kPartZone), 120 * kMs);
    EXPECT_EQ(part_ns(cause, kPartSteps), 0);
}

TEST(HitchCause, ZonesInsideTheApplicationsCpuWork) {
    Capture c = present_call_capture({15, 15, 95, 15}, {1, 1, 1, 1});
    // Frame 2's CPU work is [start_ns[2], start_ns[2] + 95 ms].
    c.zones.push_back({"asset load", c.start_ns[2] + 2 * kMs, c.start_ns[2] + 92 * kMs, 2, 0, 0});
    const HitchCause cause = hitch_cause(c, 2, c.frame_ns[2]);
    EXPECT_EQ(part_ns(cause, kPartZone), 90 * kMs);
    EXPECT_EQ(part_ns(cause, kPartCpu), 5 * kMs);
    EXPECT_EQ(part_ns(cause, kPartPresent), 1 * kMs);
    EXPECT_EQ(cause.kind, kPartZone);
}

TEST(HitchCause, PlainFrameTimesAreOneUnexplainedPart) {
    Capture c;
    describe_as(c, "plain");
    c.frame_ns = {16 * kMs, 16 * kMs, 100 * kMs};
    c.start_ns = {0, 16 * kMs, 32 * kMs};
    const HitchCause cause = hitch_cause(c, 2, 100 * kMs);
    ASSERT_EQ(cause.parts.size(), 1u);
    EXPECT_EQ(cause.parts[0].kind, kPartUnexplained);
    EXPECT_EQ(cause.parts[0].ns, 100 * kMs);
    EXPECT_EQ(cause.kind, kPartUnexplained);
    EXPECT_FALSE(cause.explained());
}

// ---- Golden test on the shared captures ----

// One row of the chosen stream, its times in ns on the file's clock.
struct Stamped {
    bool generated = false;
    bool has_present = true;  // PresentMon 2.x's layout gives generated frames no present time
    double present = 0;       // present start: TimeInQPC, TimeInSeconds, CPU start + CPUBusy
    double cpu_start = 0;     // CPUStartQPC / CPUStartTime; FrameView: the previous present's end
    double in_present = 0;
};

double number(const std::string& text) {
    return text.empty() || text == "NA" ? std::nan("") : std::stod(text);
}

// The time-stamp decomposition of the interval that ends at row i's present: how much of it the
// rows' Present calls and the application frames' CPU work (CPU start to its first present)
// cover.
struct StampParts {
    double present = 0, cpu = 0;
    std::int64_t cpu_frame = -1;
};
StampParts stamp_parts(const std::vector<Stamped>& rows, std::size_t i,
                       bool app_present_ends_at_next_start) {
    std::size_t prev = i - 1;
    while (prev > 0 && !rows[prev].has_present)
        --prev;
    const double begin = rows[prev].present, end = rows[i].present;
    const auto overlap = [&](double a, double b) {
        return std::max(0.0, std::min(b, end) - std::max(a, begin));
    };
    StampParts out;
    const std::size_t lo = prev >= 4 ? prev - 4 : 0, hi = std::min(rows.size(), i + 4);
    double best_cpu = 0;
    for (std::size_t r = lo; r < hi; ++r) {
        if (!rows[r].has_present)
            continue;
        // The row's Present call: an application frame's ends where the next application frame
        // starts its CPU work (PresentMon 2.x); else it lasts its time in Present.
        double call_end = rows[r].present + rows[r].in_present;
        if (app_present_ends_at_next_start && !rows[r].generated) {
            for (std::size_t n = r + 1; n < rows.size(); ++n) {
                if (!rows[n].generated) {
                    call_end = rows[n].cpu_start;
                    break;
                }
            }
        }
        out.present += overlap(rows[r].present, call_end);
        if (rows[r].generated)
            continue;
        // An application frame's CPU work ends at the first present of its CPU start (the
        // generated frame that shares it, else its own).
        double first_present = rows[r].present;
        for (std::size_t q = lo; q < hi; ++q)
            if (rows[q].has_present && rows[q].cpu_start == rows[r].cpu_start)
                first_present = std::min(first_present, rows[q].present);
        const double cpu = overlap(rows[r].cpu_start, first_present);
        out.cpu += cpu;
        if (cpu > best_cpu)
            best_cpu = cpu, out.cpu_frame = static_cast<std::int64_t>(r);
    }
    return out;
}

// The stream's rows with a frame-time cell, with their time stamps; empty when the file has
// none of the time-stamp columns.
std::vector<Stamped> stamped_rows(const std::string& path, const Capture& c) {
    const test::Table t = test::read_table(path, "Application");
    const bool time_in_qpc = t.column("TimeInQPC") >= 0 && t.column("CPUStartQPC") >= 0;
    const bool start_qpc_only = t.column("TimeInQPC") < 0 && t.column("CPUStartQPC") >= 0;
    const bool cpu_start_ms = t.column("CPUStartTime") >= 0;
    const bool frameview = t.column("TimeInSeconds") >= 0 && t.column("MsInPresentAPI") >= 0;
    const std::string frame_column =
        t.column("MsBetweenPresents") >= 0 ? "MsBetweenPresents" : "FrameTime";
    std::vector<std::size_t> picked;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        if (t.cell(r, "ProcessID") == std::to_string(c.source.process_id) &&
            t.cell(r, "SwapChainAddress") == c.source.swap_chain &&
            !std::isnan(number(t.cell(r, frame_column))))
            picked.push_back(r);
    }
    if (picked.size() < 2)
        return {};
    // QPC ticks per ms, from the stream's own span against its times between those stamps.
    double ticks_per_ms = 0;
    if (time_in_qpc || start_qpc_only) {
        const std::string stamp = time_in_qpc ? "TimeInQPC" : "CPUStartQPC";
        double ms = 0;
        for (std::size_t k = 0; k + 1 < picked.size(); ++k)
            ms += number(t.cell(picked[time_in_qpc ? k + 1 : k], frame_column));
        ticks_per_ms =
            (number(t.cell(picked.back(), stamp)) - number(t.cell(picked.front(), stamp))) / ms;
    }
    std::vector<Stamped> rows;
    double chain = 0;
    for (std::size_t k = 0; k < picked.size(); ++k) {
        const std::size_t r = picked[k];
        Stamped s;
        s.generated = !t.cell(r, "FrameType").empty() && t.cell(r, "FrameType") != "Application";
        s.in_present = number(t.cell(r, "MsInPresentAPI")) * 1e6;
        if (time_in_qpc) {
            s.present = number(t.cell(r, "TimeInQPC")) / ticks_per_ms * 1e6;
            s.cpu_start = number(t.cell(r, "CPUStartQPC")) / ticks_per_ms * 1e6;
        } else if (start_qpc_only) {
            // No present time column: an application frame presents CPUBusy after its CPU start;
            // a generated frame has no present time here.
            s.cpu_start = number(t.cell(r, "CPUStartQPC")) / ticks_per_ms * 1e6;
            s.present = s.cpu_start + number(t.cell(r, "CPUBusy")) * 1e6;
            s.has_present = !s.generated;
            s.in_present = 0;
        } else if (cpu_start_ms) {
            // No present time column: the presents chained from the first one's.
            s.cpu_start = number(t.cell(r, "CPUStartTime")) * 1e6;
            chain = k == 0 ? s.cpu_start + number(t.cell(r, "MsCPUBusy")) * 1e6
                           : chain + number(t.cell(r, "MsBetweenPresents")) * 1e6;
            s.present = chain;
        } else if (frameview) {
            s.present = number(t.cell(r, "TimeInSeconds")) * 1e9;
            s.cpu_start = rows.empty() ? s.present : rows.back().present + rows.back().in_present;
        } else {
            return {};
        }
        rows.push_back(s);
    }
    return rows;
}

TEST(HitchCauseGolden, SharedCapturesAgreeWithTheirTimeStamps) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    std::vector<std::string> files;
    for (const std::string& dir : {test::captures_dir(), test::captures_dir() + "/frameview_set"}) {
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            if (e.path().extension() != ".csv")
                continue;
            std::string format;
            try {
                format = detect_format(e.path().string());
            } catch (const InputError&) {
                continue;  // FrameView's summary of whole captures: no frames
            }
            if (format == "presentmon-2" || format == "presentmon-2.4" || format == "frameview")
                files.push_back(e.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    ASSERT_GE(files.size(), 5u);
    std::size_t hitches = 0, caused = 0, adds_up = 0, largest_agrees = 0, f01 = 0, f01_present = 0,
                generated = 0, generated_app = 0;
    for (const std::string& path : files) {
        const Capture c = read_capture(path);
        if (cause_rule(c) == CauseRule::none)
            continue;
        const CaptureReport r = analyse_capture(c, {});
        const std::vector<HitchCause> causes = report_hitch_causes(r);
        if (causes.empty())
            continue;
        const std::vector<Stamped> rows = stamped_rows(path, c);
        ASSERT_EQ(rows.size(), c.frames()) << path;
        const bool app_ends = c.cpu_busy_ns.size() == c.frames();
        for (std::size_t k = 0; k < causes.size(); ++k) {
            const Hitch& h = r.stats.hitches.hitches[k];
            const auto i = static_cast<std::size_t>(r.series.frame_number[h.index]);
            const HitchCause& cause = causes[k];
            const double t = static_cast<double>(h.frame_ns);
            ++hitches;
            caused += cause.explained() && cause.kind != kPartUnexplained ? 1 : 0;
            const StampParts stamps = stamp_parts(rows, i, app_ends);
            const double present = static_cast<double>(part_ns(cause, kPartPresent));
            const double cpu =
                static_cast<double>(part_ns(cause, kPartCpu) + part_ns(cause, kPartShaderCompile) +
                                    part_ns(cause, kPartZone));
            const bool agrees =
                std::abs(present - stamps.present) + std::abs(cpu - stamps.cpu) <= 0.1 * t &&
                std::abs(static_cast<double>(cause.total_ns()) - t) <= 0.1 * t;
            adds_up += agrees ? 1 : 0;
            const char* stamp_kind = stamps.present >= stamps.cpu ? kPartPresent : kPartCpu;
            const std::string rule_kind =
                cause.kind == kPartShaderCompile || cause.kind == kPartZone ? std::string(kPartCpu)
                                                                            : cause.kind;
            largest_agrees += rule_kind == stamp_kind ? 1 : 0;
            EXPECT_TRUE(agrees && rule_kind == stamp_kind)
                << path << " frame " << i << ": " << cause.summary << " | time stamps: present "
                << stamps.present / 1e6 << " ms, cpu " << stamps.cpu / 1e6 << " ms of " << t / 1e6;
            if (path.find("F01TimeSpy") != std::string::npos) {
                ++f01;
                f01_present += cause.kind == kPartPresent ? 1 : 0;
            }
            if (c.generated.size() == c.frames() && c.generated[i] != 0) {
                ++generated;
                const CausePart* part = find_part(cause, kPartCpu);
                generated_app += part != nullptr && cause.kind == kPartCpu &&
                                         part->frame == stamps.cpu_frame &&
                                         c.generated[static_cast<std::size_t>(part->frame)] == 0
                                     ? 1
                                     : 0;
            }
        }
    }
    ASSERT_GT(hitches, 30u);
    EXPECT_GE(static_cast<double>(caused), 0.99 * static_cast<double>(hitches));
    EXPECT_GE(static_cast<double>(adds_up), 0.95 * static_cast<double>(hitches));
    EXPECT_GE(static_cast<double>(largest_agrees), 0.95 * static_cast<double>(hitches));
    EXPECT_EQ(f01, 4u);
    EXPECT_EQ(f01_present, f01);
    EXPECT_GE(generated, 1u);
    EXPECT_EQ(generated_app, generated);
    std::printf(
        "hitches %zu, with a cause %zu, agreeing with the time stamps within 10 %% %zu, "
        "largest part as the time stamps say %zu; F01 %zu/%zu present; generated %zu/%zu "
        "to their application frame\n",
        hitches, caused, adds_up, largest_agrees, f01_present, f01, generated_app, generated);
}

}  // namespace
}  // namespace loopscope
