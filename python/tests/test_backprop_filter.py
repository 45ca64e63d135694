"""convgen.conv2d_backprop_filter and convgen.backprop_filter: the spec's
upstream cases (§3.1-§3.4) and random configurations against npref."""

import numpy as np
import pytest

import convgen
import npref


def arange_input(shape, dtype=np.float32):
    """TF's _CreateNumpyTensor: 1..N reshaped."""
    return np.arange(1, int(np.prod(shape)) + 1, dtype=np.float64).reshape(shape).astype(dtype)


def nchw(a):
    return np.ascontiguousarray(np.moveaxis(a, -1, 1))


def nchw_list(v):
    return [v[0], v[3], v[1], v[2]]


# Spec §3.1 (conv_ops_test.py, hard-coded) and §3.3 (XLA conv2d_test.py):
# (input, filter_sizes, out_backprop, strides [h, w], padding, dilations
# [h, w], expected flattened HWIO).
DEPTH3 = [17, 22, 27, 22, 29, 36, 27, 36, 45, 32, 43, 54, 37, 50, 63, 42, 57, 72,
          62, 85, 108, 67, 92, 117, 72, 99, 126, 77, 106, 135, 82, 113, 144, 87,
          120, 153]
CANNED = {
    # §3.1
    "2x2Depth1Valid": ([1, 2, 3, 1], [2, 2, 1, 1], [1, 1, 2, 1], [1, 1], "VALID", [1, 1], [5, 8, 14, 17]),
    "Empty": ([1, 2, 3, 1], [2, 2, 1, 0], [1, 1, 2, 0], [1, 1], "VALID", [1, 1], []),
    "EmptyInput": ([0, 2, 3, 1], [2, 2, 1, 1], [0, 1, 2, 1], [1, 1], "VALID", [1, 1], [0, 0, 0, 0]),
    "2x2Depth3Valid": ([1, 2, 3, 3], [2, 2, 3, 3], [1, 1, 2, 3], [1, 1], "VALID", [1, 1], DEPTH3),
    "2x2Depth3Stride1x2": ([1, 3, 6, 1], [2, 2, 1, 1], [1, 2, 3, 1], [1, 2], "VALID", [1, 1], [161, 182, 287, 308]),
    "StrideTwoFilterOneSame": ([1, 4, 4, 1], [1, 1, 1, 1], [1, 2, 2, 1], [2, 2], "SAME", [1, 1], [78]),
    "KernelSizeMatchesInput": ([1, 2, 2, 1], [2, 2, 1, 2], [1, 1, 1, 2], [1, 1], "VALID", [1, 1], [1, 2, 2, 4, 3, 6, 4, 8]),
    # §3.3
    "1x1Filter": ([1, 4, 4, 3], [1, 1, 3, 2], [1, 4, 4, 2], [1, 1], "VALID", [1, 1], [8056, 8432, 8312, 8704, 8568, 8976]),
    "1x2Filter": ([1, 3, 3, 1], [1, 2, 1, 1], [1, 3, 2, 1], [1, 1], "VALID", [1, 1], [120, 141]),
    "1x2FilterStride3Width5": ([1, 1, 5, 1], [1, 2, 1, 1], [1, 1, 2, 1], [3, 3], "VALID", [1, 1], [9, 12]),
    "1x2FilterStride3Width6": ([1, 1, 6, 1], [1, 2, 1, 1], [1, 1, 2, 1], [3, 3], "VALID", [1, 1], [9, 12]),
    "1x2FilterStride3Width7": ([1, 1, 7, 1], [1, 2, 1, 1], [1, 1, 2, 1], [3, 3], "VALID", [1, 1], [9, 12]),
    "1x3Filter": ([1, 1, 4, 1], [1, 3, 1, 1], [1, 1, 2, 1], [1, 1], "VALID", [1, 1], [5, 8, 11]),
    "1x3FilterSame": ([1, 1, 4, 1], [1, 3, 1, 1], [1, 1, 4, 1], [1, 1], "SAME", [1, 1], [20, 30, 20]),
    "1x3FilterSameOutbackprop2": ([1, 1, 4, 1], [1, 3, 1, 1], [1, 1, 2, 1], [2, 2], "SAME", [1, 1], [7, 10, 3]),
    "2x2FilterC1Same": ([1, 2, 3, 1], [2, 2, 1, 1], [1, 2, 3, 1], [1, 1], "SAME", [1, 1], [91, 58, 32, 17]),
    "2x2FilterStride2": ([1, 3, 5, 1], [1, 3, 1, 1], [1, 2, 2, 1], [2, 2], "VALID", [1, 1], [92, 102, 112]),
    "2x2FilterStride2Same": ([1, 2, 3, 1], [2, 2, 1, 1], [1, 1, 2, 1], [2, 2], "SAME", [1, 1], [7, 2, 16, 5]),
    "Stride1x1Dilation2x1": ([1, 3, 6, 1], [2, 2, 1, 1], [1, 1, 5, 1], [1, 1], "VALID", [2, 1], [55, 70, 235, 250]),
    "Depth1Dilation1x2": ([1, 2, 3, 1], [2, 2, 1, 1], [1, 1, 1, 1], [1, 1], "VALID", [1, 2], [1, 3, 4, 6]),
    "EmptyDilation1x2": ([1, 2, 3, 1], [2, 2, 1, 0], [1, 1, 1, 0], [1, 1], "VALID", [1, 2], []),
    "Depth3Dilation2x2": ([1, 3, 4, 3], [2, 2, 3, 3], [1, 1, 2, 3], [1, 1], "VALID", [2, 2],
                          [17, 22, 27, 22, 29, 36, 27, 36, 45, 47, 64, 81, 52, 71, 90, 57, 78, 99,
                           137, 190, 243, 142, 197, 252, 147, 204, 261, 167, 232, 297, 172, 239,
                           306, 177, 246, 315]),
    "KernelSizeMatchesInputDilation2x2": ([1, 3, 3, 1], [2, 2, 1, 2], [1, 1, 1, 2], [1, 1], "VALID", [2, 2],
                                          [1, 2, 3, 6, 7, 14, 9, 18]),
    "GroupedFilter": ([1, 2, 2, 2], [2, 2, 1, 2], [1, 1, 1, 2], [1, 1], "VALID", [1, 1], [1, 4, 3, 8, 5, 12, 7, 16]),
}


