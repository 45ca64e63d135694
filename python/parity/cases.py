"""Case lists of the parity suite: the spec's upstream test configurations
(shared/spec/semantics.md §3.1-§3.7), seeded random configurations and
invalid argument sets, for `conv.backprop_filter` and `conv.transpose`.

Pure Python + NumPy: no TensorFlow, JAX or convgen. A case is a plain,
JSON-serializable dict (make_golden.py stores it next to the golden
arrays); `make_inputs` turns it into the operand arrays.
"""

from __future__ import annotations

import copy
import random
from typing import Dict, List, Optional, Sequence

import numpy as np

try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - the parity venv and .venv have it
    ml_dtypes = None
    BF16 = None

DTYPES = ["float16", "bfloat16", "float32", "float64"]

#: Number of random configurations per op (the issue asks for >= 1000).
RANDOM_COUNT = 1000
RANDOM_SEED = {"backprop_filter": 20240601, "conv_transpose": 20240602}

CHANNELS_LAST_TF = {1: "NWC", 2: "NHWC", 3: "NDHWC"}
CHANNELS_FIRST_TF = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def np_dtype(name: str) -> np.dtype:
    if name == "bfloat16":
        if BF16 is None:
            raise RuntimeError("bfloat16 needs the ml_dtypes package")
        return BF16
    return np.dtype(name)


# --------------------------------------------------------------------------
# Shape formulas (spec §1.3, §2.2), independent of ConvGen
# --------------------------------------------------------------------------

def trunc_div(a: int, b: int) -> int:
    """C++ int64 division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def tf_out_size(in_size, k, s, d, padding, before=0, after=0) -> int:
    """TF's GetWindowedOutputSizeVerbose (may be negative = TF error)."""
    k_eff = (k - 1) * d + 1
    if padding == "VALID":
        return trunc_div(in_size - k_eff + s, s)
    if padding == "EXPLICIT":
        return trunc_div(in_size + before + after - k_eff + s, s)
    return trunc_div(in_size + s - 1, s)


def tf_pads(in_size, k, s, d, padding, before=0, after=0):
    """(pad_before, pad_after) of the forward convolution (spec §1.2)."""
    k_eff = (k - 1) * d + 1
    out = tf_out_size(in_size, k, s, d, padding, before, after)
    if padding == "EXPLICIT":
        return before, after
    if padding == "VALID":
        return 0, 0
    total = max(0, (out - 1) * s + k_eff - in_size)
    return total // 2, total - total // 2


def keras_out_len(in_size, k, s, d, padding, op) -> int:
    k_eff = (k - 1) * d + 1
    if padding == "valid":
        return (in_size - 1) * s + (max(k_eff, s) if op is None else k_eff + op)
    return in_size * s if op is None else (in_size - 1) * s + k_eff % 2 + op


def tf_backend_accepts_transpose(case) -> Optional[str]:
    """None if Keras' TF backend on the CPU computes the case, else why it
    raises (spec §2.6: the exact predicate, plus the CPU restrictions)."""
    if case["data_format"] != "channels_last":
        return "TF CPU: Conv*BackpropInput only supports channels_last (NHWC)"
    if any(d != 1 for d in case["dilation_rate"]):
        return "TF CPU: no dilation rates larger than 1"
    n = case["nd"]
    ops = case["output_padding"]
    for i in range(n):
        k = case["kernel_shape"][i]
        s = case["strides"][i]
        if ops is None:
            continue
        op = ops[i]
        if case["padding"] == "valid" and op >= s:
            return f"TF: valid with output_padding {op} >= stride {s}"
        if case["padding"] == "same" and not (0 < k % 2 + op <= s):
            return (f"TF: same with not 0 < k%2 + output_padding <= s "
                    f"(k={k}, output_padding={op}, s={s})")
    return None


# --------------------------------------------------------------------------
# backprop_filter cases
# --------------------------------------------------------------------------

