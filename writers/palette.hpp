// The colours of a chart's series, in order (then round again), for every chart the writers
// draw: one list, so that the summary's bars and the history's lines agree.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace loopscope {

inline constexpr std::array<std::string_view, 6> kSeriesColours = {"#4e79a7", "#f28e2b", "#59a14f",
                                                                   "#e15759", "#76b7b2", "#b07aa1"};

inline constexpr std::string_view series_colour(std::size_t series) {
    return kSeriesColours[series % kSeriesColours.size()];
}

}  // namespace loopscope
