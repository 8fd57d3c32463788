// `loopscope fleet clickhouse://HOST:PORT/DATABASE --group-by LABEL`: figures per group of
// labels over the pooled frames of the captures stored with `report --store`, computed inside
// ClickHouse (stores/clickhouse.hpp), written by writers/fleet_writer.hpp.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "stores/clickhouse.hpp"
#include "tool/commands.hpp"
#include "tool/option_values.hpp"
#include "writers/fleet_writer.hpp"

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
    FleetListing listing;
    listing.url = url.text;
    listing.group_by = args.group_by;
    listing.figure_keys = fleet_figure_keys();
    listing.groups = std::move(groups);
    OutputFile out(args.output);
    out.write(write_fleet(listing, args.format));
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
