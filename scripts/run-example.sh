#!/usr/bin/env bash
# The main job: set up, build, and run the examples in examples/ end to end.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${CONV_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/build.sh"
for f in "$ROOT"/examples/*.mlir; do
  echo "== $(basename "$f"): parse, verify, print (conv-opt)"
  "$BUILD/bin/conv-opt" "$f"
done
