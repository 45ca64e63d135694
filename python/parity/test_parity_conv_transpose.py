"""Parity of convgen.conv_transpose with keras.ops.conv_transpose on the
TensorFlow and the JAX backends.

The backends are called through their own functions
(keras.src.backend.tensorflow.nn.conv_transpose and
keras.src.backend.jax.nn.conv_transpose: what keras.ops.conv_transpose runs
with KERAS_BACKEND=tensorflow / jax), so both run in one process;
test_parity_keras_ops.py goes through the public keras.ops entry point in
one process per backend.

Every case is compared with the float64 result (the JAX backend in
float64 on the same rounded operands) and the JAX backend in the dtype.
The TF backend is called for every channels_last, dilation-1 case: where
the spec §2.6 predicate says TF computes it, the values are compared;
where it says TF raises (same + output_padding 0 + even kernel, ...), the
test checks that TF does raise (ConvGen follows JAX there, docs/Parity.md).
"""

import numpy as np
import pytest

import cases as C
import compare
import oracles as O
from compare import convgen_or_xfail

UPSTREAM = C.expand_dtypes(C.upstream_conv_transpose())
RANDOM = C.random_conv_transpose()


def terms(case) -> int:
    """Products per output element (upper bound): Cin * prod(ceil(k/s))."""
    n = case["nd"]
    cin = case["kernel_shape"][n + 1]
    t = cin
    for i in range(n):
        k, s = case["kernel_shape"][i], case["strides"][i]
        t *= -(-k // s)
    return max(1, t)


def exact_and_scale(case, x, k, jax_aborts=False):
    x64, k64 = x.astype(np.float64), k.astype(np.float64)
    f = O.numpy_conv_transpose if jax_aborts else O.keras_jax_conv_transpose
    return f(case, x64, k64), f(case, np.abs(x64), np.abs(k64))


_ABORTS = None


def jax_aborts(case, candidates=None) -> bool:
    """True for the random cases XLA aborts the process on (found once per
    process in child processes, jax_child.py; docs/Parity.md). The upstream
    cases are run directly (none aborts)."""
    global _ABORTS
    if _ABORTS is None:
        import jax_child
        _ABORTS = jax_child.aborting_cases(RANDOM if candidates is None else candidates)
    return C.case_id(case) in _ABORTS


def run_conv_transpose_case(case):
    x, k = C.make_inputs(case)
    dt = case["dtype"]
    K = terms(case)
    aborts = jax_aborts(case)
    exact, scale = exact_and_scale(case, x, k, aborts)
    base = dict(op="conv_transpose", case=case["name"], source=case["source"], dtype=dt,
                nd=case["nd"], data_format=case["data_format"], padding=case["padding"],
                output_padding=case["output_padding"],
                dilated=any(d > 1 for d in case["dilation_rate"]))
    if aborts:
        compare.record(op="conv_transpose", kind="jax-abort", case=case["name"], dtype=dt,
                       message=_ABORTS[C.case_id(case)], valid=True)

    got = convgen_or_xfail(O.convgen_conv_transpose, case, x, k)
    assert got.dtype == x.dtype and list(got.shape) == C.ct_output_shape(case)
    err = compare.check_close("ConvGen vs float64", got, exact, exact, scale, K, dt,
                              compare.CONVGEN_ACC, None)
    compare.record(**base, oracle="float64", err=err)

    if aborts:
        err = None  # no JAX result; `exact` is the NumPy float64 reference
    else:
        jx = O.keras_jax_conv_transpose(case, x, k)
        err = compare.check_close("ConvGen vs keras JAX backend", got, jx, exact, scale, K,
                                  dt, compare.CONVGEN_ACC, compare.ORACLE_ACC)
        compare.record(**base, oracle="keras-jax", err=err,
                       oracle_err=compare.normalized_error(jx, exact, scale))

    refusal = C.tf_backend_accepts_transpose(case)
    if refusal is None:
        tf_out = O.keras_tf_conv_transpose(case, x, k)
        err = compare.check_close("ConvGen vs keras TF backend", got, tf_out, exact, scale, K,
                                  dt, compare.CONVGEN_ACC, compare.ORACLE_ACC)
        compare.record(**base, oracle="keras-tf", err=err,
                       oracle_err=compare.normalized_error(tf_out, exact, scale))
    else:
        with pytest.raises(Exception) as info:
            O.keras_tf_conv_transpose(case, x, k)
        compare.record(**base, oracle="keras-tf-refuses", err=None, reason=refusal,
                       tf_message=str(info.value).splitlines()[0][-200:])


@pytest.mark.parametrize("case", UPSTREAM, ids=C.case_id)
def test_upstream(case):
    run_conv_transpose_case(case)


@pytest.mark.parametrize("case", RANDOM, ids=C.case_id)
def test_random(case):
    run_conv_transpose_case(case)


def test_random_count():
    assert len(RANDOM) >= 1000
    assert {c["dtype"] for c in RANDOM} == set(C.DTYPES)


def test_worked_examples():
    """spec §2.3 worked examples and docs/Semantics.md §4.2 (float32)."""
    want = {
        "spec §2.3 worked example same opNone": [1, 10, 102, 20, 203, 30],
        "spec §2.3 worked example same op0": [10, 102, 20, 203, 30],
        "spec §2.3 worked example valid opNone": [1, 10, 102, 20, 203, 30, 300],
        "spec §2.3 worked example valid op1": [1, 10, 102, 20, 203, 30, 300, 0],
        "docs §4.2 same op0 even kernel": [10, 2, 20, 3],
    }
    by_name = {c["name"]: c for c in C.upstream_conv_transpose()}
    for name, values in want.items():
        case = by_name[name]
        x, k = C.make_inputs(case)
        np.testing.assert_array_equal(O.convgen_conv_transpose(case, x, k).ravel(), values)
        np.testing.assert_array_equal(O.keras_jax_conv_transpose(case, x, k).ravel(), values)
