// The SQLite history on real database files: runs stored and replaced, the baseline a gate reads,
// the schema version (a fresh database migrated, a newer one refused) and the listing.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <thread>
#include <vector>

#include "common/errors.hpp"
#include "stores/history.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

HistoryRun make_run(const std::string& hash, Labels labels, double p99,
                    const std::string& verdict = "stored") {
    HistoryRun r;
    r.added_utc = "2026-01-01T00:00:00Z";
    r.source_file = hash + ".csv";
    r.source_hash = hash;
    r.format = "plain";
    r.labels = std::move(labels);
    r.loopscope_version = "0.1.0";
    r.verdict = verdict;
    r.figures = {{"p99_ms", p99}, {"avg_fps", 1000.0 / p99}};
    return r;
}

int user_version(const std::string& path) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr);
    sqlite3_step(stmt);
    const int v = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return v;
}

void exec(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
}

TEST(History, StoresReplacesAndReadsTheBaseline) {
    const std::string dir = test::make_temp_dir("history");
    const std::string path = dir + "/h.db";
    const Labels scene{{"scene", "city"}};
    {
        History h(path, true);
        h.begin();
        h.store(make_run("a", scene, 16.0));
        h.store(make_run("b", scene, 16.5));
        h.store(make_run("c", {{"scene", "forest"}}, 30.0));
        h.store(make_run("d", scene, 40.0, "regressed"));
        h.store(make_run("e", scene, 17.0));
        h.commit();
    }
    EXPECT_EQ(user_version(path), kHistorySchemaVersion);
    History h(path, false);
    // Newest first, same labels only, the regressed run and the excluded hash left out.
    EXPECT_EQ(h.baseline(scene, "p99_ms", "", 5), (std::vector<double>{17.0, 16.5, 16.0}));
    EXPECT_EQ(h.baseline(scene, "p99_ms", "e", 5), (std::vector<double>{16.5, 16.0}));
    EXPECT_EQ(h.baseline(scene, "p99_ms", "", 2), (std::vector<double>{17.0, 16.5}));
    EXPECT_TRUE(h.baseline({{"scene", "city"}, {"gpu", "x"}}, "p99_ms", "", 5).empty());
    // The same file with the same labels is the same run: replaced, and now the newest.
    h.begin();
    h.store(make_run("a", scene, 15.0));
    h.commit();
    EXPECT_EQ(h.baseline(scene, "p99_ms", "", 5), (std::vector<double>{15.0, 17.0, 16.5}));
    const auto all = h.runs({});
    ASSERT_EQ(all.size(), 5u);
    EXPECT_EQ(all.back().source_hash, "a");
    EXPECT_EQ(*all.back().figure("p99_ms"), 15.0);
    const auto city = h.runs(scene);
    EXPECT_EQ(city.size(), 4u);
    EXPECT_EQ(*find_label(city.front().labels, "scene"), "city");
    std::filesystem::remove_all(dir);
}

TEST(History, RefusesANewerSchemaAndWhatIsNotADatabase) {
    const std::string dir = test::make_temp_dir("history");
    const std::string newer = dir + "/newer.db";
    { History h(newer, true); }
    exec(newer, "PRAGMA user_version = 99");
    try {
        History h(newer, false);
        FAIL() << "a newer schema was opened";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("newer loopscope"), std::string::npos) << e.what();
        EXPECT_EQ(e.file(), newer);
    }
    const std::string text = dir + "/text.db";
    test::write_text(text, "frame times, not a database\n1\n2\n3\n");
    EXPECT_THROW(History(text, false), InputError);
    EXPECT_THROW(History(dir + "/missing.db", false), InputError);
    std::filesystem::remove_all(dir);
}

TEST(History, CreatesTheSchemaInAnEmptyDatabase) {
    const std::string dir = test::make_temp_dir("history");
    const std::string path = dir + "/empty.db";
    exec(path, "PRAGMA user_version = 0");  // an SQLite file without tables
    {
        History h(path, false);
        h.begin();
        h.store(make_run("a", {}, 16.0));
        h.commit();
        EXPECT_EQ(h.runs({}).size(), 1u);
    }
    EXPECT_EQ(user_version(path), kHistorySchemaVersion);
    std::filesystem::remove_all(dir);
}

TEST(History, RefusesAnotherProgramsDatabaseLeavingItUntouched) {
    const std::string dir = test::make_temp_dir("history");
    const std::string path = dir + "/other.db";
    exec(path, "CREATE TABLE notes (x INTEGER); INSERT INTO notes VALUES (1)");
    const std::string before = test::read_text(path);
    try {
        History h(path, true);
        FAIL() << "another program's database was taken";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("not a loopscope history database"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("notes"), std::string::npos) << e.what();
    }
    EXPECT_EQ(test::read_text(path), before);
    EXPECT_EQ(user_version(path), 0);
    // Another program that versions its schema too.
    exec(path, "PRAGMA user_version = 2");
    const std::string versioned = test::read_text(path);
    EXPECT_THROW(History(path, true), InputError);
    EXPECT_EQ(test::read_text(path), versioned);
    // A negative version is no loopscope's, old or new.
    const std::string negative = dir + "/negative.db";
    exec(negative, "PRAGMA user_version = -3");
    try {
        History h(negative, true);
        FAIL() << "a negative schema version was opened";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("is -3"), std::string::npos) << what;
        EXPECT_EQ(what.find("newer"), std::string::npos) << what;
    }
    std::filesystem::remove_all(dir);
}

