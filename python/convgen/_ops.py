"""The convgen operations: argument handling, kernel cache, execution.

Validation is split in two layers, as in TensorFlow and Keras:

* the Python API surface (what `tf.compat.v1.nn.conv2d_backprop_filter` and
  `keras.ops.conv_transpose` check in Python or in the op constructor, with
  their exact texts: `convert_padding`, 4-entry `strides`/`dilations`,
  `standardize_data_format`, the Keras channel and padding checks, dtypes);
* everything else goes to the C API, whose messages are the `conv` dialect
  verifier's (docs/Semantics.md §3) and are raised unchanged as ValueError.
"""

from __future__ import annotations

import atexit
import collections
import ctypes
import numbers
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

import numpy as np
import numpy.typing as npt

from . import _capi

try:  # bfloat16 arrays (optional at import time; listed in scripts/setup.sh)
    import ml_dtypes as _ml_dtypes
except ImportError:  # pragma: no cover - exercised only without ml_dtypes
    _ml_dtypes = None

IntOrInts = Union[int, Sequence[int]]
PaddingPairs = Sequence[Sequence[int]]


class ConvGenTypeError(TypeError, ValueError):
    """An argument of the wrong type (e.g. mismatched or unsupported dtypes).

    TensorFlow raises TypeError for these; convgen promises ValueError for
    every invalid argument. This class is both.
    """


# --------------------------------------------------------------------------
# Element types and operands
# --------------------------------------------------------------------------

_ALLOWED_DTYPES = "float16, bfloat16, float32, float64"
_C_DTYPE_NAMES = {
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
}
if _ml_dtypes is not None:
    _C_DTYPE_NAMES[np.dtype(_ml_dtypes.bfloat16)] = "bf16"


def _c_dtype(dtype: np.dtype) -> Optional[str]:
    name = _C_DTYPE_NAMES.get(dtype)
    if name is None and dtype.name == "bfloat16" and dtype.itemsize == 2:
        name = "bf16"  # another package's bfloat16 extension type
    return name


def _native(a: np.ndarray) -> np.ndarray:
    """A C-contiguous, aligned, native-byte-order array with a's values."""
    if not a.dtype.isnative and a.dtype.kind == "f":
        a = a.astype(a.dtype.newbyteorder("="))
    if not (a.flags.c_contiguous and a.flags.aligned):
        a = a.copy(order="C")
    return a


def _aligned_empty(shape: Sequence[int], dtype: np.dtype,
                   alignment: int = 64) -> np.ndarray:
    """An uninitialized C-contiguous array whose data starts on an
    `alignment`-byte boundary (NumPy's own allocations are 16-byte aligned;
    the kernels' vector loads and stores would straddle cache lines)."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + alignment, dtype=np.uint8)
    offset = (-raw.ctypes.data) % alignment
    return raw[offset:offset + nbytes].view(dtype).reshape(tuple(shape))


def _is_array(v: Any) -> bool:
    return (isinstance(v, (np.ndarray, np.generic)) or hasattr(v, "__array__")
            or hasattr(v, "__array_interface__"))


def _operands(a: Any, b: Any, a_name: str, b_name: str,
              op: str) -> Tuple[np.ndarray, np.ndarray, str]:
    """Both operands as arrays of one supported dtype, and its C name.

    Arrays keep their dtype. Other array-likes (nested lists, scalars) take
    the dtype of the other operand when that one is an array of a supported
    dtype, else float32 (TF's and Keras' default float type).
    """
    def hint(v: Any) -> Optional[np.dtype]:
        if _is_array(v):
            dt = np.asarray(v).dtype
            return dt if _c_dtype(dt) else None
        return None

    def convert(v: Any, name: str, other_hint: Optional[np.dtype]) -> np.ndarray:
        if _is_array(v):
            return np.asarray(v)
        try:
            return np.asarray(v, dtype=other_hint or np.float32)
        except (TypeError, ValueError) as e:
            raise ConvGenTypeError(
                f"{op}: cannot convert argument '{name}' to a float array: {e}"
            ) from None

    x = _native(convert(a, a_name, hint(b)))
    y = _native(convert(b, b_name, hint(a)))
    for arr, name in ((x, a_name), (y, b_name)):
        if _c_dtype(arr.dtype) is None:
            raise ConvGenTypeError(
                f"Value passed to parameter '{name}' of '{op}' has DataType "
                f"{arr.dtype} not in list of allowed values: {_ALLOWED_DTYPES}")
    if x.dtype != y.dtype:
        raise ConvGenTypeError(
            f"Input '{b_name}' of '{op}' Op has type {y.dtype} that does not "
            f"match type {x.dtype} of argument '{a_name}'.")
    return x, y, cast(str, _c_dtype(x.dtype))  # checked above


# --------------------------------------------------------------------------
# Integer arguments
# --------------------------------------------------------------------------

def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))


def _int_or_ints(name: str, value: Any, n: int, what: str) -> List[int]:
    """An int (broadcast to n entries) or a sequence of ints, as a list.

    The length is not checked here: the verifier reports wrong lengths.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0 and _is_int(value.item()):
        value = value.item()
    if _is_int(value):
        return [int(value)] * n
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ConvGenTypeError(
            f"The `{name}` argument must be {what}. Received: {name}={value!r}")
    items = list(np.asarray(value).reshape(-1)) if isinstance(value, np.ndarray) \
        else list(value)
    for v in items:
        if not _is_int(v):
            raise ConvGenTypeError(
                f"The `{name}` argument must be {what}. Received: "
                f"{name}={value!r} (element {v!r} is not an int)")
    return [int(v) for v in items]