def bf_case(name, source, input_shape, filter_sizes, strides, padding,
            dilations=None, explicit=None, data_format=None, dtype="float32",
            values="random", out_backprop_shape=None, seed=0) -> Dict:
    """A backprop_filter case; shapes in `data_format` order (channels-last
    shapes are transposed for channels-first formats by the caller)."""
    nd = len(input_shape) - 2
    dilations = list(dilations or [1] * nd)
    data_format = data_format or CHANNELS_LAST_TF[nd]
    cl = data_format in CHANNELS_LAST_TF.values()
    if out_backprop_shape is None:
        sp_in = input_shape[1:-1] if cl else input_shape[2:]
        outs = []
        for i in range(nd):
            b, a = (explicit[i] if explicit else (0, 0))
            outs.append(tf_out_size(sp_in[i], filter_sizes[i], strides[i],
                                    dilations[i], padding, b, a))
        cout = filter_sizes[-1]
        out_backprop_shape = ([input_shape[0], *outs, cout] if cl
                              else [input_shape[0], cout, *outs])
    return {"op": "backprop_filter", "name": name, "source": source, "nd": nd,
            "data_format": data_format, "input_shape": list(input_shape),
            "filter_sizes": list(filter_sizes),
            "out_backprop_shape": list(out_backprop_shape),
            "strides": list(strides), "dilations": dilations, "padding": padding,
            "explicit": [list(p) for p in explicit] if explicit else None,
            "dtype": dtype, "values": values, "seed": seed}


def bf_groups(case) -> int:
    cl = case["data_format"] in CHANNELS_LAST_TF.values()
    cin = case["input_shape"][-1] if cl else case["input_shape"][1]
    cf = case["filter_sizes"][case["nd"]]
    return cin // cf if cf else 0


def bf_tf_refusal(case) -> Optional[str]:
    """None if TF's CPU kernels compute the case (Conv2DBackpropFilter for
    N = 1 through tf.nn.conv1d's unit H dimension and N = 2,
    Conv3DBackpropFilterV2 for N = 3), else the CPU restriction that makes
    TF refuse it (spec §1.4 rows 2/13/23, §1.7)."""
    n = case["nd"]
    if case["data_format"] != CHANNELS_LAST_TF[n]:
        return "TF CPU: only channels-last (NHWC/NDHWC)"
    if any(d != 1 for d in case["dilations"]):
        return "TF CPU: no dilation rates larger than 1"
    if bf_groups(case) != 1:
        return "TF CPU: no grouped convolution"
    if n == 3 and case["padding"] == "EXPLICIT":
        return "TF: Conv3DBackpropFilterV2 has no EXPLICIT padding"
    if any(v == 0 for v in case["out_backprop_shape"][1:-1]) and \
            all(v > 0 for v in case["filter_sizes"]):
        return "TF CPU: zero-size out_backprop spatial dimension"
    return None


def _nhwc(shape):  # NHWC -> NCHW (any rank)
    return [shape[0], shape[-1], *shape[1:-1]]


