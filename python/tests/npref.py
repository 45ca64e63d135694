"""Pure-NumPy references, written straight from the spec's formulas
(shared/spec/semantics.md §1.2-§1.3 and §2.2-§2.3; docs/Semantics.md), in
float64 and independent of ConvGen's own geometry code."""

import numpy as np

try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover
    ml_dtypes = None
    BF16 = None

#: Every element type convgen supports (bfloat16 through ml_dtypes).
DTYPES = [np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)]
if BF16 is not None:
    DTYPES.insert(1, BF16)

# Unit roundoff of each element type, and of the accumulator ConvGen uses
# for it (f16/bf16/f32 accumulate in f32; f64 in f64).
UNIT_ROUNDOFF = {"float16": 2.0**-11, "bfloat16": 2.0**-8,
                 "float32": 2.0**-24, "float64": 2.0**-53}
ACCUMULATOR_ROUNDOFF = {"float16": 2.0**-24, "bfloat16": 2.0**-24,
                        "float32": 2.0**-24, "float64": 2.0**-53}
SMALLEST_SUBNORMAL = {"float16": 2.0**-24, "bfloat16": 2.0**-133,
                      "float32": 2.0**-149, "float64": 5e-324}


def trunc_div(a, b):
    """C++ int64 division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def tf_windowed_output(in_size, k, s, d, padding, before=0, after=0):
    """(out, pad_before) of TF's GetWindowedOutputSizeVerbose (spec §1.3)."""
    k_eff = (k - 1) * d + 1
    if padding == "VALID":
        return trunc_div(in_size - k_eff + s, s), 0
    if padding == "EXPLICIT":
        return trunc_div(in_size + before + after - k_eff + s, s), before
    out = trunc_div(in_size + s - 1, s)
    total = max(0, (out - 1) * s + k_eff - in_size)
    return out, total // 2


def to_channels_last(a):
    return np.moveaxis(a, 1, -1)


def to_channels_first(a):
    return np.moveaxis(a, -1, 1)


def backprop_filter(x, dy, filter_sizes, strides, dilations, pads_before,
                    channels_first=False):
    """dW[k..., ci, co] = sum_{b,o...} X[b, o*s + k*d - pad, g(co)*Cf + ci]
    * dY[b, o..., co]   (spec §1.2, grouped; X is 0 outside the input)."""
    x = np.asarray(x, np.float64)
    dy = np.asarray(dy, np.float64)
    if channels_first:
        x, dy = to_channels_last(x), to_channels_last(dy)
    n = x.ndim - 2
    ks, cf, cout = list(filter_sizes[:n]), filter_sizes[n], filter_sizes[n + 1]
    groups = x.shape[-1] // cf
    per_group = cout // groups
    outs = dy.shape[1:-1]
    pad = [(0, 0)]
    for i in range(n):
        extent = (outs[i] - 1) * strides[i] + (ks[i] - 1) * dilations[i] + 1
        pad.append((pads_before[i], max(0, extent - pads_before[i] - x.shape[1 + i])))
    pad.append((0, 0))
    xp = np.pad(x, pad)
    dw = np.zeros(filter_sizes, np.float64)
    for tap in np.ndindex(*ks):
        window = [slice(None)]
        for i in range(n):
            start = tap[i] * dilations[i]
            window.append(slice(start, start + (outs[i] - 1) * strides[i] + 1,
                                strides[i]) if outs[i] else slice(0, 0))
        window.append(slice(None))
        xw = xp[tuple(window)]
        for g in range(groups):
            rows = int(np.prod(dy.shape[:-1]))
            a = xw[..., g * cf:(g + 1) * cf].reshape(rows, cf)
            b = dy[..., g * per_group:(g + 1) * per_group].reshape(rows, per_group)
            dw[tap + (slice(None), slice(g * per_group, (g + 1) * per_group))] = a.T @ b
    return dw


