#!/bin/sh
# The speed goals as ratios: reading and analysing a generated 1,000,000-present PresentMon
# capture in process (BM_ReadAndAnalyse) and as a whole `loopscope report` process
# (BM_ReportProcess), each against `wc -l` on the same file in the same run (BM_WcL), which
# only counts line breaks: the floor for anything that looks at every byte; the whole process on
# the same presents in the narrow 15-column layout of PresentMon 1.x before 1.6
# (BM_ReportProcessNarrow against BM_WcLNarrow; BM_ReportProcessNarrowTerminal, the terminal
# report to /dev/null), by wall time and by CPU time (user + system of
# every thread, which other programs on a busy machine change less); and the comparison
# of two million-frame captures against one capture's analysis (BM_ReportCompare1M against
# BM_ReportAnalyse, in process) and as whole processes (BM_CompareProcess, `report A B`,
# against BM_ReportProcess). Ratios, not times, are what to compare between machines and
# between runs on a busy one.
#
#   tests/bench/ratios.sh [BUILD_DIR]     (default build/test; build it first)
#
# LOOPSCOPE_BENCH_THREADS=N sets the reader's threads (default: one per hardware thread), e.g.
# 1 for the one-thread reading a large file had before it was read in pieces.
# LOOPSCOPE_BENCH_WAIT_IDLE=1 starts each whole process (wc -l, loopscope report) only once the
# machine's CPUs are nearly idle (up to 10 s of waiting, not timed): on a machine shared with a
# build, the wall times then measure the process rather than its neighbours.
# LOOPSCOPE_BENCH_REPETITIONS=N (default 5) runs each benchmark N times and takes the median:
# on a virtual machine whose cores run at half speed for a few hundred milliseconds after they
# idle, one run of each differs from the next by a third.
set -eu
build=${1:-build/test}
bench="$build/tests/loopscope_bench"
if [ ! -x "$bench" ]; then
    echo "ratios.sh: no benchmark binary at $bench: build the project first (scripts/test.sh)" >&2
    exit 2
fi
echo "reader threads: ${LOOPSCOPE_BENCH_THREADS:-default (one per hardware thread)}"
echo "waiting for idle CPUs before each process: ${LOOPSCOPE_BENCH_WAIT_IDLE:-no}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
reps=${LOOPSCOPE_BENCH_REPETITIONS:-5}
echo "repetitions: $reps (medians)"
out=$("$bench" --benchmark_filter='^BM_(WcL|WcLNarrow|ReadAndAnalyse|ReportProcess|ReportProcessNarrow|ReportProcessNarrowTerminal|CompareProcess|ReportAnalyse|ReportCompare1M)/' \
    --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true 2>/dev/null)
echo "$out" | grep -E '^BM_.*_(median|min|max|stddev|mean) '
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
# Each median's wall time in ms ("BM_x/iterations:5/real_time_median   27.1 ms   ..."), then
# the ratios.
echo "$out" | awk '
    function ms(value, unit) {
        if (unit == "ns") return value / 1e6
        if (unit == "us") return value / 1e3
        if (unit == "s") return value * 1e3
        return value
    }
    /^BM_.*_median / {
        split($1, name, "/"); t[name[1]] = ms($2, $3)
        for (i = 1; i <= NF; ++i)
            if ($i ~ /^process_cpu_s=/) { split($i, kv, "="); cpu[name[1]] = kv[2] * scale(kv[2]) }
    }
    # Google Benchmark writes large and small counters with a suffix (k, m, u).
    function scale(text) {
        if (text ~ /m$/) return 1e-3
        if (text ~ /u$/) return 1e-6
        if (text ~ /k$/) return 1e3
        return 1
    }
    END {
        if (!("BM_WcL" in t) || t["BM_WcL"] <= 0) { print "ratios.sh: no BM_WcL row" > "/dev/stderr"; exit 2 }
        printf "read + analyse in process: %.1f x wc -l (goal <= 3)\n", t["BM_ReadAndAnalyse"] / t["BM_WcL"]
        printf "whole report process:      %.1f x wc -l (goal <= 5)\n", t["BM_ReportProcess"] / t["BM_WcL"]
        if (t["BM_WcLNarrow"] > 0) {
            printf "narrow layout, whole process: %.1f x wc -l wall (goal <= 5)", t["BM_ReportProcessNarrow"] / t["BM_WcLNarrow"]
            if (cpu["BM_WcLNarrow"] > 0)
                printf ", %.1f x CPU", cpu["BM_ReportProcessNarrow"] / cpu["BM_WcLNarrow"]
            printf "\n"
            if (t["BM_ReportProcessNarrowTerminal"] > 0)
                printf "narrow layout, terminal report to /dev/null: %.1f x wc -l wall\n", t["BM_ReportProcessNarrowTerminal"] / t["BM_WcLNarrow"]
        }
        if (t["BM_ReportAnalyse"] > 0)
            printf "comparison in process:     %.1f x one analysis (goal <= 2)\n", t["BM_ReportCompare1M"] / t["BM_ReportAnalyse"]
        if (t["BM_ReportProcess"] > 0)
            printf "comparison process:        %.1f x one report process (two captures read)\n", t["BM_CompareProcess"] / t["BM_ReportProcess"]
    }'
