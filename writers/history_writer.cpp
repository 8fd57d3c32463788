// Writing the runs of a history (see history_writer.hpp).
#include "writers/history_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/figures.hpp"
#include "writers/html_bars.hpp"
#include "writers/html_chart.hpp"
#include "writers/palette.hpp"
#include "writers/section_html.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

using Align = MarkdownTable::Align;

std::vector<std::string> label_keys(const std::vector<HistoryRun>& runs,
                                    Labels HistoryRun::*which) {
    std::vector<std::string> keys;
    for (const HistoryRun& r : runs) {
        for (const auto& [k, v] : r.*which) {
            if (std::find(keys.begin(), keys.end(), k) == keys.end())
                keys.push_back(k);
        }
    }
    return keys;
}

// Every figure key of the runs, each after the keys that precede it in any run (runs store their
// figures in the catalogue's order, so this is that order): a run's JSON lists its figures as
// stored.
std::vector<std::string> all_figure_keys(const std::vector<HistoryRun>& runs) {
    std::vector<std::string> keys;
    std::map<std::string, std::vector<std::string>> before;  // key -> keys before it
    for (const HistoryRun& r : runs) {
        for (std::size_t i = 0; i < r.figures.size(); ++i) {
            auto& b = before[r.figures[i].first];
            if (b.empty() && std::find(keys.begin(), keys.end(), r.figures[i].first) == keys.end())
                keys.push_back(r.figures[i].first);
            if (i > 0)
                b.push_back(r.figures[i - 1].first);
        }
    }
    // Kahn's order, first appearance breaking ties.
    std::vector<std::string> ordered;
    std::vector<bool> placed(keys.size(), false);
    while (ordered.size() < keys.size()) {
        bool progress = false;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (placed[i])
                continue;
            const auto& b = before[keys[i]];
            const bool ready = std::all_of(b.begin(), b.end(), [&](const std::string& k) {
                return std::find(ordered.begin(), ordered.end(), k) != ordered.end();
            });
            if (ready) {
                ordered.push_back(keys[i]);
                placed[i] = true;
                progress = true;
                break;
            }
        }
        if (!progress) {
            // Runs that disagree on the order (a cycle): the rest in first appearance.
            for (std::size_t i = 0; i < keys.size(); ++i) {
                if (!placed[i])
                    ordered.push_back(keys[i]);
            }
        }
    }
    return ordered;
}

std::vector<std::string> sorted(std::vector<std::string> keys) {
    std::sort(keys.begin(), keys.end());
    return keys;
}

std::string labels_name(const Labels& labels) {
    std::string name;
    for (const auto& [k, v] : labels)
        name += (name.empty() ? "" : ", ") + k + "=" + v;
    return name.empty() ? "(no labels)" : name;
}

DataCell label_cell(const Labels& labels, const std::string& key) {
    const std::string* v = find_label(labels, key);
    return v ? DataCell::of_text(*v, printable(*v)) : DataCell::missing();
}

DataCell figure_cell(const HistoryRun& r, const std::string& key, DataCell::Kind missing) {
    const std::optional<double> v = r.figure(key);
    return v ? DataCell::of_number(*v, format_figure(key, *v)) : DataCell::missing("-", missing);
}

// The x axis of every chart: one place a run, in the order stored, named by its number and the
// day it was added (UTC), without the year when every run has the same (the table has the whole
// time), so that the names fit under their ticks.
std::vector<std::string> run_names(const std::vector<HistoryRun>& runs) {
    const bool one_year = std::all_of(runs.begin(), runs.end(), [&](const HistoryRun& r) {
        return r.added_utc.substr(0, 4) == runs.front().added_utc.substr(0, 4);
    });
    std::vector<std::string> names;
    names.reserve(runs.size());
    for (const HistoryRun& r : runs) {
        // Non-breaking hyphens: a tick's name breaks only after the dot.
        std::string day;
        for (const char c :
             r.added_utc.substr(one_year && r.added_utc.size() >= 10 ? 5 : 0, one_year ? 5 : 10))
            day += c == '-' ? std::string("\u2011") : std::string(1, c);
        names.push_back(fmt::format("{}\u00a0\u00b7 {}", r.id, day));
    }
    return names;
}

