"""Error behaviour: for every invalid argument set of invalid.py, TF / Keras
(TF and JAX backends) and ConvGen each reject or accept as declared.
ConvGen must raise ValueError (never abort) whenever it rejects; where it
accepts a case TF's CPU kernels refuse, its values must equal JAX's.
"""

import numpy as np
import pytest

import cases as C
import compare
import invalid as I
import oracles as O

BF = I.backprop_filter_invalid()
CT = I.conv_transpose_invalid()
LAYER = I.keras_layer_invalid()


def arr(shape, dtype, seed=0):
    if min(shape, default=1) < 0:
        raise ValueError(shape)
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, size=shape)
    if dtype == "int32":
        return (a * 4).astype(np.int32)
    return a.astype(C.np_dtype(dtype))


def outcome(fn):
    """("accept", value) or ("reject", exception)."""
    try:
        return "accept", fn()
    except Exception as e:  # noqa: BLE001 - any library error counts as a rejection
        return "reject", e


def first_line(e) -> str:
    text = str(e).strip()
    if not text:
        return type(e).__name__
    line = text.splitlines()[0]
    if line.startswith("{{function_node") and "}} " in line:
        line = line.split("}} ", 1)[1]  # TF's device prefix
    return line[:240]


def bf_operands(case):
    return arr(case["x_shape"], case["dtype"], 1), arr(case["dy_shape"], case["dy_dtype"], 2)


def tf_bf(case, x, dy):
    t = O.tf()
    # TF tensors (not NumPy arrays, which the eager op would silently cast
    # to the first operand's dtype).
    x, dy = t.constant(x), t.constant(dy)
    if case["api"] == "conv2d":
        return t.compat.v1.nn.conv2d_backprop_filter(
            x, case["filter_sizes"], dy, case["strides"], case["padding"],
            data_format=case["data_format"], dilations=case["dilations"]).numpy()
    cl = case["data_format"] == "NDHWC"
    five = (lambda v: [1, *v, 1]) if cl else (lambda v: [1, 1, *v])
    return t.raw_ops.Conv3DBackpropFilterV2(
        input=x, filter_sizes=t.constant(case["filter_sizes"], t.int32), out_backprop=dy,
        strides=five(case["strides"]), padding=case["padding"], data_format=case["data_format"],
        dilations=five(case["dilations"])).numpy()


def convgen_bf(case, x, dy):
    import convgen
    if case["api"] == "conv2d":
        return convgen.conv2d_backprop_filter(
            x, case["filter_sizes"], dy, case["strides"], case["padding"],
            data_format=case["data_format"], dilations=case["dilations"])
    return convgen.backprop_filter(x, case["filter_sizes"], dy, case["strides"],
                                   case["padding"], data_format=case["data_format"],
                                   dilations=case["dilations"])


def bf_as_case(case):
    """The valid-case dict (cases.bf_case) of an accepted invalid.py case."""
    cl = case["data_format"] in C.CHANNELS_LAST_TF.values()
    sp = slice(1, 3) if case["api"] == "conv2d" and cl else slice(2, 4)
    s = case["strides"][sp] if case["api"] == "conv2d" else case["strides"]
    d = case["dilations"][sp] if case["api"] == "conv2d" else case["dilations"]
    c = C.bf_case(case["name"], case["row"], case["x_shape"], case["filter_sizes"], s,
                  case["padding"], dilations=d, data_format=case["data_format"],
                  dtype=case["dtype"], out_backprop_shape=case["dy_shape"])
    return c


@pytest.mark.parametrize("case", BF, ids=lambda c: c["name"])
def test_backprop_filter_invalid(case):
    try:
        x, dy = bf_operands(case)
    except ValueError:
        pytest.skip("negative shape")
    tf_side, tf_val = outcome(lambda: tf_bf(case, x, dy))
    cg_side, cg_val = outcome(lambda: convgen_bf(case, x, dy))
    compare.record(op="backprop_filter", kind="invalid", case=case["name"], row=case["row"],
                   note=case["note"], tf=tf_side, convgen=cg_side,
                   expect=case["expect"],
                   tf_message=first_line(tf_val) if tf_side == "reject" else None,
                   convgen_message=first_line(cg_val) if cg_side == "reject" else None)
    assert tf_side == case["expect"]["tf"], f"TF {tf_side}: {tf_val if tf_side == 'reject' else ''}"
    if case["expect"]["convgen"] == "reject":
        assert cg_side == "reject", "ConvGen accepted an invalid case"
        assert isinstance(cg_val, ValueError), f"{type(cg_val).__name__}: {cg_val}"
    else:
        assert cg_side == "accept", f"ConvGen rejected: {cg_val}"
        want = O.jax_backprop_filter(bf_as_case(case), x, dy)
        np.testing.assert_allclose(cg_val.astype(np.float64), want.astype(np.float64),
                                   rtol=1e-5, atol=1e-5)
        if case["note"] == "zero_size_out":
            assert not np.any(cg_val)
            compare.record(op="backprop_filter", kind="tf-zero-size-out", case=case["name"],
                           tf_nonzero=bool(np.any(tf_val != 0)))
        elif tf_side == "accept":
            np.testing.assert_allclose(cg_val, tf_val, rtol=1e-5, atol=1e-5)


