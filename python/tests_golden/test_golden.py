"""ConvGen against the golden vectors of test/golden/ (TensorFlow/JAX
outputs recorded by python/parity/make_golden.py, docs/Parity.md).

Needs NumPy, ml_dtypes (bfloat16 cases) and convgen only: no TensorFlow,
JAX or Keras. Runs under ctest as `golden`.

Each value case is checked twice, element-wise:

* against `exact` (float64 on the same operands) with ConvGen's own bound
  (f32 accumulation for f16/bf16/f32, one final rounding);
* against `expected` (TF's CPU result, or JAX's where TF's CPU kernels
  refuse the case) with ConvGen's bound plus the oracle's (which may
  accumulate 16-bit types in the element type).

Invalid argument sets: ConvGen must raise ValueError where TF/Keras reject
them (and where ConvGen's documented choice is to reject), and accept the
TF-CPU-only refusals.
"""

import json
import os

import numpy as np
import pytest

import convgen

try:
    import ml_dtypes
except ImportError:  # pragma: no cover - .venv has it (scripts/setup.sh)
    ml_dtypes = None

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "test", "golden")

UNIT_ROUNDOFF = {"float16": 2.0**-11, "bfloat16": 2.0**-8,
                 "float32": 2.0**-24, "float64": 2.0**-53}
CONVGEN_ACC = {"float16": 2.0**-24, "bfloat16": 2.0**-24,
               "float32": 2.0**-24, "float64": 2.0**-53}
ORACLE_ACC = {"float16": 2.0**-11, "bfloat16": 2.0**-8,
              "float32": 2.0**-24, "float64": 2.0**-53}
TINY = {"float16": 2.0**-24, "bfloat16": 2.0**-133,
        "float32": 2.0**-149, "float64": 5e-324}


def bound(dtype, exact, scale, terms, acc):
    return 2 * (UNIT_ROUNDOFF[dtype] * np.abs(exact)
                + (terms + 2) * acc[dtype] * scale) + TINY[dtype]


def load(op):
    with open(os.path.join(GOLDEN, f"{op}.json")) as f:
        meta = json.load(f)
    arrays = np.load(os.path.join(GOLDEN, f"{op}.npz"))
    return meta["cases"], arrays


def np_dtype(name):
    if name == "bfloat16":
        if ml_dtypes is None:
            pytest.skip("bfloat16 needs ml_dtypes")
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def restore(a, dtype):
    dt = np_dtype(dtype)
    return a.view(dt) if dt.name == "bfloat16" else a.astype(dt)


BF_CASES, BF_ARRAYS = load("backprop_filter")
CT_CASES, CT_ARRAYS = load("conv_transpose")


def case_id(c):
    return f"{c['key']}-{c['name']}-{c['dtype']}"


def spatial_first(data_format):
    return data_format in ("NWC", "NHWC", "NDHWC")


def run_backprop_filter(case, a, b):
    n = case["nd"]
    if n == 2:  # the TF signature
        cl = spatial_first(case["data_format"])
        four = (lambda v: [1, *v, 1]) if cl else (lambda v: [1, 1, *v])
        if case["padding"] == "EXPLICIT":
            pairs = [list(p) for p in case["explicit"]]
            padding = [[0, 0], *pairs, [0, 0]] if cl else [[0, 0], [0, 0], *pairs]
        else:
            padding = case["padding"]
        return convgen.conv2d_backprop_filter(
            a, case["filter_sizes"], b, four(case["strides"]), padding,
            data_format=case["data_format"], dilations=four(case["dilations"]))
    padding = ([list(p) for p in case["explicit"]] if case["padding"] == "EXPLICIT"
               else case["padding"])
    return convgen.backprop_filter(a, case["filter_sizes"], b, case["strides"], padding,
                                   data_format=case["data_format"],
                                   dilations=case["dilations"])


def run_conv_transpose(case, a, b):
    op = case["output_padding"]
    return convgen.conv_transpose(
        a, b, strides=case["strides"], padding=case["padding"],
        output_padding=None if op is None else list(op), data_format=case["data_format"],
        dilation_rate=case["dilation_rate"])


