// One table of results for every output format. A command builds a DataTable (columns, rows of
// typed cells) and each format prints it: the terminal and Markdown as a padded Markdown table,
// HTML as a <table>, CSV one line a row, JSON one object a row. Each format escapes in one place:
// escape_markdown_cell, html_escape, csv_field, the JSON library.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "common/markdown_table.hpp"

namespace loopscope {

// One cell: what the text formats show, and the value CSV and JSON write.
struct DataCell {
    enum class Kind {
        absent,   // JSON leaves the name out, CSV writes nothing
        null,     // JSON null, CSV nothing
        integer,  // a count or an id
        number,   // a figure, at full precision
        text,     // a string, as it is (not made printable)
        json,     // a JSON document kept as text (written as its value in JSON)
    };
    Kind kind = Kind::absent;
    std::int64_t integer = 0;
    double number = 0;
    std::string value;  // Kind::text and Kind::json
    std::string shown;  // the text formats' cell

    static DataCell missing(std::string shown = "-", Kind kind = Kind::absent);
    static DataCell of_integer(std::int64_t v);
    static DataCell of_number(double v, std::string shown);
    static DataCell of_text(std::string v, std::string shown);
    static DataCell of_text(std::string v);  // shown as it is
    static DataCell of_json(std::string document);
};

struct DataColumn {
    enum Formats : unsigned { text = 1, csv = 2, json = 4, all = 7 };
    std::string key;    // CSV header and JSON name ("" only for an object's opener, see below)
    std::string title;  // the text formats' header
    MarkdownTable::Align align = MarkdownTable::Align::right;
    // JSON: the object of the row that holds the value ("labels"), "" for the row itself. A
    // column with json_object and no key opens that object where it stands, so an object with
    // no values is still written ({}).
    std::string json_object;
    unsigned formats = all;
};

struct DataTable {
    std::vector<DataColumn> columns;
    std::vector<std::vector<DataCell>> rows;  // one cell a column
    // The order of the columns in CSV and in JSON, as indices into `columns`, when it differs
    // from `columns` (empty: the columns' order).
    std::vector<std::size_t> csv_order;
    std::vector<std::size_t> json_order;

    std::size_t add_column(DataColumn column);
    // A row has one cell a column; missing cells are absent.
    void add_row(std::vector<DataCell> cells);
};

// The text formats' table (terminal, Markdown and HTML).
MarkdownTable text_table(const DataTable& table);
// Header line and one line a row, each ending in "\n".
std::string csv_table(const DataTable& table);
// An array, one object a row.
nlohmann::ordered_json json_table(const DataTable& table);

// A listing in a format other than HTML: "csv"; "json": {"<json_key>": [one object a row]},
// indented by 2; otherwise (terminal, Markdown) the caption, a blank line and the table.
std::string write_data_table(const DataTable& table, std::string_view format,
                             std::string_view caption, std::string_view json_key);

// A text field of CSV: quoted (with doubled quotes) when it holds a comma, a quote or a line
// break.
std::string csv_field(std::string_view text);

}  // namespace loopscope
