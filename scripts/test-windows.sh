#!/usr/bin/env bash
# Runs the Windows build (scripts/build-windows.sh) under wine: the test binary, then
# `loopscope.exe probe clocks --json -` (checked for QueryPerformanceCounter and the timer
# resolution) and `probe timers --quick --json -` (the Windows waits and the limiters), then the
# ctest WindowsReports.SameJsonAsLinux: `loopscope report CAPTURE --format json` of every capture
# of tests/data by both builds, which must be identical (scripts/compare-windows-reports.sh).
# Wine's timing calls are partly stubs (docs/windows.md), so the checks are about code paths
# and structure, never Windows' own quantization.
#
# LINUX_LOOPSCOPE is the Linux program to compare with (default build/test/tool/loopscope);
# NO_BUILD=1 uses build/windows as it is; GTEST_FILTER replaces the test binary's filter below.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '==> %s\n' "$*"; }

build_dir=build/windows  # the `windows` preset of CMakePresets.json
linux_loopscope=${LINUX_LOOPSCOPE:-build/test/tool/loopscope}
command -v wine >/dev/null || {
    echo "test-windows: wine is missing (LOOPSCOPE_SETUP_WINDOWS=1 ./scripts/setup.sh installs it)" >&2
    exit 1
}
[ -x "$linux_loopscope" ] || {
    echo "test-windows: $linux_loopscope is missing: build Linux first (scripts/test.sh)" \
        "or set LINUX_LOOPSCOPE" >&2
    exit 1
}
if [ "${NO_BUILD:-0}" != 1 ]; then
    ./scripts/build-windows.sh
fi
exe=$build_dir/tool/loopscope.exe
tests_exe=$build_dir/tests/loopscope_tests.exe

