// The SQLite history of runs (see history.hpp). Every statement is prepared with bound
// parameters; a store is one transaction, so a failed store leaves the database as it was.
#include "stores/history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>

#include "common/errors.hpp"

#if LOOPSCOPE_HAVE_SQLITE
#include <sqlite3.h>
#endif

namespace loopscope {

std::string capture_file_hash(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open the file to hash it");
    // FNV-1a over the bytes: a name for the file's content, not a protection against forgery.
    std::uint64_t h = 0xcbf29ce484222325ULL;
    std::vector<char> buf(1 << 20);
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        const std::streamsize got = in.gcount();
        for (std::streamsize i = 0; i < got; ++i) {
            h ^= static_cast<unsigned char>(buf[static_cast<std::size_t>(i)]);
            h *= 0x100000001b3ULL;
        }
    }
    if (in.bad())
        throw InputError(path, "cannot read the file to hash it");
    return fmt::format("fnv1a64:{:016x}", h);
}

std::string utc_now_text() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
#ifdef _WIN32
    gmtime_s(&tm, &now);
#else
    gmtime_r(&now, &tm);
#endif
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

#if LOOPSCOPE_HAVE_SQLITE

namespace {

// Each step takes the schema from version i to i + 1; a new version appends a step.
constexpr const char* kMigrations[] = {
    // 0 -> 1
    "CREATE TABLE runs ("
    " id INTEGER PRIMARY KEY,"
    " added_utc TEXT NOT NULL,"
    " source_file TEXT NOT NULL,"
    " source_hash TEXT NOT NULL,"
    " labels TEXT NOT NULL,"
    " format TEXT NOT NULL,"
    " loopscope_version TEXT NOT NULL,"
    " machine_json TEXT,"
    " verdict TEXT NOT NULL,"
    " verdict_detail TEXT NOT NULL DEFAULT '',"
    " UNIQUE (source_hash, labels));"
    "CREATE TABLE run_labels ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (run_id, key));"
    "CREATE TABLE run_figures ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " key TEXT NOT NULL, value REAL NOT NULL, PRIMARY KEY (run_id, key));"
    "CREATE INDEX runs_by_labels ON runs (labels, id);",
    // 1 -> 2: the stutter keys that mixed CapFrameX's two rules were renamed (docs/reports.md,
    // "Renamed keys"); the stored values keep their meaning under the new names.
    "UPDATE run_figures SET key = 'stutter_time_frames' WHERE key = 'stutter_count';"
    "UPDATE run_figures SET key = 'stutter_time_share' WHERE key = 'stutter_share';"
    "UPDATE run_figures SET key = 'app_stutter_time_share' WHERE key = 'app_stutter_share';"
    "UPDATE run_figures SET key = 'displayed_stutter_time_share' "
    "WHERE key = 'displayed_stutter_share';",
    // 2 -> 3: run labels (a build number, a commit): stored and listed, not part of the series.
    "CREATE TABLE run_run_labels ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (run_id, key));",
};

// The tables of loopscope's schema at version 1 and later (a later version adds tables).
constexpr const char* kSchemaTables[] = {"runs", "run_labels", "run_figures"};
static_assert(std::size(kMigrations) == kHistorySchemaVersion);

}  // namespace

struct History::Db {
    std::string path;
    sqlite3* db = nullptr;

    Db() = default;
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;
    // Closed here, so that a constructor of History that throws (a newer schema, a file that is
    // not a database) leaves no connection open.
    ~Db() {
        if (db)
            sqlite3_close(db);
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(path, fmt::format("{}: {}", what, db ? sqlite3_errmsg(db) : "no memory"));
    }
    void exec(const char* sql, const char* what) {
        char* error = nullptr;
        if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
            const std::string text = error ? error : "unknown error";
            sqlite3_free(error);
            throw InputError(path, fmt::format("{}: {}", what, text));
        }
    }
};

