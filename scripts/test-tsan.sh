#!/usr/bin/env bash
# Builds the `tsan` preset (ThreadSanitizer, RelWithDebInfo) into build-tsan/ and runs the whole
# test suite there, halting on the first report (daemons and children under test included: their
# reports make them exit 66). CI runs it after the ASan run. Arguments go to ctest, e.g.
# `scripts/test-tsan.sh -R tst_cron`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake --preset tsan >/dev/null
cmake --build --preset tsan --parallel "$(nproc)"
exec ctest --test-dir build-tsan --output-on-failure --parallel "$(nproc)" "$@"