def _tf_int_list(name: str, value: Any, op: str) -> List[int]:
    """A TF `list(int)` attribute (list or tuple of ints; no broadcasting)."""
    if isinstance(value, np.ndarray) and value.ndim == 1:
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise ConvGenTypeError(
            f"Expected list for '{name}' argument to '{op}' Op, not {value!r}.")
    for v in value:
        if not _is_int(v):
            raise ConvGenTypeError(
                f"Expected int for argument '{name}' not {v!r}.")
    return [int(v) for v in value]


def _filter_sizes(value: Any, label: str, nd: bool = False) -> List[int]:
    """TF's filter_sizes: a 1-D integer vector of sizes >= 0. `nd` adds the
    text of Conv3DBackpropFilterV2's shape function for a non-vector."""
    try:
        a = np.asarray(value)
    except (TypeError, ValueError) as e:
        raise ConvGenTypeError(f"{label}: filter_sizes must be a vector of "
                               f"ints, got {value!r}: {e}") from None
    if a.ndim != 1:
        raise ValueError(f"{label}: filter_sizes input must be 1-dim, not {a.ndim}"
                         + (f" (Shape must be rank 1 but is rank {a.ndim})" if nd else ""))
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise ConvGenTypeError(
            f"{label}: filter_sizes must be a vector of ints, got dtype "
            f"{a.dtype}: {value!r}")
    sizes = [int(v) for v in a]
    for v in sizes:
        if v < 0:
            raise ValueError(f"Dimension {v} must be >= 0")
    return sizes


def _check_pairs(padding: Sequence[Any]) -> List[int]:
    """convert_padding's element checks; the flattened list."""
    flat: List[int] = []
    for i, dim_paddings in enumerate(padding):
        if not isinstance(dim_paddings, (list, tuple)):
            raise ValueError(
                "When `padding` is a list, each element of `padding` must be a "
                f"list/tuple of size 2. Received: padding={padding} with "
                f"element at index {i} of type {type(dim_paddings)}")
        if len(dim_paddings) != 2:
            raise ValueError(
                "When `padding` is a list, each element of `padding` must be a "
                f"list/tuple of size 2. Received: padding={padding} with "
                f"element at index {i} of size {len(dim_paddings)}")
        for v in dim_paddings:
            if not _is_int(v):
                raise ConvGenTypeError(
                    f"Expected int for argument 'explicit_paddings' not {v!r}.")
        flat.extend(int(v) for v in dim_paddings)
    return flat


def convert_padding(padding: Any, expected_length: int = 4) -> Tuple[Any, List[int]]:
    """Converts a padding argument the way `tf.nn` does (`convert_padding`).

    Args:
      padding: A string (`"SAME"`, `"VALID"`; passed through unchecked) or
        a list of `expected_length` [before, after] pairs of ints.
      expected_length: The number of pairs a list must have (the rank of
        the input). Defaults to 4.

    Returns:
      `(padding, explicit_paddings)`: the string and `[]`, or `"EXPLICIT"`
      and the flattened pairs `[before_0, after_0, before_1, ...]`.

    Raises:
      ValueError: If `padding` is the string `"EXPLICIT"`, or a list of the
        wrong length or with elements that are not pairs (TF's messages).
        `ConvGenTypeError` for a pair entry that is not an int.
    """
    if isinstance(padding, str) and padding == "EXPLICIT":
        raise ValueError(
            "'EXPLICIT' is not a valid value for `padding`. To use explicit "
            "padding, `padding` must be a list.")
    explicit: List[int] = []
    if isinstance(padding, (list, tuple)):
        explicit = _check_pairs(padding)
        if len(padding) != expected_length:
            raise ValueError(
                f"When padding is a list, it must be of size {expected_length}. "
                f"Received: padding={padding} of size {len(padding)}")
        padding = "EXPLICIT"
    return padding, explicit


def _check_valid_explicit_padding(explicit: Sequence[int], batch_dim: int,
                                  channel_dim: int) -> None:
    """TF's CheckValidPadding for padding == EXPLICIT (length already OK)."""
    if any(v < 0 for v in explicit):
        raise ValueError("All elements of explicit_paddings must be nonnegative")
    if any(explicit[2 * d + i] != 0 for d in (batch_dim, channel_dim) for i in (0, 1)):
        raise ValueError("Nonzero explicit padding in the batch or depth "
                         "dimensions is not supported")


# --------------------------------------------------------------------------
# Kernels and their cache
# --------------------------------------------------------------------------

