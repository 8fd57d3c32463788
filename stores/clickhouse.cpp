// ClickHouse over HTTP with libcurl: the tables, storing a capture's frames under a store id and
// committing it, and the fleet query (see clickhouse.hpp and docs/history.md).
#include "stores/clickhouse.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <mutex>
#include <random>
#include <type_traits>

#include "common/errors.hpp"
#include "core/trace_record.hpp"
#include "stores/history.hpp"

#ifdef LOOPSCOPE_HAVE_CURL
#include <curl/curl.h>
#endif

namespace loopscope {

namespace {

// A string literal in ClickHouse's SQL: quotes and backslashes escaped.
std::string sql_string(std::string_view text) {
    std::string s = "'";
    for (const char c : text) {
        if (c == '\'' || c == '\\')
            s += '\\';
        s += c;
    }
    return s + "'";
}

std::string table_name(const std::string& database, std::string_view table) {
    return fmt::format("`{}`.`{}`", database, table);
}

// One line of the server's answer, for a message.
std::string first_line(std::string_view text) {
    const std::size_t end = text.find('\n');
    std::string line(text.substr(0, end));
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    return line;
}

}  // namespace

bool clickhouse_available() {
#ifdef LOOPSCOPE_HAVE_CURL
    return true;
#else
    return false;
#endif
}

ClickHouseUrl parse_clickhouse_url(std::string_view option, std::string_view text) {
    const auto bad = [&](std::string_view why) {
        return UsageError(fmt::format("{} '{}': {}; expected clickhouse://HOST[:PORT]/DATABASE",
                                      option, text, why));
    };
    constexpr std::string_view kScheme = "clickhouse://";
    if (text.substr(0, kScheme.size()) != kScheme)
        throw bad("not a clickhouse:// URL");
    std::string_view rest = text.substr(kScheme.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos)
        throw bad("no database");
    std::string_view authority = rest.substr(0, slash);
    const std::string_view database = rest.substr(slash + 1);
    ClickHouseUrl url;
    url.text = std::string(text);
    if (authority.find('@') != std::string_view::npos)
        throw bad("a user or password in the URL is not supported");
    std::string_view port_text;
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos)
            throw bad("an IPv6 address without its closing ']'");
        url.host = std::string(authority.substr(0, close + 1));
        std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':')
                throw bad("text after the IPv6 address");
            port_text = after.substr(1);
        }
    } else {
        const std::size_t colon = authority.rfind(':');
        url.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos)
            port_text = authority.substr(colon + 1);
    }
    if (url.host.empty())
        throw bad("no host");
    if (!port_text.empty() || authority.find(':') != std::string_view::npos) {
        int port = 0;
        const auto [end, ec] =
            std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
        if (ec != std::errc() || end != port_text.data() + port_text.size() || port < 1 ||
            port > 65535) {
            throw bad(fmt::format("port '{}' is not a number from 1 to 65535", port_text));
        }
        url.port = port;
    }
    if (database.empty())
        throw bad("no database");
    // A plain identifier: it is written into statements between backquotes.
    const bool identifier =
        std::all_of(
            database.begin(), database.end(),
            [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }) &&
        !std::isdigit(static_cast<unsigned char>(database.front()));
    if (!identifier)
        throw bad(fmt::format("database '{}' is not a name of letters, digits and '_'", database));
    url.database = std::string(database);
    return url;
}

// ---------------------------------------------------------------------------------------------
// The HTTP client.

#ifdef LOOPSCOPE_HAVE_CURL

struct ClickHouseClient::Handle {
    CURL* curl = nullptr;
    ~Handle() {
        if (curl != nullptr)
            curl_easy_cleanup(curl);
    }
};

namespace {

struct Reply {
    std::string body;
    std::size_t max_bytes = 0;
    bool too_large = false;
};

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* out) {
    auto* reply = static_cast<Reply*>(out);
    const std::size_t n = size * count;
    if (n > reply->max_bytes - reply->body.size()) {
        // Fewer bytes taken than given: libcurl stops the transfer.
        reply->too_large = true;
        return 0;
    }
    reply->body.append(data, n);
    return n;
}

