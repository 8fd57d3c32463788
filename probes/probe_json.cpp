// Writing and reading the probe result document.
#include "probes/probe_json.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/errors.hpp"
#include "common/text_position.hpp"

namespace loopscope {

using nlohmann::json;

json context_to_json(const SystemContext& c) {
    json j;
    j["os"] = c.os;
    j["kernel"] = c.kernel;
    j["cpu_model"] = c.cpu_model;
    j["logical_cpus"] = c.logical_cpus;
    j["usable_cpus"] = c.usable_cpus;
    j["clocksource"] = c.clocksource;
    j["clocksources_available"] = c.clocksources_available;
    j["timer_slack_ns"] = c.timer_slack_ns < 0 ? json(nullptr) : json(c.timer_slack_ns);
    j["kernel_tick_ns"] = c.kernel_tick_ns <= 0 ? json(nullptr) : json(c.kernel_tick_ns);
    j["kernel_tick_from"] = c.kernel_tick_from;
    j["config_hz"] = c.config_hz <= 0 ? json(nullptr) : json(c.config_hz);
    j["config_hz_from"] = c.config_hz_from;
    j["hypervisor"] = c.hypervisor ? json(c.hypervisor_name) : json(nullptr);
    j["tsc"] = c.has_tsc;
    j["invariant_tsc"] = c.invariant_tsc;
    j["build_type"] = c.build_type;
    j["compiler"] = c.compiler;
    j["sanitizers"] = c.sanitizers;
    j["warnings"] = context_warnings(c);
    return j;
}

json clock_result_to_json(const ClockResult& c) {
    json j;
    j["name"] = c.name;
    j["description"] = c.description;
    j["backing"] = c.backing;
    j["claims_steady"] = c.claims_steady;
    j["resolution_ns"] = c.resolution_ns < 0 ? json(nullptr) : json(c.resolution_ns);
    j["resolution_from"] = c.resolution_from;
    j["ticks_per_second"] = c.ticks_per_second;
    j["read_cost_ns"] = c.read_cost_ns;
    j["read_cost_batches"] = c.batch_costs_ns.size();
    j["reads_per_batch"] = c.reads_per_batch;
    j["reads"] = c.reads;
    j["deltas"] = c.granularity.deltas;
    j["granularity_min_ns"] =
        c.granularity.min_ticks > 0 ? json(c.granularity_min_ns) : json(nullptr);
    j["granularity_median_ns"] =
        c.granularity.median_ticks > 0 ? json(c.granularity_median_ns) : json(nullptr);
    j["zero_delta_share"] = c.granularity.zero_delta_share;
    j["backward_steps"] = c.granularity.backward_steps;
    if (c.cross_thread_checked) {
        j["cross_thread"] = {
            {"cpus", c.cross_thread_cpus},
            {"pinned", c.cross_thread_pinned},
            {"reads", c.cross_thread_reads},
            {"backward_steps", c.cross_thread_backward_steps},
            {"read", c.cross_thread_read.empty() ? json(nullptr) : json(c.cross_thread_read)}};
        if (c.cross_thread_unordered_backward_steps >= 0) {
            j["cross_thread"]["unordered"] = {
                {"reads", c.cross_thread_unordered_reads},
                {"backward_steps", c.cross_thread_unordered_backward_steps}};
        } else {
            j["cross_thread"]["unordered"] = nullptr;
        }
    } else {
        j["cross_thread"] = nullptr;
    }
    j["whole_tick_share"] = c.whole_tick_share < 0 ? json(nullptr) : json(c.whole_tick_share);
    if (c.steps_watched) {
        const CoarseStepStats& s = c.steps;
        j["coarse_steps"] = {{"watch_ns", c.steps_watch_ns},
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
    j["drift_ppm"] = c.drift_ppm;
    j["drift_uncertainty_ppm"] = c.drift_uncertainty_ppm;
    j["drift_interval_ns"] = c.drift_interval_ns;
    json h = json::array();
    for (const auto& b : c.histogram) {
        h.push_back({{"min_ns", b.min_ns}, {"max_ns", b.max_ns}, {"count", b.count}});
    }
    j["histogram"] = h;
    return j;
}

json clocks_to_json(const ClockProbeResult& result) {
    json a = json::array();
    for (const auto& c : result.clocks)
        a.push_back(clock_result_to_json(c));
    return a;
}

json clocks_run_to_json(const ClockProbeResult& result) {
    return {{"duration_ns", result.duration_ns},
            {"elapsed_ns", result.elapsed_ns},
            {"min_reads", result.min_reads},
            {"reference_clock", result.reference_clock}};
}

json make_probe_document(const SystemContext& context) {
    json doc;
    doc["schema"] = kProbeSchema;
#ifdef LOOPSCOPE_VERSION
    doc["generator"] = "loopscope " LOOPSCOPE_VERSION;
#else
    doc["generator"] = "loopscope";
#endif
    doc["context"] = context_to_json(context);
    return doc;
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

}  // namespace

json read_probe_document(const std::string& path) {
    const std::string text = read_probe_text(path);
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
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

}  // namespace loopscope
