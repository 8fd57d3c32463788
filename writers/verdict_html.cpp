// The verdict (core/verdict.hpp) as the writers show it: the longest hitches placed and named
// as the hitch tables do, and the HTML report's first section.
#include <fmt/format.h>

#include "core/units.hpp"
#include "writers/frame_spans.hpp"
#include "writers/writer.hpp"

namespace loopscope {

std::vector<VerdictHitchRow> verdict_hitch_rows(const CaptureReport& r, const CaptureVerdict& v) {
    std::vector<std::size_t> at;
    for (const VerdictHitch& h : v.longest_hitches)
        at.push_back(h.index);
    const std::vector<FrameSpan> spans = frame_spans_at(r, at);
    std::vector<VerdictHitchRow> rows;
    for (std::size_t k = 0; k < v.longest_hitches.size(); ++k) {
        const VerdictHitch& h = v.longest_hitches[k];
        VerdictHitchRow row{.frame = spans[k].frame,
                            .time_s = seconds_down_to_ms(spans[k].begin_ns),
                            .length_ms = ns_to_ms(h.length_ns),
                            .cause = printable(h.cause),
                            .text = {}};
        row.text = fmt::format("{:.3f} s, frame {}, {:.1f} ms: {}", row.time_s, row.frame,
                               row.length_ms, row.cause);
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string verdict_html(const CaptureReport& r, const CaptureVerdict& v, std::string_view id) {
    std::string h =
        fmt::format("<section id=\"{}\" class=\"verdict\">\n<h3>Verdict</h3>\n", html_escape(id));
    h += "<table><tr><th></th><th>answer</th><th>evidence</th></tr>\n";
    const std::vector<VerdictHitchRow> hitches = verdict_hitch_rows(r, v);
    for (const VerdictLine& line : v.lines) {
        std::string answer = html_escape(line.text);
        if (line.key == "smoothness" && line.available)
            answer = "<strong>" + answer + "</strong>";
        if (!line.available)
            answer = "<em>" + answer + "</em>";
        if (line.key == "hitches" && !hitches.empty()) {
            answer += fmt::format("<br>longest {}:<ul>", hitches.size());
            for (const VerdictHitchRow& row : hitches)
                answer += "<li>" + html_escape(row.text) + "</li>";
            answer += "</ul>";
        }
        h += fmt::format("<tr><th>{}</th><td>{}</td><td><small>{}</small></td></tr>\n",
                         html_escape(line.label), answer, html_escape(line.evidence));
    }
    h += "</table>\n</section>\n";
    return h;
}

}  // namespace loopscope
