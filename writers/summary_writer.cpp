// The summary of many captures in each output format (see summary_writer.hpp). The figures are
// the catalogue's: the tables of one column a figure show the headline set, CSV, JSON and JSONL
// every figure a row has.
#include "writers/summary_writer.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/markdown_table.hpp"
#include "core/figures.hpp"
#include "writers/html_bars.hpp"
#include "writers/section_html.hpp"
#include "writers/writer.hpp"

namespace loopscope {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::array<std::string_view, 6> kFormats = {"terminal", "md",   "csv",
                                                      "json",     "html", "jsonl"};

// Every label key any row has, in order of first appearance.
std::vector<std::string> label_keys(const std::vector<CaptureSummary>& rows) {
    std::vector<std::string> keys;
    for (const CaptureSummary& r : rows) {
        for (const auto& [k, v] : r.labels) {
            if (std::find(keys.begin(), keys.end(), k) == keys.end())
                keys.push_back(k);
        }
    }
    return keys;
}

std::string cell(std::string_view key, const std::optional<double>& v) {
    return v ? format_figure(key, *v) : std::string("-");
}

std::string label_cell(const Labels& labels, const std::string& key) {
    const std::string* v = find_label(labels, key);
    return v != nullptr ? printable(*v) : std::string("-");
}

std::string group_name(const Labels& labels) {
    std::string name;
    for (const auto& [k, v] : labels)
        name += (name.empty() ? "" : ", ") + k + "=" + (v.empty() ? "-" : v);
    return name;
}

// The table of captures, the groups' table and the files skipped: printed as Markdown by the
// terminal and `md`, as HTML by `html`.
TextSection tables(const SummaryDocument& doc) {
    const std::vector<std::string_view> keys = headline_keys(doc.rows);
    const std::vector<std::string> labels = label_keys(doc.rows);
    const bool any_failed = std::any_of(doc.rows.begin(), doc.rows.end(),
                                        [](const CaptureSummary& r) { return r.failed(); });
    TextSection text;
    MarkdownTable t;
    t.add_column("capture", MarkdownTable::Align::left);
    for (const std::string& l : labels)
        t.add_column(l, MarkdownTable::Align::left);
    t.add_column("format", MarkdownTable::Align::left);
    for (std::string_view k : keys)
        t.add_column(std::string(k));
    const bool any_cause =
        std::any_of(doc.rows.begin(), doc.rows.end(),
                    [](const CaptureSummary& r) { return !r.hitch_cause.empty(); });
    if (any_cause)
        t.add_column("hitch cause", MarkdownTable::Align::left);
    if (any_failed)
        t.add_column("error", MarkdownTable::Align::left);
    for (const CaptureSummary& r : doc.rows) {
        std::vector<std::string> cells{printable(r.file)};
        for (const std::string& l : labels)
            cells.push_back(label_cell(r.labels, l));
        cells.push_back(r.format.empty() ? "-" : r.format);
        for (std::string_view k : keys)
            cells.push_back(r.failed() ? std::string() : cell(k, r.figure(k)));
        if (any_cause)
            cells.push_back(r.hitch_cause.empty() ? "-" : r.hitch_cause);
        if (any_failed) {
            // The error names the file first ("file:line:column: ..."); the row names it already.
            std::string_view error = r.error;
            if (error.starts_with(r.file + ":"))
                error.remove_prefix(r.file.size() + 1);
            cells.push_back(r.failed() ? printable(error) : std::string());
        }
        t.add_row(std::move(cells));
    }
    const std::size_t failed = static_cast<std::size_t>(
        std::count_if(doc.rows.begin(), doc.rows.end(), [](const auto& r) { return r.failed(); }));
    text.add_paragraph(fmt::format("{} capture{}, {} failed, {} file{} skipped",
                                   doc.rows.size() - failed,
                                   doc.rows.size() - failed == 1 ? "" : "s", failed,
                                   doc.skipped.size(), doc.skipped.size() == 1 ? "" : "s"));
    text.add_table(std::move(t));
    if (!doc.group_by.empty()) {
        MarkdownTable g;
        for (const std::string& l : doc.group_by)
            g.add_column(l, MarkdownTable::Align::left);
        g.add_column("captures");
        g.add_column("failed");
        for (std::string_view k : keys)
            g.add_column(std::string(k));
        for (const SummaryGroup& group : doc.groups) {
            std::vector<std::string> cells;
            for (const auto& [k, v] : group.labels)
                cells.push_back(v.empty() ? "-" : printable(v));
            cells.push_back(std::to_string(group.captures));
            cells.push_back(std::to_string(group.failed));
            for (std::string_view k : keys)
                cells.push_back(cell(k, group.figure(k)));
            g.add_row(std::move(cells));
        }
        text.add_paragraph(fmt::format(
            "Per group of {} (each figure the mean over the group's captures that have it):",
            fmt::join(doc.group_by, ", ")));
        text.add_table(std::move(g));
    }
    if (!doc.skipped.empty()) {
        text.add_paragraph("Skipped (not captures):");
        std::vector<std::string> items;
        for (const SkippedFile& s : doc.skipped)
            items.push_back(fmt::format("{}: {}", printable(s.file), printable(s.reason)));
        text.add_bullets(std::move(items));
    }
    return text;
}

std::string dump(const Json& j, int indent) {
    try {
        return j.dump(indent);
    } catch (const nlohmann::json::type_error&) {
        // A file name or label that is not UTF-8: its invalid bytes become U+FFFD.
        return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
    }
}

// Whether every byte is printable ASCII other than '"' and '\\': eight bytes at a time, each
// test a word operation that is non-zero when any of the eight bytes matches.
bool plain_ascii(std::string_view text) {
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
    const auto any_below = [&](std::uint64_t w, unsigned char n) {
        return (w - kOnes * n) & ~w & kHighs;
    };
    const auto any_equal = [&](std::uint64_t w, unsigned char c) {
        return any_below(w ^ (kOnes * c), 1);
    };
    std::uint64_t other = 0;
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, text.data() + i, 8);
        other |= any_below(w, 0x20) | (w & kHighs) | any_equal(w, 0x7f) | any_equal(w, '"') |
                 any_equal(w, '\\');
    }
    for (; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        other |= c < 0x20 || c >= 0x7f || c == '"' || c == '\\';
    }
    return other == 0;
}

