// Writing a fleet's groups (`loopscope fleet`): figures per group of labels over the pooled frames
// of the captures ClickHouse holds, as a table (terminal, Markdown), CSV, JSON ({"groups":
// [...]}) or HTML with a bar chart. Every format prints the one DataTable of the groups.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/stored_runs.hpp"
#include "writers/data_table.hpp"

namespace loopscope {

struct FleetListing {
    std::string url;                       // the database, for the heading
    std::vector<std::string> group_by;     // the grouping labels, in order
    std::vector<std::string> figure_keys;  // the figures every group has a value (or null) for
    std::vector<FleetGroup> groups;
};

DataTable fleet_table(const FleetListing& listing);

// "terminal", "md", "csv", "json" or "html"; the caller checks the name.
std::string write_fleet(const FleetListing& listing, std::string_view format);

}  // namespace loopscope
