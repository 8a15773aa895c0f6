#!/usr/bin/env bash
# Renders every page of the console with realistic data, in English and Simplified Chinese, light
# and dark, at 1280 × 800 and 1920 × 1080 (offscreen; tests/ui/tst_console.cpp rendersEveryPage and
# tst_desktopapp rendersTheFirstStart), into build/tests/screenshots/, and copies the 1280 × 800
# ones into docs/images/. Look at them before committing: a label that clips, a column that
# elides what matters, a dialog too narrow for Chinese.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${SWITCHYARD_BUILD_DIR:-build}"
scripts/build.sh >/dev/null
out="$build_dir/tests/screenshots"
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen SWITCHYARD_SCREENSHOTS="$PWD/$out"
for lang in "" zh_CN; do
    for size in 1280x800 1920x1080; do
        echo "screenshots: ${lang:-en} $size" >&2
        SWITCHYARD_SCREENSHOT_LANG="$lang" SWITCHYARD_SCREENSHOT_SIZE="$size" \
            "$build_dir/tests/tst_console" rendersEveryPage >/dev/null
    done
    SWITCHYARD_SCREENSHOT_LANG="$lang" "$build_dir/tests/tst_desktopapp" rendersTheFirstStart >/dev/null
done
# docs/images: the default size only (the larger ones are for looking at).
find "$out" -maxdepth 1 -name '*.png' ! -name '*-1920x1080*' -exec cp {} docs/images/ \;
echo "screenshots in $out; the 1280x800 ones copied to docs/images/" >&2
