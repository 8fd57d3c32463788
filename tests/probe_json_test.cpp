// The probe document: results written with to_json read back with from_json as equal structs;
// a document written by `loopscope probe clocks --json` reads back; every object's keys come out
// in the order docs/probe-clocks.md and docs/probe-timers.md list them (read from the docs
// themselves, so the test fails when code and docs part); a bad field names itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "probes/probe_json.hpp"
#include "probes/probe_run.hpp"
#include "probes/timer_stats.hpp"
#include "tests/test_support.hpp"

namespace loopscope {
namespace {

using KeyOrders = std::map<std::string, std::vector<std::string>>;

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kUs = 1'000;

std::string doc_text(const std::string& name) {
    return test::read_text(std::string(LOOPSCOPE_SOURCE_DIR) + "/docs/" + name);
}

// The text between the line after `heading` and the next line starting with "## ".
std::string section(const std::string& text, const std::string& heading) {
    const auto at = text.find("\n" + heading + "\n");
    EXPECT_NE(at, std::string::npos) << heading;
    if (at == std::string::npos)
        return "";
    const auto from = at + heading.size() + 2;
    const auto end = text.find("\n## ", from);
    return text.substr(from, end == std::string::npos ? std::string::npos : end - from);
}

// The first ``` block of a section.
std::string code_block(const std::string& text) {
    const auto open = text.find("```");
    const auto body = text.find('\n', open) + 1;
    return text.substr(body, text.find("```", body) - body);
}

// The keys of every object in the docs' JSON sketches, in the order written, by path ("" the
// top level, "timers.one_shot[]" an object of that array). A sketch such as
// `"latency_ns": { "min", "p50" }` lists keys without values; `{ ... }` lists none.
void keys_of_sketch(const std::string& sketch, KeyOrders& out) {
    struct Level {
        std::string path;
        bool object;
    };
    std::vector<Level> stack;
    std::string pending;  // the key whose value comes next
    char last = 0;        // the last significant character
    for (std::size_t i = 0; i < sketch.size(); ++i) {
        const char ch = sketch[i];
        if (ch == '"') {
            const auto close = sketch.find('"', i + 1);
            const std::string s = sketch.substr(i + 1, close - i - 1);
            i = close;
            const bool in_object = stack.empty() || stack.back().object;
            if (last != ':' && in_object) {
                const std::string path = stack.empty() ? "" : stack.back().path;
                if (!stack.empty())
                    out[path].push_back(s);
                pending = s;
            }
            last = '"';
            continue;
        }
        if (ch == '{' || ch == '[') {
            std::string path;
            if (!stack.empty() && !stack.back().object)
                path = stack.back().path;  // an element of an array
            else if (!pending.empty())
                path = (stack.empty() || stack.back().path.empty() ? "" : stack.back().path + ".") +
                       pending + (ch == '[' ? "[]" : "");
            if (ch == '{' && stack.empty() && pending.empty())
                path = "";  // the document itself
            stack.push_back({path, ch == '{'});
            if (ch == '{' && !out.count(path))
                out[path];
            pending.clear();
        } else if (ch == '}' || ch == ']') {
            if (!stack.empty())
                stack.pop_back();
        }
        if (ch == ',')
            pending.clear();
        if (!std::isspace(static_cast<unsigned char>(ch)))
            last = ch;
    }
}

// The backticked names in the first cell of each row of the Markdown table after `intro`;
// a `{a, b}` or `[{a, b}]` in a row's second cell lists the keys of that field's objects.
void keys_of_table(const std::string& text, const std::string& intro, const std::string& path,
                   KeyOrders& out) {
    const auto at = text.find(intro);
    ASSERT_NE(at, std::string::npos) << intro;
    std::istringstream lines(text.substr(at + intro.size()));
    std::string line;
    std::getline(lines, line);  // rest of the intro line
    std::vector<std::string>& keys = out[path];
    const std::regex name("`([a-z_]+)`");
    const std::regex nested("`(\\[?)\\{([a-z_, ]+)\\}\\]?`");
    while (std::getline(lines, line)) {
        if (line.empty() && !keys.empty())
            break;
        if (line.rfind("| ", 0) != 0 || line.find("`") == std::string::npos)
            continue;
        const auto cut = line.find(" | ");
        const std::string first = line.substr(0, cut), rest = line.substr(cut);
        std::vector<std::string> names;
        for (std::sregex_iterator m(first.begin(), first.end(), name), e; m != e; ++m)
            names.push_back((*m)[1]);
        keys.insert(keys.end(), names.begin(), names.end());
        std::smatch m;
        if (names.size() == 1 && std::regex_search(rest, m, nested)) {
            auto& sub = out[path + "." + names[0] + (m[1].length() ? "[]" : "")];
            std::istringstream items(m[2]);
            std::string item;
            while (std::getline(items, item, ','))
                sub.push_back(item.substr(item.find_first_not_of(' ')));
        }
    }
}

// The key orders the docs give for the probe document.
KeyOrders documented_key_orders() {
    KeyOrders out;
    const std::string clocks = section(doc_text("probe-clocks.md"), "## The JSON document");
    keys_of_sketch(code_block(clocks), out);
    // docs/probe-timers.md: the timer probe adds its section after the clocks' (and before the
    // machine load, which every run ends with).
    auto& top = out[""];
    top.insert(std::find(top.begin(), top.end(), "clocks") + 1, "timers");
    keys_of_table(clocks, "`context`:", "context", out);
    keys_of_table(clocks, "Each object of `clocks`:", "clocks[]", out);
    // "`clocks_run`: `duration_ns` (as asked), `elapsed_ns` (as taken), `min_reads`, ..."
    const auto run = clocks.find("`clocks_run`:");
    const std::string run_line = clocks.substr(run + 13, clocks.find("\n\n", run) - run - 13);
    const std::regex name("`([a-z_]+)`");
    for (std::sregex_iterator m(run_line.begin(), run_line.end(), name), e; m != e; ++m)
        out["clocks_run"].push_back((*m)[1]);
    keys_of_sketch(code_block(section(doc_text("probe-timers.md"), "## JSON")), out);
    return out;
}

std::vector<std::string> keys(const ProbeJson& object) {
    std::vector<std::string> k;
    for (const auto& [key, value] : object.items())
        k.push_back(key);
    return k;
}

// Every object of `j` whose path the docs list has only keys the docs list, in the docs' order
// (a section not measured, or a periodic row that did not run, leaves some out). `seen`
// collects the keys written at each path, to check that every documented key is written.
void expect_documented_order(const ProbeJson& j, const std::string& path, const KeyOrders& docs,
                             KeyOrders& seen) {
    if (j.is_object()) {
        const auto it = docs.find(path);
        if (it != docs.end() && !it->second.empty()) {
            const std::vector<std::string>& listed = it->second;
            std::size_t next = 0;  // where in the docs' list the next key may be found
            for (const auto& key : keys(j)) {
                const auto at = std::find(listed.begin() + static_cast<std::ptrdiff_t>(next),
                                          listed.end(), key);
                EXPECT_TRUE(at != listed.end())
                    << (path.empty() ? "the document" : path) << ": key \"" << key
                    << "\" is not in the docs, or comes out of their order";
                if (at != listed.end())
                    next = static_cast<std::size_t>(at - listed.begin()) + 1;
                seen[path].push_back(key);
            }
        }
        for (const auto& [key, value] : j.items())
            expect_documented_order(value, path.empty() ? key : path + "." + key, docs, seen);
    } else if (j.is_array()) {
        for (const auto& v : j)
            expect_documented_order(v, path + "[]", docs, seen);
    }
}

SystemContext sample_context() {
    SystemContext c;
    c.os = "Debian GNU/Linux 12 (bookworm)";
    c.kernel = "Linux 6.1.0 x86_64";
    c.cpu_model = "AMD EPYC";
    c.logical_cpus = 2;
    c.usable_cpus = 2;
    c.clocksource = "tsc";
    c.clocksources_available = {"tsc", "kvm-clock"};
    c.timer_slack_ns = 50'000;
    c.kernel_tick_ns = 4'000'000;
    c.kernel_tick_from = "clock_getres(CLOCK_MONOTONIC_COARSE)";
    // Windows' (Linux has none), so that the sample writes every key the docs list.
    c.timer_resolution = TimerResolution{15'625'000, 500'000, 1'000'000, 1'000'000};
    c.timer_throttling = timer_throttling_text(kIgnoreTimerResolutionBit, 0);
    c.power_plan = "Balanced (381b4222-f694-41f0-9685-ff5bb260df2e)";
    c.hypervisor = true;
    c.hypervisor_name = "KVM";
    c.has_tsc = true;
    c.invariant_tsc = true;
    c.build_type = "RelWithDebInfo";
    c.compiler = "g++ 12.2.0";
    c.sanitizers = {"address"};
    return c;
}

ClockResult sample_clock(const std::string& name, double ticks_per_second, std::int64_t min_ticks) {
    ClockResult r;
    r.name = name;
    r.description = "what it is";
    r.backing = "what backs it";
    r.claims_steady = true;
    r.resolution_ns = 1e9 / ticks_per_second;
    r.resolution_from = "clock_getres";
    r.ticks_per_second = ticks_per_second;
    r.reads = 1'000'000;
    r.granularity = {999'999, 3, 0, min_ticks, min_ticks * 2, 3.0 / 999'999};
    r.granularity_min_ns = static_cast<double>(min_ticks) * 1e9 / ticks_per_second;
    r.granularity_median_ns = static_cast<double>(min_ticks * 2) * 1e9 / ticks_per_second;
    r.histogram = {{0, 0, 3}, {16, 31, 999'996}};
    r.read_cost_ns = 25.25;
    r.read_cost_batches = 9;
    r.reads_per_batch = 40'000;
    r.cross_thread_checked = true;
    r.cross_thread_cpus = {0, 1};
    r.cross_thread_pinned = true;
    r.cross_thread_reads = 700'000;
    r.cross_thread_backward_steps = 12;
    r.cross_thread_read = "lfence;rdtsc";
    r.cross_thread_unordered_reads = 800'000;
    r.cross_thread_unordered_backward_steps = 3;
    r.drift_ppm = -0.125;
    r.drift_uncertainty_ppm = 0.03;
    r.drift_interval_ns = 500'000'000;
    return r;
}

// Like timer_probe_test's sample report, with every kind of row the document has: a periodic
// row that ran and one that was refused, a slack row, a limiter that misses the bound.
TimerReport sample_timers() {
    TimerReport r;
    r.quick = true;
    r.bound_ns = 500 * kUs;
    r.elapsed_ns = 2'500'000'000;
    OneShotRow o;
    o.method = "nanosleep";
    o.requested_ns = kMs;
    o.waited_ns = kMs;
    o.overshoot = summarize({60 * kUs, 70 * kUs, 80 * kUs});
    o.histogram = make_histogram({60 * kUs, 70 * kUs, 80 * kUs}, log_edges_ns(20 * kMs));
    o.verdict = "fair";
    r.one_shot.push_back(o);
    PeriodicRow p;
    p.scheduling = "SCHED_OTHER";
    p.interval_ns = kMs;
    p.latency = summarize({50 * kUs, 2 * kMs});
    p.histogram = make_histogram({50 * kUs, 2 * kMs}, linear_edges_ns(kUs, 1000));
    p.missed_periods = 1;
    p.verdict = "v";
    r.periodic.push_back(p);
    PeriodicRow refused;
    refused.scheduling = "SCHED_FIFO 80";
    refused.realtime = true;
    refused.note = "real-time scheduling refused";
    refused.verdict = "not run";
    r.periodic.push_back(refused);
    SlackRow s;
    s.requested_ns = 100 * kUs;
    s.slack_ns = 50 * kUs;
    s.current = true;
    s.overshoot = summarize({55 * kUs, 58 * kUs});
    s.histogram = make_histogram({55 * kUs, 58 * kUs}, log_edges_ns(20 * kMs));
    s.verdict = "slack";
    r.slack.push_back(s);
    r.slack_note = "restored";
    r.limiters.push_back(
        summarize_limiter("sleep", 60, 16'666'667, {100, -100}, {5, 7}, 1, r.bound_ns));
    r.limiters.push_back(
        summarize_limiter("spin", 240, 4'166'667, {900 * kUs, 10}, {9, 9}, 0, r.bound_ns));
    r.recommendations = recommend_limiters(r.limiters, r.bound_ns);
    return r;
}

ProbeDocument sample_document() {
    ProbeDocument d = make_probe_document(sample_context());
    ClockProbeResult clocks;
    clocks.reference_clock = "CLOCK_MONOTONIC_RAW";
    clocks.duration_ns = 5'000'000'000;
    clocks.elapsed_ns = 5'733'000'000;
    clocks.min_reads = 1'000'000;
    clocks.clocks.push_back(sample_clock("CLOCK_MONOTONIC", 1e9, 20));
    // A TSC: steps of a few ticks of 0.385 ns, which the document gives in ns.
    clocks.clocks.push_back(sample_clock("rdtsc", 2'596'124'000.0, 26));
    ClockResult unseen = sample_clock("SDL_GetTicks64", 1e3, 0);
    unseen.granularity.median_ticks = 0;
    unseen.granularity_median_ns = 0;
    unseen.resolution_ns = -1;
    unseen.cross_thread_checked = false;
    unseen.cross_thread_cpus.clear();
    unseen.cross_thread_pinned = false;
    unseen.cross_thread_reads = 0;
    unseen.cross_thread_backward_steps = 0;
    unseen.cross_thread_read.clear();
    unseen.cross_thread_unordered_reads = -1;
    unseen.cross_thread_unordered_backward_steps = -1;
    unseen.whole_tick_share = 0.98;
    // A coarse clock watched step by step.
    unseen.steps_watched = true;
    unseen.steps_watch_ns = 200'000'000;
    unseen.steps_watch_reads = 5'000'000;
    unseen.steps = {50, 40, 8, 2, 6, 2'900, 3, 4'000'000, 1'000};
    clocks.clocks.push_back(unseen);
    d.clocks = clocks;
    d.timers = sample_timers();
    // Only what the document holds: the raw counters are not in it.
    MachineLoad load;
    load.before.load_1m = 0.5;
    load.before.load_5m = 0.25;
    load.before.load_15m = 0.125;
    load.after.load_1m = 1.5;
    load.after.load_5m = -1.0;  // unknown: null
    load.after.load_15m = 0.75;
    load.after.from = "/proc/loadavg, /proc/stat";
    load.measured = true;
    load.other_share = 0.25;
    load.self_share = 0.5;
    load.steal_share = 0.0625;
    d.load = load;
    return d;
}

TEST(ProbeJson, AResultWrittenAndReadBackIsEqual) {
    const ProbeDocument written = sample_document();
    const ProbeJson j = written;
    const ProbeDocument read = ProbeJson::parse(j.dump(2)).get<ProbeDocument>();
    EXPECT_TRUE(read.context == written.context);
    ASSERT_TRUE(read.clocks.has_value());
    for (std::size_t i = 0; i < written.clocks->clocks.size(); ++i)
        EXPECT_TRUE(read.clocks->clocks.at(i) == written.clocks->clocks[i]) << i;
    EXPECT_TRUE(read.timers == written.timers);
    EXPECT_TRUE(read == written);
    EXPECT_EQ(ProbeJson(read).dump(2), j.dump(2));
}

TEST(ProbeJson, TheTerminalsLogScaleHistogramIsNotInTheDocument) {
    ProbeDocument written = sample_document();
    PeriodicRow& row = written.timers->periodic.front();
    row.log_histogram = make_histogram({50 * kUs, 2 * kMs}, log_edges_ns(20 * kMs));
    const ProbeDocument read = ProbeJson(written).get<ProbeDocument>();
    EXPECT_TRUE(read.timers->periodic.front().log_histogram.counts.empty());
    row.log_histogram = {};
    EXPECT_TRUE(read == written);
}

TEST(ProbeJson, KeysComeInTheOrderTheDocsList) {
    const KeyOrders docs = documented_key_orders();
    // The lists the docs must give, so that the check below cannot pass by finding none.
    for (const char* path :
         {"", "context", "clocks_run", "clocks[]", "clocks[].cross_thread", "clocks[].histogram[]",
          "timers", "timers.one_shot[]", "timers.one_shot[].overshoot_ns",
          "timers.one_shot[].histogram", "timers.periodic[]", "timers.periodic[].latency_ns",
          "timers.timer_slack[]", "timers.limiters[]", "timers.recommendations[]"}) {
        const auto it = docs.find(path);
        ASSERT_TRUE(it != docs.end() && !it->second.empty()) << "docs list no keys for " << path;
    }
    EXPECT_EQ(docs.at("clocks_run"), (std::vector<std::string>{"duration_ns", "elapsed_ns",
                                                               "min_reads", "reference_clock"}));
    KeyOrders seen;
    expect_documented_order(ProbeJson(sample_document()), "", docs, seen);
    // Every key the docs list is written (the sample has every section and kind of row).
    for (const auto& [path, listed] : docs) {
        for (const auto& key : listed) {
            EXPECT_NE(std::find(seen[path].begin(), seen[path].end(), key), seen[path].end())
                << (path.empty() ? "the document" : path) << ": \"" << key << "\" is not written";
        }
    }
}

TEST(ProbeJson, ADocumentWrittenByProbeClocksReadsBackInTheDocumentedOrder) {
    const std::string dir = test::make_temp_dir("loopscope-probe-json");
    const std::string path = dir + "/clocks.json";
    const auto r =
        test::run_loopscope("probe clocks --duration 300ms --reads 1000 --json '" + path + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const ProbeDocument read = read_probe_results(path);
    ASSERT_TRUE(read.context.has_value());
    ASSERT_TRUE(read.clocks.has_value());
    EXPECT_FALSE(read.timers.has_value());
    EXPECT_GE(read.clocks->clocks.size(), 3u);
    for (const auto& c : read.clocks->clocks) {
        EXPECT_FALSE(c.name.empty());
        EXPECT_GT(c.read_cost_ns, 0.0) << c.name;
        EXPECT_GT(c.read_cost_batches, 0) << c.name;
    }
    // Written again, it is the file as loopscope wrote it, byte for byte.
    EXPECT_EQ(ProbeJson(read).dump(2) + "\n", test::read_text(path));
    KeyOrders seen;
    expect_documented_order(ProbeJson::parse(test::read_text(path)), "", documented_key_orders(),
                            seen);
    EXPECT_EQ(seen[""], (std::vector<std::string>{"schema", "generator", "context", "clocks_run",
                                                  "clocks", "load"}));
    EXPECT_FALSE(seen["clocks[]"].empty());
    std::filesystem::remove_all(dir);
}

TEST(ProbeJson, AFieldOfTheWrongTypeIsNamedWithItsPath) {
    const std::string dir = test::make_temp_dir("loopscope-probe-json");
    ProbeJson j = sample_document();
    j["timers"]["one_shot"][0]["overshoot_ns"]["p50"] = "late";
    const std::string path = dir + "/bad.json";
    test::write_text(path, j.dump(2));
    try {
        read_probe_results(path);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "bad.json: timers.one_shot[0].overshoot_ns.p50: expected an integer"),
                  std::string::npos)
            << e.what();
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loopscope