def keras_output_length(in_size, k, s, d, padding, output_padding):
    """Keras' compute_conv_transpose_output_shape per dimension (spec §2.2)."""
    k_eff = (k - 1) * d + 1
    if padding == "valid":
        if output_padding is None:
            return (in_size - 1) * s + max(k_eff, s)
        return (in_size - 1) * s + k_eff + output_padding
    if output_padding is None:
        return in_size * s
    return (in_size - 1) * s + k_eff % 2 + output_padding


def keras_crop(k, s, d, padding, output_padding):
    """Elements dropped at the start of the full result (spec §2.3)."""
    k_eff = (k - 1) * d + 1
    if padding == "valid":
        return 0
    if output_padding is None:
        return max(0, k_eff - s) // 2
    return max(0, k_eff - k_eff % 2 - output_padding) // 2


def conv_transpose(x, kernel, strides, dilations, padding, output_padding,
                   channels_first=False):
    """full[p] = sum_{i,m: i*s + m*d = p} sum_c x[i,c] K[m,o,c];
    out[q] = full[q + crop] (0 outside full)   (spec §2.3)."""
    x = np.asarray(x, np.float64)
    kernel = np.asarray(kernel, np.float64)
    if channels_first:
        x = to_channels_last(x)
    n = x.ndim - 2
    ks, cout = kernel.shape[:n], kernel.shape[n]
    ins = x.shape[1:-1]
    ops = [None] * n if output_padding is None else list(output_padding)
    full_len = [max(0, (ins[i] - 1) * strides[i] + (ks[i] - 1) * dilations[i] + 1)
                for i in range(n)]
    full = np.zeros((x.shape[0], *full_len, cout))
    if all(i > 0 for i in ins):
        for tap in np.ndindex(*ks):
            contribution = np.tensordot(x, kernel[tap], axes=([n + 1], [1]))
            target = [slice(None)]
            for i in range(n):
                start = tap[i] * dilations[i]
                target.append(slice(start, start + (ins[i] - 1) * strides[i] + 1, strides[i]))
            full[tuple(target)] += contribution
    out_len = [keras_output_length(ins[i], ks[i], strides[i], dilations[i], padding, ops[i])
               for i in range(n)]
    crops = [keras_crop(ks[i], strides[i], dilations[i], padding, ops[i]) for i in range(n)]
    out = np.zeros((x.shape[0], *out_len, cout))
    dst, src = [slice(None)], [slice(None)]
    for i in range(n):
        m = max(0, min(out_len[i], full_len[i] - crops[i]))
        dst.append(slice(0, m))
        src.append(slice(crops[i], crops[i] + m))
    out[tuple(dst)] = full[tuple(src)]
    return to_channels_first(out) if channels_first else out


def error_bound(dtype, magnitude, exact, terms):
    """|got - exact| allowed for a result computed from operands of `dtype`
    with ConvGen's accumulation (f32 for 16-bit types) and one final
    rounding: the final rounding, the accumulation error over `terms`
    products of total magnitude `magnitude`, and a subnormal step."""
    name = np.dtype(dtype).name
    return 2 * (UNIT_ROUNDOFF[name] * np.abs(exact)
                + (terms + 2) * ACCUMULATOR_ROUNDOFF[name] * magnitude) \
        + SMALLEST_SUBNORMAL[name]


def assert_close(got, exact, magnitude, terms, dtype):
    got64 = np.asarray(got).astype(np.float64)
    assert got64.shape == exact.shape, (got64.shape, exact.shape)
    bound = error_bound(dtype, magnitude, exact, terms)
    bad = np.abs(got64 - exact) > bound
    if bad.any():
        i = tuple(np.argwhere(bad)[0])
        raise AssertionError(
            f"{bad.sum()} of {bad.size} elements differ ({np.dtype(dtype).name}); "
            f"first at {i}: got {got64[i]!r}, expected {exact[i]!r}, bound {bound[i]!r}")
