#!/usr/bin/env bash
# Retakes the HTML report screenshots in docs/images: the plots of a 240 fps capture, of a
# MangoHud log (sampled) and of a spiral trace, each rendered by headless Chromium from the
# report's own HTML (only its plots, cut out of the page, so the images stay small).
# Needs a built loopscope (LOOPSCOPE, default build/test/tool/loopscope), chromium and python3,
# and the real captures (LOOPSCOPE_CAPTURES_DIR, default ../shared/captures).
set -euo pipefail
cd "$(dirname "$0")/.."
loopscope=${LOOPSCOPE:-build/test/tool/loopscope}
captures=${LOOPSCOPE_CAPTURES_DIR:-../shared/captures}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# plots_only PAGE OUT COUNT: the page's style and its first COUNT figures.
plots_only() {
    python3 - "$1" "$2" "$3" <<'EOF'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
style = re.search(r"<style>.*?</style>", page, re.S).group(0)
figures = re.findall(r"<figure>.*?</figure>", page, re.S)[: int(sys.argv[3])]
open(sys.argv[2], "w", encoding="utf-8").write(
    "<!DOCTYPE html><html><head><meta charset=\"utf-8\">" + style + "</head><body>"
    + "".join(figures) + "</body></html>")
EOF
}

shot() {  # shot NAME HEIGHT
    chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
        --user-data-dir="$work/profile" --screenshot="docs/images/$1.png" \
        --window-size=1080,"$2" "file://$work/$1.html" >/dev/null 2>&1
    echo "docs/images/$1.png"
}

"$loopscope" report --format html -o "$work/fps240.page.html" "$captures/frameview_police2.csv"
plots_only "$work/fps240.page.html" "$work/report-240fps.html" 1
shot report-240fps 330

"$loopscope" report --format html -o "$work/mangohud.page.html" "$captures/mangohud_overwatch.csv"
plots_only "$work/mangohud.page.html" "$work/report-mangohud.html" 1
shot report-mangohud 330

"$loopscope" run --clock virtual --scenario spiral-clamp-cap -o "$work/spiral.csv" >/dev/null
"$loopscope" report --format html -o "$work/spiral.page.html" "$work/spiral.csv"
plots_only "$work/spiral.page.html" "$work/report-spiral.html" 1
shot report-spiral 330
