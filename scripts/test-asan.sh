#!/usr/bin/env bash
# Builds the `asan` preset (AddressSanitizer + UndefinedBehaviorSanitizer, Debug) into build-asan/
# and runs the whole test suite there, halting on the first report. CI runs it after the README's
# test command. Arguments go to ctest, e.g. `scripts/test-asan.sh -R tst_cron`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake --preset asan >/dev/null
cmake --build --preset asan --parallel "$(nproc)"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
exec ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" "$@"
