// `loopscope history FILE.db`: the runs a history holds (report --history), filtered by labels,
// with chosen figures, as a table, CSV, JSON ({"runs": [...]}) or HTML with each figure plotted
// over the runs of each label group.
#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/markdown_table.hpp"
#include "common/output_file.hpp"
#include "core/figures.hpp"
#include "stores/history.hpp"
#include "tool/commands.hpp"
#include "tool/option_values.hpp"
#include "writers/markdown_html.hpp"
#include "writers/palette.hpp"
#include "writers/summary_writer.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

struct HistoryArgs {
    std::string database;
    std::vector<std::string> labels;
    std::vector<std::string> run_labels;
    std::vector<std::string> figures;
    std::string format = "terminal";
    std::string output = "-";
};

constexpr std::array<std::string_view, 5> kFormats = {"terminal", "md", "csv", "json", "html"};

// The figures shown: those asked for, else the headline figures any run has.
std::vector<std::string> shown_figures(const HistoryArgs& args,
                                       const std::vector<HistoryRun>& runs) {
    if (!args.figures.empty())
        return args.figures;
    std::vector<std::string> keys;
    for (std::string_view k : {"frames", "avg_fps", "p1_low_fps", "low1_avg_fps", "p99_ms",
                               "stutter_time_share", "hitch_count"}) {
        const bool any = std::any_of(runs.begin(), runs.end(),
                                     [&](const HistoryRun& r) { return r.figure(k).has_value(); });
        if (any)
            keys.emplace_back(k);
    }
    return keys;
}

std::vector<std::string> label_keys(const std::vector<HistoryRun>& runs,
                                    Labels HistoryRun::*which = &HistoryRun::labels) {
    std::vector<std::string> keys;
    for (const HistoryRun& r : runs) {
        for (const auto& [k, v] : r.*which) {
            if (std::find(keys.begin(), keys.end(), k) == keys.end())
                keys.push_back(k);
        }
    }
    return keys;
}

// A run label's column: "run:" before its key, apart from the labels of the series.
std::string run_label_column(const std::string& key) {
    std::string column = "run:";
    column += key;
    return column;
}

std::string labels_name(const Labels& labels) {
    std::string name;
    for (const auto& [k, v] : labels)
        name += (name.empty() ? "" : ", ") + k + "=" + v;
    return name.empty() ? "(no labels)" : name;
}

std::string table(const std::vector<HistoryRun>& runs, const std::vector<std::string>& figures) {
    const std::vector<std::string> labels = label_keys(runs);
    const std::vector<std::string> run_labels = label_keys(runs, &HistoryRun::run_labels);
    MarkdownTable t;
    t.add_column("run");
    t.add_column("added (UTC)", MarkdownTable::Align::left);
    t.add_column("capture", MarkdownTable::Align::left);
    for (const std::string& l : labels)
        t.add_column(l, MarkdownTable::Align::left);
    for (const std::string& l : run_labels)
        t.add_column(run_label_column(l), MarkdownTable::Align::left);
    for (const std::string& f : figures)
        t.add_column(f);
    t.add_column("verdict", MarkdownTable::Align::left);
    for (const HistoryRun& r : runs) {
        std::vector<std::string> cells{std::to_string(r.id), r.added_utc, printable(r.source_file)};
        for (const std::string& l : labels) {
            const std::string* v = find_label(r.labels, l);
            cells.push_back(v ? printable(*v) : "-");
        }
        for (const std::string& l : run_labels) {
            const std::string* v = find_label(r.run_labels, l);
            cells.push_back(v ? printable(*v) : "-");
        }
        for (const std::string& f : figures) {
            const std::optional<double> v = r.figure(f);
            cells.push_back(v ? format_figure(f, *v) : "-");
        }
        cells.push_back(r.verdict);
        t.add_row(std::move(cells));
    }
    return fmt::format("{} run{}\n\n", runs.size(), runs.size() == 1 ? "" : "s") + t.render();
}

std::string csv(const std::vector<HistoryRun>& runs, const std::vector<std::string>& figures) {
    const std::vector<std::string> labels = label_keys(runs);
    const std::vector<std::string> run_labels = label_keys(runs, &HistoryRun::run_labels);
    std::string text = "run,added_utc,file,hash,format,loopscope_version";
    // Appended piece by piece: GCC 12's -Wrestrict misfires at -O3 on `text += "," + s`.
    for (const std::string& l : labels)
        text.append(",").append(csv_field(l));
    for (const std::string& l : run_labels)
        text.append(",").append(csv_field(run_label_column(l)));
    for (const std::string& f : figures)
        text.append(",").append(csv_field(f));
    text += ",verdict\n";
    for (const HistoryRun& r : runs) {
        text += fmt::format("{},{},{},{},{},{}", r.id, r.added_utc, csv_field(r.source_file),
                            r.source_hash, csv_field(r.format), csv_field(r.loopscope_version));
        for (const std::string& l : labels) {
            const std::string* v = find_label(r.labels, l);
            text.append(",").append(v ? csv_field(*v) : std::string());
        }
        for (const std::string& l : run_labels) {
            const std::string* v = find_label(r.run_labels, l);
            text.append(",").append(v ? csv_field(*v) : std::string());
        }
        for (const std::string& f : figures) {
            const std::optional<double> v = r.figure(f);
            text += v ? fmt::format(",{}", *v) : std::string(",");
        }
        text.append(",").append(r.verdict).append("\n");
    }
    return text;
}

