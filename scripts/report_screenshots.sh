#!/usr/bin/env bash
# Retakes the screenshots of the HTML pages in docs/images, one or more of each kind of page
# (report, comparison, summary, history, fleet, diagnosis), each page written by loopscope from
# the real captures and drawn by headless Chromium. Only the page's opening verdict and its
# charts are kept (the rest hidden by a script put into a copy of the page), so the images stay
# small; each image is as tall as what it shows.
# Needs a built loopscope (LOOPSCOPE, default build/test/tool/loopscope), chromium and python3,
# and the real captures (LOOPSCOPE_CAPTURES_DIR, default ../shared/captures). The fleet's image
# needs Debian's clickhouse-server (started here on a free port, its files in a temporary
# folder, stopped at the end); without it that image is left as it is, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
loopscope=${LOOPSCOPE:-build/test/tool/loopscope}
captures=${LOOPSCOPE_CAPTURES_DIR:-../shared/captures}
fv=$captures/frameview_set
work=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

chromium_run() {
    chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
        --disable-background-networking --proxy-server=127.0.0.1:9 \
        --user-data-dir="$work/profile" --virtual-time-budget=3000 "$@" 2>/dev/null
}

# shot NAME PAGE SELECTOR...: docs/images/NAME.png, 1080 px wide, of PAGE with only the first
# element each CSS selector matches shown (a selector that matches nothing is left out: a page
# without a verdict shows its charts alone). Chromium runs twice: once to measure the height of
# what is shown, once to take the picture at that height.
shot() {
    local name=$1 page=$2
    shift 2
    python3 - "$page" "$work/$name.html" "$@" <<'EOF'
import json, sys
page = open(sys.argv[1], encoding="utf-8").read()
keep = """<script>
window.addEventListener('load', function () {
  var kept = %s.map(function (s) { return document.querySelector(s); })
                .filter(function (e) { return e !== null; });
  function hide(parent) {
    for (var e of Array.prototype.slice.call(parent.children)) {
      if (kept.indexOf(e) >= 0 || e.tagName === 'SCRIPT' || e.tagName === 'STYLE') continue;
      if (kept.some(function (k) { return e.contains(k); })) hide(e);
      else e.style.display = 'none';
    }
  }
  hide(document.body);
  document.body.style.margin = '12px';
  document.documentElement.dataset.shotHeight =
      String(Math.ceil(document.body.getBoundingClientRect().bottom) + 12);
});
</script>""" % json.dumps(sys.argv[3:])
at = page.rfind("</body>")
open(sys.argv[2], "w", encoding="utf-8").write(page[:at] + keep + page[at:])
EOF
    local height
    height=$(chromium_run --window-size=1080,800 --dump-dom "file://$work/$name.html" |
        grep -o 'data-shot-height="[0-9]*"' | grep -o '[0-9]*')
    chromium_run --window-size=1080,"$height" --screenshot="docs/images/$name.png" \
        "file://$work/$name.html" >/dev/null
    echo "docs/images/$name.png (1080x$height)"
}

# Reports: the verdict and the frame-time chart of a 240 fps FrameView log, a MangoHud log
# (samples) and the virtual spiral scenario.
"$loopscope" report --format html -o "$work/fps240.page.html" "$captures/frameview_police2.csv"
shot report-240fps "$work/fps240.page.html" '#verdict' 'figure.lsc-fig'
"$loopscope" report --format html -o "$work/mangohud.page.html" "$captures/mangohud_overwatch.csv"
shot report-mangohud "$work/mangohud.page.html" 'figure.lsc-fig'
"$loopscope" run --clock virtual --scenario spiral-clamp-cap -o "$work/spiral.csv" >/dev/null
"$loopscope" report --format html -o "$work/spiral.page.html" "$work/spiral.csv"
shot report-spiral "$work/spiral.page.html" 'figure.lsc-fig'

# A comparison: two Cyberpunk runs, DLSS against native DLAA; its verdict (the comparison
# table), both frame times from t = 0 and the histograms.
"$loopscope" report --format html -o "$work/compare.page.html" \
    "$fv/fv0128_cyberpunk-rr-off_unlimited-dlss-other-scene-quality-quality.csv" \
    "$fv/fv0142_cyberpunk-rr-off_unlimited-native-dlaa-2560x1440-45-quality-equivalent.csv"
shot compare "$work/compare.page.html" '#verdict' 'figure.lsc-fig' 'figure.lsc-fig ~ figure.lsc-fig'

