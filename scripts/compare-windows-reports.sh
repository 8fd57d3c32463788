#!/usr/bin/env bash
# Reports every capture of tests/data with the Linux and the Windows build (under wine) as JSON
# and checks that the two outputs are identical, figure for figure and byte for byte (wine's
# CR LF line ends aside). The ctest WindowsReports.SameJsonAsLinux runs it when the build is
# configured with -DLOOPSCOPE_WINDOWS_EXE=path/to/loopscope.exe and wine is installed;
# scripts/test-windows.sh configures that and runs it.
#
# Usage: compare-windows-reports.sh LINUX_LOOPSCOPE WINDOWS_LOOPSCOPE_EXE
# WINEPREFIX defaults to a prefix beside the .exe's build folder (build/windows/wineprefix).
set -euo pipefail
[ $# -eq 2 ] || {
    echo "usage: $0 LINUX_LOOPSCOPE WINDOWS_LOOPSCOPE_EXE" >&2
    exit 2
}
linux=$1
windows=$2
cd "$(dirname "$0")/.."
for f in "$linux" "$windows"; do
    [ -f "$f" ] || {
        echo "compare-windows-reports: $f is missing" >&2
        exit 1
    }
done
command -v wine >/dev/null || {
    echo "compare-windows-reports: wine is missing" >&2
    exit 1
}
export WINEDEBUG=-all
export WINEPREFIX=${WINEPREFIX:-$(cd "$(dirname "$windows")/.." && pwd)/wineprefix}
mkdir -p "$WINEPREFIX"
# As scripts/test-windows.sh: a persistent server and a set-up prefix first, quietly, or wine's
# helpers hold the output pipe of the first program open after it ends.
# A server this script starts is stopped when it ends, with the helpers it keeps (a persistent
# server stays otherwise, taking CPU); one already running (a script that runs this one) is left.
if wineserver -p >/dev/null 2>&1; then
    trap 'wineserver -k >/dev/null 2>&1 || true' EXIT
fi
wineboot -i >/dev/null 2>&1

failed=0
for capture in tests/data/presentmon1.csv tests/data/presentmon2.csv tests/data/presentmon24.csv \
    tests/data/presentmon24_framegen.csv tests/data/frameview_Log.csv tests/data/ocat.csv \
    tests/data/capframex.json tests/data/capframex_legacy.csv tests/data/mangohud.csv \
    tests/data/mangohud_v1.csv tests/data/plain.txt tests/data/loopscope.trace; do
    a=$("$linux" report "$capture" --format json)
    b=$(wine "$windows" report "$capture" --format json | tr -d '\r')
    if [ -z "$a" ]; then
        echo "compare-windows-reports: $capture: the Linux build wrote nothing" >&2
        failed=1
    elif [ "$a" != "$b" ]; then
        echo "compare-windows-reports: $capture: the Windows build's JSON report differs:" >&2
        diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | head -20 >&2 || true
        failed=1
    else
        echo "report $capture: identical JSON ($(printf '%s' "$a" | wc -c) bytes)"
    fi
done
exit $failed