def ct_operands(case):
    return arr(case["x_shape"], case["dtype"], 3), arr(case["k_shape"], case["k_dtype"], 4)


def ct_kwargs(case):
    return dict(strides=case["strides"], padding=case["padding"],
                output_padding=case["output_padding"], data_format=case["data_format"],
                dilation_rate=case["dilation_rate"])


OP_GE_STRIDE = [c for c in CT if c["note"] == "op_ge_stride"]


@pytest.fixture(scope="module")
def jax_op_ge_stride():
    """JAX-backend outcomes of the output_padding >= stride cases, from
    child processes (XLA aborts the process on some of them)."""
    import jax_child
    res = jax_child.jax_outcomes(OP_GE_STRIDE)
    return {c["name"]: r for c, r in zip(OP_GE_STRIDE, res)}


@pytest.mark.parametrize("case", CT, ids=lambda c: c["name"])
def test_conv_transpose_invalid(case, jax_op_ge_stride):
    import convgen
    t = O.tf()
    O.jax()
    from keras.src.backend.jax import nn as jnn
    from keras.src.backend.tensorflow import nn as tfnn
    x, k = ct_operands(case)
    kw = ct_kwargs(case)
    tf_side, tf_val = outcome(lambda: np.asarray(tfnn.conv_transpose(t.constant(x),
                                                                     t.constant(k), **kw)))
    if case["note"] == "op_ge_stride":
        jax_side, msg = jax_op_ge_stride[case["name"]]
        jax_val = None
        if jax_side == "abort":  # XLA CHECK failure (docs/Parity.md): JAX does not reject
            compare.record(op="conv_transpose", kind="jax-abort", case=case["name"],
                           message=msg)
            jax_side = "accept"
        elif jax_side == "reject":
            jax_val = RuntimeError(msg)
    else:
        jax_side, jax_val = outcome(lambda: np.asarray(jnn.conv_transpose(x, k, **kw)))
    cg_side, cg_val = outcome(lambda: convgen.conv_transpose(x, k, **kw))
    compare.record(op="conv_transpose", kind="invalid", case=case["name"], row=case["row"],
                   note=case["note"], tf=tf_side, jax=jax_side, convgen=cg_side,
                   expect=case["expect"],
                   tf_message=first_line(tf_val) if tf_side == "reject" else None,
                   jax_message=first_line(jax_val) if jax_side == "reject" else None,
                   convgen_message=first_line(cg_val) if cg_side == "reject" else None)
    got = {"tf": tf_side, "jax": jax_side, "convgen": cg_side}
    assert got == case["expect"], (
        f"outcomes {got} != expected {case['expect']}; TF: "
        f"{first_line(tf_val) if tf_side == 'reject' else 'ok'}; JAX: "
        f"{first_line(jax_val) if jax_side == 'reject' else 'ok'}; ConvGen: "
        f"{first_line(cg_val) if cg_side == 'reject' else 'ok'}")
    if cg_side == "reject":
        assert isinstance(cg_val, ValueError), f"{type(cg_val).__name__}: {cg_val}"
    else:
        jax_val = np.asarray(jnn.conv_transpose(x, k, **kw))
        np.testing.assert_allclose(cg_val.astype(np.float64), jax_val.astype(np.float64),
                                   rtol=1e-5, atol=1e-5)
        if tf_side == "accept":
            np.testing.assert_allclose(cg_val, tf_val, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", LAYER, ids=lambda c: c["name"])
def test_keras_layer_rules(case):
    import convgen
    import keras
    n = case["nd"]
    cls = {1: keras.layers.Conv1DTranspose, 2: keras.layers.Conv2DTranspose,
           3: keras.layers.Conv3DTranspose}[n]
    kw = dict(strides=case["strides"], padding=case["padding"],
              output_padding=case["output_padding"], dilation_rate=case["dilation_rate"])
    layer_side, layer_val = outcome(lambda: cls(case["filters"], case["kernel_size"], **kw))
    ks = case["kernel_size"]
    ks = [ks] * n if isinstance(ks, int) else list(ks)
    x = arr([1, *([3] * n), 2], "float32", 5)
    k = arr([*ks, case["filters"], 2], "float32", 6) if min(ks) >= 0 else None
    cg_side, cg_val = outcome(lambda: convgen.conv_transpose(x, k, **kw))
    compare.record(op="conv_transpose", kind="keras_layer", case=case["name"],
                   note=case["note"], keras_layer=layer_side, convgen=cg_side,
                   expect=case["expect"],
                   keras_message=first_line(layer_val) if layer_side == "reject" else None,
                   convgen_message=first_line(cg_val) if cg_side == "reject" else None)
    assert {"keras_layer": layer_side, "convgen": cg_side} == case["expect"], (
        f"layer: {first_line(layer_val) if layer_side == 'reject' else 'ok'}; ConvGen: "
        f"{first_line(cg_val) if cg_side == 'reject' else 'ok'}")
    if cg_side == "reject":
        assert isinstance(cg_val, ValueError), f"{type(cg_val).__name__}: {cg_val}"


def test_invalid_counts():
    assert len(BF) >= 200 and len(CT) >= 100
