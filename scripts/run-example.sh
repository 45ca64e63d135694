#!/usr/bin/env bash
# The main job: set up, build, then run every example in examples/ end to
# end: verify it (conv-opt), lower it to LLVM (conv-lower-to-llvm-cpu), JIT
# and run it on random inputs and check it against the reference (conv-run
# --check), and time it (--repeat).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${CONV_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/build.sh"
for f in "$ROOT"/examples/*.mlir; do
  name="$(basename "$f")"
  entry="$(sed -n 's/^func\.func @\([A-Za-z0-9_]*\).*/\1/p' "$f" | head -1)"
  echo "== $name: verify (conv-opt)"
  "$BUILD/bin/conv-opt" "$f" > /dev/null
  echo "== $name: lower to the LLVM dialect (conv-opt --conv-lower-to-llvm-cpu)"
  "$BUILD/bin/conv-opt" "$f" --conv-lower-to-llvm-cpu | grep -c '^ *llvm\.' \
    | sed 's/^/   LLVM dialect ops: /'
  echo "== $name: JIT, run @$entry and check against the reference (conv-run)"
  "$BUILD/bin/conv-run" "$f" --entry "$entry" --seed 1 --check --repeat 10
done
