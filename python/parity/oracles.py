"""The real TensorFlow / JAX / Keras calls the parity suite compares
ConvGen with, and ConvGen's own calls for a case (python/parity/cases.py).

Every oracle takes a case and its two operand arrays and returns a NumPy
array (float64 for comparison) or raises what the library raises.
"""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import numpy as np  # noqa: E402

import cases as C  # noqa: E402


_tf = None
_jax = None


def tf():
    global _tf
    if _tf is None:
        import tensorflow
        tensorflow.config.threading.set_intra_op_parallelism_threads(1)
        tensorflow.config.threading.set_inter_op_parallelism_threads(1)
        _tf = tensorflow
    return _tf


def jax():
    global _jax
    if _jax is None:
        import jax as jax_
        jax_.config.update("jax_enable_x64", True)
        jax_.config.update("jax_platforms", "cpu")
        _jax = jax_
    return _jax


def f64(a) -> np.ndarray:
    return np.asarray(a).astype(np.float64)


def versions() -> dict:
    import keras
    import ml_dtypes
    v = {"numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__,
         "tensorflow": tf().__version__, "jax": jax().__version__,
         "keras": keras.__version__}
    import jaxlib
    v["jaxlib"] = jaxlib.__version__
    return v


# --------------------------------------------------------------------------
# backprop_filter
# --------------------------------------------------------------------------

def _tf_padding_list(case):
    """TF's padding list (4 or 5 pairs in data-format order) for EXPLICIT."""
    pairs = [list(p) for p in case["explicit"]]
    if case["data_format"] in C.CHANNELS_LAST_TF.values():
        return [[0, 0], *pairs, [0, 0]]
    return [[0, 0], [0, 0], *pairs]


def _tf_attr4(case, values):
    if case["data_format"] in C.CHANNELS_LAST_TF.values():
        return [1, *values, 1]
    return [1, 1, *values]


def tf_backprop_filter(case, x, dy, api="compat.v1"):
    """TF's filter gradient on the CPU.

    api = "compat.v1": tf.compat.v1.nn.conv2d_backprop_filter (N = 2; N = 1
    through tf.nn.conv1d's inserted unit H dimension).
    api = "raw": tf.raw_ops.Conv2DBackpropFilter (N = 1, 2) or
    tf.raw_ops.Conv3DBackpropFilterV2 (N = 3; SAME/VALID only).
    """
    t = tf()
    n = case["nd"]
    fs = list(case["filter_sizes"])
    fmt = case["data_format"]
    if n == 3:
        if case["padding"] == "EXPLICIT":
            raise ValueError("Conv3DBackpropFilterV2 has no EXPLICIT padding")
        out = t.raw_ops.Conv3DBackpropFilterV2(
            input=x, filter_sizes=t.constant(fs, t.int32), out_backprop=dy,
            strides=[1, *case["strides"], 1] if fmt == "NDHWC" else [1, 1, *case["strides"]],
            padding=case["padding"], data_format=fmt,
            dilations=[1, *case["dilations"], 1] if fmt == "NDHWC" else [1, 1, *case["dilations"]])
        return out.numpy()
    strides, dilations, explicit = case["strides"], case["dilations"], case["explicit"]
    if n == 1:  # conv1d: NWC -> NHWC with H = 1 (expand_dims at -3 / NCW at -2)
        cl = fmt == "NWC"
        ax = 1 if cl else 2
        x = np.expand_dims(x, ax)
        dy = np.expand_dims(dy, ax)
        fs = [1, *fs]
        strides, dilations = [1, *strides], [1, *dilations]
        explicit = [[0, 0], *explicit] if explicit else None
        fmt = "NHWC" if cl else "NCHW"
    c2 = dict(case, data_format=fmt, explicit=explicit)
    if api == "compat.v1":
        padding = _tf_padding_list(c2) if case["padding"] == "EXPLICIT" else case["padding"]
        out = t.compat.v1.nn.conv2d_backprop_filter(
            x, fs, dy, _tf_attr4(c2, strides), padding, data_format=fmt,
            dilations=_tf_attr4(c2, dilations))
    else:
        flat = ([v for p in _tf_padding_list(c2) for v in p]
                if case["padding"] == "EXPLICIT" else [])
        out = t.raw_ops.Conv2DBackpropFilter(
            input=x, filter_sizes=t.constant(fs, t.int32), out_backprop=dy,
            strides=_tf_attr4(c2, strides), padding=case["padding"],
            explicit_paddings=flat, data_format=fmt, dilations=_tf_attr4(c2, dilations))
    out = out.numpy()
    return out[0] if n == 1 else out


def _jax_specs(case):
    n = case["nd"]
    sp = {1: "W", 2: "HW", 3: "DHW"}[n]
    cl = case["data_format"] in C.CHANNELS_LAST_TF.values()
    lhs = ("N" + sp + "C") if cl else ("NC" + sp)
    return lhs, sp + "IO", lhs


