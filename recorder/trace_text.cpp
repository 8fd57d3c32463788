// The trace format's text and wire encoding (see trace_text.hpp), each written once over the
// column list.
#include "recorder/trace_text.hpp"

#include <charconv>
#include <cstring>
#include <ctime>

namespace loopscope::trace_v1 {

char* put_int(char* out, std::int64_t v) {
    char digits[20];
    char* const end = digits + sizeof digits;
    char* p = end;
    std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    do {
        *--p = static_cast<char>('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        *out++ = '-';
    std::memcpy(out, p, static_cast<std::size_t>(end - p));
    return out + (end - p);
}

char* put_alpha(char* out, double alpha) {
    if (!(alpha == alpha))
        alpha = 0;  // NaN
    if (alpha < 0) {
        *out++ = '-';
        alpha = -alpha;
    }
    if (alpha > 9e12)
        alpha = 9e12;
    const auto whole = static_cast<std::int64_t>(alpha);
    auto micro = static_cast<std::int64_t>((alpha - static_cast<double>(whole)) * 1e6);
    if (micro > 999999)
        micro = 999999;
    out = put_int(out, whole);
    *out++ = '.';
    for (std::int64_t scale = 100000; scale > 0; scale /= 10)
        *out++ = static_cast<char>('0' + micro / scale % 10);
    return out;
}

namespace {
char* put_value(char* out, std::int64_t v) {
    return put_int(out, v);
}
char* put_value(char* out, double v) {
    return put_alpha(out, v);
}
}  // namespace

char* format_row(char* out, const FrameRecord& r) {
#define LOOPSCOPE_PUT_(name, type, kind, what) \
    out = put_value(out, r.name);              \
    *out++ = ',';
    LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_PUT_)
#undef LOOPSCOPE_PUT_
    out[-1] = '\n';
    return out;
}

std::string preamble_text(const Preamble& p) {
    std::string text = std::string(p.version == 2 ? kMagicV2 : kMagic) + "\n";
    const auto line = [&text](const char* key, const std::string& value) {
        text += std::string("# ") + key + ": " + value + "\n";
    };
    line("clock", p.clock);
    if (!p.policy.empty())
        line("policy", p.policy);
    if (p.dt_ns > 0)
        line("dt_ns", std::to_string(p.dt_ns));
    line("clamp_ns", std::to_string(p.clamp_ns));
    line("max_steps", std::to_string(p.max_steps));
    char scale[32];
    const auto scaled = std::to_chars(scale, scale + sizeof scale, p.timescale);
    line("timescale", std::string(scale, scaled.ptr));
    if (!p.machine.empty())
        line("machine", p.machine);
    if (!p.start_time.empty())
        line("start_time", p.start_time);
    // The extra lines, each as "# key: value".
    std::size_t from = 0;
    while (from < p.metadata.size()) {
        std::size_t end = p.metadata.find('\n', from);
        if (end == std::string::npos)
            end = p.metadata.size();
        if (end > from)
            text += "# " + p.metadata.substr(from, end - from) + "\n";
        from = end + 1;
    }
    text += kColumns;
    text += '\n';
    return text;
}

std::string utc_now_iso8601() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
#if defined(_WIN32)
    gmtime_s(&tm, &t);
#else
    gmtime_r(&t, &tm);
#endif
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

void set_label(EventRecord& e, const char* label) {
    std::size_t n = 0;
    if (label) {
        for (; n < std::size_t(kMaxLabelBytes) && label[n] != '\0'; ++n) {
            const auto c = static_cast<unsigned char>(label[n]);
            e.label[n] = c < 0x20 || c == 0x7F ? ' ' : label[n];
        }
        // Cut before a UTF-8 character that would not fit whole.
        if (n == std::size_t(kMaxLabelBytes) && label[n] != '\0') {
            while (n > 0 && (static_cast<unsigned char>(label[n]) & 0xC0) == 0x80)
                --n;
        }
    }
    e.label_bytes = static_cast<std::uint32_t>(n);
}

char* format_event(char* out, const EventRecord& e) {
    const bool zone = e.kind == EventKind::zone;
    for (const char* k = zone ? "zone," : "mark,"; *k; ++k)
        *out++ = *k;
    out = put_int(out, e.frame);
    *out++ = ',';
    out = put_int(out, e.begin_ns);
    *out++ = ',';
    if (zone) {
        out = put_int(out, e.end_ns);
        *out++ = ',';
        out = put_int(out, e.thread);
        *out++ = ',';
        out = put_int(out, e.depth);
        *out++ = ',';
    }
    const std::uint32_t n =
        e.label_bytes < std::uint32_t(kMaxLabelBytes) ? e.label_bytes : kMaxLabelBytes;
    for (std::uint32_t i = 0; i < n; ++i)
        *out++ = e.label[i];
    *out++ = '\n';
    return out;
}

}  // namespace loopscope::trace_v1

namespace loopscope::live_wire {

char* put_u32(char* out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        *out++ = static_cast<char>((v >> (8 * i)) & 0xFF);
    return out;
}
char* put_u64(char* out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        *out++ = static_cast<char>((v >> (8 * i)) & 0xFF);
    return out;
}
std::uint32_t get_u32(const char* p) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(p[i]);
    return v;
}
std::uint64_t get_u64(const char* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(p[i]);
    return v;
}

namespace {
// A column's 8 bytes: an integer's two's complement, a double's IEEE-754 bits.
template <class T>
std::uint64_t bits_of(T v) {
    static_assert(sizeof(T) == 8);
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
}
template <class T>
void from_bits(std::uint64_t bits, T& v) {
    static_assert(sizeof(T) == 8);
    std::memcpy(&v, &bits, sizeof v);
}
}  // namespace

char* put_row(char* out, const FrameRecord& r) {
#define LOOPSCOPE_WIRE_PUT_(name, type, kind, what) out = put_u64(out, bits_of(r.name));
    LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_WIRE_PUT_)
#undef LOOPSCOPE_WIRE_PUT_
    return out;
}

