// End to end against a real ClickHouse: `report --store` and `fleet`. Each test starts Debian's
// clickhouse-server itself (as the current user, on 127.0.0.1 and a free port, its config, data
// and temporary folders in a temporary folder) and stops it at the end; without the server the
// tests that need one are skipped, saying so. The per-group figures `fleet` computes inside
// ClickHouse must equal loopscope's own on the same pooled frames.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/analysis.hpp"
#include "core/frame_stats.hpp"
#include "core/units.hpp"
#include "readers/readers.hpp"
#include "stores/clickhouse.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

using test::quoted;

// A TCP port nothing listens on now (bound, read, released).
int free_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    const int port = ntohs(addr.sin_port);
    close(fd);
    return port;
}

// Debian's server: LOOPSCOPE_CLICKHOUSE_SERVER, else clickhouse-server where Debian puts it or
// on the PATH; "" when there is none.
std::string server_program() {
    if (const char* env = std::getenv("LOOPSCOPE_CLICKHOUSE_SERVER"))
        return env;
    for (const char* p : {"/usr/sbin/clickhouse-server", "/usr/bin/clickhouse-server"}) {
        if (access(p, X_OK) == 0)
            return p;
    }
    if (const char* path = std::getenv("PATH")) {
        std::string all = path;
        std::size_t begin = 0;
        while (begin <= all.size()) {
            const std::size_t end = std::min(all.find(':', begin), all.size());
            const std::string candidate = all.substr(begin, end - begin) + "/clickhouse-server";
            if (end > begin && access(candidate.c_str(), X_OK) == 0)
                return candidate;
            begin = end + 1;
        }
    }
    return {};
}