class _Kernel:
    """A compiled kernel handle with its argument shapes."""

    __slots__ = ("handle", "input_shapes", "output_shape", "flops")

    def __init__(self, handle: int):
        self.handle = handle
        self.input_shapes = tuple(
            _capi.shape_of(_capi.kernel_input_shape(handle, i),
                           _capi.kernel_input_rank(handle, i))
            for i in range(_capi.kernel_num_inputs(handle)))
        self.output_shape = _capi.shape_of(_capi.kernel_output_shape(handle, 0),
                                           _capi.kernel_output_rank(handle, 0))
        self.flops = _capi.kernel_flops(handle)


_CACHE_CAPACITY = 256
_cache: "collections.OrderedDict[Tuple[Any, ...], _Kernel]" = collections.OrderedDict()
_cache_lock = threading.Lock()
_python_hits = 0


def _cached(key: Tuple[Any, ...], compile_fn: Callable[[Any], Optional[int]]) -> _Kernel:
    """The kernel of `key`, compiling (outside the lock) on a miss."""
    global _python_hits
    with _cache_lock:
        k = _cache.get(key)
        if k is not None:
            _cache.move_to_end(key)
            _python_hits += 1
            return k
    err = _capi.ErrorSlot()
    handle = compile_fn(err.ref)
    if not handle:
        raise _capi.CApiError(err.take("convgen: compile failed (no message)"))
    err.take("")
    kernel = _Kernel(handle)
    evicted: List[_Kernel] = []
    with _cache_lock:
        existing = _cache.get(key)
        if existing is not None:  # another thread won the race
            evicted.append(kernel)
            kernel = existing
        else:
            _cache[key] = kernel
            while len(_cache) > _CACHE_CAPACITY:
                evicted.append(_cache.popitem(last=False)[1])
    for k in evicted:
        _capi.kernel_release(k.handle)
    return kernel


def _release_all() -> None:
    with _cache_lock:
        kernels = list(_cache.values())
        _cache.clear()
    for k in kernels:
        _capi.kernel_release(k.handle)


atexit.register(_release_all)


def clear_cache() -> None:
    """Empties both kernel caches.

    Releases the Python-side kernel handles and empties the C API's
    process-wide kernel cache: the next call of each configuration compiles
    again. Arrays already returned are not affected.
    """
    global _python_hits
    _release_all()
    _python_hits = 0
    _capi.clear_cache()


def cache_info() -> Dict[str, int]:
    """Sizes of the two kernel caches and the number of JIT compiles.

    Returns:
      A dict with the keys `python_entries` (handles held by this package),
      `python_hits` (calls answered without calling the C API's compile
      function), `c_entries` (kernels in the C API's process-wide cache)
      and `c_compiles` (compiles the C API has performed in this process).
    """
    with _cache_lock:
        entries = len(_cache)
    return {"python_entries": entries, "python_hits": _python_hits,
            "c_entries": int(_capi.cache_size()),
            "c_compiles": int(_capi.num_compiles())}


def _run(kernel: _Kernel, a: np.ndarray, b: np.ndarray,
         reference: bool) -> np.ndarray:
    for arr, shape in zip((a, b), kernel.input_shapes):
        if tuple(arr.shape) != shape:  # cannot happen: shapes are in the key
            raise ValueError(f"convgen: operand shape {arr.shape} does not "
                             f"match the kernel's {shape}")
    out = _aligned_empty(kernel.output_shape, a.dtype)
    buffers = (ctypes.c_void_p * 3)(a.ctypes.data, b.ctypes.data, out.ctypes.data)
    err = _capi.ErrorSlot()
    run = _capi.kernel_run_reference if reference else _capi.kernel_run
    if run(kernel.handle, buffers, 3, err.ref) != 0:
        raise RuntimeError(err.take("convgen: kernel run failed (no message)"))
    err.take("")
    return out


# --------------------------------------------------------------------------
# Core entry points (argument lists per spatial dimension)
# --------------------------------------------------------------------------

def _backprop_filter_kernel(dtype: str, data_format: str, input_shape: Sequence[int],
                            filter_sizes: Sequence[int],
                            out_backprop_shape: Sequence[int], strides: Sequence[int],
                            dilations: Optional[Sequence[int]], padding: str,
                            explicit: Sequence[int]) -> _Kernel:
    key = ("backprop_filter", dtype, data_format, tuple(input_shape),
           tuple(filter_sizes), tuple(out_backprop_shape), tuple(strides),
           None if dilations is None else tuple(dilations), padding,
           tuple(explicit))
    i64 = _capi.int64_array
    in_p, in_n = i64(input_shape)
    fs_p, fs_n = i64(filter_sizes)
    ob_p, ob_n = i64(out_backprop_shape)
    st_p, st_n = i64(strides)
    di_p, di_n = i64(dilations)
    ex_p, ex_n = i64(explicit)
    return _cached(key, lambda err: _capi.compile_backprop_filter(
        _capi.encode(dtype), _capi.encode(data_format), in_p, in_n, fs_p, fs_n,
        ob_p, ob_n, st_p, st_n, di_p, di_n, _capi.encode(padding), ex_p, ex_n,
        0, err))


