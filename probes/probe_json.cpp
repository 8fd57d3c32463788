// Writing and reading the probe result document.
#include "probes/probe_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <type_traits>
#include <utility>

#include "common/errors.hpp"
#include "common/text_position.hpp"

namespace loopscope {

using nlohmann::json;

ProbeSchemaMismatch::ProbeSchemaMismatch(std::string where_, std::string expected_)
    : std::runtime_error(where_ + ": expected " + expected_),
      where(std::move(where_)),
      expected(std::move(expected_)) {}

namespace {

using J = ProbeJson;

// Runs read; a mismatch found inside gets `prefix` in front of its path, so that each level of
// the document adds its own part ("clocks[1]" + "." + "read_cost_ns").
template <class Read>
void within(const std::string& prefix, Read&& read) {
    try {
        read();
    } catch (ProbeSchemaMismatch& e) {
        if (e.where.empty())
            e.where = prefix;
        else
            e.where = prefix + (e.where.front() == '[' ? "" : ".") + e.where;
        throw;
    }
}

// Required fields are those `probe compare` reads; the others may be missing (older or
// hand-written documents) and keep their defaults, but are checked when present.
enum class Need { optional, required };

const J* member(const J& object, const char* key, Need need, const char* expected) {
    const auto it = object.find(key);
    if (it != object.end())
        return &*it;
    if (need == Need::required)
        throw ProbeSchemaMismatch(key, expected);
    return nullptr;
}

void read(const J& o, const char* key, std::string& out, Need need = Need::optional) {
    if (const J* v = member(o, key, need, "a string")) {
        if (!v->is_string())
            throw ProbeSchemaMismatch(key, "a string");
        out = v->get<std::string>();
    }
}

void read(const J& o, const char* key, bool& out, Need need = Need::optional) {
    if (const J* v = member(o, key, need, "true or false")) {
        if (!v->is_boolean())
            throw ProbeSchemaMismatch(key, "true or false");
        out = v->get<bool>();
    }
}

void read(const J& o, const char* key, double& out, Need need = Need::optional) {
    if (const J* v = member(o, key, need, "a number")) {
        if (!v->is_number())
            throw ProbeSchemaMismatch(key, "a number");
        out = v->get<double>();
    }
}

void read(const J& o, const char* key, std::int64_t& out, Need need = Need::optional) {
    if (const J* v = member(o, key, need, "an integer")) {
        if (!v->is_number_integer())
            throw ProbeSchemaMismatch(key, "an integer");
        out = v->get<std::int64_t>();
    }
}

void read(const J& o, const char* key, int& out, Need need = Need::optional) {
    std::int64_t wide = out;
    read(o, key, wide, need);
    out = static_cast<int>(wide);
}

// A number where null means "unknown", stored as `if_null`.
template <class Number>
void read_nullable(const J& o, const char* key, Number& out, Number if_null,
                   Need need = Need::optional) {
    if (const J* v = member(o, key, need, "a number or null")) {
        if (v->is_null())
            out = if_null;
        else if (v->is_number())
            out = v->get<Number>();
        else
            throw ProbeSchemaMismatch(key, "a number or null");
    }
}

J nullable(bool known, const J& value) {
    return known ? value : J(nullptr);
}

// An array of T (each read with from_json); `expected` names what the array should be.
template <class T>
void read_array(const J& o, const char* key, std::vector<T>& out, const char* expected,
                Need need = Need::optional) {
    const J* v = member(o, key, need, expected);
    if (!v)
        return;
    if (!v->is_array())
        throw ProbeSchemaMismatch(key, expected);
    out.clear();
    for (std::size_t i = 0; i < v->size(); ++i) {
        within(fmt::format("{}[{}]", key, i), [&] {
            if constexpr (!std::is_arithmetic_v<T> && !std::is_same_v<T, std::string>) {
                if (!(*v)[i].is_object())
                    throw ProbeSchemaMismatch("", "an object");
            }
            out.push_back((*v)[i].template get<T>());
        });
    }
}

// An object field read by `read_object`; `expected` names what it should be.
template <class ReadObject>
void read_object(const J& o, const char* key, Need need, const char* expected,
                 ReadObject&& read_object) {
    const J* v = member(o, key, need, expected);
    if (!v)
        return;
    if (!v->is_object())
        throw ProbeSchemaMismatch(key, expected);
    within(key, [&] { read_object(*v); });
}

// The same for an object that may be null (not measured): null leaves the fields as they are.
template <class ReadObject>
void read_object_or_null(const J& o, const char* key, const char* expected,
                         ReadObject&& read_object_fields) {
    const J* v = member(o, key, Need::optional, expected);
    if (!v || v->is_null())
        return;
    if (!v->is_object())
        throw ProbeSchemaMismatch(key, expected);
    within(key, [&] { read_object_fields(*v); });
}

// {min, p50, p99, max, mean}; the count is written beside it ("samples", "loops", "frames").
J summary_json(const SampleSummary& s) {
    return {{"min", s.min_ns},
            {"p50", s.p50_ns},
            {"p99", s.p99_ns},
            {"max", s.max_ns},
            {"mean", s.mean_ns}};
}

void read_summary(const J& o, const char* key, SampleSummary& s, Need need) {
    read_object(o, key, need, "a summary object", [&](const J& v) {
        read(v, "min", s.min_ns, Need::required);
        read(v, "p50", s.p50_ns, Need::required);
        read(v, "p99", s.p99_ns, Need::required);
        read(v, "max", s.max_ns, Need::required);
        read(v, "mean", s.mean_ns, Need::required);
    });
}

void read_histogram(const J& o, const char* key, Histogram& h) {
    read_object(o, key, Need::optional, "a histogram object",
                [&](const J& v) { h = v.get<Histogram>(); });
}

// The document's unit for a clock is ns; the stats' ticks only tell whether a step was seen
// (granularity_min_ns is null when none was). Rounding back to ticks is exact for the clocks
// probed here, whose steps are a few ticks, so a result read back equals the one written.
std::int64_t ticks_of(double ns, double ticks_per_second) {
    if (ticks_per_second <= 0)
        return 1;
    return std::max<std::int64_t>(1, std::llround(ns * ticks_per_second / 1e9));
}

}  // namespace

void to_json(J& j, const SystemContext& c) {
    j = J::object();
    j["platform"] = std::string(platform_json_name(c.platform));
    j["os"] = c.os;
    j["kernel"] = c.kernel;
    j["cpu_model"] = c.cpu_model;
    j["logical_cpus"] = c.logical_cpus;
    j["usable_cpus"] = c.usable_cpus;
    j["clocksource"] = c.clocksource;
    j["clocksources_available"] = c.clocksources_available;
    j["timer_slack_ns"] = nullable(c.timer_slack_ns >= 0, c.timer_slack_ns);
    j["kernel_tick_ns"] = nullable(c.kernel_tick_ns > 0, c.kernel_tick_ns);
    j["kernel_tick_from"] = c.kernel_tick_from;
    j["config_hz"] = nullable(c.config_hz > 0, c.config_hz);
    j["config_hz_from"] = c.config_hz_from;
    // Windows only: a document from Linux has no such key (it had none before either).
    if (const auto& r = c.timer_resolution) {
        j["timer_resolution"] = {
            {"min_ns", r->min_ns},
            {"max_ns", r->max_ns},
            {"current_ns", r->current_ns},
            {"current_after_ns", nullable(r->current_after_ns >= 0, r->current_after_ns)}};
    }
    // Windows only too.
    if (!c.timer_throttling.empty())
        j["timer_throttling"] = c.timer_throttling;
    if (!c.power_plan.empty())
        j["power_plan"] = c.power_plan;
    j["hypervisor"] = nullable(c.hypervisor, c.hypervisor_name);
    j["tsc"] = c.has_tsc;
    j["invariant_tsc"] = c.invariant_tsc;
    j["build_type"] = c.build_type;
    j["compiler"] = c.compiler;
    j["sanitizers"] = c.sanitizers;
    j["warnings"] = context_warnings(c);
}

// "warnings" is not read: it follows from the rest (context_warnings).
void from_json(const J& j, SystemContext& c) {
    std::string platform;
    read(j, "platform", platform);
    if (!platform.empty()) {
        const auto p = platform_from_json_name(platform);
        if (!p)
            throw ProbeSchemaMismatch("platform", "\"linux\" or \"windows\"");
        c.platform = *p;
    }
    read(j, "os", c.os);
    read(j, "kernel", c.kernel);
    read(j, "cpu_model", c.cpu_model);
    read(j, "logical_cpus", c.logical_cpus);
    read(j, "usable_cpus", c.usable_cpus);
    read(j, "clocksource", c.clocksource);
    read_array(j, "clocksources_available", c.clocksources_available, "an array of names");
    read_nullable(j, "timer_slack_ns", c.timer_slack_ns, std::int64_t{-1});
    read_nullable(j, "kernel_tick_ns", c.kernel_tick_ns, std::int64_t{-1});
    read(j, "kernel_tick_from", c.kernel_tick_from);
    read_nullable(j, "config_hz", c.config_hz, -1);
    read(j, "config_hz_from", c.config_hz_from);
    read_object_or_null(j, "timer_resolution", "a timer resolution object", [&](const J& v) {
        TimerResolution r;
        read(v, "min_ns", r.min_ns, Need::required);
        read(v, "max_ns", r.max_ns, Need::required);
        read(v, "current_ns", r.current_ns, Need::required);
        read_nullable(v, "current_after_ns", r.current_after_ns, std::int64_t{-1});
        c.timer_resolution = r;
    });
    read(j, "timer_throttling", c.timer_throttling);
    read(j, "power_plan", c.power_plan);
    if (const J* h = member(j, "hypervisor", Need::optional, "")) {
        if (h->is_string()) {
            c.hypervisor = true;
            c.hypervisor_name = h->get<std::string>();
        } else if (!h->is_null()) {
            throw ProbeSchemaMismatch("hypervisor", "a name or null");
        }
    }
    read(j, "tsc", c.has_tsc);
    read(j, "invariant_tsc", c.invariant_tsc);
    read(j, "build_type", c.build_type);
    read(j, "compiler", c.compiler);
    read_array(j, "sanitizers", c.sanitizers, "an array of names");
}

void to_json(J& j, const HistogramBucket& b) {
    j = J{{"min_ns", b.min_ns}, {"max_ns", b.max_ns}, {"count", b.count}};
}

void from_json(const J& j, HistogramBucket& b) {
    read(j, "min_ns", b.min_ns, Need::required);
    read(j, "max_ns", b.max_ns, Need::required);
    read(j, "count", b.count, Need::required);
}

void to_json(J& j, const ClockResult& c) {
    j = J::object();
    j["name"] = c.name;
    j["description"] = c.description;
    j["backing"] = c.backing;
    j["claims_steady"] = c.claims_steady;
    j["resolution_ns"] = nullable(c.resolution_ns >= 0, c.resolution_ns);
    j["resolution_from"] = c.resolution_from;
    j["ticks_per_second"] = c.ticks_per_second;
    j["read_cost_ns"] = c.read_cost_ns;
    j["read_cost_batches"] = c.read_cost_batches;
    j["reads_per_batch"] = c.reads_per_batch;
    j["reads"] = c.reads;
    j["deltas"] = c.granularity.deltas;
    j["granularity_min_ns"] = nullable(c.granularity.min_ticks > 0, c.granularity_min_ns);
    j["granularity_median_ns"] = nullable(c.granularity.median_ticks > 0, c.granularity_median_ns);
    j["zero_delta_share"] = c.granularity.zero_delta_share;
    j["backward_steps"] = c.granularity.backward_steps;
    if (c.cross_thread_checked) {
        J cross{{"cpus", c.cross_thread_cpus},
                {"pinned", c.cross_thread_pinned},
                {"reads", c.cross_thread_reads},
                {"backward_steps", c.cross_thread_backward_steps},
                {"read", nullable(!c.cross_thread_read.empty(), c.cross_thread_read)}};
        if (c.cross_thread_unordered_backward_steps >= 0) {
            cross["unordered"] = J{{"reads", c.cross_thread_unordered_reads},
                                   {"backward_steps", c.cross_thread_unordered_backward_steps}};
        } else {
            cross["unordered"] = nullptr;
        }
        j["cross_thread"] = std::move(cross);
    } else {
        j["cross_thread"] = nullptr;
    }
    if (c.steps_watched) {
        const CoarseStepStats& s = c.steps;
        j["coarse_steps"] = J{{"watch_ns", c.steps_watch_ns},
                              {"reads", c.steps_watch_reads},
                              {"steps", s.steps},
                              {"one_tick", s.one_tick},
                              {"multi_tick", s.multi_tick},
                              {"not_whole_ticks", s.other},
                              {"multi_tick_watched", s.multi_tick_watched},
                              {"multi_tick_watched_max_gap_ns", s.multi_tick_watched_max_gap_ns},
                              {"max_ticks", s.max_ticks},
                              {"median_step_ns", s.median_step_ns},
                              {"median_reader_gap_ns", s.median_gap_ns}};
    } else {
        j["coarse_steps"] = nullptr;
    }
    j["whole_tick_share"] = nullable(c.whole_tick_share >= 0, c.whole_tick_share);
    j["drift_ppm"] = c.drift_ppm;
    j["drift_uncertainty_ppm"] = c.drift_uncertainty_ppm;
    j["drift_interval_ns"] = c.drift_interval_ns;
    j["histogram"] = c.histogram;
}

void from_json(const J& j, ClockResult& c) {
    const J* name = member(j, "name", Need::required, "a clock name");
    if (!name->is_string() || name->get<std::string>().empty())
        throw ProbeSchemaMismatch("name", "a clock name");
    c.name = name->get<std::string>();
    read(j, "description", c.description);
    read(j, "backing", c.backing);
    read(j, "claims_steady", c.claims_steady);
    read_nullable(j, "resolution_ns", c.resolution_ns, -1.0, Need::required);
    read(j, "resolution_from", c.resolution_from);
    read(j, "ticks_per_second", c.ticks_per_second);
    read(j, "read_cost_ns", c.read_cost_ns, Need::required);
    read(j, "read_cost_batches", c.read_cost_batches);
    read(j, "reads_per_batch", c.reads_per_batch);
    read(j, "reads", c.reads);
    GranularityStats& g = c.granularity;
    read(j, "deltas", g.deltas);
    read_nullable(j, "granularity_min_ns", c.granularity_min_ns, 0.0, Need::required);
    read_nullable(j, "granularity_median_ns", c.granularity_median_ns, 0.0, Need::required);
    read(j, "zero_delta_share", g.zero_delta_share, Need::required);
    read(j, "backward_steps", g.backward_steps, Need::required);
    g.zero_deltas = std::llround(g.zero_delta_share * static_cast<double>(g.deltas));
    g.min_ticks = j.at("granularity_min_ns").is_null()
                      ? 0
                      : ticks_of(c.granularity_min_ns, c.ticks_per_second);
    g.median_ticks = j.at("granularity_median_ns").is_null()
                         ? 0
                         : ticks_of(c.granularity_median_ns, c.ticks_per_second);
    if (const J* cross = member(j, "cross_thread", Need::optional, "an object or null")) {
        if (!cross->is_null()) {
            if (!cross->is_object())
                throw ProbeSchemaMismatch("cross_thread", "an object or null");
            c.cross_thread_checked = true;
            within("cross_thread", [&] {
                read_array(*cross, "cpus", c.cross_thread_cpus, "an array of CPU numbers");
                read(*cross, "pinned", c.cross_thread_pinned);
                read(*cross, "reads", c.cross_thread_reads);
                read(*cross, "backward_steps", c.cross_thread_backward_steps, Need::required);
                if (const J* r = member(*cross, "read", Need::optional, "a name or null");
                    r && !r->is_null()) {
                    read(*cross, "read", c.cross_thread_read);
                }
                read_object_or_null(*cross, "unordered", "an object or null", [&](const J& u) {
                    read(u, "reads", c.cross_thread_unordered_reads);
                    read(u, "backward_steps", c.cross_thread_unordered_backward_steps,
                         Need::required);
                });
            });
        }
    }
    read_nullable(j, "whole_tick_share", c.whole_tick_share, -1.0);
    read_object_or_null(j, "coarse_steps", "an object or null", [&](const J& o) {
        CoarseStepStats& s = c.steps;
        c.steps_watched = true;
        read(o, "watch_ns", c.steps_watch_ns);
        read(o, "reads", c.steps_watch_reads);
        read(o, "steps", s.steps);
        read(o, "one_tick", s.one_tick);
        read(o, "multi_tick", s.multi_tick);
        read(o, "not_whole_ticks", s.other);
        read(o, "multi_tick_watched", s.multi_tick_watched);
        read(o, "multi_tick_watched_max_gap_ns", s.multi_tick_watched_max_gap_ns);
        read(o, "max_ticks", s.max_ticks);
        read(o, "median_step_ns", s.median_step_ns);
        read(o, "median_reader_gap_ns", s.median_gap_ns);
    });
    read(j, "drift_ppm", c.drift_ppm, Need::required);
    read(j, "drift_uncertainty_ppm", c.drift_uncertainty_ppm);
    read(j, "drift_interval_ns", c.drift_interval_ns);
    read_array(j, "histogram", c.histogram, "an array of buckets", Need::required);
}

void to_json(J& j, const Histogram& h) {
    j = J{{"edges_ns", h.edges_ns}, {"counts", h.counts}};
}

void from_json(const J& j, Histogram& h) {
    read_array(j, "edges_ns", h.edges_ns, "an array of integers", Need::required);
    read_array(j, "counts", h.counts, "an array of integers", Need::required);
}

// Each row type writes and reads its own fields one by one, even where two rows share a run of
// them (one-shot and slack rows): the lists read as the docs' schema, in its order.
void to_json(J& j, const OneShotRow& row) {
    j = J{{"method", row.method},
          {"requested_ns", row.requested_ns},
          {"waited_ns", row.waited_ns},
          {"samples", row.overshoot.count},
          {"overshoot_ns", summary_json(row.overshoot)},
          {"histogram", row.histogram},
          {"verdict", row.verdict}};
}

void from_json(const J& j, OneShotRow& row) {
    read(j, "method", row.method, Need::required);
    read(j, "requested_ns", row.requested_ns, Need::required);
    read(j, "waited_ns", row.waited_ns);
    read(j, "samples", row.overshoot.count);
    read_summary(j, "overshoot_ns", row.overshoot, Need::required);
    read_histogram(j, "histogram", row.histogram);
    read(j, "verdict", row.verdict);
}

void to_json(J& j, const PeriodicRow& row) {
    j = J{{"scheduling", row.scheduling},
          {"realtime", row.realtime},
          {"mlockall", row.memory_locked},
          {"ran", row.latency.count > 0},
          {"interval_ns", row.interval_ns},
          {"loops", row.latency.count},
          {"note", row.note}};
    if (row.latency.count > 0) {
        J latency = summary_json(row.latency);
        latency["avg"] = row.latency.mean_ns;  // cyclictest's name for the mean
        j["latency_ns"] = std::move(latency);
        J repeats = J::array();
        for (const SampleSummary& r : row.repeats)
            repeats.push_back(r.p99_ns);
        j["repeats_p99_ns"] = std::move(repeats);
        j["histogram"] = row.histogram;
        j["overflows"] = row.histogram.overflows();
        j["missed_periods"] = row.missed_periods;
    }
    j["verdict"] = row.verdict;
}

// "ran" and "overflows" follow from "loops" and the histogram; the log-scale histogram is not in
// the document (see probe_json.hpp).
void from_json(const J& j, PeriodicRow& row) {
    read(j, "scheduling", row.scheduling, Need::required);
    read(j, "realtime", row.realtime, Need::required);
    read(j, "mlockall", row.memory_locked);
    read(j, "interval_ns", row.interval_ns);
    read(j, "loops", row.latency.count);
    read(j, "note", row.note);
    if (j.contains("latency_ns")) {
        read(j, "loops", row.latency.count, Need::required);
        const std::int64_t loops = row.latency.count;
        read_summary(j, "latency_ns", row.latency, Need::required);
        within("latency_ns", [&] {
            double avg = 0;
            read(j.at("latency_ns"), "avg", avg, Need::required);
        });
        row.latency.count = loops;
        // "halves_p99_ns": what documents called the two runs before the periodic measurement
        // was repeated (the two halves of one run); read as two repeats.
        const char* key = j.contains("repeats_p99_ns") ? "repeats_p99_ns" : "halves_p99_ns";
        if (const J* repeats = member(j, key, Need::optional, "an array of numbers")) {
            if (!repeats->is_array())
                throw ProbeSchemaMismatch(key, "an array of numbers");
            for (const J& v : *repeats) {
                if (!v.is_number_integer())
                    throw ProbeSchemaMismatch(key, "an array of numbers");
                SampleSummary r;
                r.p99_ns = v.get<std::int64_t>();
                row.repeats.push_back(r);
            }
        }
        std::int64_t overflows = 0;
        read(j, "overflows", overflows, Need::required);
        read_histogram(j, "histogram", row.histogram);
        read(j, "missed_periods", row.missed_periods);
    }
    read(j, "verdict", row.verdict);
}

void to_json(J& j, const SlackRow& row) {
    j = J{{"method", "nanosleep"},          {"requested_ns", row.requested_ns},
          {"slack_ns", row.slack_ns},       {"as_found", row.current},
          {"samples", row.overshoot.count}, {"overshoot_ns", summary_json(row.overshoot)},
          {"histogram", row.histogram},     {"verdict", row.verdict}};
}

void from_json(const J& j, SlackRow& row) {
    read(j, "requested_ns", row.requested_ns, Need::required);
    read(j, "slack_ns", row.slack_ns, Need::required);
    read(j, "as_found", row.current, Need::required);
    read(j, "samples", row.overshoot.count);
    read_summary(j, "overshoot_ns", row.overshoot, Need::required);
    read_histogram(j, "histogram", row.histogram);
    read(j, "verdict", row.verdict);
}

void to_json(J& j, const LimiterRow& row) {
    j = J{{"limiter", row.limiter},
          {"rate_hz", row.rate_hz},
          {"period_ns", row.period_ns},
          {"frames", row.error.count},
          {"error_ns", summary_json(row.error)},
          {"abs_error_p99_ns", row.abs_error_p99_ns},
          {"cpu_per_frame_ns", summary_json(row.cpu)},
          {"resyncs", row.resyncs},
          {"histogram", row.histogram},
          {"meets_bound", row.meets_bound},
          {"verdict", row.verdict}};
}

// The CPU time is taken once a frame, so its count is the frames' (summarize_limiter).
void from_json(const J& j, LimiterRow& row) {
    read(j, "limiter", row.limiter, Need::required);
    read(j, "rate_hz", row.rate_hz, Need::required);
    read(j, "period_ns", row.period_ns);
    read(j, "frames", row.error.count);
    read_summary(j, "error_ns", row.error, Need::required);
    read(j, "abs_error_p99_ns", row.abs_error_p99_ns, Need::required);
    read_summary(j, "cpu_per_frame_ns", row.cpu, Need::required);
    row.cpu.count = row.error.count;
    read(j, "resyncs", row.resyncs);
    read_histogram(j, "histogram", row.histogram);
    read(j, "meets_bound", row.meets_bound, Need::required);
    read(j, "verdict", row.verdict);
}

void to_json(J& j, const LimiterRecommendation& r) {
    J repeats = J::array();
    for (const auto& h : r.repeats)
        repeats.push_back(nullable(h.has_value(), h.value_or("")));
    j = J{{"rate_hz", r.rate_hz},
          {"limiter", nullable(r.limiter.has_value(), r.limiter.value_or(""))},
          {"text", r.text},
          {"repeats", nullable(!r.repeats.empty(), repeats)}};
}

void from_json(const J& j, LimiterRecommendation& r) {
    read(j, "rate_hz", r.rate_hz, Need::required);
    const J* limiter = member(j, "limiter", Need::required, "a string or null");
    if (limiter->is_string())
        r.limiter = limiter->get<std::string>();
    else if (!limiter->is_null())
        throw ProbeSchemaMismatch("limiter", "a string or null");
    read(j, "text", r.text);
    // "halves": the name before the limiters were repeated (the two halves of one run).
    const char* key = j.contains("repeats") ? "repeats" : "halves";
    if (const J* repeats = member(j, key, Need::optional, "an array or null");
        repeats && !repeats->is_null()) {
        if (!repeats->is_array())
            throw ProbeSchemaMismatch(key, "an array or null");
        for (const J& h : *repeats) {
            if (h.is_string())
                r.repeats.emplace_back(h.get<std::string>());
            else if (h.is_null())
                r.repeats.emplace_back(std::nullopt);
            else
                throw ProbeSchemaMismatch(key, "limiter names or null");
        }
    }
}

void to_json(J& j, const TimerReport& r) {
    j = J::object();
    j["quick"] = r.quick;
    j["elapsed_ns"] = r.elapsed_ns;
    j["bound_ns"] = r.bound_ns;
    j["one_shot"] = r.one_shot;
    j["periodic"] = r.periodic;
    j["timer_slack"] = r.slack;
    j["timer_slack_note"] = r.slack_note;
    j["limiters"] = r.limiters;
    j["recommendations"] = r.recommendations;
}

void from_json(const J& j, TimerReport& r) {
    read(j, "quick", r.quick);
    read(j, "elapsed_ns", r.elapsed_ns);
    read(j, "bound_ns", r.bound_ns);
    read_array(j, "one_shot", r.one_shot, "an array");
    read_array(j, "periodic", r.periodic, "an array");
    read_array(j, "timer_slack", r.slack, "an array");
    read(j, "timer_slack_note", r.slack_note);
    read_array(j, "limiters", r.limiters, "an array");
    read_array(j, "recommendations", r.recommendations, "an array");
}

ProbeDocument make_probe_document(const SystemContext& context) {
    ProbeDocument doc;
#ifdef LOOPSCOPE_VERSION
    doc.generator = "loopscope " LOOPSCOPE_VERSION;
#else
    doc.generator = "loopscope";
#endif
    doc.context = context;
    return doc;
}

void to_json(J& j, const ProbeDocument& d) {
    j = J::object();
    j["schema"] = kProbeSchema;
    j["generator"] = d.generator;
    if (d.context)
        j["context"] = *d.context;
    if (d.clocks) {
        j["clocks_run"] = J{{"duration_ns", d.clocks->duration_ns},
                            {"elapsed_ns", d.clocks->elapsed_ns},
                            {"min_reads", d.clocks->min_reads},
                            {"reference_clock", d.clocks->reference_clock}};
        j["clocks"] = d.clocks->clocks;
    }
    if (d.timers)
        j["timers"] = *d.timers;
    if (d.load) {
        const MachineLoad& m = *d.load;
        const auto snapshot = [](const LoadSnapshot& s) {
            return J{{"load_1m", nullable(s.load_1m >= 0, s.load_1m)},
                     {"load_5m", nullable(s.load_5m >= 0, s.load_5m)},
                     {"load_15m", nullable(s.load_15m >= 0, s.load_15m)}};
        };
        J load = J::object();
        load["before"] = snapshot(m.before);
        load["after"] = snapshot(m.after);
        load["cpu_measured"] = m.measured;
        load["other_cpu_share"] = nullable(m.measured, m.other_share);
        load["self_cpu_share"] = nullable(m.measured, m.self_share);
        load["steal_share"] = nullable(m.measured, m.steal_share);
        load["from"] = m.after.from;
        load["warnings"] = machine_load_warnings(m, d.context ? d.context->logical_cpus : 0);
        j["load"] = std::move(load);
    }
}

void from_json(const J& j, ProbeDocument& d) {
    if (!j.is_object())
        throw ProbeSchemaMismatch("top level", "a JSON object");
    const auto schema = j.find("schema");
    if (schema == j.end() || !schema->is_string() || *schema != kProbeSchema) {
        throw ProbeSchemaMismatch("\"schema\"",
                                  fmt::format("\"{}\" (a loopscope probe result)", kProbeSchema));
    }
    d = {};
    read(j, "generator", d.generator);
    if (const J* context = member(j, "context", Need::optional, "an object")) {
        if (!context->is_object())
            throw ProbeSchemaMismatch("context", "an object");
        within("context", [&] { d.context = context->get<SystemContext>(); });
    }
    if (j.contains("clocks")) {
        ClockProbeResult clocks;
        read_object(j, "clocks_run", Need::optional, "an object", [&](const J& run) {
            read(run, "duration_ns", clocks.duration_ns);
            read(run, "elapsed_ns", clocks.elapsed_ns);
            read(run, "min_reads", clocks.min_reads);
            read(run, "reference_clock", clocks.reference_clock);
        });
        if (!j.at("clocks").is_array())
            throw ProbeSchemaMismatch("clocks", "an array of clock objects");
        const J& array = j.at("clocks");
        for (std::size_t i = 0; i < array.size(); ++i) {
            if (!array[i].is_object())
                throw ProbeSchemaMismatch(fmt::format("clocks[{}]", i), "a clock object");
            within(fmt::format("clocks[{}]", i),
                   [&] { clocks.clocks.push_back(array[i].get<ClockResult>()); });
        }
        d.clocks = std::move(clocks);
    }
    if (const J* timers = member(j, "timers", Need::optional, "an object")) {
        if (!timers->is_object())
            throw ProbeSchemaMismatch("timers", "an object");
        within("timers", [&] { d.timers = timers->get<TimerReport>(); });
    }
    // The sections were measured on the context's platform; their text uses its words.
    if (d.context) {
        if (d.clocks)
            d.clocks->platform = d.context->platform;
        if (d.timers)
            d.timers->platform = d.context->platform;
    }
    // "warnings" is not read: it follows from the rest (machine_load_warnings).
    read_object(j, "load", Need::optional, "an object", [&](const J& o) {
        MachineLoad m;
        const auto snapshot = [&](const char* key, LoadSnapshot& s) {
            read_object(o, key, Need::optional, "an object", [&](const J& v) {
                read_nullable(v, "load_1m", s.load_1m, -1.0);
                read_nullable(v, "load_5m", s.load_5m, -1.0);
                read_nullable(v, "load_15m", s.load_15m, -1.0);
            });
        };
        snapshot("before", m.before);
        snapshot("after", m.after);
        read(o, "cpu_measured", m.measured);
        read_nullable(o, "other_cpu_share", m.other_share, 0.0);
        read_nullable(o, "self_cpu_share", m.self_share, 0.0);
        read_nullable(o, "steal_share", m.steal_share, 0.0);
        read(o, "from", m.after.from);
        d.load = std::move(m);
    });
}

void throw_schema_error(const std::string& path, const std::string& where,
                        const std::string& expected) {
    throw InputError(path, fmt::format("{}: expected {}", where, expected));
}

namespace {

// The whole file, read in chunks so that a device (/dev/zero) or a huge file is refused after at
// most kMaxProbeDocumentBytes + one chunk, never read without limit. JSON text holds no control
// byte but tab, CR and LF (strings escape them), so any other one means binary data; it is
// reported where it was found, as the capture readers do.
std::string read_probe_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, fmt::format("cannot open: {}", std::strerror(errno)));
    std::string text;
    char chunk[65536];
    std::int64_t line = 1, column = 1;
    while (in) {
        in.read(chunk, sizeof chunk);
        const auto n = static_cast<std::size_t>(in.gcount());
        if (n == 0)
            break;
        for (std::size_t i = 0; i < n; ++i) {
            const auto u = static_cast<unsigned char>(chunk[i]);
            if (u == '\n') {
                ++line;
                column = 1;
                continue;
            }
            if ((u < 0x20 && u != '\t' && u != '\r') || u == 0x7f) {
                throw InputError(path, line, column,
                                 fmt::format("binary data (byte 0x{:02x}): expected a probe "
                                             "document (JSON text)",
                                             u));
            }
            ++column;
        }
        if (text.size() + n > kMaxProbeDocumentBytes) {
            throw InputError(path,
                             fmt::format("larger than {} MiB: expected a probe document (a few "
                                         "hundred KB)",
                                         kMaxProbeDocumentBytes >> 20));
        }
        text.append(chunk, n);
    }
    if (in.bad())  // a folder, for one
        throw InputError(path, fmt::format("cannot read: {}", std::strerror(errno)));
    return text;
}