# A summary: two games' runs, in a folder a game, grouped by game.
mkdir -p "$work/runs/cyberpunk" "$work/runs/talos-principle-2"
for f in fv0128_cyberpunk-rr-off_unlimited-dlss-other-scene-quality-quality \
    fv0137_cyberpunk-rr-off_unlimited-native-dlaa-dlss-fg-1920x1080-25-performance-equivalent \
    fv0142_cyberpunk-rr-off_unlimited-native-dlaa-2560x1440-45-quality-equivalent; do
    cp "$fv/$f.csv" "$work/runs/cyberpunk/"
done
for f in fv0606_talos-principle-2_unlimited-dlss-fg-old-driver-performance \
    fv0614_talos-principle-2_unlimited-fsr-performance \
    fv0616_talos-principle-2_unlimited-native-dlaa-old-driver-1920x1080-25-performance-equivalent; do
    cp "$fv/$f.csv" "$work/runs/talos-principle-2/"
done
"$loopscope" report "$work/runs" --summary --labels-from-path game --group-by game \
    --format html -o "$work/summary.page.html"
shot summary "$work/summary.page.html" 'figure.bars-fig'

# A history: the Talos runs stored one after another (a build number each), each checked by the
# regression gate against the runs before it (exit 3 when it regressed, as the gate should).
build=0
for f in "$work"/runs/talos-principle-2/*.csv "$work"/runs/cyberpunk/*.csv; do
    build=$((build + 1))
    status=0
    "$loopscope" report -o /dev/null --history "$work/history.db" --label scene=benchmark \
        --run-label build=$build --fail-if-regressed avg_fps:5% "$f" 2>/dev/null || status=$?
    [ "$status" -eq 0 ] || [ "$status" -eq 3 ]
done
"$loopscope" history "$work/history.db" --figure avg_fps --figure p99_ms --format html \
    -o "$work/history.page.html"
shot history "$work/history.page.html" 'figure.lsc-fig' 'figure.lsc-fig + div' \
    'figure.lsc-fig ~ figure.lsc-fig' 'figure.lsc-fig ~ figure.lsc-fig + div'

# A fleet: the summary's captures stored in a ClickHouse of this script's own, grouped by game.
server=$(command -v clickhouse-server || true)
[ -n "$server" ] || server=/usr/sbin/clickhouse-server
if [ -x "$server" ]; then
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    ch=$work/clickhouse
    mkdir -p "$ch"
    cat >"$ch/config.xml" <<EOF
<?xml version="1.0"?>
<yandex><logger><level>warning</level><log>$ch/server.log</log><errorlog>$ch/server.err.log</errorlog><console>0</console></logger>
<listen_host>127.0.0.1</listen_host><http_port>$port</http_port><path>$ch/data/</path><tmp_path>$ch/tmp/</tmp_path>
<user_files_path>$ch/user_files/</user_files_path><format_schema_path>$ch/format_schemas/</format_schema_path>
<users_config>$ch/users.xml</users_config><default_profile>default</default_profile><default_database>default</default_database>
<mark_cache_size>67108864</mark_cache_size><uncompressed_cache_size>67108864</uncompressed_cache_size></yandex>
EOF
    cat >"$ch/users.xml" <<'EOF'
<?xml version="1.0"?>
<yandex><profiles><default/></profiles><users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users><quotas><default/></quotas></yandex>
EOF
    "$server" --config-file="$ch/config.xml" >"$ch/stdout.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 300); do
        if [ "$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/?query=SELECT%201', timeout=1).read().decode().strip())" 2>/dev/null)" = 1 ]; then
            break
        fi
        sleep 0.2
    done
    url=clickhouse://127.0.0.1:$port/fleet
    "$loopscope" report "$work/runs" --summary --labels-from-path game --store "$url" \
        --format json -o /dev/null
    "$loopscope" fleet "$url" --group-by game --format html -o "$work/fleet.page.html"
    shot fleet "$work/fleet.page.html" 'figure.bars-fig'
else
    echo "docs/images/fleet.png left as it is: clickhouse-server is not installed" >&2
fi

# The diagnosis (its quick run, about 25 s): every scenario's frame times on one chart.
"$loopscope" diagnose --quick -o "$work/diagnose" >/dev/null
shot diagnose "$work/diagnose/index.html" 'figure:has(#scenario-frame-times)' \
    'figure:has(#scenario-frame-times) + div'