def _transpose_kernel(dtype: str, data_format: str, input_shape: Sequence[int],
                      kernel_shape: Sequence[int], strides: Sequence[int],
                      dilation_rate: Sequence[int], padding: str,
                      output_padding: Optional[Sequence[int]]) -> _Kernel:
    key = ("transpose", dtype, data_format, tuple(input_shape),
           tuple(kernel_shape), tuple(strides), tuple(dilation_rate), padding,
           None if output_padding is None else tuple(output_padding))
    i64 = _capi.int64_array
    in_p, in_n = i64(input_shape)
    k_p, k_n = i64(kernel_shape)
    st_p, st_n = i64(strides)
    di_p, di_n = i64(dilation_rate)
    op_p, op_n = i64(output_padding)
    return _cached(key, lambda err: _capi.compile_transpose(
        _capi.encode(dtype), _capi.encode(data_format), in_p, in_n, k_p, k_n,
        st_p, st_n, di_p, di_n, _capi.encode(padding), op_p, op_n, 0, err))


_TF_FORMATS = {"NWC": 1, "NHWC": 2, "NDHWC": 3, "NCW": 1, "NCHW": 2, "NCDHW": 3}
_CHANNELS_LAST = {1: "NWC", 2: "NHWC", 3: "NDHWC"}


def _nd_backprop_filter_args(
    input_rank: int, strides: Any, padding: Any, data_format: Any,
    dilations: Any, explicit_paddings: Any,
) -> Tuple[str, List[int], Optional[List[int]], str, List[int]]:
    """Normalizes backprop_filter's arguments; returns
    (data_format, strides, dilations, padding, explicit)."""
    if data_format is None:
        if input_rank - 2 not in _CHANNELS_LAST:
            raise ValueError(
                "operand 'input' must have rank 3, 4 or 5 (1 to 3 spatial "
                f"dimensions), got rank {input_rank}")
        data_format = _CHANNELS_LAST[input_rank - 2]
    if not isinstance(data_format, str):
        raise ConvGenTypeError(
            f"Expected string for argument 'data_format' not {data_format!r}.")
    n = _TF_FORMATS.get(data_format, max(input_rank - 2, 0))
    strides = _int_or_ints("strides", strides, n, "an int or a list of ints")
    if dilations is not None:
        dilations = _int_or_ints("dilations", dilations, n, "an int or a list of ints")

    explicit: List[int] = []
    if isinstance(padding, (list, tuple)):
        if explicit_paddings is not None:
            raise ValueError("explicit_paddings must be None when `padding` is "
                             "a list (the list gives the explicit paddings)")
        flat = _check_pairs(padding)
        if len(padding) == n + 2:
            channels_last = data_format in ("NWC", "NHWC", "NDHWC")
            _check_valid_explicit_padding(flat, 0, n + 1 if channels_last else 1)
            first = 1 if channels_last else 2
            explicit = flat[2 * first:2 * (first + n)]
        elif len(padding) == n:
            explicit = flat
        else:
            raise ValueError(
                f"When padding is a list, it must be of size {n + 2} (data-format "
                f"order, as in TF) or {n} (spatial dimensions only). Received: "
                f"padding={padding} of size {len(padding)}")
        padding = "EXPLICIT"
    elif not isinstance(padding, str):
        raise ConvGenTypeError(
            f"Expected string or a list of [before, after] pairs for argument "
            f"'padding' not {padding!r}.")
    elif explicit_paddings is not None:
        items = list(explicit_paddings)
        if items and all(_is_int(v) for v in items):
            explicit = [int(v) for v in items]
        else:
            explicit = _check_pairs(items)
    return data_format, strides, dilations, padding, explicit


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------

