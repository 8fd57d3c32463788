// The history of runs: an SQLite database (one file, no server) holding each stored capture's
// figures, labels, source file and its hash, the machine's context when known, the loopscope
// version and the regression gate's verdict. The schema is versioned (PRAGMA user_version) and
// migrated forward when an older database is opened; docs/history.md describes it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/stored_runs.hpp"
#include "core/summary.hpp"

namespace loopscope {

// The schema this build writes; a database with a higher version is refused.
inline constexpr int kHistorySchemaVersion = 3;

// A hash of the file's bytes that names the capture ("fnv1a64:0123456789abcdef"). Throws
// InputError when the file cannot be read.
std::string capture_file_hash(const std::string& path);

class History {
  public:
    // Opens or creates the database and migrates it to kHistorySchemaVersion. Throws InputError
    // naming the file for one that is not an SQLite database or that a newer loopscope wrote.
    // create=false: a missing file is an InputError too (the listing reads only).
    History(const std::string& path, bool create);
    ~History();
    History(const History&) = delete;
    History& operator=(const History&) = delete;

    // The figure's values in the runs with exactly these labels, newest first, at most `runs`
    // of them, leaving out the capture `exclude_hash` (the run being added) and the runs the
    // gate found regressed.
    std::vector<double> baseline(const Labels& labels, std::string_view figure,
                                 std::string_view exclude_hash, std::size_t runs);

    // Stores a run; one with the same hash and labels is replaced (it is the same run).
    void store(const HistoryRun& run);

    // Every run that has all of `filter`'s labels and `run_filter`'s run labels with those
    // values, oldest first.
    std::vector<HistoryRun> runs(const Labels& filter, const Labels& run_filter = {});

    void begin();
    void commit();

    struct Db;  // the SQLite connection (history.cpp)

  private:
    std::unique_ptr<Db> db_;
};

// The current time as "YYYY-MM-DDTHH:MM:SSZ".
std::string utc_now_text();

}  // namespace loopscope