# Every case in float32 NHWC; NCHW and the other dtypes on a subset that
# covers SAME, strides, dilation, groups and the empty cases (the element
# type only changes the loads, stores and final rounding; the NCHW paths
# also run in the explicit-padding, gradient and random tests).
SUBSET = ["EmptyInput", "Empty", "1x1Filter", "2x2Depth3Valid", "1x3FilterSame",
          "2x2FilterStride2Same", "Depth3Dilation2x2", "GroupedFilter"]
CANNED_RUNS = ([(c, "NHWC", np.dtype(np.float32)) for c in CANNED]
               + [(c, "NCHW", np.dtype(np.float32)) for c in SUBSET]
               + [(c, "NHWC", d) for c in SUBSET for d in npref.DTYPES
                  if d != np.dtype(np.float32)])


@pytest.mark.parametrize("case,data_format,dtype", CANNED_RUNS,
                         ids=[f"{c}-{f}-{d.name}" for c, f, d in CANNED_RUNS])
def test_canned_results(case, data_format, dtype):
    in_shape, filter_sizes, out_shape, (sh, sw), padding, (dh, dw), expected = CANNED[case]
    x = arange_input(in_shape, dtype)
    dy = arange_input(out_shape, dtype)
    strides, dilations = [1, sh, sw, 1], [1, dh, dw, 1]
    if data_format == "NCHW":
        x, dy = nchw(x), nchw(dy)
        strides, dilations = nchw_list(strides), nchw_list(dilations)
    got = convgen.conv2d_backprop_filter(x, filter_sizes, dy, strides, padding,
                                         data_format=data_format, dilations=dilations)
    assert got.dtype == dtype and got.shape == tuple(filter_sizes)
    # Integer sums below 2**24 are exact in the f32 accumulator: the result
    # is the expected value rounded once to the element type.
    want = np.array(expected, np.float64).astype(dtype).reshape(filter_sizes)
    np.testing.assert_array_equal(got.astype(np.float64), want.astype(np.float64))