// JSON text in the layout of the JSON library's dump(2) (two spaces a level, `"key": value`, an
// empty object or array as {} or []), written while the document is walked, without a tree of
// every row's values first. Strings and numbers are the library's own text of them.
class PrettyJson {
  public:
    explicit PrettyJson(std::string& out) : out_(out) {}

    void begin(char bracket) {
        before_value();
        out_ += bracket;
        empty_.push_back(true);
    }
    void end(char bracket) {
        const bool empty = empty_.back();
        empty_.pop_back();
        if (!empty)
            new_line();
        out_ += bracket;
    }
    void key(std::string_view name) {
        next_element();
        string_text(name);
        out_ += ": ";
        after_key_ = true;
    }
    void string(std::string_view text) {
        before_value();
        string_text(text);
    }
    // A number's or null's text as the library writes it.
    void raw(std::string_view text) {
        before_value();
        out_ += text;
    }

  private:
    void before_value() {
        if (after_key_)
            after_key_ = false;
        else if (!empty_.empty())
            next_element();
    }
    void next_element() {
        if (!empty_.back())
            out_ += ',';
        empty_.back() = false;
        new_line();
    }
    void new_line() {
        out_ += '\n';
        out_.append(2 * empty_.size(), ' ');
    }
    // Printable ASCII without a quote or a backslash is written by the library as it is; any
    // other string (an escape, UTF-8, invalid bytes that become U+FFFD) is the library's text.
    void string_text(std::string_view text) {
        if (plain_ascii(text)) {
            out_ += '"';
            out_ += text;
            out_ += '"';
        } else {
            out_ += json_string(text);
        }
    }

