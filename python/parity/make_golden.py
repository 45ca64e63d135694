"""Generates the golden vectors in test/golden/ from real TensorFlow / JAX.

    KERAS_BACKEND=tensorflow PYTHONPATH=python:python/parity \
        .venv-parity/bin/python python/parity/make_golden.py [--out test/golden]

(scripts/parity.sh runs it with PARITY_GOLDEN=1.) It writes

* backprop_filter.npz / conv_transpose.npz: per case `cNNNN_a`, `cNNNN_b`
  (the two operands), `cNNNN_expected` (TF's CPU result in the case dtype
  where TF computes the case, else JAX's), `cNNNN_exact` (float64 result on
  the same operands, JAX in float64) and `cNNNN_scale` (the same sum on
  |a|, |b|, float32); bfloat16 arrays are stored as their uint16 bits;
* backprop_filter.json / conv_transpose.json: the case list (arguments,
  dtype, oracle, products per element, array keys);
* invalid.json: invalid / refused argument sets with TF's, Keras-JAX's
  and (when the library is present) ConvGen's outcome and message.

python/tests_golden/test_golden.py checks ConvGen against these files with
NumPy only. Shapes are kept small (the whole set is well under 5 MB).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import numpy as np  # noqa: E402

import cases as C  # noqa: E402
import invalid as I  # noqa: E402
import oracles as O  # noqa: E402

GOLDEN_SEED = {"backprop_filter": 7001, "conv_transpose": 7002}
MAX_ELEMS = 1200  # per array, golden cases only


def small(case, shapes):
    return all(int(np.prod(s)) <= MAX_ELEMS for s in shapes)


def pick_backprop_filter():
    up = [c for c in C.upstream_backprop_filter()
          if small(c, (c["input_shape"], c["out_backprop_shape"], c["filter_sizes"]))]
    out = []
    for i, c in enumerate(up):  # every upstream case in f32, every 4th in all dtypes
        for dt in (C.DTYPES if i % 8 == 0 else ["float32"]):
            out.append(C.with_dtype(c, dt))
    rnd = C.random_backprop_filter(count=64, seed=GOLDEN_SEED["backprop_filter"],
                                   max_elems=300)
    return out + rnd


def pick_conv_transpose():
    up = [c for c in C.upstream_conv_transpose()
          if small(c, (c["input_shape"], c["kernel_shape"], C.ct_output_shape(c)))]
    out = []
    for i, c in enumerate(up):
        for dt in (C.DTYPES if i % 10 == 0 else ["float32"]):
            out.append(C.with_dtype(c, dt))
    rnd = C.random_conv_transpose(count=64, seed=GOLDEN_SEED["conv_transpose"],
                                  max_elems=300)
    return out + rnd


def store(a: np.ndarray) -> np.ndarray:
    if a.dtype.name == "bfloat16":
        return a.view(np.uint16)
    return a


def bf_terms(case):
    from test_parity_backprop_filter import terms
    return terms(case)


def ct_terms(case):
    from test_parity_conv_transpose import terms
    return terms(case)


def generate(op, cases, out_dir, check_convgen):
    arrays, meta = {}, []
    for i, case in enumerate(cases):
        a, b = C.make_inputs(case)
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        if op == "backprop_filter":
            exact = O.jax_backprop_filter(case, a64, b64)
            scale = O.jax_backprop_filter(case, np.abs(a64), np.abs(b64))
            refusal = C.bf_tf_refusal(case)
            if refusal is None:
                expected = O.tf_backprop_filter(case, a, b)
                oracle = ("tf.raw_ops.Conv3DBackpropFilterV2" if case["nd"] == 3
                          else "tf.compat.v1.nn.conv2d_backprop_filter")
            else:
                expected = O.jax_backprop_filter(case, a, b)
                oracle = "jax.vjp(lax.conv_general_dilated)"
            terms = bf_terms(case)
        else:
            exact = O.keras_jax_conv_transpose(case, a64, b64)
            scale = O.keras_jax_conv_transpose(case, np.abs(a64), np.abs(b64))
            refusal = C.tf_backend_accepts_transpose(case)
            if refusal is None:
                expected = O.keras_tf_conv_transpose(case, a, b)
                oracle = "keras.ops.conv_transpose[tensorflow]"
            else:
                expected = O.keras_jax_conv_transpose(case, a, b)
                oracle = "keras.ops.conv_transpose[jax]"
            terms = ct_terms(case)
        expected = np.asarray(expected).astype(a.dtype)
        key = f"c{i:04d}"
        arrays[f"{key}_a"] = store(a)
        arrays[f"{key}_b"] = store(b)
        arrays[f"{key}_expected"] = store(expected)
        arrays[f"{key}_exact"] = exact.astype(np.float64)
        arrays[f"{key}_scale"] = scale.astype(np.float32)
        m = dict(case, key=key, oracle=oracle, terms=terms,
                 tf_refusal=refusal)
        meta.append(m)
        if check_convgen:
            import compare
            try:
                got = (O.convgen_backprop_filter(case, a, b) if op == "backprop_filter"
                       else O.convgen_conv_transpose(case, a, b))
            except Exception as e:  # noqa: BLE001
                known = [why for text, why in compare.KNOWN_CONVGEN_BUGS.items()
                         if text in str(e)]
                if not known:
                    raise
                m["convgen_known_failure"] = known[0]  # the golden test xfails it
                print(f"  known ConvGen failure: {e}")
            else:
                compare.check_close(f"golden {key} {case['name']}", got, expected, exact,
                                    scale, terms, case["dtype"], compare.CONVGEN_ACC,
                                    compare.ORACLE_ACC)
        print(f"{op} {i + 1}/{len(cases)} {case['name']} {case['dtype']} ({oracle})",
              flush=True)
    np.savez_compressed(os.path.join(out_dir, f"{op}.npz"), **arrays)
    with open(os.path.join(out_dir, f"{op}.json"), "w") as f:
        json.dump({"op": op, "generated_by": "python/parity/make_golden.py",
                   "versions": O.versions(), "cases": meta}, f, indent=1)
        f.write("\n")


def generate_invalid(out_dir, check_convgen):
    import test_parity_errors as E
    from keras.src.backend.jax import nn as jnn
    from keras.src.backend.tensorflow import nn as tfnn
    rows = []
    for case in I.backprop_filter_invalid():
        x, dy = E.bf_operands(case)
        tf_side, tf_val = E.outcome(lambda: E.tf_bf(case, x, dy))
        row = dict(case, tf=tf_side,
                   tf_message=E.first_line(tf_val) if tf_side == "reject" else None)
        if check_convgen:
            side, val = E.outcome(lambda: E.convgen_bf(case, x, dy))
            row["convgen"] = side
            row["convgen_message"] = E.first_line(val) if side == "reject" else None
        rows.append(row)
    import jax_child
    ct_cases = I.conv_transpose_invalid()
    ge = [c for c in ct_cases if c["note"] == "op_ge_stride"]
    ge_out = dict(zip([c["name"] for c in ge], jax_child.jax_outcomes(ge)))
    t = O.tf()
    for case in ct_cases:
        x, k = E.ct_operands(case)
        kw = E.ct_kwargs(case)
        tf_side, tf_val = E.outcome(lambda: np.asarray(tfnn.conv_transpose(
            t.constant(x), t.constant(k), **kw)))
        if case["name"] in ge_out:
            jax_side, jax_message = ge_out[case["name"]]
        else:
            jax_side, jax_val = E.outcome(lambda: np.asarray(jnn.conv_transpose(x, k, **kw)))
            jax_message = E.first_line(jax_val) if jax_side == "reject" else None
        row = dict(case, tf=tf_side, jax=jax_side,
                   tf_message=E.first_line(tf_val) if tf_side == "reject" else None,
                   jax_message=jax_message)
        if check_convgen:
            import convgen
            side, val = E.outcome(lambda: convgen.conv_transpose(x, k, **kw))
            row["convgen"] = side
            row["convgen_message"] = E.first_line(val) if side == "reject" else None
        rows.append(row)
    with open(os.path.join(out_dir, "invalid.json"), "w") as f:
        json.dump({"generated_by": "python/parity/make_golden.py", "versions": O.versions(),
                   "cases": rows}, f, indent=1)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                                  "test", "golden"))
    ap.add_argument("--no-convgen", action="store_true",
                    help="do not run ConvGen on the cases (only TF/JAX)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    check = not args.no_convgen
    generate("backprop_filter", pick_backprop_filter(), args.out, check)
    generate("conv_transpose", pick_conv_transpose(), args.out, check)
    generate_invalid(args.out, check)
    total = sum(os.path.getsize(os.path.join(args.out, f)) for f in os.listdir(args.out))
    print(f"golden vectors in {args.out}: {total / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
