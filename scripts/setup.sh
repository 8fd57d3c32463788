#!/usr/bin/env bash
# Installs the Debian 12 packages loopscope needs to build and test, and nothing that is already
# there. Says what it checks and what it installs; needs root (or sudo) only when something is
# missing. LOOPSCOPE_SETUP_BROWSER=0 leaves out Chromium (only the HTML rendering test uses it);
# LOOPSCOPE_SETUP_FUZZ=1 adds clang for scripts/fuzz.sh; LOOPSCOPE_SETUP_WINDOWS=1 adds
# mingw-w64 and wine for scripts/build-windows.sh and scripts/test-windows.sh;
# LOOPSCOPE_SETUP_CLICKHOUSE=1 adds Debian's ClickHouse server and client for the tests of
# `report --store` and `fleet` (they start a server of their own; the system's service is not
# started by the install). Then Chrome
# DevTools' trace engine (npm @paulirish/trace_engine, the version and its dependencies pinned by
# tests/trace_engine/package-lock.json) goes into .cache/npm, which git ignores, for the test
# that loads loopscope's Chrome traces with it.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

packages=(
    build-essential cmake pkg-config ninja-build
    libcli11-dev nlohmann-json3-dev libfmt-dev libfast-float-dev
    libgtest-dev libgmock-dev libbenchmark-dev libsqlite3-dev libcurl4-openssl-dev
    libsdl2-dev libimgui-dev libstb-dev libgl-dev libegl-dev libgl1-mesa-dri libegl-mesa0
    rt-tests cmark-gfm libjs-dygraphs
)
if [ "${LOOPSCOPE_SETUP_BROWSER:-1}" != 0 ]; then
    packages+=(chromium)
fi
# The fuzz stage (scripts/fuzz.sh, run by .ci/run) needs clang and its libFuzzer runtime.
if [ "${LOOPSCOPE_SETUP_FUZZ:-0}" = 1 ]; then
    packages+=(clang libclang-rt-14-dev)
fi
# The Windows cross build: mingw-w64's posix-thread compilers, and wine to run what they make.
if [ "${LOOPSCOPE_SETUP_WINDOWS:-0}" = 1 ]; then
    # python3 reads the probes' JSON in scripts/test-windows.sh.
    packages+=(g++-mingw-w64-x86-64-posix wine wine64 python3)
fi
# ClickHouse (Debian 12 ships 18.16) for the tests of `report --store` and `fleet`.
if [ "${LOOPSCOPE_SETUP_CLICKHOUSE:-0}" = 1 ]; then
    packages+=(clickhouse-server clickhouse-client)
fi
# node and npm from Debian unless they are there already (a NodeSource nodejs brings its own npm,
# which Debian's npm package would conflict with).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    packages+=(nodejs npm)
fi

# The trace engine, installed with `npm ci` from the committed lock file; again only when the
# installed copy is not that lock file's.
install_trace_engine() {
    local npm_dir="$repo/.cache/npm" lock="$repo/tests/trace_engine/package-lock.json"
    if ! command -v npm >/dev/null; then
        echo "setup: npm is missing: the Chrome trace engine test will be skipped" >&2
        return 0
    fi
    if [ -f "$npm_dir/node_modules/@paulirish/trace_engine/package.json" ] &&
        cmp -s "$lock" "$npm_dir/package-lock.json"; then
        echo "setup: the Chrome trace engine is installed in $npm_dir" >&2
        return 0
    fi
    echo "setup: installing the Chrome trace engine (npm ci) into $npm_dir" >&2
    mkdir -p "$npm_dir"
    cp "$repo/tests/trace_engine/package.json" "$lock" "$npm_dir/"
    (cd "$npm_dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
}

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all ${#packages[@]} Debian packages loopscope needs are installed" >&2
    install_trace_engine
    exit 0
fi

echo "setup: installing ${#missing[@]} of ${#packages[@]} Debian packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
echo "setup: apt-get update" >&2
$sudo apt-get update -qq >/dev/null
# A package's service is not started by its install (clickhouse-server's would run as a system
# daemon, and its start failing, as where there is no init system, would fail the install): a
# policy-rc.d that denies every start while apt runs, unless the system has one already.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# scripts/setup.sh: no service starts while it installs packages\nexit 101\n' |
        $sudo tee "$policy" >/dev/null
    $sudo chmod 755 "$policy"
    own_policy=1
    trap '$sudo rm -f "$policy"' EXIT
fi
# One line a package as apt sets it up (dependencies included), so a long install shows progress;
# the whole output is kept for an error.
log=$(mktemp)
set +o pipefail
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" 2>&1 | tee "$log" |
    grep --line-buffered '^Setting up ' |
    awk '{ printf "setup: [%d] set up %s\n", NR, $3; fflush() }' >&2
status=${PIPESTATUS[0]}
set -o pipefail
if [ "$own_policy" = 1 ]; then
    $sudo rm -f "$policy"
    trap - EXIT
fi
if [ "$status" != 0 ]; then
    cat "$log" >&2
    rm -f "$log"
    echo "setup: apt-get install failed (exit $status; its output is above)" >&2
    exit 1
fi
rm -f "$log"
install_trace_engine
echo "setup: done" >&2
