#!/usr/bin/env bash
# Builds the `fuzz` preset (clang-14, libFuzzer + AddressSanitizer + UBSan) into build-fuzz/ and
# runs each fuzz target for a bounded time on a copy of its seed corpus (fuzz/corpus/<target>/;
# the repository is never written). CI runs it after the README's test command.
#
#   scripts/fuzz.sh [seconds-per-target] [target-regex]      e.g. scripts/fuzz.sh 600 cron
#
# A crash, a sanitizer report, a leak, a timeout or running out of memory fails the run: the
# reproducer is kept in build-fuzz/fuzz-artifacts/<target>/, and the command to rerun it is
# printed. SWITCHYARD_FUZZ_KEEP=1 keeps each run's grown corpus too (its folder is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
filter="${2:-.}"
timeout_s=10     # one input that takes longer is a hang (the parsers take microseconds to milliseconds)
rss_limit_mb=2048 # the machine has 24 GiB for everyone; a parser should need a tiny fraction

scripts/deps.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --parallel "$(nproc)"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

passed=0
failed=0
for binary in build-fuzz/fuzz/fuzz_*; do
    [ -f "$binary" ] && [ -x "$binary" ] || continue
    target="$(basename "$binary")"
    [[ "$target" =~ $filter ]] || continue
    work="$(mktemp -d "${TMPDIR:-/tmp}/switchyard-$target.XXXXXX")"
    cp -r "fuzz/corpus/$target" "$work/corpus" 2>/dev/null || mkdir "$work/corpus"
    artifacts="build-fuzz/fuzz-artifacts/$target"
    mkdir -p "$artifacts"
    options=(-max_total_time="$seconds" -timeout="$timeout_s" -rss_limit_mb="$rss_limit_mb"
             -artifact_prefix="$artifacts/" -print_final_stats=1)
    [ -f "fuzz/$target.dict" ] && options+=(-dict="fuzz/$target.dict")
    echo "fuzz: $target for ${seconds}s on a copy of fuzz/corpus/$target ($(ls "$work/corpus" | wc -l) seeds)"
    before="$(ls "$artifacts")"
    if "$binary" "${options[@]}" "$work/corpus" >"$work/log" 2>&1; then
        passed=$((passed + 1))
        grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$work/log" | sed "s/^/fuzz: $target: /" || true
    else
        failed=$((failed + 1))
        tail -n 60 "$work/log"
        echo "fuzz: $target FAILED"
        for found in $(comm -13 <(echo "$before") <(ls "$artifacts")); do
            case "$found" in crash-* | leak-* | timeout-* | oom-*) ;; *) continue ;; esac
            echo "fuzz: reproducer $artifacts/$found"
            echo "fuzz: rerun it with: $binary -timeout=$timeout_s -rss_limit_mb=$rss_limit_mb $artifacts/$found"
        done
    fi
    if [ "${SWITCHYARD_FUZZ_KEEP:-0}" = 1 ]; then
        echo "fuzz: $target's corpus and log are kept in $work"
    else
        rm -rf "$work"
    fi
done
echo "fuzz: $passed passed, $failed failed"
if (( passed + failed == 0 )); then
    echo "fuzz: no target matches '$filter'" >&2
    exit 1
fi
(( failed == 0 ))
