#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer) and runs each for FUZZ_SECONDS (default 60), seeded from tests/data/
# and tests/fuzz/seeds/.
# Any crash, sanitizer finding, leak, timeout or memory blow-up fails the run; the input that
# caused it is left in build/fuzz/artifacts/TARGET/ (add it to tests/fuzz/corpus/ with the fix).
# FUZZ_TARGETS picks targets (default: all); FUZZ_RUNS=N runs N inputs a target instead of a time.
# FUZZ_JOBS=J runs J fuzzer processes a target that share its corpus folder (libFuzzer's -jobs,
# each taking up the others' new inputs every second), each running N/J inputs with FUZZ_RUNS;
# their logs are build/fuzz/TARGET-jobs/fuzz-K.log.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
step() { printf '==> %s\n' "$*"; }

preset=fuzz  # CMakePresets.json: clang, libFuzzer, ASan and UBSan, no tests
build_dir=build/$preset
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
case $jobs in '' | *[!0-9]* | 0) echo "fuzz: FUZZ_JOBS must be a whole number >= 1, not '$jobs'" >&2; exit 2 ;; esac
targets=${FUZZ_TARGETS:-"trace plain mangohud afterburner capframex_json presentmon detect report compare live"}
command -v clang++ >/dev/null || { echo "fuzz: clang++ is missing (LOOPSCOPE_SETUP_FUZZ=1 ./scripts/setup.sh installs it)" >&2; exit 1; }

step "Configuring the fuzz build (clang, libFuzzer, ASan + UBSan) in $build_dir"
mkdir -p "$build_dir"
if ! cmake --preset "$preset" >"$build_dir/configure.log" 2>&1; then
    cat "$build_dir/configure.log"
    exit 1
fi
step "Building the fuzz targets ([done/total] steps)"
fuzz_targets=()
for t in $targets; do fuzz_targets+=("fuzz_$t"); done
NINJA_STATUS="build [%f/%t] " cmake --build --preset "$preset" -j "$(nproc)" --target "${fuzz_targets[@]}"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in $targets; do
    corpus="$build_dir/corpus/$t"
    artifacts="$build_dir/artifacts/$t"
    mkdir -p "$corpus" "$artifacts"
    # Seeds: the synthetic captures, the seeds of tests/fuzz/seeds (live streams) and the kept
    # findings (the corpus grows across runs).
    cp -n tests/data/*.csv tests/data/*.json tests/data/*.txt tests/data/*.trace "$corpus"/ 2>/dev/null || true
    find tests/fuzz/corpus tests/fuzz/seeds -type f ! -name README.md -exec cp -n {} "$corpus"/ \;
    if [ -n "${FUZZ_RUNS:-}" ]; then
        limit=(-runs="$((FUZZ_RUNS / jobs))")
        amount="$FUZZ_RUNS inputs"
    else
        limit=(-max_total_time="$seconds")
        amount="$seconds s"
    fi
    log="$build_dir/fuzz_$t.log"
    parallel=()
    if [ "$jobs" -gt 1 ]; then
        # libFuzzer writes each job's log as fuzz-K.log in the folder it runs in.
        amount="$amount, $jobs processes"
        mkdir -p "$build_dir/$t-jobs"
        parallel=(-jobs="$jobs" -workers="$jobs")
    fi
    step "Fuzzing $t ($amount)"
    # -timeout: an input taking over 10 s is a hang; -rss_limit_mb: memory out of proportion.
    if ! (if [ "$jobs" -gt 1 ]; then cd "$build_dir/$t-jobs"; fi
        "$root/$build_dir/tests/fuzz/fuzz_$t" "${limit[@]}" "${parallel[@]}" -timeout=10 \
            -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$root/$artifacts/" \
            -print_final_stats=1 "$root/$corpus") >"$log" 2>&1; then
        [ "$jobs" -gt 1 ] && tail -n 60 "$build_dir/$t-jobs"/fuzz-*.log
        tail -n 60 "$log"
        echo "fuzz: $t found a problem; the input is in $artifacts/ (log: $log)" >&2
        exit 1
    fi
    if [ "$jobs" -gt 1 ]; then
        for job_log in "$build_dir/$t-jobs"/fuzz-*.log; do
            grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$job_log" |
                sed "s|^|  $t ($(basename "$job_log")): |"
        done
    else
        grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|cov: ' "$log" | tail -n 3 |
            sed "s/^/  $t: /"
    fi
done
step "Every fuzz target ran without a finding"
