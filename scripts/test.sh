#!/usr/bin/env bash
# The whole test suite: set up, build, then lit + GoogleTest (+ pytest) under
# ctest. The closing "N% tests passed" line is ctest's summary.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${CONV_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/build.sh"
cd "$BUILD"
ctest --output-on-failure -j "$(nproc)" "$@"
