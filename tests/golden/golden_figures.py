#!/usr/bin/env python3
"""Expected frame-pacing figures for the shared captures, computed independently of loopscope.

It reads each capture with Python's csv module, splits it into streams by (Application,
ProcessID, SwapChainAddress), keeps the stream with the most frames (file order breaks ties),
converts milliseconds to integer nanoseconds (rounded half away from zero) and computes every
figure from the definitions in docs/reports.md, using only the standard library. The output,
expected_figures.json beside this script, is what tests/report_golden_test.cpp compares the
program's JSON report with.

    python3 tests/golden/golden_figures.py /path/to/captures > tests/golden/expected_figures.json
    python3 tests/golden/golden_figures.py tests/data presentmon1.csv presentmon1_xess_fg.csv \
        capframex_legacy.csv > tests/golden/expected_figures_test_data.json
"""
import csv
import json
import math
import os
import sys

FRAME_COLUMNS = ["msBetweenPresents", "MsBetweenPresents", "FrameTime"]
DISPLAY_COLUMNS = ["msBetweenDisplayChange", "MsBetweenDisplayChange", "DisplayedTime"]
REFRESH_CANDIDATES = [50, 60, 72, 75, 90, 100, 120, 144, 165, 240, 360]
REFRESH_TOLERANCE_NS = 500_000


def missing(cell):
    return cell is None or cell == "" or cell == "NA"


def ms_to_ns(text):
    return int(math.floor(float(text) * 1e6 + 0.5))


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    h = p * (len(sorted_values) - 1)
    lo = int(math.floor(h))
    if lo + 1 >= len(sorted_values):
        return float(sorted_values[-1])
    return sorted_values[lo] + (h - lo) * (sorted_values[lo + 1] - sorted_values[lo])


def summary(frames):
    s = sorted(frames)
    n = len(s)
    total = sum(s)
    mean = total / n
    var = sum((v - mean) ** 2 for v in frames) / (n - 1) if n > 1 else 0.0
    stdev = math.sqrt(var)
    p99 = percentile(s, 0.99)
    p999 = percentile(s, 0.999)
    ms = lambda ns: ns / 1e6
    ft = {
        "min": ms(s[0]), "mean": ms(mean), "stdev": ms(stdev), "cv": stdev / mean,
        "p50": ms(percentile(s, 0.5)), "p90": ms(percentile(s, 0.9)),
        "p95": ms(percentile(s, 0.95)), "p99": ms(p99), "p999": ms(p999), "max": ms(s[-1]),
    }
    fps = {
        "average": n / (total / 1e9),
        "p1_low": 1000.0 / ms(p99),
        "p01_low": 1000.0 / ms(p999),
    }
    return total, ft, fps


# CapFrameX's rules, re-implemented from CXWorld/CapFrameX master 3ba66ff (February 2026),
# source/CapFrameX.Statistics.NetStandard: FrametimeStatisticProvider and
# SampleBasedMovingAverage, over frame times in ms as CapFrameX holds them (doubles).
def mathnet_quantile(values, tau):
    """MathNet.Numerics Statistics.Quantile (ArrayStatistics.QuantileInplace, R-8)."""
    data = sorted(values)
    n = len(data)
    h = (n + 1.0 / 3.0) * tau + 1.0 / 3.0
    hf = int(h)
    if hf <= 0 or tau == 0.0:
        return data[0]
    if hf >= n or tau == 1.0:
        return data[-1]
    a, b = data[hf - 1], data[hf]
    return a + (h - hf) * (b - a)


def capframex_low_average_ms(frames_ms, p_quantile):
    """GetPercentageHighAverageSequence: mean of the frame times >= their quantile."""
    q = mathnet_quantile(frames_ms, p_quantile)
    low = [v for v in frames_ms if v >= q]
    return sum(low) / len(low)


