#!/usr/bin/env bash
# Regenerates the TableGen-generated reference docs that are committed in the
# repository:
#   docs/Dialects/ConvDialect.md  (mlir-tblgen -gen-dialect-doc, ConvOps.td)
#   docs/Passes.md                (mlir-tblgen -gen-pass-doc, Conversion/Passes.td)
#   docs/CodegenPasses.md         (mlir-tblgen -gen-pass-doc, Codegen/Passes.td)
# The same files are produced in the build tree by the CMake target `mlir-doc`
# (build/docs/Dialects/ConvDialect.md, build/docs/ConvConversionPasses.md).
#
# Usage: scripts/gen-docs.sh           rewrite the files
#        scripts/gen-docs.sh --check   exit 1 if a committed file is stale
# MLIR_TBLGEN overrides the mlir-tblgen binary (default: LLVM 22's).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TBLGEN="${MLIR_TBLGEN:-/usr/lib/llvm-22/bin/mlir-tblgen}"
MLIR_INCLUDE="$(dirname "$(dirname "$TBLGEN")")/include"
[ -d "$MLIR_INCLUDE/mlir" ] || MLIR_INCLUDE=/usr/lib/llvm-22/include

check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

if [ ! -x "$TBLGEN" ]; then
  echo "gen-docs: $TBLGEN not found (run scripts/setup.sh or set MLIR_TBLGEN)" >&2
  exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

gen() { # <output relative to ROOT> <tblgen args...>
  local out="$1"; shift
  "$TBLGEN" -I "$ROOT/include" -I "$MLIR_INCLUDE" "$@" -o "$tmp/out.md"
  if ((check)); then
    if ! cmp -s "$tmp/out.md" "$ROOT/$out"; then
      echo "gen-docs: $out is stale; run scripts/gen-docs.sh" >&2
      return 1
    fi
  else
    mkdir -p "$(dirname "$ROOT/$out")"
    cp "$tmp/out.md" "$ROOT/$out"
    echo "gen-docs: wrote $out"
  fi
}

status=0
gen docs/Dialects/ConvDialect.md -gen-dialect-doc -dialect=conv \
  "$ROOT/include/conv/Dialect/Conv/IR/ConvOps.td" || status=1
gen docs/Passes.md -gen-pass-doc \
  "$ROOT/include/conv/Conversion/Passes.td" || status=1
gen docs/CodegenPasses.md -gen-pass-doc \
  "$ROOT/include/conv/Codegen/Passes.td" || status=1
exit "$status"
