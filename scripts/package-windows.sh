#!/usr/bin/env bash
# Packs the Windows build into dist/loopscope-windows-x86_64.zip: loopscope.exe (stripped of its
# debug information: about 4 MB instead of 130), the README and the docs. Builds first with
# scripts/build-windows.sh unless NO_BUILD=1. The zip is written with CMake's
# own archiver (no zip program needed), to a temporary name first, so a failed run leaves no
# half-written zip behind.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '==> %s\n' "$*"; }

build_dir=build/windows  # the `windows` preset of CMakePresets.json
if [ "${NO_BUILD:-0}" != 1 ]; then
    TARGETS=loopscope ./scripts/build-windows.sh
fi
exe=$build_dir/tool/loopscope.exe
[ -f "$exe" ] || {
    echo "package-windows: $exe is missing: run scripts/build-windows.sh first" >&2
    exit 1
}

name=loopscope-windows-x86_64
stage=$build_dir/package/$name
zip=$PWD/dist/$name.zip
step "Staging $name in $stage"
rm -rf "$stage"
mkdir -p "$stage" dist
x86_64-w64-mingw32-strip -o "$stage/loopscope.exe" "$exe"
cp README.md "$stage/"
cp -r docs "$stage/docs"

step "Writing dist/$name.zip"
rm -f "$zip.tmp"
(cd "$build_dir/package" && cmake -E tar cf "$zip.tmp" --format=zip "$name")
mv "$zip.tmp" "$zip"
# What a user unpacks must hold the program: list the archive back and look for it.
(cd "$build_dir/package" && rm -rf check && mkdir check && cd check && cmake -E tar xf "$zip")
[ -f "$build_dir/package/check/$name/loopscope.exe" ] || {
    echo "package-windows: the zip does not hold $name/loopscope.exe" >&2
    exit 1
}
rm -rf "$build_dir/package/check"
step "dist/$name.zip: $(du -h "$zip" | cut -f1), loopscope.exe $(du -h "$stage/loopscope.exe" | cut -f1)"