def conv2d_backprop_filter(
    input: npt.ArrayLike,
    filter_sizes: Sequence[int],
    out_backprop: npt.ArrayLike,
    strides: Sequence[int],
    padding: Union[str, PaddingPairs],
    use_cudnn_on_gpu: bool = True,
    data_format: str = "NHWC",
    dilations: Sequence[int] = [1, 1, 1, 1],  # noqa: B006 (TF's signature)
    name: Optional[str] = None,
) -> np.ndarray:
    """Computes the gradients of convolution with respect to the filter.

    `tf.compat.v1.nn.conv2d_backprop_filter`, same arguments and semantics,
    compiled by ConvGen for the host CPU.

    Args:
      input: An array of type float16, bfloat16 (`ml_dtypes.bfloat16`),
        float32 or float64. 4-D with shape `[batch, in_height, in_width,
        in_channels]` (NHWC) or `[batch, in_channels, in_height, in_width]`
        (NCHW).
      filter_sizes: A vector of 4 ints: the shape of the filter,
        `[filter_height, filter_width, in_channels / groups, out_channels]`.
      out_backprop: An array of the same type as `input`. 4-D with shape
        `[batch, out_height, out_width, out_channels]` (or NCHW).
        Gradients w.r.t. the output of the convolution.
      strides: A list of 4 ints. The stride of the sliding window for each
        dimension of the input of the convolution, in `data_format` order;
        the batch and channel entries must be 1.
      padding: Either the string `"SAME"` or `"VALID"` indicating the type
        of padding algorithm to use, or a list indicating the explicit
        paddings at the start and end of each dimension. When explicit
        padding is used and data_format is `"NHWC"`, this should be in the
        form `[[0, 0], [pad_top, pad_bottom], [pad_left, pad_right], [0,
        0]]`. When explicit padding used and data_format is `"NCHW"`, this
        should be in the form `[[0, 0], [0, 0], [pad_top, pad_bottom],
        [pad_left, pad_right]]`.
      use_cudnn_on_gpu: An optional bool. Defaults to True. Accepted and
        ignored (ConvGen runs on the CPU).
      data_format: An optional string from: `"NHWC", "NCHW"`. Defaults to
        `"NHWC"`. The data format of the input and output data.
      dilations: An optional list of 4 ints. Defaults to `[1, 1, 1, 1]`. The
        dilation factor for each dimension of `input`, in `data_format`
        order. If set to k > 1, there will be k-1 skipped cells between each
        filter element on that dimension. Dilations in the batch and depth
        dimensions must be 1.
      name: A name for the operation (optional; ignored).

    Returns:
      An array of the same type as `input`, of shape `filter_sizes`
      (always HWIO, whatever `data_format`).

    Unlike TF's CPU kernel, grouped convolutions (`in_channels` a multiple of
    `filter_sizes[2]`), NCHW and dilations > 1 are all supported (TF's
    GPU/XLA semantics). f16/bf16 accumulate in f32 and round once.

    Raises:
      ValueError: for every invalid argument, with TF's message for the
        checks of the Python API and the op constructor (padding list,
        4-entry strides/dilations, batch/channel entries) and the
        ConvGen verifier's message for the rest (docs/Semantics.md §3.1).
        Type errors (dtypes) raise `ConvGenTypeError`, which is both a
        TypeError (as in TF) and a ValueError.
    """
    del name
    op = "Conv2DBackpropFilter"
    padding, explicit = convert_padding(padding)
    x, dy, dtype = _operands(input, out_backprop, "input", "out_backprop", op)
    # Attribute checks of the op registration.
    for attr, value, allowed in (("padding", padding, ("SAME", "VALID", "EXPLICIT")),
                                 ("data_format", data_format, ("NHWC", "NCHW"))):
        if not isinstance(value, str):
            raise ConvGenTypeError(
                f"Expected string for argument '{attr}' not {value!r}.")
        if value not in allowed:
            raise ValueError(
                f"Value for attr '{attr}' of \"{value}\" is not in the list of "
                "allowed values: " + ", ".join(f'"{a}"' for a in allowed))
    strides = _tf_int_list("strides", strides, op)
    dilations = _tf_int_list("dilations", dilations, op)
    if not isinstance(use_cudnn_on_gpu, (bool, np.bool_)):
        raise ConvGenTypeError(
            f"Expected bool for argument 'use_cudnn_on_gpu' not {use_cudnn_on_gpu!r}.")

    # The kernel constructor (TF spec §1.4 rows 3-12, in that order).
    n_dim, c_dim = (0, 3) if data_format == "NHWC" else (0, 1)
    h_dim, w_dim = (1, 2) if data_format == "NHWC" else (2, 3)
    if len(strides) != 4:
        raise ValueError("Sliding window strides field must specify 4 dimensions")
    if strides[n_dim] != 1 or strides[c_dim] != 1:
        raise ValueError("Current implementation does not yet support strides "
                         "in the batch and depth dimensions.")
    if strides[h_dim] <= 0 or strides[w_dim] <= 0:
        raise ValueError("Row and column strides should be larger than 0.")
    if padding == "EXPLICIT":
        _check_valid_explicit_padding(explicit, n_dim, c_dim)
    if len(dilations) != 4:
        raise ValueError("Sliding window dilations field must specify 4 dimensions")
    if dilations[n_dim] != 1 or dilations[c_dim] != 1:
        raise ValueError("Current implementation does not yet support dilations "
                         "in the batch and depth dimensions.")
    if dilations[h_dim] <= 0 or dilations[w_dim] <= 0:
        raise ValueError("Dilated rates should be larger than 0.")

    # Compute: filter_sizes, then the verifier (ranks, channels, sizes).
    sizes = _filter_sizes(filter_sizes, op)
    spatial_explicit = (explicit[2 * h_dim:2 * h_dim + 2] + explicit[2 * w_dim:2 * w_dim + 2]
                        if padding == "EXPLICIT" else [])
    kernel = _backprop_filter_kernel(
        dtype, data_format, x.shape, sizes, dy.shape,
        [strides[h_dim], strides[w_dim]], [dilations[h_dim], dilations[w_dim]],
        cast(str, padding), spatial_explicit)  # a string (checked above)
    return _run(kernel, x, dy, reference=False)