def test_empty_input_gives_zeros_not_garbage():
    # testConv2DBackpropFilterWithEmptyInput; also a batch of 0 with SAME.
    x = np.zeros((0, 5, 5, 2), np.float32)
    dy = np.zeros((0, 3, 3, 4), np.float32)
    got = convgen.conv2d_backprop_filter(x, [3, 3, 2, 4], dy, [1, 2, 2, 1], "SAME")
    np.testing.assert_array_equal(got, np.zeros((3, 3, 2, 4), np.float32))


def check_against_numpy(x, dy, filter_sizes, strides, dilations, pads_before, got,
                        channels_first=False):
    exact = npref.backprop_filter(x.astype(np.float64), dy.astype(np.float64), filter_sizes,
                                  strides, dilations, pads_before, channels_first)
    magnitude = npref.backprop_filter(np.abs(x.astype(np.float64)), np.abs(dy.astype(np.float64)),
                                      filter_sizes, strides, dilations, pads_before,
                                      channels_first)
    terms = dy.shape[0] * int(np.prod(dy.shape[1:-1] if not channels_first else dy.shape[2:]))
    npref.assert_close(got, exact, magnitude, terms, x.dtype)


def tf_case(rng, dtype, in_shape, filter_sizes, strides, padding, dilations=(1, 1),
            data_format="NHWC"):
    """Runs conv2d_backprop_filter on random data (NHWC shapes given; NCHW
    transposes) and checks it against npref."""
    pads = [[0, 0], [0, 0]]
    if isinstance(padding, list):
        pads = padding
        tf_padding = [[0, 0], pads[0], pads[1], [0, 0]]
    else:
        tf_padding = padding
    outs, befores = [], []
    for i in range(2):
        o, b = npref.tf_windowed_output(in_shape[1 + i], filter_sizes[i], strides[i],
                                        dilations[i], "EXPLICIT" if isinstance(padding, list)
                                        else padding, *pads[i])
        outs.append(o)
        befores.append(b)
    x = rng.uniform(-1, 1, in_shape).astype(dtype)
    dy = rng.uniform(-1, 1, [in_shape[0], *outs, filter_sizes[3]]).astype(dtype)
    st, di = [1, *strides, 1], [1, *dilations, 1]
    if data_format == "NCHW":
        xa, dya = nchw(x), nchw(dy)
        st, di = nchw_list(st), nchw_list(di)
        if isinstance(padding, list):
            tf_padding = nchw_list(tf_padding)
    else:
        xa, dya = x, dy
    got = convgen.conv2d_backprop_filter(xa, filter_sizes, dya, st, tf_padding,
                                         data_format=data_format, dilations=di)
    check_against_numpy(x, dy, filter_sizes, strides, dilations, befores, got)
    return x, dy, got


# Spec §3.1: dilation comparisons, explicit padding, gradient-checker configs.
DILATION_CASES = [
    ([1, 3, 6, 1], [2, 2, 1, 1], [1, 1], [2, 1]),
    ([1, 2, 3, 1], [2, 2, 1, 1], [1, 1], [1, 2]),
    ([1, 2, 3, 1], [2, 2, 1, 0], [1, 1], [1, 2]),
    ([1, 3, 4, 3], [2, 2, 3, 3], [1, 1], [2, 2]),
    ([1, 3, 3, 1], [2, 2, 1, 2], [1, 1], [2, 2]),
]


@pytest.mark.parametrize("in_shape,filter_sizes,strides,dilations", DILATION_CASES)
def test_dilation_cases(in_shape, filter_sizes, strides, dilations):
    rng = np.random.default_rng(1)
    tf_case(rng, np.float32, in_shape, filter_sizes, strides, "VALID", dilations)