# Wine's own diagnostics off; a prefix of our own so that a user's ~/.wine is left alone. The
# wine server is started persistent (-p) and the prefix set up (wineboot -i) before anything is
# run, with their output to /dev/null: otherwise wine's helper processes, started by the first
# program, hold its output pipe open after it ends.
export WINEDEBUG=-all
export WINEPREFIX=${WINEPREFIX:-$PWD/$build_dir/wineprefix}
step "Starting wine (prefix $WINEPREFIX)"
mkdir -p "$WINEPREFIX"
# A server this script starts is stopped when it ends, with the helpers it keeps (a persistent
# server stays otherwise, taking CPU); one already running (a script that runs this one) is left.
started_server=0
clocks=
timers=
cleanup() {
    rm -f ${clocks:+"$clocks"} ${timers:+"$timers"}
    if [ "$started_server" = 1 ]; then wineserver -k >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
if wineserver -p >/dev/null 2>&1; then
    started_server=1
fi
wineboot -i >/dev/null 2>&1

# Left out under wine: the end-to-end tests that run loopscope through a POSIX shell (std::system
# with sh quoting, /dev/null, pipes, signals: under wine that is cmd.exe) - this script runs the
# CLI itself below instead -, the tests that run the build's own compiler on the recorder header
# (a Linux program, through the same shell), and the few tests of Linux facts (the load average, the error text of
# opening a folder, the build/test paths the docs name).
not_under_wine=(
    CliErrors.*
    CliProgress.*
    Diagnose.*
    DocsPaths.*
    ProbeClocksCommand.*
    ProbeCompareCommand.*
    Program.*
    ReplayCommand.*
    ReportCli.*
    ReportCliMalformed.*
    ReportHtmlPlots.*
    ReportHtmlRender.*
    HtmlPagesRender.*
    ChartBrowser.*
    RunCommand.*
    SummaryCli.*
    TimerCli.*
    ChromeTrace.ALoopscopeHitchIsTheLongFrameFromItsStart
    CliHelp.EveryCommandsHelpFitsEightyColumnsWithoutLibraryArtefacts
    CliHelp.UsageShowsReportTakesOneOrTwoFilesAndRunListsItsClocks
    CutTrace.TheReportCommandReadsACutTraceAndSaysSo
    MachineLoad.ThisMachineCanBeRead
    ProbeJson.ADocumentWrittenByProbeClocksReadsBackInTheDocumentedOrder
    ReadersMalformed.FolderInsteadOfAFile
    Reliability.ABadSweepValueIsRefusedBeforeTheTraceIsWritten
    Reliability.AMinifiedCapFrameXJsonOverSixteenMebibytesIsRead
    Reliability.AReportNeverReplacesItsOwnInputEvenThroughALink
    Reliability.ATraceInAMissingFolderIsRefusedOnEveryClock
    Reliability.ControlBytesInANameNeverReachTheTerminal
    Reliability.CtrlCOrSigtermLeavesNoTemporaryFileBehind
    Reliability.DiagnoseRefusesAnEmptyOutputFolder
    Reliability.HtmlOfACaptureWhoseStartsDoNotAdvanceEnds
    Reliability.JsonNestedMillionsOfLevelsDeepIsRefusedAtADepthLimit
    Reliability.StandardInputAndPipesAreReadOnce
    Reliability.TextThatIsNotUtf8IsReplacedInJsonAndTheNotesSaySo
    RecorderDisabled.TheHeaderPreprocessesToAFewLinesInCpp17AndCpp20
    RecorderDisabled.TheSameGameCompilesWithRecordingOnAndOff
    ReportGolden.FiguresMatchTheIndependentComputation
    FrameGenerationTestData.XeSSThreeFrameCyclesInThePresentMon1Layout
    FrameViewSet.ItsSummaryFileIsRefusedInOneLine
    ReadersDataQuality.AllZeroFrameTimesHaveNoFrameRate
    ReadersDataQuality.EveryOutputStatesIt
    ReadersDataQuality.ToolSummariesAreRefusedNamingTheFileToGive
    RecorderHeader.WithRecordingOnAGameFileStaysSmallAndIncludesNoOsHeader
    SampledLogFigures.ChromeTraceIsACounterAtTheSampleTimes
    SampledLogFigures.TheSystemLinesAreInTheReportsContext
    SampledLogFigures.TwoSampledLogsCompareOnTheirSamples
    TestData.GeneratorWritesTheCommittedFilesByteForByte
    TimeAxis.TheReportCommandSelectsTheHitchItLists
    TimeAxis.ChromeTraceAndHtmlGiveTheReportsTimes
    LatencyOutputs.HitchListsGiveEachCauseAndHtmlPlotsLatency
    ComparisonTimeline.TwoLayoutsOfOneRecordingAreComparedOverThePresentsBothHold
    RecorderZones.ANinetyMillisecondLoadIsAZoneInItsHitchAndTheMarkIsRead
    RecorderZones.TheChromeTraceHasTheZonesAsSlicesAndTheMarkAsAnInstant
    Reliability.MessagesSayWhatWasMeantAndWhy
    ReportGolden.TestDataPresentMon1xFiguresMatchTheIndependentComputation
    Verdict.ALoopInASpiralIsNotSmoothThoughItsFramesAreEven
    VerdictRealCaptures.ComparisonHtmlGivesEachCaptureItsVerdict
    VerdictRealCaptures.ComparisonOpensWithItsVerdict
    VerdictRealCaptures.HtmlOpensWithTheVerdictAndFoldsTheReference
    VerdictRealCaptures.TerminalShowsHitchesAndLowWithinFifteenLines
)
filter=${GTEST_FILTER:-"-$(IFS=:; echo "${not_under_wine[*]}")"}
step "Running $tests_exe under wine (${#not_under_wine[@]} end-to-end and Linux-only tests left out)"
# A test that crashes ends the binary with wine's crash report and, through wine's debugger, can
# still leave exit status 0: the run counts only when GoogleTest wrote its report of every test.
results=$build_dir/tests/wine-results.xml
rm -f "$results"
(cd "$build_dir/tests" &&
    wine ./loopscope_tests.exe --gtest_brief=1 --gtest_filter="$filter" \
        --gtest_output="xml:wine-results.xml")
if [ ! -s "$results" ] || ! grep -q '<testsuites .*failures="0".*errors="0"' "$results"; then
    echo "test-windows: the test binary under wine did not finish every test (a crash, or a" \
        "failure): $results is missing or lists failures" >&2
    exit 1
fi

step "loopscope.exe probe clocks --json -"
clocks=$(mktemp)
wine "$exe" probe clocks --json - >"$clocks"
python3 - "$clocks" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
context = doc["context"]
r = context.get("timer_resolution")
assert r and all(isinstance(r[k], int) and r[k] > 0 for k in ("min_ns", "max_ns", "current_ns")), \
    f"context.timer_resolution: expected min_ns, max_ns, current_ns > 0, got {r}"
assert r["max_ns"] <= r["current_ns"] <= r["min_ns"], f"timer resolution out of order: {r}"
assert context["platform"] == "windows", f"context.platform: {context.get('platform')}"
for key in ("timer_throttling", "power_plan"):
    assert isinstance(context.get(key), str) and context[key], f"context.{key}: {context.get(key)}"
clocks = {c["name"]: c for c in doc["clocks"]}
qpc = clocks.get("QueryPerformanceCounter")
assert qpc and qpc["ticks_per_second"] > 0, "no QueryPerformanceCounter with its ticks_per_second"
for name in ("GetTickCount64", "timeGetTime", "GetSystemTimePreciseAsFileTime",
             "GetSystemTimeAsFileTime"):
    assert name in clocks, f"{name} missing from the clocks"
print(f"probe clocks: {len(clocks)} clocks, QueryPerformanceCounter at "
      f"{qpc['ticks_per_second']:.0f} Hz, timer resolution {r}")
PY

step "loopscope.exe probe timers --quick --json -"
timers=$(mktemp)
wine "$exe" probe timers --quick --json - >"$timers"
python3 - "$timers" <<'PY'
import json, sys
timers = json.load(open(sys.argv[1]))["timers"]
methods = {r["method"] for r in timers["one_shot"]}
for name in ("Sleep", "Sleep 1ms period", "Sleep finest period", "SleepEx", "Sleep(0) loop",
             "SwitchToThread loop", "waitable timer"):
    assert name in methods, f"timers.one_shot has no {name} (has {sorted(methods)})"
limiters = {r["limiter"] for r in timers["limiters"]}
assert {"sleep", "spin", "adaptive spin", "sleep+spin 2ms (Sleep)", "adaptive spin (Sleep)"} \
    <= limiters, f"timers.limiters: {sorted(limiters)}"
periodic = [r["scheduling"] for r in timers["periodic"]]
for variant in ("hi-res timer abs", "waitable timer abs", "MMCSS Games"):
    assert any(s.endswith(variant) for s in periodic), f"no periodic {variant} row: {periodic}"
recommended = {r["limiter"] for r in timers["recommendations"]}
assert timers["periodic"] and timers["recommendations"], "no periodic rows or recommendations"
assert all(r["samples"] > 0 for r in timers["one_shot"]), "a one-shot row without samples"
print(f"probe timers: {len(methods)} ways to wait, limiters {sorted(limiters)}, "
      f"periodic rows {periodic}, recommended {sorted(str(r) for r in recommended)}")
PY

# The ctest that reports every capture of tests/data with both builds and compares the JSON
# (scripts/compare-windows-reports.sh): registered by giving the Linux build the .exe's path.
linux_build=$(dirname "$(dirname "$linux_loopscope")")
step "ctest WindowsReports.SameJsonAsLinux in $linux_build: reports of tests/data, Linux and Windows"
cmake -S . -B "$linux_build" -DLOOPSCOPE_WINDOWS_EXE="$PWD/$exe" >/dev/null
ctest --test-dir "$linux_build" -R '^WindowsReports\.' --output-on-failure
step "The Windows build passed under wine"