std::string json(const std::vector<HistoryRun>& runs, const std::vector<std::string>& figures,
                 bool all_figures) {
    using Json = nlohmann::ordered_json;
    Json list = Json::array();
    for (const HistoryRun& r : runs) {
        Json j;
        j["run"] = r.id;
        j["added_utc"] = r.added_utc;
        j["file"] = r.source_file;
        j["hash"] = r.source_hash;
        j["format"] = r.format;
        Json labels = Json::object();
        for (const auto& [k, v] : r.labels)
            labels[k] = v;
        j["labels"] = std::move(labels);
        Json run_labels = Json::object();
        for (const auto& [k, v] : r.run_labels)
            run_labels[k] = v;
        j["run_labels"] = std::move(run_labels);
        j["loopscope_version"] = r.loopscope_version;
        j["machine"] = r.machine_json.empty() ? Json(nullptr) : Json::parse(r.machine_json);
        j["verdict"] = r.verdict;
        j["verdict_detail"] = r.verdict_detail;
        Json fig = Json::object();
        if (all_figures) {
            for (const auto& [k, v] : r.figures)
                fig[k] = v;
        } else {
            for (const std::string& f : figures) {
                const std::optional<double> v = r.figure(f);
                fig[f] = v ? Json(*v) : Json(nullptr);
            }
        }
        j["figures"] = std::move(fig);
        list.push_back(std::move(j));
    }
    Json doc;
    doc["runs"] = std::move(list);
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// One SVG line chart: the figure over the runs (in the order stored), one line a label group.
std::string line_chart(const std::string& figure, const std::vector<HistoryRun>& runs) {
    std::vector<LineSeries> series;
    std::map<std::string, std::size_t> by_name;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::optional<double> v = runs[i].figure(figure);
        if (!v)
            continue;
        const std::string name = labels_name(runs[i].labels);
        const auto [it, added] = by_name.try_emplace(name, series.size());
        if (added)
            series.push_back(LineSeries{name, {}});
        series[it->second].points.push_back(
            LinePoint{i, *v, runs[i].id, runs[i].verdict == "regressed"});
    }
    return svg_line_chart(figure, runs.size(), series);
}

std::string html(const std::vector<HistoryRun>& runs, const std::vector<std::string>& figures,
                 const std::string& database) {
    std::string text = html_document_start("loopscope history");
    text += fmt::format("<h1>History {}</h1>\n", html_escape(database));
    for (const std::string& f : figures) {
        const Figure* figure = find_figure(f);
        text += fmt::format("<h2>{}{}</h2>\n", html_escape(f),
                            figure && !figure->unit.empty() ? " (" + html_escape(figure->unit) + ")"
                                                            : std::string());
        text += line_chart(f, runs);
    }
    text += "<h2>Runs</h2>\n" + markdown_to_html(table(runs, figures));
    return text + "</body></html>\n";
}

int run_history(const HistoryArgs& args) {
    if (std::find(kFormats.begin(), kFormats.end(), args.format) == kFormats.end()) {
        throw UsageError(
            fmt::format("--format '{}': expected {}", args.format, fmt::join(kFormats, ", ")));
    }
    if (args.format == "html" && args.output == "-")
        throw UsageError("--format html writes a file: give it with -o FILE");
    Labels filter;
    for (const std::string& l : args.labels) {
        const auto [k, v] = parse_label(l);
        set_label(filter, k, v);
    }
    Labels run_filter;
    for (const std::string& l : args.run_labels) {
        const auto [k, v] = parse_label(l);
        set_label(run_filter, k, v);
    }
    for (const std::string& f : args.figures) {
        const Figure* figure = find_figure(f);
        if (figure == nullptr || figure->value == nullptr) {
            throw UsageError(fmt::format("--figure '{}': {}", f, unknown_figure_text(f)));
        }
    }
    History history(args.database, false);
    const std::vector<HistoryRun> runs = history.runs(filter, run_filter);
    const std::vector<std::string> figures = shown_figures(args, runs);
    std::string text;
    if (args.format == "json")
        text = json(runs, figures, args.figures.empty());
    else if (args.format == "csv")
        text = csv(runs, figures);
    else if (args.format == "html")
        text = html(runs, figures, args.database);
    else
        text = table(runs, figures);
    OutputFile out(args.output);
    out.write(text);
    out.commit();
    return kExitOk;
}

}  // namespace

void add_history_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<HistoryArgs>();
    CLI::App* cmd =
        app.add_subcommand("history",
                           "The runs a history database holds (report --history FILE.db): their "
                           "labels, figures and the regression gate's verdicts");
    cmd->add_option("FILE.db", args->database, "The history database")->required();
    cmd->add_option("--label", args->labels,
                    "Only the runs with this label KEY=VALUE; may be repeated")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--run-label", args->run_labels,
                    "Only the runs with this run label KEY=VALUE (report --run-label); may be "
                    "repeated")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--figure", args->figures,
                    "A figure to show (default: the headline figures); may be repeated")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--format", args->format,
                    "Output format: terminal, md, csv, json or html (each figure over the runs)")
        ->capture_default_str();
    cmd->add_option("-o,--output", args->output,
                    "Output file; '-' is standard output, the default (html needs a file)")
        ->capture_default_str();
    cmd->callback([args, &exit_code] { exit_code = run_history(*args); });
}

}  // namespace loopscope