# (input, filter, out, strides, [[t, b], [l, r]], dilations)
EXPLICIT_CASES = [
    ([1, 2, 3, 1], [2, 2, 1, 1], [1, 1, 2, 1], [1, 1], [[0, 0], [0, 0]], [1, 1]),
    ([1, 3, 4, 2], [2, 2, 2, 3], [1, 1, 2, 3], [2, 2], [[0, 0], [0, 0]], [1, 1]),
    ([1, 2, 3, 1], [2, 2, 1, 2], [1, 3, 4, 2], [1, 1], [[1, 1], [1, 1]], [1, 1]),
    ([1, 2, 3, 2], [1, 1, 2, 1], [1, 4, 3, 1], [1, 2], [[1, 1], [1, 1]], [1, 1]),
    ([1, 4, 3, 1], [2, 2, 1, 1], [1, 4, 2, 1], [1, 2], [[1, 1], [1, 1]], [2, 2]),
    ([2, 3, 1, 1], [2, 1, 1, 1], [2, 2, 5, 1], [3, 1], [[2, 2], [2, 2]], [1, 1]),
    ([1, 3, 6, 1], [3, 2, 1, 1], [1, 3, 4, 1], [1, 2], [[2, 2], [2, 2]], [2, 3]),
    ([1, 2, 3, 1], [2, 2, 1, 1], [1, 10, 8, 1], [1, 1], [[1, 8], [4, 2]], [1, 1]),
    ([1, 5, 3, 1], [3, 2, 1, 1], [1, 4, 8, 1], [3, 1], [[1, 8], [4, 2]], [1, 1]),
    ([1, 3, 3, 1], [2, 1, 1, 1], [1, 7, 7, 1], [1, 1], [[5, 0], [2, 2]], [1, 1]),
    ([1, 4, 2, 1], [3, 3, 1, 1], [1, 5, 2, 1], [1, 2], [[5, 0], [2, 2]], [2, 1]),
]


# Every case NHWC; NCHW for the ones with strides or dilations.
EXPLICIT_RUNS = [(c, "NHWC") for c in EXPLICIT_CASES] + \
    [(c, "NCHW") for c in EXPLICIT_CASES if max(c[3]) > 1 or max(c[5]) > 1]


@pytest.mark.parametrize("case,data_format", EXPLICIT_RUNS)
def test_explicit_padding_cases(case, data_format):
    in_shape, filter_sizes, out_shape, strides, pads, dilations = case
    rng = np.random.default_rng(2)
    x, dy, got = tf_case(rng, np.float32, in_shape, filter_sizes, strides, pads, dilations,
                         data_format)
    assert dy.shape == tuple(out_shape)
    # Upstream's expectation: backprop_filter of np.pad(input) with VALID.
    padded = np.pad(x, [[0, 0], pads[0], pads[1], [0, 0]])
    valid = convgen.conv2d_backprop_filter(padded, filter_sizes, dy, [1, *strides, 1], "VALID",
                                           dilations=[1, *dilations, 1])
    np.testing.assert_allclose(got, valid, rtol=1e-5, atol=1e-5)


# Gradient-checker configurations: batch, in HxW, filter HxW, Cin, Cout,
# stride, padding (+ groups for the last one).
GRADIENT_CASES = [
    (4, (6, 5), (2, 2), 2, 3, (1, 1), "VALID", 1),
    (4, (6, 5), (2, 2), 2, 3, (2, 2), "VALID", 1),
    (2, (8, 7), (4, 4), 2, 3, (3, 3), "VALID", 1),
    (4, (6, 5), (2, 2), 2, 3, (1, 1), "SAME", 1),
    (4, (6, 5), (2, 2), 2, 3, (2, 2), "SAME", 1),
    (2, (8, 7), (4, 4), 2, 3, (3, 3), "SAME", 1),
    (2, (8, 7), (4, 4), 2, 3, (2, 1), "SAME", 1),
    (2, (4, 3), (4, 3), 2, 3, (1, 1), "VALID", 1),
    (2, (5, 4), (3, 3), 2, 3, (1, 1), [[1, 1], [1, 1]], 1),
    (2, (4, 5), (3, 3), 2, 3, (2, 2), [[1, 1], [1, 1]], 1),
    (2, (5, 4), (3, 3), 2, 3, (1, 1), [[2, 2], [2, 2]], 1),
    (2, (8, 5), (4, 2), 3, 2, (3, 2), [[1, 2], [3, 4]], 1),
    (3, (5, 7), (3, 2), 1, 2, (2, 1), [[4, 3], [2, 1]], 1),
    (2, (6, 7), (3, 4), 3, 2, (1, 2), [[0, 0], [0, 5]], 1),
    (2, (5, 4), (3, 3), 4, 6, (1, 1), "VALID", 2),  # FilterGradientGroupConv
]


