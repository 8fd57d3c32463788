// What the readers tell the analysis of each format (CaptureDescription), and that the analysis
// follows the description rather than the format's name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/capture.hpp"
#include "readers/readers.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

TEST(CaptureDescription, EachFormatSaysWhatItIs) {
    const CaptureDescription trace = describe_format("loopscope-trace");
    EXPECT_FALSE(trace.first_frame_is_frame_time);
    EXPECT_EQ(trace.present_column, "raw_ns");

    const CaptureDescription v2 = describe_format("presentmon-2");
    EXPECT_TRUE(v2.first_frame_is_frame_time);
    EXPECT_TRUE(v2.generated_frames_have_no_frame_time);
    EXPECT_EQ(v2.display_column, "DisplayedTime");
    EXPECT_EQ(v2.click_to_photon_column, "ClickToPhotonLatency");
    EXPECT_FALSE(v2.rebuilt_present_column.empty());

    const CaptureDescription v24 = describe_format("presentmon-2.4");
    EXPECT_FALSE(v24.generated_frames_have_no_frame_time);
    EXPECT_TRUE(v24.display_latency_from_cpu_start);
    EXPECT_EQ(v24.app_interval_column, "MsBetweenAppStart");

    EXPECT_TRUE(describe_format("ocat").time_counts_from_recording_start);
    EXPECT_FALSE(describe_format("frameview").bottleneck_absent_reason.empty());
    EXPECT_FALSE(describe_format("presentmon-1").application_cadence_absent_reason.empty());
    EXPECT_EQ(describe_format("mangohud").tool_name, "MangoHud");
    EXPECT_EQ(describe_format("afterburner").tool_name, "MSI Afterburner");

    // A name no reader gives: the default description, as an unknown format always had.
    const CaptureDescription other = describe_format("synthetic");
    EXPECT_TRUE(other.first_frame_is_frame_time);
    EXPECT_EQ(other.present_column, "MsBetweenPresents");
    EXPECT_EQ(other.display_column, "MsBetweenDisplayChange");
}

TEST(CaptureDescription, ReadersFillIt) {
    const Capture trace = read_capture(test::test_data("loopscope.trace"));
    EXPECT_FALSE(trace.description.first_frame_is_frame_time);
    const Capture v2 = read_capture(test::test_data("presentmon2.csv"));
    EXPECT_TRUE(v2.description.generated_frames_have_no_frame_time);
    const Capture mangohud = read_capture(test::test_data("mangohud.csv"));
    EXPECT_EQ(mangohud.description.tool_name, "MangoHud");
}

TEST(CaptureDescription, TheAnalysisFollowsTheDescriptionNotTheName) {
    // The same frames under a format name no reader gives: what frame 0 is comes from the
    // description alone.
    Capture c;
    c.source.format = "synthetic";
    c.source.file = "frames";
    c.frame_ns = {1, 16'000'000, 17'000'000, 16'000'000};
    c.description.first_frame_is_frame_time = false;
    c.description.present_column = "the game's frame times";
    const CaptureReport without_first = analyse_capture(c, {});
    EXPECT_EQ(without_first.series.frame_ns.size(), 3u);
    EXPECT_EQ(without_first.frame_time_column, "the game's frame times");
    c.description.first_frame_is_frame_time = true;
    EXPECT_EQ(analyse_capture(c, {}).series.frame_ns.size(), 4u);
}

}  // namespace
}  // namespace loopscope
