// The probe result document (schema "loopscope-probe/1", documented in docs/probe-clocks.md):
//
//   { "schema": "loopscope-probe/1",
//     "generator": "loopscope 0.1.0",
//     "context": { ...the machine... },
//     "clocks_run": { "duration_ns", "elapsed_ns", "min_reads", "reference_clock" },
//     "clocks": [ { "name", "resolution_ns", "read_cost_ns", ... }, ... ] }
//
// Each probe owns one section beside "context" ("clocks"; others add their own), so a document
// may hold any subset of them. Writing and reading the document live here; what a section means
// to `probe compare` lives in probe_compare.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

#include "probes/clock_probe.hpp"
#include "probes/system_info.hpp"

namespace loopscope {

inline constexpr const char* kProbeSchema = "loopscope-probe/1";

nlohmann::json context_to_json(const SystemContext& context);
nlohmann::json clock_result_to_json(const ClockResult& clock);
nlohmann::json clocks_to_json(const ClockProbeResult& result);
nlohmann::json clocks_run_to_json(const ClockProbeResult& result);

// {"schema", "generator", "context"}: the start of every probe document; sections are added by
// the caller (doc["clocks"] = clocks_to_json(...)).
nlohmann::json make_probe_document(const SystemContext& context);

// The largest probe document read: a full run's document is about 100 KB (the histograms are
// most of it), so 4 MiB leaves room for any real one and refuses a wrong file or a device early.
inline constexpr std::size_t kMaxProbeDocumentBytes = std::size_t{4} << 20;

// Reads and parses a probe document (refusing binary data and anything over
// kMaxProbeDocumentBytes) and checks the top level: an object whose "schema" is
// kProbeSchema and whose "context", when present, is an object. Throws InputError with the file
// and, for a JSON syntax error, line and column. Sections are checked by their owners.
nlohmann::json read_probe_document(const std::string& path);

// For section validators: throws InputError "FILE: WHERE: expected WHAT".
[[noreturn]] void throw_schema_error(const std::string& path, const std::string& where,
                                     const std::string& expected);

}  // namespace loopscope