def upstream_backprop_filter() -> List[Dict]:
    """spec §3.1-§3.4 configurations (values arange(1..N) like TF's
    _CreateNumpyTensor for the hard-coded tables; random for the gradient
    checker ones). Channels-last shapes; NCHW variants are added for the
    XLA table (§3.3 runs NHWC and NCHW)."""
    C = []
    A = "arange"
    t31 = [
        ("testConv2D2x2Depth1ValidBackpropFilter", [1, 2, 3, 1], [2, 2, 1, 1], [1, 1], "VALID"),
        ("testConv2DEmptyBackpropFilter", [1, 2, 3, 1], [2, 2, 1, 0], [1, 1], "VALID"),
        ("testConv2DBackpropFilterWithEmptyInput", [0, 2, 3, 1], [2, 2, 1, 1], [1, 1], "VALID"),
        ("testConv2D2x2Depth3ValidBackpropFilter", [1, 2, 3, 3], [2, 2, 3, 3], [1, 1], "VALID"),
        ("testConv2D2x2Depth3ValidBackpropFilterStride1x2", [1, 3, 6, 1], [2, 2, 1, 1], [1, 2], "VALID"),
        ("testConv2DStrideTwoFilterOneSameBackpropFilter", [1, 4, 4, 1], [1, 1, 1, 1], [2, 2], "SAME"),
        ("testConv2DKernelSizeMatchesInputSizeBackpropFilter", [1, 2, 2, 1], [2, 2, 1, 2], [1, 1], "VALID"),
    ]
    for name, x, f, s, p in t31:
        C.append(bf_case(name, "§3.1 conv_ops_test", x, f, s, p, values=A))
    dil = [
        ("ValidBackpropFilterStride1x1Dilation2x1", [1, 3, 6, 1], [2, 2, 1, 1], [2, 1]),
        ("Depth1ValidBackpropFilterDilation1x2", [1, 2, 3, 1], [2, 2, 1, 1], [1, 2]),
        ("testConv2DEmptyBackpropFilterDilation1x2", [1, 2, 3, 1], [2, 2, 1, 0], [1, 2]),
        ("Depth3ValidBackpropFilterDilation2x2", [1, 3, 4, 3], [2, 2, 3, 3], [2, 2]),
        ("KernelSizeMatchesInputSizeBackpropFilterDilation2x2", [1, 3, 3, 1], [2, 2, 1, 2], [2, 2]),
    ]
    for name, x, f, d in dil:
        C.append(bf_case(name, "§3.1 conv_ops_test (dilation)", x, f, [1, 1], "VALID",
                         dilations=d, values=A))
    expl = [
        ("Padding0x0a", [1, 2, 3, 1], [2, 2, 1, 1], [1, 1], [[0, 0], [0, 0]], None),
        ("Padding0x0b", [1, 3, 4, 2], [2, 2, 2, 3], [2, 2], [[0, 0], [0, 0]], None),
        ("Padding1x1a", [1, 2, 3, 1], [2, 2, 1, 2], [1, 1], [[1, 1], [1, 1]], None),
        ("Padding1x1b", [1, 2, 3, 2], [1, 1, 2, 1], [1, 2], [[1, 1], [1, 1]], None),
        ("Padding1x1c", [1, 4, 3, 1], [2, 2, 1, 1], [1, 2], [[1, 1], [1, 1]], [2, 2]),
        ("Padding2x2a", [2, 3, 1, 1], [2, 1, 1, 1], [3, 1], [[2, 2], [2, 2]], None),
        ("Padding2x2b", [1, 3, 6, 1], [3, 2, 1, 1], [1, 2], [[2, 2], [2, 2]], [2, 3]),
        ("Padding_1_8_4_1a", [1, 2, 3, 1], [2, 2, 1, 1], [1, 1], [[1, 8], [4, 2]], None),
        ("Padding_1_8_4_1b", [1, 5, 3, 1], [3, 2, 1, 1], [3, 1], [[1, 8], [4, 2]], None),
        ("Padding_5_0_2_2a", [1, 3, 3, 1], [2, 1, 1, 1], [1, 1], [[5, 0], [2, 2]], None),
        ("Padding_5_0_2_2b", [1, 4, 2, 1], [3, 3, 1, 1], [1, 2], [[5, 0], [2, 2]], [2, 1]),
    ]
    for name, x, f, s, pads, d in expl:
        C.append(bf_case("testConv2DBackpropFilter" + name, "§3.1 explicit padding",
                         x, f, s, "EXPLICIT", dilations=d, explicit=pads, values=A))
    grad = [
        ("ValidPaddingStrideOne", 4, [6, 5], [2, 2], 2, 3, [1, 1], "VALID", None),
        ("ValidPaddingStrideTwo", 4, [6, 5], [2, 2], 2, 3, [2, 2], "VALID", None),
        ("ValidPaddingStrideThree", 2, [8, 7], [4, 4], 2, 3, [3, 3], "VALID", None),
        ("SamePaddingStrideOne", 4, [6, 5], [2, 2], 2, 3, [1, 1], "SAME", None),
        ("SamePaddingStrideTwo", 4, [6, 5], [2, 2], 2, 3, [2, 2], "SAME", None),
        ("SamePaddingStrideThree", 2, [8, 7], [4, 4], 2, 3, [3, 3], "SAME", None),
        ("SamePaddingStride2x1", 2, [8, 7], [4, 4], 2, 3, [2, 1], "SAME", None),
        ("KernelSizeMatchesInputSize", 2, [4, 3], [4, 3], 2, 3, [1, 1], "VALID", None),
        ("1x1PaddingStrideOne", 2, [5, 4], [3, 3], 2, 3, [1, 1], "EXPLICIT", [[1, 1], [1, 1]]),
        ("1x1PaddingStrideTwo", 2, [4, 5], [3, 3], 2, 3, [2, 2], "EXPLICIT", [[1, 1], [1, 1]]),
        ("2x2PaddingStrideOne", 2, [5, 4], [3, 3], 2, 3, [1, 1], "EXPLICIT", [[2, 2], [2, 2]]),
        ("1_2_3_4PaddingStride3x2", 2, [8, 5], [4, 2], 3, 2, [3, 2], "EXPLICIT", [[1, 2], [3, 4]]),
        ("4_3_2_1PaddingStride2x1", 3, [5, 7], [3, 2], 1, 2, [2, 1], "EXPLICIT", [[4, 3], [2, 1]]),
        ("0_0_0_5PaddingStride1x2", 2, [6, 7], [3, 4], 3, 2, [1, 2], "EXPLICIT", [[0, 0], [0, 5]]),
    ]
    for name, b, hw, fhw, ci, co, s, p, pads in grad:
        C.append(bf_case("testFilterGradient" + name, "§3.1 gradient checker",
                         [b, *hw, ci], [*fhw, ci, co], s, p, explicit=pads))
    # testFilterGradientGroupConv (CUDA only upstream): NHWC and NCHW.
    g = bf_case("testFilterGradientGroupConv", "§3.1 gradient checker (groups)",
                [2, 5, 4, 4], [3, 3, 2, 6], [1, 1], "VALID")
    C.append(g)
    C.append(bf_case("testFilterGradientGroupConv[NCHW]", g["source"], _nhwc([2, 5, 4, 4]),
                     [3, 3, 2, 6], [1, 1], "VALID", data_format="NCHW"))
    # §3.2 conv2d_backprop_filter_grad_test shapes.
    for s in (1, 2):
        for p, pads in (("SAME", None), ("VALID", None),
                        ("EXPLICIT", [[1, 2], [3, 4]]), ("EXPLICIT", [[0, 3], [4, 2]])):
            C.append(bf_case(f"conv2d_backprop_filter_grad_test s{s} {p}{pads or ''}",
                             "§3.2 grad test", [5, 8, 6, 4], [3, 3, 4, 6], [s, s], p,
                             explicit=pads))
        for pads in (None, [[3, 5], [2, 1]], [[5, 2], [5, 1]]):
            for p in (("SAME", "VALID") if pads is None else ("EXPLICIT",)):
                C.append(bf_case(f"testGradientDilatedConv s{s} {p}{pads or ''}",
                                 "§3.2 grad test (dilated)", [5, 8, 6, 4], [3, 3, 4, 6],
                                 [s, s], p, dilations=[2, 2], explicit=pads))
    # §3.3 XLA conv2d_test (NHWC and NCHW).
    t33 = [
        ("1x1Filter", [1, 4, 4, 3], [1, 1, 3, 2], [1, 1], None, "VALID"),
        ("1x2Filter", [1, 3, 3, 1], [1, 2, 1, 1], [1, 1], None, "VALID"),
        ("2x2FilterDepth1", [1, 2, 3, 1], [2, 2, 1, 1], [1, 1], None, "VALID"),
        ("2x2Filter", [1, 2, 3, 3], [2, 2, 3, 3], [1, 1], None, "VALID"),
        ("1x2FilterStride3Width5", [1, 1, 5, 1], [1, 2, 1, 1], [3, 3], None, "VALID"),
        ("1x2FilterStride3Width6", [1, 1, 6, 1], [1, 2, 1, 1], [3, 3], None, "VALID"),
        ("1x2FilterStride3Width7", [1, 1, 7, 1], [1, 2, 1, 1], [3, 3], None, "VALID"),
        ("1x3Filter", [1, 1, 4, 1], [1, 3, 1, 1], [1, 1], None, "VALID"),
        ("1x3FilterSame", [1, 1, 4, 1], [1, 3, 1, 1], [1, 1], None, "SAME"),
        ("1x3FilterSameOutbackprop2", [1, 1, 4, 1], [1, 3, 1, 1], [2, 2], None, "SAME"),
        ("2x2FilterC1Same", [1, 2, 3, 1], [2, 2, 1, 1], [1, 1], None, "SAME"),
        ("2x2FilterStride2", [1, 3, 5, 1], [1, 3, 1, 1], [2, 2], None, "VALID"),
        ("2x2FilterStride2Same", [1, 2, 3, 1], [2, 2, 1, 1], [2, 2], None, "SAME"),
        ("Stride1x1Dilation2x1", [1, 3, 6, 1], [2, 2, 1, 1], [1, 1], [2, 1], "VALID"),
        ("Depth1ValidBackpropFilterDilation1x2", [1, 2, 3, 1], [2, 2, 1, 1], [1, 1], [1, 2], "VALID"),
        ("EmptyBackpropFilterDilation1x2", [1, 2, 3, 1], [2, 2, 1, 0], [1, 1], [1, 2], "VALID"),
        ("Depth3ValidBackpropFilterDilation2x2", [1, 3, 4, 3], [2, 2, 3, 3], [1, 1], [2, 2], "VALID"),
        ("KernelSizeMatchesInputSizeBackpropFilterDilation2x2", [1, 3, 3, 1], [2, 2, 1, 2], [1, 1], [2, 2], "VALID"),
        ("GroupedFilter", [1, 2, 2, 2], [2, 2, 1, 2], [1, 1], None, "VALID"),
    ]
    for name, x, f, s, d, p in t33:
        C.append(bf_case("Conv2DBackpropFilterTest." + name, "§3.3 XLA conv2d_test",
                         x, f, s, p, dilations=d, values=A))
        C.append(bf_case("Conv2DBackpropFilterTest." + name + "[NCHW]", "§3.3 XLA conv2d_test",
                         _nhwc(x), f, s, p, dilations=d, values=A, data_format="NCHW"))
    # §3.4 conv3d_backprop_filter_v2_grad_test.
    for p in ("SAME", "VALID"):
        for s in (1, 2):
            C.append(bf_case(f"conv3d_backprop_filter_v2_grad_test {p} s{s}", "§3.4 grad test 3-D",
                             [2, 4, 3, 3, 2], [3, 3, 3, 2, 3], [s, s, s], p))
    # Inception rows (research/scripts/inception_table.md) are large; the
    # random configurations cover their geometry classes (1x1, 3x3 s1/s2,
    # 1x7/7x1, SAME/VALID) at small sizes instead.
    return C


