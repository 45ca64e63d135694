#!/usr/bin/env bash
# Peer benchmark: ConvGen vs TensorFlow (CPU), JAX/XLA (CPU) and IREE
# (llvm-cpu) on the conv-bench shape suite, same thread counts, in one run
# (python/benchmarks/peer_bench.py; docs/Benchmarks.md, "Peer benchmark").
# Not part of ./scripts/test.sh: it needs PyPI once and takes a while.
#
#   ./scripts/peer-bench.sh                    # non-big shapes, 1 and 2 threads
#   ./scripts/peer-bench.sh --quick            # conv-bench's quick subset
#   ./scripts/peer-bench.sh --filter rn*,dcgan --threads 1 --frameworks convgen,jax
#
# It installs the pinned packages below into .venv-parity/ (the parity
# suite's venv, scripts/parity.sh: same TF/JAX/Keras pins, plus IREE and
# matplotlib), builds conv-bench (for --list-json) and libConvGenC.so in
# $CONV_BUILD_DIR (default build/), and writes its CSVs, table and plot to
# build-peer/ (--out). Extra arguments go to peer_bench.py (--help).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${CONV_BUILD_DIR:-$ROOT/build}"
VENV="$ROOT/.venv-parity"
PY_PACKAGES=(
  "tensorflow-cpu==2.21.0"
  "jax[cpu]==0.10.2"
  "keras==3.15.1"
  "numpy==2.4.6"
  "ml_dtypes==0.6.0"
  "iree-base-compiler==3.13.0"
  "iree-base-runtime==3.13.0"
  "matplotlib==3.11.2"
)

. "$ROOT/scripts/venv.sh"
ensure_venv peer-bench "$VENV" "${PY_PACKAGES[@]}"

if [ ! -f "$BUILD/build.ninja" ]; then
  CONV_BUILD_DIR="$BUILD" "$ROOT/scripts/build.sh"
else
  cmake --build "$BUILD" --target conv-bench ConvGenC
fi

export CONVGEN_LIBRARY="$BUILD/lib/libConvGenC.so"
export CONV_BENCH="$BUILD/bin/conv-bench"
export TF_CPP_MIN_LOG_LEVEL=2
exec "$VENV/bin/python" "$ROOT/python/benchmarks/peer_bench.py" "$@"
