#!/bin/sh
# Memory and time at scale: peak resident memory and times of `loopscope report` on a generated
# 10,000,000-row PresentMon 1.x capture (the layout of readers_bench.cpp: 21 columns, the game
# with dwm.exe every tenth row), on a 9,000,000-frame loopscope trace (`run --clock virtual`),
# and of comparing two such traces, each measured once with /usr/bin/time -v. The inputs are
# generated once into DIR (about 4.6 GB) and kept for later runs; remove DIR when done.
# docs/reliability.md ("At scale") gives the figures this printed.
#
#   tests/bench/scale.sh [BUILD_DIR] [DIR]     (defaults build/test and /tmp/loopscope-scale)
#   SCALE_ONLY=pm|trace|compare limits it to one of the three.
set -eu
build=${1:-build/test}
dir=${2:-/tmp/loopscope-scale}
loopscope="$build/tool/loopscope"
if [ ! -x "$loopscope" ]; then
    echo "scale.sh: no loopscope binary at $loopscope: build the project first" >&2
    exit 2
fi
if [ ! -x /usr/bin/time ]; then
    echo "scale.sh: needs GNU time at /usr/bin/time (Debian package 'time')" >&2
    exit 2
fi
mkdir -p "$dir"
only=${SCALE_ONLY:-all}

if [ ! -s "$dir/pm10m.csv" ] && { [ "$only" = all ] || [ "$only" = pm ]; }; then
    echo "generating $dir/pm10m.csv (10,000,000 rows)"
    # The frame times jitter by a fixed pattern, not a random generator, so that every awk gives
    # the same file; a 100 ms hitch every 4999 rows, every 7th game frame dropped.
    awk 'BEGIN {
        printf "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,"
        printf "Dropped,TimeInSeconds,msInPresentAPI,msBetweenPresents,AllowsTearing,"
        printf "PresentMode,msUntilRenderComplete,msUntilDisplayed,msBetweenDisplayChange,"
        printf "msFlipDelay,msUntilRenderStart,msGPUActive,msGPUVideoActive,msSinceInput,"
        printf "QPCTime\n"
        t = 1.0
        for (i = 0; i < 10000000; ++i) {
            dwm = i % 10 == 9
            ms = dwm ? 16.6667 : 10.4 + ((i * 7919) % 1601 - 800) / 1000 + (i % 4999 == 0 ? 90 : 0)
            dropped = !dwm && i % 7 == 0
            if (!dwm) t += ms / 1000
            printf "%s,%d,%s,DXGI,%d,0,%d,%.8f,0.54820000000000,%.14f,1,Hardware Composed: ", \
                dwm ? "dwm.exe" : "Game-Win64-Shipping.exe", dwm ? 1592 : 10340, \
                dwm ? "0x0000000000000000" : "0x0000000071197740", dwm ? -1 : 0, dropped, t, ms
            printf "Independent Flip,2.62740000000000,3.90780000000000,%.14f,0.00000000000000," \
                "-12.11280000000000,12.27840000000000,0.00000000000000,0.00000000000000,%.0f\n", \
                dropped ? 0 : 8.3, t * 1e7
        }
    }' >"$dir/pm10m.csv.part"
    mv "$dir/pm10m.csv.part" "$dir/pm10m.csv"
fi
for seed in 1 2; do
    if [ ! -s "$dir/t9m_$seed.trace" ] && [ "$only" != pm ]; then
        echo "generating $dir/t9m_$seed.trace (9,000,000 frames, seed $seed)"
        "$loopscope" run --clock virtual --frames 9000000 --seed "$seed" \
            -o "$dir/t9m_$seed.trace" >/dev/null
    fi
done

# One measured run: the command, the load average before it, wall and CPU times, peak memory.
measure() {
    label=$1
    shift
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    /usr/bin/time -v "$@" >/dev/null 2>"$dir/time.txt" || {
        cat "$dir/time.txt" >&2
        exit 1
    }
    awk -v label="$label" -v load="$load" '
        /Elapsed \(wall clock\)/ { wall = $NF }
        /User time/ { user = $NF }
        /System time/ { sys = $NF }
        /Maximum resident set size/ { kb = $NF }
        END {
            printf "%-8s wall %s  user %s s  sys %s s  peak %.0f MB  (load before: %s)\n",
                label, wall, user, sys, kb / 1000, load
        }' "$dir/time.txt"
}
echo "$(basename "$loopscope") at $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo '?')"
if [ "$only" = all ] || [ "$only" = pm ]; then
    measure pm10m "$loopscope" report "$dir/pm10m.csv"
fi
if [ "$only" = all ] || [ "$only" = trace ]; then
    measure trace9m "$loopscope" report "$dir/t9m_1.trace"
fi
if [ "$only" = all ] || [ "$only" = compare ]; then
    measure compare "$loopscope" report "$dir/t9m_1.trace" "$dir/t9m_2.trace"
fi
