#!/usr/bin/env bash
# Cross-compiles loopscope for 64-bit Windows with Debian's mingw-w64 (posix thread model, linked
# statically) into build/windows: build/windows/tool/loopscope.exe and the test binary
# build/windows/tests/loopscope_tests.exe. GoogleTest is built first from Debian's sources in
# /usr/src/googletest; the header-only libraries come from Debian's packages
# (cmake/windows/packages). The viewer is left out: Debian packages no mingw SDL2 or Dear ImGui.
# LOOPSCOPE_SETUP_WINDOWS=1 ./scripts/setup.sh installs the compilers and wine.
# The build is the `windows` preset of CMakePresets.json; JOBS (default 2) may be set; TARGETS
# picks what to build (default: loopscope loopscope_tests).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '==> %s\n' "$*"; }

preset=windows
build_dir=build/$preset  # the presets' binaryDir; its GTest_DIR is $build_dir/deps below
jobs=${JOBS:-2}
targets=${TARGETS:-"loopscope loopscope_tests"}
toolchain=$PWD/cmake/windows/toolchain-mingw-w64-x86_64.cmake
command -v x86_64-w64-mingw32-g++-posix >/dev/null || {
    echo "build-windows: x86_64-w64-mingw32-g++-posix is missing" \
        "(LOOPSCOPE_SETUP_WINDOWS=1 ./scripts/setup.sh installs it)" >&2
    exit 1
}
[ -f /usr/src/googletest/CMakeLists.txt ] || {
    echo "build-windows: /usr/src/googletest is missing (scripts/setup.sh installs libgtest-dev)" >&2
    exit 1
}
# GoogleTest's install goes into $build_dir/deps (an absolute path for CMake).
mkdir -p "$build_dir/deps"
deps=$(cd "$build_dir/deps" && pwd)

# GoogleTest once per build folder (its install is the marker); gmock is not used.
if [ ! -f "$deps/lib/cmake/GTest/GTestConfig.cmake" ]; then
    step "Building GoogleTest for Windows from /usr/src/googletest into $deps"
    if ! cmake -S /usr/src/googletest -B "$build_dir/googletest" -G Ninja \
        -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$deps" -DBUILD_GMOCK=OFF -DINSTALL_GTEST=ON \
        >"$build_dir/googletest-configure.log" 2>&1; then
        cat "$build_dir/googletest-configure.log"
        exit 1
    fi
    cmake --build "$build_dir/googletest" -j "$jobs"
    cmake --install "$build_dir/googletest" >/dev/null
fi

step "Configuring the Windows build in $build_dir"
if ! cmake --preset "$preset" >"$build_dir/configure.log" 2>&1; then
    cat "$build_dir/configure.log"
    exit 1
fi
step "Building $targets ([done/total] steps)"
# shellcheck disable=SC2086 # targets is a list
NINJA_STATUS="build [%f/%t] " cmake --build --preset "$preset" -j "$jobs" --target $targets
step "Built $build_dir/tool/loopscope.exe and $build_dir/tests/loopscope_tests.exe"
