#!/usr/bin/env bash
# README command 2: set up, build everything (RelWithDebInfo at -O3, Release's optimisation, with
# debug information; warnings are errors) and run every test with ctest, then list the skipped
# tests with their reasons. The build is the preset of CMakePresets.json
# named by the argument (default `test`, in build/test); .ci/run also runs `sanitize` (ASan and
# UBSan) and `tsan` (the threaded parts' tests under ThreadSanitizer) through it.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '==> %s\n' "$*"; }

preset=${1:-test}
build_dir=build/$preset  # the presets' binaryDir
step "Checking the Debian packages (scripts/setup.sh)"
./scripts/setup.sh
step "Configuring the '$preset' build (CMakePresets.json) in $build_dir"
mkdir -p "$build_dir"
if ! cmake --preset "$preset" >"$build_dir/configure.log" 2>&1; then
    cat "$build_dir/configure.log"
    exit 1
fi
step "Building the program, the tests and the benchmarks ([done/total] steps)"
NINJA_STATUS="build [%f/%t] " cmake --build --preset "$preset" -j "$(nproc)"
step "Running the tests (ctest)"
junit="$PWD/$build_dir/ctest-junit.xml"
status=0
ctest --preset "$preset" -j "$(nproc)" --output-junit "$junit" || status=$?
# Each skipped test with its reason: the line after GoogleTest's "file:line: Skipped" (the
# GTEST_SKIP message), else the first line the test printed.
skipped_tests() {
    awk '
        function unescape(s) {
            gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
            gsub(/&apos;/, "\047", s); gsub(/&amp;/, "\\&", s); return s
        }
        /<testcase / {
            match($0, /name="[^"]*"/); name = substr($0, RSTART + 6, RLENGTH - 7)
            skipped = 0; inside = 0; after_skip = 0; reason = ""; first = ""
        }
        /<skipped / { skipped = 1 }
        /<system-out>/ { inside = 1; sub(/.*<system-out>/, "") }
        inside {
            line = $0
            if (line ~ /<\/system-out>/) { sub(/<\/system-out>.*/, "", line); inside = 0 }
            if (after_skip && reason == "" && line != "") reason = line
            if (line ~ /: Skipped$/) after_skip = 1
            if (first == "" && line != "") first = line
        }
        /<\/testcase>/ && skipped {
            if (reason == "") reason = first
            printf "  %s: %s\n", unescape(name), unescape(reason)
        }
    ' "$junit"
}
if [ -f "$junit" ] && grep -q '<skipped' "$junit"; then
    step "Skipped tests and why"
    skipped_tests
fi
if [ "$status" -ne 0 ]; then
    exit "$status"
fi
step "The program is $build_dir/tool/loopscope; run the tests again without rebuilding:" \
    "ctest --test-dir $build_dir"