def check(case, arrays, run):
    key, dt = case["key"], case["dtype"]
    if case.get("convgen_known_failure"):  # recorded by make_golden.py
        try:
            run(case, restore(arrays[f"{key}_a"], dt), restore(arrays[f"{key}_b"], dt))
        except ValueError:
            pytest.xfail(case["convgen_known_failure"])
    a = restore(arrays[f"{key}_a"], dt)
    b = restore(arrays[f"{key}_b"], dt)
    expected = restore(arrays[f"{key}_expected"], dt).astype(np.float64)
    exact = arrays[f"{key}_exact"]
    scale = arrays[f"{key}_scale"].astype(np.float64)
    got = run(case, a, b)
    assert got.dtype == a.dtype
    assert got.shape == exact.shape
    got = got.astype(np.float64)
    own = bound(dt, exact, scale, case["terms"], CONVGEN_ACC)
    oracle = bound(dt, exact, scale, case["terms"], ORACLE_ACC)
    for what, ref, tol in (("float64", exact, own),
                           (case["oracle"], expected, own + oracle)):
        diff = np.abs(got - ref)
        bad = diff > tol
        if bad.any():
            i = tuple(np.argwhere(bad)[0])
            raise AssertionError(
                f"{case['name']} ({dt}) vs {what}: {int(bad.sum())} of {bad.size} elements "
                f"differ; first at {i}: got {got[i]!r}, expected {ref[i]!r}, bound {tol[i]!r}")


@pytest.mark.parametrize("case", BF_CASES, ids=case_id)
def test_backprop_filter(case):
    check(case, BF_ARRAYS, run_backprop_filter)


@pytest.mark.parametrize("case", CT_CASES, ids=case_id)
def test_conv_transpose(case):
    check(case, CT_ARRAYS, run_conv_transpose)


with open(os.path.join(GOLDEN, "invalid.json")) as _f:
    INVALID = json.load(_f)["cases"]


def operand(shape, dtype):
    return np.zeros(shape, np.int32 if dtype == "int32" else np_dtype(dtype))


def run_invalid(case):
    if case["op"] == "backprop_filter":
        x = operand(case["x_shape"], case["dtype"])
        dy = operand(case["dy_shape"], case["dy_dtype"])
        if case["api"] == "conv2d":
            return convgen.conv2d_backprop_filter(
                x, case["filter_sizes"], dy, case["strides"], case["padding"],
                data_format=case["data_format"], dilations=case["dilations"])
        return convgen.backprop_filter(x, case["filter_sizes"], dy, case["strides"],
                                       case["padding"], data_format=case["data_format"],
                                       dilations=case["dilations"])
    x = operand(case["x_shape"], case["dtype"])
    k = operand(case["k_shape"], case["k_dtype"])
    return convgen.conv_transpose(x, k, strides=case["strides"], padding=case["padding"],
                                  output_padding=case["output_padding"],
                                  data_format=case["data_format"],
                                  dilation_rate=case["dilation_rate"])


@pytest.mark.parametrize("case", INVALID, ids=lambda c: f"{c['op']}-{c['name']}")
def test_invalid(case):
    """ConvGen's expected outcome; TF's recorded outcome must be the one
    the parity suite expects (a changed TF is caught by the live run)."""
    assert case["tf"] == case["expect"]["tf"]
    if case["expect"]["convgen"] == "reject":
        with pytest.raises(ValueError):
            run_invalid(case)
    else:
        out = run_invalid(case)
        assert isinstance(out, np.ndarray)


def test_golden_size():
    """A few hundred cases, a few MB at most."""
    assert len(BF_CASES) >= 150 and len(CT_CASES) >= 150 and len(INVALID) >= 300
    size = sum(os.path.getsize(os.path.join(GOLDEN, f)) for f in os.listdir(GOLDEN))
    assert size < 5_000_000
