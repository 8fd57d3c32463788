// The game's own words in a trace (trace format v2): a ScopedZone around a 90 ms asset load in
// one frame, a zone nested in it and a mark, recorded on a virtual clock so that every time is
// exact, come back from the trace reader with their labels, times, frames and depths, inside the
// hitch they caused; the report reads the trace; the Chrome trace shows them as slices and an
// instant. write_zone_game() is the test game: a test of what a hitch's cause says about the
// zone can start from it.
#define LOOPSCOPE_RECORDER 1
#include "loopscope/recorder.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "readers/readers.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

std::int64_t g_virtual_now_ns = 0;
std::int64_t virtual_clock() {
    return g_virtual_now_ns;
}

// A 60 Hz fixed-step game of 180 frames on a virtual clock: a 500 ms ScopedZone "boot" before
// its first frame, then frames of 1 ms of steps, 3 ms of rendering and a limiter to the 16.67 ms
// slot; in frame `kLoadFrame` it loads assets for 90 ms inside a ScopedZone "asset load" (20 ms
// of which in a nested zone "decompress") and then marks "level 2 streamed in".
struct ZoneGame {
    static constexpr std::int64_t kLoadFrame = 60;
    static constexpr std::int64_t kLoadNs = 90'000'000;
    static constexpr std::int64_t kNestedNs = 20'000'000;
    static constexpr std::int64_t kBootNs = 500'000'000;
    std::string path;
};

ZoneGame write_zone_game(const std::string& dir) {
    ZoneGame game;
    game.path = dir + "/zones.trace";
    g_virtual_now_ns = 1'000'000'000;
    RecorderOptions o;
    o.path = game.path;
    o.clock_ns = virtual_clock;
    o.clock_name = "virtual";
    o.write_start_time = false;
    o.background_writer = false;  // on the loop's thread: the same bytes every run
    o.flush_every = 16;
    Recorder recorder(o);
    FixedStep loop(FixedStepConfig{.dt_ns = 16'666'667, .clamp_ns = 250'000'000}, recorder);
    {
        // Before the first frame: a zone of frame -1, before the first row's time stamp.
        ScopedZone boot(recorder, "boot");
        g_virtual_now_ns += ZoneGame::kBootNs;
    }
    for (std::int64_t frame = 0; frame < 180; ++frame) {
        const std::int64_t start = g_virtual_now_ns;
        loop.advance();
        g_virtual_now_ns += 1'000'000;
        recorder.end_steps();
        g_virtual_now_ns += 3'000'000;
        if (frame == ZoneGame::kLoadFrame) {
            ScopedZone zone(recorder, "asset load");
            g_virtual_now_ns += ZoneGame::kLoadNs - ZoneGame::kNestedNs;
            {
                ScopedZone nested(recorder, "decompress");
                g_virtual_now_ns += ZoneGame::kNestedNs;
            }
            recorder.mark("level 2 streamed in");
        }
        recorder.end_render();
        g_virtual_now_ns = std::max(g_virtual_now_ns, start + 16'666'667);
    }
    recorder.close();
    EXPECT_TRUE(recorder.ok());
    EXPECT_EQ(recorder.dropped_events(), 0);
    return game;
}