def outs_of(ins, ks, ss, ds, padding, pads):
    return [tf_out_size(ins[i], ks[i], ss[i], ds[i], padding, *pads[i]) for i in range(len(ins))]


def random_backprop_filter(count=RANDOM_COUNT, seed=None, max_elems=600,
                           dtypes=DTYPES) -> List[Dict]:
    """Seeded random configurations. Half are TF-CPU-computable (channels
    last, dilation 1, no groups; N = 1, 2, 3), half general (channels first,
    dilation, groups, EXPLICIT 3-D). Shapes are small (compile time rules)."""
    rng = random.Random(RANDOM_SEED["backprop_filter"] if seed is None else seed)
    cases = []
    i = 0
    while len(cases) < count:
        i += 1
        tf_like = len(cases) % 2 == 0
        nd = rng.choices([1, 2, 3], weights=[3, 5, 2])[0]
        cl = tf_like or rng.random() < 0.4
        fmt = (CHANNELS_LAST_TF if cl else CHANNELS_FIRST_TF)[nd]
        padding = rng.choice(["VALID", "SAME", "EXPLICIT"])
        if tf_like and nd == 3 and padding == "EXPLICIT":
            padding = rng.choice(["VALID", "SAME"])
        groups = 1 if tf_like or rng.random() < 0.4 else rng.randint(2, 3)
        cf = rng.randint(1, 3)
        cout = groups * rng.randint(1, 3)
        batch = rng.choice([0, 1, 1, 2, 2, 3]) if rng.random() < 0.95 else 0
        if batch == 0 and rng.random() < 0.7:
            batch = 1
        kmax, inmax = {1: (5, 10), 2: (4, 7), 3: (3, 5)}[nd]
        ks, ss, ds, ins, pads = [], [], [], [], []
        ok = True
        for _ in range(nd):
            k = rng.randint(1, kmax)
            s = rng.choice([1, 1, 2, 3] if nd < 3 else [1, 2])
            d = 1 if tf_like or rng.random() < 0.5 else rng.randint(2, 3)
            b, a = (rng.randint(0, 3), rng.randint(0, 3)) if padding == "EXPLICIT" else (0, 0)
            n_in = rng.randint(1, inmax)
            out = tf_out_size(n_in, k, s, d, padding, b, a)
            if out < 0:
                ok = False
            ks.append(k); ss.append(s); ds.append(d); ins.append(n_in); pads.append([b, a])
        if not ok:
            continue
        if 0 in outs_of(ins, ks, ss, ds, padding, pads) and rng.random() < 0.8:
            continue  # keep zero-size out_backprop cases (TF's truncation) rare
        cin = groups * cf
        x_shape = [batch, *ins, cin] if cl else [batch, cin, *ins]
        c = bf_case(f"random-bf-{len(cases):04d}", "random", x_shape, [*ks, cf, cout], ss,
                    padding, dilations=ds, explicit=pads if padding == "EXPLICIT" else None,
                    data_format=fmt, dtype=dtypes[len(cases) % len(dtypes)],
                    seed=rng.randrange(2**31))
        if (np.prod(c["input_shape"]) > max_elems or np.prod(c["out_backprop_shape"]) > max_elems
                or np.prod(c["filter_sizes"]) > max_elems):
            continue
        if tf_like and bf_tf_refusal(c) is not None:
            continue
        cases.append(c)
    return cases


