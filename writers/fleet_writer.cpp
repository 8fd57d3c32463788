// Writing a fleet's groups (see fleet_writer.hpp).
#include "writers/fleet_writer.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/figures.hpp"
#include "writers/html_bars.hpp"
#include "writers/section_html.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

using Align = MarkdownTable::Align;

std::string group_name(const Labels& labels) {
    std::string name;
    for (const auto& [k, v] : labels)
        name += (name.empty() ? "" : ", ") + k + "=" + (v.empty() ? "-" : v);
    return name.empty() ? "all captures" : name;
}

std::string totals_line(const FleetListing& listing) {
    std::uint64_t captures = 0, frames = 0;
    for (const FleetGroup& g : listing.groups) {
        captures += g.captures;
        frames += g.frames;
    }
    return fmt::format(
        "{}: {} group{}, {} captures, {} frames (figures over each group's pooled frames)",
        listing.url, listing.groups.size(), listing.groups.size() == 1 ? "" : "s", captures,
        frames);
}

std::string html(const FleetListing& listing) {
    std::string text = html_document_start("loopscope fleet");
    text += fmt::format("<h1>Fleet {}</h1>\n", html_escape(listing.url));
    constexpr std::array<std::string_view, 3> kKeys = {"avg_fps", "p1_low_fps", "low1_avg_fps"};
    std::vector<std::string> series;
    for (std::string_view k : kKeys) {
        // The figure's label and its key, as in the summary's bars.
        const Figure* figure = find_figure(k);
        series.push_back(figure != nullptr && !figure->label.empty()
                             ? fmt::format("{} ({})", figure->label, k)
                             : std::string(k));
    }
    std::vector<BarRow> rows;
    for (const FleetGroup& g : listing.groups) {
        BarRow row;
        row.label = group_name(g.labels);
        for (std::string_view k : kKeys)
            row.values.push_back(g.figure(k));
        rows.push_back(std::move(row));
    }
    text += bars_page_head();
    text += html_bar_chart(BarChart{"fleet-bars",
                                    "Average FPS and the 1 % lows of each group's pooled frames",
                                    "FPS", series, std::move(rows)});
    text += "<h2>Groups</h2>\n<p>" + html_escape(totals_line(listing)) + "</p>\n";
    // A wide table scrolls in a box of its own: the page never scrolls sideways.
    text += "<div style=\"overflow-x:auto\">" +
            html_table(text_table(fleet_table(listing)), TextMarkup::plain) + "</div>\n";
    return text + "</body></html>\n";
}

}  // namespace

DataTable fleet_table(const FleetListing& listing) {
    using F = DataColumn::Formats;
    DataTable t;
    // The labels' object is written even with no grouping label ({}).
    t.add_column({"", "", Align::left, "labels", F::json});
    for (const std::string& g : listing.group_by)
        t.add_column({g, g, Align::left, "labels", F::all});
    t.add_column({"captures", "captures", Align::right, "", F::all});
    t.add_column({"frames", "frames", Align::right, "", F::all});
    t.add_column({"", "", Align::left, "figures", F::json});
    for (const std::string& k : listing.figure_keys)
        t.add_column({k, k, Align::right, "figures", F::all});
    for (const FleetGroup& g : listing.groups) {
        std::vector<DataCell> cells{DataCell::missing()};
        for (std::size_t i = 0; i < listing.group_by.size(); ++i) {
            // A capture without the label is in the group "" (shown "-").
            const std::string v = i < g.labels.size() ? g.labels[i].second : std::string();
            cells.push_back(DataCell::of_text(v, v.empty() ? "-" : printable(v)));
        }
        cells.push_back(DataCell::of_integer(static_cast<std::int64_t>(g.captures)));
        cells.push_back(DataCell::of_integer(static_cast<std::int64_t>(g.frames)));
        cells.push_back(DataCell::missing());
        for (const std::string& k : listing.figure_keys) {
            const std::optional<double> v = g.figure(k);
            cells.push_back(v ? DataCell::of_number(*v, format_figure(k, *v))
                              : DataCell::missing("-", DataCell::Kind::null));
        }
        t.add_row(std::move(cells));
    }
    return t;
}

std::string write_fleet(const FleetListing& listing, std::string_view format) {
    if (format == "html")
        return html(listing);
    return write_data_table(fleet_table(listing), format, totals_line(listing), "groups");
}

}  // namespace loopscope