def _backprop_filter(input: Any, filter_sizes: Any, out_backprop: Any, strides: Any,
                     padding: Any, data_format: Any, dilations: Any,
                     explicit_paddings: Any, reference: bool) -> np.ndarray:
    op = "backprop_filter"
    x, dy, dtype = _operands(input, out_backprop, "input", "out_backprop", op)
    data_format, strides, dilations, padding, explicit = _nd_backprop_filter_args(
        x.ndim, strides, padding, data_format, dilations, explicit_paddings)
    sizes = _filter_sizes(filter_sizes, op, nd=True)
    kernel = _backprop_filter_kernel(dtype, data_format, x.shape, sizes, dy.shape,
                                     strides, dilations, padding, explicit)
    return _run(kernel, x, dy, reference)


def backprop_filter(
    input: npt.ArrayLike,
    filter_sizes: Sequence[int],
    out_backprop: npt.ArrayLike,
    strides: IntOrInts,
    padding: Union[str, PaddingPairs],
    data_format: Optional[str] = None,
    dilations: Optional[IntOrInts] = None,
    explicit_paddings: Optional[Union[Sequence[int], PaddingPairs]] = None,
) -> np.ndarray:
    """The filter gradient of an N-D (grouped) convolution, N = 1, 2 or 3.

    `conv.backprop_filter`: `tf.nn.conv2d_backprop_filter` generalized to
    1-D, 2-D and 3-D (`Conv3DBackpropFilterV2`) and to groups, with one
    stride and dilation per spatial dimension.

    Args:
      input: float16/bfloat16/float32/float64 array of rank N + 2,
        `[batch, spatial..., in_channels]` (channels last) or `[batch,
        in_channels, spatial...]` (channels first).
      filter_sizes: N + 2 ints, `[spatial..., in_channels / groups,
        out_channels]`; the group count is `in_channels / filter_sizes[N]`.
      out_backprop: array of the same dtype, `[batch, out..., out_channels]`
        (or channels first); `out...` must be the sizes the forward
        convolution produces (TF's `GetWindowedOutputSize`).
      strides: an int (every spatial dimension) or N ints.
      padding: `"SAME"`, `"VALID"`, `"EXPLICIT"` (with `explicit_paddings`),
        or a list of [before, after] pairs: N pairs (spatial dimensions) or
        N + 2 pairs in data-format order with zero batch/channel pairs (as
        TF's `padding` list).
      data_format: `"NWC"`, `"NHWC"`, `"NDHWC"`, `"NCW"`, `"NCHW"` or
        `"NCDHW"`; it must name the rank of `input`. Default: the channels-
        last format of `input`'s rank.
      dilations: None (all 1), an int or N ints.
      explicit_paddings: with `padding="EXPLICIT"`: N [before, after] pairs
        in spatial order, or the flat list `[before_0, after_0, ...]`.

    Returns:
      An array of `input`'s dtype and shape `filter_sizes`.

    Raises:
      ValueError: for every invalid argument, with the ConvGen verifier's
        message (docs/Semantics.md §3.1); `ConvGenTypeError` (TypeError and
        ValueError) for unsupported or mismatched dtypes.
    """
    return _backprop_filter(input, filter_sizes, out_backprop, strides, padding,
                            data_format, dilations, explicit_paddings, False)


def reference_backprop_filter(
    input: npt.ArrayLike,
    filter_sizes: Sequence[int],
    out_backprop: npt.ArrayLike,
    strides: IntOrInts,
    padding: Union[str, PaddingPairs],
    data_format: Optional[str] = None,
    dilations: Optional[IntOrInts] = None,
    explicit_paddings: Optional[Union[Sequence[int], PaddingPairs]] = None,
) -> np.ndarray:
    """`backprop_filter` computed by ConvGen's plain reference implementation.

    The same computation with ConvGen's scalar reference (conv/Reference:
    f64 accumulation, one rounding to the element type) instead of the
    compiled kernel: an oracle for tests. The arguments are checked exactly
    as by `backprop_filter` (the kernel is still compiled, not run).

    Args:
      input: As for `backprop_filter`.
      filter_sizes: As for `backprop_filter`.
      out_backprop: As for `backprop_filter`.
      strides: As for `backprop_filter`.
      padding: As for `backprop_filter`.
      data_format: As for `backprop_filter`.
      dilations: As for `backprop_filter`.
      explicit_paddings: As for `backprop_filter`.

    Returns:
      An array of `input`'s dtype and shape `filter_sizes`.

    Raises:
      ValueError: As `backprop_filter` (`ConvGenTypeError` for dtypes).
    """
    return _backprop_filter(input, filter_sizes, out_backprop, strides, padding,
                            data_format, dilations, explicit_paddings, True)


def _standardize_data_format(data_format: Any) -> str:
    """keras.backend.standardize_data_format."""
    if data_format is None:
        return "channels_last"
    fmt = str(data_format).lower()
    if fmt not in {"channels_first", "channels_last"}:
        raise ValueError(
            "The `data_format` argument must be one of "
            "{'channels_first', 'channels_last'}. "
            f"Received: data_format={fmt}")
    return fmt