# Every configuration NHWC; NCHW for the grouped one (as upstream) and the
# explicitly padded ones.
GRADIENT_RUNS = [(c, "NHWC") for c in GRADIENT_CASES] + \
    [(c, "NCHW") for c in GRADIENT_CASES if c[7] > 1 or isinstance(c[6], list)]


@pytest.mark.parametrize("case,data_format", GRADIENT_RUNS)
def test_gradient_checker_configs(case, data_format):
    batch, hw, fhw, cin, cout, strides, padding, groups = case
    rng = np.random.default_rng(3)
    tf_case(rng, np.float32, [batch, *hw, cin], [*fhw, cin // groups, cout], strides, padding,
            data_format=data_format)


@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("padding,dilated", [
    ("SAME", False), ("VALID", False), ([[1, 2], [3, 4]], False), ([[0, 3], [4, 2]], False),
    ("SAME", True), ("VALID", True), ([[3, 5], [2, 1]], True), ([[5, 2], [5, 1]], True)])
def test_backprop_filter_grad_test_shapes(stride, padding, dilated):
    # Spec §3.2: in [5,8,6,4], filter [3,3,4,6] (+ dilations [1,2,2,1]).
    rng = np.random.default_rng(4)
    tf_case(rng, np.float64, [5, 8, 6, 4], [3, 3, 4, 6], (stride, stride), padding,
            (2, 2) if dilated else (1, 1))


@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_conv3d_backprop_filter_v2_shapes(stride, padding):
    # Spec §3.4: in [2,4,3,3,2], filter [3,3,3,2,3], through backprop_filter.
    rng = np.random.default_rng(5)
    in_shape, fs = [2, 4, 3, 3, 2], [3, 3, 3, 2, 3]
    outs, befores = zip(*[npref.tf_windowed_output(in_shape[1 + i], fs[i], stride, 1, padding)
                          for i in range(3)])
    x = rng.uniform(-1, 1, in_shape)
    dy = rng.uniform(-1, 1, [2, *outs, 3])
    got = convgen.backprop_filter(x, fs, dy, stride, padding)
    assert got.shape == tuple(fs)
    check_against_numpy(x, dy, fs, [stride] * 3, [1] * 3, list(befores), got)


def random_config(rng):
    """A random valid backprop_filter configuration (1-D to 3-D, groups,
    dilation, every padding, both layouts)."""
    while True:
        n = int(rng.integers(1, 4))
        groups = int(rng.choice([1, 1, 2, 3]))
        cf = int(rng.integers(1, 4))
        cout = groups * int(rng.integers(1, 3))
        limit = {1: 12, 2: 8, 3: 5}[n]
        ins = [int(rng.integers(1, limit + 1)) for _ in range(n)]
        ks = [int(rng.integers(1, 4)) for _ in range(n)]
        strides = [int(rng.integers(1, 4)) for _ in range(n)]
        dilations = [int(rng.choice([1, 1, 2, 3])) for _ in range(n)]
        padding = str(rng.choice(["SAME", "VALID", "EXPLICIT"]))
        pairs = [(int(rng.integers(0, 3)), int(rng.integers(0, 3))) for _ in range(n)]
        outs, befores = [], []
        for i in range(n):
            o, b = npref.tf_windowed_output(ins[i], ks[i], strides[i], dilations[i], padding,
                                            *pairs[i])
            outs.append(o)
            befores.append(b)
        if min(outs) < 0:
            continue
        return dict(n=n, batch=int(rng.integers(1, 3)), cin=groups * cf, cf=cf, cout=cout,
                    ins=ins, ks=ks, strides=strides, dilations=dilations, padding=padding,
                    pairs=pairs, outs=outs, befores=befores,
                    channels_first=bool(rng.integers(0, 2)))


@pytest.mark.parametrize("seed", range(16))
def test_random_configs(seed):
    dtype = npref.DTYPES[seed % len(npref.DTYPES)]
    rng = np.random.default_rng(100 + seed)
    c = random_config(rng)
    n = c["n"]
    x = rng.uniform(-1, 1, [c["batch"], *c["ins"], c["cin"]]).astype(dtype)
    dy = rng.uniform(-1, 1, [c["batch"], *c["outs"], c["cout"]]).astype(dtype)
    fs = [*c["ks"], c["cf"], c["cout"]]
    fmt = {1: "NWC", 2: "NHWC", 3: "NDHWC"}[n]
    xa, dya = x, dy
    if c["channels_first"]:
        fmt = {1: "NCW", 2: "NCHW", 3: "NCDHW"}[n]
        xa, dya = nchw(x), nchw(dy)
    kwargs = dict(data_format=fmt, dilations=c["dilations"])
    padding = c["padding"]
    if padding == "EXPLICIT":
        # Alternate between the accepted spellings of explicit paddings.
        if seed % 3 == 0:
            kwargs["explicit_paddings"] = c["pairs"]
        elif seed % 3 == 1:
            padding = [list(p) for p in c["pairs"]]
        else:
            zero = [[0, 0]]
            padding = zero + [list(p) for p in c["pairs"]] + zero if not c["channels_first"] \
                else zero + zero + [list(p) for p in c["pairs"]]
    got = convgen.backprop_filter(xa, fs, dya, c["strides"], padding, **kwargs)
    assert got.dtype == dtype and got.shape == tuple(fs)
    check_against_numpy(x, dy, fs, c["strides"], c["dilations"], c["befores"], got)
    # ConvGen's own reference agrees too.
    ref = convgen.reference_backprop_filter(xa, fs, dya, c["strides"], padding, **kwargs)
    check_against_numpy(x, dy, fs, c["strides"], c["dilations"], c["befores"], ref)


def test_groups_1d_3d_explicit():
    rng = np.random.default_rng(6)
    # 1-D, NCW, groups 3, dilation 2, explicit (2, 1), stride 2.
    x = rng.standard_normal((2, 6, 11))
    out, before = npref.tf_windowed_output(11, 3, 2, 2, "EXPLICIT", 2, 1)
    dy = rng.standard_normal((2, 9, out))
    got = convgen.backprop_filter(x, [3, 2, 9], dy, [2], "EXPLICIT", data_format="NCW",
                                  dilations=[2], explicit_paddings=[2, 1])
    check_against_numpy(x, dy, [3, 2, 9], [2], [2], [before], got, channels_first=True)
    # 3-D, NDHWC, groups 2, SAME, strides (1, 2, 3).
    x = rng.standard_normal((1, 4, 5, 6, 4))
    outs, befores = zip(*[npref.tf_windowed_output(i, k, s, 1, "SAME")
                          for i, k, s in zip((4, 5, 6), (2, 3, 2), (1, 2, 3))])
    dy = rng.standard_normal((1, *outs, 4))
    got = convgen.backprop_filter(x, [2, 3, 2, 2, 4], dy, (1, 2, 3), "SAME")
    check_against_numpy(x, dy, [2, 3, 2, 2, 4], [1, 2, 3], [1, 1, 1], list(befores), got)


def test_truncating_division_valid_case():
    # in 1, k 4 (k_eff 4), s 2: (1 - 4 + 2) / 2 truncates to 0: accepted.
    x = np.ones((1, 1, 1, 1), np.float32)
    dy = np.zeros((1, 0, 0, 1), np.float32)
    got = convgen.conv2d_backprop_filter(x, [4, 4, 1, 1], dy, [1, 2, 2, 1], "VALID")
    np.testing.assert_array_equal(got, np.zeros((4, 4, 1, 1), np.float32))