    std::string& out_;
    std::vector<bool> empty_;  // each open object or array: nothing written in it yet
    bool after_key_ = false;
};

// The library's text of each value (null for none, as for a NaN), in order: one array written by
// the library, whose elements are then taken one by one (a number's text holds no comma).
class NumberTexts {
  public:
    explicit NumberTexts(const std::vector<std::optional<double>>& values) {
        Json array = Json::array();
        for (const std::optional<double>& v : values)
            array.push_back(v ? Json(*v) : Json(nullptr));
        text_ = array.dump();
    }
    std::string_view next() {
        const std::size_t end = text_.find_first_of(",]", at_);
        const std::string_view number = std::string_view(text_).substr(at_, end - at_);
        at_ = end + 1;
        return number;
    }

  private:
    std::string text_;
    std::size_t at_ = 1;  // after the '['
};

// Labels as the library writes an object filled key by key: a key repeated keeps its first
// place and takes the last value.
void write_labels(PrettyJson& j, const Labels& labels) {
    j.begin('{');
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const std::string& key = labels[i].first;
        const auto same = [&](const auto& l) { return l.first == key; };
        if (std::any_of(labels.begin(), labels.begin() + static_cast<std::ptrdiff_t>(i), same))
            continue;
        const auto last = std::find_if(labels.rbegin(), labels.rend(), same);
        j.key(key);
        j.string(last->second);
    }
    j.end('}');
}

std::string json(const SummaryDocument& doc) {
    std::string text;
    PrettyJson j(text);
    j.begin('{');
    j.key("rows");
    j.begin('[');
    std::vector<std::optional<double>> values;
    for (const CaptureSummary& r : doc.rows) {
        j.begin('{');
        j.key("file");
        j.string(r.file);
        j.key("format");
        if (r.format.empty())
            j.raw("null");
        else
            j.string(r.format);
        j.key("labels");
        write_labels(j, r.labels);
        j.key("error");
        if (r.failed())
            j.string(r.error);
        else
            j.raw("null");
        j.key("hitch_cause");
        if (r.hitch_cause.empty())
            j.raw("null");
        else
            j.string(r.hitch_cause);
        values.clear();
        for (const SummaryFigure& f : r.figures)
            values.push_back(f.value);
        NumberTexts numbers(values);
        j.key("figures");
        j.begin('{');
        for (const SummaryFigure& f : r.figures) {
            j.key(f.key);
            j.raw(numbers.next());
        }
        j.end('}');
        j.key("absent");
        j.begin('{');
        for (const SummaryFigure& f : r.figures) {
            if (!f.value) {
                j.key(f.key);
                j.string(f.absent);
            }
        }
        j.end('}');
        j.end('}');
    }
    j.end(']');
    if (!doc.group_by.empty()) {
        j.key("groups");
        j.begin('[');
        for (const SummaryGroup& g : doc.groups) {
            j.begin('{');
            j.key("labels");
            write_labels(j, g.labels);
            j.key("captures");
            j.raw(std::to_string(g.captures));
            j.key("failed");
            j.raw(std::to_string(g.failed));
            values.clear();
            for (const SummaryGroup::Mean& m : g.figures)
                values.push_back(m.value);
            NumberTexts numbers(values);
            j.key("figures");
            j.begin('{');
            for (const SummaryGroup::Mean& m : g.figures) {
                j.key(m.key);
                j.raw(numbers.next());
            }
            j.end('}');
            j.end('}');
        }
        j.end(']');
    }
    j.key("skipped");
    j.begin('[');
    for (const SkippedFile& s : doc.skipped) {
        j.begin('{');
        j.key("file");
        j.string(s.file);
        j.key("reason");
        j.string(s.reason);
        j.end('}');
    }
    j.end(']');
    j.end('}');
    text += '\n';
    return text;
}

