#!/usr/bin/env bash
# README command 1: set up, build Release (the `loopscope` program and the example game loop), and
# diagnose this machine: clock and timer probes, the loop scenarios on the real clock, and one
# report (terminal + HTML) tying them together. Arguments are passed to `loopscope diagnose`
# (e.g. --quick, -o DIR). What it is doing goes to standard error; the report to standard output.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '==> %s\n' "$*" >&2; }

step "Checking the Debian packages (scripts/setup.sh)"
./scripts/setup.sh
preset=release  # CMakePresets.json: Release, without the tests
build_dir=build/$preset
step "Configuring a Release build in $build_dir"
mkdir -p "$build_dir"
if ! cmake --preset "$preset" >"$build_dir/configure.log" 2>&1; then
    cat "$build_dir/configure.log" >&2
    exit 1
fi
step "Building loopscope and the example game loop ([done/total] steps; nothing to do when built)"
NINJA_STATUS="build [%f/%t] " cmake --build --preset "$preset" -j "$(nproc)" \
    --target loopscope example_game_loop >&2
exe="$build_dir/tool/loopscope"
step "Running $exe diagnose $*"
status=0
"$exe" diagnose "$@" || status=$?
step "The program is $exe; run it again without rebuilding: $exe diagnose $* (or $exe --help)"
exit "$status"
