#!/usr/bin/env bash
# README command 2: set up, build everything (Debug, warnings on) and run every test with ctest.
# BUILD_DIR and CMAKE_ARGS may be set to build elsewhere or with other options (the sanitizer
# build in .ci/run uses them).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build_dir=${BUILD_DIR:-build/test}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} \
    -DLOOPSCOPE_WERROR=ON ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" ${CTEST_ARGS:-}
