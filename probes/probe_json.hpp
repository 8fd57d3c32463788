// The probe result document (schema "loopscope-probe/1", documented in docs/probe-clocks.md
// "The JSON document" and docs/probe-timers.md "JSON"):
//
//   { "schema": "loopscope-probe/1",
//     "generator": "loopscope 0.1.0",
//     "context": { ...the machine... },
//     "clocks_run": { "duration_ns", "elapsed_ns", "min_reads", "reference_clock" },
//     "clocks": [ { "name", "resolution_ns", "read_cost_ns", ... }, ... ],
//     "timers": { "quick", "elapsed_ns", "bound_ns", "one_shot", ... } }
//
// The probe result structs (SystemContext, ClockResult, TimerReport and its rows) convert to and
// from it with nlohmann's to_json/from_json, found by argument-dependent lookup: `ProbeJson j =
// result;` and `j.get<TimerReport>()`. The document is a nlohmann::ordered_json, so its keys come
// out in the order the docs list them (a test checks that order against the docs' tables).
//
// Reading is strict about types and names the field that is wrong ("clocks[1].read_cost_ns:
// expected a number"); a field the document leaves out is left at its default (unknown) unless
// `probe compare` needs it, as the comparison reads documents written by hand and by older
// versions. What the document does not carry is said at the struct: a periodic row's log-scale
// histogram (the terminal's bars) is not in it, so a row read back has an empty one.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

#include "probes/clock_probe.hpp"
#include "probes/machine_load.hpp"
#include "probes/system_info.hpp"
#include "probes/timer_probe.hpp"

namespace loopscope {

inline constexpr const char* kProbeSchema = "loopscope-probe/1";

// Keys in insertion order: the order the docs give.
using ProbeJson = nlohmann::ordered_json;

// What one probe document holds: the machine and the sections that were measured.
struct ProbeDocument {
    std::string generator;  // "loopscope 0.1.0"
    std::optional<SystemContext> context;
    std::optional<ClockProbeResult> clocks;  // "clocks_run" and "clocks"
    std::optional<TimerReport> timers;
    // How busy the machine was during the run. Its raw counters are not in the document: read
    // back, only the load averages, the shares and where they were read from are set.
    std::optional<MachineLoad> load;
    friend bool operator==(const ProbeDocument&, const ProbeDocument&) = default;
};

// A document of the results of this run (generator: this loopscope).
ProbeDocument make_probe_document(const SystemContext& context);

// A field of the wrong type, or a required one missing: `where` is the field's path in the
// document ("clocks[1].read_cost_ns"), `expected` what it should hold ("a number").
struct ProbeSchemaMismatch : std::runtime_error {
    ProbeSchemaMismatch(std::string where_, std::string expected_);
    std::string where;
    std::string expected;
};

void to_json(ProbeJson& j, const SystemContext& context);
void from_json(const ProbeJson& j, SystemContext& context);
void to_json(ProbeJson& j, const HistogramBucket& bucket);
void from_json(const ProbeJson& j, HistogramBucket& bucket);
void to_json(ProbeJson& j, const ClockResult& clock);
void from_json(const ProbeJson& j, ClockResult& clock);
void to_json(ProbeJson& j, const Histogram& histogram);
void from_json(const ProbeJson& j, Histogram& histogram);
void to_json(ProbeJson& j, const OneShotRow& row);
void from_json(const ProbeJson& j, OneShotRow& row);
void to_json(ProbeJson& j, const PeriodicRow& row);
void from_json(const ProbeJson& j, PeriodicRow& row);
void to_json(ProbeJson& j, const SlackRow& row);
void from_json(const ProbeJson& j, SlackRow& row);
void to_json(ProbeJson& j, const LimiterRow& row);
void from_json(const ProbeJson& j, LimiterRow& row);
void to_json(ProbeJson& j, const LimiterRecommendation& recommendation);
void from_json(const ProbeJson& j, LimiterRecommendation& recommendation);
void to_json(ProbeJson& j, const TimerReport& report);
void from_json(const ProbeJson& j, TimerReport& report);
// The whole document, "schema" first. from_json throws ProbeSchemaMismatch for a wrong schema.
void to_json(ProbeJson& j, const ProbeDocument& document);
void from_json(const ProbeJson& j, ProbeDocument& document);

// The largest probe document read: a full run's document is about 100 KB (the histograms are
// most of it), so 4 MiB leaves room for any real one and refuses a wrong file or a device early.
inline constexpr std::size_t kMaxProbeDocumentBytes = std::size_t{4} << 20;

// Reads and parses a probe document (refusing binary data and anything over
// kMaxProbeDocumentBytes) and checks the top level: an object whose "schema" is
// kProbeSchema and whose "context", when present, is an object. Throws InputError with the file
// and, for a JSON syntax error, line and column. Sections are checked by their owners.
nlohmann::json read_probe_document(const std::string& path);

// Reads a probe document into its structs: read_probe_document, then from_json. Throws
// InputError "FILE: WHERE: expected WHAT" for a field that does not fit.
ProbeDocument read_probe_results(const std::string& path);

// For section validators: throws InputError "FILE: WHERE: expected WHAT".
[[noreturn]] void throw_schema_error(const std::string& path, const std::string& where,
                                     const std::string& expected);

}  // namespace loopscope
