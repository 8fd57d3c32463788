// One table of results for every output format (see data_table.hpp).
#include "writers/data_table.hpp"

#include <fmt/format.h>

#include <numeric>
#include <utility>

namespace loopscope {

DataCell DataCell::missing(std::string shown, Kind kind) {
    DataCell c;
    c.kind = kind;
    c.shown = std::move(shown);
    return c;
}

DataCell DataCell::of_integer(std::int64_t v) {
    DataCell c;
    c.kind = Kind::integer;
    c.integer = v;
    c.shown = std::to_string(v);
    return c;
}

DataCell DataCell::of_number(double v, std::string shown) {
    DataCell c;
    c.kind = Kind::number;
    c.number = v;
    c.shown = std::move(shown);
    return c;
}

DataCell DataCell::of_text(std::string v, std::string shown) {
    DataCell c;
    c.kind = Kind::text;
    c.value = std::move(v);
    c.shown = std::move(shown);
    return c;
}

DataCell DataCell::of_text(std::string v) {
    std::string shown = v;
    return of_text(std::move(v), std::move(shown));
}

DataCell DataCell::of_json(std::string document) {
    DataCell c;
    c.kind = Kind::json;
    c.value = std::move(document);
    return c;
}

std::size_t DataTable::add_column(DataColumn column) {
    columns.push_back(std::move(column));
    return columns.size() - 1;
}

void DataTable::add_row(std::vector<DataCell> cells) {
    cells.resize(columns.size());
    rows.push_back(std::move(cells));
}

namespace {

std::vector<std::size_t> columns_in(const DataTable& t, const std::vector<std::size_t>& order,
                                    unsigned format) {
    std::vector<std::size_t> all(t.columns.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    std::vector<std::size_t> out;
    for (const std::size_t i : order.empty() ? all : order) {
        if (t.columns[i].formats & format)
            out.push_back(i);
    }
    return out;
}

std::string csv_cell(const DataCell& c) {
    switch (c.kind) {
        case DataCell::Kind::absent:
        case DataCell::Kind::null:
            return {};
        case DataCell::Kind::integer:
            return std::to_string(c.integer);
        case DataCell::Kind::number:
            return fmt::format("{}", c.number);
        case DataCell::Kind::text:
        case DataCell::Kind::json:
            return csv_field(c.value);
    }
    return {};
}

nlohmann::ordered_json json_cell(const DataCell& c) {
    using Json = nlohmann::ordered_json;
    switch (c.kind) {
        case DataCell::Kind::absent:
        case DataCell::Kind::null:
            return Json(nullptr);
        case DataCell::Kind::integer:
            return Json(c.integer);
        case DataCell::Kind::number:
            return Json(c.number);
        case DataCell::Kind::text:
            return Json(c.value);
        case DataCell::Kind::json:
            return Json::parse(c.value);
    }
    return Json(nullptr);
}

}  // namespace

MarkdownTable text_table(const DataTable& table) {
    MarkdownTable t;
    const std::vector<std::size_t> shown = columns_in(table, {}, DataColumn::text);
    for (const std::size_t i : shown)
        t.add_column(table.columns[i].title, table.columns[i].align);
    for (const auto& row : table.rows) {
        std::vector<std::string> cells;
        cells.reserve(shown.size());
        for (const std::size_t i : shown)
            cells.push_back(row[i].shown);
        t.add_row(std::move(cells));
    }
    return t;
}

std::string csv_table(const DataTable& table) {
    const std::vector<std::size_t> shown = columns_in(table, table.csv_order, DataColumn::csv);
    std::string text;
    // Appended piece by piece: GCC 12's -Wrestrict misfires at -O3 on `text += "," + s`.
    for (std::size_t n = 0; n < shown.size(); ++n)
        text.append(n == 0 ? "" : ",").append(csv_field(table.columns[shown[n]].key));
    text += '\n';
    for (const auto& row : table.rows) {
        for (std::size_t n = 0; n < shown.size(); ++n)
            text.append(n == 0 ? "" : ",").append(csv_cell(row[shown[n]]));
        text += '\n';
    }
    return text;
}

nlohmann::ordered_json json_table(const DataTable& table) {
    using Json = nlohmann::ordered_json;
    const std::vector<std::size_t> shown = columns_in(table, table.json_order, DataColumn::json);
    Json list = Json::array();
    for (const auto& row : table.rows) {
        Json j = Json::object();
        for (const std::size_t i : shown) {
            const DataColumn& column = table.columns[i];
            Json& parent = column.json_object.empty() ? j : j[column.json_object];
            if (!parent.is_object())
                parent = Json::object();
            if (!column.key.empty() && row[i].kind != DataCell::Kind::absent)
                parent[column.key] = json_cell(row[i]);
        }
        list.push_back(std::move(j));
    }
    return list;
}

std::string write_data_table(const DataTable& table, std::string_view format,
                             std::string_view caption, std::string_view json_key) {
    if (format == "csv")
        return csv_table(table);
    if (format == "json") {
        nlohmann::ordered_json doc;
        doc[std::string(json_key)] = json_table(table);
        return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    return std::string(caption) + "\n\n" + text_table(table).render();
}

std::string csv_field(std::string_view text) {
    if (text.find_first_of(",\"\n\r") == std::string_view::npos)
        return std::string(text);
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

}  // namespace loopscope