def afterburner_integral_ms(frames_ms, p_quantile):
    """GetPercentageHighIntegralSequence: longest first, until 1 - p of the total time."""
    ordered = sorted(frames_ms, reverse=True)
    target = sum(ordered) * (1 - p_quantile)
    acc = 0.0
    for v in ordered:
        acc += v
        if acc >= target:
            return v
    return ordered[-1]


def capframex_stutter(frames_ms):
    """Count share (GetStutteringCountPercentage) and time share (GetStutteringTimePercentage
    over SampleBasedMovingAverage with W = Convert.ToInt32(sqrt(mean) * 10))."""
    n = len(frames_ms)
    mean = sum(frames_ms) / n
    count_frames = sum(1 for v in frames_ms if v > 2.5 * mean)
    window = round(math.sqrt(mean) * 10)  # Python rounds half to even, as Convert.ToInt32
    moving = []
    for i in range(n):
        local_sum, local_count, j = 0.0, 0, i
        while j >= 0:
            if j > 0 and frames_ms[j] > frames_ms[j - 1] * 3:
                local_sum += frames_ms[j - 1]
            else:
                local_sum += frames_ms[j]
            local_count += 1
            if local_count >= window:
                break
            j -= 1
        moving.append(local_sum / local_count)
    flagged = [i for i in range(n) if frames_ms[i] > 2.5 * moving[i]]
    time_share = sum(frames_ms[i] for i in flagged) / sum(frames_ms)
    return max(1, window), len(flagged), count_frames, time_share


def unreal_hitches(frames, numbers):
    hitches = []
    for i in range(1, len(frames)):
        if frames[i] > 60_000_000 and 2 * frames[i] >= 3 * frames[i - 1]:
            hitches.append({"frame": numbers[i], "frame_time_ms": frames[i] / 1e6})
    minutes = sum(frames) / 1e9 / 60.0
    return hitches, len(hitches) / minutes


def variation(frames):
    edges = [2_000_000, 4_000_000, 8_000_000, 12_000_000]
    counts = [0] * 5
    for i in range(1, len(frames)):
        d = abs(frames[i] - frames[i - 1])
        bucket = next((k for k, e in enumerate(edges) if d < e), 4)
        counts[bucket] += 1
    return {"lt_2ms": counts[0], "lt_4ms": counts[1], "lt_8ms": counts[2],
            "lt_12ms": counts[3], "ge_12ms": counts[4], "changes": len(frames) - 1}


