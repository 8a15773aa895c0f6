#!/usr/bin/env bash
# Installs the Debian 12 packages Switchyard builds, runs and tests with. A quick no-op when they
# are all present. Needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
    build-essential cmake ninja-build ccache pkg-config git
    qt6-base-dev qt6-base-dev-tools libqt6sql6-sqlite libqt6sql6-psql
    qt6-httpserver-dev qt6-websockets-dev qt6-charts-dev qt6-svg-dev
    qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools linguist-qt6
    qtkeychain-qt6-dev libgl-dev libqt6opengl6-dev
    libhiredis-dev libhttp-parser-dev libleveldb-dev libsnappy-dev libssl-dev
    libcurl4-openssl-dev libkainjow-mustache-dev libcmark-gfm-dev libcmark-gfm-extensions-dev # mail: SMTP, templates, Markdown
    redis-server tzdata wrk curl
    clang-14 libclang-rt-14-dev # the fuzz preset: libFuzzer + AddressSanitizer + UBSan (scripts/fuzz.sh)
    postgresql # tst_store_postgres and the other `postgres`-labelled tests run a private cluster
    prometheus # its promtool lints GET /metrics in tst_adminapi
    tinyproxy-bin # tst_webhook delivers through a real HTTP proxy ([webhook] PROXY_URL)
    python3-aiosmtpd msmtp openssl # the `smtp` tests: a private SMTP sink (Debian's /usr/bin/python3), sendmail through msmtp
    # the package (installer/): man pages from --help, and the checks tst_package runs on it
    help2man dpkg-dev fakeroot lintian desktop-file-utils appstream systemd adduser
    qt6-translations-l10n # Qt's own strings (standard buttons, file dialogs) in Chinese
    fonts-wqy-microhei # scripts/screenshots.sh renders the Chinese console (offscreen) with a CJK font
)

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
