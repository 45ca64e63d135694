"""convgen.conv_transpose: the spec's Keras examples and upstream shapes
(§2.3, §3.5, §3.6) and random configurations against npref."""

import concurrent.futures

import numpy as np
import pytest

import convgen
import npref


def check_against_numpy(x, k, strides, dilations, padding, output_padding, got,
                        channels_first=False):
    exact = npref.conv_transpose(x, k, strides, dilations, padding, output_padding,
                                 channels_first)
    magnitude = npref.conv_transpose(np.abs(x.astype(np.float64)), np.abs(k.astype(np.float64)),
                                     strides, dilations, padding, output_padding, channels_first)
    n = x.ndim - 2
    terms = int(np.prod(k.shape[:n])) * k.shape[-1]
    npref.assert_close(got, exact, magnitude, terms, x.dtype)


# Spec §2.3 worked examples: x = [1, 2, 3], k = [1, 10, 100], s = 2.
WORKED = [
    ("same", None, [1, 10, 102, 20, 203, 30]),
    ("same", 0, [10, 102, 20, 203, 30]),
    ("valid", None, [1, 10, 102, 20, 203, 30, 300]),
    ("valid", 1, [1, 10, 102, 20, 203, 30, 300, 0]),
]


# All four in float32 (plus channels_first); same/None and valid/1 in every
# dtype.
WORKED_RUNS = [(w, np.dtype(np.float32)) for w in WORKED] + \
    [(w, d) for w in (WORKED[0], WORKED[3]) for d in npref.DTYPES if d != np.float32]


@pytest.mark.parametrize("case,dtype", WORKED_RUNS,
                         ids=[f"{w[0]}-{w[1]}-{d.name}" for w, d in WORKED_RUNS])
def test_keras_worked_examples(case, dtype):
    padding, output_padding, expected = case
    x = np.array([1, 2, 3], np.float64).astype(dtype).reshape(1, 3, 1)
    k = np.array([1, 10, 100], np.float64).astype(dtype).reshape(3, 1, 1)
    got = convgen.conv_transpose(x, k, 2, padding, output_padding)
    assert got.dtype == dtype and got.shape == (1, len(expected), 1)
    want = np.array(expected, np.float64).astype(dtype).astype(np.float64)
    np.testing.assert_array_equal(got.astype(np.float64).ravel(), want)
    if dtype != np.float32:
        return
    # Same values channels_first (C = 1), and upper-case spellings.
    got_cf = convgen.conv_transpose(x.reshape(1, 1, 3), k, (2,), padding.upper(),
                                    output_padding, "Channels_First")
    np.testing.assert_array_equal(got_cf.astype(np.float64).ravel(), want)


def test_same_output_padding_zero_even_kernel():
    # docs/Semantics.md §4.2: TF raises, ConvGen (like JAX) gives [10, 2, 20, 3].
    x = np.array([1, 2, 3], np.float32).reshape(1, 3, 1)
    k = np.array([1, 10], np.float32).reshape(2, 1, 1)
    got = convgen.conv_transpose(x, k, 2, "same", 0)
    np.testing.assert_array_equal(got.ravel(), [10, 2, 20, 3])


# Spec §3.5: kernel (k, Cout=5, Cin=3); channels_last shapes.
OPS_SHAPES = [
    ((2, 4, 3), (2, 5, 3), 2, "valid", None, (2, 8, 5)),
    ((2, 4, 3), (2, 5, 3), 2, "same", None, (2, 8, 5)),
    ((2, 4, 3), (2, 5, 3), 5, "valid", 4, (2, 21, 5)),
    ((2, 4, 4, 3), (2, 2, 5, 3), 2, "valid", None, (2, 8, 8, 5)),
    ((2, 4, 4, 3), (2, 2, 5, 3), (2, 2), "same", None, (2, 8, 8, 5)),
    ((2, 4, 4, 3), (2, 2, 5, 3), (5, 5), "valid", 4, (2, 21, 21, 5)),
]


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("in_shape,k_shape,strides,padding,output_padding,out_shape", OPS_SHAPES)
def test_keras_ops_shapes(in_shape, k_shape, strides, padding, output_padding, out_shape,
                          data_format):
    rng = np.random.default_rng(10)
    x = rng.standard_normal(in_shape).astype(np.float32)
    k = rng.standard_normal(k_shape).astype(np.float32)
    cf = data_format == "channels_first"
    xa = npref.to_channels_first(x) if cf else x
    want_shape = tuple(npref.to_channels_first(np.empty(out_shape)).shape) if cf else out_shape
    assert convgen.conv_transpose_output_shape(xa.shape, k.shape, strides, padding,
                                               output_padding, data_format) == want_shape
    if cf and len(in_shape) > 3:
        return  # compiled 2-D channels_first is covered by the random configurations
    got = convgen.conv_transpose(xa, k, strides, padding, output_padding, data_format)
    assert got.shape == want_shape
    n = x.ndim - 2
    st = [strides] * n if isinstance(strides, int) else list(strides)
    check_against_numpy(xa, k, st, [1] * n, padding,
                        None if output_padding is None else [output_padding] * n, got, cf)


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_keras_ops_correctness_1d(padding):
    # test_conv_transpose_1d: arange(24) as (2,4,3), kernel arange(30) as (2,5,3).
    x = np.arange(24, dtype=np.float64).reshape(2, 4, 3)
    k = np.arange(30, dtype=np.float64).reshape(2, 5, 3)
    got = convgen.conv_transpose(x, k, 2, padding)
    np.testing.assert_array_equal(got, npref.conv_transpose(x, k, [2], [1], padding, None))