# --------------------------------------------------------------------------
# conv_transpose cases
# --------------------------------------------------------------------------

def ct_case(name, source, input_shape, kernel_shape, strides, padding="valid",
            output_padding=None, dilation_rate=None, data_format="channels_last",
            dtype="float32", values="random", seed=0) -> Dict:
    nd = len(input_shape) - 2
    def seq(v, default):
        if v is None:
            return None if default is None else [default] * nd
        return [v] * nd if isinstance(v, int) else list(v)
    return {"op": "conv_transpose", "name": name, "source": source, "nd": nd,
            "data_format": data_format, "input_shape": list(input_shape),
            "kernel_shape": list(kernel_shape), "strides": seq(strides, 1),
            "padding": padding, "output_padding": seq(output_padding, None),
            "dilation_rate": seq(dilation_rate, 1), "dtype": dtype, "values": values,
            "seed": seed}


def ct_output_shape(case) -> List[int]:
    n = case["nd"]
    cl = case["data_format"] == "channels_last"
    ins = case["input_shape"][1:-1] if cl else case["input_shape"][2:]
    ops = case["output_padding"] or [None] * n
    outs = [keras_out_len(ins[i], case["kernel_shape"][i], case["strides"][i],
                          case["dilation_rate"][i], case["padding"], ops[i]) for i in range(n)]
    cout = case["kernel_shape"][n]
    b = case["input_shape"][0]
    return [b, *outs, cout] if cl else [b, cout, *outs]