// When a byte last moved either way (a body byte up or down, or a header line), for the stall
// timeout. libcurl's own low-speed check averages over several seconds, so it ends a stall
// seconds late; this one ends it within about a second of the limit.
struct Movement {
    std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
    curl_off_t down = 0, up = 0;
    long stall_s = 0;
    bool stalled = false;
};

int on_progress(void* data, curl_off_t, curl_off_t down, curl_off_t, curl_off_t up) {
    auto* m = static_cast<Movement*>(data);
    const auto now = std::chrono::steady_clock::now();
    if (down != m->down || up != m->up) {
        m->down = down;
        m->up = up;
        m->last = now;
        return 0;
    }
    if (now - m->last >= std::chrono::seconds(m->stall_s)) {
        m->stalled = true;
        return 1;  // ends the transfer
    }
    return 0;
}

std::size_t on_header(char*, std::size_t size, std::size_t count, void* data) {
    static_cast<Movement*>(data)->last = std::chrono::steady_clock::now();
    return size * count;
}

}  // namespace

ClickHouseClient::ClickHouseClient(ClickHouseUrl url, ClickHouseLimits limits)
    : url_(std::move(url)), limits_(limits), handle_(std::make_unique<Handle>()) {
    static std::once_flag global;
    std::call_once(global, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    handle_->curl = curl_easy_init();
    if (handle_->curl == nullptr)
        throw ClickHouseError(fmt::format("{}: libcurl could not start", url_.text));
}

ClickHouseClient::~ClickHouseClient() = default;

namespace {

std::string post(CURL* curl, const ClickHouseUrl& url, const ClickHouseLimits& limits,
                 const std::string& query_param, std::string_view body, std::string_view what) {
    // Progress headers every second while the server works: a long statement keeps bytes moving,
    // so the stall timeout below only ends a server that has stopped.
    std::string target = fmt::format(
        "http://{}:{}/?output_format_json_quote_64bit_integers=0&send_progress_in_http_headers=1"
        "&http_headers_progress_interval_ms=1000",
        url.host, url.port);
    if (!query_param.empty()) {
        char* escaped =
            curl_easy_escape(curl, query_param.data(), static_cast<int>(query_param.size()));
        target += "&query=";
        target += escaped;
        curl_free(escaped);
    }
    Reply reply;
    reply.max_bytes = limits.max_reply_bytes;
    std::array<char, CURL_ERROR_SIZE> error{};
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, target.c_str());
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error.data());
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
    // libcurl calls the progress function at least once a second, moving or not.
    Movement movement;
    movement.stall_s = limits.stall_timeout_s;
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &movement);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &movement);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    // No "Expect: 100-continue" round trip before a large body.
    curl_slist* headers = curl_slist_append(nullptr, "Expect:");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    const CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(headers);
    if (reply.too_large) {
        throw ClickHouseError(fmt::format("{}: {} failed: the server's reply exceeds {} MiB",
                                          url.text, what, limits.max_reply_bytes >> 20),
                              true);
    }
    if (movement.stalled) {
        throw ClickHouseError(
            fmt::format("{}: {} failed: nothing moved for {} s (the stall timeout; see "
                        "docs/history.md)",
                        url.text, what, limits.stall_timeout_s),
            true);
    }
    if (code != CURLE_OK) {
        throw ClickHouseError(fmt::format("{}: cannot reach the server: {}", url.text,
                                          error[0] != 0 ? error.data() : curl_easy_strerror(code)),
                              true);
    }
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) {
        throw ClickHouseError(fmt::format("{}: {} failed (HTTP {}): {}", url.text, what, status,
                                          first_line(reply.body)));
    }
    return std::move(reply.body);
}

}  // namespace

std::string ClickHouseClient::query(std::string_view sql) {
    return post(handle_->curl, url_, limits_, {}, sql, "a query");
}