TEST(History, ConcurrentCreatorsOfOneNewDatabaseLoseNoRun) {
    // Each round: a new file, several connections creating it at once (threads, one connection
    // each, as separate processes would have), each storing its run.
    constexpr int kRounds = 10;
    constexpr int kWriters = 4;
    const std::string dir = test::make_temp_dir("history");
    for (int round = 0; round < kRounds; ++round) {
        const std::string path = dir + "/h" + std::to_string(round) + ".db";
        std::vector<std::string> errors(kWriters);
        std::vector<std::thread> writers;
        for (int w = 0; w < kWriters; ++w) {
            writers.emplace_back([&, w] {
                try {
                    History h(path, true);
                    h.begin();
                    h.store(make_run("run" + std::to_string(w), {}, 16.0 + w));
                    h.commit();
                } catch (const std::exception& e) {
                    errors[static_cast<std::size_t>(w)] = e.what();
                }
            });
        }
        for (std::thread& t : writers)
            t.join();
        for (const std::string& e : errors)
            EXPECT_TRUE(e.empty()) << "round " << round << ": " << e;
        History h(path, false);
        EXPECT_EQ(h.runs({}).size(), static_cast<std::size_t>(kWriters)) << "round " << round;
    }
    std::filesystem::remove_all(dir);
}

TEST(History, RunLabelsAreStoredAndFilteredApartFromTheSeries) {
    const std::string dir = test::make_temp_dir("history");
    const std::string path = dir + "/h.db";
    History h(path, true);
    h.begin();
    for (int i = 0; i < 3; ++i) {
        HistoryRun r = make_run("r" + std::to_string(i), {{"scene", "city"}}, 16.0 + i);
        r.run_labels = {{"build", std::to_string(100 + i)}};
        h.store(r);
    }
    h.commit();
    // The baseline is the series of the labels, whatever the run labels.
    EXPECT_EQ(h.baseline({{"scene", "city"}}, "p99_ms", "", 5),
              (std::vector<double>{18.0, 17.0, 16.0}));
    const auto one = h.runs({}, {{"build", "101"}});
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].source_hash, "r1");
    EXPECT_EQ(one[0].run_labels, (Labels{{"build", "101"}}));
    EXPECT_TRUE(h.runs({}, {{"build", "999"}}).empty());
    std::filesystem::remove_all(dir);
}

TEST(History, MigrationRenamesTheStutterKeysOfVersionOne) {
    const std::string dir = test::make_temp_dir("history");
    const std::string path = dir + "/v1.db";
    {
        History h(path, true);
        h.begin();
        HistoryRun r = make_run("a", {}, 16.0);
        r.figures = {{"stutter_share", 0.25}, {"stutter_count", 3.0}, {"p99_ms", 16.0}};
        h.store(r);
        h.commit();
    }
    // Version 1 had no run labels' table.
    exec(path, "DROP TABLE run_run_labels; PRAGMA user_version = 1");
    {
        History h(path, false);
        const auto runs = h.runs({});
        ASSERT_EQ(runs.size(), 1u);
        const auto& figures = runs[0].figures;
        const auto value = [&](const std::string& key) -> std::optional<double> {
            for (const auto& [k, v] : figures) {
                if (k == key)
                    return v;
            }
            return std::nullopt;
        };
        EXPECT_EQ(value("stutter_time_share"), 0.25);
        EXPECT_EQ(value("stutter_time_frames"), 3.0);
        EXPECT_FALSE(value("stutter_share"));
        EXPECT_EQ(value("p99_ms"), 16.0);
    }
    EXPECT_EQ(user_version(path), kHistorySchemaVersion);
    std::filesystem::remove_all(dir);
}

TEST(History, HashNamesTheContent) {
    const std::string dir = test::make_temp_dir("history");
    test::write_text(dir + "/a", "16.6\n16.7\n");
    test::write_text(dir + "/b", "16.6\n16.7\n");
    test::write_text(dir + "/c", "16.6\n16.8\n");
    EXPECT_EQ(capture_file_hash(dir + "/a"), capture_file_hash(dir + "/b"));
    EXPECT_NE(capture_file_hash(dir + "/a"), capture_file_hash(dir + "/c"));
    EXPECT_EQ(capture_file_hash(dir + "/a").rfind("fnv1a64:", 0), 0u);
    EXPECT_THROW(capture_file_hash(dir + "/missing"), InputError);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