FrameRecord get_row(const char* p) {
    FrameRecord r;
#define LOOPSCOPE_WIRE_GET_(name, type, kind, what) \
    from_bits(get_u64(p), r.name);                  \
    p += 8;
    LOOPSCOPE_TRACE_COLUMNS(LOOPSCOPE_WIRE_GET_)
#undef LOOPSCOPE_WIRE_GET_
    return r;
}

char* put_event(char* out, const trace_v1::EventRecord& e) {
    out = put_u32(out, static_cast<std::uint32_t>(e.kind));
    out = put_u32(out, e.thread);
    out = put_u32(out, e.depth);
    out = put_u32(out, e.label_bytes);
    out = put_u64(out, static_cast<std::uint64_t>(e.frame));
    out = put_u64(out, static_cast<std::uint64_t>(e.begin_ns));
    out = put_u64(out, static_cast<std::uint64_t>(e.end_ns));
    for (int i = 0; i < trace_v1::kMaxLabelBytes; ++i)
        *out++ = i < static_cast<int>(e.label_bytes) ? e.label[i] : '\0';
    return out;
}

trace_v1::EventRecord get_event(const char* p) {
    trace_v1::EventRecord e;
    e.kind = static_cast<trace_v1::EventKind>(get_u32(p));
    e.thread = get_u32(p + 4);
    e.depth = get_u32(p + 8);
    const std::uint32_t n = get_u32(p + 12);
    e.label_bytes = n < std::uint32_t(trace_v1::kMaxLabelBytes) ? n : trace_v1::kMaxLabelBytes;
    e.frame = static_cast<std::int64_t>(get_u64(p + 16));
    e.begin_ns = static_cast<std::int64_t>(get_u64(p + 24));
    e.end_ns = static_cast<std::int64_t>(get_u64(p + 32));
    // A label becomes the rest of a trace line: control characters (a line break) as spaces.
    for (std::uint32_t i = 0; i < e.label_bytes; ++i) {
        const auto c = static_cast<unsigned char>(p[40 + i]);
        e.label[i] = c < 0x20 || c == 0x7F ? ' ' : p[40 + i];
    }
    return e;
}

}  // namespace loopscope::live_wire