namespace {

// A prepared statement, finalised when it goes out of scope.
class Statement {
  public:
    Statement(History::Db& db, const char* sql) : db_(db) {
        if (sqlite3_prepare_v2(db.db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
            db.fail("cannot read the history");
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    Statement& bind(int i, std::string_view text) {
        sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement& bind(int i, double v) {
        sqlite3_bind_double(stmt_, i, v);
        return *this;
    }
    Statement& bind(int i, std::int64_t v) {
        sqlite3_bind_int64(stmt_, i, v);
        return *this;
    }
    Statement& bind_null(int i) {
        sqlite3_bind_null(stmt_, i);
        return *this;
    }
    // True while there is a row.
    bool step() {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW)
            return true;
        if (rc != SQLITE_DONE)
            db_.fail("cannot use the history");
        return false;
    }
    std::string text(int col) const {
        const auto* p = sqlite3_column_text(stmt_, col);
        return p ? reinterpret_cast<const char*>(p) : std::string();
    }
    double real(int col) const { return sqlite3_column_double(stmt_, col); }
    std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }

  private:
    History::Db& db_;
    sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace

History::History(const std::string& path, bool create) : db_(std::make_unique<Db>()) {
    db_->path = path;
    std::error_code ec;
    if (!create && !std::filesystem::exists(path, ec))
        throw InputError(path, "no such history database");
    const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path.c_str(), &db_->db, flags, nullptr) != SQLITE_OK)
        db_->fail("cannot open the history database");
    sqlite3_busy_timeout(db_->db, 10000);  // another loopscope storing at the same time
    // Reading the version is the first read: a file that is not a database fails here.
    const auto read_version = [&] {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db_->db, "PRAGMA user_version", -1, &stmt, nullptr) != SQLITE_OK ||
            sqlite3_step(stmt) != SQLITE_ROW) {
            sqlite3_finalize(stmt);
            db_->fail("not a loopscope history database");
        }
        const int v = sqlite3_column_int(stmt, 0);
        sqlite3_finalize(stmt);
        return v;
    };
    // Refuses a version this build cannot read and a database that is another program's: the
    // file is left as it was.
    const auto check_version = [&](int v) {
        if (v > kHistorySchemaVersion) {
            throw InputError(path,
                             fmt::format("the history has schema version {}, written by a newer "
                                         "loopscope; this one reads versions up to {}",
                                         v, kHistorySchemaVersion));
        }
        if (v < 0) {
            throw InputError(path, fmt::format("not a loopscope history database: its schema "
                                               "version (PRAGMA user_version) is {}; loopscope "
                                               "writes 1 to {}",
                                               v, kHistorySchemaVersion));
        }
    };
    const auto check_tables = [&](int v) {
        std::vector<std::string> tables;
        {
            Statement s(*db_,
                        "SELECT name FROM sqlite_master WHERE type = 'table' "
                        "AND name NOT LIKE 'sqlite_%' ORDER BY name");
            while (s.step())
                tables.push_back(s.text(0));
        }
        const auto has = [&](std::string_view t) {
            return std::find(tables.begin(), tables.end(), t) != tables.end();
        };
        if (v == 0 && !tables.empty()) {
            throw InputError(path, fmt::format("not a loopscope history database: it has tables "
                                               "({}) but no loopscope schema version; left "
                                               "untouched",
                                               fmt::join(tables, ", ")));
        }
        if (v > 0 && !std::all_of(std::begin(kSchemaTables), std::end(kSchemaTables), has)) {
            const std::string have =
                tables.empty() ? "none" : fmt::format("{}", fmt::join(tables, ", "));
            throw InputError(path, fmt::format("not a loopscope history database: schema version "
                                               "{} without loopscope's tables (it has: {}); left "
                                               "untouched",
                                               v, have));
        }
    };
    int version = read_version();
    check_version(version);
    db_->exec("PRAGMA foreign_keys = ON", "cannot open the history database");
    if (version == kHistorySchemaVersion)
        check_tables(version);
    if (version < kHistorySchemaVersion) {
        // Two loopscopes creating or migrating one database at once: the second waits for the
        // first's transaction (the busy timeout), then reads the version and the tables again,
        // inside its own, and finds the work done.
        db_->exec("BEGIN EXCLUSIVE", "cannot migrate the history");
        try {
            version = read_version();
            check_version(version);
            check_tables(version);
            for (int v = version; v < kHistorySchemaVersion; ++v)
                db_->exec(kMigrations[v], "cannot migrate the history");
            if (version < kHistorySchemaVersion) {
                db_->exec(fmt::format("PRAGMA user_version = {}", kHistorySchemaVersion).c_str(),
                          "cannot migrate the history");
            }
            db_->exec("COMMIT", "cannot migrate the history");
        } catch (...) {
            sqlite3_exec(db_->db, "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    }
}

History::~History() = default;

void History::begin() {
    db_->exec("BEGIN IMMEDIATE", "cannot write the history");
}
void History::commit() {
    db_->exec("COMMIT", "cannot write the history");
}

std::vector<double> History::baseline(const Labels& labels, std::string_view figure,
                                      std::string_view exclude_hash, std::size_t runs) {
    Statement s(*db_,
                "SELECT f.value FROM runs r JOIN run_figures f ON f.run_id = r.id "
                "WHERE r.labels = ?1 AND f.key = ?2 AND r.source_hash <> ?3 "
                "AND r.verdict <> 'regressed' ORDER BY r.id DESC LIMIT ?4");
    s.bind(1, labels_text(labels)).bind(2, figure).bind(3, exclude_hash);
    s.bind(4, static_cast<std::int64_t>(runs));
    std::vector<double> values;
    while (s.step())
        values.push_back(s.real(0));
    return values;
}

void History::store(const HistoryRun& run) {
    const std::string labels = labels_text(run.labels);
    {
        Statement del(*db_, "DELETE FROM runs WHERE source_hash = ?1 AND labels = ?2");
        del.bind(1, run.source_hash).bind(2, labels);
        del.step();
    }
    Statement ins(*db_,
                  "INSERT INTO runs (added_utc, source_file, source_hash, labels, format, "
                  "loopscope_version, machine_json, verdict, verdict_detail) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    ins.bind(1, run.added_utc).bind(2, run.source_file).bind(3, run.source_hash);
    ins.bind(4, labels).bind(5, run.format).bind(6, run.loopscope_version);
    if (run.machine_json.empty())
        ins.bind_null(7);
    else
        ins.bind(7, run.machine_json);
    ins.bind(8, run.verdict).bind(9, run.verdict_detail);
    ins.step();
    const std::int64_t id = sqlite3_last_insert_rowid(db_->db);
    for (const auto& [k, v] : run.labels) {
        Statement l(*db_, "INSERT INTO run_labels (run_id, key, value) VALUES (?1, ?2, ?3)");
        l.bind(1, id).bind(2, k).bind(3, v);
        l.step();
    }
    for (const auto& [k, v] : run.run_labels) {
        Statement l(*db_, "INSERT INTO run_run_labels (run_id, key, value) VALUES (?1, ?2, ?3)");
        l.bind(1, id).bind(2, k).bind(3, v);
        l.step();
    }
    for (const auto& [k, v] : run.figures) {
        Statement one(*db_, "INSERT INTO run_figures (run_id, key, value) VALUES (?1, ?2, ?3)");
        one.bind(1, id).bind(2, k).bind(3, v);
        one.step();
    }
}

std::vector<HistoryRun> History::runs(const Labels& filter, const Labels& run_filter) {
    std::vector<HistoryRun> runs;
    std::map<std::int64_t, std::size_t> index;
    {
        Statement s(*db_,
                    "SELECT id, added_utc, source_file, source_hash, format, loopscope_version, "
                    "COALESCE(machine_json, ''), verdict, verdict_detail FROM runs ORDER BY id");
        while (s.step()) {
            HistoryRun r;
            r.id = s.integer(0);
            r.added_utc = s.text(1);
            r.source_file = s.text(2);
            r.source_hash = s.text(3);
            r.format = s.text(4);
            r.loopscope_version = s.text(5);
            r.machine_json = s.text(6);
            r.verdict = s.text(7);
            r.verdict_detail = s.text(8);
            index[r.id] = runs.size();
            runs.push_back(std::move(r));
        }
    }
    {
        Statement s(*db_, "SELECT run_id, key, value FROM run_labels ORDER BY run_id, key");
        while (s.step()) {
            const auto it = index.find(s.integer(0));
            if (it != index.end())
                runs[it->second].labels.emplace_back(s.text(1), s.text(2));
        }
    }
    {
        Statement s(*db_, "SELECT run_id, key, value FROM run_run_labels ORDER BY run_id, key");
        while (s.step()) {
            const auto it = index.find(s.integer(0));
            if (it != index.end())
                runs[it->second].run_labels.emplace_back(s.text(1), s.text(2));
        }
    }
    {
        Statement s(*db_, "SELECT run_id, key, value FROM run_figures ORDER BY run_id");
        while (s.step()) {
            const auto it = index.find(s.integer(0));
            if (it != index.end())
                runs[it->second].figures.emplace_back(s.text(1), s.real(2));
        }
    }
    const auto holds = [](const Labels& have, const Labels& wanted) {
        for (const auto& [k, v] : wanted) {
            const std::string* value = find_label(have, k);
            if (value == nullptr || *value != v)
                return false;
        }
        return true;
    };
    std::erase_if(runs, [&](const HistoryRun& r) {
        return !holds(r.labels, filter) || !holds(r.run_labels, run_filter);
    });
    return runs;
}

#else  // no SQLite in this build

struct History::Db {};

History::History(const std::string& path, bool) {
    throw UsageError(
        fmt::format("'{}': this build of loopscope has no SQLite, so no history", path));
}
History::~History() = default;
void History::begin() {}
void History::commit() {}
std::vector<double> History::baseline(const Labels&, std::string_view, std::string_view,
                                      std::size_t) {
    return {};
}
void History::store(const HistoryRun&) {}
std::vector<HistoryRun> History::runs(const Labels&, const Labels&) {
    return {};
}

#endif

}  // namespace loopscope