// A clickhouse-server of its own: started in the constructor, stopped in the destructor.
class Server {
  public:
    Server() {
        program_ = server_program();
        if (program_.empty())
            return;
        dir_ = test::make_temp_dir("clickhouse");
        port_ = free_port();
        // 18.16 listens on the ports its config names: the HTTP one only.
        test::write_text(dir_ + "/config.xml", fmt_config());
        test::write_text(dir_ + "/users.xml",
                         "<?xml version=\"1.0\"?>\n<yandex>\n<profiles><default/></profiles>\n"
                         "<users><default><password></password><networks><ip>127.0.0.1</ip>"
                         "</networks><profile>default</profile><quota>default</quota></default>"
                         "</users>\n<quotas><default/></quotas>\n</yandex>\n");
        pid_ = fork();
        if (pid_ == 0) {
            const std::string log = dir_ + "/stdout.log";
            std::freopen(log.c_str(), "w", stdout);
            std::freopen(log.c_str(), "a", stderr);
            const std::string config = "--config-file=" + dir_ + "/config.xml";
            execl(program_.c_str(), program_.c_str(), config.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        // Ready when it answers a query (18.16 takes a few seconds to start).
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                failure_ =
                    "clickhouse-server exited at start: " + test::read_text(dir_ + "/stdout.log") +
                    read_log("server.err.log");
                return;
            }
            try {
                ClickHouseClient client(url("default"));
                if (client.query("SELECT 1") == "1\n")
                    return;
            } catch (const ClickHouseError&) {
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        failure_ = "clickhouse-server did not answer within 60 s: " + read_log("server.err.log");
    }
    ~Server() {
        if (pid_ > 0) {
            kill(pid_, SIGTERM);
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
            int status = 0;
            while (waitpid(pid_, &status, WNOHANG) == 0) {
                if (std::chrono::steady_clock::now() > deadline) {
                    kill(pid_, SIGKILL);
                    waitpid(pid_, &status, 0);
                    break;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        }
        if (!dir_.empty())
            fs::remove_all(dir_);
    }
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    bool missing() const { return program_.empty(); }
    const std::string& failure() const { return failure_; }
    std::string url_text(const std::string& database) const {
        return "clickhouse://127.0.0.1:" + std::to_string(port_) + "/" + database;
    }
    ClickHouseUrl url(const std::string& database) const {
        return parse_clickhouse_url("test", url_text(database));
    }

  private:
    std::string fmt_config() const {
        return "<?xml version=\"1.0\"?>\n<yandex>\n"
               "<logger><level>warning</level><log>" +
               dir_ + "/server.log</log><errorlog>" + dir_ +
               "/server.err.log</errorlog><console>0</console></logger>\n"
               "<listen_host>127.0.0.1</listen_host>\n<http_port>" +
               std::to_string(port_) + "</http_port>\n<path>" + dir_ + "/data/</path>\n<tmp_path>" +
               dir_ + "/tmp/</tmp_path>\n<user_files_path>" + dir_ +
               "/user_files/</user_files_path>\n<format_schema_path>" + dir_ +
               "/format_schemas/</format_schema_path>\n<users_config>" + dir_ +
               "/users.xml</users_config>\n<default_profile>default</default_profile>\n"
               "<default_database>default</default_database>\n"
               "<mark_cache_size>67108864</mark_cache_size>\n"
               "<uncompressed_cache_size>67108864</uncompressed_cache_size>\n</yandex>\n";
    }
    std::string read_log(const std::string& name) const {
        std::error_code ec;
        return fs::exists(dir_ + "/" + name, ec) ? test::read_text(dir_ + "/" + name) : "";
    }

    std::string program_;
    std::string dir_;
    std::string failure_;
    int port_ = 0;
    pid_t pid_ = -1;
};

#define LOOPSCOPE_REQUIRE_CLICKHOUSE(server)                                                  \
    do {                                                                                      \
        if ((server).missing())                                                               \
            GTEST_SKIP() << "clickhouse-server was not found (scripts/setup.sh installs it "  \
                            "with LOOPSCOPE_SETUP_CLICKHOUSE=1; LOOPSCOPE_CLICKHOUSE_SERVER " \
                            "names another)";                                                 \
        ASSERT_TRUE((server).failure().empty()) << (server).failure();                        \
    } while (0)

std::string scalar(ClickHouseClient& client, const std::string& sql) {
    std::string answer = client.query(sql);
    while (!answer.empty() && answer.back() == '\n')
        answer.pop_back();
    return answer;
}

// loopscope's own figures over the pooled analysed frames of these captures, as `report` reads
// and analyses each (the frames `--store` sends).
struct Pooled {
    std::size_t captures = 0;
    std::vector<std::int64_t> frame_ns;
};
void add_capture(Pooled& pooled, const std::string& path) {
    ReadOptions read;
    const Capture capture = read_capture(path, read);
    if (!capture.per_frame)
        return;  // a sampled log's rows are not frames: it has none to pool
    const CaptureReport report = analyse_capture(capture, AnalysisOptions{});
    pooled.frame_ns.insert(pooled.frame_ns.end(), report.series.frame_ns.begin(),
                           report.series.frame_ns.end());
    ++pooled.captures;
}
std::map<std::string, double> loopscope_figures(const Pooled& pooled) {
    const FrameTimeSummary s = summarize_frame_times(pooled.frame_ns);
    const FpsFigures f = fps_figures(s);
    return {{"duration_s", ns_to_s(s.total_ns)},
            {"avg_fps", f.average},
            {"mean_ms", s.mean_ms},
            {"min_ms", s.min_ms},
            {"p50_ms", s.p50_ms},
            {"p90_ms", s.p90_ms},
            {"p95_ms", s.p95_ms},
            {"p99_ms", s.p99_ms},
            {"p999_ms", s.p999_ms},
            {"max_ms", s.max_ms},
            {"p1_low_fps", f.p1_low},
            {"p01_low_fps", f.p01_low},
            {"low1_avg_fps", f.low1_average},
            {"low01_avg_fps", f.low01_average},
            {"low1_integral_fps", f.low1_integral},
            {"low01_integral_fps", f.low01_integral}};
}

void expect_group_equals(const Json& group, const Pooled& pooled, const std::string& name) {
    EXPECT_EQ(group["captures"].get<std::size_t>(), pooled.captures) << name;
    EXPECT_EQ(group["frames"].get<std::size_t>(), pooled.frame_ns.size()) << name;
    for (const auto& [key, expected] : loopscope_figures(pooled)) {
        ASSERT_TRUE(group["figures"][key].is_number()) << name << " " << key;
        // The same operations in the same order on the same doubles: equal to the last bit.
        EXPECT_EQ(group["figures"][key].get<double>(), expected) << name << " " << key;
    }
}

TEST(ClickHouseFleet, PerGroupFiguresEqualLoopscopesOverThePooledFrames) {
    LOOPSCOPE_REQUIRE_REAL_CAPTURES();
    Server server;
    LOOPSCOPE_REQUIRE_CLICKHOUSE(server);
    // The 30 FrameView logs by game (fv0008_alan-wake-2-..._...csv: the text between the first
    // two '_'), and the synthetic captures of tests/data as one more group.
    const std::string dir = test::make_temp_dir("fleet");
    std::map<std::string, Pooled> expected;
    std::size_t logs = 0;
    for (const auto& e : fs::directory_iterator(test::capture("frameview_set"))) {
        const std::string name = e.path().filename().string();
        if (name.rfind("fv", 0) != 0 || e.path().extension() != ".csv")
            continue;
        const std::size_t a = name.find('_'), b = name.find('_', a + 1);
        const std::string game = name.substr(a + 1, b - a - 1);
        fs::create_directories(dir + "/in/" + game);
        fs::create_symlink(e.path(), dir + "/in/" + game + "/" + name);
        add_capture(expected[game], e.path().string());
        ++logs;
    }
    ASSERT_EQ(logs, 30u);
    fs::create_directories(dir + "/in/synthetic");
    std::size_t sampled = 0;
    for (const std::string& name : test::test_data_captures()) {
        fs::create_symlink(test::test_data(name), dir + "/in/synthetic/" + name);
        add_capture(expected["synthetic"], test::test_data(name));
        sampled += read_capture(test::test_data(name), ReadOptions{}).per_frame ? 0 : 1;
    }
    ASSERT_GT(sampled, 0u);
    ASSERT_GE(expected.size(), 4u);

    const auto stored = test::run_loopscope(
        "report " + quoted(dir + "/in") + " --summary --labels-from-path game --label rig=ci " +
        "--store " + server.url_text("fleet") + " --format json -o " + quoted(dir + "/s.json"));
    ASSERT_EQ(stored.exit_code, 0) << stored.err;
    // The sampled logs (MangoHud, Afterburner) are stored with their figures but no frames.
    ClickHouseClient client(server.url("fleet"));
    EXPECT_EQ(scalar(client, "SELECT count() FROM fleet.loopscope_captures WHERE frames = 0"),
              std::to_string(sampled));
    EXPECT_EQ(scalar(client, "SELECT uniqExact(capture_id) FROM fleet.loopscope_figures"),
              std::to_string(logs + test::test_data_captures().size()));
    const auto r =
        test::run_loopscope("fleet " + server.url_text("fleet") + " --group-by game --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Json j = Json::parse(r.out);
    ASSERT_EQ(j["groups"].size(), expected.size()) << r.out;
    for (const Json& g : j["groups"]) {
        const std::string game = g["labels"]["game"].get<std::string>();
        ASSERT_TRUE(expected.contains(game)) << game;
        expect_group_equals(g, expected[game], game);
    }
    // No grouping: one group of every frame; --where keeps one game's captures.
    Pooled all;
    for (const auto& [game, pooled] : expected) {
        all.captures += pooled.captures;
        all.frame_ns.insert(all.frame_ns.end(), pooled.frame_ns.begin(), pooled.frame_ns.end());
    }
    const auto whole = test::run_loopscope("fleet " + server.url_text("fleet") + " --format json");
    ASSERT_EQ(whole.exit_code, 0) << whole.err;
    const Json w = Json::parse(whole.out);
    ASSERT_EQ(w["groups"].size(), 1u);
    expect_group_equals(w["groups"][0], all, "all");
    const std::string game = expected.begin()->first;
    const auto one = test::run_loopscope("fleet " + server.url_text("fleet") +
                                         " --group-by rig --where game=" + game + " --format json");
    ASSERT_EQ(one.exit_code, 0) << one.err;
    const Json o = Json::parse(one.out);
    ASSERT_EQ(o["groups"].size(), 1u);
    EXPECT_EQ(o["groups"][0]["labels"]["rig"], "ci");
    expect_group_equals(o["groups"][0], expected[game], game);
    // The other formats carry the same groups.
    const auto table =
        test::run_loopscope("fleet " + server.url_text("fleet") + " --group-by game");
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find(game), std::string::npos);
    const auto csv =
        test::run_loopscope("fleet " + server.url_text("fleet") + " --group-by game --format csv");
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'),
              static_cast<long>(expected.size() + 1));
    fs::remove_all(dir);
}

TEST(ClickHouseStore, StoringACaptureAgainReplacesIt) {
    Server server;
    LOOPSCOPE_REQUIRE_CLICKHOUSE(server);
    const std::string capture = quoted(test::test_data("presentmon24.csv"));
    const std::string store =
        " --store " + server.url_text("again") + " --format json -o /dev/null";
    for (int i = 0; i < 3; ++i) {
        const auto r = test::run_loopscope("report " + capture + " --label run=a" + store);
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    // The same file with other labels is another capture.
    const auto other = test::run_loopscope("report " + capture + " --label run=b" + store);
    ASSERT_EQ(other.exit_code, 0) << other.err;
    Pooled once;
    add_capture(once, test::test_data("presentmon24.csv"));
    const auto r =
        test::run_loopscope("fleet " + server.url_text("again") + " --group-by run --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Json j = Json::parse(r.out);
    ASSERT_EQ(j["groups"].size(), 2u);
    for (const Json& g : j["groups"])
        expect_group_equals(g, once, g["labels"]["run"].get<std::string>());
    // Each capture's older stores are gone from the commit table (their frames may still be
    // waiting for the server's asynchronous delete, but no query counts them).
    ClickHouseClient client(server.url("again"));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (scalar(client, "SELECT count() FROM again.loopscope_captures") != "2" &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(scalar(client, "SELECT count() FROM again.loopscope_captures"), "2");
    EXPECT_EQ(scalar(client,
                     "SELECT uniqExact(capture_id, store_id) FROM "
                     "again.loopscope_frames WHERE (capture_id, store_id) IN (SELECT "
                     "capture_id, store_id FROM again.loopscope_captures)"),
              "2");
}

TEST(ClickHouseStore, RunLabelsAreStoredOutsideTheCapturesIdentity) {
    Server server;
    LOOPSCOPE_REQUIRE_CLICKHOUSE(server);
    // The commit table as an older loopscope made it, without the run labels' columns.
    ClickHouseClient client(server.url("runs"));
    client.query("CREATE DATABASE runs");
    client.query(
        "CREATE TABLE runs.loopscope_captures (capture_id String, store_id UInt64, stored_utc "
        "DateTime('UTC'), source_file String, source_hash String, format String, label_keys "
        "Array(String), label_values Array(String), frames UInt64, loopscope_version String) "
        "ENGINE = MergeTree ORDER BY (capture_id, store_id)");
    const std::string capture = quoted(test::test_data("presentmon24.csv"));
    const std::string store =
        " --label game=a --store " + server.url_text("runs") + " -o /dev/null";
    for (const std::string build : {"7", "8"}) {
        const auto r = test::run_loopscope("report " + capture + " --run-label build=" + build +
                                           " --run-label commit=c" + build + store);
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    // One capture (the run labels are not part of its identity), its newest store's run labels.
    EXPECT_EQ(scalar(client,
                     "SELECT uniqExact(capture_id), argMax(run_label_keys, store_id), "
                     "argMax(run_label_values, store_id), argMax(label_values, store_id) FROM "
                     "runs.loopscope_captures FORMAT TSV"),
              "1\t['build','commit']\t['8','c8']\t['a']");
}

TEST(ClickHouseStore, AStoreWithoutItsCommitRowIsNotSeen) {
    Server server;
    LOOPSCOPE_REQUIRE_CLICKHOUSE(server);
    ClickHouseClient client(server.url("partial"));
    // A commit table the store cannot write into (no `frames` column): the frames and figures
    // go in, the commit row is refused, the command says so and exits 1; the report is written.
    client.query("CREATE DATABASE partial");
    client.query(
        "CREATE TABLE partial.loopscope_captures (capture_id String, store_id UInt64) "
        "ENGINE = MergeTree ORDER BY capture_id");
    const std::string dir = test::make_temp_dir("partial");
    const auto failed = test::run_loopscope("report " + quoted(test::test_data("ocat.csv")) +
                                            " --store " + server.url_text("partial") +
                                            " --format json -o " + quoted(dir + "/r.json"));
    EXPECT_EQ(failed.exit_code, 1) << failed.err;
    EXPECT_EQ(std::count(failed.err.begin(), failed.err.end(), '\n'), 1) << failed.err;
    EXPECT_NE(failed.err.find("1 of 1 capture not stored"), std::string::npos) << failed.err;
    EXPECT_TRUE(Json::parse(test::read_text(dir + "/r.json")).contains("figures"));
    EXPECT_NE(scalar(client, "SELECT count() FROM partial.loopscope_frames"), "0");
    // With a proper commit table, another capture stored: only that one is seen.
    client.query("DROP TABLE partial.loopscope_captures");
    const auto ok =
        test::run_loopscope("report " + quoted(test::test_data("presentmon2.csv")) + " --store " +
                            server.url_text("partial") + " --format json -o /dev/null");
    ASSERT_EQ(ok.exit_code, 0) << ok.err;
    // Frames of a newer store of that capture without its commit row are not seen either.
    const std::string id = scalar(client, "SELECT any(capture_id) FROM partial.loopscope_captures");
    client.insert("loopscope_frames", "TabSeparated",
                  id + "\t18446744073709551615\t0\t0\t999000000\t1\t0\t\\N\t\\N\t\\N\t\\N\t\\N\t"
                       "\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n");
    Pooled expected;
    add_capture(expected, test::test_data("presentmon2.csv"));
    const auto r = test::run_loopscope("fleet " + server.url_text("partial") + " --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Json j = Json::parse(r.out);
    ASSERT_EQ(j["groups"].size(), 1u);
    expect_group_equals(j["groups"][0], expected, "presentmon2");
    fs::remove_all(dir);
}

TEST(ClickHouseStore, LoopColumnsOfATraceAreStored) {
    Server server;
    LOOPSCOPE_REQUIRE_CLICKHOUSE(server);
    const auto r =
        test::run_loopscope("report " + quoted(test::test_data("loopscope.trace")) + " --store " +
                            server.url_text("loop") + " --format json -o /dev/null");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ReadOptions read;
    const Capture capture = read_capture(test::test_data("loopscope.trace"), read);
    const CaptureReport report = analyse_capture(capture, AnalysisOptions{});
    std::int64_t steps = 0, frames_sum = 0;
    for (std::size_t i = 0; i < report.series.frame_ns.size(); ++i) {
        steps += capture.loop[static_cast<std::size_t>(report.series.frame_number[i])].steps;
        frames_sum += report.series.frame_ns[i];
    }
    ClickHouseClient client(server.url("loop"));
    EXPECT_EQ(scalar(client,
                     "SELECT count(), sum(steps), sum(frame_ns), countIf(generated IS "
                     "NULL) FROM loop.loopscope_frames FORMAT CSV"),
              std::to_string(report.series.frame_ns.size()) + "," + std::to_string(steps) + "," +
                  std::to_string(frames_sum) + "," + std::to_string(report.series.frame_ns.size()));
}

TEST(ClickHouseStore, AnUnreachableServerExitsOneAfterWritingTheReport) {
    // No server needed: a port nothing listens on.
    const std::string url = "clickhouse://127.0.0.1:" + std::to_string(free_port()) + "/db";
    const std::string dir = test::make_temp_dir("unreachable");
    const auto one =
        test::run_loopscope("report " + quoted(test::test_data("presentmon24.csv")) + " --store " +
                            url + " --format json -o " + quoted(dir + "/one.json"));
    EXPECT_EQ(one.exit_code, 1) << one.err;
    EXPECT_EQ(std::count(one.err.begin(), one.err.end(), '\n'), 1) << one.err;
    EXPECT_NE(one.err.find("cannot reach the server"), std::string::npos) << one.err;
    EXPECT_TRUE(Json::parse(test::read_text(dir + "/one.json")).contains("figures"));
    // The summary of a folder: every row written to standard output, then the one line.
    fs::create_directories(dir + "/in");
    for (const std::string& name : test::test_data_captures())
        fs::create_symlink(test::test_data(name), dir + "/in/" + name);
    const auto many = test::run_loopscope("report " + quoted(dir + "/in") +
                                          " --summary --format json --store " + url);
    EXPECT_EQ(many.exit_code, 1) << many.err;
    EXPECT_EQ(std::count(many.err.begin(), many.err.end(), '\n'), 1) << many.err;
    const std::size_t captures = test::test_data_captures().size();
    EXPECT_EQ(Json::parse(many.out)["rows"].size(), captures);
    EXPECT_NE(many.err.find(std::to_string(captures) + " of " + std::to_string(captures) +
                            " captures not stored"),
              std::string::npos)
        << many.err;
    const auto fleet = test::run_loopscope("fleet " + url + " --group-by game");
    EXPECT_EQ(fleet.exit_code, 1);
    EXPECT_NE(fleet.err.find("cannot reach the server"), std::string::npos) << fleet.err;
    fs::remove_all(dir);
}

// A server on 127.0.0.1 that accepts and then misbehaves: kSilent reads the request and never
// answers; kEndless answers 200 and sends a body without end. It stops by itself after
// kLifetime or (kEndless) 2 GiB sent, or when the test ends, whichever is first.
class FakeServer {
  public:
    enum class Mode { kSilent, kEndless };
    static constexpr auto kLifetime = std::chrono::seconds(30);

    explicit FakeServer(Mode mode) : mode_(mode) {
        listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        if (listen_fd_ < 0 || bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
            listen(listen_fd_, 8) != 0 ||
            getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
            return;
        }
        port_ = ntohs(addr.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~FakeServer() {
        stop_ = true;
        if (thread_.joinable())
            thread_.join();
        if (listen_fd_ >= 0)
            close(listen_fd_);
    }
    int port() const { return port_; }
    int accepted() const { return accepted_; }

  private:
    bool expired() const { return stop_ || std::chrono::steady_clock::now() > deadline_; }

    void serve() {
        std::vector<int> clients;
        while (!expired()) {
            pollfd p{listen_fd_, POLLIN, 0};
            if (poll(&p, 1, 50) == 1) {
                const int fd = accept(listen_fd_, nullptr, nullptr);
                if (fd >= 0) {
                    ++accepted_;
                    clients.push_back(fd);
                    if (mode_ == Mode::kEndless)
                        send_without_end(fd);
                }
            }
            // The silent server drains what its clients send and answers nothing.
            for (const int fd : clients) {
                char buffer[4096];
                while (recv(fd, buffer, sizeof buffer, MSG_DONTWAIT) > 0) {
                }
            }
        }
        for (const int fd : clients)
            close(fd);
    }

    void send_without_end(int fd) {
        char request[4096];
        recv(fd, request, sizeof request, 0);  // the request's start; the rest is never read
        const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n";
        send(fd, head.data(), head.size(), MSG_NOSIGNAL);
        const std::string chunk(65536, 'x');
        std::uint64_t sent = 0;
        while (!expired() && sent < (std::uint64_t{2} << 30)) {
            pollfd p{fd, POLLOUT, 0};
            if (poll(&p, 1, 50) != 1)
                continue;
            const ssize_t n = send(fd, chunk.data(), chunk.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                break;  // the client has gone
            if (n > 0)
                sent += static_cast<std::uint64_t>(n);
        }
    }

    Mode mode_;
    int listen_fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<int> accepted_{0};
    std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::now() + kLifetime;
    std::thread thread_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(ClickHouseStore, AServerThatNeverAnswersFailsAfterTheStallTimeout) {
    FakeServer server(FakeServer::Mode::kSilent);
    ASSERT_NE(server.port(), 0);
    const std::string url = "clickhouse://127.0.0.1:" + std::to_string(server.port()) + "/db";
    const std::string dir = test::make_temp_dir("silent");
    auto start = std::chrono::steady_clock::now();
    const auto one = test::run_loopscope(
        "report " + quoted(test::test_data("presentmon24.csv")) + " --store " + url +
        " --store-stall-timeout 1 --format json -o " + quoted(dir + "/one.json"));
    const double took_s = seconds_since(start);
    EXPECT_EQ(one.exit_code, 1) << one.err;
    EXPECT_EQ(std::count(one.err.begin(), one.err.end(), '\n'), 1) << one.err;
    EXPECT_NE(one.err.find("nothing moved for 1 s"), std::string::npos) << one.err;
    EXPECT_NE(one.err.find("1 of 1 capture not stored"), std::string::npos) << one.err;
    EXPECT_TRUE(Json::parse(test::read_text(dir + "/one.json")).contains("figures"));
    EXPECT_GE(server.accepted(), 1);
    // One stall timeout (the server is not tried again for the capture), not the default's 60 s.
    EXPECT_GE(took_s, 1.0);
    EXPECT_LT(took_s, 15.0);
    start = std::chrono::steady_clock::now();
    const auto fleet = test::run_loopscope("fleet " + url + " --stall-timeout 1");
    EXPECT_EQ(fleet.exit_code, 1);
    EXPECT_NE(fleet.err.find("nothing moved for 1 s"), std::string::npos) << fleet.err;
    EXPECT_LT(seconds_since(start), 15.0);
    fs::remove_all(dir);
}

TEST(ClickHouseStore, AReplyWithoutEndIsCutAtItsBound) {
    FakeServer server(FakeServer::Mode::kEndless);
    ASSERT_NE(server.port(), 0);
    const std::string url = "clickhouse://127.0.0.1:" + std::to_string(server.port()) + "/db";
    const auto start = std::chrono::steady_clock::now();
    const auto fleet = test::run_loopscope("fleet " + url + " --group-by game");
    EXPECT_EQ(fleet.exit_code, 1);
    EXPECT_EQ(std::count(fleet.err.begin(), fleet.err.end(), '\n'), 1) << fleet.err;
    EXPECT_NE(fleet.err.find("the server's reply exceeds 64 MiB"), std::string::npos) << fleet.err;
    EXPECT_TRUE(fleet.out.empty());
    EXPECT_LT(seconds_since(start), 25.0);
    // report --store: the local report all the same, then the one line.
    const std::string dir = test::make_temp_dir("endless");
    const auto one =
        test::run_loopscope("report " + quoted(test::test_data("presentmon24.csv")) + " --store " +
                            url + " --format json -o " + quoted(dir + "/one.json"));
    EXPECT_EQ(one.exit_code, 1) << one.err;
    EXPECT_NE(one.err.find("the server's reply exceeds 64 MiB"), std::string::npos) << one.err;
    EXPECT_TRUE(Json::parse(test::read_text(dir + "/one.json")).contains("figures"));
    fs::remove_all(dir);
}

TEST(ClickHouseStore, AMalformedUrlIsRefusedBeforeAnyFileIsRead) {
    for (const std::string bad :
         {"http://127.0.0.1:8123/db", "clickhouse://127.0.0.1:8123",
          "clickhouse://127.0.0.1:99999/db", "clickhouse://host/my-db", "clickhouse:///db"}) {
        const auto r = test::run_loopscope("report /nonexistent.csv --store '" + bad + "'");
        EXPECT_EQ(r.exit_code, 2) << bad;
        EXPECT_NE(r.err.find("--store '" + bad + "'"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("nonexistent"), std::string::npos) << r.err;
        const auto f = test::run_loopscope("fleet '" + bad + "'");
        EXPECT_EQ(f.exit_code, 2) << bad;
        EXPECT_NE(f.err.find("expected clickhouse://HOST[:PORT]/DATABASE"), std::string::npos)
            << f.err;
    }
}

}  // namespace
}  // namespace loopscope
