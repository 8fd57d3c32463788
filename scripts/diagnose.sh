#!/usr/bin/env bash
# README command 1: set up, build Release, and diagnose this machine: clock and timer probes,
# the loop scenarios on the real clock, and one report (terminal + HTML) tying them together.
# Arguments are passed to `loopscope diagnose` (e.g. --quick, -o DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build_dir=${BUILD_DIR:-build/release}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPSCOPE_TESTS=OFF >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target loopscope >/dev/null
exec "$build_dir/tool/loopscope" diagnose "$@"
