#!/usr/bin/env bash
# Live parity run: ConvGen against real TensorFlow, JAX and Keras
# (docs/Parity.md). Not part of ./scripts/test.sh: it needs PyPI once and
# takes a while (about an hour on 2 cores).
#
#   ./scripts/parity.sh                 # venv, build, the whole parity suite
#   ./scripts/parity.sh -k upstream     # extra arguments go to every pytest run
#   PARITY_GOLDEN=1 ./scripts/parity.sh # also regenerate test/golden/ first
#
# It creates .venv-parity/ (separate from .venv/, which the default tests
# and CI use) with pinned versions that work together on Python 3.11,
# builds ConvGen into $CONV_BUILD_DIR (default build-parity/) and runs
# python/parity under pytest: two processes with KERAS_BACKEND=tensorflow
# (backprop_filter + errors; conv_transpose through both Keras backends'
# functions + keras.ops on TF) and one with KERAS_BACKEND=jax (keras.ops on
# JAX). Logs, JSON reports and summary.md go to $BUILD/parity/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${CONV_BUILD_DIR:-$ROOT/build-parity}"
VENV="$ROOT/.venv-parity"
PY_PACKAGES=(
  "tensorflow-cpu==2.21.0"
  "jax[cpu]==0.10.2"
  "keras==3.15.1"
  "numpy==2.4.6"
  "ml_dtypes==0.6.0"
  "pytest==9.2.0"
)

. "$ROOT/scripts/venv.sh"
ensure_venv parity "$VENV" "${PY_PACKAGES[@]}"

CONV_BUILD_DIR="$BUILD" "$ROOT/scripts/build.sh"

export PYTHONPATH="$ROOT/python:$ROOT/python/parity"
export CONVGEN_LIBRARY="$BUILD/lib/libConvGenC.so"
export TF_CPP_MIN_LOG_LEVEL=2
OUT="$BUILD/parity"
mkdir -p "$OUT"
cd "$ROOT"

if [ "${PARITY_GOLDEN:-0}" = 1 ]; then
  KERAS_BACKEND=tensorflow "$VENV/bin/python" python/parity/make_golden.py
fi

# Two pytest processes with KERAS_BACKEND=tensorflow side by side (the
# ConvGen JIT compile of each configuration dominates), then keras.ops on JAX.
P=python/parity
run() {  # run NAME BACKEND FILES...
  local name=$1 backend=$2; shift 2
  KERAS_BACKEND=$backend PARITY_REPORT="$OUT/$name.json" \
    "$VENV/bin/python" -m pytest -q -p no:cacheprovider -rxXfE "$@" \
    >"$OUT/$name.log" 2>&1
}
status=0
rm -f "$OUT"/*.json
run tf-1 tensorflow $P/test_parity_backprop_filter.py $P/test_parity_errors.py \
  $P/test_parity_import_order.py "$@" & pid1=$!
run tf-2 tensorflow $P/test_parity_conv_transpose.py $P/test_parity_keras_ops.py "$@" & pid2=$!
wait $pid1 || status=$?
wait $pid2 || status=$?
run jax jax $P/test_parity_keras_ops.py "$@" || status=$?
for name in tf-1 tf-2 jax; do
  echo "== $name: $(tail -n 1 "$OUT/$name.log")"
done
"$VENV/bin/python" $P/summarize.py "$OUT/tf-1.json" "$OUT/tf-2.json" "$OUT/jax.json" \
  >"$OUT/summary.md" || status=$?
echo "parity: summary in $OUT/summary.md, pytest logs in $OUT/*.log"
[ $status = 0 ] && echo "parity: all passed" || echo "parity: FAILED (status $status)"
exit $status
