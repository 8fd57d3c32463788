// Sending the captures of `report --store` to ClickHouse (see store_clickhouse.hpp).
#include "tool/store_clickhouse.hpp"

#include <fmt/format.h>

#include "common/errors.hpp"
#include "stores/history.hpp"

namespace loopscope {

ClickHouseSink::ClickHouseSink(const std::string& url, ClickHouseLimits limits, Labels run_labels)
    : url_(parse_clickhouse_url("--store", url)),
      limits_(limits),
      run_labels_(std::move(run_labels)) {}

void ClickHouseSink::open() {
    try {
        ClickHouseClient client(url_, limits_);
        create_clickhouse_tables(client);
    } catch (const ClickHouseError& e) {
        unreachable_ = true;
        const std::lock_guard lock(mutex_);
        first_error_ = e.what();
    }
}

void ClickHouseSink::fail(const std::string& file, const std::string& message) {
    const std::lock_guard lock(mutex_);
    if (first_error_.empty())
        first_error_ = fmt::format("{}: {}", file, message);
    ++failed_;
}

void ClickHouseSink::add(const Capture&, const CaptureReport& report, const CaptureSummary& row) {
    if (row.file == "-") {
        // No file to hash: a capture read from standard input has no identity to replace.
        const std::lock_guard lock(mutex_);
        ++not_stored_stdin_;
        return;
    }
    {
        const std::lock_guard lock(mutex_);
        ++attempted_;
        if (unreachable_) {
            ++failed_;
            return;
        }
    }
    try {
        ClickHouseClient client(url_, limits_);
        ClickHouseStore store = send_capture_frames(
            client, report, row, capture_file_hash(row.file), LOOPSCOPE_VERSION, run_labels_);
        const std::lock_guard lock(mutex_);
        stores_.push_back(std::move(store));
    } catch (const ClickHouseError& e) {
        // A server gone away is not tried again for each capture left.
        if (e.unreachable())
            unreachable_ = true;
        fail(row.file, e.what());
    } catch (const std::exception& e) {
        fail(row.file, e.what());
    }
}

int ClickHouseSink::finish() {
    if (not_stored_stdin_ > 0) {
        fmt::print(stderr, "loopscope: a capture read from standard input is not stored in {}\n",
                   url_.text);
    }
    if (!unreachable_ && !stores_.empty()) {
        bool committed = false;
        try {
            ClickHouseClient client(url_, limits_);
            commit_clickhouse_stores(client, stores_);
            committed = true;
            delete_replaced_stores(client, stores_);
        } catch (const ClickHouseError& e) {
            if (committed) {
                // The captures are stored; only the older rows wait for a later store's delete.
                fmt::print(stderr,
                           "loopscope: warning: the rows of replaced stores were not "
                           "deleted: {}\n",
                           e.what());
            } else {
                // Whether the commit rows went in is not known: none is counted as stored.
                failed_ += stores_.size();
                if (first_error_.empty())
                    first_error_ = e.what();
            }
        }
    }
    if (failed_ == 0 && first_error_.empty())
        return kExitOk;
    fmt::print(stderr, "loopscope: error: {} ({} of {} capture{} not stored)\n", first_error_,
               failed_, attempted_, attempted_ == 1 ? "" : "s");
    return kExitFailure;
}

}  // namespace loopscope
