// Captures kept in a ClickHouse database for a fleet of machines: each capture's analysed frames,
// its figures and labels sent over ClickHouse's HTTP interface (libcurl), and figures per group
// of labels computed inside the database over the group's pooled frames. Written for the oldest
// ClickHouse in use (Debian 12's 18.16: no Map type, no window functions, no interpolated exact
// quantile); docs/history.md describes the tables, the storing protocol and the queries.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis.hpp"
#include "core/stored_runs.hpp"
#include "core/summary.hpp"

namespace loopscope {

// Whether this build can talk to ClickHouse (libcurl was found); without it every call below
// throws UsageError saying so.
bool clickhouse_available();

// clickhouse://HOST[:PORT]/DATABASE (the HTTP port, 8123 by default).
struct ClickHouseUrl {
    std::string host;
    int port = 8123;
    std::string database;
    std::string text;  // as given, for messages
};
// Throws UsageError naming the option for a malformed URL.
ClickHouseUrl parse_clickhouse_url(std::string_view option, std::string_view text);

// The server could not be reached or refused a statement: one line saying which and why.
class ClickHouseError : public std::runtime_error {
  public:
    explicit ClickHouseError(const std::string& what, bool unreachable = false)
        : std::runtime_error(what), unreachable_(unreachable) {}
    // The server could not be reached at all (rather than refusing a statement).
    bool unreachable() const { return unreachable_; }

  private:
    bool unreachable_ = false;
};

// What a request may take: a server that accepts and then sends nothing, or sends without end,
// must not hold the command for good. There is no limit on a request's whole duration: a long
// upload that keeps moving is never cut.
struct ClickHouseLimits {
    // A request fails after this long with no byte moving either way. The statements' URL asks
    // the server to send progress headers while it works, so a busy server is not taken for a
    // stalled one.
    long stall_timeout_s = 60;
    // A reply larger than this is refused (the replies of these statements are small: a fleet's
    // groups).
    std::size_t max_reply_bytes = std::size_t{64} << 20;
};

// One HTTP connection's worth of requests (not shared between threads).
class ClickHouseClient {
  public:
    explicit ClickHouseClient(ClickHouseUrl url, ClickHouseLimits limits = {});
    ~ClickHouseClient();
    ClickHouseClient(const ClickHouseClient&) = delete;
    ClickHouseClient& operator=(const ClickHouseClient&) = delete;

    // Runs one statement (the body of a POST) and returns the server's answer. Throws
    // ClickHouseError when the server cannot be reached or answers with an error.
    std::string query(std::string_view sql);
    // INSERT INTO `table` FORMAT `format` with `data` as the rows.
    void insert(std::string_view table, std::string_view format, std::string_view data);
    const ClickHouseUrl& url() const { return url_; }

    struct Handle;

  private:
    ClickHouseUrl url_;
    ClickHouseLimits limits_;
    std::unique_ptr<Handle> handle_;
};

// The tables' names in the database.
inline constexpr std::string_view kClickHouseFrames = "loopscope_frames";
inline constexpr std::string_view kClickHouseFigures = "loopscope_figures";
inline constexpr std::string_view kClickHouseCaptures = "loopscope_captures";
// Frames a single INSERT carries at most (ClickHouse's max_insert_block_size).
inline constexpr std::size_t kClickHouseRowsPerInsert = 1'048'576;

// CREATE DATABASE / TABLE IF NOT EXISTS for the three tables.
void create_clickhouse_tables(ClickHouseClient& client);

// A capture's identity: the same file (its hash) with the same labels is the same capture, and
// storing it again replaces it. 16 hex digits of FNV-1a over the hash and the canonical labels.
std::string clickhouse_capture_id(const std::string& source_hash, const Labels& labels);

// One capture's store in progress: its frames and figures sent (under a new store id), its commit
// row not yet. commit_clickhouse_stores makes the stores visible.
struct ClickHouseStore {
    std::string capture_id;
    std::uint64_t store_id = 0;
    std::string commit_row;  // the JSONEachRow line of loopscope_captures
};

// Sends the analysed frames of `report` (its series: the frames its figures are over, with their
// capture frame numbers, starts, whether displayed and generated, and a trace's loop columns)
// and the row's figures, without the commit row; a sampled log (not per frame) has no frames to
// send, only its figures. The run labels go in the commit row, not in the capture's identity.
// Throws ClickHouseError.
ClickHouseStore send_capture_frames(ClickHouseClient& client, const CaptureReport& report,
                                    const CaptureSummary& row, const std::string& source_hash,
                                    const std::string& loopscope_version,
                                    const Labels& run_labels = {});

// Writes the commit rows of the stores (one INSERT): from then on queries see them.
void commit_clickhouse_stores(ClickHouseClient& client, const std::vector<ClickHouseStore>& stores);
// Asks the server to delete the rows of the stores these committed ones replace (older store ids
// of the same captures, committed or failed), which no query sees any more: housekeeping, run by
// the server in the background.
void delete_replaced_stores(ClickHouseClient& client, const std::vector<ClickHouseStore>& stores);

// The keys of FleetGroup::figures (core/stored_runs.hpp), in order.
const std::vector<std::string>& fleet_figure_keys();

// The query that computes them: visible stores only, filtered by `where` (label KEY=VALUE, all
// must hold), grouped by the `group_by` labels' values.
std::string fleet_query(const std::string& database, const std::vector<std::string>& group_by,
                        const Labels& where);
// Runs fleet_query and reads its answer, groups in the order of their labels' values.
std::vector<FleetGroup> fleet_groups(ClickHouseClient& client,
                                     const std::vector<std::string>& group_by, const Labels& where);

}  // namespace loopscope