def jax_backprop_filter(case, x, dy):
    """d/dW of jax.lax.conv_general_dilated (feature_group_count = G), the
    vector-Jacobian product with out_backprop: JAX's own filter gradient.
    Padding: JAX's "SAME"/"VALID" strings (TF's formulas) or the explicit
    pairs. A case whose out_backprop has a zero spatial size (TF's truncating
    VALID division) has the zero gradient."""
    j = jax()
    lax = j.lax
    n = case["nd"]
    out_sp = (case["out_backprop_shape"][1:-1]
              if case["data_format"] in C.CHANNELS_LAST_TF.values()
              else case["out_backprop_shape"][2:])
    if 0 in out_sp:
        return np.zeros(case["filter_sizes"], dtype=x.dtype)
    padding = ([tuple(p) for p in case["explicit"]] if case["padding"] == "EXPLICIT"
               else case["padding"])
    groups = C.bf_groups(case)
    w0 = j.numpy.zeros(case["filter_sizes"], dtype=x.dtype)
    xj = j.numpy.asarray(x)

    def forward(w):
        return lax.conv_general_dilated(
            xj, w, window_strides=tuple(case["strides"]), padding=padding,
            rhs_dilation=tuple(case["dilations"]),
            dimension_numbers=_jax_specs(case), feature_group_count=max(groups, 1),
            precision=lax.Precision.HIGHEST)

    y, vjp = j.vjp(forward, w0)
    if tuple(y.shape) != tuple(dy.shape):
        raise ValueError(f"JAX forward shape {y.shape} != out_backprop {dy.shape}")
    (dw,) = vjp(j.numpy.asarray(dy))
    return np.asarray(dw)


def convgen_backprop_filter(case, x, dy, api=None):
    """ConvGen: conv2d_backprop_filter (TF signature) for N = 2, the N-D
    backprop_filter otherwise (or when api == "nd")."""
    import convgen
    n = case["nd"]
    if n == 2 and api != "nd":
        padding = _tf_padding_list(case) if case["padding"] == "EXPLICIT" else case["padding"]
        return convgen.conv2d_backprop_filter(
            x, case["filter_sizes"], dy, _tf_attr4(case, case["strides"]), padding,
            data_format=case["data_format"], dilations=_tf_attr4(case, case["dilations"]))
    if case["padding"] == "EXPLICIT":
        return convgen.backprop_filter(x, case["filter_sizes"], dy, case["strides"],
                                       [list(p) for p in case["explicit"]],
                                       data_format=case["data_format"],
                                       dilations=case["dilations"])
    return convgen.backprop_filter(x, case["filter_sizes"], dy, case["strides"],
                                   case["padding"], data_format=case["data_format"],
                                   dilations=case["dilations"])


# --------------------------------------------------------------------------
# conv_transpose
# --------------------------------------------------------------------------

def _ct_args(case):
    return dict(strides=tuple(case["strides"]), padding=case["padding"],
                output_padding=(None if case["output_padding"] is None
                                else tuple(case["output_padding"])),
                data_format=case["data_format"],
                dilation_rate=tuple(case["dilation_rate"]))


def keras_tf_conv_transpose(case, x, k):
    """keras.src.backend.tensorflow.nn.conv_transpose: what
    keras.ops.conv_transpose runs with KERAS_BACKEND=tensorflow."""
    tf()
    from keras.src.backend.tensorflow import nn as tfnn
    return np.asarray(tfnn.conv_transpose(x, k, **_ct_args(case)))


def keras_jax_conv_transpose(case, x, k):
    """keras.src.backend.jax.nn.conv_transpose: what keras.ops.conv_transpose
    runs with KERAS_BACKEND=jax (jax.lax.conv_transpose)."""
    jax()
    from keras.src.backend.jax import nn as jnn
    return np.asarray(jnn.conv_transpose(x, k, **_ct_args(case)))


def numpy_conv_transpose(case, x, k):
    """float64 NumPy reference of keras.ops.conv_transpose from the spec's
    definition (§2.3: full[p] = sum over i*s + m*d = p of x[i] K[m], out[q] =
    full[q + crop]), used only where XLA aborts on a case (docs/Parity.md)."""
    x = np.asarray(x, np.float64)
    k = np.asarray(k, np.float64)
    n = case["nd"]
    cf = case["data_format"] == "channels_first"
    if cf:
        x = np.moveaxis(x, 1, -1)
    ins, ks = x.shape[1:-1], k.shape[:n]
    s, d = case["strides"], case["dilation_rate"]
    ops = case["output_padding"] or [None] * n
    outs = [C.keras_out_len(ins[i], ks[i], s[i], d[i], case["padding"], ops[i])
            for i in range(n)]
    crops = []
    for i in range(n):
        k_eff = (ks[i] - 1) * d[i] + 1
        if case["padding"] == "valid":
            crops.append(0)
        elif ops[i] is None:
            crops.append(max(0, k_eff - s[i]) // 2)
        else:
            crops.append(max(0, k_eff - k_eff % 2 - ops[i]) // 2)
    out = np.zeros((x.shape[0], *outs, k.shape[n]))
    for src in np.ndindex(*ins):
        for tap in np.ndindex(*ks):
            q = [src[i] * s[i] + tap[i] * d[i] - crops[i] for i in range(n)]
            if all(0 <= q[i] < outs[i] for i in range(n)):
                out[(slice(None), *q)] += x[(slice(None), *src)] @ k[tap].T
    return np.moveaxis(out, -1, 1) if cf else out


def keras_ops_conv_transpose(case, x, k):
    """keras.ops.conv_transpose on the process' backend ($KERAS_BACKEND)."""
    import keras
    return np.asarray(keras.ops.convert_to_numpy(
        keras.ops.conv_transpose(x, k, **_ct_args(case))))


def convgen_conv_transpose(case, x, k):
    import convgen
    a = _ct_args(case)
    # Exercise the int shorthand where every dimension has the same value.
    for key in ("strides", "dilation_rate", "output_padding"):
        v = a[key]
        if v is not None and len(set(v)) == 1 and case["seed"] % 2 == 0:
            a[key] = int(v[0])
    return convgen.conv_transpose(x, k, **a)
