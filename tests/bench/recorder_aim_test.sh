#!/bin/sh
# Checks recorder_aim.sh's rule on a stand-in benchmark binary that prints fixed figures per
# round: each case less the empty loop of its own round, the median of the rounds (the mean of
# the middle two for an even count), the range, the verdict, the cases a round skipped, the
# units, the counters, and the errors for a missing binary, a bad round count and a benchmark
# run that fails.
#
#   tests/bench/recorder_aim_test.sh     (from anywhere; needs only sh and awk)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build/tests"
fake="$work/build/tests/loopscope_bench"
# Four rounds. File sink, writer idle: 5, 4, 6, 3 above the empty loop (median 4.5, met).
# File sink, two CPUs: 6, 5, 7, 4 (median 5.5, missed). Own clock, in us in round 2: 2, 3, 1, 2
# above its empty loop (median 2). The rows alone, two CPUs: 4.5, 4, 5, 3.5 (median 4.25, shown
# and not judged). A cache line's round trip between the CPUs: 80, 340, 78, 90 ns (median 85);
# beside the two-CPU file case, read before and after it: 80/82, 340/345, 78/300, 90/88.
# The two-CPU callback case skipped in rounds 3 and 4 (median of 7 and 9: 8); the busy file case
# skipped in every round.
cat >"$fake" <<'EOF'
#!/bin/sh
round_file="$(dirname "$0")/round"
round=$(($(cat "$round_file" 2>/dev/null || echo 0) + 1))
echo "$round" >"$round_file"
[ -e "$(dirname "$0")/fail" ] && [ "$round" -eq 2 ] && exit 3
pick() { shift "$round"; echo "$1"; }
line() { echo "BM_$1_median $2 ns $2 ns 3 $3"; }
line EmptyLoopGivenTime/1024 1.08
line EmptyLoopGivenTime/4095 0.68
line EmptyLoopOwnClock/1024 24.0
line RecorderFrameHotPath/0 "$(pick x 4.68 4.58 4.78 4.48)"
line CacheLineRoundTrip "$(pick x 80.0 340.0 78.0 90.0)" "the loop's CPU and another"
line RowStoresFloorBlocks/1/1 "$(pick x 5.58 5.08 6.08 4.58)"
line RecorderFrameGivenTime/0/0 "$(pick x 6.08 5.08 7.08 4.08)" "dropped=0 writer_apart_pct=$(pick x 0 100 50 25) writer_cpu_ns=$(pick x 100 120 90 110) file sink"
line RecorderFrameGivenTimePinned/0/0/1 "$(pick x 7.08 6.08 8.08 5.08)" "trip_after_ns=$(pick x 82 345 300 88) trip_before_ns=$(pick x 80 340 78 90)"
echo "BM_RecorderFrameGivenTimePinned/1/0/0_median ERROR OCCURRED: 'the OS refused to pin the thread'"
if [ "$round" -le 2 ]; then line RecorderFrameGivenTimePinned/0/1/1 "$(pick x 8.08 10.08)"; fi
line RecorderFrameGivenTimeLive/0/1/1 7.08 "bytes_per_frame=112.1 sender_cpu_ns=$(pick x 100 130 110 120)"
if [ "$round" -eq 2 ]; then
    echo "BM_RecorderFrameOwnClock/0/0_median 0.027 us 0.027 us 3"
else
    line RecorderFrameOwnClock/0/0 "$(pick x 26.0 x 25.0 26.0)"
fi
EOF
chmod +x "$fake"
failures=0
expect() {  # expect WHAT PATTERN: the last output has a line matching PATTERN (grep -E)
    if ! grep -Eq "$2" "$work/out"; then
        echo "FAIL: $1: no line matching '$2' in:" >&2
        cat "$work/out" >&2
        failures=$((failures + 1))
    fi
}

status=0
LOOPSCOPE_AIM_ROUNDS=4 sh "$here/recorder_aim.sh" "$work/build" >"$work/out" 2>"$work/err" || status=$?
expect "an even count's median is the mean of the middle two" \
    '^RecorderFrameGivenTime/0/0 .* 4\.50 +3\.00 to 6\.00 +met$'
expect "a median above 5 ns misses" '^RecorderFrameGivenTimePinned/0/0/1 .* 5\.50 +4\.00 to 7\.00 +missed$'
expect "a case skipped in some rounds is judged by the rest" \
    '^RecorderFrameGivenTimePinned/0/1/1 .* 8\.00 +7\.00 to 9\.00 +missed$'