// One chart: the figure over the runs, one line a label group (a run of another group is a gap
// the line goes over), each run the regression gate found regressed ringed in red, its verdict's
// detail under the pointer.
std::string line_chart(const std::string& figure, const std::vector<HistoryRun>& runs,
                       const std::vector<std::string>& names) {
    const Figure* f = find_figure(figure);
    const std::string unit = f != nullptr ? std::string(f->unit) : std::string();
    Chart chart;
    chart.id = "history-" + figure;
    chart.title = fmt::format("{}{} by run (number \u00b7 day added, UTC)", figure,
                              unit.empty() ? "" : " (" + unit + ")");
    chart.y_label = unit.empty() ? figure : unit;
    chart.x_resolution = 1;
    chart.x_names = names;
    chart.height_px = 240;
    std::map<std::string, std::size_t> by_name;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        chart.x.push_back(static_cast<double>(i));
        const std::optional<double> v = runs[i].figure(figure);
        if (!v)
            continue;
        const std::string name = labels_name(runs[i].labels);
        const auto [it, added] = by_name.try_emplace(name, chart.series.size());
        if (added) {
            ChartSeries series;
            series.label = name;
            series.values.assign(runs.size(), kChartNoValue);
            chart.series.push_back(std::move(series));
        }
        chart.series[it->second].values[i] = *v;
        if (runs[i].verdict == "regressed") {
            // The gate's own words in the hover legend: which figure, by how much, against what.
            const std::string detail = printable(runs[i].verdict_detail);
            chart.marks.push_back(
                ChartMark{static_cast<double>(i), *v,
                          detail.empty() ? fmt::format("run {} regressed", runs[i].id)
                                         : fmt::format("run {} regressed: {}", runs[i].id, detail),
                          "", 0, 0});
        }
    }
    if (chart.series.empty())
        return fmt::format("<p>No run has {}.</p>\n", html_escape(figure));
    std::vector<std::string> groups;
    for (std::size_t s = 0; s < chart.series.size(); ++s) {
        chart.series[s].colour = series_colour(s);
        groups.push_back(chart.series[s].label);
    }
    return chart_html(chart) + html_series_key(groups);
}

std::string runs_line(const HistoryListing& listing) {
    return fmt::format("{} run{}", listing.runs.size(), listing.runs.size() == 1 ? "" : "s");
}

std::string html(const HistoryListing& listing) {
    std::string text = html_document_start("loopscope history");
    text += fmt::format("<h1>History {}</h1>\n", html_escape(listing.database));
    const std::vector<std::string> names = run_names(listing.runs);
    if (!listing.figures.empty())
        text += "<h2>Figures over the runs</h2>\n";
    for (const std::string& f : listing.figures)
        text += line_chart(f, listing.runs, names);
    text += "<h2>Runs</h2>\n<p>" + html_escape(runs_line(listing)) + "</p>\n";
    // A wide table scrolls in a box of its own: the page never scrolls sideways.
    text += "<div style=\"overflow-x:auto\">" +
            html_table(text_table(history_table(listing)), TextMarkup::plain) + "</div>\n";
    return text + "</body></html>\n";
}

}  // namespace

