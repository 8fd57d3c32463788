#!/usr/bin/env bash
# Installs what loopscope needs to build and test on Debian 12, and nothing that is already
# there. Quiet when everything is installed. Needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
    build-essential cmake pkg-config ninja-build
    libcli11-dev nlohmann-json3-dev libfmt-dev libfast-float-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    libsdl2-dev libimgui-dev libstb-dev libgl-dev libegl-dev libgl1-mesa-dri libegl-mesa0
    rt-tests
)
# The HTML report test renders in a headless browser; LOOPSCOPE_SETUP_BROWSER=0 skips it.
if [ "${LOOPSCOPE_SETUP_BROWSER:-1}" != 0 ]; then
    packages+=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
