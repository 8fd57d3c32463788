// The stores' plain data (see stored_runs.hpp).
#include "core/stored_runs.hpp"

namespace loopscope {

std::optional<double> HistoryRun::figure(std::string_view key) const {
    for (const auto& [k, v] : figures) {
        if (k == key)
            return v;
    }
    return std::nullopt;
}

std::optional<double> FleetGroup::figure(std::string_view key) const {
    for (const auto& [k, v] : figures) {
        if (k == key)
            return v;
    }
    return std::nullopt;
}

}  // namespace loopscope
