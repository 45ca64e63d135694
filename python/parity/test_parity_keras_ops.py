"""convgen.conv_transpose against the public keras.ops.conv_transpose on
the backend of this process (KERAS_BACKEND=tensorflow or jax; scripts/
parity.sh runs this file once per backend). Cases: the upstream Keras
configurations (float32) and the first KERAS_OPS_RANDOM random ones, plus
the invalid cases' outcomes on this backend.
"""

import os

import numpy as np
import pytest

import cases as C
import compare
import invalid as I
import oracles as O

KERAS_OPS_RANDOM = 150
BACKEND = os.environ.get("KERAS_BACKEND", "tensorflow")
CASES = ([C.with_dtype(c, "float32") for c in C.upstream_conv_transpose()]
         + C.random_conv_transpose()[:KERAS_OPS_RANDOM])


def test_backend():
    import keras
    assert keras.backend.backend() == BACKEND


@pytest.mark.parametrize("case", CASES, ids=C.case_id)
def test_keras_ops(case):
    import keras
    assert keras.backend.backend() == BACKEND
    from test_parity_conv_transpose import exact_and_scale, jax_aborts
    x, k = C.make_inputs(case)
    got = O.convgen_conv_transpose(case, x, k)
    aborts = (jax_aborts(case, CASES[-KERAS_OPS_RANDOM:]) if case["name"].startswith("random")
              else False)
    if aborts and BACKEND == "jax":
        pytest.skip("XLA aborts the process on this case (docs/Parity.md)")
    exact, scale = exact_and_scale(case, x, k, aborts)
    base = dict(op="conv_transpose", case=case["name"], dtype=case["dtype"],
                oracle=f"keras.ops[{BACKEND}]")
    if BACKEND == "tensorflow" and C.tf_backend_accepts_transpose(case) is not None:
        with pytest.raises(Exception):
            O.keras_ops_conv_transpose(case, x, k)
        compare.record(**base, err=None, refused=True)
        return
    want = O.keras_ops_conv_transpose(case, x, k)
    from test_parity_conv_transpose import terms
    err = compare.check_close(f"ConvGen vs keras.ops ({BACKEND})", got, want, exact, scale,
                              terms(case), case["dtype"], compare.CONVGEN_ACC,
                              compare.ORACLE_ACC)
    compare.record(**base, err=err)


@pytest.mark.parametrize("case", I.conv_transpose_invalid(), ids=lambda c: c["name"])
def test_keras_ops_invalid(case):
    """The public entry point rejects/accepts like the backend function."""
    import keras
    from test_parity_errors import ct_kwargs, ct_operands, outcome
    if BACKEND == "jax" and case["note"] == "op_ge_stride":
        pytest.skip("XLA may abort the process (checked in child processes by "
                    "test_parity_errors.py)")
    x, k = ct_operands(case)
    if BACKEND == "tensorflow":  # tensors, not NumPy arrays (no silent dtype casts)
        t = O.tf()
        x, k = t.constant(x), t.constant(k)
    side, val = outcome(lambda: keras.ops.conv_transpose(x, k, **ct_kwargs(case)))
    want = case["expect"]["tf" if BACKEND == "tensorflow" else "jax"]
    assert side == want, str(val)