expect "a case skipped in every round is absent, not 0" \
    '^RecorderFrameGivenTimePinned/1/0/0 .* - +- +not measured here'
expect "us are read as 1000 ns" '^RecorderFrameOwnClock/0/0 .* 2\.00 +1\.00 to 3\.00 +met$'
expect "the recorder alone is shown, not judged" \
    '^RecorderFrameHotPath/0 .* 3\.95 +3\.80 to 4\.10 +\(the recorder alone\)$'
expect "the rows alone are shown, not judged" \
    '^RowStoresFloorBlocks/1/1 .* 4\.25 +3\.50 to 5\.00 +\(the rows alone\)$'
expect "the count of cases" '^aim met in 2 of 4 cases judged \(medians of 4 rounds\); 16 not measured here$'
expect "the writer counter" '^writer CPU a row.* 105\.0 ns \(range 90\.0-120\.0\)$'
expect "where the OS put the writer" \
    '^writer on another CPU, GivenTime/0/0, % of blocks +37\.5 % \(range 0\.0-100\.0\)$'
expect "a placement not measured" '^writer on another CPU, GivenTime/1/0, % of blocks +not measured here$'
expect "the round trip between the CPUs" \
    '^cache line round trip, loop CPU to the other and back +85\.0 ns \(range 78\.0-340\.0\)$'
expect "the section of the two-CPU cases by the round trip" \
    '^two-CPU cases by the round trip beside each: ns above the empty loop \(round trip before/after, ns\), rounds ordered by the round trip$'
expect "a two-CPU case by the round trip beside it, ordered by the mean of the two readings" \
    '^RecorderFrameGivenTimePinned/0/0/1 +6\.00 \(80/82\) +4\.00 \(90/88\) +7\.00 \(78/300\) +5\.00 \(340/345\)$'
if [ "$(grep -c '^RecorderFrameGivenTimePinned/0/1/1 ' "$work/out")" -ne 1 ]; then
    echo "FAIL: a two-CPU case without round trips should appear in the table only" >&2
    failures=$((failures + 1))
fi
expect "the sender counter" '^sender CPU a row.* 115\.0 ns \(range 100\.0-130\.0\)$'
expect "the bytes counter" '^bytes a frame on the wire .* 112\.1 bytes'
if [ "$status" -ne 1 ]; then
    echo "FAIL: a missed aim should exit 1, not $status" >&2
    failures=$((failures + 1))
fi
if [ "$(grep -c '^round ' "$work/err")" -ne 4 ]; then
    echo "FAIL: one progress line a round expected on stderr" >&2
    failures=$((failures + 1))
fi

rm -f "$work/build/tests/round"
: >"$work/build/tests/fail"
status=0
LOOPSCOPE_AIM_ROUNDS=3 sh "$here/recorder_aim.sh" "$work/build" >"$work/out" 2>&1 || status=$?
expect "a benchmark run that fails stops the rounds" \
    'recorder_aim.sh: .*loopscope_bench failed \(exit 3\) in round 2'
if [ "$status" -ne 2 ]; then
    echo "FAIL: a failed benchmark run should exit 2, not $status" >&2
    failures=$((failures + 1))
fi

status=0
LOOPSCOPE_AIM_ROUNDS=ten sh "$here/recorder_aim.sh" "$work/build" >"$work/out" 2>&1 || status=$?
expect "a bad round count" "LOOPSCOPE_AIM_ROUNDS must be a whole number of at least 1, not 'ten'"
[ "$status" -eq 2 ] || { echo "FAIL: a bad round count should exit 2" >&2; failures=$((failures + 1)); }

status=0
LOOPSCOPE_AIM_ROUNDS=0 sh "$here/recorder_aim.sh" "$work/build" >"$work/out" 2>&1 || status=$?
expect "no rounds" "LOOPSCOPE_AIM_ROUNDS must be a whole number of at least 1, not '0'"
[ "$status" -eq 2 ] || { echo "FAIL: 0 rounds should exit 2" >&2; failures=$((failures + 1)); }

status=0
sh "$here/recorder_aim.sh" "$work/nowhere" >"$work/out" 2>&1 || status=$?
expect "no binary" 'no benchmark binary at .*/nowhere/tests/loopscope_bench'
[ "$status" -eq 2 ] || { echo "FAIL: a missing binary should exit 2" >&2; failures=$((failures + 1)); }

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "recorder_aim.sh: all checks passed"