// The parsed document with its top level checked (see read_probe_document); Json is the plain
// or the ordered nlohmann type.
template <class Json>
Json parse_probe_document(const std::string& path) {
    const std::string text = read_probe_text(path);
    Json doc;
    try {
        doc = Json::parse(text);
    } catch (const typename Json::parse_error& e) {
        // nlohmann's message is "[json.exception.parse_error.101] parse error at line L,
        // column C: DETAIL"; keep DETAIL, the place is given as file:line:column.
        std::string detail = e.what();
        const auto colon = detail.find(": ", detail.find("parse error"));
        if (colon != std::string::npos)
            detail = detail.substr(colon + 2);
        std::istringstream again(text);
        const TextPosition at = json_error_position(again, e.byte);
        throw InputError(path, at.line, at.column, "not JSON: " + detail);
    }
    if (!doc.is_object())
        throw_schema_error(path, "top level", "a JSON object");
    const auto schema = doc.find("schema");
    if (schema == doc.end() || !schema->is_string() || *schema != kProbeSchema) {
        throw_schema_error(path, "\"schema\"",
                           fmt::format("\"{}\" (a loopscope probe result)", kProbeSchema));
    }
    const auto context = doc.find("context");
    if (context != doc.end() && !context->is_object()) {
        throw_schema_error(path, "\"context\"", "an object");
    }
    return doc;
}

}  // namespace

json read_probe_document(const std::string& path) {
    return parse_probe_document<json>(path);
}

ProbeDocument read_probe_results(const std::string& path) {
    const ProbeJson doc = parse_probe_document<ProbeJson>(path);
    try {
        return doc.get<ProbeDocument>();
    } catch (const ProbeSchemaMismatch& e) {
        throw_schema_error(path, e.where, e.expected);
    }
}

}  // namespace loopscope