// One line a capture and figure; labels as two parallel arrays, since ClickHouse's
// JSONEachRow takes no nested object.
std::string jsonl(const SummaryDocument& doc) {
    std::string text;
    for (const CaptureSummary& r : doc.rows) {
        if (r.failed())
            continue;
        Json keys = Json::array();
        Json values = Json::array();
        for (const auto& [k, v] : r.labels) {
            keys.push_back(k);
            values.push_back(v);
        }
        for (const SummaryFigure& f : r.figures) {
            if (!f.value)
                continue;
            const Figure* figure = find_figure(f.key);
            Json line;
            line["file"] = r.file;
            line["format"] = r.format;
            line["label_keys"] = keys;
            line["label_values"] = values;
            line["figure"] = std::string(f.key);
            line["value"] = *f.value;
            line["unit"] = figure != nullptr ? std::string(figure->unit) : std::string();
            text += dump(line, -1) + "\n";
        }
    }
    return text;
}

std::string csv(const SummaryDocument& doc) {
    const std::vector<std::string_view> keys = present_keys(doc.rows);
    const std::vector<std::string> labels = label_keys(doc.rows);
    DataTable t;
    const auto column = [&](std::string key) {
        t.add_column({key, key, MarkdownTable::Align::left, "", DataColumn::csv});
    };
    column("file");
    column("format");
    for (const std::string& l : labels)
        column(l);
    for (std::string_view k : keys)
        column(std::string(k));
    column("hitch_cause");
    column("error");
    for (const CaptureSummary& r : doc.rows) {
        std::vector<DataCell> cells{DataCell::of_text(r.file), DataCell::of_text(r.format)};
        for (const std::string& l : labels) {
            const std::string* v = find_label(r.labels, l);
            cells.push_back(v != nullptr ? DataCell::of_text(*v) : DataCell::missing());
        }
        for (std::string_view k : keys) {
            const std::optional<double> v = r.figure(k);
            cells.push_back(v ? DataCell::of_number(*v, cell(k, v)) : DataCell::missing());
        }
        cells.push_back(DataCell::of_text(r.hitch_cause));
        cells.push_back(DataCell::of_text(r.error));
        t.add_row(std::move(cells));
    }
    return csv_table(t);
}

// A run's name beside its bars: the file's path without the folders every run shares (runs
// in folders of their own often have the same file name), its end kept when long.
std::string short_name(const std::string& file, std::size_t common_folders) {
    constexpr std::size_t kMax = 64;
    std::string name = file.substr(common_folders);
    if (name.size() > kMax)
        name = "..." + name.substr(name.size() - (kMax - 3));
    return name;
}

// The length of the folders (up to and with their last slash) that every run's path starts
// with.
std::size_t common_folders(const std::vector<CaptureSummary>& rows) {
    if (rows.empty())
        return 0;
    std::string_view common = rows.front().file;
    for (const CaptureSummary& r : rows) {
        std::size_t n = 0;
        while (n < common.size() && n < r.file.size() && common[n] == r.file[n])
            ++n;
        common = common.substr(0, n);
    }
    const std::size_t slash = common.find_last_of("/\\");
    return slash == std::string_view::npos ? 0 : slash + 1;
}