void ClickHouseClient::insert(std::string_view table, std::string_view format,
                              std::string_view data) {
    const std::string statement =
        fmt::format("INSERT INTO {} FORMAT {}", table_name(url_.database, table), format);
    post(handle_->curl, url_, limits_, statement, data, fmt::format("storing into {}", table));
}

#else  // no libcurl: the Windows cross build

struct ClickHouseClient::Handle {};

namespace {
UsageError no_curl() {
    return UsageError("this loopscope was built without libcurl: it cannot talk to ClickHouse");
}
}  // namespace

ClickHouseClient::ClickHouseClient(ClickHouseUrl url, ClickHouseLimits limits)
    : url_(std::move(url)), limits_(limits) {
    throw no_curl();
}
ClickHouseClient::~ClickHouseClient() = default;
std::string ClickHouseClient::query(std::string_view) {
    throw no_curl();
}
void ClickHouseClient::insert(std::string_view, std::string_view, std::string_view) {
    throw no_curl();
}

#endif

// ---------------------------------------------------------------------------------------------
// The tables.

namespace {

// The loop columns of a trace after frame, start_ns and raw_ns (the frame's own columns).
template <typename T>
constexpr std::string_view clickhouse_type() {
    return std::is_floating_point_v<T> ? "Nullable(Float64)" : "Nullable(Int64)";
}

std::string loop_column_definitions() {
    std::string text;
#define LOOPSCOPE_CH_COLUMN_(name, type, kind, what)                                   \
    if (std::string_view(#name) != "frame" && std::string_view(#name) != "start_ns" && \
        std::string_view(#name) != "raw_ns")                                           \
        text += fmt::format(",\n  {} {}", #name, clickhouse_type<type>());
    LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_CH_COLUMN_)
#undef LOOPSCOPE_CH_COLUMN_
    return text;
}

void append_loop_cells(std::string& out, const FrameRecord* r) {
#define LOOPSCOPE_CH_CELL_(name, type, kind, what)                                     \
    if (std::string_view(#name) != "frame" && std::string_view(#name) != "start_ns" && \
        std::string_view(#name) != "raw_ns") {                                         \
        if (r == nullptr)                                                              \
            out += "\t\\N";                                                            \
        else                                                                           \
            fmt::format_to(std::back_inserter(out), "\t{}", r->name);                  \
    }
    LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_CH_CELL_)
#undef LOOPSCOPE_CH_CELL_
}

}  // namespace

void create_clickhouse_tables(ClickHouseClient& client) {
    const std::string& db = client.url().database;
    client.query(fmt::format("CREATE DATABASE IF NOT EXISTS `{}`", db));
    client.query(fmt::format(
        "CREATE TABLE IF NOT EXISTS {} (\n"
        "  capture_id String,\n  store_id UInt64,\n  frame Int64,\n  start_ns Int64,\n"
        "  frame_ns Int64,\n  displayed Nullable(UInt8),\n  generated Nullable(UInt8){})\n"
        "ENGINE = MergeTree ORDER BY (capture_id, store_id, frame)",
        table_name(db, kClickHouseFrames), loop_column_definitions()));
    client.query(
        fmt::format("CREATE TABLE IF NOT EXISTS {} (\n"
                    "  capture_id String,\n  store_id UInt64,\n  key String,\n  value Float64)\n"
                    "ENGINE = MergeTree ORDER BY (capture_id, store_id, key)",
                    table_name(db, kClickHouseFigures)));
    client.query(
        fmt::format("CREATE TABLE IF NOT EXISTS {} (\n"
                    "  capture_id String,\n  store_id UInt64,\n  stored_utc DateTime('UTC'),\n"
                    "  source_file String,\n  source_hash String,\n  format String,\n"
                    "  label_keys Array(String),\n  label_values Array(String),\n  frames UInt64,\n"
                    "  loopscope_version String,\n  run_label_keys Array(String),\n"
                    "  run_label_values Array(String))\n"
                    "ENGINE = MergeTree ORDER BY (capture_id, store_id)",
                    table_name(db, kClickHouseCaptures)));
    // A table an older loopscope made has no run labels: the columns are added (18.16 has no
    // ADD COLUMN IF NOT EXISTS, so the columns are looked up first; a concurrent store adding
    // them too makes the ALTER fail, and the second look finds them).
    const auto missing = [&] {
        return client.query(fmt::format("SELECT count() FROM system.columns WHERE database = {} "
                                        "AND table = {} AND name = 'run_label_values'",
                                        sql_string(db), sql_string(kClickHouseCaptures))) == "0\n";
    };
    if (missing()) {
        try {
            client.query(
                fmt::format("ALTER TABLE {} ADD COLUMN run_label_keys Array(String), "
                            "ADD COLUMN run_label_values Array(String)",
                            table_name(db, kClickHouseCaptures)));
        } catch (const ClickHouseError&) {
            if (missing())
                throw;
        }
    }
}

std::string clickhouse_capture_id(const std::string& source_hash, const Labels& labels) {
    std::uint64_t h = 14695981039346656037ull;
    const auto add = [&](std::string_view text) {
        for (const char c : text) {
            h ^= static_cast<unsigned char>(c);
            h *= 1099511628211ull;
        }
    };
    add(source_hash);
    add("\n");
    add(labels_text(labels));
    return fmt::format("{:016x}", h);
}

namespace {

// A new store's id: the time in nanoseconds (a later store has a larger id, and the largest
// committed id of a capture is the one queries see), its last 10 bits random so that two
// machines storing in the same microsecond still differ.
std::uint64_t new_store_id() {
    static std::mutex mutex;
    static std::mt19937_64 random{std::random_device{}()};
    static std::uint64_t last = 0;
    const std::lock_guard lock(mutex);
    const auto now =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count());
    std::uint64_t id = (now & ~std::uint64_t{0x3ff}) | (random() & 0x3ff);
    if (id <= last)
        id = last + 1;
    last = id;
    return id;
}

// "2026-01-31T12:00:00Z" -> "2026-01-31 12:00:00", as a DateTime's text.
std::string datetime_text(std::string utc) {
    std::replace(utc.begin(), utc.end(), 'T', ' ');
    if (!utc.empty() && utc.back() == 'Z')
        utc.pop_back();
    return utc;
}

}  // namespace

ClickHouseStore send_capture_frames(ClickHouseClient& client, const CaptureReport& report,
                                    const CaptureSummary& row, const std::string& source_hash,
                                    const std::string& loopscope_version,
                                    const Labels& run_labels) {
    const Capture& capture = *report.capture;
    Labels labels = row.labels;
    std::sort(labels.begin(), labels.end());
    ClickHouseStore store;
    store.capture_id = clickhouse_capture_id(source_hash, labels);
    store.store_id = new_store_id();
    const std::string prefix = fmt::format("{}\t{}\t", store.capture_id, store.store_id);
    const Series& series = report.series;
    // A sampled log's rows (MangoHud, Afterburner) are samples, not frames: pooled with frames
    // they would count a 100 ms sample as one frame. Its figures and labels are stored alone.
    const std::size_t frames = capture.per_frame ? series.frame_ns.size() : 0;
    std::string data;
    std::size_t rows = 0;
    for (std::size_t i = 0; i < frames; ++i) {
        const std::int64_t n = series.frame_number[i];
        const auto at = static_cast<std::size_t>(n);
        data += prefix;
        fmt::format_to(std::back_inserter(data), "{}\t{}\t{}\t", n, series.start_ns[i],
                       series.frame_ns[i]);
        if (at < capture.display_ns.size())
            data += capture.display_ns[at] >= 0 ? '1' : '0';
        else if (at < capture.dropped.size())
            data += capture.dropped[at] != 0 ? '0' : '1';
        else
            data += "\\N";
        data += '\t';
        if (at < capture.generated.size())
            data += capture.generated[at] != 0 ? '1' : '0';
        else
            data += "\\N";
        append_loop_cells(data, at < capture.loop.size() ? &capture.loop[at] : nullptr);
        data += '\n';
        if (++rows == kClickHouseRowsPerInsert) {
            client.insert(kClickHouseFrames, "TabSeparated", data);
            data.clear();
            rows = 0;
        }
    }
    if (rows > 0)
        client.insert(kClickHouseFrames, "TabSeparated", data);

    using Json = nlohmann::ordered_json;
    std::string figures;
    for (const SummaryFigure& f : row.figures) {
        if (!f.value)
            continue;
        Json j;
        j["capture_id"] = store.capture_id;
        j["store_id"] = store.store_id;
        j["key"] = std::string(f.key);
        j["value"] = *f.value;
        figures += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    if (!figures.empty())
        client.insert(kClickHouseFigures, "JSONEachRow", figures);

    Json commit;
    commit["capture_id"] = store.capture_id;
    commit["store_id"] = store.store_id;
    commit["stored_utc"] = datetime_text(utc_now_text());
    commit["source_file"] = row.file;
    commit["source_hash"] = source_hash;
    commit["format"] = row.format;
    Json keys = Json::array(), values = Json::array();
    for (const auto& [k, v] : labels) {
        keys.push_back(k);
        values.push_back(v);
    }
    commit["label_keys"] = std::move(keys);
    commit["label_values"] = std::move(values);
    commit["frames"] = frames;
    commit["loopscope_version"] = loopscope_version;
    Labels sorted_run_labels = run_labels;
    std::sort(sorted_run_labels.begin(), sorted_run_labels.end());
    Json run_keys = Json::array(), run_values = Json::array();
    for (const auto& [k, v] : sorted_run_labels) {
        run_keys.push_back(k);
        run_values.push_back(v);
    }
    commit["run_label_keys"] = std::move(run_keys);
    commit["run_label_values"] = std::move(run_values);
    store.commit_row = commit.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return store;
}

void commit_clickhouse_stores(ClickHouseClient& client,
                              const std::vector<ClickHouseStore>& stores) {
    if (stores.empty())
        return;
    std::string rows;
    for (const ClickHouseStore& s : stores)
        rows += s.commit_row + "\n";
    client.insert(kClickHouseCaptures, "JSONEachRow", rows);
}

void delete_replaced_stores(ClickHouseClient& client, const std::vector<ClickHouseStore>& stores) {
    // A few hundred captures a statement keeps each well below ClickHouse's max_query_size.
    constexpr std::size_t kStoresAStatement = 200;
    const std::string& db = client.url().database;
    for (std::size_t first = 0; first < stores.size(); first += kStoresAStatement) {
        std::string older;
        const std::size_t end = std::min(stores.size(), first + kStoresAStatement);
        for (std::size_t i = first; i < end; ++i) {
            older +=
                fmt::format("{}(capture_id = {} AND store_id < {})", older.empty() ? "" : " OR ",
                            sql_string(stores[i].capture_id), stores[i].store_id);
        }
        // A mutation rewrites the table's parts: asked for only where there are such rows.
        for (const std::string_view table :
             {kClickHouseFrames, kClickHouseFigures, kClickHouseCaptures}) {
            const std::string any =
                client.query(fmt::format("SELECT count() FROM (SELECT 1 FROM {} WHERE {} LIMIT 1)",
                                         table_name(db, table), older));
            if (first_line(any) != "0") {
                client.query(
                    fmt::format("ALTER TABLE {} DELETE WHERE {}", table_name(db, table), older));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The fleet query.

namespace {

// The percentile of loopscope (core/percentile.cpp): linear interpolation at h = p·(N−1) over
// the sorted frame times `s` (1-based arrays), in ns.
std::string percentile_sql(std::string_view p, std::string_view name) {
    return fmt::format(
        "{p} * (n - 1) AS {name}_h, toUInt64(floor({name}_h)) AS {name}_lo, "
        "toFloat64(s[{name}_lo + 1]) + ({name}_h - {name}_lo) * "
        "toFloat64(s[least({name}_lo + 1, n - 1) + 1] - s[{name}_lo + 1]) AS {name}_ns",
        fmt::arg("p", p), fmt::arg("name", name));
}

// CapFrameX's low average (core/frame_stats.cpp, quantile_r8_sorted and mean_at_or_above): the
// mean of the frame times at or above their R-8 quantile, in ns.
std::string low_average_sql(std::string_view p, std::string_view name) {
    return fmt::format(
        "(toFloat64(n) + 1 / 3) * {p} + 1 / 3 AS {name}_h, floor({name}_h) AS {name}_w, "
        "if({name}_w <= 0, toFloat64(s[1]), if({name}_w >= n, toFloat64(s[n]), "
        "toFloat64(s[toUInt64({name}_w)]) + ({name}_h - {name}_w) * "
        "(toFloat64(s[toUInt64({name}_w) + 1]) - toFloat64(s[toUInt64({name}_w)])))) AS {name}_q, "
        "arrayFilter(x -> toFloat64(x) >= {name}_q, s) AS {name}_above, "
        "if(length({name}_above) = 0, 0, toFloat64(arraySum({name}_above)) / "
        "length({name}_above)) AS {name}_ns",
        fmt::arg("p", p), fmt::arg("name", name));
}

// CapFrameX's integral low (integral_low_frame_ns): the frame at which the longest frames, summed
// longest first, first reach share × the total time, in ns.
std::string integral_low_sql(std::string_view share, std::string_view name) {
    return fmt::format(
        "arrayFirstIndex(x -> toFloat64(x) >= toFloat64(total_ns) * (1 - (1 - {share})), "
        "arrayCumSum(longest_first)) AS {name}_k, "
        "toFloat64(if({name}_k = 0, s[1], longest_first[{name}_k])) AS {name}_ns",
        fmt::arg("share", share), fmt::arg("name", name));
}

std::string fps_sql(std::string_view ms, std::string_view key) {
    return fmt::format("if(({ms}) > 0, 1000 / ({ms}), 0) AS {key}", fmt::arg("ms", ms),
                       fmt::arg("key", key));
}

}  // namespace

const std::vector<std::string>& fleet_figure_keys() {
    static const std::vector<std::string> keys = {"duration_s",
                                                  "avg_fps",
                                                  "mean_ms",
                                                  "min_ms",
                                                  "p50_ms",
                                                  "p90_ms",
                                                  "p95_ms",
                                                  "p99_ms",
                                                  "p999_ms",
                                                  "max_ms",
                                                  "p1_low_fps",
                                                  "p01_low_fps",
                                                  "low1_avg_fps",
                                                  "low01_avg_fps",
                                                  "low1_integral_fps",
                                                  "low01_integral_fps"};
    return keys;
}

std::string fleet_query(const std::string& database, const std::vector<std::string>& group_by,
                        const Labels& where) {
    std::vector<std::string> groups;
    for (std::size_t i = 0; i < group_by.size(); ++i) {
        groups.push_back(fmt::format("values_of_capture[indexOf(keys_of_capture, {})] AS g{}",
                                     sql_string(group_by[i]), i));
    }
    std::vector<std::string> conditions;
    for (const auto& [k, v] : where) {
        conditions.push_back(fmt::format("label_values[indexOf(label_keys, {})] = {}",
                                         sql_string(k), sql_string(v)));
    }
    std::vector<std::string> columns = groups;
    columns.insert(columns.end(), {"count() AS frames",
                                   "uniqExact(capture_id) AS captures",
                                   "sum(frame_ns) AS total_ns",
                                   "arraySort(groupArray(frame_ns)) AS s",
                                   "length(s) AS n",
                                   "arrayReverse(s) AS longest_first",
                                   percentile_sql("0.5", "p50"),
                                   percentile_sql("0.9", "p90"),
                                   percentile_sql("0.95", "p95"),
                                   percentile_sql("0.99", "p99"),
                                   percentile_sql("0.999", "p999"),
                                   low_average_sql("0.99", "low1"),
                                   low_average_sql("0.999", "low01"),
                                   integral_low_sql("0.01", "int1"),
                                   integral_low_sql("0.001", "int01"),
                                   "total_ns / 1e9 AS duration_s",
                                   "frames / (total_ns / 1e9) AS avg_fps",
                                   "total_ns / n / 1e6 AS mean_ms",
                                   "toFloat64(s[1]) / 1e6 AS min_ms",
                                   "p50_ns / 1e6 AS p50_ms",
                                   "p90_ns / 1e6 AS p90_ms",
                                   "p95_ns / 1e6 AS p95_ms",
                                   "p99_ns / 1e6 AS p99_ms",
                                   "p999_ns / 1e6 AS p999_ms",
                                   "toFloat64(s[n]) / 1e6 AS max_ms",
                                   fps_sql("p99_ms", "p1_low_fps"),
                                   fps_sql("p999_ms", "p01_low_fps"),
                                   fps_sql("low1_ns / 1e6", "low1_avg_fps"),
                                   fps_sql("low01_ns / 1e6", "low01_avg_fps"),
                                   fps_sql("int1_ns / 1e6", "low1_integral_fps"),
                                   fps_sql("int01_ns / 1e6", "low01_integral_fps")});
    std::vector<std::string> selected;
    for (std::size_t i = 0; i < group_by.size(); ++i)
        selected.push_back(fmt::format("g{}", i));
    std::vector<std::string> outer = selected;
    outer.insert(outer.end(), {"frames", "captures"});
    for (const std::string& k : fleet_figure_keys())
        outer.push_back(k);
    std::string sql = fmt::format(
        "SELECT {} FROM (SELECT {}\nFROM {}\nALL INNER JOIN (SELECT capture_id, max(store_id) AS "
        "store_id, any(label_keys) AS keys_of_capture, any(label_values) AS values_of_capture "
        "FROM {}{} "
        "GROUP BY capture_id) USING (capture_id, store_id)",
        fmt::join(outer, ", "), fmt::join(columns, ",\n  "),
        table_name(database, kClickHouseFrames), table_name(database, kClickHouseCaptures),
        conditions.empty() ? std::string()
                           : fmt::format(" WHERE {}", fmt::join(conditions, " AND ")));
    if (!selected.empty())
        sql += fmt::format("\nGROUP BY {}", fmt::join(selected, ", "));
    sql += ")\nWHERE frames > 0";
    if (!selected.empty())
        sql += fmt::format("\nORDER BY {}", fmt::join(selected, ", "));
    return sql + "\nFORMAT JSONEachRow";
}

std::vector<FleetGroup> fleet_groups(ClickHouseClient& client,
                                     const std::vector<std::string>& group_by,
                                     const Labels& where) {
    const std::string answer = client.query(fleet_query(client.url().database, group_by, where));
    std::vector<FleetGroup> groups;
    std::size_t begin = 0;
    while (begin < answer.size()) {
        std::size_t end = answer.find('\n', begin);
        if (end == std::string::npos)
            end = answer.size();
        const std::string_view line(answer.data() + begin, end - begin);
        begin = end + 1;
        if (line.empty())
            continue;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
        } catch (const nlohmann::json::parse_error& e) {
            throw ClickHouseError(
                fmt::format("{}: an answer that is not JSON: {}", client.url().text, e.what()));
        }
        FleetGroup g;
        for (std::size_t i = 0; i < group_by.size(); ++i)
            g.labels.emplace_back(group_by[i], j.value(fmt::format("g{}", i), std::string()));
        g.frames = j.at("frames").get<std::uint64_t>();
        g.captures = j.at("captures").get<std::uint64_t>();
        for (const std::string& k : fleet_figure_keys()) {
            const nlohmann::json& v = j.at(k);
            g.figures.emplace_back(
                k, v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt);
        }
        groups.push_back(std::move(g));
    }
    return groups;
}

}  // namespace loopscope
