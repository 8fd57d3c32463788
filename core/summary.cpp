// Summary rows, labels and groups of many captures (see summary.hpp).
#include "core/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "core/figures.hpp"

namespace loopscope {

void set_label(Labels& labels, const std::string& key, const std::string& value) {
    for (auto& [k, v] : labels) {
        if (k == key) {
            v = value;
            return;
        }
    }
    labels.emplace_back(key, value);
}

const std::string* find_label(const Labels& labels, std::string_view key) {
    for (const auto& [k, v] : labels) {
        if (k == key)
            return &v;
    }
    return nullptr;
}

std::string labels_text(const Labels& labels) {
    Labels sorted = labels;
    std::sort(sorted.begin(), sorted.end());
    std::string text;
    for (const auto& [k, v] : sorted)
        text += k + "=" + v + "\n";
    return text;
}

Labels labels_from_path(const std::vector<std::string>& pattern,
                        const std::vector<std::string>& folders) {
    Labels labels;
    for (std::size_t i = 0; i < pattern.size() && i < folders.size(); ++i) {
        if (pattern[i] == "...")
            break;
        if (pattern[i] != "_")
            set_label(labels, pattern[i], folders[i]);
    }
    return labels;
}

std::optional<double> CaptureSummary::figure(std::string_view key) const {
    for (const SummaryFigure& f : figures) {
        if (f.key == key)
            return f.value;
    }
    return std::nullopt;
}

CaptureSummary summarise_capture(const CaptureReport& report, std::string file, std::string format,
                                 Labels labels) {
    CaptureSummary row;
    row.file = std::move(file);
    row.format = std::move(format);
    row.labels = std::move(labels);
    for (const Figure& f : figure_catalogue()) {
        if (f.key.empty() || f.value == nullptr)
            continue;
        SummaryFigure figure{f.key, std::nullopt, {}};
        if (std::optional<std::string> missing = figure_missing(f, report)) {
            figure.absent = std::move(*missing);
        } else {
            figure.value = f.value(report);
            if (!figure.value)
                figure.absent = f.absent;
        }
        row.figures.push_back(std::move(figure));
    }
    if (report.capture->per_frame)
        row.hitch_cause = dominant_hitch_cause(report);
    return row;
}

std::optional<double> SummaryGroup::figure(std::string_view key) const {
    for (const Mean& m : figures) {
        if (m.key == key)
            return m.value;
    }
    return std::nullopt;
}

std::vector<SummaryGroup> group_summaries(const std::vector<CaptureSummary>& rows,
                                          const std::vector<std::string>& group_by) {
    std::vector<SummaryGroup> groups;
    std::vector<std::vector<double>> sums;  // per group, per catalogue figure
    std::vector<std::string_view> keys;
    for (const Figure& f : figure_catalogue()) {
        if (!f.key.empty() && f.value != nullptr)
            keys.push_back(f.key);
    }
    for (const CaptureSummary& row : rows) {
        Labels key;
        for (const std::string& name : group_by) {
            const std::string* v = find_label(row.labels, name);
            key.emplace_back(name, v != nullptr ? *v : std::string());
        }
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const SummaryGroup& g) { return g.labels == key; });
        if (it == groups.end()) {
            SummaryGroup g;
            g.labels = key;
            for (std::string_view k : keys)
                g.figures.push_back({k, std::nullopt, 0});
            groups.push_back(std::move(g));
            sums.emplace_back(keys.size(), 0.0);
            it = groups.end() - 1;
        }
        const auto gi = static_cast<std::size_t>(it - groups.begin());
        ++it->captures;
        if (row.failed()) {
            ++it->failed;
            continue;
        }
        for (std::size_t k = 0; k < keys.size(); ++k) {
            if (const std::optional<double> v = row.figure(keys[k])) {
                sums[gi][k] += *v;
                ++it->figures[k].captures;
            }
        }
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
        for (std::size_t k = 0; k < keys.size(); ++k) {
            SummaryGroup::Mean& m = groups[g].figures[k];
            if (m.captures > 0)
                m.value = sums[g][k] / static_cast<double>(m.captures);
        }
    }
    return groups;
}

namespace {

// The headline figures by key; a key the catalogue does not have is passed over.
constexpr std::array<std::string_view, 16> kHeadline = {"frames",
                                                        "duration_s",
                                                        "avg_fps",
                                                        "p1_low_fps",
                                                        "low1_avg_fps",
                                                        "p99_ms",
                                                        "stutter_time_share",
                                                        "hitch_count",
                                                        "app_fps",
                                                        "generated_fps",
                                                        "displayed_fps",
                                                        "detected_generation_share",
                                                        "suspected_generation_share",
                                                        "refresh_hz",
                                                        "dropped_share",
                                                        "sampled_avg_fps"};

bool is_headline(std::string_view key) {
    if (std::find(kHeadline.begin(), kHeadline.end(), key) != kHeadline.end())
        return true;
    // Each tool's 1 % low (frameview_low1_fps, mangohud_min1_fps, capframex_p1_fps, ...) and the
    // data-quality counts, whatever tools and counts the catalogue holds.
    const auto ends_with = [&](std::string_view suffix) {
        return key.size() >= suffix.size() && key.substr(key.size() - suffix.size()) == suffix;
    };
    const bool tool_low = key.find('_') != std::string_view::npos &&
                          (ends_with("_low1_fps") || ends_with("_min1_fps") ||
                           (ends_with("_p1_fps") && key != "p1_low_fps"));
    return tool_low || key.find("quality") != std::string_view::npos;
}

}  // namespace

std::vector<std::string_view> present_keys(const std::vector<CaptureSummary>& rows) {
    std::vector<std::string_view> keys;
    for (const Figure& f : figure_catalogue()) {
        if (f.key.empty() || f.value == nullptr)
            continue;
        const bool any = std::any_of(rows.begin(), rows.end(), [&](const CaptureSummary& r) {
            return r.figure(f.key).has_value();
        });
        if (any)
            keys.push_back(f.key);
    }
    return keys;
}

std::vector<std::string_view> headline_keys(const std::vector<CaptureSummary>& rows) {
    std::vector<std::string_view> keys;
    for (std::string_view k : present_keys(rows)) {
        if (is_headline(k))
            keys.push_back(k);
    }
    return keys;
}

}  // namespace loopscope