def on_grid(frames, rate):
    on = 0
    for ft in frames:
        scaled = ft * rate
        k = max(1, (scaled + 500_000_000) // 1_000_000_000)
        if abs(scaled - k * 1_000_000_000) <= REFRESH_TOLERANCE_NS * rate:
            on += 1
    return on / len(frames)


def refresh(frames, rows):
    """The display's state. frames: the intervals the grid is read from (display changes where
    the capture has them); rows: per row of the present timeline (frame_ns, display_ns or None,
    present mode "direct"/"composed"/None, waits for a vertical blank, tearing) or None where the
    rows cannot be paired with their display changes."""
    shares = {rate: on_grid(frames, rate) for rate in REFRESH_CANDIDATES} if frames else {}
    out = {"state": "unknown", "rate_hz": None, "on_grid_share": None, "also_fits_hz": None}
    # The lowest rate explaining all but 5 % of the intervals, unless a multiple of it explains
    # more than 0.5 % beyond it (and beyond its denser grid's chance share of the rest).
    for rate in REFRESH_CANDIDATES if frames else []:
        if shares[rate] < 0.95:
            continue
        if out["rate_hz"] is None:
            if any(m % rate == 0 and m > rate and
                   shares[m] - shares[rate] > 0.005 + (1 - shares[rate]) * m / 1000.0
                   for m in REFRESH_CANDIDATES):
                continue
            out.update(state="fixed", rate_hz=rate, on_grid_share=shares[rate], also_fits_hz=[])
        elif rate % out["rate_hz"] != 0:
            out["also_fits_hz"].append(rate)
    rows = rows or []
    n = len(rows)
    torn = sum(1 for r in rows if r[4])
    if n and torn / n >= 0.5:
        return dict(out, state="follows_presents", rate_hz=None, on_grid_share=None,
                    also_fits_hz=None)
    shown = [r for r in rows if r[1] is not None]
    follows = bool(shown) and sum(1 for r in shown if abs(r[1] - r[0]) <= 1_000_000) / len(
        shown) >= 0.5
    direct = sum(1 for r in rows if r[2] == "direct")
    composed = sum(1 for r in rows if r[2] == "composed")
    vblank = sum(1 for r in rows if r[3])
    moded = any(r[2] is not None for r in rows)
    if moded and n and direct / n >= 0.5 and vblank / n < 0.5 and follows:
        return dict(out, state="follows_presents", rate_hz=None, on_grid_share=None,
                    also_fits_hz=None)
    if out["state"] == "fixed":
        return out
    if follows and not (moded and composed / n >= 0.5):
        return dict(out, state="follows_presents")
    return out


def startup(frames):
    n = len(frames)
    if n < 60:
        return None
    median = percentile(sorted(frames), 0.5)
    far = lambda v: v > 2.0 * median or v < 0.5 * median
    end, after_gap, far_count = 0, 0, 0
    for i in range(n // 2):
        if frames[i] >= 1_000_000_000:
            end, after_gap, far_count = i + 1, i + 1, 0
        elif far(frames[i]):
            far_count += 1
            if 2 * far_count >= i + 1 - after_gap:  # far-off frames at least half since the gap
                end = i + 1
    if end == 0:
        return None
    if sum(1 for v in frames[end:] if far(v)) > 0.05 * (n - end):
        return None
    return {"frames": end}


def read_lines(path):
    with open(path, encoding="utf-8-sig", newline="") as f:
        return f.read().splitlines()


def qpc_ticks_per_ms(rows, col, frame_col):
    """The QPC frequency as the reader derives it (no frequency is in the file): the tick span
    of each stream's CPUStartQPC over the sum of its FrameTime (time to the next CPU start) but
    the last, summed over the streams in file order. Returns (ticks per ms, earliest tick)."""
    streams = {}
    earliest = None
    for row in rows[1:]:
        if not row or missing(row[frame_col]):
            continue
        key = (row[col["Application"]], row[col["ProcessID"]], row[col["SwapChainAddress"]])
        q = int(row[col["CPUStartQPC"]])
        earliest = q if earliest is None else min(earliest, q)
        ms = 0.0 if missing(row[frame_col]) else float(row[frame_col])
        s = streams.setdefault(key, {"first": q, "sum": 0.0, "n": 0})
        s["last"], s["last_ms"] = q, ms
        s["sum"] += ms
        s["n"] += 1
    span_ticks, span_ms = 0.0, 0.0
    for s in streams.values():
        if s["n"] < 2:
            continue
        span_ticks += float(s["last"] - s["first"])
        span_ms += s["sum"] - s["last_ms"]
    return (span_ticks / span_ms if span_ms > 0 and span_ticks > 0 else 1e4), earliest


def time_cell(text):
    """A cell's time in ns, or None where it is NA or not a time >= 0 below 2^63 ns."""
    try:
        v = float(text)
    except ValueError:
        return None
    if not math.isfinite(v) or v < 0 or v * 1e6 >= 2.0 ** 63:
        return None
    return ms_to_ns(text)


def latency_and_bound(header, col, cells, frame_col, type_col, dropped_col, until_col,
                      display_col, all_rows):
    """The latency figures, the CPU / GPU / wait-bound shares and OCAT's longest run of missed
    frames over the stream's rows (docs/reports.md, "Latency", "Where the time goes")."""
    lower = {name.lower(): i for i, name in enumerate(header)}
    out = {}

    def latency(values, key, stats):
        values = sorted(v for v in values if v is not None)
        for stat in stats:
            k = f"{key}_{stat}_ms"
            if not values:
                out[k] = None
            elif stat == "avg":
                out[k] = sum(v / 1e6 for v in values) / len(values)
            elif stat == "p50":
                out[k] = percentile(values, 0.5) / 1e6
            elif stat == "p99":
                out[k] = percentile(values, 0.99) / 1e6
            elif stat == "min":
                out[k] = values[0] / 1e6
            else:
                out[k] = values[-1] / 1e6

    def column(*names):
        return next((col[n] for n in names if n in col), None)

    pc = column("MsPCLatency")
    latency([time_cell(r[pc]) for r in cells] if pc is not None else [], "pc_latency",
            ["avg", "p50", "p99", "min", "max"])
    click = column("ClickToPhotonLatency", "MsClickToPhotonLatency")
    latency([time_cell(r[click]) for r in cells] if click is not None else [],
            "click_to_photon", ["avg", "p99"])
    allin = column("AllInputToPhotonLatency", "MsAllInputToPhotonLatency")
    latency([time_cell(r[allin]) for r in cells] if allin is not None else [],
            "all_input_to_photon", ["avg", "p99"])
    display = []
    if "DisplayLatency" in col:
        display = [time_cell(r[col["DisplayLatency"]]) for r in cells]
    elif "TimeInQPC" in col and "CPUStartQPC" in col and until_col is not None:
        # PresentMon: DisplayLatency = screen time - CPU start; MsUntilDisplayed = screen time -
        # present start (TimeInQPC). The tick rate as the reader derives it, from the file.
        ticks_per_ms = qpc_ticks_per_ms(all_rows, col, col["MsBetweenAppStart"])[0]
        for r in cells:
            until = time_cell(r[until_col])
            ticks = int(r[col["TimeInQPC"]]) - int(r[col["CPUStartQPC"]])
            display.append(math.floor(ticks * 1e6 / ticks_per_ms + 0.5) + until
                           if until is not None and ticks >= 0 else None)
    elif "MsBetweenAppStart" in col and "MsCPUBusy" in col and until_col is not None and all(
            r[type_col] == "Application" for r in cells):
        # Without TimeInQPC: MsCPUBusy is the same span where no frame is generated.
        for r in cells:
            busy, until = time_cell(r[col["MsCPUBusy"]]), time_cell(r[until_col])
            display.append(busy + until if busy is not None and until is not None else None)
    latency(display, "display_latency", ["avg", "p99"])
    render = column("MsRenderPresentLatency")
    latency([time_cell(r[render]) for r in cells] if render is not None else [],
            "render_present_latency", ["avg"])

    counts = {"cpu": 0, "gpu": 0, "wait": 0}
    busy = column("CPUBusy", "MsCPUBusy")
    wait = column("CPUWait", "MsCPUWait")
    gpu = column("GPUBusy", "MsGPUBusy")
    urc = lower.get("msuntilrendercomplete")
    ipa = lower.get("msinpresentapi")
    rule = None
    if busy is not None and wait is not None and gpu is not None:
        rule = "busy"
        for r in cells:
            if type_col is not None and r[type_col] not in ("Application", "", "NA"):
                continue
            b, w, g = time_cell(r[busy]), time_cell(r[wait]), time_cell(r[gpu])
            if b is None or w is None or g is None or b + w <= 0:
                continue
            if max(b, g) < 0.8 * (b + w):
                counts["wait"] += 1
            else:
                counts["gpu" if g >= b else "cpu"] += 1
    elif urc is not None and ipa is not None:
        rule = "render_complete"
        for r in cells:
            t, u, p = ms_to_ns(r[frame_col]), time_cell(r[urc]), time_cell(r[ipa])
            if t <= 0 or u is None or p is None:
                continue
            if u >= t:
                counts["gpu"] += 1
            elif p >= 0.2 * t:
                counts["wait"] += 1
            else:
                counts["cpu"] += 1
    n = sum(counts.values())
    for k in ("cpu", "gpu", "wait"):
        out[f"{k}_bound_share"] = counts[k] / n if rule and n else None

    if dropped_col is not None or until_col is not None or display_col is not None:
        run = longest = 0
        for r in cells:
            missed = dropped_col is not None and not missing(r[dropped_col]) and int(
                r[dropped_col]) != 0
            if until_col is not None and missing(r[until_col]):
                missed = True
            if display_col is not None and missing(r[display_col]) and until_col is None:
                missed = True
            if missed:
                run += 1
            else:
                longest, run = max(longest, run), 0
        out["max_consecutive_dropped"] = longest
    return out


def presentmon_figures(path):
    lines = [l for l in read_lines(path) if not l.startswith("//")]
    rows = list(csv.reader(lines))
    header = rows[0]
    col = {name: i for i, name in enumerate(header)}
    frame_col = next(col[c] for c in FRAME_COLUMNS if c in col)
    display_col = next((col[c] for c in DISPLAY_COLUMNS if c in col), None)
    dropped_col = col.get("Dropped")
    type_col = col.get("FrameType")
    # PresentMon 2.x ("v2 metrics"): FrameTime is the time between the application's frame
    # starts, 0 on generated frames, which are not frame times; DisplayedTime is a frame's time
    # on screen, i.e. the display-change interval of the next displayed frame. Its present
    # timeline is rebuilt: each present is CPUBusy after its frame's CPU start.
    v2_metrics = header[frame_col] == "FrameTime"
    until_col = col.get("MsUntilDisplayed")
    if v2_metrics:
        ticks_per_ms = qpc_ticks_per_ms(rows, col, frame_col)
    streams = {}
    for row in rows[1:]:
        if not row:
            continue
        if missing(row[frame_col]):
            continue
        key = (row[col["Application"]], row[col["ProcessID"]], row[col["SwapChainAddress"]])
        s = streams.setdefault(key, {"frames": [], "numbers": [], "display": [], "dropped": 0,
                                     "generated": 0, "rows": 0})
        s["rows"] += 1
        s.setdefault("cells", []).append(row)
        if "SyncInterval" in col and "AllowsTearing" in col:
            torn = row[col["SyncInterval"]] == "0" and row[col["AllowsTearing"]] == "1"
            s["torn"] = s.get("torn", 0) + (1 if torn else 0)
        generated = type_col is not None and row[type_col] not in ("Application", "", "NA")
        if v2_metrics and generated:
            s["generated"] += 1
        elif v2_metrics:
            present = s.setdefault("qpc", [])
            start_ns = math.floor((int(row[col["CPUStartQPC"]]) - ticks_per_ms[1]) * 1e6
                                  / ticks_per_ms[0] + 0.5)
            present.append(start_ns + ms_to_ns(row[col["CPUBusy"]]))
            if len(present) > 1:  # the first present has no earlier one in the file
                s["frames"].append(max(present[-1] - present[-2], 0))
                s["numbers"].append(s["rows"] - 1)
        else:
            s["frames"].append(ms_to_ns(row[frame_col]))
            s["numbers"].append(s["rows"] - 1)  # the frame's number in the capture
        mode = row[col["PresentMode"]] if "PresentMode" in col else None
        s.setdefault("pairs", []).append([
            ms_to_ns(row[frame_col]), None,
            None if mode is None else "composed" if mode.startswith("Composed")
            else "direct" if mode.startswith("Hardware") else "other",
            "SyncInterval" in col and row[col["SyncInterval"]] not in ("0", "", "NA"),
            "SyncInterval" in col and "AllowsTearing" in col and
            row[col["SyncInterval"]] == "0" and row[col["AllowsTearing"]] == "1"])
        dropped = False
        if dropped_col is not None and not missing(row[dropped_col]):
            dropped = int(row[dropped_col]) != 0
        if until_col is not None and missing(row[until_col]):
            dropped = True
        if display_col is not None:
            cell = row[display_col]
            if missing(cell):
                if until_col is None:
                    dropped = True
            elif not dropped:
                s["display"].append(ms_to_ns(cell))
                s["pairs"][-1][1] = ms_to_ns(cell)
        s["dropped"] += 1 if dropped else 0
    key, best = None, None
    for k, s in streams.items():  # dicts keep file order: the first of equals wins
        if best is None or s["rows"] > best["rows"]:
            key, best = k, s
    frames = best["frames"]
    pairs = best["pairs"]
    if v2_metrics:
        best["display"] = best["display"][:-1]  # each value belongs to the next displayed frame
        previous = None
        for p in pairs:
            if p[1] is not None:
                p[1], previous = previous, p[1]
        if best["generated"]:
            # The present timeline leaves the generated frames out: no row pairs with its
            # display change.
            pairs = [[p[0], None, p[2], p[3], p[4]] for p in pairs]
    total, ft, fps = summary(frames)
    frames_ms = [v / 1e6 for v in frames]
    fps["low1_average"] = 1000.0 / capframex_low_average_ms(frames_ms, 1 - 0.01)
    fps["low01_average"] = 1000.0 / capframex_low_average_ms(frames_ms, 1 - 0.001)
    fps["low1_integral"] = 1000.0 / afterburner_integral_ms(frames_ms, 1 - 0.01)
    fps["low01_integral"] = 1000.0 / afterburner_integral_ms(frames_ms, 1 - 0.001)
    window, time_frames, count_frames, share = capframex_stutter(frames_ms)
    hitches, per_min = unreal_hitches(frames, best["numbers"])
    out = {
        "source": {"process": key[0]},
        "frames": len(frames),
        "duration_s": total / 1e9,
        "frame_time_ms": ft,
        "fps": fps,
        "stutter": {"capframex_time_frames": time_frames,
                    "capframex_count_frames": count_frames,
                    "capframex_count_share": count_frames / len(frames_ms),
                    "capframex_time_share": share,
                    "capframex_window": window, "hitch_count": len(hitches),
                    "hitches_per_min": per_min, "hitches": hitches},
        "variation_buckets": variation(frames),
        "refresh": refresh(best["display"] if best["display"] else frames, pairs),
        "segments": {"startup": startup(frames)},
    }
    if display_col is not None:
        out["display"] = {"displayed_frames": len(best["display"]),
                          "dropped_frames": best["dropped"]}
    out["figures"] = latency_and_bound(header, col, best["cells"], frame_col, type_col,
                                       dropped_col, until_col, display_col, rows)
    out["figures"]["unreal_hitch_time_share"] = (
        sum(h["frame_time_ms"] for h in hitches) * 1e6 / total if total > 0 else None)
    return out


def mangohud_figures(path):
    lines = read_lines(path)
    header_at = max(i for i, l in enumerate(lines) if "frametime" in l.split(","))
    rows = list(csv.reader(lines[header_at:]))
    col = rows[0].index("frametime")
    samples = [ms_to_ns(r[col]) for r in rows[1:] if r]
    return {"per_frame": False, "frames": len(samples),
            "frame_time_ms": None, "stutter": None,
            "sampled": {"samples": len(samples),
                        "mean_frame_time_ms": sum(samples) / len(samples) / 1e6}}


def main():
    captures = sys.argv[1]
    # Optional names after the folder: only those files (tests/data holds formats this script
    # does not read; its PresentMon 1.x files go to expected_figures_test_data.json).
    only = set(sys.argv[2:])
    expected = {}
    for name in sorted(os.listdir(captures)):
        if not name.endswith(".csv") or (only and name not in only):
            continue
        path = os.path.join(captures, name)
        if name.startswith("mangohud"):
            expected[name] = mangohud_figures(path)
        else:
            expected[name] = presentmon_figures(path)
    json.dump(expected, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
