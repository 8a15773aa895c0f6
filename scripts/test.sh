#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (ctest's summary comes last).
# Arguments go to ctest, e.g. `scripts/test.sh -L unit` for the quick subset.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
exec ctest --test-dir "${SWITCHYARD_BUILD_DIR:-build}" --output-on-failure --parallel "$(nproc)" "$@"