def _conv_transpose(inputs: Any, kernel: Any, strides: Any, padding: Any,
                    output_padding: Any, data_format: Any, dilation_rate: Any,
                    reference: bool) -> np.ndarray:
    data_format = _standardize_data_format(data_format)
    padding = padding.lower()  # a non-string raises AttributeError, as in Keras
    op = "conv_transpose"
    x, k, dtype = _operands(inputs, kernel, "inputs", "kernel", op)
    if x.ndim >= 2 and k.ndim >= 1:
        input_channels = x.shape[-1] if data_format == "channels_last" else x.shape[1]
        if input_channels != k.shape[-1]:
            raise ValueError(
                "The number of input channels must match the kernel's input "
                f"channels. Received: input channels={input_channels}, kernel "
                f"input channels={k.shape[-1]}, data_format='{data_format}'.")
    if padding not in ("valid", "same"):
        raise ValueError("The `padding` argument must be one of 'valid', "
                         f"'same'. Received: padding={padding}")
    n = max(x.ndim - 2, 0)
    what = "an int or a tuple/list of ints"
    strides = _int_or_ints("strides", strides, n, what)
    dilation_rate = _int_or_ints("dilation_rate", dilation_rate, n, what)
    if output_padding is not None:
        output_padding = _int_or_ints("output_padding", output_padding, n, what)
    kern = _transpose_kernel(dtype, data_format, x.shape, k.shape, strides,
                             dilation_rate, padding, output_padding)
    return _run(kern, x, k, reference)


def conv_transpose(
    inputs: npt.ArrayLike,
    kernel: npt.ArrayLike,
    strides: IntOrInts,
    padding: str = "valid",
    output_padding: Optional[IntOrInts] = None,
    data_format: Optional[str] = None,
    dilation_rate: IntOrInts = 1,
) -> np.ndarray:
    """General N-D convolution transpose (`keras.ops.conv_transpose`).

    Also known as de-convolution. This op supports 1D, 2D and 3D
    convolution. Same arguments and semantics as Keras 3 (the JAX backend's
    values), compiled by ConvGen for the host CPU.

    Args:
      inputs: Tensor of rank N+2. `inputs` has shape `(batch_size,) +
        inputs_spatial_shape + (num_channels,)` if
        `data_format="channels_last"`, or `(batch_size, num_channels) +
        inputs_spatial_shape` if `data_format="channels_first"`. dtype
        float16, bfloat16 (`ml_dtypes.bfloat16`), float32 or float64.
      kernel: Tensor of rank N+2. `kernel` has shape `[kernel_spatial_shape,
        num_output_channels, num_input_channels]`; `num_input_channels`
        must match the number of channels in `inputs`. Same dtype as
        `inputs`.
      strides: int or int tuple/list of `len(inputs_spatial_shape)`,
        specifying the strides of the convolution along each spatial
        dimension. If `strides` is int, then every spatial dimension shares
        the same `strides`.
      padding: string, either `"valid"` or `"same"` (lowercased first).
        `"valid"` means no padding is applied, and `"same"` results in
        padding evenly to the left/right or up/down of the input such that
        output has the same height/width dimension as the input when
        `strides=1`.
      output_padding: int or int tuple/list of `len(inputs_spatial_shape)`,
        specifying the amount of padding along the height and width of the
        output tensor. Can be a single integer to specify the same value for
        all spatial dimensions. The amount of output padding along a given
        dimension must be lower than the stride along that same dimension.
        If set to `None` (default), the output shape is inferred. `None`
        and `0` are not the same (different size and alignment).
      data_format: A string, either `"channels_last"` or `"channels_first"`
        (any case). `None` means `"channels_last"`.
      dilation_rate: int or int tuple/list of `len(inputs_spatial_shape)`,
        specifying the dilation rate to use for dilated convolution. If
        `dilation_rate` is int, then every spatial dimension shares the same
        `dilation_rate`. Dilation together with strides > 1 is allowed.

    Returns:
      An array of rank N+2 and `inputs`' dtype, the result of the conv
      operation.

    Raises:
      AttributeError: when `padding` is not a string (Keras calls
        `padding.lower()` first).
      ValueError: Keras' messages for an invalid `data_format`, `padding`
        or an input-channel mismatch; the ConvGen verifier's message
        (docs/Semantics.md §3.2) for everything else, including
        `output_padding >= strides`, which ConvGen rejects like the Keras
        layers do. `ConvGenTypeError` (TypeError and ValueError) for
        unsupported or mismatched dtypes.
    """
    return _conv_transpose(inputs, kernel, strides, padding, output_padding,
                           data_format, dilation_rate, False)


