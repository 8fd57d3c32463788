#!/usr/bin/env bash
# README command 2: set up, build everything (RelWithDebInfo: optimised, with debug information;
# warnings are errors) and run every test with ctest. The build is the preset of CMakePresets.json
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
ctest --preset "$preset" -j "$(nproc)"
step "The program is $build_dir/tool/loopscope; run the tests again without rebuilding:" \
    "ctest --test-dir $build_dir"