// The bar charts' series, as reviewers publish them: average FPS and the 1 % and 0.1 % lows in
// the percentile meaning most tools use, and CapFrameX's 1 % low average. Captures that have none
// of the lows (sampled logs) show the average of their samples and each tool's own lows (1 % and
// 0.1 %, minimum or low) that the rows have.
std::vector<std::string_view> chart_keys(const std::vector<CaptureSummary>& rows) {
    constexpr std::array<std::string_view, 4> kPreferred = {"avg_fps", "p1_low_fps", "p01_low_fps",
                                                            "low1_avg_fps"};
    const std::vector<std::string_view> present = present_keys(rows);
    const auto has = [&](std::string_view k) {
        return std::find(present.begin(), present.end(), k) != present.end();
    };
    std::vector<std::string_view> keys;
    for (std::string_view k : kPreferred) {
        if (has(k))
            keys.push_back(k);
    }
    if (keys.size() > 1)
        return keys;
    if (keys.empty() && has("sampled_avg_fps"))
        keys.push_back("sampled_avg_fps");
    for (std::string_view k : present) {
        const bool tool_low =
            k.find("fps") != std::string_view::npos &&
            (k.find("low") != std::string_view::npos || k.find("min1") != std::string_view::npos ||
             k.find("min01") != std::string_view::npos);
        if (tool_low && std::find(keys.begin(), keys.end(), k) == keys.end())
            keys.push_back(k);
    }
    return keys;
}

// A series' name in the legend: the figure's label and its key.
std::string series_name(std::string_view key) {
    const Figure* figure = find_figure(key);
    if (figure == nullptr || figure->label.empty())
        return std::string(key);
    return fmt::format("{} ({})", figure->label, key);
}

std::string html(const SummaryDocument& doc) {
    std::string text = html_document_start("loopscope summary");
    text += "<h1>Summary of captures</h1>\n";
    const std::vector<std::string_view> keys = chart_keys(doc.rows);
    std::vector<std::string> series;
    for (std::string_view k : keys)
        series.push_back(series_name(k));
    const std::size_t folders = common_folders(doc.rows);
    std::vector<BarRow> bars;
    const auto row_values = [&](const auto& source) {
        std::vector<std::optional<double>> v;
        for (std::string_view k : keys)
            v.push_back(source.figure(k));
        return v;
    };
    if (!keys.empty()) {
        if (doc.group_by.empty()) {
            for (const CaptureSummary& r : doc.rows) {
                if (!r.failed())
                    bars.push_back({short_name(r.file, folders), row_values(r), false});
            }
        } else {
            // Each group's mean, then its runs beside each other.
            for (const SummaryGroup& g : doc.groups) {
                bars.push_back({group_name(g.labels) + " (mean)", row_values(g), true});
                for (const CaptureSummary& r : doc.rows) {
                    bool member = !r.failed();
                    for (const auto& [k, v] : g.labels) {
                        const std::string* rv = find_label(r.labels, k);
                        member = member && (rv != nullptr ? *rv : std::string()) == v;
                    }
                    if (member)
                        bars.push_back({short_name(r.file, folders), row_values(r), false});
                }
            }
        }
        text += bars_page_head();
        text += html_bar_chart(BarChart{
            "fps-bars",
            doc.group_by.empty() ? "Average FPS and the lows of each capture"
                                 : "Average FPS and the lows of each group (mean) and its captures",
            "FPS", series, std::move(bars)});
    }
    HtmlHeadingIds ids;
    // A wide table scrolls in a box of its own: the page never scrolls sideways.
    text += "<h2>Table</h2>\n<div style=\"overflow-x:auto\">" +
            html_section(tables(doc), TextMarkup::plain, ids) + "</div>\n";
    text += "</body></html>\n";
    return text;
}

}  // namespace

void check_summary_format(std::string_view format) {
    if (std::find(kFormats.begin(), kFormats.end(), format) == kFormats.end()) {
        throw UsageError(fmt::format("--format '{}' with --summary: expected {}", format,
                                     fmt::join(kFormats, ", ")));
    }
}

void write_summary(const SummaryDocument& doc, std::string_view format, OutputFile& out) {
    check_summary_format(format);
    if (format == "json")
        out.write(json(doc));
    else if (format == "jsonl")
        out.write(jsonl(doc));
    else if (format == "csv")
        out.write(csv(doc));
    else if (format == "html")
        out.write(html(doc));
    else
        out.write(render_markdown(tables(doc)));
}

}  // namespace loopscope
