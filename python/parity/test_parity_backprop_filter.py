"""Parity of convgen's filter gradient with TensorFlow and JAX.

Every case (spec §3.1-§3.4 upstream configurations in all four dtypes, and
RANDOM_COUNT seeded random configurations, one dtype each) is computed by
ConvGen and compared with

* the float64 result (JAX, float64, on the same rounded operands),
* JAX's filter gradient (vjp of lax.conv_general_dilated) in the dtype,
* TF on the CPU where TF computes it: tf.compat.v1.nn.conv2d_backprop_filter
  and tf.raw_ops.Conv2DBackpropFilter (N = 1 via conv1d's unit H dimension,
  N = 2), tf.raw_ops.Conv3DBackpropFilterV2 (N = 3).

Where TF's CPU kernels refuse a case (channels first, dilation > 1, groups;
spec §1.4 rows 2/13/23, §1.6), the test checks that TF does raise and JAX
is the oracle. For the 2-D cases the N-D `convgen.backprop_filter` must
give bit-identical results to `convgen.conv2d_backprop_filter`.
"""

import numpy as np
import pytest

import cases as C
import compare
import oracles as O
from compare import convgen_or_xfail

UPSTREAM = C.expand_dtypes(C.upstream_backprop_filter())
RANDOM = C.random_backprop_filter()


def terms(case) -> int:
    """Products per dW element: batch * prod(out_backprop spatial)."""
    cl = case["data_format"] in C.CHANNELS_LAST_TF.values()
    sp = case["out_backprop_shape"][1:-1] if cl else case["out_backprop_shape"][2:]
    return max(1, int(case["input_shape"][0] * np.prod(sp)))


def exact_and_scale(case, x, dy):
    x64, dy64 = x.astype(np.float64), dy.astype(np.float64)
    return (O.jax_backprop_filter(case, x64, dy64),
            O.jax_backprop_filter(case, np.abs(x64), np.abs(dy64)))


def run_backprop_filter_case(case):
    x, dy = C.make_inputs(case)
    dt = case["dtype"]
    K = terms(case)
    exact, scale = exact_and_scale(case, x, dy)
    base = dict(op="backprop_filter", case=case["name"], source=case["source"], dtype=dt,
                nd=case["nd"], data_format=case["data_format"], groups=C.bf_groups(case),
                dilated=any(d > 1 for d in case["dilations"]), padding=case["padding"])

    got = convgen_or_xfail(O.convgen_backprop_filter, case, x, dy)
    assert got.dtype == x.dtype and list(got.shape) == case["filter_sizes"]
    err = compare.check_close("ConvGen vs float64", got, exact, exact, scale, K, dt,
                              compare.CONVGEN_ACC, None)
    compare.record(**base, oracle="float64", err=err)
    if case["nd"] == 2:
        nd = O.convgen_backprop_filter(case, x, dy, api="nd")
        assert np.array_equal(nd.view(np.uint8), got.view(np.uint8)), \
            "backprop_filter (N-D) != conv2d_backprop_filter"

    jx = O.jax_backprop_filter(case, x, dy)
    err = compare.check_close("ConvGen vs JAX", got, jx, exact, scale, K, dt,
                              compare.CONVGEN_ACC, compare.ORACLE_ACC)
    compare.record(**base, oracle="jax", err=err,
                   oracle_err=compare.normalized_error(jx, exact, scale))

    refusal = C.bf_tf_refusal(case)
    apis = ["compat.v1", "raw"] if case["nd"] < 3 else ["raw"]
    if refusal is None:
        for api in apis:
            tf_out = O.tf_backprop_filter(case, x, dy, api)
            name = {"compat.v1": "tf.compat.v1.nn.conv2d_backprop_filter",
                    "raw": ("tf.raw_ops.Conv3DBackpropFilterV2" if case["nd"] == 3
                            else "tf.raw_ops.Conv2DBackpropFilter")}[api]
            err = compare.check_close(f"ConvGen vs {name}", got, tf_out, exact, scale, K, dt,
                                      compare.CONVGEN_ACC, compare.ORACLE_ACC)
            compare.record(**base, oracle=name, err=err,
                           oracle_err=compare.normalized_error(tf_out, exact, scale))
    elif refusal.startswith("TF CPU: zero-size"):
        # TF's CPU kernel returns its output buffer uninitialized here
        # (docs/Parity.md); ConvGen returns zeros like JAX.
        tf_out = O.tf_backprop_filter(case, x, dy, apis[0])
        compare.record(**base, oracle="tf-zero-size-out", err=None,
                       tf_nonzero=bool(np.any(np.asarray(tf_out, np.float64) != 0)))
        assert not np.any(got.astype(np.float64))
    else:
        with pytest.raises(Exception) as info:
            O.tf_backprop_filter(case, x, dy, apis[0])
        compare.record(**base, oracle="tf-refuses", err=None, reason=refusal,
                       tf_message=str(info.value).splitlines()[0][-200:])


@pytest.mark.parametrize("case", UPSTREAM, ids=C.case_id)
def test_upstream(case):
    run_backprop_filter_case(case)


@pytest.mark.parametrize("case", RANDOM, ids=C.case_id)
def test_random(case):
    run_backprop_filter_case(case)


def test_random_count():
    assert len(RANDOM) >= 1000
    assert {c["dtype"] for c in RANDOM} == set(C.DTYPES)


def test_upstream_expected_values():
    """The hard-coded expectations of spec §3.1/§3.3 (float32), on ConvGen
    and on TF/JAX, so that a wrong oracle cannot go unnoticed."""
    expected = {
        "testConv2D2x2Depth1ValidBackpropFilter": [5, 8, 14, 17],
        "testConv2D2x2Depth3ValidBackpropFilterStride1x2": [161, 182, 287, 308],
        "testConv2DStrideTwoFilterOneSameBackpropFilter": [78],
        "testConv2DKernelSizeMatchesInputSizeBackpropFilter": [1, 2, 2, 4, 3, 6, 4, 8],
        "Conv2DBackpropFilterTest.1x1Filter": [8056, 8432, 8312, 8704, 8568, 8976],
        "Conv2DBackpropFilterTest.1x3FilterSameOutbackprop2": [7, 10, 3],
        "Conv2DBackpropFilterTest.2x2FilterStride2Same": [7, 2, 16, 5],
        "Conv2DBackpropFilterTest.Stride1x1Dilation2x1": [55, 70, 235, 250],
        "Conv2DBackpropFilterTest.KernelSizeMatchesInputSizeBackpropFilterDilation2x2":
            [1, 2, 3, 6, 7, 14, 9, 18],
        "Conv2DBackpropFilterTest.GroupedFilter": [1, 4, 3, 8, 5, 12, 7, 16],
    }
    by_name = {c["name"]: c for c in C.upstream_backprop_filter()}
    for name, want in expected.items():
        case = by_name[name]
        x, dy = C.make_inputs(case)
        got = O.convgen_backprop_filter(case, x, dy)
        np.testing.assert_allclose(got.ravel(), want, rtol=1e-6, err_msg=name)
        np.testing.assert_allclose(O.jax_backprop_filter(case, x, dy).ravel(), want,
                                   rtol=1e-6, err_msg=name)
        if C.bf_tf_refusal(case) is None:
            np.testing.assert_allclose(O.tf_backprop_filter(case, x, dy).ravel(), want,
                                       rtol=1e-6, err_msg=name)