def reference_conv_transpose(
    inputs: npt.ArrayLike,
    kernel: npt.ArrayLike,
    strides: IntOrInts,
    padding: str = "valid",
    output_padding: Optional[IntOrInts] = None,
    data_format: Optional[str] = None,
    dilation_rate: IntOrInts = 1,
) -> np.ndarray:
    """`conv_transpose` computed by ConvGen's plain reference implementation.

    The same computation with ConvGen's scalar reference (conv/Reference:
    f64 accumulation, one rounding to the element type) instead of the
    compiled kernel: an oracle for tests. The arguments are checked exactly
    as by `conv_transpose` (the kernel is still compiled, not run).

    Args:
      inputs: As for `conv_transpose`.
      kernel: As for `conv_transpose`.
      strides: As for `conv_transpose`.
      padding: As for `conv_transpose`.
      output_padding: As for `conv_transpose`.
      data_format: As for `conv_transpose`.
      dilation_rate: As for `conv_transpose`.

    Returns:
      An array of rank N+2 and `inputs`' dtype.

    Raises:
      AttributeError: When `padding` is not a string (as Keras).
      ValueError: As `conv_transpose` (`ConvGenTypeError` for dtypes).
    """
    return _conv_transpose(inputs, kernel, strides, padding, output_padding,
                           data_format, dilation_rate, True)


# --------------------------------------------------------------------------
# Shapes without compiling
# --------------------------------------------------------------------------

def backprop_filter_out_backprop_shape(
    input_shape: Sequence[int],
    filter_sizes: Sequence[int],
    strides: IntOrInts,
    padding: Union[str, PaddingPairs],
    data_format: Optional[str] = None,
    dilations: Optional[IntOrInts] = None,
    explicit_paddings: Optional[Union[Sequence[int], PaddingPairs]] = None,
) -> Tuple[int, ...]:
    """The `out_backprop` shape `backprop_filter` expects, without compiling.

    TF's `GetWindowedOutputSize` per spatial dimension (the shape of the
    forward convolution's output).

    Args:
      input_shape: The shape of `input` (N + 2 ints).
      filter_sizes: As for `backprop_filter`.
      strides: As for `backprop_filter`.
      padding: As for `backprop_filter`.
      data_format: As for `backprop_filter`.
      dilations: As for `backprop_filter`.
      explicit_paddings: As for `backprop_filter`.

    Returns:
      The shape, a tuple of N + 2 ints in `data_format` order.

    Raises:
      ValueError: For invalid arguments, with the messages of
        `backprop_filter` (`CApiError` carries the verifier's).
    """
    input_shape = [int(v) for v in input_shape]
    data_format, strides, dilations, padding, explicit = _nd_backprop_filter_args(
        len(input_shape), strides, padding, data_format, dilations, explicit_paddings)
    sizes = _filter_sizes(filter_sizes, "backprop_filter", nd=True)
    i64 = _capi.int64_array
    out = (ctypes.c_int64 * len(input_shape))()
    err = _capi.ErrorSlot()
    if _capi.backprop_filter_out_backprop_shape(
            _capi.encode(data_format), *i64(input_shape), *i64(sizes),
            *i64(strides), *i64(dilations), _capi.encode(padding),
            *i64(explicit), out, err.ref) != 0:
        raise _capi.CApiError(err.take("convgen: shape inference failed"))
    return tuple(int(v) for v in out)


def conv_transpose_output_shape(
    input_shape: Sequence[int],
    kernel_shape: Sequence[int],
    strides: IntOrInts,
    padding: str = "valid",
    output_padding: Optional[IntOrInts] = None,
    data_format: Optional[str] = None,
    dilation_rate: IntOrInts = 1,
) -> Tuple[int, ...]:
    """The output shape of `conv_transpose`, without compiling.

    Keras' `compute_conv_transpose_output_shape`.

    Args:
      input_shape: The shape of `inputs` (N + 2 ints).
      kernel_shape: The shape of `kernel` (N + 2 ints).
      strides: As for `conv_transpose`.
      padding: As for `conv_transpose`.
      output_padding: As for `conv_transpose`.
      data_format: As for `conv_transpose`.
      dilation_rate: As for `conv_transpose`.

    Returns:
      The shape, a tuple of N + 2 ints in `data_format` order.

    Raises:
      AttributeError: When `padding` is not a string (as Keras).
      ValueError: For invalid arguments, with the messages of
        `conv_transpose` (`CApiError` carries the verifier's).
    """
    data_format = _standardize_data_format(data_format)
    padding = padding.lower()
    if padding not in ("valid", "same"):
        raise ValueError("The `padding` argument must be one of 'valid', "
                         f"'same'. Received: padding={padding}")
    input_shape = [int(v) for v in input_shape]
    kernel_shape = [int(v) for v in kernel_shape]
    n = max(len(input_shape) - 2, 0)
    what = "an int or a tuple/list of ints"
    strides = _int_or_ints("strides", strides, n, what)
    dilation_rate = _int_or_ints("dilation_rate", dilation_rate, n, what)
    if output_padding is not None:
        output_padding = _int_or_ints("output_padding", output_padding, n, what)
    i64 = _capi.int64_array
    out = (ctypes.c_int64 * len(input_shape))()
    err = _capi.ErrorSlot()
    if _capi.transpose_output_shape(
            _capi.encode(data_format), *i64(input_shape), *i64(kernel_shape),
            *i64(strides), *i64(dilation_rate), _capi.encode(padding),
            *i64(output_padding), out, err.ref) != 0:
        raise _capi.CApiError(err.take("convgen: shape inference failed"))
    return tuple(int(v) for v in out)
