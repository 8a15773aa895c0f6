#!/usr/bin/env bash
# Quick start: installs what is missing, builds, and starts Switchyard on its embedded defaults in
# the foreground. Arguments go to the program (e.g. --config app.ini, --data-dir DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
exec "${SWITCHYARD_BUILD_DIR:-build}/bin/switchyardd" "$@"
