// The recorder header with recording off (LOOPSCOPE_RECORDER not defined): the same calls
// compile, hold no state and write nothing.
#include "loopscope/recorder.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <type_traits>

#include "tests/test_support.hpp"

namespace loopscope {
namespace {

static_assert(!Recorder::kEnabled);
static_assert(std::is_empty_v<Recorder>, "a disabled recorder must hold nothing");

TEST(RecorderDisabled, CompilesToNothingAndWritesNoFile) {
    const std::string dir = test::make_temp_dir("recorder-off");
    RecorderOptions o;
    o.path = dir + "/never.csv";
    {
        Recorder rec(o);
        for (int i = 0; i < 100; ++i) {
            rec.begin_frame();
            rec.loop(1, 2, 3, 0.5);
            rec.end_steps();
            rec.end_render();
        }
        rec.flush();
        rec.wait_for_writer();
        EXPECT_TRUE(rec.writer_caught_up());
        EXPECT_FALSE(rec.has_writer_thread());
        EXPECT_EQ(rec.frames(), 0);
    }
    EXPECT_FALSE(std::filesystem::exists(o.path));
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