@pytest.mark.parametrize("strides", [2, (2, 2)])
@pytest.mark.parametrize("padding", ["valid", "same"])
def test_keras_ops_correctness_2d(strides, padding):
    # test_conv_transpose_2d: arange(96) as (2,4,4,3), kernel arange(60) as (2,2,5,3).
    x = np.arange(96, dtype=np.float32).reshape(2, 4, 4, 3)
    k = np.arange(60, dtype=np.float32).reshape(2, 2, 5, 3)
    got = convgen.conv_transpose(x, k, strides, padding)
    np.testing.assert_array_equal(got, npref.conv_transpose(x, k, [2, 2], [1, 1], padding, None))


# Spec §3.6 layer configurations: filters, kernel_size, strides, padding,
# output_padding, data_format, dilation, input shape, expected output shape.
LAYER_SHAPES = [
    (5, 2, 2, "valid", None, "channels_last", 1, (2, 8, 4), (2, 16, 5)),
    (6, 2, 3, "same", 2, "channels_last", (1,), (2, 8, 4), (2, 23, 6)),
    (6, (2,), (2,), "valid", None, "channels_last", 1, (2, 8, 4), (2, 16, 6)),
    (5, 2, 2, "valid", None, "channels_last", 1, (2, 8, 8, 4), (2, 16, 16, 5)),
    (6, 2, 3, "same", 2, "channels_last", (1, 1), (2, 8, 8, 4), (2, 23, 23, 6)),
    (6, (2, 3), (2, 1), "valid", None, "channels_first", (1, 1), (2, 4, 8, 8), (2, 6, 16, 10)),
    (2, (7, 7), (16, 16), "valid", None, "channels_last", (1, 1), (1, 14, 14, 2), (1, 224, 224, 2)),
    (5, 2, 2, "valid", None, "channels_last", 1, (2, 8, 8, 8, 4), (2, 16, 16, 16, 5)),
    (6, 2, 3, "same", 2, "channels_last", (1, 1, 1), (2, 8, 8, 8, 4), (2, 23, 23, 23, 6)),
    (6, (2, 2, 3), (2, 1, 2), "valid", None, "channels_last", (1, 1, 1), (2, 8, 8, 8, 4),
     (2, 16, 9, 17, 6)),
    # Correctness-only configurations on [2, 14, 14, 4].
    (5, 2, 2, "valid", None, "channels_last", 1, (2, 14, 14, 4), (2, 28, 28, 5)),
    (6, 7, 16, "same", 2, "channels_last", 1, (2, 14, 14, 4), (2, 211, 211, 6)),
    (6, (2, 3), (2, 1), "valid", None, "channels_last", 1, (2, 14, 14, 4), (2, 28, 16, 6)),
    # 1-D forms of the two stride-16 configurations (values).
    (2, 7, 16, "valid", None, "channels_last", 1, (1, 14, 2), (1, 224, 2)),
    (6, 7, 16, "same", 2, "channels_last", 1, (2, 14, 4), (2, 211, 6)),
]


@pytest.mark.parametrize("filters,kernel_size,strides,padding,output_padding,data_format,"
                         "dilation,in_shape,out_shape", LAYER_SHAPES)
def test_keras_layer_configurations(filters, kernel_size, strides, padding, output_padding,
                                    data_format, dilation, in_shape, out_shape):
    rng = np.random.default_rng(11)
    n = len(in_shape) - 2
    ks = [kernel_size] * n if isinstance(kernel_size, int) else list(kernel_size)
    cf = data_format == "channels_first"
    cin = in_shape[1] if cf else in_shape[-1]
    tup = lambda v: [v] * n if isinstance(v, int) else list(v)  # noqa: E731
    if n == 2 and max(tup(strides)) >= 16:
        # Shape only: 16 x 16 stride phases take seconds to compile. The
        # 1-D stride-16 configurations below check the values.
        assert convgen.conv_transpose_output_shape(
            in_shape, (*ks, filters, cin), strides, padding, output_padding, data_format,
            dilation) == out_shape
        return
    x = rng.standard_normal(in_shape).astype(np.float32)
    k = rng.standard_normal((*ks, filters, cin)).astype(np.float32)
    got = convgen.conv_transpose(x, k, strides, padding, output_padding, data_format, dilation)
    assert got.shape == out_shape
    check_against_numpy(x, k, tup(strides), tup(dilation), padding,
                        None if output_padding is None else tup(output_padding), got, cf)


