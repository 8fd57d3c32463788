// `report ... --store clickhouse://HOST:PORT/DATABASE`: each capture of the command sent to
// ClickHouse while the reports are made, committed at the end. A server that cannot be reached
// or refuses a capture costs that capture's store, never the local report: the command writes its
// report, then says what was not stored in one line and exits 1.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/summary.hpp"
#include "stores/clickhouse.hpp"

namespace loopscope {

class ClickHouseSink {
  public:
    // Checks the URL (UsageError); connects only in open().
    ClickHouseSink(const std::string& url, ClickHouseLimits limits, Labels run_labels = {});
    // Creates the database and tables when missing; a failure is kept for finish().
    void open();
    // Sends one capture's frames and figures (safe to call from several threads at once).
    void add(const Capture& capture, const CaptureReport& report, const CaptureSummary& row);
    // Commits what was sent; kExitOk, or kExitFailure after one line on standard error.
    int finish();

  private:
    void fail(const std::string& file, const std::string& message);

    ClickHouseUrl url_;
    ClickHouseLimits limits_;
    Labels run_labels_;
    std::mutex mutex_;
    std::atomic<bool> unreachable_{false};
    std::string first_error_;
    std::size_t attempted_ = 0;  // captures of files (not standard input)
    std::size_t failed_ = 0;
    std::size_t not_stored_stdin_ = 0;
    std::vector<ClickHouseStore> stores_;
};

}  // namespace loopscope
