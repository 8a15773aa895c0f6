#!/usr/bin/env bash
# Configures (once) and builds Switchyard into ./build with Ninja and ccache.
# Extra arguments are passed to the CMake configure step (e.g. -DSWITCHYARD_ASAN=ON).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${SWITCHYARD_BUILD_DIR:-build}"
if [ ! -f "$build_dir/build.ninja" ] || [ $# -gt 0 ]; then
    cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
fi
cmake --build "$build_dir" --parallel "$(nproc)"
