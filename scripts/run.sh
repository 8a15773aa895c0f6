#!/usr/bin/env bash
# Quick start: installs what is missing, builds, and opens the Switchyard console on its embedded
# engine with the embedded defaults (data under the user's data directory). Arguments go to the
# program (e.g. --config app.ini, --data-dir DIR). Without a display it says so and exits non-zero;
# build/bin/switchyardd is the headless daemon.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
exec "${SWITCHYARD_BUILD_DIR:-build}/bin/switchyard" "$@"
