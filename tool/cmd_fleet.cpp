// `loopscope fleet clickhouse://HOST:PORT/DATABASE --group-by LABEL`: figures per group of
// labels over the pooled frames of the captures stored with `report --store`, computed inside
// ClickHouse (stores/clickhouse.hpp), as a table, CSV, JSON ({"groups": [...]}) or HTML.
#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/markdown_table.hpp"
#include "common/output_file.hpp"
#include "core/figures.hpp"
#include "stores/clickhouse.hpp"
#include "writers/markdown_html.hpp"
#include "writers/summary_writer.hpp"
#include "writers/writer.hpp"
#include "tool/commands.hpp"
#include "tool/option_values.hpp"

namespace loopscope {

namespace {

struct FleetArgs {
    std::string url;
    std::vector<std::string> group_by;
    std::vector<std::string> where;
    std::string format = "terminal";
    std::string output = "-";
    long stall_timeout_s = ClickHouseLimits{}.stall_timeout_s;
};

constexpr std::array<std::string_view, 5> kFormats = {"terminal", "md", "csv", "json", "html"};

std::string group_name(const Labels& labels) {
    std::string name;
    for (const auto& [k, v] : labels)
        name += (name.empty() ? "" : ", ") + k + "=" + (v.empty() ? "-" : v);
    return name.empty() ? "all captures" : name;
}

std::string table(const std::vector<FleetGroup>& groups, const std::vector<std::string>& group_by,
                  const std::string& url) {
    MarkdownTable t;
    for (const std::string& g : group_by)
        t.add_column(g, MarkdownTable::Align::left);
    t.add_column("captures");
    t.add_column("frames");
    for (const std::string& k : fleet_figure_keys())
        t.add_column(k);
    for (const FleetGroup& g : groups) {
        std::vector<std::string> cells;
        for (const auto& [k, v] : g.labels)
            cells.push_back(v.empty() ? "-" : printable(v));
        cells.push_back(std::to_string(g.captures));
        cells.push_back(std::to_string(g.frames));
        for (const auto& [k, v] : g.figures)
            cells.push_back(v ? format_figure(k, *v) : "-");
        t.add_row(std::move(cells));
    }
    std::uint64_t captures = 0, frames = 0;
    for (const FleetGroup& g : groups) {
        captures += g.captures;
        frames += g.frames;
    }
    return fmt::format(
               "{}: {} group{}, {} captures, {} frames (figures over each group's pooled "
               "frames)\n\n",
               url, groups.size(), groups.size() == 1 ? "" : "s", captures, frames) +
           t.render();
}

std::string csv(const std::vector<FleetGroup>& groups, const std::vector<std::string>& group_by) {
    std::vector<std::string> header;
    for (const std::string& g : group_by)
        header.push_back(csv_field(g));
    header.insert(header.end(), {"captures", "frames"});
    for (const std::string& k : fleet_figure_keys())
        header.push_back(k);
    std::string text = fmt::format("{}\n", fmt::join(header, ","));
    for (const FleetGroup& g : groups) {
        std::vector<std::string> cells;
        for (const auto& [k, v] : g.labels)
            cells.push_back(csv_field(v));
        cells.push_back(std::to_string(g.captures));
        cells.push_back(std::to_string(g.frames));
        for (const auto& [k, v] : g.figures)
            cells.push_back(v ? fmt::format("{}", *v) : std::string());
        text += fmt::format("{}\n", fmt::join(cells, ","));
    }
    return text;
}

std::string json(const std::vector<FleetGroup>& groups) {
    using Json = nlohmann::ordered_json;
    Json list = Json::array();
    for (const FleetGroup& g : groups) {
        Json j;
        Json labels = Json::object();
        for (const auto& [k, v] : g.labels)
            labels[k] = v;
        j["labels"] = std::move(labels);
        j["captures"] = g.captures;
        j["frames"] = g.frames;
        Json figures = Json::object();
        for (const auto& [k, v] : g.figures)
            figures[k] = v ? Json(*v) : Json(nullptr);
        j["figures"] = std::move(figures);
        list.push_back(std::move(j));
    }
    Json doc;
    doc["groups"] = std::move(list);
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string html(const std::vector<FleetGroup>& groups, const std::vector<std::string>& group_by,
                 const std::string& url) {
    std::string text = html_document_start("loopscope fleet");
    text += fmt::format("<h1>Fleet {}</h1>\n", html_escape(url));
    const std::vector<std::string> series = {"avg_fps", "p1_low_fps", "low1_avg_fps"};
    std::vector<BarRow> rows;
    for (const FleetGroup& g : groups) {
        BarRow row;
        row.label = group_name(g.labels);
        for (const std::string& k : series)
            row.values.push_back(g.figure(k));
        rows.push_back(std::move(row));
    }
    text += "<h2>Average FPS and the 1 % lows of each group's pooled frames</h2>\n";
    text += svg_bar_chart(series, rows, "FPS");
    text += "<h2>Groups</h2>\n" + markdown_to_html(table(groups, group_by, url));
    return text + "</body></html>\n";
}

int run_fleet(const FleetArgs& args) {
    if (std::find(kFormats.begin(), kFormats.end(), args.format) == kFormats.end()) {
        throw UsageError(
            fmt::format("--format '{}': expected {}", args.format, fmt::join(kFormats, ", ")));
    }
    if (args.format == "html" && args.output == "-")
        throw UsageError("--format html writes a file: give it with -o FILE");
    const ClickHouseUrl url = parse_clickhouse_url("DATABASE", args.url);
    if (!clickhouse_available()) {
        throw UsageError("this loopscope was built without libcurl: it cannot talk to ClickHouse");
    }
    for (const std::string& g : args.group_by) {
        if (g.empty())
            throw UsageError("--group-by: an empty label name");
    }
    Labels where;
    for (const std::string& w : args.where) {
        const auto [k, v] = parse_label(w);
        set_label(where, k, v);
    }
    std::vector<FleetGroup> groups;
    try {
        ClickHouseClient client(url, ClickHouseLimits{.stall_timeout_s = args.stall_timeout_s});
        groups = fleet_groups(client, args.group_by, where);
    } catch (const ClickHouseError& e) {
        fmt::print(stderr, "loopscope: error: {}\n", e.what());
        return kExitFailure;
    }
    std::string text;
    if (args.format == "json")
        text = json(groups);
    else if (args.format == "csv")
        text = csv(groups, args.group_by);
    else if (args.format == "html")
        text = html(groups, args.group_by, url.text);
    else
        text = table(groups, args.group_by, url.text);
    OutputFile out(args.output);
    out.write(text);
    out.commit();
    return kExitOk;
}

}  // namespace

void add_fleet_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<FleetArgs>();
    CLI::App* cmd = app.add_subcommand(
        "fleet",
        "Figures per group of labels over the pooled frames of the captures a ClickHouse "
        "database holds (report --store), computed by ClickHouse: captures, frames, average FPS, "
        "percentiles and the 1 % lows");
    cmd->add_option("DATABASE", args->url, "clickhouse://HOST:PORT/DATABASE")->required();
    cmd->add_option("--group-by", args->group_by,
                    "Group the captures by this label's value (captures without it form the "
                    "group '-'); may be repeated; none: one group of every capture")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--where", args->where,
                    "Only the captures with this label KEY=VALUE; may be repeated (all must hold)")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--format", args->format, "Output format: terminal, md, csv, json or html")
        ->capture_default_str();
    cmd->add_option("-o,--output", args->output,
                    "Output file; '-' is standard output, the default (html needs a file)")
        ->capture_default_str();
    cmd->add_option("--stall-timeout", args->stall_timeout_s,
                    "Seconds a request to ClickHouse may go without a byte moving before it fails")
        ->check(CLI::Range(1L, 86400L))
        ->capture_default_str();
    cmd->callback([args, &exit_code] { exit_code = run_fleet(*args); });
}

}  // namespace loopscope