DataTable history_table(const HistoryListing& listing) {
    const std::vector<HistoryRun>& runs = listing.runs;
    const std::vector<std::string> labels = label_keys(runs, &HistoryRun::labels);
    const std::vector<std::string> run_labels = label_keys(runs, &HistoryRun::run_labels);
    using F = DataColumn::Formats;
    DataTable t;
    const std::size_t run = t.add_column({"run", "run", Align::right, "", F::all});
    const std::size_t added = t.add_column({"added_utc", "added (UTC)", Align::left, "", F::all});
    const std::size_t file = t.add_column({"file", "capture", Align::left, "", F::all});
    const std::size_t hash = t.add_column({"hash", "", Align::left, "", F::csv | F::json});
    const std::size_t format = t.add_column({"format", "", Align::left, "", F::csv | F::json});
    const std::size_t labels_open = t.add_column({"", "", Align::left, "labels", F::json});
    std::vector<std::size_t> label_columns, run_label_columns, figure_columns, json_figures;
    for (const std::string& l : labels)
        label_columns.push_back(t.add_column({l, l, Align::left, "", F::csv | F::text}));
    // A run label's column: "run:" before its key, apart from the labels of the series.
    for (const std::string& l : run_labels) {
        const std::string column = "run:" + l;
        run_label_columns.push_back(
            t.add_column({column, column, Align::left, "", F::csv | F::text}));
    }
    // JSON: each run's labels as objects, in the order stored (sorted by key).
    const std::vector<std::string> json_labels = sorted(labels);
    const std::vector<std::string> json_run_labels = sorted(run_labels);
    const std::size_t labels_json = t.columns.size();
    for (const std::string& l : json_labels)
        t.add_column({l, l, Align::left, "labels", F::json});
    const std::size_t run_labels_open = t.add_column({"", "", Align::left, "run_labels", F::json});
    const std::size_t run_labels_json = t.columns.size();
    for (const std::string& l : json_run_labels)
        t.add_column({l, l, Align::left, "run_labels", F::json});
    const unsigned figure_formats = listing.all_figures_in_json ? F::csv | F::text : F::all;
    for (const std::string& f : listing.figures)
        figure_columns.push_back(t.add_column({f, f, Align::right, "figures", figure_formats}));
    const std::vector<std::string> json_figure_keys =
        listing.all_figures_in_json ? all_figure_keys(runs) : std::vector<std::string>{};
    for (const std::string& f : json_figure_keys)
        json_figures.push_back(t.add_column({f, f, Align::right, "figures", F::json}));
    const std::size_t verdict = t.add_column({"verdict", "verdict", Align::left, "", F::all});
    const std::size_t version =
        t.add_column({"loopscope_version", "", Align::left, "", F::csv | F::json});
    const std::size_t machine = t.add_column({"machine", "", Align::left, "", F::json});
    const std::size_t detail = t.add_column({"verdict_detail", "", Align::left, "", F::json});
    const std::size_t figures_open = t.add_column({"", "", Align::left, "figures", F::json});

    // CSV: the run's identity and version, then labels, figures, verdict.
    t.csv_order = {run, added, file, hash, format, version};
    for (const std::size_t c : label_columns)
        t.csv_order.push_back(c);
    for (const std::size_t c : run_label_columns)
        t.csv_order.push_back(c);
    for (const std::size_t c : figure_columns)
        t.csv_order.push_back(c);
    t.csv_order.push_back(verdict);
    // JSON: labels as objects, the machine, the verdict's detail, then the figures' object.
    t.json_order = {run, added, file, hash, format, labels_open};
    for (std::size_t i = 0; i < json_labels.size(); ++i)
        t.json_order.push_back(labels_json + i);
    t.json_order.push_back(run_labels_open);
    for (std::size_t i = 0; i < json_run_labels.size(); ++i)
        t.json_order.push_back(run_labels_json + i);
    t.json_order.insert(t.json_order.end(), {version, machine, verdict, detail, figures_open});
    for (const std::size_t c : figure_columns)
        t.json_order.push_back(c);
    for (const std::size_t c : json_figures)
        t.json_order.push_back(c);

    for (const HistoryRun& r : runs) {
        std::vector<DataCell> cells(t.columns.size());
        cells[run] = DataCell::of_integer(r.id);
        cells[added] = DataCell::of_text(r.added_utc);
        cells[file] = DataCell::of_text(r.source_file, printable(r.source_file));
        cells[hash] = DataCell::of_text(r.source_hash);
        cells[format] = DataCell::of_text(r.format);
        for (std::size_t i = 0; i < labels.size(); ++i)
            cells[label_columns[i]] = label_cell(r.labels, labels[i]);
        for (std::size_t i = 0; i < run_labels.size(); ++i)
            cells[run_label_columns[i]] = label_cell(r.run_labels, run_labels[i]);
        for (std::size_t i = 0; i < json_labels.size(); ++i)
            cells[labels_json + i] = label_cell(r.labels, json_labels[i]);
        for (std::size_t i = 0; i < json_run_labels.size(); ++i)
            cells[run_labels_json + i] = label_cell(r.run_labels, json_run_labels[i]);
        for (std::size_t i = 0; i < listing.figures.size(); ++i)
            cells[figure_columns[i]] = figure_cell(r, listing.figures[i], DataCell::Kind::null);
        for (std::size_t i = 0; i < json_figure_keys.size(); ++i)
            cells[json_figures[i]] = figure_cell(r, json_figure_keys[i], DataCell::Kind::absent);
        cells[verdict] = DataCell::of_text(r.verdict);
        cells[version] = DataCell::of_text(r.loopscope_version);
        cells[machine] = r.machine_json.empty() ? DataCell::missing("-", DataCell::Kind::null)
                                                : DataCell::of_json(r.machine_json);
        cells[detail] = DataCell::of_text(r.verdict_detail);
        t.add_row(std::move(cells));
    }
    return t;
}

std::string write_history(const HistoryListing& listing, std::string_view format) {
    if (format == "html")
        return html(listing);
    return write_data_table(history_table(listing), format, runs_line(listing), "runs");
}

}  // namespace loopscope