def _cf(shape):  # channels_last -> channels_first
    return [shape[0], shape[-1], *shape[1:-1]]


def upstream_conv_transpose() -> List[Dict]:
    """spec §3.5-§3.6 (nn_test.py and conv_transpose_test.py) and the
    §2.3 worked examples; both data formats where Keras tests them."""
    C = []
    ops_tests = [  # §3.5: kernel (k, Cout=5, Cin=3)
        ([2, 4, 3], [2, 5, 3], 2, "valid", None),
        ([2, 4, 3], [2, 5, 3], 2, "same", None),
        ([2, 4, 3], [2, 5, 3], 5, "valid", 4),
        ([2, 4, 4, 3], [2, 2, 5, 3], 2, "valid", None),
        ([2, 4, 4, 3], [2, 2, 5, 3], (2, 2), "same", None),
        ([2, 4, 4, 3], [2, 2, 5, 3], (5, 5), "valid", 4),
    ]
    for x, k, s, p, op in ops_tests:
        for fmt in ("channels_last", "channels_first"):
            xs = x if fmt == "channels_last" else _cf(x)
            C.append(ct_case(f"nn_test conv_transpose {len(x) - 2}D s{s} {p} op{op} {fmt}",
                             "§3.5 keras nn_test (shapes)", xs, k, s, p, op, data_format=fmt))
    # §3.5 correctness: arange inputs.
    for p in ("valid", "same"):
        C.append(ct_case(f"test_conv_transpose_1d {p}", "§3.5 keras nn_test (values)",
                         [2, 4, 3], [2, 5, 3], 2, p, values="arange"))
        for s in (2, (2, 2)):
            C.append(ct_case(f"test_conv_transpose_2d s{s} {p}", "§3.5 keras nn_test (values)",
                             [2, 4, 4, 3], [2, 2, 5, 3], s, p, values="arange"))
    layer = [  # §3.6: (filters, kernel, strides, padding, op, fmt, input)
        (5, 2, 2, "valid", None, "channels_last", [2, 8, 4]),
        (6, 2, 3, "same", 2, "channels_last", [2, 8, 4]),
        (6, (2,), (2,), "valid", None, "channels_last", [2, 8, 4]),
        (5, 2, 2, "valid", None, "channels_last", [2, 8, 8, 4]),
        (6, 2, 3, "same", 2, "channels_last", [2, 8, 8, 4]),
        (6, (2, 3), (2, 1), "valid", None, "channels_first", [2, 4, 8, 8]),
        (2, (7, 7), (16, 16), "valid", None, "channels_last", [1, 14, 14, 2]),
        (5, 2, 2, "valid", None, "channels_last", [2, 8, 8, 8, 4]),
        (6, 2, 3, "same", 2, "channels_last", [2, 8, 8, 8, 4]),
        (6, (2, 2, 3), (2, 1, 2), "valid", None, "channels_last", [2, 8, 8, 8, 4]),
        # correctness tests on input [2, 14, 14, 4]
        (5, 2, 2, "valid", None, "channels_last", [2, 14, 14, 4]),
        (6, 7, 16, "same", 2, "channels_last", [2, 14, 14, 4]),
        (6, (2, 3), (2, 1), "valid", None, "channels_last", [2, 14, 14, 4]),
        (2, (7, 7), (16, 16), "valid", None, "channels_last", [2, 14, 14, 4]),
    ]
    for filters, k, s, p, op, fmt, x in layer:
        nd = len(x) - 2
        ks = [k] * nd if isinstance(k, int) else list(k)
        cin = x[-1] if fmt == "channels_last" else x[1]
        C.append(ct_case(f"conv_transpose_test {nd}D f{filters} k{k} s{s} {p} op{op} {fmt} x{x}",
                         "§3.6 keras layer tests", x, [*ks, filters, cin], s,
                         p, op, data_format=fmt))
    # §3.6 consistency sweep: ones (1,3,1), kernel arange(1..k) (k,1,1).
    for k in range(1, 5):
        for s in range(1, 5):
            for p in ("same", "valid"):
                for op in (None, 1, 2, 3, 4):
                    if op is not None and op >= s:
                        continue
                    C.append(ct_case(f"test_conv1d_transpose_consistency k{k} s{s} {p} op{op}",
                                     "§3.6 consistency sweep", [1, 3, 1], [k, 1, 1], s, p, op,
                                     values="ones_arange"))
    # §2.3 worked examples (x = [1,2,3], k = [1,10,100], s = 2) and the op=0 case.
    for p, op in (("same", None), ("same", 0), ("valid", None), ("valid", 1)):
        C.append(ct_case(f"spec §2.3 worked example {p} op{op}", "§2.3 worked example",
                         [1, 3, 1], [3, 1, 1], 2, p, op, values="worked"))
    C.append(ct_case("docs §4.2 same op0 even kernel", "§2.6 item 1 (TF raises)",
                     [1, 3, 1], [2, 1, 1], 2, "same", 0, values="worked"))
    # §3.7 backend_utils_test geometry: input (1,5,5,3), kernel (3,3,3,3), s=2.
    for p in ("valid", "same"):
        for op in (None, 1):
            C.append(ct_case(f"backend_utils_test (1,5,5,3) k3 s2 {p} op{op}", "§3.7",
                             [1, 5, 5, 3], [3, 3, 3, 3], 2, p, op))
    return C


