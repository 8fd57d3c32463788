#!/usr/bin/env bash
# README command 2: set up, build everything (RelWithDebInfo: optimised, with debug information;
# warnings are errors) and run every test with ctest. BUILD_DIR, BUILD_TYPE and CMAKE_ARGS may be
# set to build elsewhere or with other options (the sanitizer build in .ci/run uses them);
# CTEST_ARGS are passed to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '==> %s\n' "$*"; }

step "Checking the Debian packages (scripts/setup.sh)"
./scripts/setup.sh
build_dir=${BUILD_DIR:-build/test}
build_type=${BUILD_TYPE:-RelWithDebInfo}
step "Configuring a $build_type build in $build_dir"
mkdir -p "$build_dir"
# shellcheck disable=SC2086 # CMAKE_ARGS is a list of options
if ! cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
    -DLOOPSCOPE_WERROR=ON ${CMAKE_ARGS:-} >"$build_dir/configure.log" 2>&1; then
    cat "$build_dir/configure.log"
    exit 1
fi
step "Building the program, the tests and the benchmarks ([done/total] steps)"
NINJA_STATUS="build [%f/%t] " cmake --build "$build_dir" -j "$(nproc)"
step "Running the tests (ctest)"
# shellcheck disable=SC2086 # CTEST_ARGS is a list of options
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" ${CTEST_ARGS:-}
step "The program is $build_dir/tool/loopscope; run the tests again without rebuilding:" \
    "ctest --test-dir $build_dir"