TEST(RecorderZones, ANinetyMillisecondLoadIsAZoneInItsHitchAndTheMarkIsRead) {
    const std::string dir = test::make_temp_dir("recorder-zones");
    const ZoneGame game = write_zone_game(dir);
    const std::string text = test::read_text(game.path);
    EXPECT_EQ(text.rfind("# loopscope-trace v2\n", 0), 0u) << text.substr(0, 80);

    const Capture c = read_capture(game.path);
    ASSERT_EQ(c.frames(), 180u);
    ASSERT_EQ(c.zones.size(), 3u);
    // Sorted by begin; on the report's time axis, from the first row's time stamp: the boot zone
    // ends where frame 0 begins.
    const Zone& boot = c.zones[0];
    EXPECT_EQ(boot.label, "boot");
    EXPECT_EQ(boot.frame, -1);
    EXPECT_EQ(boot.begin_ns, -ZoneGame::kBootNs);
    EXPECT_EQ(boot.end_ns, 0);
    EXPECT_EQ(c.start_ns[0], 0);
    const Zone& load = c.zones[1];  // the outer zone before the nested one
    EXPECT_EQ(load.label, "asset load");
    EXPECT_EQ(load.end_ns - load.begin_ns, ZoneGame::kLoadNs);
    EXPECT_EQ(load.frame, ZoneGame::kLoadFrame);
    EXPECT_EQ(load.depth, 0u);
    EXPECT_EQ(load.thread, 0u);
    const Zone& nested = c.zones[2];
    EXPECT_EQ(nested.label, "decompress");
    EXPECT_EQ(nested.end_ns - nested.begin_ns, ZoneGame::kNestedNs);
    EXPECT_EQ(nested.depth, 1u);
    EXPECT_EQ(nested.end_ns, load.end_ns);
    ASSERT_EQ(c.marks.size(), 1u);
    EXPECT_EQ(c.marks[0].label, "level 2 streamed in");
    EXPECT_EQ(c.marks[0].t_ns, load.end_ns);
    EXPECT_EQ(c.marks[0].frame, ZoneGame::kLoadFrame);

    // On the frames' time axis: the zone lies in its frame, from 4 ms after its start (steps
    // and rendering) to the next frame's start, whose raw_ns is the hitch: 4 + 90 ms.
    const auto f = static_cast<std::size_t>(ZoneGame::kLoadFrame);
    EXPECT_EQ(load.begin_ns, c.start_ns[f] + 4'000'000);
    EXPECT_EQ(c.start_ns[f + 1], load.end_ns);
    EXPECT_EQ(c.frame_ns[f + 1], 4'000'000 + ZoneGame::kLoadNs);
    ASSERT_EQ(c.loop.size(), 180u);
    EXPECT_EQ(c.loop[f].render_ns, 3'000'000 + ZoneGame::kLoadNs);

    const auto report = test::run_loopscope("report " + test::quoted(game.path) + " --format json");
    ASSERT_EQ(report.exit_code, 0) << report.err;
    std::filesystem::remove_all(dir);

    // The report's hitch, the load's frame (its length is the next row's raw_ns), says why: a zone
    // part with the zone's label and (here exactly) its 90 ms, and the mark in its evidence.
    const auto j = nlohmann::json::parse(report.out);
    const nlohmann::json* hitch = nullptr;
    for (const auto& h : j.at("stutter").at("hitches"))
        if (h.at("frame").get<std::int64_t>() == ZoneGame::kLoadFrame)
            hitch = &h;
    ASSERT_NE(hitch, nullptr) << j.at("stutter").dump();
    const auto& cause = hitch->at("cause");
    double zone_ms = -1;
    for (const auto& part : cause.at("parts"))
        if (part.at("kind") == "zone" && part.value("label", "") == "asset load")
            zone_ms = part.at("ms").get<double>();
    EXPECT_GE(zone_ms, 75.0) << cause.dump();
    EXPECT_LE(zone_ms, 110.0) << cause.dump();
    bool mark_in_evidence = false;
    for (const auto& e : cause.at("evidence"))
        if (e.at("kind") == "mark" &&
            e.at("text").get<std::string>().find("level 2 streamed in") != std::string::npos)
            mark_in_evidence = true;
    EXPECT_TRUE(mark_in_evidence) << cause.dump();
}

TEST(RecorderZones, TheChromeTraceHasTheZonesAsSlicesAndTheMarkAsAnInstant) {
    const std::string dir = test::make_temp_dir("recorder-zones-chrome");
    const ZoneGame game = write_zone_game(dir);
    const auto r = test::run_loopscope("report " + test::quoted(game.path) +
                                       " --format chrome -o " + test::quoted(dir + "/t.json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string json = test::read_text(dir + "/t.json");
    EXPECT_NE(json.find(R"("tid":2,"name":"asset load","cat":"zone")"), std::string::npos);
    EXPECT_NE(json.find(R"("dur":90000,"args":{"frame":60,"depth":0,"ms":90.0000})"),
              std::string::npos);
    EXPECT_NE(json.find(R"("tid":2,"name":"decompress","cat":"zone")"), std::string::npos);
    EXPECT_NE(json.find(R"("ph":"i","s":"t","pid":1,"tid":2,"name":"level 2 streamed in")"),
              std::string::npos);
    std::filesystem::remove_all(dir);
}

// A label is kept to 64 bytes, cut before a character that would not fit whole, and a line
// break in it cannot break the trace's lines.
TEST(RecorderZones, ALongLabelIsCutAtACharacterAndALineBreakIsASpace) {
    const std::string dir = test::make_temp_dir("recorder-zones-label");
    const std::string path = dir + "/t.trace";
    {
        g_virtual_now_ns = 5'000'000;
        RecorderOptions o;
        o.path = path;
        o.clock_ns = virtual_clock;
        o.write_start_time = false;
        o.background_writer = false;
        Recorder recorder(o);
        recorder.begin_frame();
        g_virtual_now_ns += 1'000'000;
        // 62 ASCII bytes then "é" (2 bytes: fits) then "€" (3 bytes: does not).
        const std::string long_label = std::string(62, 'a') + "\xC3\xA9" + "\xE2\x82\xAC";
        recorder.mark(long_label.c_str());
        recorder.mark("two\nlines");
        recorder.begin_frame();
        g_virtual_now_ns += 1'000'000;
        recorder.close();
    }
    const Capture c = read_capture(path);
    ASSERT_EQ(c.marks.size(), 2u);
    EXPECT_EQ(c.marks[0].label, std::string(62, 'a') + "\xC3\xA9");
    EXPECT_EQ(c.marks[1].label, "two lines");
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
