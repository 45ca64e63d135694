#!/usr/bin/env bash
# Set up (idempotent), configure and build ConvGen into build/ (or $CONV_BUILD_DIR).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${CONV_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh"
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPython3_EXECUTABLE="$ROOT/.venv/bin/python"
fi
cmake --build "$BUILD" -j "$(nproc)"