def random_conv_transpose(count=RANDOM_COUNT, seed=None, max_elems=600,
                          dtypes=DTYPES) -> List[Dict]:
    """Half the configurations are ones Keras' TF backend computes on the
    CPU (channels_last, dilation 1, spec §2.6 predicate), half general
    (channels_first, dilation, dilation with stride, output_padding 0 with
    even kernels)."""
    rng = random.Random(RANDOM_SEED["conv_transpose"] if seed is None else seed)
    cases = []
    while len(cases) < count:
        tf_like = len(cases) % 2 == 0
        nd = rng.choices([1, 2, 3], weights=[3, 5, 2])[0]
        fmt = "channels_last" if tf_like or rng.random() < 0.4 else "channels_first"
        padding = rng.choice(["valid", "same"])
        use_op = rng.random() < 0.5
        kmax, inmax = {1: (5, 6), 2: (4, 4), 3: (3, 3)}[nd]
        ks, ss, ds, ops, ins = [], [], [], [], []
        for _ in range(nd):
            k = rng.randint(1, kmax)
            s = rng.choice([1, 2, 2, 3] if nd < 3 else [1, 2])
            d = 1 if tf_like or rng.random() < 0.5 else rng.randint(2, 3)
            op = rng.randint(0, s - 1) if use_op else None
            ks.append(k); ss.append(s); ds.append(d); ops.append(op)
            ins.append(rng.randint(1, inmax))
        cin, cout = rng.randint(1, 3), rng.randint(1, 3)
        batch = rng.choice([1, 1, 2, 2, 3])
        x = [batch, *ins, cin] if fmt == "channels_last" else [batch, cin, *ins]
        c = ct_case(f"random-ct-{len(cases):04d}", "random", x, [*ks, cout, cin], ss,
                    padding, ops if use_op else None, ds, fmt,
                    dtype=dtypes[len(cases) % len(dtypes)], seed=rng.randrange(2**31))
        out = ct_output_shape(c)
        if min(out) < 0 or max(np.prod(x), np.prod(out), np.prod(c["kernel_shape"])) > max_elems:
            continue
        if tf_like and tf_backend_accepts_transpose(c) is not None:
            continue
        cases.append(c)
    return cases