def test_conv1d_transpose_consistency_sweep():
    # Spec §3.6: ones (1,3,1); kernel 1..k as (k,1,1); k, s in 1..4; both
    # paddings; output_padding None or 1..4 below the stride.
    x = np.ones((1, 3, 1), np.float32)
    configs = [(ksize, s, padding, op) for ksize in range(1, 5) for s in range(1, 5)
               for padding in ("same", "valid") for op in (None, 1, 2, 3, 4)
               if op is None or op < s]
    assert len(configs) == 80

    def run(config):
        ksize, s, padding, op = config
        k = np.arange(1, ksize + 1, dtype=np.float32).reshape(ksize, 1, 1)
        return k, convgen.conv_transpose(x, k, s, padding, op)

    # Compiled concurrently (the C API compiles in parallel; also a thread
    # safety check), compared in order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, configs))
    for (ksize, s, padding, op), (k, got) in zip(configs, results):
        want = npref.conv_transpose(x, k, [s], [1], padding, None if op is None else [op])
        np.testing.assert_array_equal(got, want, err_msg=f"k={ksize} s={s} {padding} op={op}")


def test_strides_with_dilation_allowed():
    # The layers forbid strides > 1 with dilation > 1; keras.ops (JAX) and
    # ConvGen compute it.
    rng = np.random.default_rng(12)
    x = rng.standard_normal((2, 5, 4, 3))
    k = rng.standard_normal((3, 2, 4, 3))
    for padding in ("valid", "same"):
        got = convgen.conv_transpose(x, k, 2, padding, dilation_rate=(2, 1))
        check_against_numpy(x, k, [2, 2], [2, 1], padding, None, got)


def test_zero_filters_and_empty_batch():
    # filters = 0 (an empty result) and batch 0 are not errors.
    got = convgen.conv_transpose(np.ones((1, 3, 2), np.float32),
                                 np.ones((2, 0, 2), np.float32), 2)
    assert got.shape == (1, 6, 0)
    got = convgen.conv_transpose(np.ones((0, 3, 2), np.float32),
                                 np.ones((2, 4, 2), np.float32), 2, "same")
    assert got.shape == (0, 6, 4)


def random_config(rng):
    n = int(rng.integers(1, 4))
    limit = {1: 7, 2: 5, 3: 3}[n]
    # Each stride position is one phase to compile: keep N-D strides small.
    strides = [int(rng.integers(1, {1: 5, 2: 4, 3: 3}[n])) for _ in range(n)]
    dilations = [int(rng.choice([1, 1, 2, 3])) for _ in range(n)]
    padding = str(rng.choice(["valid", "same"]))
    op = None
    if rng.integers(0, 2):
        op = [int(rng.integers(0, s)) for s in strides]
    return dict(n=n, batch=int(rng.integers(1, 3)), cin=int(rng.integers(1, 4)),
                cout=int(rng.integers(1, 4)),
                ins=[int(rng.integers(1, limit + 1)) for _ in range(n)],
                ks=[int(rng.integers(1, 4)) for _ in range(n)], strides=strides,
                dilations=dilations, padding=padding, output_padding=op,
                channels_first=bool(rng.integers(0, 2)))


@pytest.mark.parametrize("seed", range(16))
def test_random_configs(seed):
    dtype = npref.DTYPES[seed % len(npref.DTYPES)]
    rng = np.random.default_rng(200 + seed)
    c = random_config(rng)
    x = rng.uniform(-1, 1, [c["batch"], *c["ins"], c["cin"]]).astype(dtype)
    k = rng.uniform(-1, 1, [*c["ks"], c["cout"], c["cin"]]).astype(dtype)
    fmt = "channels_last"
    if c["channels_first"]:
        x = npref.to_channels_first(x)  # non-contiguous: the package copies it
        fmt = "channels_first"
    # Alternate ints (when uniform) and lists.
    strides = c["strides"][0] if seed % 2 and len(set(c["strides"])) == 1 else c["strides"]
    got = convgen.conv_transpose(x, k, strides, c["padding"], c["output_padding"], fmt,
                                 c["dilations"])
    assert got.dtype == dtype
    check_against_numpy(x, k, c["strides"], c["dilations"], c["padding"],
                        c["output_padding"], got, c["channels_first"])
    ref = convgen.reference_conv_transpose(x, k, strides, c["padding"], c["output_padding"],
                                           fmt, c["dilations"])
    check_against_numpy(x, k, c["strides"], c["dilations"], c["padding"],
                        c["output_padding"], ref, c["channels_first"])
