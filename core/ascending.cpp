// Values sorted in memory, seen through AscendingValues (ascending.hpp).
#include "core/ascending.hpp"

#include <algorithm>
#include <numeric>

#include "core/units.hpp"

namespace loopscope {

std::int64_t SortedValues::sum_from(std::size_t rank) const {
    if (rank >= sorted_.size())
        return 0;
    return std::accumulate(sorted_.begin() + static_cast<std::ptrdiff_t>(rank), sorted_.end(),
                           std::int64_t{0});
}

std::size_t SortedValues::rank_above(std::int64_t value) const {
    return static_cast<std::size_t>(std::upper_bound(sorted_.begin(), sorted_.end(), value) -
                                    sorted_.begin());
}

std::size_t SortedValues::rank_at_least(double threshold) const {
    return static_cast<std::size_t>(
        std::lower_bound(sorted_.begin(), sorted_.end(), threshold,
                         [](std::int64_t v, double t) { return static_cast<double>(v) < t; }) -
        sorted_.begin());
}

std::int64_t SortedValues::top_sum_reaching(double target) const {
    std::int64_t sum = 0;
    for (auto it = sorted_.rbegin(); it != sorted_.rend(); ++it) {
        sum += *it;
        if (static_cast<double>(sum) >= target)
            return *it;
    }
    return sorted_.front();
}

float SortedValues::mangohud_sum_ms() const {
    float sum = 0.0f;
    for (auto it = sorted_.rbegin(); it != sorted_.rend(); ++it)
        sum += static_cast<float>(ns_to_ms(static_cast<double>(*it)));
    return sum;
}

}  // namespace loopscope
