// `loopscope history FILE.db`: the runs a history holds (report --history), filtered by labels,
// with chosen figures, written by writers/history_writer.hpp.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"
#include "core/figures.hpp"
#include "stores/history.hpp"
#include "tool/commands.hpp"
#include "tool/option_values.hpp"
#include "writers/history_writer.hpp"

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
    std::vector<HistoryRun> runs = history.runs(filter, run_filter);
    HistoryListing listing;
    listing.database = args.database;
    listing.figures = shown_figures(args, runs);
    listing.runs = std::move(runs);
    listing.all_figures_in_json = args.figures.empty();
    OutputFile out(args.output);
    out.write(write_history(listing, args.format));
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