# --------------------------------------------------------------------------
# Operands
# --------------------------------------------------------------------------

def make_inputs(case, dtype: Optional[str] = None):
    """The two operands of `case` as arrays of `dtype` (default the case's),
    values rounded to that dtype. Random values are uniform in [-1, 1)."""
    dt = np_dtype(dtype or case["dtype"])
    if case["op"] == "backprop_filter":
        shapes = (case["input_shape"], case["out_backprop_shape"])
    else:
        shapes = (case["input_shape"], case["kernel_shape"])
    kind = case["values"]
    if kind == "arange":  # TF's _CreateNumpyTensor / Keras' arange tests
        if case["op"] == "backprop_filter":
            arrs = [np.arange(1, int(np.prod(s)) + 1, dtype=np.float64).reshape(s)
                    for s in shapes]
        else:
            arrs = [np.arange(int(np.prod(s)), dtype=np.float64).reshape(s) for s in shapes]
    elif kind == "ones_arange":
        arrs = [np.ones(shapes[0]),
                np.arange(1, int(np.prod(shapes[1])) + 1, dtype=np.float64).reshape(shapes[1])]
    elif kind == "worked":
        k = [1.0, 10.0, 100.0][:shapes[1][0]]
        arrs = [np.array([1.0, 2.0, 3.0]).reshape(shapes[0]), np.array(k).reshape(shapes[1])]
    else:
        rng = np.random.default_rng(case["seed"])
        arrs = [rng.uniform(-1.0, 1.0, size=s) for s in shapes]
    return tuple(a.astype(dt) for a in arrs)


def with_dtype(case, dtype: str) -> Dict:
    c = copy.deepcopy(case)
    c["dtype"] = dtype
    return c


def expand_dtypes(cases: Sequence[Dict], dtypes=DTYPES) -> List[Dict]:
    return [with_dtype(c, d) for c in cases for d in dtypes]


def case_id(case) -> str:
    return f"{case['name']}-{case['dtype']}"
