// What the stores hand back, as plain data: a run of the history (SQLite) and a group of a fleet's
// pooled frames (ClickHouse). The stores fill them; the writers print them without knowing where
// they were kept.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/summary.hpp"

namespace loopscope {

// One run of the history: a capture's figures and labels as `report --history` stored them.
struct HistoryRun {
    std::int64_t id = 0;
    std::string added_utc;  // "2026-01-31T12:00:00Z"
    std::string source_file;
    std::string source_hash;
    std::string format;
    Labels labels;      // sorted by key; the series: the gate compares runs of equal labels
    Labels run_labels;  // sorted by key; this run's alone (a build number), not of the series
    std::string loopscope_version;
    std::string machine_json;  // "" when unknown
    std::string verdict;       // "stored", "passed", "regressed", "no-baseline"
    std::string verdict_detail;
    std::vector<std::pair<std::string, double>> figures;  // those the capture has
    std::optional<double> figure(std::string_view key) const;
};

// The figures `fleet` computes for a group of pooled frames, in order: key and value.
struct FleetGroup {
    Labels labels;  // the grouping labels' values ("" for captures without the label)
    std::uint64_t captures = 0;
    std::uint64_t frames = 0;
    std::vector<std::pair<std::string, std::optional<double>>> figures;
    std::optional<double> figure(std::string_view key) const;
};

}  // namespace loopscope
